// The PostgreSQL store and several server processes on one database. Each
// test starts its own throwaway cluster (pg_cluster.h) and skips only when
// the PostgreSQL binaries are not installed.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <set>
#include <thread>

#include <map>

#include "pg_cluster.h"
#include "server/app/lobby.h"
#include "server/app/pg_store.h"
#include "server/app/store.h"
#include "test_support.h"

namespace acedrex::server {
namespace {

using testing::HttpClient;
using testing::movesOf;
using testing::ServeProcess;
using testing::TempPostgres;

StoredGame sampleGame(const std::string& id) {
  StoredGame g;
  g.id = id;
  g.variant = "shako";
  g.seats = {SeatPlan{false, 0, "tok"}, SeatPlan{true, 3, ""}};
  g.clock = ClockSpec{true, 60000, 1000};
  g.seed = 18446744073709551615ULL;
  g.startFen = "start";
  g.createdMs = 1700000000000;
  return g;
}

StoredEntry entry(int ply, const std::string& text) {
  StoredEntry e;
  e.ply = ply;
  e.text = text;
  e.seat = ply % 2;
  e.clockMs = {59000, 61000};
  e.atMs = 1700000000100 + ply;
  return e;
}

// Two stores on one database, as two processes would have (nullptr if one did not open).
std::pair<std::unique_ptr<Store>, std::unique_ptr<Store>> twoStores(const std::string& uri) {
  auto a = openPgStore(uri);
  auto b = openPgStore(uri);
  if (!a.ok() || !b.ok()) return {};
  return {std::move(*a), std::move(*b)};
}

TEST(PgStore, CreatesItsSchemaAndRefusesANewerOne) {
  TempPostgres pg;
  ACEDREX_NEED_POSTGRES(pg);
  {
    auto store = openPgStore(pg.uri());
    ASSERT_TRUE(store.ok()) << store.error().text();
  }
  EXPECT_EQ(pg.psql("SELECT max(version) FROM acedrex_schema"), std::to_string(kPgSchemaVersion));
  ASSERT_TRUE(openPgStore(pg.uri()).ok()) << "a second start on the same schema";
  pg.psql("INSERT INTO acedrex_schema (version) VALUES (" + std::to_string(kPgSchemaVersion + 1) + ")");
  auto newer = openPgStore(pg.uri());
  ASSERT_FALSE(newer.ok());
  EXPECT_EQ(newer.error().code, "schema");
  EXPECT_NE(newer.error().message.find("newer acedrex"), std::string::npos) << newer.error().message;
  auto nowhere = openPgStore("postgresql://acedrex@127.0.0.1:1/acedrex?connect_timeout=2");
  ASSERT_FALSE(nowhere.ok());
  EXPECT_NE(nowhere.error().message.find("cannot connect"), std::string::npos) << nowhere.error().message;
}

TEST(PgStore, KeepsGamesAndRefusesASecondEntryForOnePly) {
  TempPostgres pg;
  ACEDREX_NEED_POSTGRES(pg);
  auto [a, b] = twoStores(pg.uri());  // b: another process's connection
  ASSERT_TRUE(a && b);
  ASSERT_TRUE(a->createGame(sampleGame("g1")).ok());
  EXPECT_FALSE(b->createGame(sampleGame("g1")).ok()) << "one id, one game";
  ASSERT_TRUE(a->appendEntry("g1", entry(0, "e3e4")).ok());
  auto lost = b->appendEntry("g1", entry(0, "d3d4"));
  ASSERT_FALSE(lost.ok());
  EXPECT_EQ(lost.error().code, kStoreConflict);
  ASSERT_TRUE(b->appendEntry("g1", entry(1, "e8e7")).ok()) << "the store takes the next write as before";
  EXPECT_EQ(*a->countUnfinished(), 1u);

  auto loaded = b->load("g1");
  ASSERT_TRUE(loaded.ok() && *loaded);
  const StoredGame& g = **loaded;
  const StoredGame want = sampleGame("g1");
  EXPECT_EQ(g.seed, want.seed);
  EXPECT_EQ(g.seats.size(), 2u);
  EXPECT_TRUE(g.seats[1].bot);
  EXPECT_EQ(g.seats[0].token, "tok");
  EXPECT_TRUE(g.clock.enabled);
  EXPECT_EQ(g.clock.incrementMs, 1000);
  ASSERT_EQ(g.entries.size(), 2u);
  EXPECT_EQ(g.entries[0].text, "e3e4");
  EXPECT_EQ(g.entries[1].clockMs, (std::vector<int64_t>{59000, 61000}));
  EXPECT_EQ(g.entries[1].atMs, 1700000000101);

  ASSERT_TRUE(a->appendFinal("g1", entry(2, "resign"), R"({"reason":"resign"})").ok());
  EXPECT_EQ(*a->countUnfinished(), 0u);
  EXPECT_EQ((*a->recent(5, "finished")).size(), 1u);
  EXPECT_EQ((*a->recent(5, "ongoing")).size(), 0u);
  ASSERT_TRUE(a->truncate("g1", 1).ok());
  EXPECT_EQ((*b->load("g1"))->entries.size(), 1u);
  EXPECT_EQ((*b->loadUnfinished()).size(), 1u);
  EXPECT_FALSE((*b->load("nope")).has_value());
}

TEST(PgStore, TellsOtherProcessesOfAChangeButNotItself) {
  TempPostgres pg;
  ACEDREX_NEED_POSTGRES(pg);
  auto [a, b] = twoStores(pg.uri());
  ASSERT_TRUE(a && b);
  std::mutex m;
  std::vector<std::string> heardA, heardB;
  a->watch([&](const std::string& id) { std::lock_guard l(m); heardA.push_back(id); });
  b->watch([&](const std::string& id) { std::lock_guard l(m); heardB.push_back(id); });
  ASSERT_TRUE(a->createGame(sampleGame("g1")).ok());
  ASSERT_TRUE(a->appendEntry("g1", entry(0, "e3e4")).ok());
  ASSERT_TRUE(b->createGame(sampleGame("g2")).ok());
  ASSERT_TRUE(testing::waitFor([&] { std::lock_guard l(m); return heardB.size() >= 2 && !heardA.empty(); }));
  ASSERT_TRUE(a->createGame(sampleGame("g3")).ok());  // after g2's report: a marker that nothing else came
  ASSERT_TRUE(testing::waitFor([&] { std::lock_guard l(m); return heardB.size() >= 3; }));
  std::lock_guard l(m);
  EXPECT_EQ(heardB, (std::vector<std::string>{"g1", "g1", "g3"})) << "in commit order";
  EXPECT_EQ(heardA, (std::vector<std::string>{"g2"}));
  a->watch({});
  b->watch({});
}

TEST(PgStore, OneHomePerGameAndOrphansWhenItsProcessGoes) {
  TempPostgres pg;
  ACEDREX_NEED_POSTGRES(pg);
  auto [a, b] = twoStores(pg.uri());
  ASSERT_TRUE(a && b);
  StoredGame humans = sampleGame("humans");
  humans.seats = {SeatPlan{}, SeatPlan{}};
  humans.clock = {};
  ASSERT_TRUE(a->createGame(sampleGame("bots")).ok());
  ASSERT_TRUE(a->createGame(humans).ok());
  EXPECT_EQ(*b->orphans(), std::vector<std::string>{"bots"}) << "only games with bots or clocks need a home";
  EXPECT_TRUE(*a->claimHome("bots"));
  EXPECT_FALSE(*b->claimHome("bots"));
  EXPECT_TRUE((*b->orphans()).empty());
  a.reset();  // the home's process ends: its session and its locks go
  ASSERT_TRUE(testing::waitFor([&] { return (*b->orphans()).size() == 1; }));
  EXPECT_TRUE(*b->claimHome("bots"));
}

// Two lobbies on two connections stand for two processes; the test drives them by hand.
struct TwoLobbies {
  VariantRegistry registry = VariantRegistry::withEmbedded();
  LobbyConfig config = [] {
    LobbyConfig c;
    c.startThreads = false;
    return c;
  }();
  std::unique_ptr<Store> storeA, storeB;
  std::unique_ptr<Lobby> a, b;
  explicit TwoLobbies(const std::string& uri) {
    storeA = std::move(*openPgStore(uri));
    storeB = std::move(*openPgStore(uri));
    a = std::make_unique<Lobby>(registry, *storeA, testing::fakeBots(), config);
    b = std::make_unique<Lobby>(registry, *storeB, testing::fakeBots(), config);
  }
  // A Shako game made through A ("" id if it failed); empty seats: two humans.
  CreatedGame createOnA(std::vector<SeatPlan> seats) {
    CreateRequest r;
    r.variant = "shako";
    r.seats = std::move(seats);
    CreatedGame g;
    if (!a->create(r, &g).ok()) return CreatedGame{};
    return g;
  }
};

TEST(PgLobbies, OfTwoMovesForOnePlyTheSecondIsTooLateAndSeesTheFirst) {
  TempPostgres pg;
  ACEDREX_NEED_POSTGRES(pg);
  TwoLobbies t(pg.uri());
  const CreatedGame g = t.createOnA({});
  ASSERT_FALSE(g.id.empty());
  auto roomA = t.a->find(g.id);
  auto roomB = t.b->find(g.id);
  ASSERT_TRUE(roomA && roomB);
  EXPECT_TRUE(roomA->move(g.tokens[0], "e3e4").ok());
  // B has not heard of it (no listening thread here): its move for the same ply loses.
  auto late = roomB->move(g.tokens[0], "d3d4");
  ASSERT_FALSE(late.ok());
  EXPECT_EQ(late.error().status, 409);
  EXPECT_EQ(late.error().code, "too-late");
  EXPECT_EQ(roomB->plies(), 1) << "the loser took the stored record";
  EXPECT_EQ(movesOf(testing::parsed(roomB->stateJson(""))), std::vector<std::string>{"e3e4"});
  EXPECT_TRUE(roomB->move(g.tokens[1], "e8e7").ok());
  EXPECT_TRUE(roomA->syncFromStore());
  EXPECT_FALSE(roomA->syncFromStore()) << "nothing new the second time";
  EXPECT_EQ(movesOf(testing::parsed(roomA->stateJson(""))), (std::vector<std::string>{"e3e4", "e8e7"}));
  const Json caughtUp = testing::parsed(roomA->stateJson(""));
  ASSERT_EQ(caughtUp.get("moves")->items().size(), 2u);
  const Json* san = caughtUp.get("moves")->items()[1].get("san");
  EXPECT_TRUE(san && san->isString() && san->asString() == "e7") << "entries taken from the store get their SAN too";
}

TEST(PgLobbies, OnlyTheHomeOfAGameRunsItsBots) {
  TempPostgres pg;
  ACEDREX_NEED_POSTGRES(pg);
  TwoLobbies t(pg.uri());
  const CreatedGame g = t.createOnA({SeatPlan{}, SeatPlan{true, 1, ""}});
  ASSERT_FALSE(g.id.empty());
  auto roomB = t.b->find(g.id);
  ASSERT_TRUE(roomB);
  EXPECT_TRUE(roomB->move(g.tokens[0], "e3e4").ok());
  EXPECT_EQ(t.b->pendingBotJobs(), 0u) << "B is not the game's home";
  EXPECT_EQ(t.b->adoptOrphans(), 0);
  t.a->onStoreChange(g.id);  // what A's listening thread does on B's NOTIFY
  ASSERT_EQ(t.a->pendingBotJobs(), 1u);
  EXPECT_TRUE(t.a->runOneBotJob());
  EXPECT_TRUE(roomB->syncFromStore());
  EXPECT_EQ(roomB->plies(), 2);
  // A goes (its connection with it): B adopts the game at its next look.
  EXPECT_TRUE(roomB->move(g.tokens[0], "d3d4").ok());
  t.a.reset();
  t.storeA.reset();
  ASSERT_TRUE(testing::waitFor([&] { return t.b->adoptOrphans() == 1; }));
  ASSERT_EQ(t.b->pendingBotJobs(), 1u);
  EXPECT_TRUE(t.b->runOneBotJob());
  EXPECT_EQ(roomB->plies(), 4);
}

std::string runMigrate(const std::string& from, const std::string& to, int* code) {
  const std::string cmd = std::string(ACEDREX_BINARY) + " migrate --from '" + from + "' --to '" + to + "' 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  std::string out;
  char buf[512];
  while (p && std::fgets(buf, sizeof buf, p)) out += buf;
  const int status = p ? pclose(p) : -1;
  *code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return out;
}

TEST(PgMigrate, CopiesEveryGameAndVerifiesItAndAgainChangesNothing) {
  TempPostgres pg;
  ACEDREX_NEED_POSTGRES(pg);
  const std::string db = (std::filesystem::temp_directory_path() /
                          ("acedrex-migrate-" + std::to_string(getpid()) + ".db")).string();
  std::filesystem::remove(db);
  std::vector<StoredGame> games;
  {
    auto sqlite = openSqliteStore(db);
    ASSERT_TRUE(sqlite.ok());
    for (int i = 0; i < 3; ++i) {
      StoredGame g = sampleGame("game" + std::to_string(i));
      g.createdMs += i;
      g.options = {{"die", "d6"}};
      ASSERT_TRUE((*sqlite)->createGame(g).ok());
      for (int p = 0; p < i * 3; ++p) {
        StoredEntry e = entry(p, p % 2 ? "e8e7" : "e3e4");
        e.die = p % 6 + 1;
        ASSERT_TRUE((*sqlite)->appendEntry(g.id, e).ok());
      }
    }
    ASSERT_TRUE((*sqlite)->finishGame("game2", R"({"reason":"resign"})").ok());
  }
  int code = -1;
  std::string out = runMigrate(db, pg.uri(), &code);
  EXPECT_EQ(code, 0) << out;
  EXPECT_NE(out.find("3 games copied, 0 already there and identical, 9 record entries verified"), std::string::npos)
      << out;
  auto target = openPgStore(pg.uri());
  ASSERT_TRUE(target.ok());
  auto finished = (*target)->load("game2");
  ASSERT_TRUE(finished.ok() && *finished);
  EXPECT_TRUE((*finished)->finished);
  EXPECT_EQ((*finished)->entries.size(), 6u);
  EXPECT_EQ((*finished)->entries[5].die, 6);
  EXPECT_EQ((*(*target)->recent(10, "all")).front().id, "game2") << "the newest first, as in the source";

  out = runMigrate(db, pg.uri(), &code);
  EXPECT_EQ(code, 0) << out;
  EXPECT_NE(out.find("0 games copied, 3 already there"), std::string::npos) << out;

  // A game that differs in the target is an error naming the game and the field.
  pg.psql("UPDATE entries SET text = 'd3d4' WHERE game_id = 'game1' AND ply = 1");
  out = runMigrate(db, pg.uri(), &code);
  EXPECT_EQ(code, 1);
  EXPECT_NE(out.find("game game1 is already in the target, different (entry 1)"), std::string::npos) << out;

  out = runMigrate(db + ".missing", pg.uri(), &code);
  EXPECT_EQ(code, 2);
  EXPECT_NE(out.find("no such database file"), std::string::npos) << out;
  out = runMigrate(db, "nowhere.db", &code);
  EXPECT_EQ(code, 2);
  EXPECT_NE(out.find("postgresql:// URI"), std::string::npos) << out;
  std::filesystem::remove(db);
  std::filesystem::remove(db + "-wal");
  std::filesystem::remove(db + "-shm");
}

// Real processes: two `acedrex serve` on one database.
TEST(PgServe, TwoProcessesShareGamesSurviveAKillAndAPostgresRestart) {
  TempPostgres pg;
  ACEDREX_NEED_POSTGRES(pg);
  const std::vector<std::string> flags{"--access-log", "off", "--max-requests-per-second", "0"};
  auto a = std::make_unique<ServeProcess>(pg.uri(), flags);
  ServeProcess b(pg.uri(), flags);
  ASSERT_GT(a->port(), 0);
  ASSERT_GT(b.port(), 0);
  HttpClient ca(a->port()), cb(b.port());

  // Fan-out: a move made through A reaches a stream on B, in order.
  auto human = ca.post("/api/game", R"({"variant":"shako"})").json();
  const std::string humanId = human.get("id")->asString();
  const std::string white = human.get("seats")->items()[0].get("token")->asString();
  const std::string black = human.get("seats")->items()[1].get("token")->asString();
  HttpClient watcher(b.port());
  testing::StateClient streamed, socketed;  // each message a delta on the one before, or a full state
  ASSERT_EQ(watcher.openStream("/api/game/" + humanId + "/stream").status, 200);
  ASSERT_TRUE(streamed.take(watcher.readChunk()));
  EXPECT_EQ(streamed.fulls, 1);
  EXPECT_TRUE(movesOf(streamed.state).empty());
  HttpClient ws(b.port());
  ASSERT_TRUE(ws.upgrade("/ws/game/" + humanId));
  const std::string hello = ws.readText();
  ASSERT_TRUE(testing::parsed(hello).get("t")) << hello;
  EXPECT_EQ(testing::parsed(hello).get("t")->asString(), "state");
  ASSERT_TRUE(socketed.take(hello));
  ASSERT_EQ(ca.post("/api/game/" + humanId + "/move/e3e4", "", white).status, 200);
  ASSERT_EQ(ca.post("/api/game/" + humanId + "/move/e8e7", "", black).status, 200);
  std::vector<std::vector<std::string>> seen;
  while (seen.empty() || seen.back().size() < 2) {
    const std::string line = watcher.readChunk();
    ASSERT_FALSE(line.empty()) << "B's stream heard nothing";
    ASSERT_TRUE(streamed.take(line)) << line;
    seen.push_back(movesOf(streamed.state));
  }
  EXPECT_EQ(seen.front(), std::vector<std::string>{"e3e4"}) << "one line per move, in order";
  EXPECT_EQ(seen.back(), (std::vector<std::string>{"e3e4", "e8e7"}));
  std::vector<std::string> wsSeen;  // the last move of each WebSocket message
  while (wsSeen.size() < 2) {
    const std::string text = ws.readText();
    ASSERT_TRUE(testing::parsed(text).get("d")) << "B's WebSocket heard nothing";
    ASSERT_TRUE(socketed.take(text)) << text;
    const auto moves = movesOf(socketed.state);
    if (!moves.empty() && (wsSeen.empty() || wsSeen.back() != moves.back())) wsSeen.push_back(moves.back());
  }
  EXPECT_EQ(wsSeen, (std::vector<std::string>{"e3e4", "e8e7"}));

  // Concurrent moves for one ply through A and B: one is stored.
  std::atomic<int> accepted{0};
  std::thread t1([&] { HttpClient c(a->port()); accepted += c.post("/api/game/" + humanId + "/move/d3d4", "", white).status == 200; });
  std::thread t2([&] { HttpClient c(b.port()); accepted += c.post("/api/game/" + humanId + "/move/c3c4", "", white).status == 200; });
  t1.join();
  t2.join();
  EXPECT_EQ(accepted.load(), 1);
  EXPECT_EQ(pg.psql("SELECT count(*) FROM entries WHERE game_id = '" + humanId + "'"), "3");

  // A bot game made on A (its home); A is killed; B adopts it and its bot goes on.
  auto mixed = ca.post("/api/game", R"({"variant":"shako","seats":[{"kind":"human"},{"kind":"bot","level":1}]})").json();
  const std::string mixedId = mixed.get("id")->asString();
  const std::string mixedToken = mixed.get("seats")->items()[0].get("token")->asString();
  ASSERT_EQ(cb.post("/api/game/" + mixedId + "/move/e3e4", "", mixedToken).status, 200);
  ASSERT_TRUE(testing::waitFor([&] { return movesOf(cb.get("/api/game/" + mixedId).json()).size() == 2; }, 10000));
  a->kill9();
  a.reset();
  ASSERT_EQ(cb.post("/api/game/" + mixedId + "/move/d3d4", "", mixedToken).status, 200);
  ASSERT_TRUE(testing::waitFor([&] { return movesOf(cb.get("/api/game/" + mixedId).json()).size() == 4; }, 10000))
      << "B did not take over the bot's turns";
  EXPECT_EQ(movesOf(cb.get("/api/game/" + humanId).json()).size(), 3u);

  // PostgreSQL restarts: meanwhile clear 503s; afterwards nothing is lost and play goes on.
  ASSERT_TRUE(pg.halt());
  const std::string toMove = cb.get("/api/game/" + humanId).json().get("toMove")->asString();
  const std::string token = toMove == "white" ? white : black;
  const std::string mv = toMove == "white" ? "a3a4" : "a8a7";
  auto down = cb.post("/api/game/" + humanId + "/move/" + mv, "", token);
  EXPECT_EQ(down.status, 503);
  EXPECT_EQ(down.json().get("code") ? down.json().get("code")->asString() : "", "store") << down.body;
  EXPECT_EQ(cb.post("/api/game", R"({"variant":"shako"})").status, 503);
  ASSERT_TRUE(pg.resume());
  EXPECT_EQ(cb.post("/api/game/" + humanId + "/move/" + mv, "", token).status, 200);
  EXPECT_EQ(pg.psql("SELECT count(*) FROM entries WHERE game_id = '" + humanId + "'"), "4");
  EXPECT_EQ(cb.post("/api/game", R"({"variant":"shako"})").status, 201);
}

// Through HAProxy: clients keep moving while one of the two processes is
// killed; every acknowledged move is in the record and the bots go on.
TEST(PgServe, ThroughHaproxyAKillNineLosesNoAcknowledgedMoveAndBotsGoOn) {
  TempPostgres pg;
  ACEDREX_NEED_POSTGRES(pg);
  if (!testing::TempHaproxy::available()) GTEST_SKIP() << "HAProxy is not installed: scripts/setup.sh installs it";
  const std::vector<std::string> flags{"--access-log", "off", "--max-requests-per-second", "0", "--trust-proxy"};
  auto a = std::make_unique<ServeProcess>(pg.uri(), flags);
  ServeProcess b(pg.uri(), flags);
  ASSERT_GT(a->port(), 0);
  ASSERT_GT(b.port(), 0);
  testing::TempHaproxy proxy(a->port(), b.port());
  ASSERT_GT(proxy.port(), 0) << "haproxy did not start";
  // One connection per request: a connection to the killed process dies with it.
  auto call = [&](const std::string& method, const std::string& target, const std::string& body = "",
                  const std::string& token = "") {
    HttpClient c(proxy.port());
    return c.request(method, target, body, token);
  };
  struct Game {
    std::string id;
    std::vector<std::string> tokens;  // per seat, "" for a bot
    std::map<size_t, std::string> acked;  // ply -> the move acknowledged for it
  };
  auto create = [&](const std::string& body) {
    Game g;
    auto r = call("POST", "/api/game", body);
    EXPECT_EQ(r.status, 201) << r.body;
    auto j = r.json();
    if (!j.get("id")) return g;
    g.id = j.get("id")->asString();
    for (const auto& s : j.get("seats")->items()) g.tokens.push_back(s.get("token") ? s.get("token")->asString() : "");
    return g;
  };
  std::vector<Game> humans{create(R"({"variant":"shako"})"), create(R"({"variant":"shako"})"),
                           create(R"({"variant":"shako","seats":[{"kind":"human"},{"kind":"bot","level":1}]})")};
  Game bots = create(R"({"variant":"shako","seats":[{"kind":"bot","level":1},{"kind":"bot","level":1}]})");
  ASSERT_FALSE(bots.id.empty());
  // One move for a human seat to move, if any; true when it was acknowledged.
  auto play = [&](Game& g) {
    auto reply = call("GET", "/api/game/" + g.id);
    auto s = reply.json();
    if (!s.get("toMove") || !s.get("legal") || s.get("status")->asString() != "ongoing") return false;
    const int seat = s.get("toMove")->asString() == "white" ? 0 : 1;
    if (g.tokens[static_cast<size_t>(seat)].empty() || s.get("legal")->members().empty()) return false;
    const std::string mv = s.get("legal")->members().front().second.items().front().asString();
    const size_t ply = movesOf(s).size();
    if (call("POST", "/api/game/" + g.id + "/move/" + mv, "", g.tokens[static_cast<size_t>(seat)]).status != 200)
      return false;
    g.acked[ply] = mv;
    return true;
  };
  auto playRounds = [&](size_t perGame) {  // waits up to 20 s for the bots' answers
    return testing::waitFor(
        [&] {
          bool done = true;
          for (auto& g : humans)
            if (g.acked.size() < perGame) {
              done = false;
              play(g);
            }
          return done;
        },
        20000);
  };
  ASSERT_TRUE(playRounds(3));
  const size_t botPliesBefore = movesOf(call("GET", "/api/game/" + bots.id).json()).size();
  a->kill9();
  a.reset();
  ASSERT_TRUE(playRounds(8)) << "the clients could not go on through HAProxy";

  for (const auto& g : humans) {
    const auto moves = movesOf(call("GET", "/api/game/" + g.id).json());
    for (const auto& [ply, mv] : g.acked) {
      ASSERT_LT(ply, moves.size()) << "game " << g.id << " lost its acknowledged move at ply " << ply;
      EXPECT_EQ(moves[ply], mv) << "game " << g.id << " ply " << ply;
    }
  }
  // The human-vs-bot game: the bot answered the last move; the bot game goes on.
  EXPECT_TRUE(testing::waitFor([&] { return movesOf(call("GET", "/api/game/" + humans[2].id).json()).size() % 2 == 0; },
                               10000));
  EXPECT_TRUE(testing::waitFor(
      [&] {
        auto s = call("GET", "/api/game/" + bots.id).json();
        return s.get("status") && (s.get("status")->asString() == "finished" || movesOf(s).size() >= botPliesBefore + 6);
      },
      20000))
      << "the bot game stopped";
  EXPECT_EQ(pg.psql("SELECT count(*) FROM (SELECT game_id, ply FROM entries GROUP BY 1, 2 HAVING count(*) > 1) d"), "0");
}

}  // namespace
}  // namespace acedrex::server
