#include <algorithm>

#include "server/app/store.h"

namespace acedrex::server {

StoredGame* MemoryStore::find(const std::string& id) {
  for (auto& g : games_)
    if (g.id == id) return &g;
  return nullptr;
}

bool MemoryStore::shouldFail() {
  ++writes_;
  if (skip_ > 0) {
    --skip_;
    return false;
  }
  if (failNext_ > 0) {
    --failNext_;
    return true;
  }
  return false;
}

void MemoryStore::failNextWrites(int n, int skip) {
  std::lock_guard lock(m_);
  failNext_ = n;
  skip_ = skip;
}

int MemoryStore::writes() const {
  std::lock_guard lock(m_);
  return writes_;
}

Status MemoryStore::createGame(const StoredGame& g) {
  std::lock_guard lock(m_);
  if (shouldFail()) return makeError("store", "simulated write failure");
  if (find(g.id)) return makeError("store", "duplicate game id " + g.id);
  games_.push_back(g);
  games_.back().entries.clear();
  return okStatus();
}

Result<StoredGame*> MemoryStore::appendLocked(const std::string& id, const StoredEntry& e) {
  if (shouldFail()) return makeError("store", "simulated write failure");
  StoredGame* g = find(id);
  if (!g) return makeError("store", "no game " + id);
  if (e.ply != static_cast<int>(g->entries.size())) return makeError("store", "entry out of order");
  g->entries.push_back(e);
  return g;
}

Status MemoryStore::appendEntry(const std::string& id, const StoredEntry& e) {
  std::lock_guard lock(m_);
  auto g = appendLocked(id, e);
  if (!g.ok()) return g.error();
  return okStatus();
}

Status MemoryStore::appendFinal(const std::string& id, const StoredEntry& e, const std::string& resultJson) {
  std::lock_guard lock(m_);
  auto g = appendLocked(id, e);
  if (!g.ok()) return g.error();
  (*g)->finished = true;
  (*g)->resultJson = resultJson;
  return okStatus();
}

Status MemoryStore::truncate(const std::string& id, int fromPly) {
  std::lock_guard lock(m_);
  if (shouldFail()) return makeError("store", "simulated write failure");
  StoredGame* g = find(id);
  if (!g) return makeError("store", "no game " + id);
  if (fromPly < static_cast<int>(g->entries.size())) g->entries.resize(static_cast<size_t>(std::max(fromPly, 0)));
  g->finished = false;
  g->resultJson.clear();
  return okStatus();
}

Status MemoryStore::finishGame(const std::string& id, const std::string& resultJson) {
  std::lock_guard lock(m_);
  if (shouldFail()) return makeError("store", "simulated write failure");
  StoredGame* g = find(id);
  if (!g) return makeError("store", "no game " + id);
  g->finished = true;
  g->resultJson = resultJson;
  return okStatus();
}

Status MemoryStore::replaceSeats(const std::string& id, const std::vector<SeatPlan>& expected,
                                 const std::vector<SeatPlan>& seats) {
  std::lock_guard lock(m_);
  if (shouldFail()) return makeError("store", "simulated write failure");
  StoredGame* g = find(id);
  if (!g) return makeError("store", "no game " + id);
  if (seatsToJson(g->seats) != seatsToJson(expected)) return makeError(kStoreConflict, "the seats changed meanwhile");
  g->seats = seats;
  return okStatus();
}

Result<std::vector<StoredGame>> MemoryStore::loadUnfinished() {
  std::lock_guard lock(m_);
  std::vector<StoredGame> out;
  for (const auto& g : games_)
    if (!g.finished) out.push_back(g);
  return out;
}

Result<size_t> MemoryStore::countUnfinished() {
  std::lock_guard lock(m_);
  size_t n = 0;
  for (const auto& g : games_)
    if (!g.finished) ++n;
  return n;
}

Result<std::optional<StoredGame>> MemoryStore::load(const std::string& id) {
  std::lock_guard lock(m_);
  for (const auto& g : games_)
    if (g.id == id) return std::optional<StoredGame>(g);
  return std::optional<StoredGame>();
}

Result<std::vector<StoredGame>> MemoryStore::recent(int limit, const std::string& filter) {
  std::lock_guard lock(m_);
  std::vector<StoredGame> out;
  for (auto it = games_.rbegin(); it != games_.rend() && static_cast<int>(out.size()) < limit; ++it) {
    if (filter == "ongoing" && it->finished) continue;
    if (filter == "finished" && !it->finished) continue;
    if (filter == "open" && (it->finished || !hasOpenSeat(it->seats))) continue;
    out.push_back(*it);
    out.back().entries.clear();
  }
  return out;
}

}  // namespace acedrex::server
