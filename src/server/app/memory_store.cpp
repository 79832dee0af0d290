#include <algorithm>

#include "server/app/ratings.h"
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
  if (!(*g)->finished) rateLocked(**g, resultJson);
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
  if (!g->finished) rateLocked(*g, resultJson);
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

Status MemoryStore::createAccount(const StoredAccount& a) {
  std::lock_guard lock(m_);
  if (shouldFail()) return makeError("store", "simulated write failure");
  if (!accounts_.emplace(a.key, a).second) return makeError(kStoreConflict, "the name is taken");
  return okStatus();
}

Result<std::optional<StoredAccount>> MemoryStore::findAccount(const std::string& key) {
  std::lock_guard lock(m_);
  auto it = accounts_.find(key);
  if (it == accounts_.end()) return std::optional<StoredAccount>();
  return std::optional<StoredAccount>(it->second);
}

Status MemoryStore::createSession(const std::string& tokenHash, const std::string& accountKey, int64_t createdMs) {
  std::lock_guard lock(m_);
  if (shouldFail()) return makeError("store", "simulated write failure");
  if (!accounts_.count(accountKey)) return makeError("store", "no account " + accountKey);
  sessions_[tokenHash] = Session{accountKey, createdMs};
  return okStatus();
}

Result<std::optional<StoredAccount>> MemoryStore::sessionAccount(const std::string& tokenHash, int64_t notBeforeMs) {
  std::lock_guard lock(m_);
  auto it = sessions_.find(tokenHash);
  if (it == sessions_.end() || it->second.createdMs < notBeforeMs) return std::optional<StoredAccount>();
  auto a = accounts_.find(it->second.account);
  if (a == accounts_.end()) return std::optional<StoredAccount>();
  return std::optional<StoredAccount>(a->second);
}

Status MemoryStore::deleteSession(const std::string& tokenHash) {
  std::lock_guard lock(m_);
  if (shouldFail()) return makeError("store", "simulated write failure");
  sessions_.erase(tokenHash);
  return okStatus();
}

void MemoryStore::rateLocked(const StoredGame& g, const std::string& resultJson) {
  const int64_t now = g.entries.empty() ? g.createdMs : g.entries.back().atMs;
  for (const auto& r : ratingsAfter(g.variant, g.seats, resultJson, now, [&](const std::string& key) {
         auto it = ratings_.find({key, g.variant});
         return it == ratings_.end() ? std::optional<StoredRating>() : std::optional<StoredRating>(it->second);
       }))
    ratings_[{r.account, r.variant}] = r;
}

Result<std::vector<StoredRating>> MemoryStore::ratingsOf(const std::string& accountKey) {
  std::lock_guard lock(m_);
  std::vector<StoredRating> out;
  for (const auto& [k, r] : ratings_)
    if (k.first == accountKey) out.push_back(r);
  return out;
}

Result<std::vector<StoredGame>> MemoryStore::gamesOf(const std::string& accountName, int limit) {
  std::lock_guard lock(m_);
  std::vector<StoredGame> out;
  for (auto it = games_.rbegin(); it != games_.rend() && static_cast<int>(out.size()) < limit; ++it) {
    bool mine = false;
    for (const auto& s : it->seats) mine = mine || (s.account && s.name == accountName);
    if (!mine) continue;
    out.push_back(*it);
    out.back().entries.clear();
  }
  return out;
}

Status MemoryStore::appendChat(const std::string& gameId, const ChatLine& line) {
  std::lock_guard lock(m_);
  if (shouldFail()) return makeError("store", "simulated write failure");
  if (!find(gameId)) return makeError("store", "no game " + gameId);
  auto& lines = chat_[gameId];
  if (!lines.empty() && lines.back().n >= line.n) return makeError(kStoreConflict, "the line's number is taken");
  lines.push_back(line);
  return okStatus();
}

Result<std::vector<ChatLine>> MemoryStore::loadChat(const std::string& gameId) {
  std::lock_guard lock(m_);
  auto it = chat_.find(gameId);
  return it == chat_.end() ? std::vector<ChatLine>() : it->second;
}

}  // namespace acedrex::server
