// The app layer without sockets: lobby, rooms, seats and tokens, bots (a
// fake Bot), clocks (a hand-moved time source), the store (in memory).
#include <gtest/gtest.h>

#include <set>

#include "core/variant/chess960.h"
#include "core/records/pgn.h"
#include "server/app/api.h"
#include "server/app/lobby.h"
#include "test_support.h"

namespace acedrex::server {
namespace {

using testing::FakeTime;
using testing::parsed;

struct Fixture {
  VariantRegistry registry = VariantRegistry::withEmbedded();
  MemoryStore store;
  FakeTime time;
  std::atomic<int> botCalls{0};
  LobbyConfig config = [] {
    LobbyConfig c;
    c.startThreads = false;  // bots and clocks are driven by the test
    return c;
  }();
  std::unique_ptr<Lobby> lobby = std::make_unique<Lobby>(registry, store, testing::fakeBots(&botCalls), config, &time);

  CreatedGame create(const std::string& variant, std::vector<SeatPlan> seats, std::map<std::string, std::string> options = {},
                     ClockSpec clock = {}, bool hotSeat = false, uint64_t seed = 7) {
    CreateRequest r;
    r.variant = variant;
    r.seats = std::move(seats);
    r.options = std::move(options);
    r.clock = clock;
    r.hotSeat = hotSeat;
    r.seed = seed;
    CreatedGame g;
    auto err = lobby->create(r, &g);
    EXPECT_TRUE(err.ok()) << (err.ok() ? "" : err.error().message);
    return g;
  }
  void runBots(int max = 100000) {
    for (int i = 0; i < max && lobby->runOneBotJob(); ++i) {
    }
  }
  Json state(const std::string& id, const std::string& token = "") { return parsed(lobby->find(id)->stateJson(token)); }
};

SeatPlan human() { return SeatPlan{}; }
SeatPlan bot(int level = 1) {
  SeatPlan s;
  s.bot = true;
  s.level = level;
  return s;
}

int plies(const Json& state) { return static_cast<int>(state.get("moves")->items().size()); }

TEST(ServerApp, CreateGivesOneTokenPerHumanSeat) {
  Fixture f;
  auto g = f.create("shako", {human(), bot()});
  ASSERT_EQ(g.tokens.size(), 2u);
  EXPECT_EQ(g.tokens[0].size(), 24u);
  EXPECT_TRUE(g.tokens[1].empty());
  auto s = f.state(g.id, g.tokens[0]);
  EXPECT_EQ(s.get("variant")->asString(), "shako");
  EXPECT_EQ(s.get("toMove")->asString(), "white");
  EXPECT_EQ(s.get("status")->asString(), "ongoing");
  EXPECT_EQ(s.get("you")->items().size(), 1u);
  EXPECT_EQ(s.get("you")->items()[0].asString(), "white");
  EXPECT_TRUE(s.get("result")->isNull());
  EXPECT_TRUE(s.get("seed")->isNull()) << "the seed stays secret while the game goes on";
  EXPECT_EQ(s.get("pieces")->items().size(), 44u);
  EXPECT_TRUE(s.get("legal")->get("e3") != nullptr);
  EXPECT_EQ(s.get("seats")->items()[1].get("kind")->asString(), "bot");
  EXPECT_EQ(s.get("seats")->items()[1].get("level")->asNumber(), 1);
  EXPECT_TRUE(f.state(g.id).get("you")->items().empty());
}

TEST(ServerApp, HumansMoveInTurnAndEveryMoveIsStoredFirst) {
  Fixture f;
  auto g = f.create("shako", {human(), human()});
  auto room = f.lobby->find(g.id);
  const int64_t v0 = room->version();
  EXPECT_TRUE(room->move(g.tokens[0], "e3e4").ok());
  EXPECT_GT(room->version(), v0);
  auto stored = f.store.load(g.id);
  ASSERT_TRUE(stored.ok() && *stored);
  ASSERT_EQ((*stored)->entries.size(), 1u);
  EXPECT_EQ((*stored)->entries[0].text, "e3e4");
  EXPECT_EQ((*stored)->entries[0].seat, 0);
  EXPECT_TRUE(room->move(g.tokens[1], "e8e7").ok());
  auto s = f.state(g.id);
  EXPECT_EQ(plies(s), 2);
  EXPECT_EQ(s.get("lastMove")->asString(), "e8e7");
  EXPECT_EQ(s.get("moves")->items()[1].get("seat")->asString(), "black");
}

TEST(ServerApp, WrongTokensAreRefusedAndChangeNothing) {
  Fixture f;
  auto g = f.create("shako", {human(), human()});
  auto room = f.lobby->find(g.id);
  const int writes = f.store.writes();
  const int64_t v = room->version();
  auto e1 = room->move(g.tokens[1], "e3e4");  // black's token on white's turn
  ASSERT_FALSE(e1.ok());
  EXPECT_EQ(e1.error().status, 403);
  EXPECT_EQ(e1.error().code, "not-your-turn");
  auto e2 = room->move("nonsense-token-000000000", "e3e4");
  ASSERT_FALSE(e2.ok());
  EXPECT_EQ(e2.error().status, 403);
  auto e3 = room->move("", "e3e4");
  ASSERT_FALSE(e3.ok());
  EXPECT_EQ(e3.error().status, 401);
  // A token of another game holds nothing here.
  auto other = f.create("shako", {human(), human()});
  auto e4 = room->move(other.tokens[0], "e3e4");
  ASSERT_FALSE(e4.ok());
  EXPECT_EQ(e4.error().status, 403);
  // One character off the real token (never equal to it, whatever its last character is).
  std::string almost = g.tokens[0];
  almost.back() = almost.back() == 'x' ? 'y' : 'x';
  EXPECT_FALSE(room->resign(almost, "").ok());
  EXPECT_EQ(room->version(), v);
  EXPECT_EQ(room->plies(), 0);
  EXPECT_EQ(f.store.writes(), writes + 1);  // only the other game's creation
}

TEST(ServerApp, IllegalMovesGetTheEnginesErrorAndChangeNothing) {
  Fixture f;
  auto g = f.create("shako", {human(), human()});
  auto room = f.lobby->find(g.id);
  const std::string before = room->stateJson("");
  for (const char* bad : {"e3e9", "zz", "", "a1a1", "e3e4q", "0000", "e3e4e3e4e3e4e3e4e3e4", "\x01\xff"}) {
    auto err = room->move(g.tokens[0], bad);
    ASSERT_FALSE(err.ok()) << bad;
    EXPECT_EQ(err.error().status, 400) << bad;
    EXPECT_FALSE(err.error().message.empty());
  }
  EXPECT_EQ(room->stateJson(""), before);
}

TEST(ServerApp, AStoreFailureRefusesTheMoveAndChangesNothing) {
  Fixture f;
  auto g = f.create("shako", {human(), human()});
  auto room = f.lobby->find(g.id);
  const std::string before = room->stateJson("");
  f.store.failNextWrites(1);
  auto err = room->move(g.tokens[0], "e3e4");
  ASSERT_FALSE(err.ok());
  EXPECT_EQ(err.error().status, 503);
  EXPECT_EQ(room->stateJson(""), before);
  EXPECT_TRUE(room->move(g.tokens[0], "e3e4").ok());
  EXPECT_EQ(room->plies(), 1);
}

// The entry that ends a game and the game's result are stored together: a
// store that fails in between cannot leave a game finished in memory and
// unfinished in the store (or the other way round).
TEST(ServerApp, TheLastEntryAndTheResultAreStoredTogether) {
  Fixture f;
  auto g = f.create("shako", {human(), human()});
  auto room = f.lobby->find(g.id);
  ASSERT_TRUE(room->move(g.tokens[0], "e3e4").ok());
  const std::string before = room->stateJson("");
  f.store.failNextWrites(1);
  auto err = room->resign(g.tokens[1], "");
  ASSERT_FALSE(err.ok());
  EXPECT_EQ(err.error().status, 503);
  EXPECT_EQ(err.error().code, "store");
  EXPECT_EQ(room->stateJson(""), before) << "nothing changes in memory";
  f.store.failNextWrites(1, 1);  // the first write succeeds, a second one would fail
  auto result = room->resign(g.tokens[1], "");
  auto stored = f.store.load(g.id);
  ASSERT_TRUE(stored.ok() && *stored);
  EXPECT_EQ((*stored)->finished, room->finished());
  EXPECT_EQ((*stored)->entries.size(), static_cast<size_t>(room->plies()));
  EXPECT_TRUE(result.ok());
  EXPECT_TRUE(room->finished());
  EXPECT_FALSE((*stored)->resultJson.empty());
  f.store.failNextWrites(0);
}

TEST(ServerApp, BotsAnswerOnTheirTurn) {
  Fixture f;
  auto g = f.create("shako", {human(), bot(3)});
  auto room = f.lobby->find(g.id);
  EXPECT_EQ(f.lobby->pendingBotJobs(), 0u);
  EXPECT_TRUE(room->move(g.tokens[0], "e3e4").ok());
  EXPECT_EQ(f.lobby->pendingBotJobs(), 1u);
  f.runBots();
  auto s = f.state(g.id);
  ASSERT_EQ(plies(s), 2);
  EXPECT_EQ(s.get("moves")->items()[1].get("seat")->asString(), "black");
  EXPECT_EQ(s.get("toMove")->asString(), "white");
  EXPECT_EQ(f.botCalls.load(), 1);
}

TEST(ServerApp, ABotThatMovesFirstStartsAtOnce) {
  Fixture f;
  auto g = f.create("four-seasons", {bot(), human(), bot(), bot()});
  f.runBots();
  auto s = f.state(g.id);
  EXPECT_EQ(plies(s), 1);
  EXPECT_EQ(s.get("toMove")->asString(), "red");
}

TEST(ServerApp, BotOnlyGamesPlayToTheEndAndAreMarkedFinished) {
  for (const char* variant : {"shako", "four-seasons", "joko-urtaroak", "grant-acedrex"}) {
    Fixture f;
    const int n = variant == std::string("shako") || variant == std::string("grant-acedrex") ? 2 : 4;
    auto g = f.create(variant, std::vector<SeatPlan>(static_cast<size_t>(n), bot()));
    f.runBots();
    auto s = f.state(g.id);
    EXPECT_EQ(s.get("status")->asString(), "finished") << variant;
    ASSERT_TRUE(s.get("result")->isObject()) << variant;
    EXPECT_FALSE(s.get("result")->get("reason")->asString().empty());
    EXPECT_EQ(s.get("result")->get("places")->members().size(), static_cast<size_t>(n));
    EXPECT_TRUE(s.get("seed")->isString()) << "the seed is shown once the game is over";
    auto stored = f.store.load(g.id);
    ASSERT_TRUE(stored.ok() && *stored);
    EXPECT_TRUE((*stored)->finished) << variant;
    EXPECT_EQ((*stored)->entries.size(), s.get("moves")->items().size());
  }
}

TEST(ServerApp, HotSeatOneTokenHoldsEveryHumanSeat) {
  Fixture f;
  auto g = f.create("four-seasons", {human(), human(), bot(), human()}, {}, {}, true);
  EXPECT_EQ(g.tokens[0], g.tokens[1]);
  EXPECT_EQ(g.tokens[0], g.tokens[3]);
  EXPECT_TRUE(g.tokens[2].empty());
  auto room = f.lobby->find(g.id);
  EXPECT_EQ(room->seatsOf(g.tokens[0]).size(), 3u);
  EXPECT_TRUE(room->move(g.tokens[0], "a6a5").ok());   // green
  EXPECT_TRUE(room->move(g.tokens[0], "a3a4").ok());   // red
  f.runBots();                                     // black
  EXPECT_TRUE(room->move(g.tokens[0], "h6h5").ok());   // white
  EXPECT_EQ(room->plies(), 4);
}

TEST(ServerApp, TakebackAgainstABotReturnsToTheHumansTurn) {
  Fixture f;
  auto g = f.create("shako", {human(), bot()});
  auto room = f.lobby->find(g.id);
  ASSERT_TRUE(room->move(g.tokens[0], "e3e4").ok());
  f.runBots();
  ASSERT_TRUE(room->move(g.tokens[0], "d3d4").ok());
  f.runBots();
  ASSERT_EQ(room->plies(), 4);
  ASSERT_TRUE(room->takeback(g.tokens[0]).ok());
  auto s = f.state(g.id);
  EXPECT_EQ(plies(s), 2);
  EXPECT_EQ(s.get("toMove")->asString(), "white");
  auto stored = f.store.load(g.id);
  EXPECT_EQ((*stored)->entries.size(), 2u);
  ASSERT_TRUE(room->takeback(g.tokens[0]).ok());
  EXPECT_EQ(room->plies(), 0);
  auto err = room->takeback(g.tokens[0]);
  ASSERT_FALSE(err.ok());
  EXPECT_EQ(err.error().status, 409);
  // The game goes on normally.
  ASSERT_TRUE(room->move(g.tokens[0], "e3e4").ok());
  f.runBots();
  EXPECT_EQ(room->plies(), 2);
}

TEST(ServerApp, TakebackAgainstAPersonWaitsForTheirConsent) {
  Fixture f;
  auto g = f.create("shako", {human(), human()});
  auto room = f.lobby->find(g.id);
  ASSERT_TRUE(room->move(g.tokens[0], "e3e4").ok());
  ASSERT_TRUE(room->takeback(g.tokens[0]).ok()) << "an offer (server_players_test.cpp has the rest)";
  EXPECT_EQ(room->plies(), 1) << "nothing taken back before the other player agrees";
  EXPECT_EQ(f.state(g.id).get("takebackOffer")->asString(), "white");
}

TEST(ServerApp, DrawOffersInTwoPlayerGames) {
  Fixture f;
  auto g = f.create("shako", {human(), human()});
  auto room = f.lobby->find(g.id);
  auto e = room->draw(g.tokens[1], "accept");
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.error().status, 409);
  ASSERT_TRUE(room->draw(g.tokens[0], "offer").ok());
  EXPECT_EQ(f.state(g.id).get("drawOffer")->asString(), "white");
  e = room->draw(g.tokens[0], "accept");
  ASSERT_FALSE(e.ok()) << "a seat cannot accept its own offer";
  ASSERT_TRUE(room->draw(g.tokens[1], "decline").ok());
  EXPECT_TRUE(f.state(g.id).get("drawOffer")->isNull());
  ASSERT_TRUE(room->draw(g.tokens[0], "offer").ok());
  ASSERT_TRUE(room->move(g.tokens[0], "e3e4").ok());
  EXPECT_TRUE(f.state(g.id).get("drawOffer")->isNull()) << "an offer lapses with a move";
  ASSERT_TRUE(room->draw(g.tokens[1], "offer").ok());
  ASSERT_TRUE(room->draw(g.tokens[0], "accept").ok());
  auto s = f.state(g.id);
  EXPECT_EQ(s.get("status")->asString(), "finished");
  EXPECT_EQ(s.get("result")->get("reason")->asString(), "agreement");
  EXPECT_EQ(s.get("result")->get("places")->get("white")->asNumber(), 1);
  EXPECT_EQ(s.get("result")->get("places")->get("black")->asNumber(), 1);
  EXPECT_TRUE(s.get("result")->get("winner")->isNull());
  EXPECT_FALSE(room->draw(g.tokens[0], "bogus").ok());
}

TEST(ServerApp, BotsDeclineDrawsAndFourPlayerGamesHaveNone) {
  Fixture f;
  auto g = f.create("shako", {human(), bot()});
  auto room = f.lobby->find(g.id);
  ASSERT_TRUE(room->draw(g.tokens[0], "offer").ok());
  EXPECT_TRUE(f.state(g.id).get("drawOffer")->isNull());
  auto g4 = f.create("four-seasons", {human(), human(), human(), human()});
  auto e = f.lobby->find(g4.id)->draw(g4.tokens[0], "offer");
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.error().status, 409);
}

TEST(ServerApp, ResigningInAFourPlayerGameLetsTheOthersPlayOn) {
  Fixture f;
  auto g = f.create("four-seasons", {human(), human(), human(), human()});
  auto room = f.lobby->find(g.id);
  ASSERT_TRUE(room->resign(g.tokens[0], "").ok());
  auto s = f.state(g.id);
  EXPECT_EQ(s.get("status")->asString(), "ongoing");
  EXPECT_FALSE(s.get("seats")->items()[0].get("in")->asBool());
  EXPECT_EQ(s.get("seats")->items()[0].get("outReason")->asString(), "resign");
  EXPECT_EQ(s.get("toMove")->asString(), "red");
  EXPECT_EQ(s.get("moves")->items()[0].get("uci")->asString(), "resign");
  // Out seats cannot resign again or move.
  auto e = room->resign(g.tokens[0], "");
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.error().status, 409);
  ASSERT_TRUE(room->resign(g.tokens[1], "").ok());
  ASSERT_TRUE(room->resign(g.tokens[2], "").ok());
  s = f.state(g.id);
  EXPECT_EQ(s.get("status")->asString(), "finished");
  EXPECT_EQ(s.get("result")->get("winner")->asString(), "white");
  EXPECT_EQ(s.get("result")->get("reason")->asString(), "resign");
  EXPECT_EQ(s.get("result")->get("places")->get("green")->asNumber(), 4);
  EXPECT_EQ(s.get("result")->get("places")->get("black")->asNumber(), 2);
}

TEST(ServerApp, ClocksRunOutAndTimeoutIsAResignation) {
  Fixture f;
  ClockSpec clock{true, 5000, 1000};
  auto g = f.create("shako", {human(), human()}, {}, clock);
  auto room = f.lobby->find(g.id);
  auto s = f.state(g.id);
  EXPECT_EQ(s.get("seats")->items()[0].get("clockMs")->asNumber(), 5000);
  EXPECT_TRUE(s.get("clockRunning")->isNull()) << "clocks start with the first move";
  f.time.advance(60000);
  f.lobby->tickClocks();
  EXPECT_FALSE(room->finished());
  ASSERT_TRUE(room->move(g.tokens[0], "e3e4").ok());
  s = f.state(g.id);
  EXPECT_EQ(s.get("seats")->items()[0].get("clockMs")->asNumber(), 6000);
  EXPECT_EQ(s.get("clockRunning")->asString(), "black");
  f.time.advance(2000);
  ASSERT_TRUE(room->move(g.tokens[1], "e8e7").ok());
  s = f.state(g.id);
  EXPECT_EQ(s.get("seats")->items()[1].get("clockMs")->asNumber(), 4000);
  f.time.advance(5999);
  f.lobby->tickClocks();
  EXPECT_FALSE(room->finished());
  EXPECT_EQ(f.state(g.id).get("seats")->items()[0].get("clockMs")->asNumber(), 1);
  f.time.advance(1);
  f.lobby->tickClocks();
  s = f.state(g.id);
  EXPECT_EQ(s.get("status")->asString(), "finished");
  EXPECT_EQ(s.get("result")->get("reason")->asString(), "timeout");
  EXPECT_EQ(s.get("result")->get("winner")->asString(), "black");
  EXPECT_EQ(s.get("seats")->items()[0].get("clockMs")->asNumber(), 0);
}

TEST(ServerApp, AMoveAfterTheFlagFellIsATimeout) {
  Fixture f;
  auto g = f.create("shako", {human(), human()}, {}, ClockSpec{true, 3000, 0});
  auto room = f.lobby->find(g.id);
  ASSERT_TRUE(room->move(g.tokens[0], "e3e4").ok());
  f.time.advance(3001);
  auto e = room->move(g.tokens[1], "e8e7");
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.error().code, "time-out");
  EXPECT_EQ(f.state(g.id).get("result")->get("winner")->asString(), "white");
}

TEST(ServerApp, TheDieIsRecordedAndLostTurnsArePlayedByTheServer) {
  Fixture f;
  auto g = f.create("four-seasons", {bot(), bot(), bot(), bot()}, {{"die", "on"}}, {}, false, 12345);
  for (int i = 0; i < 40 && f.lobby->runOneBotJob(); ++i) {
  }
  auto s = f.state(g.id);
  int lost = 0;
  for (const auto& m : s.get("moves")->items()) {
    EXPECT_TRUE(m.get("die")->isNumber());
    if (m.get("uci")->asString() == "0000") ++lost;
  }
  EXPECT_GT(lost, 0) << "with a die some turns are lost in 40 plies";
  ASSERT_TRUE(s.get("die")->isNumber());
  const std::string kind = s.get("dieKind")->asString();
  for (const auto& [from, moves] : s.get("legal")->members()) {
    for (const auto& p : s.get("pieces")->items()) {
      if (p.get("square")->asString() == from) {
        EXPECT_EQ(p.get("name")->asString(), kind);
      }
    }
    (void)moves;
  }
}

// A face that lets several kinds move (chaturaji's 5: king or pawn) names
// them all in dieKinds; the legal moves are of those kinds only.
TEST(ServerApp, DieKindsNameEveryKindTheThrowAllows) {
  Fixture f;
  const std::map<int, std::vector<std::string>> kinds = {{2, {"boat"}}, {3, {"knight"}}, {4, {"bishop"}}, {5, {"king", "pawn"}}};
  std::set<int> seen;
  for (uint64_t seed = 1; seed <= 40 && seen.size() < 2; ++seed) {
    auto g = f.create("chaturaji", {human(), human(), human(), human()}, {{"dice", "on"}}, {}, false, seed);
    auto s = f.state(g.id);
    if (!s.get("die")->isNumber()) continue;  // a lost first turn was played and the next throw is pending
    const int die = static_cast<int>(s.get("die")->asNumber());
    if (die != 3 && die != 5) continue;
    seen.insert(die);
    std::vector<std::string> names;
    for (const auto& k : s.get("dieKinds")->items()) names.push_back(k.asString());
    EXPECT_EQ(names, kinds.at(die));
    EXPECT_EQ(s.get("dieKind")->asString(), kinds.at(die).front());
    for (const auto& [from, moves] : s.get("legal")->members()) {
      for (const auto& p : s.get("pieces")->items()) {
        if (p.get("square")->asString() == from) {
          EXPECT_NE(std::find(names.begin(), names.end(), p.get("name")->asString()), names.end()) << from;
        }
      }
      (void)moves;
    }
  }
  EXPECT_EQ(seen, (std::set<int>{3, 5}));
}

TEST(ServerApp, StateMovesCarrySanAndTheDiesPieceKind) {
  Fixture f;
  auto g = f.create("shako", {human(), human()});
  auto room = f.lobby->find(g.id);
  // The queen out along the opened diagonal, checking the king on f9.
  int ply = 0;
  for (const char* m : {"f3f4", "g8g7", "e2i6"})
    ASSERT_TRUE(room->move(g.tokens[static_cast<size_t>(ply++ % 2)], m).ok()) << m;
  auto s = f.state(g.id);
  const auto& moves = s.get("moves")->items();
  ASSERT_EQ(moves.size(), 3u);
  EXPECT_EQ(moves[0].get("san")->asString(), "f4");
  EXPECT_EQ(moves[1].get("san")->asString(), "g7");
  EXPECT_EQ(moves[2].get("san")->asString(), "Qi6+") << "the check is marked as in the PGN";
  EXPECT_TRUE(moves[0].get("dieKind")->isNull());
  auto g4 = f.create("four-seasons", {bot(), bot(), bot(), bot()}, {{"die", "on"}}, {}, false, 12345);
  for (int i = 0; i < 12 && f.lobby->runOneBotJob(); ++i) {
  }
  auto s4 = f.state(g4.id);
  ASSERT_FALSE(s4.get("moves")->items().empty());
  for (const auto& m : s4.get("moves")->items()) {
    EXPECT_TRUE(m.get("san")->isNull()) << "four-player records are not in SAN";
    EXPECT_TRUE(m.get("dieKind")->isString());
  }
  // After a reload from the store the notes are the same.
  const std::string before = writeJson(*s4.get("moves"));
  auto fresh = std::make_unique<Lobby>(f.registry, f.store, testing::fakeBots(&f.botCalls), f.config, &f.time);
  EXPECT_EQ(writeJson(*parsed(fresh->find(g4.id)->stateJson("")).get("moves")), before);
}

TEST(ServerApp, FinishedGamesOutOfMemoryKeepTheirPlyCountInTheList) {
  Fixture f;
  auto g = f.create("shako", {human(), human()});
  ASSERT_TRUE(f.lobby->find(g.id)->move(g.tokens[0], "e3e4").ok());
  ASSERT_TRUE(f.lobby->find(g.id)->resign(g.tokens[1], "").ok());
  EXPECT_EQ(f.lobby->evictIdle(), 1);
  auto list = f.lobby->recent(10, "finished");
  ASSERT_EQ(list.size(), 1u);
  EXPECT_EQ(parsed(list[0]).get("plies")->asNumber(), 2) << "the move and the resignation";
}

TEST(ServerApp, AGameWhoseHumanNeverMakesAFirstMoveIsAborted) {
  Fixture f;
  auto g = f.create("shako", {human(), human()});
  auto bots = f.create("shako", {bot(), bot()});
  f.time.advance(9 * 60000);
  EXPECT_EQ(f.lobby->abortAbandoned(), 0);
  f.time.advance(60000);
  EXPECT_EQ(f.lobby->abortAbandoned(), 1) << "ten minutes without a first move; bots alone play on";
  auto s = f.state(g.id);
  EXPECT_EQ(s.get("status")->asString(), "finished");
  EXPECT_EQ(s.get("result")->get("reason")->asString(), "aborted");
  EXPECT_TRUE(s.get("result")->get("winner")->isNull());
  EXPECT_TRUE(s.get("toMove")->isNull());
  auto e = f.lobby->find(g.id)->move(g.tokens[0], "e3e4");
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.error().status, 409);
  EXPECT_TRUE(f.store.load(g.id)->value().finished);
  EXPECT_EQ(f.lobby->abortAbandoned(), 0) << "once";
  // Out of memory and back, it is still aborted.
  EXPECT_GE(f.lobby->evictIdle(), 1);
  auto again = parsed(f.lobby->find(g.id)->stateJson(""));
  EXPECT_EQ(again.get("status")->asString(), "finished");
  EXPECT_EQ(again.get("result")->get("reason")->asString(), "aborted");
  EXPECT_FALSE(f.lobby->find(g.id)->takeback(g.tokens[0]).ok());
  (void)bots;
}

TEST(ServerApp, AGameEveryHumanLeftIsAbortedAfterAnHour) {
  Fixture f;
  auto g = f.create("shako", {human(), human()});
  auto room = f.lobby->find(g.id);
  ASSERT_TRUE(room->move(g.tokens[0], "e3e4").ok());
  ASSERT_TRUE(room->move(g.tokens[1], "e8e7").ok());
  const int sub = room->subscribe(
      g.tokens[0], [](const Update&) {}, nullptr, nullptr);
  f.time.advance(120 * 60000);
  EXPECT_EQ(f.lobby->abortAbandoned(), 0) << "white is still here";
  room->unsubscribe(sub);
  f.time.advance(59 * 60000);
  EXPECT_EQ(f.lobby->abortAbandoned(), 0);
  f.time.advance(60000);
  room.reset();
  EXPECT_EQ(f.lobby->abortAbandoned(), 1);
  EXPECT_EQ(f.state(g.id).get("result")->get("abortedBecause")->asString(), "abandoned");
  // A game out of memory is checked from its record.
  auto h = f.create("shako", {human(), bot()});
  ASSERT_TRUE(f.lobby->find(h.id)->move(h.tokens[0], "e3e4").ok());
  f.runBots();
  f.time.advance(31 * 60000);
  EXPECT_GE(f.lobby->evictIdle(), 1);
  EXPECT_EQ(f.lobby->abortAbandoned(), 0);
  f.time.advance(30 * 60000);
  EXPECT_EQ(f.lobby->abortAbandoned(), 1);
  EXPECT_EQ(f.state(h.id).get("result")->get("reason")->asString(), "aborted");
}

TEST(ServerApp, ARestartedLobbyResumesEveryUnfinishedGame) {
  Fixture f;
  auto g = f.create("shako", {human(), bot()});
  auto room = f.lobby->find(g.id);
  ASSERT_TRUE(room->move(g.tokens[0], "e3e4").ok());
  f.runBots();
  ASSERT_TRUE(room->move(g.tokens[0], "d3d4").ok());  // the bot is to move when the server goes down
  const auto before = f.state(g.id);
  auto finished = f.create("shako", {human(), human()});
  ASSERT_TRUE(f.lobby->find(finished.id)->resign(finished.tokens[0], "").ok());
  f.lobby.reset();
  room.reset();

  f.lobby = std::make_unique<Lobby>(f.registry, f.store, testing::fakeBots(&f.botCalls), f.config, &f.time);
  auto loaded = f.lobby->loadFromStore();
  ASSERT_TRUE(loaded.ok());
  EXPECT_EQ(*loaded, 1);
  auto after = f.state(g.id);
  EXPECT_EQ(after.get("fen")->asString(), before.get("fen")->asString());
  EXPECT_EQ(plies(after), 3);
  EXPECT_EQ(f.lobby->pendingBotJobs(), 1u) << "the bot to move thinks again";
  f.runBots();
  EXPECT_EQ(plies(f.state(g.id)), 4);
  // The finished game is loaded on demand.
  auto fin = f.state(finished.id);
  EXPECT_EQ(fin.get("status")->asString(), "finished");
  EXPECT_EQ(fin.get("result")->get("reason")->asString(), "resign");
}

TEST(ServerApp, IdleFinishedGamesLeaveMemoryAndComeBackFromTheStore) {
  Fixture f;
  auto done = f.create("shako", {human(), human()});
  auto live = f.create("shako", {human(), human()});
  ASSERT_TRUE(f.lobby->find(done.id)->move(done.tokens[0], "e3e4").ok());
  ASSERT_TRUE(f.lobby->find(done.id)->resign(done.tokens[1], "").ok());
  const std::string before = f.lobby->find(done.id)->stateJson("");
  {
    auto held = f.lobby->find(done.id);
    EXPECT_EQ(f.lobby->evictIdle(), 0) << "a room in use stays";
  }
  EXPECT_EQ(f.lobby->evictIdle(), 1);
  EXPECT_EQ(f.lobby->size(), 1u);
  auto again = parsed(f.lobby->find(done.id)->stateJson(""));
  auto was = parsed(before);
  EXPECT_EQ(writeJson(*again.get("moves")), writeJson(*was.get("moves")));
  EXPECT_EQ(writeJson(*again.get("result")), writeJson(*was.get("result")));
  EXPECT_EQ(again.get("fen")->asString(), was.get("fen")->asString());
  EXPECT_EQ(f.lobby->size(), 2u);
  (void)live;
}

TEST(ServerApp, SubscribersSeeEveryChangeInOrder) {
  Fixture f;
  auto g = f.create("shako", {human(), bot()});
  auto room = f.lobby->find(g.id);
  std::vector<std::pair<std::string, int64_t>> seen;
  Update first;
  std::string you;
  const int id = room->subscribe(
      g.tokens[0], [&](const Update& u) { seen.emplace_back(u.type, u.v); }, &first, &you);
  EXPECT_EQ(you, "[\"white\"]");
  EXPECT_EQ(std::string(first.type), "state");
  auto s = parsed(stateWithYou(*first.base, you));
  EXPECT_TRUE(s.get("seats")->items()[0].get("connected")->asBool());
  ASSERT_TRUE(room->move(g.tokens[0], "e3e4").ok());
  f.runBots();
  ASSERT_TRUE(room->resign(g.tokens[0], "").ok());
  room->unsubscribe(id);
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_EQ(seen[0].first, "move");
  EXPECT_EQ(seen[1].first, "move");
  EXPECT_EQ(seen[2].first, "end");
  EXPECT_EQ(seen[0].second, first.v + 1);
  for (size_t i = 1; i < seen.size(); ++i) EXPECT_EQ(seen[i].second, seen[i - 1].second + 1);
  EXPECT_FALSE(f.state(g.id).get("seats")->items()[0].get("connected")->asBool());
}

TEST(ServerApp, PgnForTwoAndFourPlayers) {
  Fixture f;
  auto g = f.create("shako", {human(), human()});
  auto room = f.lobby->find(g.id);
  for (const char* m : {"e3e4", "e8e7", "d2h6"}) ASSERT_TRUE(room->move(g.tokens[m[1] == '8' ? 1 : 0], m).ok());
  const std::string pgn = room->pgn();
  EXPECT_NE(pgn.find("[Variant \"Shako\"]"), std::string::npos) << pgn;
  EXPECT_NE(pgn.find("[FEN \"c8c/ernbqkbnre"), std::string::npos) << pgn;
  EXPECT_NE(pgn.find("1. e4 e7 2. Bh6"), std::string::npos) << pgn;
  EXPECT_NE(pgn.find(" *\n"), std::string::npos) << pgn;

  auto g4 = f.create("four-seasons", {human(), human(), human(), human()}, {{"die", "on"}});
  auto r4 = f.lobby->find(g4.id);
  ASSERT_TRUE(r4->resign(g4.tokens[0], "").ok());
  const std::string pgn4 = r4->pgn();
  EXPECT_NE(pgn4.find("[RuleVariants \"Die Takeover\"]"), std::string::npos) << pgn4;
  EXPECT_NE(pgn4.find("[StartFen4 "), std::string::npos) << pgn4;
  EXPECT_NE(pgn4.find("1. R"), std::string::npos) << pgn4;
}

TEST(ServerApp, PgnReadsBackThroughTheCoreReader) {
  Fixture f;
  auto g = f.create("shako", {human(), human()});
  auto room = f.lobby->find(g.id);
  for (const char* m : {"e3e4", "e8e7", "d2h6", "f8f7"}) ASSERT_TRUE(room->move(g.tokens[m[1] == '8' ? 1 : 0], m).ok());
  ASSERT_TRUE(room->resign(g.tokens[0], "").ok());
  const std::string pgn = room->pgn();
  auto games = readPgn(pgn, "server.pgn");
  ASSERT_TRUE(games.ok()) << games.error().text();
  ASSERT_EQ(games->size(), 1u);
  EXPECT_EQ(games->front().tag("Termination"), "resign") << pgn;
  EXPECT_EQ(games->front().result, "0-1") << pgn;
  auto back = replayPgn(games->front(), f.registry, sanNotation(), "server.pgn");
  ASSERT_TRUE(back.ok()) << back.error().text() << "\n" << pgn;
  EXPECT_TRUE((*back)->finished());
  EXPECT_EQ((*back)->position().text(), f.state(g.id).get("fen")->asString());

  // Four players: a seat that resigns out of turn is named, and the record replays.
  auto g4 = f.create("four-seasons", {human(), human(), human(), human()});
  auto r4 = f.lobby->find(g4.id);
  ASSERT_TRUE(r4->move(g4.tokens[0], "a6a5").ok());
  ASSERT_TRUE(r4->resign(g4.tokens[2], "").ok());
  ASSERT_TRUE(r4->move(g4.tokens[1], "a3a4").ok());
  const std::string pgn4 = r4->pgn();
  EXPECT_NE(pgn4.find("1. a6-a5 .. R {black resigns}"), std::string::npos) << pgn4;
  auto games4 = readPgn(pgn4);
  ASSERT_TRUE(games4.ok()) << games4.error().text();
  auto back4 = replayPgn(games4->front(), f.registry, longNotation());
  ASSERT_TRUE(back4.ok()) << back4.error().text() << "\n" << pgn4;
  EXPECT_EQ((*back4)->position().text(), f.state(g4.id).get("fen")->asString());
}

TEST(ServerApp, ReplayHasOneFramePerEntryPlusTheStart) {
  Fixture f;
  auto g = f.create("shako", {human(), bot()});
  auto room = f.lobby->find(g.id);
  ASSERT_TRUE(room->move(g.tokens[0], "e3e4").ok());
  f.runBots();
  auto r = parsed(room->replayJson());
  ASSERT_TRUE(r.get("frames"));
  ASSERT_EQ(r.get("frames")->items().size(), 3u);
  EXPECT_TRUE(r.get("frames")->items()[0].get("lastMove")->isNull());
  EXPECT_EQ(r.get("frames")->items()[1].get("lastMove")->asString(), "e3e4");
  EXPECT_EQ(r.get("frames")->items()[2].get("fen")->asString(), f.state(g.id).get("fen")->asString());
}

TEST(ServerApp, Chess960GamesDrawTheirArrayAndAnyGameMayStartFromAGivenPosition) {
  Fixture f;
  Api api(*f.lobby, [](int) { return std::string(); });
  auto create = [&](const std::string& body) {
    ApiRequest r;
    r.method = "POST";
    r.target = "/api/game";
    r.body = body;
    return api.handle(r);
  };
  // Chess960: the array comes from the seed, so different seeds give (mostly) different arrays.
  std::set<std::string> starts;
  for (int seed = 1; seed <= 8; ++seed) {
    auto made = create(R"({"variant":"fischerandom","seed":)" + std::to_string(seed) + "}");
    ASSERT_EQ(made.status, 201) << made.body;
    const std::string id = parsed(made.body).get("id")->asString();
    const std::string start = f.state(id).get("startFen")->asString();
    bool isArray = false;
    for (int n = 0; n < 960 && !isArray; ++n) isArray = chess960StartFen(n) == start;
    EXPECT_TRUE(isArray) << start;
    starts.insert(start);
  }
  EXPECT_GE(starts.size(), 6u);
  // Chess keeps its start; a given position is played from (and kept in the record).
  auto chess = create(R"({"variant":"chess","seed":3})");
  EXPECT_EQ(f.state(parsed(chess.body).get("id")->asString()).get("startFen")->asString(),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
  const std::string fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
  auto given = create(R"({"variant":"chess","fen":")" + fen + R"("})");
  ASSERT_EQ(given.status, 201) << given.body;
  EXPECT_EQ(f.state(parsed(given.body).get("id")->asString()).get("startFen")->asString(), fen);
  // A bad or finished position is refused and creates nothing.
  const size_t before = f.lobby->size();
  for (const std::string body : {R"({"variant":"chess","fen":"not a position"})",
                                 R"({"variant":"chess","fen":"k7/1Q6/1K6/8/8/8/8/8 b - - 0 1"})",
                                 R"({"variant":"chess","fen":7})"}) {
    auto refused = create(body);
    EXPECT_EQ(refused.status, 400) << body;
    EXPECT_EQ(parsed(refused.body).get("code")->asString(), "bad-fen") << body;
  }
  EXPECT_EQ(f.lobby->size(), before);
  // Janggi from a given position: Black leaves bikjang standing and counting decides.
  auto janggi = create(R"({"variant":"janggi","fen":"4k4/9/9/9/9/9/9/9/R8/4K4 b - - 0 1"})");
  ASSERT_EQ(janggi.status, 201) << janggi.body;
  const Json made = parsed(janggi.body);
  const std::string id = made.get("id")->asString();
  const std::string blackToken = made.get("seats")->items()[1].get("token")->asString();
  ASSERT_TRUE(f.lobby->find(id)->move(blackToken, "e10e10").ok());
  const Json end = f.state(id);
  EXPECT_EQ(end.get("status")->asString(), "finished");
  EXPECT_EQ(end.get("result")->get("reason")->asString(), "material-count");
}

// ---------------------------------------------------------------------------
// Limits: games per client, open games, bots' memory, idle games, the store.


TEST(ServerLimitsApp, GamesPerClientPerMinuteAre429WithRetryAfter) {
  Fixture f;
  f.config.limits.gamesPerClientPerMinute = 3;
  f.lobby = std::make_unique<Lobby>(f.registry, f.store, testing::fakeBots(), f.config, &f.time);
  Api api(*f.lobby, [](int) { return std::string(); });
  auto create = [&](const std::string& client) {
    ApiRequest r;
    r.method = "POST";
    r.target = "/api/game";
    r.body = R"({"variant":"shako"})";
    r.client = client;
    return api.handle(r);
  };
  for (int i = 0; i < 3; ++i) EXPECT_EQ(create("10.0.0.1").status, 201);
  auto refused = create("10.0.0.1");
  EXPECT_EQ(refused.status, 429);
  auto j = parsed(refused.body);
  EXPECT_EQ(j.get("code")->asString(), "rate-limited");
  ASSERT_TRUE(j.get("retryAfterMs") && j.get("retryAfterMs")->isNumber());
  EXPECT_EQ(j.get("retryAfterMs")->asNumber(), 20000);
  EXPECT_EQ(refused.retryAfterMs, 20000);
  EXPECT_EQ(create("10.0.0.2").status, 201) << "another address has its own allowance";
  f.time.advance(20000);
  EXPECT_EQ(create("10.0.0.1").status, 201);
  EXPECT_EQ(create("10.0.0.1").status, 429);
  EXPECT_EQ(f.lobby->size(), 5u);
}

TEST(ServerLimitsApp, OpenGamesInAllAreBoundedCountingGamesOnlyInTheStore) {
  Fixture f;
  f.config.limits.maxOpenGames = 2;
  f.lobby = std::make_unique<Lobby>(f.registry, f.store, testing::fakeBots(), f.config, &f.time);
  auto a = f.create("shako", {human(), human()});
  f.create("shako", {human(), human()});
  CreateRequest r;
  r.variant = "shako";
  auto err = f.lobby->create(r, nullptr);
  ASSERT_FALSE(err.ok());
  EXPECT_EQ(err.error().status, 503);
  EXPECT_EQ(err.error().code, "full");
  f.time.advance(31 * 60000);
  EXPECT_EQ(f.lobby->evictIdle(), 2);
  EXPECT_EQ(f.lobby->size(), 0u);
  EXPECT_FALSE(f.lobby->create(r, nullptr).ok()) << "games out of memory still count";
  ASSERT_TRUE(f.lobby->find(a.id)->resign(a.tokens[0], "").ok());
  EXPECT_TRUE(f.lobby->create(r, nullptr).ok()) << "a finished game frees its place";
}

// A bot is made for one move and released after it: bots' memory is bounded
// by the searches running, not by the games held.
struct CountingBots {
  std::atomic<int> live{0}, peak{0}, made{0};
  std::mutex m;
  std::vector<uint64_t> seeds;
  BotFactory factory() {
    return [this](std::shared_ptr<const Rules>, int, uint64_t seed) -> std::unique_ptr<engine::Bot> {
      struct Counted : testing::FakeBot {
        explicit Counted(CountingBots& c) : c_(c) {
          const int n = ++c_.live;
          int p = c_.peak.load();
          while (n > p && !c_.peak.compare_exchange_weak(p, n)) {
          }
        }
        ~Counted() override { --c_.live; }
        CountingBots& c_;
      };
      ++made;
      {
        std::lock_guard lock(m);
        seeds.push_back(seed);
      }
      return std::make_unique<Counted>(*this);
    };
  }
};

TEST(ServerLimitsApp, NoBotOutlivesItsMove) {
  Fixture f;
  CountingBots bots;
  f.lobby = std::make_unique<Lobby>(f.registry, f.store, bots.factory(), f.config, &f.time);
  auto g = f.create("four-seasons", {bot(9), bot(9), bot(9), bot(9)});
  auto other = f.create("shako", {bot(9), bot(9)});
  for (int i = 0; i < 30 && f.lobby->runOneBotJob(); ++i) {
    EXPECT_EQ(bots.live.load(), 0) << "after move " << i;
    EXPECT_LE(f.lobby->pendingBotJobs(), 2u) << "one job per room";
  }
  EXPECT_EQ(bots.peak.load(), 1);
  EXPECT_GE(bots.made.load(), 30);
  // Same game, same seed: the same bots' seeds (a restarted or reloaded game plays the same).
  Fixture f2;
  CountingBots bots2;
  f2.lobby = std::make_unique<Lobby>(f2.registry, f2.store, bots2.factory(), f2.config, &f2.time);
  f2.create("four-seasons", {bot(9), bot(9), bot(9), bot(9)});
  f2.create("shako", {bot(9), bot(9)});
  for (int i = 0; i < 30 && f2.lobby->runOneBotJob(); ++i) {
  }
  EXPECT_EQ(bots.seeds, bots2.seeds);
  (void)g;
  (void)other;
}

TEST(ServerLimitsApp, ConcurrentBotsAreBoundedByTheWorkerThreads) {
  VariantRegistry registry = VariantRegistry::withEmbedded();
  MemoryStore store;
  CountingBots bots;
  LobbyConfig config;
  config.botThreads = 2;
  config.limits.botGamesPerClient = 0;  // eight games of bots only from one address
  Lobby lobby(registry, store, bots.factory(), config);
  lobby.start();
  std::vector<std::string> ids;
  for (int i = 0; i < 8; ++i) {
    CreateRequest r;
    r.variant = "shako";
    r.seats = {bot(9), bot(9)};
    r.seed = static_cast<uint64_t>(i);
    CreatedGame g;
    ASSERT_TRUE(lobby.create(r, &g).ok());
    ids.push_back(g.id);
  }
  EXPECT_TRUE(testing::waitFor([&] {
    for (const auto& id : ids)
      if (!lobby.find(id)->finished()) return false;
    return true;
  }, 60000));
  lobby.stop();
  EXPECT_LE(bots.peak.load(), 2);
  EXPECT_EQ(bots.live.load(), 0);
}

TEST(ServerLimitsApp, IdleUnfinishedGamesLeaveMemoryAndComeBackAsTheyWere) {
  Fixture f;
  auto g = f.create("shako", {human(), human()});
  auto withBot = f.create("shako", {human(), bot()});
  auto offered = f.create("shako", {human(), human()});
  auto clocked = f.create("shako", {human(), human()}, {}, ClockSpec{true, 60000, 0});
  auto notStarted = f.create("shako", {human(), human()}, {}, ClockSpec{true, 60000, 0});
  auto watched = f.create("shako", {human(), human()});
  {
    auto room = f.lobby->find(g.id);
    ASSERT_TRUE(room->move(g.tokens[0], "e3e4").ok());
    ASSERT_TRUE(room->move(g.tokens[1], "e8e7").ok());
    ASSERT_TRUE(f.lobby->find(withBot.id)->move(withBot.tokens[0], "e3e4").ok());  // the bot's job is queued
    ASSERT_TRUE(f.lobby->find(offered.id)->draw(offered.tokens[0], "offer").ok());
    ASSERT_TRUE(f.lobby->find(clocked.id)->move(clocked.tokens[0], "e3e4").ok());  // black's clock runs
  }
  const int sub = f.lobby->find(watched.id)->subscribe("", [](const Update&) {}, nullptr, nullptr);
  const std::string before = f.lobby->find(g.id)->stateJson(g.tokens[0]);
  f.time.advance(29 * 60000);
  EXPECT_EQ(f.lobby->evictIdle(), 0) << "not idle long enough";
  f.time.advance(2 * 60000);
  EXPECT_EQ(f.lobby->evictIdle(), 2) << "the plain game and the one whose clock has not started";
  EXPECT_EQ(f.lobby->size(), 4u);
  auto again = f.lobby->find(g.id);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->stateJson(g.tokens[0]), before) << "same state, plies, tokens and version";
  EXPECT_EQ(again->plies(), 2);
  EXPECT_TRUE(again->move(g.tokens[0], "d3d4").ok());
  EXPECT_FALSE(again->move(g.tokens[0], "d4d5").ok()) << "tokens still hold their seats only";
  EXPECT_EQ(f.store.load(g.id)->value().entries.size(), 3u);
  // The clock of a reloaded game runs and is watched again.
  auto ns = f.lobby->find(notStarted.id);
  ASSERT_TRUE(ns->move(notStarted.tokens[0], "e3e4").ok());
  ns.reset();
  f.time.advance(60001);
  f.lobby->tickClocks();
  EXPECT_TRUE(f.lobby->find(notStarted.id)->finished());
  f.lobby->find(watched.id)->unsubscribe(sub);
}

TEST(ServerLimitsApp, ABotMoveTheStoreRefusesIsRetriedWithBackOff) {
  Fixture f;
  auto g = f.create("shako", {human(), bot()});
  auto room = f.lobby->find(g.id);
  ASSERT_TRUE(room->move(g.tokens[0], "e3e4").ok());
  f.store.failNextWrites(3);
  EXPECT_TRUE(f.lobby->runOneBotJob());
  auto s = f.state(g.id);
  EXPECT_EQ(s.get("waiting")->asString(), "store");
  EXPECT_EQ(plies(s), 1);
  EXPECT_EQ(f.lobby->pendingBotJobs(), 0u);
  const int writes = f.store.writes();
  f.time.advance(99);
  f.lobby->tickClocks();
  EXPECT_EQ(f.store.writes(), writes) << "not before 100 ms";
  f.time.advance(1);
  f.lobby->tickClocks();  // fails (2nd); next in 200 ms
  EXPECT_EQ(f.store.writes(), writes + 1);
  f.time.advance(199);
  f.lobby->tickClocks();
  EXPECT_EQ(f.store.writes(), writes + 1);
  f.time.advance(1);
  f.lobby->tickClocks();  // fails (3rd); next in 400 ms
  EXPECT_EQ(f.store.writes(), writes + 2);
  EXPECT_EQ(f.state(g.id).get("waiting")->asString(), "store");
  f.time.advance(400);
  f.lobby->tickClocks();  // stored
  s = f.state(g.id);
  EXPECT_TRUE(s.get("waiting")->isNull());
  EXPECT_EQ(plies(s), 2);
  EXPECT_EQ(f.store.load(g.id)->value().entries.size(), 2u);
  EXPECT_TRUE(room->move(g.tokens[0], "d3d4").ok());
  f.runBots();
  EXPECT_EQ(room->plies(), 4);
}

TEST(ServerLimitsApp, TheBackOffStopsDoublingAtTenSeconds) {
  Fixture f;
  auto g = f.create("shako", {bot(), bot()});
  f.store.failNextWrites(1000);
  EXPECT_TRUE(f.lobby->runOneBotJob());
  int64_t waited = 0;
  int tries = 0;
  while (waited < 120000) {
    const int w = f.store.writes();
    f.time.advance(100);
    waited += 100;
    f.lobby->tickClocks();
    tries += f.store.writes() - w;
  }
  // 100+200+...+6400 = 12.7 s for 7 tries, then one every 10 s.
  EXPECT_EQ(tries, 7 + static_cast<int>((120000 - 12700) / 10000));
  f.store.failNextWrites(0);
  f.time.advance(10000);
  f.lobby->tickClocks();
  EXPECT_TRUE(f.state(g.id).get("waiting")->isNull());
  EXPECT_GE(plies(f.state(g.id)), 1);
}

// ---------------------------------------------------------------------------
// The API as a function (no sockets).

struct ApiFixture : Fixture {
  Api api{*lobby, [](int l) { return "level " + std::to_string(l); }};
  ApiResponse call(const std::string& method, const std::string& target, const std::string& body = "",
                   const std::string& token = "") {
    return testing::callApi(api, method, target, body, token);
  }
};

TEST(ServerApi, CreateValidatesItsInput) {
  ApiFixture f;
  struct Case {
    std::string body;
    int status;
  } cases[] = {
      {"", 400},
      {"{", 400},
      {"[]", 400},
      {"{\"variant\": 3}", 400},
      {"{\"variant\": \"nosuchgame\"}", 404},
      {"{\"variant\": \"shako\", \"options\": {\"die\": \"on\"}}", 400},
      {"{\"variant\": \"four-seasons\", \"options\": {\"die\": \"maybe\"}}", 400},
      {"{\"variant\": \"four-seasons\", \"options\": [1]}", 400},
      {"{\"variant\": \"shako\", \"seats\": [{\"kind\": \"human\"}]}", 400},
      {"{\"variant\": \"shako\", \"seats\": [{\"kind\": \"human\"}, {\"kind\": \"alien\"}]}", 400},
      {"{\"variant\": \"shako\", \"seats\": [{\"kind\": \"human\"}, {\"kind\": \"bot\", \"level\": 10}]}", 400},
      {"{\"variant\": \"shako\", \"seats\": [{\"kind\": \"human\"}, {\"kind\": \"bot\", \"level\": 2.5}]}", 400},
      {"{\"variant\": \"shako\", \"clock\": {\"initialMs\": 5}}", 400},
      {"{\"variant\": \"shako\", \"clock\": {\"initialMs\": 60000, \"incrementMs\": -1}}", 400},
      {"{\"variant\": \"shako\", \"seed\": -4}", 400},
      {"{\"variant\": \"shako\", \"seed\": \"99999999999999999999\"}", 400},
      {"{\"variant\": \"shako\", \"hotSeat\": \"yes\"}", 400},
      {std::string(70000, ' '), 413},
      {std::string(100, '[') + std::string(100, ']'), 400},
      {"{\"variant\": \"shako\"}", 201},
      {"{\"variant\": \"shako\", \"seed\": \"18446744073709551615\", \"clock\": {\"initialMs\": 60000}}", 201},
      {"{\"variant\": \"four-seasons\", \"options\": {\"die\": \"on\", \"takeover\": \"no\"}, \"hotSeat\": true}", 201},
  };
  for (const auto& c : cases) {
    auto r = f.call("POST", "/api/game", c.body);
    EXPECT_EQ(r.status, c.status) << c.body.substr(0, 120) << " -> " << r.body;
    auto j = parsed(r.body);
    if (c.status >= 400) {
      ASSERT_TRUE(j.isObject()) << r.body;
      EXPECT_TRUE(j.get("error") && j.get("error")->isString()) << r.body;
    } else {
      EXPECT_TRUE(j.get("id") && j.get("id")->isString());
      EXPECT_TRUE(j.get("seats")->items()[0].get("inviteUrl")->asString().rfind("/game/", 0) == 0);
    }
  }
}

// A game from a given position keeps its hands (in the fen's brackets) and
// lists a drop under its target square, as the board reads them.
TEST(ServerApi, AGameFromAPositionKeepsItsHandsAndListsDrops) {
  ApiFixture f;
  const std::string fen = "rnbqkbnr/ppp1pppp/8/8/8/8/PPPPPPPP/RNBQKBN1[Pr] w Qkq - 0 1";
  auto created = f.call("POST", "/api/game", R"({"variant":"crazyhouse","fen":")" + fen + R"("})");
  ASSERT_EQ(created.status, 201) << created.body;
  const std::string id = parsed(created.body).get("id")->asString();
  auto state = parsed(f.call("GET", "/api/game/" + id).body);
  EXPECT_EQ(state.get("startFen")->asString(), state.get("fen")->asString());
  EXPECT_NE(state.get("fen")->asString().find("[Pr]"), std::string::npos) << state.get("fen")->asString();
  const Json* drops = state.get("legal")->get("e4");
  ASSERT_TRUE(drops && drops->isArray());
  EXPECT_EQ(drops->items()[0].asString(), "P@e4");
}

TEST(ServerApi, GameRoutes) {
  ApiFixture f;
  auto created = parsed(f.call("POST", "/api/game", R"({"variant":"shako","seats":[{"kind":"human"},{"kind":"human"}]})").body);
  const std::string id = created.get("id")->asString();
  const std::string white = created.get("seats")->items()[0].get("token")->asString();
  const std::string black = created.get("seats")->items()[1].get("token")->asString();
  EXPECT_EQ(f.call("GET", "/api/game/" + id).status, 200);
  EXPECT_EQ(f.call("GET", "/api/game/nosuchgame").status, 404);
  EXPECT_EQ(f.call("GET", "/api/game/../../etc/passwd").status, 404);
  EXPECT_EQ(f.call("GET", "/api/game/%zz").status, 400);
  EXPECT_EQ(f.call("POST", "/api/game/" + id).status, 405);
  EXPECT_EQ(f.call("GET", "/api/game/" + id + "/move/e3e4", "", white).status, 405);
  EXPECT_EQ(f.call("POST", "/api/game/" + id + "/move/e3e4").status, 401);
  EXPECT_EQ(f.call("POST", "/api/game/" + id + "/move/e3e4", "", black).status, 403);
  auto bad = f.call("POST", "/api/game/" + id + "/move/e3e9", "", white);
  EXPECT_EQ(bad.status, 400);
  EXPECT_NE(parsed(bad.body).get("error")->asString().find("e3e9"), std::string::npos);
  auto ok = f.call("POST", "/api/game/" + id + "/move/e3e4", "", white);
  EXPECT_EQ(ok.status, 200);
  EXPECT_EQ(parsed(ok.body).get("lastMove")->asString(), "e3e4");
  EXPECT_EQ(f.call("POST", "/api/game/" + id + "/move/e8e7?token=" + black).status, 200);
  EXPECT_EQ(f.call("POST", "/api/game/" + id + "/draw/maybe", "", white).status, 400);
  auto asked = f.call("POST", "/api/game/" + id + "/takeback", "", white);  // between people: an offer
  EXPECT_EQ(asked.status, 200);
  EXPECT_EQ(parsed(asked.body).get("takebackOffer")->asString(), "white");
  EXPECT_EQ(f.call("POST", "/api/game/" + id + "/takeback/decline", "", black).status, 200);
  EXPECT_EQ(f.call("GET", "/api/game/" + id + "/pgn").status, 200);
  EXPECT_EQ(f.call("GET", "/api/game/" + id + "/replay").status, 200);
  EXPECT_EQ(f.call("POST", "/api/game/" + id + "/resign", "", black).status, 200);
  EXPECT_EQ(f.call("POST", "/api/game/" + id + "/resign", "", black).status, 409);
  EXPECT_EQ(f.call("POST", "/api/game/" + id + "/move/d3d4", "", white).status, 409);
  auto games = parsed(f.call("GET", "/api/games?status=finished").body);
  ASSERT_TRUE(games.isArray());
  ASSERT_EQ(games.items().size(), 1u);
  EXPECT_EQ(games.items()[0].get("id")->asString(), id);
  EXPECT_EQ(f.call("GET", "/api/games?limit=x").status, 400);
  EXPECT_EQ(f.call("GET", "/api/nothing").status, 404);
}

TEST(ServerApi, VariantsAndPieceReach) {
  ApiFixture f;
  auto v = parsed(f.call("GET", "/api/variants").body);
  ASSERT_TRUE(v.isArray());
  EXPECT_EQ(v.items().size(), VariantRegistry::withEmbedded().all().size());  // every embedded variant
  for (const auto& variant : v.items()) {
    EXPECT_FALSE(variant.get("pieces")->items().empty());
    EXPECT_EQ(variant.get("levels")->items().size(), 9u);
  }
  auto r = f.call("GET", "/api/variant/shako/piece/c?from=e5");
  ASSERT_EQ(r.status, 200) << r.body;
  auto j = parsed(r.body);
  EXPECT_EQ(j.get("name")->asString(), "cannon");
  EXPECT_FALSE(j.get("moves")->items().empty());
  EXPECT_FALSE(j.get("hops")->items().empty());
  auto joko = parsed(f.call("GET", "/api/variant/joko-urtaroak/piece/G").body);
  EXPECT_EQ(joko.get("board")->get("blocked")->items().size(), 16u);
  EXPECT_EQ(f.call("GET", "/api/variant/shako/piece/Z").status, 404);
  EXPECT_EQ(f.call("GET", "/api/variant/nope/piece/K").status, 404);
  EXPECT_EQ(f.call("GET", "/api/variant/shako/piece/K?from=z99").status, 400);
  EXPECT_EQ(f.call("GET", "/api/variant/joko-urtaroak/piece/K?from=e5").status, 400);
  EXPECT_EQ(f.call("GET", "/api/variant/shako/piece/K?dir=up").status, 400);
  EXPECT_EQ(f.call("GET", "/api/variant/four-seasons/piece/P?from=d4&dir=e").status, 200);
  // lame leapers are drawn: the xiangqi horse's eight points, the elephant's four (on its own side)
  auto horse = parsed(f.call("GET", "/api/variant/xiangqi/piece/N?from=e5").body);
  EXPECT_EQ(horse.get("moves")->items().size(), 8u);
  EXPECT_EQ(horse.get("captures")->items().size(), 8u);
  auto elephant = parsed(f.call("GET", "/api/variant/xiangqi/piece/B?from=e3").body);
  EXPECT_EQ(elephant.get("moves")->items().size(), 4u);
  // three-player chess: a diagonal through the centre forks into both other
  // halves (c3-d4, then i5..l8 and e9..h12), never onto the other colour's i9
  auto bishop = parsed(f.call("GET", "/api/variant/three-player-chess/piece/B?from=c3").body);
  std::set<std::string> reach;
  for (const auto& m : bishop.get("moves")->items()) reach.insert(m.asString());
  for (const char* s : {"d4", "i5", "l8", "e9", "h12", "b4", "a1"}) EXPECT_TRUE(reach.count(s)) << s;
  EXPECT_FALSE(reach.count("i9"));
  EXPECT_EQ(reach.size(), 15u);  // and b4-a5, b2-a1, d2-e1
}

// What the board draws beyond the squares: palaces, the river, hands, blasts, the duck, promoted forms, the coordinates.
TEST(ServerApi, VariantsTellTheBoardsGeometry) {
  ApiFixture f;
  auto v = parsed(f.call("GET", "/api/variants").body);
  auto find = [&](const std::string& name) -> const Json& {
    for (const auto& x : v.items())
      if (x.get("name")->asString() == name) return x;
    ADD_FAILURE() << name;
    return v.items()[0];
  };
  auto text = [](const Json& j) { return writeJson(j); };
  EXPECT_EQ(text(*find("xiangqi").get("palaces")), R"([["d1","f3"],["d8","f10"]])");
  EXPECT_TRUE(find("xiangqi").get("river")->asBool());
  EXPECT_EQ(text(*find("janggi").get("palaces")), R"([["d1","f3"],["d8","f10"]])");
  EXPECT_FALSE(find("janggi").get("river")->asBool());
  EXPECT_EQ(text(*find("chess").get("palaces")), "[]");
  EXPECT_EQ(find("chess").get("geometry")->asString(), "rect");
  EXPECT_EQ(find("three-player-chess").get("geometry")->asString(), "hex3");
  EXPECT_FALSE(find("chess").get("drops")->asBool());
  EXPECT_TRUE(find("shogi").get("drops")->asBool());
  EXPECT_TRUE(find("crazyhouse").get("drops")->asBool());
  EXPECT_TRUE(find("atomic").get("blast")->asBool());
  EXPECT_FALSE(find("chess").get("blast")->asBool());
  EXPECT_TRUE(find("duck").get("duck")->asBool());
  EXPECT_FALSE(find("chess").get("duck")->asBool());
  EXPECT_EQ(find("shogi").get("notation")->asString(), "shogi");
  EXPECT_EQ(find("minishogi").get("notation")->asString(), "shogi");
  EXPECT_EQ(find("chess").get("notation")->asString(), "san");
  EXPECT_TRUE(find("fog-of-war").get("fog")->asBool());
  EXPECT_FALSE(find("chess").get("fog")->asBool());
  bool tokin = false;
  for (const auto& p : find("shogi").get("pieces")->items())
    if (p.get("name")->asString() == "tokin") {
      tokin = true;
      EXPECT_EQ(p.get("base")->asString(), "pawn");
    } else if (p.get("name")->asString() == "pawn") {
      EXPECT_TRUE(p.get("base")->isNull());
    }
  EXPECT_TRUE(tokin);
}

TEST(ServerApi, EveryReplyIsValidJsonAndUtf8EvenForRawBytes) {
  ApiFixture f;
  auto g = f.create("shako", {human(), human()});
  auto check = [](const std::string& what, const std::string& body) {
    EXPECT_TRUE(isValidUtf8(body)) << what << " -> " << body;
    EXPECT_TRUE(parseJson(body).ok()) << what << " -> " << body;
  };
  for (const char* target :
       {"/api/game/%FF", "/api/game/%C3", "/api/game/a%00b", "/api/game/%ED%A0%80", "/api/variant/%FF/piece/K",
        "/api/variant/shako/piece/%FF", "/api/variant/shako/piece/K?from=%FF%FE", "/api/variant/shako/piece/K?%FF=1",
        "/api/games?status=%FF"}) {
    auto r = f.call("GET", target);
    EXPECT_GE(r.status, 400) << target;
    check(target, r.body);
  }
  for (const std::string& target : {"/api/game/" + g.id + "/move/%FF%FE", "/api/game/" + g.id + "/move/e3%C0",
                                   "/api/game/" + g.id + "/resign?seat=%FF", "/api/game/" + g.id + "/draw/%FF"}) {
    auto r = f.call("POST", target, "", g.tokens[0]);
    EXPECT_GE(r.status, 400) << target;
    check(target, r.body);
  }
  for (const std::string& body : {std::string("{\"variant\":\"\xff\"}"), std::string("{\"variant\":\"sh\\u0000ako\"}"),
                                 std::string("{\"variant\":\"shako\",\"options\":{\"\\u0001\\u00ff\":1}}")}) {
    auto r = f.call("POST", "/api/game", body);
    EXPECT_GE(r.status, 400) << body;
    check(body, r.body);
  }
  auto room = f.lobby->find(g.id);
  for (const std::string& msg : {std::string("{\"t\":\"\\u0000\\udbff\\udfff\"}"), std::string("{\"t\":\"\xff\"}"),
                                std::string("{\"t\":\"move\",\"d\":{\"uci\":\"\\u00ff\\u0002\"}}")}) {
    const std::string reply = f.api.onSocketMessage(*room, g.tokens[0], msg);
    check(msg, reply);
  }
}

// Names that come from variant files (variant, title, seats, pieces, options)
// reach every reply through the JSON writer, so quotes, backslashes and stray
// bytes in them cannot break a reply.
TEST(ServerApi, NamesFromVariantFilesAreEscapedEverywhere) {
  VariantRegistry registry = VariantRegistry::withEmbedded();
  ASSERT_TRUE(registry
                  .add("name = q\"uo\\te\ntitle = T\"i\xfftle\nboard = 10x10\nseat = wh\"ite w n\nseat = bl\\ack b s\n"
                       "piece = ki\"ng K K royal\npiece = pawn P fmWfcF pawn\npiece = queen Q Q\npromotion = Q\n"
                       "ending = checkmate\nstalemate = draw\n"
                       "start = 4k5/10/10/10/10/10/10/10/PPPPPPPPPP/4K5 w - - 0 1\n",
                       "test")
                  .ok());
  MemoryStore store;
  FakeTime time;
  LobbyConfig config;
  config.startThreads = false;
  Lobby lobby(registry, store, testing::fakeBots(), config, &time);
  Api api(lobby, [](int) { return std::string("lev\"el\x01"); });
  auto call = [&](const std::string& method, const std::string& target, const std::string& body = "",
                  const std::string& token = "") {
    auto reply = testing::callApi(api, method, target, body, token);
    EXPECT_TRUE(isValidUtf8(reply.body)) << target;
    if (reply.contentType == "application/json") {
      EXPECT_TRUE(parseJson(reply.body).ok()) << target << " -> " << reply.body;
    }
    return reply;
  };
  auto created = call("POST", "/api/game", R"({"variant":"q\"uo\\te","seats":[{"kind":"human"},{"kind":"bot"}]})");
  ASSERT_EQ(created.status, 201) << created.body;
  const std::string id = parsed(created.body).get("id")->asString();
  const std::string token = parsed(created.body).get("seats")->items()[0].get("token")->asString();
  auto state = parsed(call("GET", "/api/game/" + id, "", token).body);
  EXPECT_EQ(state.get("variant")->asString(), "q\"uo\\te");
  EXPECT_EQ(state.get("seats")->items()[0].get("seat")->asString(), "wh\"ite");
  EXPECT_EQ(state.get("you")->items()[0].asString(), "wh\"ite");
  call("POST", "/api/game/" + id + "/move/a2a3", "", token);
  call("POST", "/api/game/" + id + "/resign?seat=bl%5Cack", "", token);
  auto games = parsed(call("GET", "/api/games").body);
  ASSERT_EQ(games.items().size(), 1u);
  EXPECT_EQ(games.items()[0].get("seats")->items()[1].get("seat")->asString(), "bl\\ack");
  call("GET", "/api/variants");
  call("GET", "/api/variant/q%22uo%5Cte/piece/K");
  call("GET", "/api/game/" + id + "/replay");
  auto room = lobby.find(id);
  EXPECT_TRUE(parseJson(room->summaryJson()).ok());
  EXPECT_TRUE(parseJson(api.onSocketMessage(*room, token, R"({"t":"sync"})")).ok());
  ASSERT_TRUE(room->resign(token, "").ok());
  auto over = parsed(call("GET", "/api/game/" + id).body);
  EXPECT_EQ(over.get("result")->get("winner")->asString(), "bl\\ack");
  lobby.stop();
}

TEST(ServerApi, SocketMessages) {
  ApiFixture f;
  auto g = f.create("shako", {human(), bot()});
  auto room = f.lobby->find(g.id);
  EXPECT_EQ(f.api.onSocketMessage(*room, "", R"({"t":"ping"})"), R"({"t":"pong"})");
  for (const char* bad : {"", "{", "[]", "{\"t\":5}", "{\"t\":\"fly\"}", "{\"t\":\"move\"}", "{\"t\":\"move\",\"d\":{\"uci\":\"e3e9\"}}"}) {
    auto reply = parsed(f.api.onSocketMessage(*room, g.tokens[0], bad));
    EXPECT_EQ(reply.get("t")->asString(), "error") << bad;
  }
  auto spectator = parsed(f.api.onSocketMessage(*room, "", R"({"t":"move","d":{"uci":"e3e4"}})"));
  EXPECT_EQ(spectator.get("t")->asString(), "error");
  EXPECT_EQ(f.api.onSocketMessage(*room, g.tokens[0], R"({"t":"move","d":{"uci":"e3e4"}})"), "");
  f.runBots();
  auto sync = parsed(f.api.onSocketMessage(*room, g.tokens[0], R"({"t":"sync"})"));
  EXPECT_EQ(sync.get("t")->asString(), "state");
  EXPECT_EQ(sync.get("d")->get("moves")->items().size(), 2u);
  EXPECT_EQ(sync.get("v")->asNumber(), sync.get("d")->get("v")->asNumber());
  EXPECT_EQ(f.api.onSocketMessage(*room, g.tokens[0], R"({"t":"takeback"})"), "");
  EXPECT_EQ(room->plies(), 0);
  EXPECT_EQ(f.api.onSocketMessage(*room, g.tokens[0], R"({"t":"resign"})"), "");
  EXPECT_TRUE(room->finished());
}

}  // namespace
}  // namespace acedrex::server
