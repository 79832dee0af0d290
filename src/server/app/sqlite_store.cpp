// The SQLite Store: one database file, WAL journal, exclusive locking (one
// server process per file), one connection guarded by a mutex. Each write is one transaction, committed before the
// call returns. With durable=false (synchronous=NORMAL) a commit survives a
// crash of the process (kill -9); durable=true (synchronous=FULL) also
// survives a power cut, at the cost of an fsync per move.
#include <sqlite3.h>

#include <cstdio>
#include <mutex>

#include "server/app/json.h"
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
PRAGMA user_version = 1;
)SQL";

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
    return transaction("insert final entry", [&] { return insertEntryRow(id, e) && markFinished(id, resultJson); });
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
    return transaction("finish game", [&] { return markFinished(id, resultJson); });
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
    return okStatus();
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
