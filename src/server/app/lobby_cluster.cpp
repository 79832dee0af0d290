// Several processes on one shared store: each game with bots or clocks has
// one home process that runs its bots and decides its clocks; the others
// follow the store's changes. A home that died leaves orphans to adopt.
#include "server/app/lobby.h"

namespace acedrex::server {

bool Lobby::isHome(const std::string& id) {
  std::lock_guard lock(homesM_);
  return homes_.count(id) > 0;
}

void Lobby::claimHome(const std::string& id) {
  if (!store_.shared()) return;
  auto claimed = store_.claimHome(id);
  if (claimed.ok() && *claimed) {
    std::lock_guard lock(homesM_);
    homes_.insert(id);
  }
}

bool Lobby::mayThink(const std::string& id) { return !store_.shared() || isHome(id); }

void Lobby::onStoreChange(const std::string& id) {
  if (stopping_) return;
  std::vector<std::shared_ptr<GameRoom>> rooms;
  {
    std::lock_guard lock(roomsM_);
    if (id.empty()) {
      for (auto& [key, room] : rooms_) rooms.push_back(room);
    } else if (auto it = rooms_.find(id); it != rooms_.end()) {
      rooms.push_back(it->second);
    }
  }
  if (rooms.empty() && !id.empty() && isHome(id)) {
    find(id);  // a game this process is home of, out of memory: it loads as stored and goes on
    return;
  }
  for (auto& room : rooms) room->syncFromStore();
}

int Lobby::adoptOrphans() {
  if (!store_.shared() || stopping_) return 0;
  const uint64_t epoch = store_.sessionEpoch();
  std::vector<std::string> lost;
  {
    std::lock_guard lock(homesM_);
    if (epoch != homesEpoch_) {  // the store's session was lost, and every home with it
      lost.assign(homes_.begin(), homes_.end());
      homes_.clear();
      homesEpoch_ = epoch;
    }
  }
  for (const auto& id : lost) claimHome(id);
  auto orphans = store_.orphans();
  if (!orphans.ok()) return 0;
  int adopted = 0;
  for (const auto& id : *orphans) {
    auto claimed = store_.claimHome(id);
    if (!claimed.ok() || !*claimed) continue;
    {
      std::lock_guard lock(homesM_);
      homes_.insert(id);
    }
    if (auto room = find(id)) {
      room->syncFromStore();
      room->resume();
      ++adopted;
    }
  }
  return adopted;
}

}  // namespace acedrex::server
