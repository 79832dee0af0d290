// GameRoom: who sits in its seats (players.h): the taker of a free seat, and
// the names a seat's holder gives it.
#include "server/app/players.h"
#include "server/app/room.h"

namespace acedrex::server {

Outcome GameRoom::seatPlayer(std::vector<SeatPlan>& seats, int seat, const SeatPlan* player) {
  SeatPlan& s = seats[static_cast<size_t>(seat)];
  if (s.rated) {
    if (!player || !player->account || player->name.empty())
      return apiError(403, "account-needed", "a rated game's seat is for a signed-in account");
    for (size_t i = 0; i < seats.size(); ++i)
      if (static_cast<int>(i) != seat && seats[i].account && seats[i].name == player->name)
        return apiError(409, "same-player", "the other seat of this rated game is yours");
  }
  if (player && !player->name.empty()) seatThePlayer(s, *player);
  return done();
}

bool GameRoom::chatAuthor(const std::string& token, std::string* seat, std::string* author) {
  std::lock_guard lock(m_);
  const auto held = seatsOfLocked(token);
  if (token.empty() || held.empty()) return false;
  const int s = held.front();
  *seat = rules_->seats[static_cast<size_t>(s)].name;
  const std::string& name = meta_.seats[static_cast<size_t>(s)].name;
  *author = name.empty() ? *seat : name;
  return true;
}

Outcome GameRoom::nameSeats(const std::string& token, const SeatPlan& player) {
  if (player.name.empty()) return apiError(400, "bad-name", "a name is needed");
  std::lock_guard lock(m_);
  const auto held = seatsOfLocked(token);
  if (token.empty()) return apiError(401, "no-token", "a seat token is needed");
  if (held.empty()) return apiError(403, "wrong-token", "this token holds no seat in this game");
  std::vector<SeatPlan> next = meta_.seats;
  bool named = false;
  for (int s : held) {
    SeatPlan& plan = next[static_cast<size_t>(s)];
    if (plan.bot || !plan.name.empty() || plan.rated) continue;
    (void)seatPlayer(next, s, &player);
    named = true;
  }
  if (!named) return apiError(409, "named", "the seats of this token have their names");
  const Status stored = store_.replaceSeats(meta_.id, meta_.seats, next);
  if (!stored.ok() && stored.error().code == kStoreConflict) {
    if (catchUpLocked()) afterAction();
    return apiError(409, "named", "the seats changed a moment ago");
  }
  if (!stored.ok()) return apiError(503, "store", "the name could not be stored: " + stored.error().text());
  meta_.seats = std::move(next);
  publish("state");
  return done();
}

}  // namespace acedrex::server
