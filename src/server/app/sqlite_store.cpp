// The SQLite Store: one database file, WAL journal, exclusive locking (one
// server process per file), one connection guarded by a mutex. Each write is one transaction, committed before the
// call returns. With durable=false (synchronous=NORMAL) a commit survives a
// crash of the process (kill -9); durable=true (synchronous=FULL) also
// survives a power cut, at the cost of an fsync per move.
#include <sqlite3.h>

#include <cstdio>
#include <mutex>

#include <chrono>

#include "server/app/json.h"
#include "server/app/ratings.h"
#include "server/app/store.h"

namespace acedrex::server {
namespace {

const char* kSchema = R"SQL(
CREATE TABLE IF NOT EXISTS games (
  id TEXT PRIMARY KEY,
  variant TEXT NOT NULL,
  options TEXT NOT NULL,
  seats TEXT NOT NULL,
  clock_enabled INTEGER NOT NULL,
  clock_initial_ms INTEGER NOT NULL,
  clock_increment_ms INTEGER NOT NULL,
  seed TEXT NOT NULL,
  hot_seat INTEGER NOT NULL,
  start_fen TEXT NOT NULL,
  created_ms INTEGER NOT NULL,
  finished INTEGER NOT NULL DEFAULT 0,
  result TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS games_finished ON games(finished);
CREATE INDEX IF NOT EXISTS games_created ON games(created_ms);
CREATE TABLE IF NOT EXISTS entries (
  game_id TEXT NOT NULL,
  ply INTEGER NOT NULL,
  text TEXT NOT NULL,
  seat INTEGER NOT NULL,
  die INTEGER NOT NULL,
  clocks TEXT NOT NULL,
  at_ms INTEGER NOT NULL,
  PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;
)SQL";

// Version 2: accounts and their sessions (a session is the hash of its token).
const char* kSchemaV2 = R"SQL(
CREATE TABLE accounts (
  key TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  password_hash TEXT NOT NULL,
  created_ms INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE sessions (
  token_hash TEXT PRIMARY KEY,
  account TEXT NOT NULL REFERENCES accounts(key) ON DELETE CASCADE,
  created_ms INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX sessions_account ON sessions(account);
CREATE TABLE ratings (
  account TEXT NOT NULL REFERENCES accounts(key) ON DELETE CASCADE,
  variant TEXT NOT NULL,
  rating REAL NOT NULL,
  deviation REAL NOT NULL,
  volatility REAL NOT NULL,
  games INTEGER NOT NULL,
  updated_ms INTEGER NOT NULL,
  PRIMARY KEY (account, variant)
) WITHOUT ROWID;
CREATE TABLE chat (
  game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
  n INTEGER NOT NULL,
  room TEXT NOT NULL,
  author TEXT NOT NULL,
  seat TEXT NOT NULL,
  text TEXT NOT NULL,
  at_ms INTEGER NOT NULL,
  PRIMARY KEY (game_id, n)
) WITHOUT ROWID;
)SQL";

constexpr int kSqliteSchemaVersion = 2;

class Stmt {
 public:
  Stmt(sqlite3* db, const char* sql) { ok_ = sqlite3_prepare_v2(db, sql, -1, &s_, nullptr) == SQLITE_OK; }
  ~Stmt() { sqlite3_finalize(s_); }
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;
  bool ok() const { return ok_; }
  sqlite3_stmt* get() { return s_; }
  void reset() {
    sqlite3_reset(s_);
    sqlite3_clear_bindings(s_);
  }
  void bind(int i, const std::string& t) { sqlite3_bind_text(s_, i, t.data(), static_cast<int>(t.size()), SQLITE_TRANSIENT); }
  void bind(int i, int64_t v) { sqlite3_bind_int64(s_, i, v); }
  int step() { return sqlite3_step(s_); }
  std::string text(int c) {
    const unsigned char* p = sqlite3_column_text(s_, c);
    return p ? std::string(reinterpret_cast<const char*>(p), static_cast<size_t>(sqlite3_column_bytes(s_, c))) : std::string();
  }
  int64_t integer(int c) { return sqlite3_column_int64(s_, c); }

 private:
  sqlite3_stmt* s_ = nullptr;
  bool ok_ = false;
};

class SqliteStore : public Store {
 public:
  explicit SqliteStore(sqlite3* db) : db_(db) {}
  ~SqliteStore() override {
    insertEntry_.reset();  // statements first: a connection with live statements does not close
    sqlite3_close_v2(db_);
  }

  Status createGame(const StoredGame& g) override {
    std::lock_guard lock(m_);
    return transaction("insert game", [&] {
      Stmt s(db_,
             "INSERT INTO games (id, variant, options, seats, clock_enabled, clock_initial_ms, clock_increment_ms, "
             "seed, hot_seat, start_fen, created_ms, finished, result) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)");
      if (!s.ok()) return false;
      s.bind(1, g.id);
      s.bind(2, g.variant);
      s.bind(3, optionsToJson(g.options));
      s.bind(4, seatsToJson(g.seats));
      s.bind(5, static_cast<int64_t>(g.clock.enabled));
      s.bind(6, g.clock.initialMs);
      s.bind(7, g.clock.incrementMs);
      s.bind(8, std::to_string(g.seed));
      s.bind(9, static_cast<int64_t>(g.hotSeat));
      s.bind(10, g.startFen);
      s.bind(11, g.createdMs);
      s.bind(12, static_cast<int64_t>(g.finished));
      s.bind(13, g.resultJson);
      return s.step() == SQLITE_DONE;
    });
  }

  Status appendEntry(const std::string& id, const StoredEntry& e) override {
    std::lock_guard lock(m_);
    return transaction("insert entry", [&] { return insertEntryRow(id, e); });
  }

  Status appendFinal(const std::string& id, const StoredEntry& e, const std::string& resultJson) override {
    std::lock_guard lock(m_);
    return transaction("insert final entry",
                       [&] { return insertEntryRow(id, e) && rate(id, resultJson) && markFinished(id, resultJson); });
  }

  Status truncate(const std::string& id, int fromPly) override {
    std::lock_guard lock(m_);
    return transaction("truncate", [&] {
      Stmt d(db_, "DELETE FROM entries WHERE game_id = ? AND ply >= ?");
      if (!d.ok()) return false;
      d.bind(1, id);
      d.bind(2, static_cast<int64_t>(fromPly));
      if (d.step() != SQLITE_DONE) return false;
      Stmt u(db_, "UPDATE games SET finished = 0, result = '' WHERE id = ?");
      if (!u.ok()) return false;
      u.bind(1, id);
      return u.step() == SQLITE_DONE;
    });
  }

  Status finishGame(const std::string& id, const std::string& resultJson) override {
    std::lock_guard lock(m_);
    return transaction("finish game", [&] { return rate(id, resultJson) && markFinished(id, resultJson); });
  }

  Status replaceSeats(const std::string& id, const std::vector<SeatPlan>& expected,
                      const std::vector<SeatPlan>& seats) override {
    std::lock_guard lock(m_);
    bool conflict = false;
    Status done = transaction("replace seats", [&] {
      Stmt s(db_, "UPDATE games SET seats = ? WHERE id = ? AND seats = ?");
      if (!s.ok()) return false;
      s.bind(1, seatsToJson(seats));
      s.bind(2, id);
      s.bind(3, seatsToJson(expected));
      if (s.step() != SQLITE_DONE) return false;
      conflict = sqlite3_changes(db_) != 1;
      return !conflict;
    });
    if (conflict) return makeError(kStoreConflict, "the seats changed meanwhile");
    return done;
  }

  Result<size_t> countUnfinished() override {
    std::lock_guard lock(m_);
    Stmt s(db_, "SELECT COUNT(*) FROM games WHERE finished = 0");
    if (!s.ok() || s.step() != SQLITE_ROW) return dbError("count games").error();
    return static_cast<size_t>(s.integer(0));
  }

  Result<std::vector<StoredGame>> loadUnfinished() override {
    std::lock_guard lock(m_);
    auto games = selectGames("SELECT * FROM games WHERE finished = 0 ORDER BY created_ms", {});
    if (!games.ok()) return games.error();
    for (auto& g : *games)
      if (auto s = loadEntries(g); !s.ok()) return s.error();
    return games;
  }

  Result<std::optional<StoredGame>> load(const std::string& id) override {
    std::lock_guard lock(m_);
    auto games = selectGames("SELECT * FROM games WHERE id = ?", id);
    if (!games.ok()) return games.error();
    if (games->empty()) return std::optional<StoredGame>();
    if (auto s = loadEntries(games->front()); !s.ok()) return s.error();
    return std::optional<StoredGame>(std::move(games->front()));
  }

  Result<std::vector<StoredGame>> recent(int limit, const std::string& filter) override {
    std::lock_guard lock(m_);
    std::string sql = "SELECT * FROM games";
    if (filter == "ongoing") sql += " WHERE finished = 0";
    if (filter == "finished") sql += " WHERE finished = 1";
    if (filter == "open") sql += " WHERE finished = 0 AND seats LIKE '%\"open\":true%'";  // seatsToJson writes it only while free
    sql += " ORDER BY created_ms DESC, rowid DESC LIMIT " + std::to_string(std::max(0, limit));
    return selectGames(sql.c_str(), {});
  }

  Status init(bool durable) {
    if (!exec("PRAGMA journal_mode = WAL")) return dbError("journal_mode");
    if (!exec(durable ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL")) return dbError("synchronous");
    // One server owns its database: no file locking per transaction, and a
    // second server on the same file fails at start instead of interleaving.
    if (!exec("PRAGMA locking_mode = EXCLUSIVE")) return dbError("locking_mode");
    sqlite3_busy_timeout(db_, 2000);
    if (!exec("PRAGMA foreign_keys = ON")) return dbError("foreign_keys");
    if (!exec(kSchema)) return dbError("schema");
    return migrate();
  }

  // Brings the schema up to kSqliteSchemaVersion (PRAGMA user_version), one
  // version a transaction; a file of a newer acedrex is refused.
  Status migrate() {
    Stmt v(db_, "PRAGMA user_version");
    if (!v.ok() || v.step() != SQLITE_ROW) return dbError("schema version");
    const int version = static_cast<int>(v.integer(0));
    if (version > kSqliteSchemaVersion)
      return makeError("schema", "the database has schema version " + std::to_string(version) +
                                     "; this acedrex knows versions up to " + std::to_string(kSqliteSchemaVersion) +
                                     ": run a newer acedrex");
    if (version < 2)
      if (auto s = transaction("schema v2", [&] { return exec(kSchemaV2) && exec("PRAGMA user_version = 2"); });
          !s.ok())
        return s;
    return okStatus();
  }

  Status appendChat(const std::string& gameId, const ChatLine& line) override {
    std::lock_guard lock(m_);
    bool taken = false;
    Status done = transaction("insert chat line", [&] {
      Stmt s(db_, "INSERT INTO chat (game_id, n, room, author, seat, text, at_ms) VALUES (?,?,?,?,?,?,?)");
      if (!s.ok()) return false;
      s.bind(1, gameId);
      s.bind(2, line.n);
      s.bind(3, line.room);
      s.bind(4, line.author);
      s.bind(5, line.seat);
      s.bind(6, line.text);
      s.bind(7, line.atMs);
      const int rc = s.step();
      taken = rc == SQLITE_CONSTRAINT && sqlite3_extended_errcode(db_) == SQLITE_CONSTRAINT_PRIMARYKEY;
      return rc == SQLITE_DONE;
    });
    if (taken) return makeError(kStoreConflict, "the line's number is taken");
    return done;
  }

  Result<std::vector<ChatLine>> loadChat(const std::string& gameId) override {
    std::lock_guard lock(m_);
    Stmt s(db_, "SELECT n, room, author, seat, text, at_ms FROM chat WHERE game_id = ? ORDER BY n");
    if (!s.ok()) return dbError("prepare").error();
    s.bind(1, gameId);
    std::vector<ChatLine> out;
    int rc;
    while ((rc = s.step()) == SQLITE_ROW)
      out.push_back(ChatLine{s.integer(0), s.text(1), s.text(2), s.text(3), s.text(4), s.integer(5)});
    if (rc != SQLITE_DONE) return dbError("select chat").error();
    return out;
  }

  Result<std::vector<StoredRating>> ratingsOf(const std::string& accountKey) override {
    std::lock_guard lock(m_);
    return selectRatings("SELECT account, variant, rating, deviation, volatility, games, updated_ms FROM ratings "
                         "WHERE account = ? ORDER BY variant",
                         accountKey, "");
  }

  Result<std::vector<StoredGame>> gamesOf(const std::string& accountName, int limit) override {
    std::lock_guard lock(m_);
    JsonWriter w;  // how seatsToJson writes an account's seat
    w.beginObject().key("name").value(accountName).key("account").value(true).endObject();
    std::string needle = w.take();
    needle = needle.substr(1, needle.size() - 2);
    const std::string sql = "SELECT * FROM games WHERE instr(seats, ?) > 0 ORDER BY created_ms DESC, rowid DESC LIMIT " +
                            std::to_string(std::max(0, limit));
    return selectGames(sql.c_str(), needle);
  }

  Status createAccount(const StoredAccount& a) override {
    std::lock_guard lock(m_);
    bool taken = false;
    Status done = transaction("insert account", [&] {
      Stmt s(db_, "INSERT INTO accounts (key, name, password_hash, created_ms) VALUES (?,?,?,?)");
      if (!s.ok()) return false;
      s.bind(1, a.key);
      s.bind(2, a.name);
      s.bind(3, a.passwordHash);
      s.bind(4, a.createdMs);
      const int rc = s.step();
      taken = rc == SQLITE_CONSTRAINT;
      return rc == SQLITE_DONE;
    });
    if (taken) return makeError(kStoreConflict, "the name is taken");
    return done;
  }

  Result<std::optional<StoredAccount>> findAccount(const std::string& key) override {
    std::lock_guard lock(m_);
    return selectAccount("SELECT key, name, password_hash, created_ms FROM accounts WHERE key = ?", key, 0);
  }

  Status createSession(const std::string& tokenHash, const std::string& accountKey, int64_t createdMs) override {
    std::lock_guard lock(m_);
    return transaction("insert session", [&] {
      Stmt s(db_, "INSERT INTO sessions (token_hash, account, created_ms) VALUES (?,?,?)");
      if (!s.ok()) return false;
      s.bind(1, tokenHash);
      s.bind(2, accountKey);
      s.bind(3, createdMs);
      return s.step() == SQLITE_DONE;
    });
  }

  Result<std::optional<StoredAccount>> sessionAccount(const std::string& tokenHash, int64_t notBeforeMs) override {
    std::lock_guard lock(m_);
    return selectAccount(
        "SELECT a.key, a.name, a.password_hash, a.created_ms FROM sessions s JOIN accounts a ON a.key = s.account "
        "WHERE s.token_hash = ? AND s.created_ms >= ?",
        tokenHash, notBeforeMs);
  }

  Status deleteSession(const std::string& tokenHash) override {
    std::lock_guard lock(m_);
    return transaction("delete session", [&] {
      Stmt s(db_, "DELETE FROM sessions WHERE token_hash = ?");
      if (!s.ok()) return false;
      s.bind(1, tokenHash);
      return s.step() == SQLITE_DONE;
    });
  }

 private:
  bool exec(const char* sql) { return sqlite3_exec(db_, sql, nullptr, nullptr, nullptr) == SQLITE_OK; }

  // Runs `steps` (false at the first step that fails) in one IMMEDIATE
  // transaction and commits it. Any failure, of a step or of the COMMIT itself
  // (a COMMIT can fail and leave its transaction open, e.g. on a deferred
  // constraint), rolls the whole transaction back, so no later write ever
  // lands in a transaction that does not commit.
  template <typename Steps>
  Status transaction(const char* what, Steps&& steps) {
    if (!sqlite3_get_autocommit(db_)) rollback();  // defensive: never write into a leftover transaction
    if (!exec("BEGIN IMMEDIATE")) return dbError(std::string(what) + " (begin)");
    if (!steps()) {
      Status failed = dbError(what);
      rollback();
      return failed;
    }
    if (!exec("COMMIT")) {
      Status failed = dbError(std::string(what) + " (commit)");
      rollback();
      return failed;
    }
    return okStatus();
  }
  void rollback() {
    if (!sqlite3_get_autocommit(db_) && !exec("ROLLBACK"))
      std::fprintf(stderr, "acedrex serve: store: rollback failed: %s\n", sqlite3_errmsg(db_));
  }
  bool insertEntryRow(const std::string& id, const StoredEntry& e) {
    Stmt& s = insertEntry();
    if (!s.ok()) return false;
    s.reset();
    s.bind(1, id);
    s.bind(2, static_cast<int64_t>(e.ply));
    s.bind(3, e.text);
    s.bind(4, static_cast<int64_t>(e.seat));
    s.bind(5, static_cast<int64_t>(e.die));
    s.bind(6, clocksToText(e.clockMs));
    s.bind(7, e.atMs);
    const int rc = s.step();
    if (rc != SQLITE_DONE) return false;  // the message stays readable until the next statement runs
    s.reset();
    return true;
  }
  // Within a transaction, before markFinished: a rated game's ratings after its result (ratings.h).
  bool rate(const std::string& id, const std::string& resultJson) {
    Stmt g(db_, "SELECT variant, seats, finished FROM games WHERE id = ?");
    if (!g.ok()) return false;
    g.bind(1, id);
    const int rc = g.step();
    if (rc == SQLITE_DONE) return true;
    if (rc != SQLITE_ROW) return false;
    if (g.integer(2) != 0) return true;  // rated once, when it finished
    const std::string variant = g.text(0);
    bool ok = true;
    const auto after = ratingsAfter(variant, seatsFromJson(g.text(1)), resultJson, nowMs(), [&](const std::string& key) {
      auto rows = selectRatings("SELECT account, variant, rating, deviation, volatility, games, updated_ms FROM ratings "
                                "WHERE account = ? AND variant = ?", key, variant);
      ok = ok && rows.ok();
      return rows.ok() && !rows->empty() ? std::optional<StoredRating>(rows->front()) : std::nullopt;
    });
    if (!ok) return false;
    for (const auto& r : after) {
      Stmt u(db_,
             "INSERT INTO ratings (account, variant, rating, deviation, volatility, games, updated_ms) "
             "VALUES (?,?,?,?,?,?,?) ON CONFLICT (account, variant) DO UPDATE SET rating = excluded.rating, "
             "deviation = excluded.deviation, volatility = excluded.volatility, games = excluded.games, "
             "updated_ms = excluded.updated_ms");
      if (!u.ok()) return false;
      u.bind(1, r.account);
      u.bind(2, r.variant);
      sqlite3_bind_double(u.get(), 3, r.rating);
      sqlite3_bind_double(u.get(), 4, r.deviation);
      sqlite3_bind_double(u.get(), 5, r.volatility);
      u.bind(6, static_cast<int64_t>(r.games));
      u.bind(7, r.updatedMs);
      if (u.step() != SQLITE_DONE) return false;
    }
    return true;
  }
  static int64_t nowMs() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
  }
  Result<std::vector<StoredRating>> selectRatings(const char* sql, const std::string& account,
                                                  const std::string& variant) {
    Stmt s(db_, sql);
    if (!s.ok()) return dbError("prepare").error();
    s.bind(1, account);
    if (!variant.empty()) s.bind(2, variant);
    std::vector<StoredRating> out;
    int rc;
    while ((rc = s.step()) == SQLITE_ROW) {
      StoredRating r;
      r.account = s.text(0);
      r.variant = s.text(1);
      r.rating = sqlite3_column_double(s.get(), 2);
      r.deviation = sqlite3_column_double(s.get(), 3);
      r.volatility = sqlite3_column_double(s.get(), 4);
      r.games = static_cast<int>(s.integer(5));
      r.updatedMs = s.integer(6);
      out.push_back(std::move(r));
    }
    if (rc != SQLITE_DONE) return dbError("select ratings").error();
    return out;
  }
  bool markFinished(const std::string& id, const std::string& resultJson) {
    Stmt s(db_, "UPDATE games SET finished = 1, result = ? WHERE id = ?");
    if (!s.ok()) return false;
    s.bind(1, resultJson);
    s.bind(2, id);
    return s.step() == SQLITE_DONE;
  }
  Status dbError(const std::string& what) {
    return makeError("store", what + ": " + sqlite3_errmsg(db_));
  }
  Stmt& insertEntry() {
    if (!insertEntry_ || !insertEntry_->ok())
      insertEntry_ = std::make_unique<Stmt>(
          db_, "INSERT INTO entries (game_id, ply, text, seat, die, clocks, at_ms) VALUES (?,?,?,?,?,?,?)");
    return *insertEntry_;
  }

  Result<std::vector<StoredGame>> selectGames(const char* sql, const std::optional<std::string>& id) {
    Stmt s(db_, sql);
    if (!s.ok()) return dbError("prepare").error();
    if (id) s.bind(1, *id);
    std::vector<StoredGame> out;
    int rc;
    while ((rc = s.step()) == SQLITE_ROW) {
      StoredGame g;
      g.id = s.text(0);
      g.variant = s.text(1);
      g.options = optionsFromJson(s.text(2));
      g.seats = seatsFromJson(s.text(3));
      g.clock.enabled = s.integer(4) != 0;
      g.clock.initialMs = s.integer(5);
      g.clock.incrementMs = s.integer(6);
      g.seed = std::strtoull(s.text(7).c_str(), nullptr, 10);
      g.hotSeat = s.integer(8) != 0;
      g.startFen = s.text(9);
      g.createdMs = s.integer(10);
      g.finished = s.integer(11) != 0;
      g.resultJson = s.text(12);
      out.push_back(std::move(g));
    }
    if (rc != SQLITE_DONE) return dbError("select games").error();
    return out;
  }

  // One account row by a text key (and, for sessions, a time bound), or nullopt.
  Result<std::optional<StoredAccount>> selectAccount(const char* sql, const std::string& key, int64_t notBeforeMs) {
    Stmt s(db_, sql);
    if (!s.ok()) return dbError("prepare").error();
    s.bind(1, key);
    if (sqlite3_bind_parameter_count(s.get()) > 1) s.bind(2, notBeforeMs);
    const int rc = s.step();
    if (rc == SQLITE_DONE) return std::optional<StoredAccount>();
    if (rc != SQLITE_ROW) return dbError("select account").error();
    StoredAccount a;
    a.key = s.text(0);
    a.name = s.text(1);
    a.passwordHash = s.text(2);
    a.createdMs = s.integer(3);
    return std::optional<StoredAccount>(std::move(a));
  }

  Status loadEntries(StoredGame& g) {
    Stmt s(db_, "SELECT ply, text, seat, die, clocks, at_ms FROM entries WHERE game_id = ? ORDER BY ply");
    if (!s.ok()) return dbError("prepare");
    s.bind(1, g.id);
    int rc;
    while ((rc = s.step()) == SQLITE_ROW) {
      StoredEntry e;
      e.ply = static_cast<int>(s.integer(0));
      e.text = s.text(1);
      e.seat = static_cast<int>(s.integer(2));
      e.die = static_cast<int>(s.integer(3));
      e.clockMs = clocksFromText(s.text(4));
      e.atMs = s.integer(5);
      g.entries.push_back(std::move(e));
    }
    if (rc != SQLITE_DONE) return dbError("select entries");
    return okStatus();
  }

  std::mutex m_;
  sqlite3* db_;
  std::unique_ptr<Stmt> insertEntry_;
};

}  // namespace

Result<std::unique_ptr<Store>> openSqliteStore(const std::string& path, bool durable) {
  sqlite3* db = nullptr;
  const int rc = sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
                                 nullptr);
  if (rc != SQLITE_OK) {
    std::string msg = db ? sqlite3_errmsg(db) : "out of memory";
    sqlite3_close(db);
    return makeError("store", "cannot open " + path + ": " + msg);
  }
  auto store = std::make_unique<SqliteStore>(db);
  if (auto s = store->init(durable); !s.ok()) return s.error();
  return std::unique_ptr<Store>(std::move(store));
}

}  // namespace acedrex::server
