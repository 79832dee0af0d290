#include <gtest/gtest.h>
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

TEST(ServerSqlite, RefusesAnUnopenableFile) {
  EXPECT_FALSE(openSqliteStore("/nonexistent-dir/x/acedrex.db").ok());
}

}  // namespace
}  // namespace acedrex::server
