// A fair bot pool (docs/server.md, "Bots and clocks"): games of bots only are
// limited per creating address; the bots' turns are served games with a human
// seat first, creators in turn; a bot's clock stands while its turn waits for
// a thread. The queue order is shown without threads (Lobby::runOneBotJob
// runs the next job in that order, time is a hand-moved clock); the threaded
// tests hold the flood's bots inside their searches with latches, and only
// wait for the answer within a generous safety bound.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "server/app/api.h"
#include "server/app/lobby.h"
#include "test_support.h"

namespace acedrex::server {
namespace {

using testing::FakeTime;
using testing::parsed;

SeatPlan human() { return SeatPlan{}; }
SeatPlan bot(int level) {
  SeatPlan s;
  s.bot = true;
  s.level = level;
  return s;
}

struct Pool {
  explicit Pool(BotFactory bots = testing::fakeBots(), int botGamesPerClient = 3) {
    config.startThreads = false;  // the test runs the bots' jobs one by one
    config.botThreads = 1;
    config.limits.gamesPerClientPerMinute = 0;
    config.limits.botGamesPerClient = botGamesPerClient;
    lobby = std::make_unique<Lobby>(registry, store, std::move(bots), config, &time);
  }
  CreatedGame create(const std::string& client, std::vector<SeatPlan> seats, ClockSpec clock = {},
                     const std::string& fen = "") {
    CreateRequest r;
    r.variant = "chess";
    r.seats = std::move(seats);
    r.clock = clock;
    r.seed = 5;
    r.startFen = fen;
    r.client = client;
    CreatedGame g;
    auto err = lobby->create(r, &g);
    EXPECT_TRUE(err.ok()) << client << ": " << (err.ok() ? "" : err.error().message);
    return g;
  }
  int plies(const std::string& id) { return lobby->find(id)->plies(); }
  Json state(const std::string& id) { return parsed(lobby->find(id)->stateJson("")); }

  VariantRegistry registry = VariantRegistry::withEmbedded();
  MemoryStore store;
  FakeTime time;
  LobbyConfig config;
  std::unique_ptr<Lobby> lobby;
};

// A bot that mates when it can (the first legal move otherwise).
BotFactory matingBots() {
  return [](std::shared_ptr<const Rules>, int, uint64_t) {
    return std::make_unique<testing::FakeBot>([](const Game& g) {
      Game copy(g);
      for (Move m : copy.legalMoves()) {
        Game after(g);
        const std::string text = g.position().moveText(m);
        if (after.play(text).ok() && after.finished()) return text;
      }
      return std::string();
    });
  };
}

TEST(ServerBotPool, GamesOfBotsOnlyAreLimitedPerCreatingAddress) {
  Pool p(matingBots(), 3);
  const std::string mateInOne = "k7/8/1K6/8/8/8/7Q/8 w - - 0 1";
  std::vector<CreatedGame> mine;
  for (int i = 0; i < 3; ++i) mine.push_back(p.create("10.0.0.1", {bot(9), bot(9)}, {}, mateInOne));
  CreateRequest more;
  more.variant = "chess";
  more.seats = {bot(9), bot(9)};
  more.client = "10.0.0.1";
  CreatedGame refusedGame;
  const Outcome refused = p.lobby->create(more, &refusedGame);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().status, 429);
  EXPECT_EQ(refused.error().code, "too-many-bot-games");
  EXPECT_NE(refused.error().message.find("at most 3"), std::string::npos) << refused.error().message;
  EXPECT_EQ(p.lobby->size(), 3u) << "nothing was made";

  // The same address may still play the bots itself, and another address may watch bots play.
  p.create("10.0.0.1", {human(), bot(9)});
  p.create("10.0.0.2", {bot(9), bot(9)});

  // Through the API: a JSON error with the code and the sentence.
  Api api(*p.lobby, [](int) { return std::string(); });
  ApiRequest r;
  r.method = "POST";
  r.target = "/api/game";
  r.body = R"({"variant":"chess","seats":[{"kind":"bot","level":9},{"kind":"bot","level":9}]})";
  r.client = "10.0.0.1";
  const ApiResponse answer = api.handle(r);
  EXPECT_EQ(answer.status, 429) << answer.body;
  EXPECT_EQ(parsed(answer.body).get("code")->asString(), "too-many-bot-games");
  EXPECT_FALSE(parsed(answer.body).get("error")->asString().empty());

  // A game that ends frees its place: the first game's bot mates at once.
  while (p.plies(mine[0].id) == 0) ASSERT_TRUE(p.lobby->runOneBotJob());
  ASSERT_TRUE(p.lobby->find(mine[0].id)->finished());
  EXPECT_EQ(api.handle(r).status, 201);
  EXPECT_EQ(api.handle(r).status, 429);
}

TEST(ServerBotPool, ZeroTurnsTheLimitOff) {
  Pool p(testing::fakeBots(), 0);
  for (int i = 0; i < 10; ++i) p.create("10.0.0.1", {bot(9), bot(9)});
  EXPECT_EQ(p.lobby->size(), 10u);
}

// The flood: one address's many games of bots only at level 9 fill the
// queue; another address's game against a level-1 bot, whose turn comes
// last, is served first, and its clock does not run while it waits.
TEST(ServerBotPool, AFloodOfBotsOnlyGamesDoesNotDelayAnotherClientsBot) {
  Pool p(testing::fakeBots(), 40);
  std::vector<CreatedGame> flood;
  for (int i = 0; i < 40; ++i) flood.push_back(p.create("10.0.0.66", {bot(9), bot(9)}));
  ASSERT_EQ(p.lobby->pendingBotJobs(), 40u);
  const ClockSpec clock{true, 5000, 0};
  auto mine = p.create("10.0.0.7", {human(), bot(1)}, clock);
  ASSERT_TRUE(p.lobby->find(mine.id)->move(mine.tokens[0], "e2e4").ok());
  ASSERT_EQ(p.lobby->pendingBotJobs(), 41u);
  Json waiting = p.state(mine.id);
  EXPECT_TRUE(waiting.get("clockRunning")->isNull()) << "the bot's clock stands while its turn waits";
  // Longer than the bot's whole clock passes while its turn waits: no timeout.
  p.time.advance(60000);
  p.lobby->tickClocks();
  EXPECT_EQ(p.state(mine.id).get("seats")->items()[1].get("clockMs")->asNumber(), 5000);
  ASSERT_TRUE(p.lobby->runOneBotJob());
  ASSERT_EQ(p.plies(mine.id), 2) << "the human's game is served first";
  const Json s = p.state(mine.id);
  EXPECT_EQ(s.get("status")->asString(), "ongoing");
  EXPECT_TRUE(s.get("seats")->items()[1].get("in")->asBool());
  EXPECT_EQ(s.get("seats")->items()[1].get("clockMs")->asNumber(), 5000) << "no time charged for the queue";
  EXPECT_NE(testing::movesOf(s).back(), "timeout");
  for (const auto& g : flood) EXPECT_EQ(p.plies(g.id), 0);
}

// Within a class the creators take turns: a third address's game of bots
// only, queued after the flood's 40, is served second, not 41st.
TEST(ServerBotPool, CreatorsTakeTurnsNotFirstComeFirstServed) {
  Pool p(testing::fakeBots(), 40);
  std::vector<CreatedGame> flood;
  for (int i = 0; i < 40; ++i) flood.push_back(p.create("10.0.0.66", {bot(9), bot(9)}));
  auto other = p.create("10.0.0.8", {bot(2), bot(2)});
  auto floodPlies = [&] {
    int n = 0;
    for (const auto& g : flood) n += p.plies(g.id);
    return n;
  };
  ASSERT_TRUE(p.lobby->runOneBotJob());
  EXPECT_EQ(floodPlies(), 1);
  ASSERT_TRUE(p.lobby->runOneBotJob());
  EXPECT_EQ(p.plies(other.id), 1) << "the other address's turn comes after one of the flood's";
  EXPECT_EQ(floodPlies(), 1);
  // Then one each, in turn: the other game's next move comes after one more of the flood's.
  ASSERT_TRUE(p.lobby->runOneBotJob());
  ASSERT_TRUE(p.lobby->runOneBotJob());
  EXPECT_EQ(p.plies(other.id), 2);
  EXPECT_EQ(floodPlies(), 2);
  // Within the flood, its games take turns: no game moves twice before each moved once.
  for (int i = 0; i < 80; ++i) ASSERT_TRUE(p.lobby->runOneBotJob());
  for (const auto& g : flood) EXPECT_GE(p.plies(g.id), 1) << g.id;
}

// The bot's clock starts when a thread starts its search: the time the
// search takes is charged, the time before it is not, and clients see the
// clock run from then.
TEST(ServerBotPool, ABotsClockRunsFromTheStartOfItsSearch) {
  FakeTime* clockOf = nullptr;
  std::function<void(const Game&)> during;
  engine::SearchLimits seen;
  struct SlowBot : testing::FakeBot {
    SlowBot(FakeTime* t, engine::SearchLimits* seen, std::function<void(const Game&)>* during)
        : t_(t), seen_(seen), during_(during) {}
    engine::SearchResult choose(const Game& game, const engine::SearchLimits& limits, std::atomic<bool>& stop,
                                const std::function<void(const engine::SearchInfo&)>& info) override {
      *seen_ = limits;
      if (*during_) (*during_)(game);
      t_->advance(300);  // the search takes 300 ms
      return FakeBot::choose(game, limits, stop, info);
    }
    FakeTime* t_;
    engine::SearchLimits* seen_;
    std::function<void(const Game&)>* during_;
  };
  Pool p([&](std::shared_ptr<const Rules>, int, uint64_t) { return std::make_unique<SlowBot>(clockOf, &seen, &during); });
  clockOf = &p.time;
  auto g = p.create("10.0.0.7", {human(), bot(1)}, ClockSpec{true, 5000, 1000});
  ASSERT_TRUE(p.lobby->find(g.id)->move(g.tokens[0], "e2e4").ok());
  const int64_t queuedAt = p.lobby->find(g.id)->version();
  p.time.advance(2000);
  std::string runningDuringSearch;
  int64_t versionDuringSearch = 0;
  during = [&](const Game&) {
    const Json s = p.state(g.id);
    runningDuringSearch = s.get("clockRunning")->isString() ? s.get("clockRunning")->asString() : "";
    versionDuringSearch = static_cast<int64_t>(s.get("v")->asNumber());
  };
  ASSERT_TRUE(p.lobby->runOneBotJob());
  EXPECT_EQ(runningDuringSearch, "black") << "the clock runs while the bot thinks";
  EXPECT_EQ(versionDuringSearch, queuedAt + 1) << "a state says so";
  EXPECT_EQ(seen.timeMs[1], 5000) << "the bot is given its whole time";
  const Json s = p.state(g.id);
  ASSERT_EQ(testing::movesOf(s).size(), 2u);
  EXPECT_EQ(s.get("seats")->items()[1].get("clockMs")->asNumber(), 5000 - 300 + 1000);
  EXPECT_EQ(s.get("clockRunning")->asString(), "white");
}

// A bot that searches until it is told to stop (or 60 s, a safety bound).
class UntilStoppedBot : public testing::FakeBot {
 public:
  UntilStoppedBot(std::atomic<int>* inside, std::atomic<int>* peak) : inside_(inside), peak_(peak) {}
  engine::SearchResult choose(const Game& game, const engine::SearchLimits& limits, std::atomic<bool>& stop,
                              const std::function<void(const engine::SearchInfo&)>& info) override {
    const int n = ++*inside_;
    for (int p = peak_->load(); n > p && !peak_->compare_exchange_weak(p, n);) {
    }
    const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (!stop && std::chrono::steady_clock::now() < end) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    --*inside_;
    return FakeBot::choose(game, limits, stop, info);  // the first legal move
  }

 private:
  std::atomic<int>* inside_;
  std::atomic<int>* peak_;
};

// With threads: the flood's level-9 bots search until stopped; another
// address's level-1 bot answers all the same, and no clock is lost. With one
// bot thread the flood's search is cut short; with two, games of bots only
// keep to one thread and the other serves the human's game.
void floodWithThreads(int botThreads) {
  SCOPED_TRACE("botThreads " + std::to_string(botThreads));
  VariantRegistry registry = VariantRegistry::withEmbedded();
  MemoryStore store;
  std::atomic<int> inside{0}, peak{0};
  LobbyConfig config;
  config.botThreads = botThreads;
  config.limits.gamesPerClientPerMinute = 0;
  Lobby lobby(registry, store,
              [&](std::shared_ptr<const Rules>, int level, uint64_t) -> std::unique_ptr<engine::Bot> {
                if (level == 9) return std::make_unique<UntilStoppedBot>(&inside, &peak);
                return std::make_unique<testing::FakeBot>();
              },
              config);
  lobby.start();
  for (int i = 0; i < config.limits.botGamesPerClient; ++i) {
    CreateRequest r;
    r.variant = "chess";
    r.seats = {bot(9), bot(9)};
    r.client = "10.0.0.66";
    r.clock = ClockSpec{true, 600000, 0};
    ASSERT_TRUE(lobby.create(r, nullptr).ok());
  }
  ASSERT_TRUE(testing::waitFor([&] { return inside.load() > 0; }, 10000));
  CreateRequest mine;
  mine.variant = "chess";
  mine.seats = {human(), bot(1)};
  mine.client = "10.0.0.7";
  mine.clock = ClockSpec{true, 5000, 0};
  CreatedGame g;
  ASSERT_TRUE(lobby.create(mine, &g).ok());
  auto room = lobby.find(g.id);
  ASSERT_TRUE(room->move(g.tokens[0], "e2e4").ok());
  // A safety bound for a loaded machine, not a measurement: the flood's bots never end by themselves.
  EXPECT_TRUE(testing::waitFor([&] { return room->plies() == 2; }, 10000)) << "the level-1 bot answered";
  const Json s = parsed(room->stateJson(""));
  EXPECT_EQ(s.get("status")->asString(), "ongoing");
  EXPECT_TRUE(s.get("seats")->items()[1].get("outReason")->isNull());
  EXPECT_GT(s.get("seats")->items()[1].get("clockMs")->asNumber(), 0);
  lobby.stop();
  EXPECT_EQ(peak.load(), 1) << "games of bots only keep a thread free";
}

TEST(ServerBotPool, WithThreadsTheFloodIsCutShortForAHumansGame) { floodWithThreads(1); }
TEST(ServerBotPool, WithThreadsGamesOfBotsOnlyLeaveAThreadFree) { floodWithThreads(2); }

}  // namespace
}  // namespace acedrex::server
