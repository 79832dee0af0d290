// GameRoom (room.h): the store's side: retrying an entry of the server's own that
// the store refused, and catching up with changes made by other processes.
#include <algorithm>
#include <cstdio>

#include "server/app/room.h"
#include "server/app/json.h"

namespace acedrex::server {
namespace {

constexpr int64_t kFirstStoreRetryMs = 100;
constexpr int64_t kLastStoreRetryMs = 10000;

}  // namespace

void GameRoom::waitForStore(const std::string& text, int seat) {
  if (lostRace_) {  // nothing to wait for: the record moved on elsewhere
    lostRace_ = false;
    return afterAction();
  }
  const bool was = wait_.active;
  wait_.active = true;
  wait_.text = text;
  wait_.seat = seat;
  wait_.delayMs = kFirstStoreRetryMs;
  wait_.dueMs = time_.steadyMs() + wait_.delayMs;
  if (!was) publish("state");
  if (host_ && !retryListed_) {
    retryListed_ = true;
    host_->retryStoreLater(shared_from_this());
  }
}

bool GameRoom::retryStore() {
  std::lock_guard lock(m_);
  const bool waits = retryStoreLocked();
  retryListed_ = waits;  // false: the lobby drops the room from its list (it asks again on a new wait)
  return waits;
}

bool GameRoom::retryStoreLocked() {
  if (!wait_.active) return false;
  const int64_t now = time_.steadyMs();
  if (over() || game_->position().toMove() != wait_.seat) {  // cannot happen: changes clear the wait
    wait_ = StoreWait{};
    publish("state");
    afterAction();
    return wait_.active;
  }
  if (now < wait_.dueMs) return true;
  std::string text = wait_.text;
  if (timedOut(wait_.seat, now)) text = "timeout";  // the seat's clock ran out while waiting
  if (auto committed = commitEntry(text, wait_.seat); !committed.ok()) {
    wait_.delayMs = std::min(wait_.delayMs * 2, kLastStoreRetryMs);
    wait_.dueMs = now + wait_.delayMs;
    std::fprintf(stderr, "acedrex serve: game %s: \"%s\" still not stored (next try in %lld ms): %s\n",
                 meta_.id.c_str(), text.c_str(), static_cast<long long>(wait_.delayMs), committed.error().message.c_str());
    return true;
  }
  afterAction();  // the wait is cleared; lost turns and bots go on (and may wait again)
  return wait_.active;
}

bool GameRoom::syncFromStore() {
  std::lock_guard lock(m_);
  if (!catchUpLocked()) return false;
  afterAction();
  return true;
}

void GameRoom::replayFromStartLocked(size_t keep) {
  auto game = std::make_unique<Game>(rules_, meta_.seed);
  if (!meta_.startFen.empty()) (void)game->setStart(meta_.startFen);
  outReason_.assign(outReason_.size(), "");
  entries_.resize(std::min(keep, entries_.size()));
  recordRewritten_ = true;
  notes_.clear();
  for (const auto& e : entries_) {
    Game before(*game);
    applyEntryToGame(*game, e.text, e.seat, outReason_);
    notes_.push_back(entryNoteOf(before, *game, e.text));
  }
  game_ = std::move(game);
}

bool GameRoom::catchUpLocked() {
  auto loaded = store_.load(meta_.id);
  if (!loaded.ok() || !*loaded) return false;
  const bool seatsChanged = seatsToJson((*loaded)->seats) != seatsToJson(meta_.seats);
  if (seatsChanged) {  // a free seat taken through another process (the entries may have moved on as well)
    meta_.seats = (*loaded)->seats;
    seatTakenMs_ = time_.wallMs();
    publish("state");
  }
  const std::vector<StoredEntry>& stored = (*loaded)->entries;
  size_t same = 0;
  while (same < entries_.size() && same < stored.size() && entries_[same].text == stored[same].text &&
         entries_[same].seat == stored[same].seat)
    ++same;
  if (same == entries_.size() && same == stored.size()) {
    // No new entry, but finished: aborted elsewhere (the rules did not end it).
    if (!(*loaded)->finished || over()) return seatsChanged;
    aborted_ = true;
    abortResult_ = (*loaded)->resultJson;
    drawOffer_ = takebackOffer_ = -1;
    botStop_ = true;
    ++epoch_;
    publish("end");
    return true;
  }
  const bool clockWasRunning = clockRunning();
  if (same < entries_.size()) {  // a takeback elsewhere: the record is shorter or differs
    replayFromStartLocked(same);
    publish("state");
  }
  for (size_t i = same; i < stored.size(); ++i) {
    Game before(*game_);
    if (!applyEntryToGame(*game_, stored[i].text, stored[i].seat, outReason_)) break;
    notes_.push_back(entryNoteOf(before, *game_, stored[i].text));
    entries_.push_back(stored[i]);
    const int seat = stored[i].seat;
    if (seat >= 0 && seat < rules_->nseats() && !meta_.seats[static_cast<size_t>(seat)].bot)
      lastHumanMs_ = std::max(lastHumanMs_, stored[i].atMs);
    if (entryKindOf(stored[i].text) == EntryKind::kMove || game_->finished()) drawOffer_ = takebackOffer_ = -1;
    publish(game_->finished() ? "end" : "move");
  }
  if (clock_.enabled()) {
    // The running clock started when the last entry was stored (wall time).
    const int64_t since = entries_.empty() ? 0 : std::max<int64_t>(0, time_.wallMs() - entries_.back().atMs);
    const int64_t startMs = time_.steadyMs() - since;
    if (!entries_.empty() && entries_.back().clockMs.size() == clock_.atStart().size())
      clock_.set(entries_.back().clockMs, startMs);
    else
      clock_.reset(startMs);
  }
  ++epoch_;
  wait_ = StoreWait{};
  if (!clockWasRunning && clockRunning() && host_) host_->clockActive(shared_from_this());
  return true;
}

}  // namespace acedrex::server
