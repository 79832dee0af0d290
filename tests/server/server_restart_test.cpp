// Crash and restart: the real `acedrex serve` process with a temporary
// SQLite file is killed with SIGKILL in the middle of games and started
// again; every acknowledged move must still be there and bots go on.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <thread>

#include "test_support.h"

namespace acedrex::server {
namespace {

using testing::HttpClient;
using testing::movesOf;

using testing::ServeProcess;

// With a descriptor table of 128 and 148 idle connections (no per-client
// limit), the server neither spins on accept() nor stops for good: it sheds
// what it cannot hold, backs off when accept() fails, and answers again once
// the idle clients go.
TEST(ServerRestart, AFullDescriptorTableIsShedNotSpunOn) {
  const auto dir = std::filesystem::temp_directory_path() / ("acedrex-fd-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const std::string err = (dir / "stderr.txt").string();
  {
    ServeProcess serve((dir / "g.db").string(),
                       {"--max-connections-per-client", "0", "--max-connections", "1000000", "--threads", "1"}, 128, err);
    ASSERT_GT(serve.port(), 0) << "the server did not start";
    std::vector<std::unique_ptr<HttpClient>> idle;
    for (int i = 0; i < 148; ++i) idle.push_back(std::make_unique<HttpClient>(serve.port()));
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));  // let the server meet the full table
    EXPECT_TRUE(serve.alive());
    idle.clear();
    EXPECT_TRUE(testing::waitFor([&] {
      HttpClient c(serve.port());
      return c.get("/api/variants").status == 200;
    }, 10000)) << "the server answers again once the idle clients are gone";
  }
  std::ifstream in(err);
  const std::string log((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  size_t failures = 0;
  for (size_t at = log.find("accept failed"); at != std::string::npos; at = log.find("accept failed", at + 1))
    ++failures;
  // Backing off (10 ms doubling to 1 s) makes a handful of attempts in those
  // seconds; spinning made hundreds of thousands.
  EXPECT_LT(failures, 200u) << log.substr(0, 2000);
  std::filesystem::remove_all(dir);
}

TEST(ServerRestart, KillNineLosesNoAcknowledgedMoveAndBotsResume) {
  const std::string db =
      (std::filesystem::temp_directory_path() / ("acedrex-crash-" + std::to_string(getpid()) + ".db")).string();
  std::filesystem::remove(db);
  std::string humanId, botId, mixedId, mixedToken;
  std::vector<std::string> humanTokens;
  std::vector<std::string> humanMoves, botMovesBefore;
  {
    ServeProcess serve(db, {"--bot-ms", "20"});
    ASSERT_GT(serve.port(), 0) << "the server did not start";
    HttpClient c(serve.port());
    auto created = c.post("/api/game", R"({"variant":"shako","seats":[{"kind":"human"},{"kind":"human"}]})").json();
    humanId = created.get("id")->asString();
    for (const auto& s : created.get("seats")->items()) humanTokens.push_back(s.get("token")->asString());
    // Acknowledged moves: each reply 200 before the next.
    for (int ply = 0; ply < 12; ++ply) {
      auto s = c.get("/api/game/" + humanId).json();
      const auto& legal = s.get("legal")->members();
      ASSERT_FALSE(legal.empty());
      const std::string mv = legal[static_cast<size_t>(ply * 7) % legal.size()].second.items()[0].asString();
      auto r = c.post("/api/game/" + humanId + "/move/" + mv, "", humanTokens[static_cast<size_t>(ply % 2)]);
      ASSERT_EQ(r.status, 200) << r.body;
      humanMoves.push_back(mv);
    }
    botId = c.post("/api/game", R"({"variant":"four-seasons","seats":[{"kind":"bot","level":1},{"kind":"bot","level":1},)"
                                R"({"kind":"bot","level":1},{"kind":"bot","level":1}],"options":{"die":"on"}})")
                .json()
                .get("id")
                ->asString();
    auto mixed = c.post("/api/game", R"({"variant":"shako","seats":[{"kind":"human"},{"kind":"bot","level":1}]})").json();
    mixedId = mixed.get("id")->asString();
    mixedToken = mixed.get("seats")->items()[0].get("token")->asString();
    ASSERT_TRUE(testing::waitFor([&] { return movesOf(c.get("/api/game/" + botId).json()).size() >= 8; }, 20000));
    botMovesBefore = movesOf(c.get("/api/game/" + botId).json());
    serve.kill9();  // bots may be in the middle of a move
  }
  {
    ServeProcess serve(db, {"--bot-ms", "20"});
    ASSERT_GT(serve.port(), 0) << "the server did not restart";
    HttpClient c(serve.port());
    auto human = c.get("/api/game/" + humanId).json();
    EXPECT_EQ(movesOf(human), humanMoves) << "every acknowledged move survived";
    EXPECT_EQ(human.get("status")->asString(), "ongoing");
    // The tokens still work after the restart.
    auto s = c.get("/api/game/" + humanId).json();
    const std::string mv = s.get("legal")->members()[0].second.items()[0].asString();
    EXPECT_EQ(c.post("/api/game/" + humanId + "/move/" + mv, "", humanTokens[0]).status, 200);
    // The bot game kept what it had and goes on by itself.
    auto botNow = movesOf(c.get("/api/game/" + botId).json());
    ASSERT_GE(botNow.size(), botMovesBefore.size());
    EXPECT_TRUE(std::equal(botMovesBefore.begin(), botMovesBefore.end(), botNow.begin()));
    EXPECT_TRUE(testing::waitFor(
        [&] {
          auto st = c.get("/api/game/" + botId).json();
          return st.get("status")->asString() == "finished" || movesOf(st).size() >= botNow.size() + 4;
        },
        20000))
        << "the bots resumed";
    // A human-vs-bot game: the bot answers after the restart.
    auto r = c.post("/api/game/" + mixedId + "/move/e3e4", "", mixedToken);
    EXPECT_EQ(r.status, 200) << r.body;
    EXPECT_TRUE(testing::waitFor([&] { return movesOf(c.get("/api/game/" + mixedId).json()).size() == 2; }, 20000));
    serve.terminate();
    EXPECT_EQ(serve.exitCode(), 0) << "SIGTERM stops the server cleanly";
  }
  std::filesystem::remove(db);
  std::filesystem::remove(db + "-wal");
  std::filesystem::remove(db + "-shm");
}

// Slow: several kill -9 / restart cycles while real bots play many games and a
// client plays moves; after each restart every game's record must start with
// what was seen before the kill.
TEST(ServerRestartSlow, RepeatedKillsWhileBotsPlay) {
  const std::string db =
      (std::filesystem::temp_directory_path() / ("acedrex-crash-slow-" + std::to_string(getpid()) + ".db")).string();
  std::filesystem::remove(db);
  std::vector<std::string> ids;
  std::map<std::string, std::vector<std::string>> seen;
  std::string humanId, humanToken;
  for (int cycle = 0; cycle < 4; ++cycle) {
    // Four games of bots only from one client: above the default limit of three.
    ServeProcess serve(db, {"--bot-ms", "10", "--max-bot-games-per-client", "8"});
    ASSERT_GT(serve.port(), 0);
    HttpClient c(serve.port());
    for (const auto& [id, moves] : seen) {
      auto now = movesOf(c.get("/api/game/" + id).json());
      ASSERT_GE(now.size(), moves.size()) << id << " cycle " << cycle;
      EXPECT_TRUE(std::equal(moves.begin(), moves.end(), now.begin())) << id << " cycle " << cycle;
    }
    if (cycle == 0) {
      for (const char* v : {"shako", "grant-acedrex"})
        ids.push_back(c.post("/api/game", std::string(R"({"variant":")") + v +
                                              R"(","seats":[{"kind":"bot","level":1},{"kind":"bot","level":2}]})")
                          .json().get("id")->asString());
      for (const char* v : {"four-seasons", "joko-urtaroak"})
        ids.push_back(c.post("/api/game", std::string(R"({"variant":")") + v +
                                              R"(","seats":[{"kind":"bot","level":1},{"kind":"bot","level":1},)"
                                              R"({"kind":"bot","level":1},{"kind":"bot","level":1}]})")
                          .json().get("id")->asString());
      auto h = c.post("/api/game", R"({"variant":"four-seasons","hotSeat":true,"options":{"die":"on"}})").json();
      humanId = h.get("id")->asString();
      humanToken = h.get("seats")->items()[0].get("token")->asString();
      ids.push_back(humanId);
    }
    // The client plays some moves; the bots play on meanwhile.
    for (int i = 0; i < 15; ++i) {
      auto st = c.get("/api/game/" + humanId).json();
      if (st.get("status")->asString() != "ongoing") break;
      const auto& legal = st.get("legal")->members();
      if (legal.empty()) break;
      const std::string mv = legal[static_cast<size_t>(i) % legal.size()].second.items()[0].asString();
      EXPECT_EQ(c.post("/api/game/" + humanId + "/move/" + mv, "", humanToken).status, 200);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(300 + 200 * cycle));
    for (const auto& id : ids) seen[id] = movesOf(c.get("/api/game/" + id).json());
    serve.kill9();
  }
  std::filesystem::remove(db);
  std::filesystem::remove(db + "-wal");
  std::filesystem::remove(db + "-shm");
}

}  // namespace
}  // namespace acedrex::server
