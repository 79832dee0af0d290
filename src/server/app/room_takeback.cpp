// GameRoom: a takeback between people needs the other player's consent,
// asked and given as a draw offer is (docs/api.md, "Acting on a game").
#include <algorithm>

#include "server/app/room.h"

namespace acedrex::server {

Outcome GameRoom::negotiateTakeback(const std::vector<int>& seats, const std::string& action, int* offerer) {
  *offerer = -1;
  if (rules_->nseats() != 2) return apiError(409, "no-takeback", "takebacks between people are for two-player games");
  if (over()) return apiError(409, "game-over", "the game is over");
  const int mine = seats.front();
  if (action.empty() || action == "offer") {
    if (takebackOffer_ >= 0 && takebackOffer_ != mine) {  // both ask: agreed, the first asker's move goes back
      *offerer = takebackOffer_;
      return done();
    }
    const bool moved = std::any_of(entries_.begin(), entries_.end(), [&](const StoredEntry& e) {
      return e.seat == mine && e.text != "0000" && entryKindOf(e.text) == EntryKind::kMove;
    });
    if (!moved) return apiError(409, "no-takeback", "there is no move of yours to take back");
    takebackOffer_ = mine;
    publish("state");
    return done();
  }
  if (action != "accept" && action != "decline")
    return apiError(400, "bad-action", "a takeback action is offer, accept or decline");
  if (takebackOffer_ < 0) return apiError(409, "no-offer", "there is no takeback offer");
  if (action == "accept") {
    if (takebackOffer_ == mine) return apiError(409, "own-offer", "a seat cannot accept its own offer");
    *offerer = takebackOffer_;
    return done();
  }
  takebackOffer_ = -1;  // declined (or withdrawn)
  publish("state");
  return done();
}

}  // namespace acedrex::server
