// The lobby's clock thread: clocks that run out, rooms waiting for the
// store, idle games leaving memory, abandoned games aborted.
#include <algorithm>
#include <chrono>

#include "server/app/lobby.h"

namespace acedrex::server {

void Lobby::retryStoreLater(std::shared_ptr<GameRoom> room) {
  std::lock_guard lock(clockM_);
  storeWaitRooms_.push_back(room);  // the room asks once per wait (GameRoom::retryListed_)
}

void Lobby::addClockRoom(const std::shared_ptr<GameRoom>& room) {
  std::lock_guard lock(clockM_);
  clockRooms_.push_back(room);
}

namespace {
// Keeps the entries of `list` that were not in its first `done.size()`
// entries marked done; entries appended since the snapshot stay.
void prune(std::vector<std::weak_ptr<GameRoom>>& list, const std::vector<bool>& done) {
  std::vector<std::weak_ptr<GameRoom>> kept;
  kept.reserve(list.size());
  for (size_t i = 0; i < list.size(); ++i)
    if (i >= done.size() || !done[i]) kept.push_back(std::move(list[i]));
  list = std::move(kept);
}
}  // namespace

void Lobby::tickClocks() {
  std::lock_guard tick(tickM_);  // one tick at a time: prune() relies on it
  std::vector<std::weak_ptr<GameRoom>> rooms, waiting;
  {
    std::lock_guard lock(clockM_);
    rooms = clockRooms_;
    waiting = storeWaitRooms_;
  }
  std::vector<bool> doneClocks(rooms.size(), false), doneWaits(waiting.size(), false);
  bool any = false;
  for (size_t i = 0; i < rooms.size(); ++i) {
    auto room = rooms[i].lock();
    doneClocks[i] = !room || !room->checkClock();
    any = any || doneClocks[i];
  }
  for (size_t i = 0; i < waiting.size(); ++i) {
    auto room = waiting[i].lock();
    doneWaits[i] = !room || !room->retryStore();
    any = any || doneWaits[i];
  }
  if (!any) return;
  std::lock_guard lock(clockM_);
  prune(clockRooms_, doneClocks);
  prune(storeWaitRooms_, doneWaits);
}

int Lobby::evictIdle() {
  const int64_t now = time_.steadyMs();
  const int64_t idleMs =
      config_.limits.idleGameMinutes > 0 ? static_cast<int64_t>(config_.limits.idleGameMinutes) * 60000 : -1;
  std::lock_guard lock(roomsM_);
  int n = 0;
  for (auto it = rooms_.begin(); it != rooms_.end();) {
    // use_count 1: only this map holds it, and new holders come only through
    // find(), which needs roomsM_ (the bot queue and the clock thread hold
    // weak pointers, and only to rooms that idle() keeps).
    if (it->second.use_count() == 1 && it->second->idle(now, idleMs)) {
      if (!it->second->finished()) evictedVersions_[it->first] = it->second->version();
      if (it->second->finished() && isHome(it->first)) {
        store_.releaseHome(it->first);
        std::lock_guard homes(homesM_);
        homes_.erase(it->first);
      }
      it = rooms_.erase(it);
      ++n;
    } else {
      ++it;
    }
  }
  return n;
}

int Lobby::abortAbandoned() {
  const int64_t firstMs = static_cast<int64_t>(config_.limits.abortFirstMoveMinutes) * 60000;
  const int64_t absentMs = static_cast<int64_t>(config_.limits.abortAbsentMinutes) * 60000;
  if (firstMs <= 0 && absentMs <= 0) return 0;
  // Several processes: a human may be connected to another process, which
  // this one cannot see; the abort rules are left off rather than guessed.
  if (store_.shared()) return 0;
  std::vector<std::shared_ptr<GameRoom>> held;
  std::vector<std::string> evicted;
  {
    std::lock_guard lock(roomsM_);
    for (const auto& [id, room] : rooms_) held.push_back(room);  // not find(): that would keep them from idling
    for (const auto& [id, v] : evictedVersions_) evicted.push_back(id);
  }
  int n = 0;
  for (const auto& room : held)
    if (room->abortIfAbandoned(firstMs, absentMs)) ++n;
  held.clear();
  // A game out of memory has nobody connected; it comes back (find) only when
  // its record says a rule may apply: nothing for absentMs, or a human seat
  // that never moved.
  const int64_t now = time_.wallMs();
  for (const auto& id : evicted) {
    auto g = store_.load(id);
    if (!g.ok() || !*g || (*g)->finished) continue;
    const StoredGame& sg = **g;
    const int64_t last = sg.entries.empty() ? sg.createdMs : std::max(sg.createdMs, sg.entries.back().atMs);
    bool neverMoved = false;
    for (size_t s = 0; s < sg.seats.size(); ++s)
      if (!sg.seats[s].bot && std::none_of(sg.entries.begin(), sg.entries.end(),
                                           [&](const StoredEntry& e) { return e.seat == static_cast<int>(s); }))
        neverMoved = true;
    if (!(absentMs > 0 && now - last >= absentMs) && !(firstMs > 0 && neverMoved && now - last >= firstMs)) continue;
    if (auto room = find(id); room && room->abortIfAbandoned(firstMs, absentMs)) ++n;
  }
  return n;
}

void Lobby::clockLoop() {
  auto lastEviction = std::chrono::steady_clock::now();
  auto lastAdoption = lastEviction;
  for (;;) {
    {
      std::unique_lock lock(clockM_);
      clockCv_.wait_for(lock, std::chrono::milliseconds(config_.tickMs), [&] { return stopping_.load(); });
    }
    if (stopping_) return;
    tickClocks();
    if (store_.shared() && std::chrono::steady_clock::now() - lastAdoption > std::chrono::seconds(1)) {
      adoptOrphans();
      lastAdoption = std::chrono::steady_clock::now();
    }
    if (std::chrono::steady_clock::now() - lastEviction > std::chrono::seconds(60)) {
      abortAbandoned();
      evictIdle();
      pruneBotGames();
      lastEviction = std::chrono::steady_clock::now();
    }
  }
}

}  // namespace acedrex::server
