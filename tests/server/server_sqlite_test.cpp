#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>

#include "server/app/store.h"

namespace acedrex::server {
namespace {

std::string tempDb(const char* name) {
  const auto p = std::filesystem::temp_directory_path() / (std::string("acedrex-") + name + "-" + std::to_string(getpid()) + ".db");
  std::filesystem::remove(p);
  std::filesystem::remove(p.string() + "-wal");
  std::filesystem::remove(p.string() + "-shm");
  return p.string();
}

StoredGame sample(const std::string& id, int64_t created) {
  StoredGame g;
  g.id = id;
  g.variant = "four-seasons";
  g.options = {{"die", "on"}, {"takeover", "yes"}};
  g.seats = {SeatPlan{false, 0, "tok\"en"}, SeatPlan{true, 3, ""}, SeatPlan{true, 9, ""}, SeatPlan{false, 0, "t2"}};
  g.clock = ClockSpec{true, 60000, 500};
  g.seed = 18446744073709551615ULL;
  g.hotSeat = true;
  g.startFen = "start text";
  g.createdMs = created;
  return g;
}

TEST(ServerSqlite, StoresAndReloadsGames) {
  const std::string path = tempDb("store");
  {
    auto store = openSqliteStore(path);
    ASSERT_TRUE(store.ok()) << store.error().text();
    Store& s = **store;
    ASSERT_TRUE(s.createGame(sample("g1", 10)).ok());
    ASSERT_TRUE(s.createGame(sample("g2", 20)).ok());
    EXPECT_FALSE(s.createGame(sample("g2", 30)).ok()) << "ids are unique";
    for (int i = 0; i < 5; ++i) {
      StoredEntry e{i, i == 4 ? "resign" : "a6a5", i % 4, i + 1, {60000 - i, 1, 2, 3}, 1000 + i};
      ASSERT_TRUE(s.appendEntry("g1", e).ok());
    }
    EXPECT_FALSE(s.appendEntry("g1", StoredEntry{2, "x", 0, 0, {}, 0}).ok()) << "a ply is stored once";
    ASSERT_TRUE(s.truncate("g1", 3).ok());
    ASSERT_TRUE(s.finishGame("g2", "{\"reason\":\"resign\"}").ok());
  }
  auto store = openSqliteStore(path);
  ASSERT_TRUE(store.ok());
  Store& s = **store;
  auto unfinished = s.loadUnfinished();
  ASSERT_TRUE(unfinished.ok());
  ASSERT_EQ(unfinished->size(), 1u);
  const StoredGame& g = unfinished->front();
  EXPECT_EQ(g.id, "g1");
  EXPECT_EQ(g.options.at("die"), "on");
  ASSERT_EQ(g.seats.size(), 4u);
  EXPECT_EQ(g.seats[0].token, "tok\"en");
  EXPECT_TRUE(g.seats[1].bot);
  EXPECT_EQ(g.seats[2].level, 9);
  EXPECT_EQ(g.seed, 18446744073709551615ULL);
  EXPECT_TRUE(g.hotSeat);
  EXPECT_TRUE(g.clock.enabled);
  EXPECT_EQ(g.clock.incrementMs, 500);
  ASSERT_EQ(g.entries.size(), 3u);
  EXPECT_EQ(g.entries[2].ply, 2);
  EXPECT_EQ(g.entries[2].die, 3);
  EXPECT_EQ(g.entries[2].clockMs, (std::vector<int64_t>{59998, 1, 2, 3}));
  auto g2 = s.load("g2");
  ASSERT_TRUE(g2.ok() && *g2);
  EXPECT_TRUE((*g2)->finished);
  EXPECT_EQ((*g2)->resultJson, "{\"reason\":\"resign\"}");
  auto none = s.load("nope");
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(*none);
  auto recent = s.recent(10, "all");
  ASSERT_TRUE(recent.ok());
  ASSERT_EQ(recent->size(), 2u);
  EXPECT_EQ(recent->front().id, "g2");
  EXPECT_EQ(s.recent(10, "finished")->size(), 1u);
  store->reset();
  for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path + suffix);
}

// Runs SQL on the file from a second connection (the store must be closed:
// it holds the file exclusively).
void execOn(const std::string& path, const char* sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  char* err = nullptr;
  EXPECT_EQ(sqlite3_exec(db, sql, nullptr, nullptr, &err), SQLITE_OK) << (err ? err : "");
  sqlite3_free(err);
  sqlite3_close(db);
}

void removeDb(const std::string& path) {
  for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path + suffix);
}

StoredEntry entry(int ply, const std::string& text) { return StoredEntry{ply, text, 0, 0, {}, 1000 + ply}; }

// A COMMIT that fails (here: a deferred foreign key that a trigger breaks)
// leaves no transaction open: the failed change is rolled back, and later
// writes are committed as before.
TEST(ServerSqlite, AFailedCommitIsRolledBackAndLaterWritesCommit) {
  const std::string path = tempDb("commit");
  {
    auto store = openSqliteStore(path);
    ASSERT_TRUE(store.ok()) << store.error().text();
    ASSERT_TRUE((*store)->createGame(sample("g1", 10)).ok());
    ASSERT_TRUE((*store)->createGame(sample("g2", 20)).ok());
    ASSERT_TRUE((*store)->appendEntry("g1", entry(0, "a6a5")).ok());
    ASSERT_TRUE((*store)->appendEntry("g1", entry(1, "poison")).ok());
  }
  execOn(path,
         "CREATE TABLE guard (ref TEXT REFERENCES games(id) DEFERRABLE INITIALLY DEFERRED);"
         "CREATE TRIGGER poison AFTER DELETE ON entries WHEN old.text = 'poison' "
         "BEGIN INSERT INTO guard VALUES ('no-such-game'); END;");
  {
    auto store = openSqliteStore(path);
    ASSERT_TRUE(store.ok()) << store.error().text();
    Store& s = **store;
    EXPECT_FALSE(s.truncate("g1", 1).ok()) << "the commit breaks the deferred foreign key";
    ASSERT_TRUE(s.appendEntry("g2", entry(0, "b6b5")).ok());
    ASSERT_TRUE(s.appendEntry("g1", entry(2, "c6c5")).ok());
    EXPECT_TRUE(s.truncate("g1", 2).ok()) << "a later transaction starts and commits";
    ASSERT_TRUE(s.finishGame("g2", "{}").ok());
  }
  auto store = openSqliteStore(path);
  ASSERT_TRUE(store.ok());
  auto g1 = (*store)->load("g1");
  auto g2 = (*store)->load("g2");
  ASSERT_TRUE(g1.ok() && *g1 && g2.ok() && *g2);
  ASSERT_EQ((*g1)->entries.size(), 2u) << "the failed truncate changed nothing; the later one removed ply 2";
  EXPECT_EQ((*g1)->entries[1].text, "poison");
  ASSERT_EQ((*g2)->entries.size(), 1u) << "the write after the failed commit was committed";
  EXPECT_TRUE((*g2)->finished);
  store->reset();
  removeDb(path);
}

// A write refused by the database (a trigger that raises) changes nothing and
// the next write succeeds.
TEST(ServerSqlite, ARefusedWriteChangesNothingAndTheNextOneSucceeds) {
  const std::string path = tempDb("refused");
  {
    auto store = openSqliteStore(path);
    ASSERT_TRUE(store.ok());
    ASSERT_TRUE((*store)->createGame(sample("g1", 10)).ok());
  }
  execOn(path,
         "CREATE TRIGGER refuse BEFORE INSERT ON entries WHEN NEW.text = 'refused' "
         "BEGIN SELECT RAISE(ABORT, 'refused by a trigger'); END;"
         "CREATE TRIGGER refuseResult BEFORE UPDATE ON games WHEN NEW.result = 'refused' "
         "BEGIN SELECT RAISE(ABORT, 'result refused'); END;");
  {
    auto store = openSqliteStore(path);
    ASSERT_TRUE(store.ok());
    Store& s = **store;
    ASSERT_TRUE(s.appendEntry("g1", entry(0, "a6a5")).ok());
    auto refused = s.appendEntry("g1", entry(1, "refused"));
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.error().text().find("refused by a trigger"), std::string::npos) << refused.error().text();
    ASSERT_TRUE(s.appendEntry("g1", entry(1, "b6b5")).ok());
    EXPECT_EQ(*s.countUnfinished(), 1u);
    // The final entry and the finish are one transaction: a refused finish stores no entry.
    EXPECT_FALSE(s.appendFinal("g1", entry(2, "resign"), "refused").ok());
    EXPECT_EQ((*s.load("g1"))->entries.size(), 2u);
    EXPECT_EQ(*s.countUnfinished(), 1u);
    ASSERT_TRUE(s.appendFinal("g1", entry(2, "resign"), "{}").ok());
    EXPECT_EQ(*s.countUnfinished(), 0u);
  }
  auto store = openSqliteStore(path);
  ASSERT_TRUE(store.ok());
  auto g1 = (*store)->load("g1");
  ASSERT_TRUE(g1.ok() && *g1);
  ASSERT_EQ((*g1)->entries.size(), 3u);
  EXPECT_EQ((*g1)->entries[1].text, "b6b5");
  EXPECT_TRUE((*g1)->finished);
  EXPECT_EQ((*g1)->resultJson, "{}");
  store->reset();
  removeDb(path);
}

TEST(ServerSqlite, RefusesAnUnopenableFile) {
  EXPECT_FALSE(openSqliteStore("/nonexistent-dir/x/acedrex.db").ok());
}

}  // namespace
}  // namespace acedrex::server
