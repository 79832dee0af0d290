// The PostgreSQL Store. One connection for reads and writes (guarded by a
// mutex; each write is one transaction, committed before the call returns)
// and one that LISTENs for the other processes' changes on a thread of its own.
//
// Across processes:
// - entries have the primary key (game_id, ply): of two processes storing
//   an entry for one ply, the second gets kStoreConflict and reloads;
// - every write sends NOTIFY acedrex_games with the game's id, delivered on
//   commit, in commit order, to every other process (its own are skipped);
// - the home of a game (the process that runs its bots and decides its
//   clocks) holds a session-level advisory lock on the game's number: it is
//   released by PostgreSQL when that process's connection ends, whatever
//   killed it, and another process then adopts the game (orphans()).
#include "server/app/pg_store.h"

#include "server/app/json.h"
#include "server/app/ratings.h"

#include <libpq-fe.h>
#include <poll.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace acedrex::server {
namespace {

constexpr const char* kChannel = "acedrex_games";
constexpr int kHomeLockClass = 0x41636564;  // "Aced": the first key of a home's advisory lock

const char* kSchemaV1 = R"SQL(
CREATE TABLE games (
  seq BIGSERIAL UNIQUE,
  id TEXT PRIMARY KEY,
  variant TEXT NOT NULL,
  options TEXT NOT NULL,
  seats TEXT NOT NULL,
  clock_enabled BOOLEAN NOT NULL,
  clock_initial_ms BIGINT NOT NULL,
  clock_increment_ms BIGINT NOT NULL,
  seed TEXT NOT NULL,
  hot_seat BOOLEAN NOT NULL,
  start_fen TEXT NOT NULL,
  created_ms BIGINT NOT NULL,
  needs_home BOOLEAN NOT NULL,
  finished BOOLEAN NOT NULL DEFAULT false,
  result TEXT NOT NULL DEFAULT ''
);
CREATE INDEX games_open ON games(finished) WHERE NOT finished;
CREATE INDEX games_created ON games(created_ms);
CREATE TABLE entries (
  game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
  ply INTEGER NOT NULL,
  text TEXT NOT NULL,
  seat INTEGER NOT NULL,
  die INTEGER NOT NULL,
  clocks TEXT NOT NULL,
  at_ms BIGINT NOT NULL,
  PRIMARY KEY (game_id, ply)
);
)SQL";

// Version 2: accounts and their sessions (a session is the hash of its token).
const char* kSchemaV2 = R"SQL(
CREATE TABLE accounts (
  key TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  password_hash TEXT NOT NULL,
  created_ms BIGINT NOT NULL
);
CREATE TABLE sessions (
  token_hash TEXT PRIMARY KEY,
  account TEXT NOT NULL REFERENCES accounts(key) ON DELETE CASCADE,
  created_ms BIGINT NOT NULL
);
CREATE INDEX sessions_account ON sessions(account);
CREATE TABLE ratings (
  account TEXT NOT NULL REFERENCES accounts(key) ON DELETE CASCADE,
  variant TEXT NOT NULL,
  rating DOUBLE PRECISION NOT NULL,
  deviation DOUBLE PRECISION NOT NULL,
  volatility DOUBLE PRECISION NOT NULL,
  games INTEGER NOT NULL,
  updated_ms BIGINT NOT NULL,
  PRIMARY KEY (account, variant)
);
CREATE TABLE chat (
  game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
  n BIGINT NOT NULL,
  room TEXT NOT NULL,
  author TEXT NOT NULL,
  seat TEXT NOT NULL,
  text TEXT NOT NULL,
  at_ms BIGINT NOT NULL,
  PRIMARY KEY (game_id, n)
);
)SQL";

struct ResultDeleter {
  void operator()(PGresult* r) const { PQclear(r); }
};
using PgResult = std::unique_ptr<PGresult, ResultDeleter>;

bool commandOk(const PgResult& r) {
  const auto st = PQresultStatus(r.get());
  return st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK;
}

// Connects with a 5 s connect_timeout unless the URI names its own (a
// database host that does not answer must not hold a room's lock for long).
PGconn* connectTo(const std::string& uri) {
  const char* keys[] = {"connect_timeout", "dbname", nullptr};
  const char* values[] = {"5", uri.c_str(), nullptr};
  return PQconnectdbParams(keys, values, 1);  // 1: dbname is a URI; what it says overrides the keys before it
}

std::string sqlState(const PgResult& r) {
  const char* s = r ? PQresultErrorField(r.get(), PG_DIAG_SQLSTATE) : nullptr;
  return s ? s : "";
}

class PgStore : public Store {
 public:
  explicit PgStore(std::string uri) : uri_(std::move(uri)) {}
  ~PgStore() override {
    stopping_ = true;
    if (listener_.joinable()) listener_.join();
    if (conn_) PQfinish(conn_);
  }

  Status open() {
    std::lock_guard lock(m_);
    if (auto s = connectLocked(); !s.ok()) return s;
    return migrateLocked();
  }

  bool shared() const override { return true; }

  void watch(StoreChangeListener listener) override {
    {
      std::lock_guard lock(listenerM_);
      onChange_ = std::move(listener);
    }
    if (listener_.joinable()) return;
    listener_ = std::thread([this] { listenLoop(); });
    // Changes committed after watch() returns are reported: wait (a while)
    // until the first LISTEN is in place.
    std::unique_lock lock(listenerM_);
    listeningCv_.wait_for(lock, std::chrono::seconds(10), [&] { return listening_; });
  }

  Status createGame(const StoredGame& g) override {
    std::lock_guard lock(m_);
    return transaction("insert game", g.id, [&] { return insertGame(g); });
  }

  bool insertGame(const StoredGame& g) {
    bool needsHome = g.clock.enabled;
    for (const auto& s : g.seats) needsHome = needsHome || s.bot;
    return run("INSERT INTO games (id, variant, options, seats, clock_enabled, clock_initial_ms, "
                 "clock_increment_ms, seed, hot_seat, start_fen, created_ms, needs_home, finished, result) "
                 "VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14)",
                 {g.id, g.variant, optionsToJson(g.options), seatsToJson(g.seats), flag(g.clock.enabled),
                  std::to_string(g.clock.initialMs), std::to_string(g.clock.incrementMs), std::to_string(g.seed),
                  flag(g.hotSeat), g.startFen, std::to_string(g.createdMs), flag(needsHome), flag(g.finished),
                  g.resultJson});
  }

  Status importGame(const StoredGame& g) override {
    std::lock_guard lock(m_);
    return transaction("import game", g.id, [&] {
      if (!insertGame(g)) return false;
      for (const auto& e : g.entries)
        if (!insertEntry(g.id, e)) return false;
      return true;
    });
  }

  // The hot path: one statement (its own transaction) inserts and notifies,
  // so a move costs one round trip to the database instead of four.
  Status appendEntry(const std::string& id, const StoredEntry& e) override {
    std::lock_guard lock(m_);
    if (!run("WITH e AS (INSERT INTO entries (game_id, ply, text, seat, die, clocks, at_ms) "
             "VALUES ($1,$2,$3,$4,$5,$6,$7) RETURNING game_id) SELECT pg_notify($8, game_id) FROM e",
             {id, std::to_string(e.ply), e.text, std::to_string(e.seat), std::to_string(e.die), clocksToText(e.clockMs),
              std::to_string(e.atMs), kChannel}))
      return lastError("insert entry");
    return okStatus();
  }

  Status appendFinal(const std::string& id, const StoredEntry& e, const std::string& resultJson) override {
    std::lock_guard lock(m_);
    return transaction("insert final entry", id,
                       [&] { return insertEntry(id, e) && rate(id, resultJson) && markFinished(id, resultJson); });
  }

  Status truncate(const std::string& id, int fromPly) override {
    std::lock_guard lock(m_);
    return transaction("truncate", id, [&] {
      return run("DELETE FROM entries WHERE game_id = $1 AND ply >= $2", {id, std::to_string(fromPly)}) &&
             run("UPDATE games SET finished = false, result = '' WHERE id = $1", {id});
    });
  }

  Status finishGame(const std::string& id, const std::string& resultJson) override {
    std::lock_guard lock(m_);
    return transaction("finish game", id, [&] { return rate(id, resultJson) && markFinished(id, resultJson); });
  }

  Status replaceSeats(const std::string& id, const std::vector<SeatPlan>& expected,
                      const std::vector<SeatPlan>& seats) override {
    std::lock_guard lock(m_);
    bool conflict = false;
    Status done = transaction("replace seats", id, [&] {
      auto r = query("UPDATE games SET seats = $1 WHERE id = $2 AND seats = $3 RETURNING id",
                     {seatsToJson(seats), id, seatsToJson(expected)});
      if (!r) return false;
      conflict = PQntuples(r.get()) != 1;
      return !conflict;
    });
    if (conflict) return makeError(kStoreConflict, "the seats changed meanwhile");
    return done;
  }

  Result<size_t> countUnfinished() override {
    std::lock_guard lock(m_);
    auto r = query("SELECT COUNT(*) FROM games WHERE NOT finished", {});
    if (!r) return lastError("count games").error();
    return static_cast<size_t>(std::strtoull(PQgetvalue(r.get(), 0, 0), nullptr, 10));
  }

  Result<std::vector<StoredGame>> loadUnfinished() override {
    std::lock_guard lock(m_);
    auto games = selectGames("SELECT " + columns() + " FROM games WHERE NOT finished ORDER BY created_ms, seq", {});
    if (!games.ok()) return games;
    for (auto& g : *games)
      if (auto s = loadEntries(g); !s.ok()) return s.error();
    return games;
  }

  Result<std::optional<StoredGame>> load(const std::string& id) override {
    std::lock_guard lock(m_);
    auto games = selectGames("SELECT " + columns() + " FROM games WHERE id = $1", {id});
    if (!games.ok()) return games.error();
    if (games->empty()) return std::optional<StoredGame>();
    if (auto s = loadEntries(games->front()); !s.ok()) return s.error();
    return std::optional<StoredGame>(std::move(games->front()));
  }

  Result<std::vector<StoredGame>> recent(int limit, const std::string& filter) override {
    std::string sql = "SELECT " + columns() + " FROM games";
    if (filter == "ongoing") sql += " WHERE NOT finished";
    if (filter == "finished") sql += " WHERE finished";
    if (filter == "open") sql += " WHERE NOT finished AND strpos(seats, '\"open\":true') > 0";  // written only while free
    sql += " ORDER BY created_ms DESC, seq DESC LIMIT " + std::to_string(std::max(0, limit));
    std::lock_guard lock(m_);
    return selectGames(sql, {});
  }

  Result<bool> claimHome(const std::string& id) override {
    std::lock_guard lock(m_);
    auto r = query("SELECT pg_try_advisory_lock($1, seq::int) FROM games WHERE id = $2",
                   {std::to_string(kHomeLockClass), id});
    if (!r) return lastError("claim game").error();
    return PQntuples(r.get()) == 1 && PQgetvalue(r.get(), 0, 0)[0] == 't';
  }

  void releaseHome(const std::string& id) override {
    std::lock_guard lock(m_);
    (void)query("SELECT pg_advisory_unlock($1, seq::int) FROM games WHERE id = $2",
                {std::to_string(kHomeLockClass), id});
  }

  Result<std::vector<std::string>> orphans() override {
    std::lock_guard lock(m_);
    auto r = query(
        "SELECT g.id FROM games g WHERE NOT g.finished AND g.needs_home AND NOT EXISTS ("
        " SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory' AND l.classid::bigint = $1"
        " AND l.objid::bigint = g.seq AND l.objsubid = 2) ORDER BY g.seq",
        {std::to_string(kHomeLockClass)});
    if (!r) return lastError("find orphans").error();
    std::vector<std::string> out;
    for (int i = 0; i < PQntuples(r.get()); ++i) out.emplace_back(PQgetvalue(r.get(), i, 0));
    return out;
  }

  uint64_t sessionEpoch() const override { return sessions_.load(); }

  // Accounts and sessions: single statements, each its own transaction (no
  // game changes, so nothing to notify).
  Status createAccount(const StoredAccount& a) override {
    std::lock_guard lock(m_);
    if (!run("INSERT INTO accounts (key, name, password_hash, created_ms) VALUES ($1,$2,$3,$4)",
             {a.key, a.name, a.passwordHash, std::to_string(a.createdMs)})) {
      if (lastState_ == "23505") return makeError(kStoreConflict, "the name is taken");
      return lastError("insert account");
    }
    return okStatus();
  }

  Result<std::optional<StoredAccount>> findAccount(const std::string& key) override {
    std::lock_guard lock(m_);
    return selectAccount(query("SELECT key, name, password_hash, created_ms FROM accounts WHERE key = $1", {key}));
  }

  Status createSession(const std::string& tokenHash, const std::string& accountKey, int64_t createdMs) override {
    std::lock_guard lock(m_);
    if (!run("INSERT INTO sessions (token_hash, account, created_ms) VALUES ($1,$2,$3)",
             {tokenHash, accountKey, std::to_string(createdMs)}))
      return lastError("insert session");
    return okStatus();
  }

  Result<std::optional<StoredAccount>> sessionAccount(const std::string& tokenHash, int64_t notBeforeMs) override {
    std::lock_guard lock(m_);
    return selectAccount(query(
        "SELECT a.key, a.name, a.password_hash, a.created_ms FROM sessions s JOIN accounts a ON a.key = s.account "
        "WHERE s.token_hash = $1 AND s.created_ms >= $2",
        {tokenHash, std::to_string(notBeforeMs)}));
  }

  Status deleteSession(const std::string& tokenHash) override {
    std::lock_guard lock(m_);
    if (!run("DELETE FROM sessions WHERE token_hash = $1", {tokenHash})) return lastError("delete session");
    return okStatus();
  }

  Status appendChat(const std::string& gameId, const ChatLine& line) override {
    std::lock_guard lock(m_);
    if (!run("INSERT INTO chat (game_id, n, room, author, seat, text, at_ms) VALUES ($1,$2,$3,$4,$5,$6,$7)",
             {gameId, std::to_string(line.n), line.room, line.author, line.seat, line.text, std::to_string(line.atMs)}))
      return lastError("insert chat line");  // 23505 (the number is taken): kStoreConflict
    return okStatus();
  }

  Result<std::vector<ChatLine>> loadChat(const std::string& gameId) override {
    std::lock_guard lock(m_);
    auto r = query("SELECT n, room, author, seat, text, at_ms FROM chat WHERE game_id = $1 ORDER BY n", {gameId});
    if (!r) return lastError("select chat").error();
    std::vector<ChatLine> out;
    for (int i = 0; i < PQntuples(r.get()); ++i)
      out.push_back(ChatLine{std::strtoll(PQgetvalue(r.get(), i, 0), nullptr, 10), PQgetvalue(r.get(), i, 1),
                             PQgetvalue(r.get(), i, 2), PQgetvalue(r.get(), i, 3), PQgetvalue(r.get(), i, 4),
                             std::strtoll(PQgetvalue(r.get(), i, 5), nullptr, 10)});
    return out;
  }

  Result<std::vector<StoredRating>> ratingsOf(const std::string& accountKey) override {
    std::lock_guard lock(m_);
    return selectRatings(query(ratingColumns() + " WHERE account = $1 ORDER BY variant", {accountKey}));
  }

  Result<std::vector<StoredGame>> gamesOf(const std::string& accountName, int limit) override {
    JsonWriter w;  // how seatsToJson writes an account's seat
    w.beginObject().key("name").value(accountName).key("account").value(true).endObject();
    std::string needle = w.take();
    needle = needle.substr(1, needle.size() - 2);
    std::lock_guard lock(m_);
    return selectGames("SELECT " + columns() + " FROM games WHERE strpos(seats, $1) > 0 ORDER BY created_ms DESC, seq DESC "
                       "LIMIT " + std::to_string(std::max(0, limit)),
                       {needle});
  }

 private:
  static std::string flag(bool b) { return b ? "true" : "false"; }
  static std::string columns() {
    return "id, variant, options, seats, clock_enabled, clock_initial_ms, clock_increment_ms, seed, hot_seat, "
           "start_fen, created_ms, finished, result";
  }

  // With m_ held: (re)connects when the connection is gone.
  Status connectLocked() {
    if (conn_ && PQstatus(conn_) == CONNECTION_OK) return okStatus();
    if (conn_) PQfinish(conn_);
    conn_ = connectTo(uri_);
    if (PQstatus(conn_) != CONNECTION_OK) {
      Status s = makeError("store", std::string("cannot connect to PostgreSQL: ") + PQerrorMessage(conn_));
      PQfinish(conn_);
      conn_ = nullptr;
      return s;
    }
    PQsetNoticeProcessor(conn_, [](void*, const char*) {}, nullptr);  // "already exists, skipping"
    ownPid_ = PQbackendPID(conn_);
    ++sessions_;  // a new session: advisory locks of the old one are gone
    return okStatus();
  }

  Status migrateLocked() {
    // One process at a time creates or migrates (a transaction-level lock).
    if (!run("BEGIN", {})) return lastError("schema (begin)");
    auto fail = [&](const std::string& what) {
      Status s = lastError(what);
      run("ROLLBACK", {});
      return s;
    };
    if (!run("SELECT pg_advisory_xact_lock($1)", {std::to_string(kHomeLockClass)})) return fail("schema lock");
    if (!run("CREATE TABLE IF NOT EXISTS acedrex_schema (version INTEGER NOT NULL)", {}))
      return fail("schema table");
    auto r = query("SELECT max(version) FROM acedrex_schema", {});
    if (!r) return fail("schema version");
    const int version = PQgetisnull(r.get(), 0, 0) ? 0 : std::atoi(PQgetvalue(r.get(), 0, 0));
    if (version > kPgSchemaVersion) {
      run("ROLLBACK", {});
      return makeError("schema", "the database has schema version " + std::to_string(version) +
                                     "; this acedrex knows versions up to " + std::to_string(kPgSchemaVersion) +
                                     ": run a newer acedrex");
    }
    if (version < 1) {
      if (PQresultStatus(PgResult(PQexec(conn_, kSchemaV1)).get()) != PGRES_COMMAND_OK) return fail("schema v1");
      if (!run("INSERT INTO acedrex_schema (version) VALUES (1)", {})) return fail("schema version");
    }
    if (version < 2) {
      if (PQresultStatus(PgResult(PQexec(conn_, kSchemaV2)).get()) != PGRES_COMMAND_OK) return fail("schema v2");
      if (!run("INSERT INTO acedrex_schema (version) VALUES (2)", {})) return fail("schema version");
    }
    // Later versions: if (version < 3) { ALTER ...; INSERT 3 } and so on.
    if (!run("COMMIT", {})) return fail("schema (commit)");
    return okStatus();
  }

  // With m_ held: one statement with text parameters; nullptr on failure
  // (then lastState_ and lastMessage_ say why).
  PgResult query(const std::string& sql, std::initializer_list<std::string> params) {
    if (auto s = connectLocked(); !s.ok()) {
      lastState_ = "08006";
      lastMessage_ = s.error().message;
      return nullptr;
    }
    std::vector<const char*> values;
    for (const auto& p : params) values.push_back(p.c_str());
    PgResult r(PQexecParams(conn_, sql.c_str(), static_cast<int>(values.size()), nullptr, values.data(), nullptr,
                            nullptr, 0));
    if (r && commandOk(r)) return r;
    lastState_ = sqlState(r);
    lastMessage_ = PQerrorMessage(conn_);
    while (!lastMessage_.empty() && lastMessage_.back() == '\n') lastMessage_.pop_back();
    if (PQstatus(conn_) != CONNECTION_OK) {
      PQreset(conn_);
      resetAfterLoss();
    }
    return nullptr;
  }
  bool run(const std::string& sql, std::initializer_list<std::string> params) { return query(sql, params) != nullptr; }

  void resetAfterLoss() {
    if (PQstatus(conn_) == CONNECTION_OK) {
      ownPid_ = PQbackendPID(conn_);
      ++sessions_;
    }
  }

  Status lastError(const std::string& what) {
    if (lastState_ == "23505") return makeError(kStoreConflict, what + ": another process stored it first");
    return makeError("store", what + ": " + lastMessage_);
  }

  // Runs `steps` in one transaction that also notifies the other processes
  // of a change to game `id`; commits it, or rolls it all back.
  template <typename Steps>
  Status transaction(const char* what, const std::string& id, Steps&& steps) {
    if (!run("BEGIN", {})) return lastError(std::string(what) + " (begin)");
    if (!steps() || !run("SELECT pg_notify($1, $2)", {kChannel, id})) {
      Status failed = lastError(what);
      if (conn_ && PQtransactionStatus(conn_) != PQTRANS_IDLE) run("ROLLBACK", {});
      return failed;
    }
    if (!run("COMMIT", {})) {
      Status failed = lastError(std::string(what) + " (commit)");
      if (conn_ && PQtransactionStatus(conn_) != PQTRANS_IDLE) run("ROLLBACK", {});
      return failed;
    }
    return okStatus();
  }

  bool insertEntry(const std::string& id, const StoredEntry& e) {
    return run("INSERT INTO entries (game_id, ply, text, seat, die, clocks, at_ms) VALUES ($1,$2,$3,$4,$5,$6,$7)",
               {id, std::to_string(e.ply), e.text, std::to_string(e.seat), std::to_string(e.die),
                clocksToText(e.clockMs), std::to_string(e.atMs)});
  }
  // Within a transaction, before markFinished: a rated game's ratings after
  // its result (ratings.h). The game's row is locked, so of two processes
  // finishing one game only the first rates it.
  bool rate(const std::string& id, const std::string& resultJson) {
    auto g = query("SELECT variant, seats, finished FROM games WHERE id = $1 FOR UPDATE", {id});
    if (!g) return false;
    if (PQntuples(g.get()) == 0 || PQgetvalue(g.get(), 0, 2)[0] == 't') return true;
    const std::string variant = PQgetvalue(g.get(), 0, 0);
    bool ok = true;
    const int64_t now = std::chrono::duration_cast<std::chrono::milliseconds>(
                            std::chrono::system_clock::now().time_since_epoch()).count();
    const auto after = ratingsAfter(variant, seatsFromJson(PQgetvalue(g.get(), 0, 1)), resultJson, now,
                                    [&](const std::string& key) -> std::optional<StoredRating> {
                                      auto rows = selectRatings(query(ratingColumns() + " WHERE account = $1 AND variant = $2",
                                                                      {key, variant}));
                                      ok = ok && rows.ok();
                                      if (!rows.ok() || rows->empty()) return std::nullopt;
                                      return rows->front();
                                    });
    if (!ok) return false;
    for (const auto& r : after) {
      char rating[32], deviation[32], volatility[32];
      std::snprintf(rating, sizeof rating, "%.17g", r.rating);
      std::snprintf(deviation, sizeof deviation, "%.17g", r.deviation);
      std::snprintf(volatility, sizeof volatility, "%.17g", r.volatility);
      if (!run("INSERT INTO ratings (account, variant, rating, deviation, volatility, games, updated_ms) "
               "VALUES ($1,$2,$3,$4,$5,$6,$7) ON CONFLICT (account, variant) DO UPDATE SET rating = EXCLUDED.rating, "
               "deviation = EXCLUDED.deviation, volatility = EXCLUDED.volatility, games = EXCLUDED.games, "
               "updated_ms = EXCLUDED.updated_ms",
               {r.account, r.variant, rating, deviation, volatility, std::to_string(r.games),
                std::to_string(r.updatedMs)}))
        return false;
    }
    return true;
  }
  static std::string ratingColumns() {
    return "SELECT account, variant, rating, deviation, volatility, games, updated_ms FROM ratings";
  }
  Result<std::vector<StoredRating>> selectRatings(const PgResult& r) {
    if (!r) return lastError("select ratings").error();
    std::vector<StoredRating> out;
    for (int i = 0; i < PQntuples(r.get()); ++i) {
      StoredRating x;
      x.account = PQgetvalue(r.get(), i, 0);
      x.variant = PQgetvalue(r.get(), i, 1);
      x.rating = std::strtod(PQgetvalue(r.get(), i, 2), nullptr);
      x.deviation = std::strtod(PQgetvalue(r.get(), i, 3), nullptr);
      x.volatility = std::strtod(PQgetvalue(r.get(), i, 4), nullptr);
      x.games = std::atoi(PQgetvalue(r.get(), i, 5));
      x.updatedMs = std::strtoll(PQgetvalue(r.get(), i, 6), nullptr, 10);
      out.push_back(std::move(x));
    }
    return out;
  }
  bool markFinished(const std::string& id, const std::string& resultJson) {
    return run("UPDATE games SET finished = true, result = $1 WHERE id = $2", {resultJson, id});
  }

  Result<std::vector<StoredGame>> selectGames(const std::string& sql, std::initializer_list<std::string> params) {
    auto r = query(sql, params);
    if (!r) return lastError("select games").error();
    std::vector<StoredGame> out;
    auto text = [&](int row, int col) { return std::string(PQgetvalue(r.get(), row, col)); };
    auto integer = [&](int row, int col) { return std::strtoll(PQgetvalue(r.get(), row, col), nullptr, 10); };
    for (int i = 0; i < PQntuples(r.get()); ++i) {
      StoredGame g;
      g.id = text(i, 0);
      g.variant = text(i, 1);
      g.options = optionsFromJson(text(i, 2));
      g.seats = seatsFromJson(text(i, 3));
      g.clock.enabled = text(i, 4) == "t";
      g.clock.initialMs = integer(i, 5);
      g.clock.incrementMs = integer(i, 6);
      g.seed = std::strtoull(PQgetvalue(r.get(), i, 7), nullptr, 10);
      g.hotSeat = text(i, 8) == "t";
      g.startFen = text(i, 9);
      g.createdMs = integer(i, 10);
      g.finished = text(i, 11) == "t";
      g.resultJson = text(i, 12);
      out.push_back(std::move(g));
    }
    return out;
  }

  // With m_ held: the first row of an account query, or nullopt.
  Result<std::optional<StoredAccount>> selectAccount(const PgResult& r) {
    if (!r) return lastError("select account").error();
    if (PQntuples(r.get()) == 0) return std::optional<StoredAccount>();
    StoredAccount a;
    a.key = PQgetvalue(r.get(), 0, 0);
    a.name = PQgetvalue(r.get(), 0, 1);
    a.passwordHash = PQgetvalue(r.get(), 0, 2);
    a.createdMs = std::strtoll(PQgetvalue(r.get(), 0, 3), nullptr, 10);
    return std::optional<StoredAccount>(std::move(a));
  }

  Status loadEntries(StoredGame& g) {
    auto r = query("SELECT ply, text, seat, die, clocks, at_ms FROM entries WHERE game_id = $1 ORDER BY ply", {g.id});
    if (!r) return lastError("select entries");
    for (int i = 0; i < PQntuples(r.get()); ++i) {
      StoredEntry e;
      e.ply = std::atoi(PQgetvalue(r.get(), i, 0));
      e.text = PQgetvalue(r.get(), i, 1);
      e.seat = std::atoi(PQgetvalue(r.get(), i, 2));
      e.die = std::atoi(PQgetvalue(r.get(), i, 3));
      e.clockMs = clocksFromText(PQgetvalue(r.get(), i, 4));
      e.atMs = std::strtoll(PQgetvalue(r.get(), i, 5), nullptr, 10);
      g.entries.push_back(std::move(e));
    }
    return okStatus();
  }

  void report(const std::string& id) {
    std::lock_guard lock(listenerM_);  // watch({}) waits for a report under way
    if (onChange_) onChange_(id);
  }

  // The listening connection: LISTEN, then wait on its socket (a short poll
  // timeout only to notice shutdown). After a lost connection it reconnects
  // every 200 ms and reports "" (anything may have changed meanwhile).
  void listenLoop() {
    PGconn* c = nullptr;
    bool lost = false;
    while (!stopping_) {
      if (!c || PQstatus(c) != CONNECTION_OK) {
        if (c) PQfinish(c);
        c = connectTo(uri_);
        if (PQstatus(c) != CONNECTION_OK ||
            PQresultStatus(PgResult(PQexec(c, (std::string("LISTEN ") + kChannel).c_str())).get()) !=
                PGRES_COMMAND_OK) {
          lost = true;
          std::this_thread::sleep_for(std::chrono::milliseconds(200));
          continue;
        }
        if (lost) report("");
        lost = false;
        {
          std::lock_guard lock(listenerM_);
          listening_ = true;
        }
        listeningCv_.notify_all();
      }
      pollfd p{PQsocket(c), POLLIN, 0};
      if (poll(&p, 1, 100) < 0) continue;
      if (!PQconsumeInput(c)) {  // the connection broke: connect again
        PQfinish(c);
        c = nullptr;
        lost = true;
        continue;
      }
      while (PGnotify* n = PQnotifies(c)) {
        const std::string id = n->extra;
        const bool own = n->be_pid == ownPid_.load();
        PQfreemem(n);
        if (!own) report(id);
      }
    }
    if (c) PQfinish(c);
  }

  const std::string uri_;
  std::mutex m_;
  PGconn* conn_ = nullptr;
  std::atomic<int> ownPid_{0};
  std::atomic<uint64_t> sessions_{0};
  std::string lastState_, lastMessage_;
  std::mutex listenerM_;
  std::condition_variable listeningCv_;
  bool listening_ = false;
  StoreChangeListener onChange_;
  std::thread listener_;
  std::atomic<bool> stopping_{false};
};

}  // namespace

bool isPostgresUri(const std::string& db) {
  return db.rfind("postgresql://", 0) == 0 || db.rfind("postgres://", 0) == 0;
}

Result<std::unique_ptr<Store>> openPgStore(const std::string& uri) {
  auto store = std::make_unique<PgStore>(uri);
  if (auto s = store->open(); !s.ok()) return s.error();
  return std::unique_ptr<Store>(std::move(store));
}

}  // namespace acedrex::server
