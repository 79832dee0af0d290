// GameRoom (room.h): the players' actions (move, resign, draw, takeback, take a
// seat) and committing an entry: store first, then memory, then subscribers.
#include <algorithm>
#include <cstdio>

#include "server/app/room.h"

namespace acedrex::server {

Outcome GameRoom::seatsHeld(const std::string& token, std::vector<int>* seats) const {
  if (token.empty()) return apiError(401, "no-token", "a seat token is needed (Authorization: Bearer <token>)");
  *seats = seatsOfLocked(token);
  if (seats->empty()) return apiError(403, "wrong-token", "this token holds no seat in this game");
  return done();
}

Outcome GameRoom::commitEntry(const std::string& text, int seat) {
  const int64_t now = time_.steadyMs();
  std::vector<int64_t> clocks;
  const bool boardMove = entryKindOf(text) == EntryKind::kMove;
  if (clock_.enabled()) {
    const Clock::Entry charge = entryKindOf(text) == EntryKind::kTimeout ? Clock::Entry::kFlagFall
                                : boardMove && text != "0000"            ? Clock::Entry::kIncrement
                                                                         : Clock::Entry::kNoIncrement;
    clocks = clock_.afterEntry(runningSeat(), seat, charge, now);
  }
  StoredEntry e;
  e.ply = static_cast<int>(entries_.size());
  e.text = text;
  e.seat = seat;
  e.die = game_->currentThrow();
  e.clockMs = clocks;
  e.atMs = time_.wallMs();
  // The entry is applied to a copy first: when it ends the game, the entry
  // and the result are stored in one transaction. Memory changes only once
  // the store has committed.
  auto next = std::make_unique<Game>(*game_);
  std::vector<std::string> reasons = outReason_;
  if (!applyEntryToGame(*next, text, seat, reasons)) {
    // Cannot happen: callers check legality first.
    std::fprintf(stderr, "acedrex serve: game %s: entry \"%s\" did not apply\n", meta_.id.c_str(), text.c_str());
    return apiError(500, "internal", "the entry did not apply");
  }
  const bool over = next->finished();
  const Status stored =
      over ? store_.appendFinal(meta_.id, e, resultJsonOf(*next, reasons)) : store_.appendEntry(meta_.id, e);
  if (!stored.ok() && stored.error().code == kStoreConflict) {
    // Another process stored an entry for this ply first: this one came too late.
    catchUpLocked();
    lostRace_ = true;
    return apiError(409, "too-late", "another move was stored first; the game has moved on");
  }
  if (!stored.ok()) return apiError(503, "store", "the move could not be stored: " + stored.error().text());
  notes_.push_back(entryNoteOf(*game_, *next, text));
  game_ = std::move(next);
  outReason_ = std::move(reasons);
  entries_.push_back(std::move(e));
  if (seat >= 0 && seat < rules_->nseats() && !meta_.seats[static_cast<size_t>(seat)].bot)
    lastHumanMs_ = time_.wallMs();
  if (clock_.enabled()) clock_.set(clocks, now);
  if (boardMove || over) drawOffer_ = takebackOffer_ = -1;
  ++epoch_;
  wait_ = StoreWait{};  // the record moved on: whatever waited for the store is stored or stale
  publish(over ? "end" : "move");
  return done();
}

void GameRoom::afterAction() {
  if (wait_.active) return;  // retryStore() goes on when the store takes the pending entry
  for (int guard = 0; guard < 10000 && !over(); ++guard) {
    const int tm = game_->position().toMove();
    if (timedOut(tm, time_.steadyMs())) {
      if (!commitEntry("timeout", tm).ok()) return waitForStore("timeout", tm);
      continue;
    }
    const auto legal = game_->legalMoves();
    if (legal.size() == 1 && legal[0].isNull()) {
      if (!commitEntry("0000", tm).ok()) return waitForStore("0000", tm);
      continue;
    }
    break;
  }
  maybeScheduleBot();
}

Outcome GameRoom::move(const std::string& token, const std::string& moveText) {
  std::lock_guard lock(m_);
  std::vector<int> seats;
  if (auto held = seatsHeld(token, &seats); !held.ok()) return held;
  if (over()) return apiError(409, "game-over", "the game is over");
  const int tm = game_->position().toMove();
  if (std::find(seats.begin(), seats.end(), tm) == seats.end())
    return apiError(403, "not-your-turn", "it is " + rules_->seats[static_cast<size_t>(tm)].name + "'s turn");
  if (hasOpenSeat(meta_.seats)) return apiError(409, "waiting", "the game starts when every seat is taken");
  if (moveText.size() > 16) return apiError(400, "illegal-move", "malformed move text");
  if (timedOut(tm, time_.steadyMs())) {
    if (auto committed = commitEntry("timeout", tm); !committed.ok()) return committed;
    afterAction();
    return apiError(409, "time-out", "your time ran out");
  }
  bool legal = false;
  for (Move m : game_->legalMoves())
    if (game_->position().moveText(m) == moveText) legal = true;
  if (!legal) {
    // Fog of war: the engine's words could tell what stands on a hidden square.
    if (rules_->fog) return apiError(400, "illegal-move", "not a legal move here");
    // The engine's own words for why: a probe on a copy, so nothing changes here.
    Game probe(*game_);
    auto s = probe.play(moveText);
    return apiError(400, "illegal-move", s.ok() ? "not a legal move here" : s.error().text());
  }
  if (auto committed = commitEntry(moveText, tm); !committed.ok()) return committed;
  afterAction();
  return done();
}

Outcome GameRoom::resign(const std::string& token, const std::string& seatName) {
  std::lock_guard lock(m_);
  std::vector<int> seats;
  if (auto held = seatsHeld(token, &seats); !held.ok()) return held;
  if (over()) return apiError(409, "game-over", "the game is over");
  const Position& p = game_->position();
  int seat = -1;
  if (!seatName.empty()) {
    const int s = rules_->seatByName(seatName);
    if (s < 0) return apiError(400, "bad-seat", "no seat named \"" + seatName + "\"");
    if (std::find(seats.begin(), seats.end(), s) == seats.end())
      return apiError(403, "wrong-token", "this token does not hold " + seatName);
    seat = s;
  } else if (std::find(seats.begin(), seats.end(), p.toMove()) != seats.end()) {
    seat = p.toMove();
  } else {
    for (int s : seats)
      if (p.isIn(s)) {
        seat = s;
        break;
      }
  }
  if (seat < 0 || !p.isIn(seat)) return apiError(409, "seat-out", "that seat is already out");
  if (auto committed = commitEntry("resign", seat); !committed.ok()) return committed;
  afterAction();
  return done();
}

Outcome GameRoom::draw(const std::string& token, const std::string& action) {
  std::lock_guard lock(m_);
  std::vector<int> seats;
  if (auto held = seatsHeld(token, &seats); !held.ok()) return held;
  if (action != "offer" && action != "accept" && action != "decline")
    return apiError(400, "bad-action", "a draw action is offer, accept or decline");
  if (rules_->nseats() != 2) return apiError(409, "no-draws", "draw offers are for two-player games");
  if (over()) return apiError(409, "game-over", "the game is over");
  const int tm = game_->position().toMove();
  auto holds = [&](int s) { return std::find(seats.begin(), seats.end(), s) != seats.end(); };
  const int mine = holds(tm) ? tm : seats.front();
  if (action == "offer") {
    if (drawOffer_ >= 0 && drawOffer_ != mine) {  // both want it: agreed
      if (auto committed = commitEntry("draw", mine); !committed.ok()) return committed;
      return done();
    }
    const int other = 1 - mine;
    if (meta_.seats[static_cast<size_t>(other)].bot) {
      drawOffer_ = -1;  // bots decline at once
      publish("state");
      return done();
    }
    drawOffer_ = mine;
    publish("state");
    return done();
  }
  if (drawOffer_ < 0) return apiError(409, "no-offer", "there is no draw offer");
  if (action == "accept") {
    int accepter = -1;
    for (int s : seats)
      if (s != drawOffer_) accepter = s;
    if (accepter < 0) return apiError(409, "own-offer", "a seat cannot accept its own offer");
    if (auto committed = commitEntry("draw", accepter); !committed.ok()) return committed;
    return done();
  }
  drawOffer_ = -1;  // decline (or withdraw)
  publish("state");
  return done();
}

Outcome GameRoom::takeback(const std::string& token, const std::string& action) {
  std::lock_guard lock(m_);
  std::vector<int> seats;
  if (auto held = seatsHeld(token, &seats); !held.ok()) return held;
  // Fog of war: a take-back would show the player a position the fog hid.
  if (rules_->fog) return apiError(403, "no-takeback", "there are no takebacks in fog of war");
  bool people = false;  // another person holds a seat: the takeback needs their consent (room_takeback.cpp)
  for (size_t s = 0; s < meta_.seats.size(); ++s)
    if (std::find(seats.begin(), seats.end(), static_cast<int>(s)) == seats.end() && !meta_.seats[s].bot)
      people = true;
  if (people) {
    int offerer = -1;
    if (auto agreed = negotiateTakeback(seats, action, &offerer); !agreed.ok() || offerer < 0) return agreed;
    seats = {offerer};
  } else if (!action.empty() && action != "offer") {
    return apiError(409, "no-offer", "against bots a takeback needs no offer");
  }
  auto holds = [&](int s) { return std::find(seats.begin(), seats.end(), s) != seats.end(); };
  int cut = -1;
  for (int i = static_cast<int>(entries_.size()) - 1; i >= 0; --i) {
    const auto& e = entries_[static_cast<size_t>(i)];
    if (entryKindOf(e.text) != EntryKind::kMove) return apiError(409, "no-takeback", "a resignation, timeout or draw cannot be taken back");
    if (e.text != "0000" && holds(e.seat)) {
      cut = i;
      break;
    }
  }
  if (cut < 0) return apiError(409, "no-takeback", "there is no move of yours to take back");
  if (aborted_) return apiError(409, "game-over", "the game was aborted");
  const bool wasOver = over();
  if (auto s = store_.truncate(meta_.id, cut); !s.ok())
    return apiError(503, "store", "the takeback could not be stored: " + s.error().text());
  auto fresh = std::make_unique<Game>(rules_, meta_.seed);
  (void)fresh->setStart(meta_.startFen);
  std::vector<std::string> reasons(outReason_.size());
  entries_.resize(static_cast<size_t>(cut));
  recordRewritten_ = true;
  notes_.resize(std::min(notes_.size(), entries_.size()));
  wait_ = StoreWait{};
  for (const auto& e : entries_) (void)applyEntryToGame(*fresh, e.text, e.seat, reasons);
  game_ = std::move(fresh);
  outReason_ = reasons;
  clock_.restart(time_.steadyMs());
  drawOffer_ = takebackOffer_ = -1;
  ++epoch_;
  botStop_ = true;
  publish("state");
  if (wasOver && meta_.clock.enabled && host_) host_->clockActive(shared_from_this());
  afterAction();
  return done();
}

Outcome GameRoom::takeSeat(const std::string& seatName, const std::string& token, std::string* taken,
                           const SeatPlan* player) {
  std::lock_guard lock(m_);
  if (over()) return apiError(409, "game-over", "the game is over");
  int free = -1;
  for (int s = 0; s < rules_->nseats(); ++s) {
    const SeatPlan& p = meta_.seats[static_cast<size_t>(s)];
    if (!p.bot && p.open && (seatName.empty() || seatName == rules_->seats[static_cast<size_t>(s)].name)) {
      free = s;
      break;
    }
  }
  if (free < 0) return apiError(409, "seat-taken", seatName.empty() ? "no seat is free" : seatName + " is not free");
  std::vector<SeatPlan> next = meta_.seats;
  if (auto refused = seatPlayer(next, free, player); !refused.ok()) return refused;
  next[static_cast<size_t>(free)].open = false;
  next[static_cast<size_t>(free)].token = token;
  const Status stored = store_.replaceSeats(meta_.id, meta_.seats, next);
  if (!stored.ok() && stored.error().code == kStoreConflict) {
    if (catchUpLocked()) afterAction();  // another process took a seat first: its seats are in the store
    return apiError(409, "seat-taken", "the seat was taken a moment ago");
  }
  if (!stored.ok()) return apiError(503, "store", "the seat could not be stored: " + stored.error().text());
  meta_.seats = std::move(next);
  lastHumanMs_ = seatTakenMs_ = time_.wallMs();
  if (taken) *taken = rules_->seats[static_cast<size_t>(free)].name;
  publish("state");
  afterAction();  // every seat taken: a bot to move starts
  return done();
}

}  // namespace acedrex::server
