// POST /api/analyse (docs/api.md "Analysis"): the bot's evaluation of a
// position, through Api::handle without sockets. Hostile bodies are refused
// with a JSON error (bad FEN 400, fog of war 403); the per-client rate limit
// and one-at-a-time rule answer 429, a busy server (every bot-search slot
// taken) 503, each with retryAfterMs. Time is a hand-moved clock; the busy
// case holds a fake bot inside its search with a latch, not a timer.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <set>
#include <thread>

#include "engine/bot.h"
#include "server/app/api.h"
#include "server/app/lobby.h"
#include "test_support.h"

namespace acedrex::server {
namespace {

using testing::FakeTime;
using testing::parsed;

struct AnalyseFixture {
  explicit AnalyseFixture(BotFactory bots) {
    config.startThreads = false;
    config.botThreads = 1;
    lobby = std::make_unique<Lobby>(registry, store, std::move(bots), config, &time);
    api = std::make_unique<Api>(*lobby, [](int) { return std::string(); });
  }
  ApiResponse post(const std::string& body, const std::string& client = "10.0.0.1",
                   const std::string& target = "/api/analyse") {
    ApiRequest r;
    r.method = "POST";
    r.target = target;
    r.body = body;
    r.client = client;
    return api->handle(r);
  }
  VariantRegistry registry = VariantRegistry::withEmbedded();
  MemoryStore store;
  FakeTime time;
  LobbyConfig config;
  std::unique_ptr<Lobby> lobby;
  std::unique_ptr<Api> api;
};

// Each body refused by `target` with its status and code, a JSON error; GET is 405.
struct Refusal {
  std::string body;
  int status;
  std::string code;
};
void expectRefusals(AnalyseFixture& f, const std::string& target, const std::vector<Refusal>& cases) {
  for (const auto& c : cases) {
    const auto r = f.post(c.body, "10.0.0.1", target);
    EXPECT_EQ(r.status, c.status) << c.body.substr(0, 80) << " -> " << r.body;
    const Json j = parsed(r.body);
    ASSERT_TRUE(j.isObject()) << r.body;
    EXPECT_EQ(j.get("code")->asString(), c.code) << c.body.substr(0, 80);
  }
  ApiRequest get;
  get.method = "GET";
  get.target = target;
  EXPECT_EQ(f.api->handle(get).status, 405);
}

BotFactory realBots() {
  return [](std::shared_ptr<const Rules> rules, int level, uint64_t seed) { return engine::makeBot(rules, level, seed); };
}

TEST(ServerAnalyse, TheBotFindsTheMateInOneAndSaysWhoIsToMove) {
  AnalyseFixture f(realBots());
  // White mates by the queen on the eighth rank (c8 to h8; the king on b6 covers a7 and b7).
  const auto r = f.post(R"({"variant":"chess","fen":"k7/8/1K6/8/8/8/7Q/8 w - - 0 1"})");
  ASSERT_EQ(r.status, 200) << r.body;
  const Json j = parsed(r.body);
  EXPECT_EQ(j.get("toMove")->asString(), "white");
  ASSERT_TRUE(j.get("bestmove")->isString()) << r.body;
  const std::string best = j.get("bestmove")->asString();
  EXPECT_TRUE(best.size() == 4 && best.substr(0, 2) == "h2" && best[3] == '8' && best[2] >= 'c') << best;
  EXPECT_TRUE(j.get("mate")->isNumber()) << r.body;
  EXPECT_EQ(j.get("mate")->asNumber(), 1) << r.body;
  EXPECT_GE(j.get("depth")->asNumber(), 1);
  EXPECT_LE(j.get("depth")->asNumber(), Lobby::kAnalyseDepth);
  EXPECT_TRUE(j.get("pv")->isArray());
}

TEST(ServerAnalyse, HostileAndWrongRequestsGetJsonErrorsNotACrash) {
  AnalyseFixture f(testing::fakeBots());
  expectRefusals(f, "/api/analyse", {
      {"not json", 400, "bad-json"},
      {"[]", 400, "bad-json"},
      {R"({"fen":"8/8/8/8/8/8/8/8 w - - 0 1"})", 400, "bad-variant"},
      {R"({"variant":"chess"})", 400, "bad-fen"},
      {R"({"variant":"chess","fen":7})", 400, "bad-fen"},
      {R"({"variant":"chess","fen":"not a position"})", 400, "bad-fen"},
      {R"({"variant":"chess","fen":"99/8/8/8/8/8/8/8 w - - 0 1"})", 400, "bad-fen"},
      {R"({"variant":"chess","fen":")" + std::string(5000, 'p') + R"("})", 400, "bad-fen"},
      {R"({"variant":"chess","fen":")" + std::string(70000, 'p') + R"("})", 413, "too-large"},
      {R"({"variant":"chess","options":{"x":1},"fen":"8/8/8/8/8/8/8/8 w - - 0 1"})", 400, "bad-options"},
      {R"({"variant":"no-such-game","fen":"8/8/8/8/8/8/8/8 w - - 0 1"})", 400, "bad-variant"},
      // fog of war: no analysis at all (its positions hold what a seat may not see)
      {R"({"variant":"fog-of-war","fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"})", 403, "hidden"},
  });
  // A finished position: no best move, but an answer.
  const auto mated = f.post(R"({"variant":"chess","fen":"k7/1Q6/1K6/8/8/8/8/8 b - - 0 1"})");
  ASSERT_EQ(mated.status, 200) << mated.body;
  EXPECT_TRUE(parsed(mated.body).get("bestmove")->isNull());
  EXPECT_TRUE(parsed(mated.body).get("toMove")->isNull());
}

TEST(ServerAnalyse, RateLimitedPerClientWithRetryAfter) {
  AnalyseFixture f(testing::fakeBots());
  const std::string body = R"({"variant":"chess","fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"})";
  int ok = 0;
  ApiResponse last;
  for (int i = 0; i < 40; ++i) {
    last = f.post(body);
    if (last.status != 200) break;
    ++ok;
  }
  EXPECT_EQ(ok, Lobby::kAnalysesPerMinute / 3);  // the burst, time standing still
  EXPECT_EQ(last.status, 429);
  EXPECT_EQ(parsed(last.body).get("code")->asString(), "rate-limited");
  EXPECT_GT(parsed(last.body).get("retryAfterMs")->asNumber(), 0);
  EXPECT_EQ(f.post(body, "10.0.0.2").status, 200) << "another client is not limited";
  f.time.advance(60000);
  EXPECT_EQ(f.post(body).status, 200) << "the bucket fills again";
}

// ---- POST /api/position: the analysis board's side lines -----------------------

ApiResponse postPosition(AnalyseFixture& f, const std::string& body, const std::string& client = "10.0.0.1") {
  return f.post(body, client, "/api/position");
}

std::string positionBody(const std::string& variant, const std::string& fen, const std::string& move = "") {
  JsonWriter w;
  w.beginObject().key("variant").value(variant).key("fen").value(fen);
  if (!move.empty()) w.key("move").value(move);
  w.endObject();
  return w.take();
}

// Every move text of a "legal" object, and the from-square each is listed under.
std::set<std::string> legalTexts(const Json& legal) {
  std::set<std::string> out;
  for (const auto& [from, list] : legal.members())
    for (const auto& m : list.items()) out.insert(from + " " + m.asString());
  return out;
}
std::set<std::string> coreTexts(Game& g) {
  std::set<std::string> out;
  for (Move m : g.legalMoves())
    out.insert((m.isNull() ? std::string("0000") : g.rules().squareName(m.from())) + " " + g.position().moveText(m));
  return out;
}

TEST(ServerPosition, TheLegalMovesAndTheNextPositionAreTheCoresOnEveryKindOfBoard) {
  AnalyseFixture f(testing::fakeBots());
  // square boards, drops (crazyhouse, shogi), the palace (xiangqi), promotions
  // (shogi), four players on the cross, the six-sided board of three, the die
  // (chaturaji: never thrown on the analysis board) and the duck's two steps.
  for (const std::string variant : {"chess", "crazyhouse", "shogi", "xiangqi", "four-player-chess", "three-player-chess",
                                    "chaturaji", "duck", "grant-acedrex"}) {
    SCOPED_TRACE(variant);
    auto rules = f.lobby->rulesFor(variant, {});
    ASSERT_TRUE(rules.ok());
    Game core(*rules, 1);
    core.throwNoDie();
    ASSERT_TRUE(core.setStart((*rules)->start).ok());
    std::string fen = core.position().text();
    std::string last;
    for (int ply = 0; ply < 12 && !core.finished(); ++ply) {
      const auto r = postPosition(f, positionBody(variant, fen, last), variant);
      ASSERT_EQ(r.status, 200) << r.body;
      const Json j = parsed(r.body);
      EXPECT_EQ(j.get("fen")->asString(), core.position().text());
      EXPECT_EQ(j.get("toMove")->asString(), (*rules)->seats[static_cast<size_t>(core.position().toMove())].name);
      if (last.empty()) EXPECT_TRUE(j.get("lastMove")->isNull());
      else EXPECT_EQ(j.get("lastMove")->asString(), last);
      EXPECT_TRUE(j.get("die")->isNull()) << "no throws on the analysis board";
      size_t onBoard = 0;
      for (int sq = 0; sq < (*rules)->nsq(); ++sq) onBoard += isPiece(core.position().at(sq)) ? 1 : 0;
      // the duck is listed too, a blocker of no seat (docs/api.md "pieces")
      if (const Square duck = core.position().duckSquare(); duck != kNoSquare) {
        ++onBoard;
        const auto& items = j.get("pieces")->items();
        const auto it = std::find_if(items.begin(), items.end(), [](const Json& p) { return p.get("name")->asString() == "duck"; });
        ASSERT_NE(it, items.end());
        EXPECT_EQ(it->get("square")->asString(), (*rules)->squareName(duck));
        EXPECT_TRUE(it->get("seat")->isNull());
        EXPECT_EQ(it->get("letter")->asString(), "*");
      }
      EXPECT_EQ(j.get("pieces")->items().size(), onBoard);
      const auto listed = legalTexts(*j.get("legal"));
      ASSERT_EQ(listed, coreTexts(core));
      ASSERT_FALSE(listed.empty());
      // the next step from the position just answered: a move of the middle of the list
      fen = j.get("fen")->asString();
      const std::string pick = *std::next(listed.begin(), static_cast<long>(listed.size() / 2));
      last = pick.substr(pick.find(' ') + 1);
      ASSERT_TRUE(core.play(last).ok()) << last;
      const std::string afterFen = core.position().text();
      core = Game(*rules, 1);
      core.throwNoDie();
      ASSERT_TRUE(core.setStart(afterFen).ok());
      // the server plays `last` on `fen`; the core's game restarts from the result as the server does
      const auto next = postPosition(f, positionBody(variant, fen, last), variant);
      ASSERT_EQ(next.status, 200) << next.body;
      EXPECT_EQ(parsed(next.body).get("fen")->asString(), afterFen);
      EXPECT_EQ(parsed(next.body).get("move")->asString(), last);
      fen = afterFen;
      last.clear();
    }
  }
}

TEST(ServerPosition, TheDieIsNotThrownSoEveryKindMayMove) {
  AnalyseFixture f(testing::fakeBots());
  auto rules = f.lobby->rulesFor("chaturaji", {{"dice", "on"}});
  ASSERT_TRUE(rules.ok());
  // a seed whose first throw allows fewer moves than the board has
  uint64_t seed = 1;
  auto allMoves = [](const Game& g) {
    std::vector<Move> all;
    Position p = g.position();
    p.legalTurns(all);
    return all;
  };
  for (; seed < 50; ++seed) {
    Game g(*rules, seed);
    if (g.legalMoves().size() < allMoves(g).size()) break;
  }
  Game thrown(*rules, seed);
  const auto all = allMoves(thrown);
  const auto r = postPosition(f, R"({"variant":"chaturaji","options":{"dice":"on"},"fen":")" + thrown.position().text() + R"("})");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(legalTexts(*parsed(r.body).get("legal")).size(), all.size());
  EXPECT_LT(thrown.legalMoves().size(), all.size()) << "a throw allows fewer moves than the board has";
}

TEST(ServerPosition, HostileAndWrongRequestsGetJsonErrorsNotACrash) {
  AnalyseFixture f(testing::fakeBots());
  const std::string start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
  expectRefusals(f, "/api/position", {
      {"not json", 400, "bad-json"},
      {"[]", 400, "bad-json"},
      {R"({"fen":")" + start + R"("})", 400, "bad-variant"},
      {R"({"variant":"chess"})", 400, "bad-fen"},
      {R"({"variant":"chess","fen":"not a position"})", 400, "bad-fen"},
      {R"({"variant":"chess","fen":"99/8/8/8/8/8/8/8 w - - 0 1"})", 400, "bad-fen"},
      {R"({"variant":"chess","fen":")" + std::string(5000, 'p') + R"("})", 400, "bad-fen"},
      {R"({"variant":"chess","fen":")" + std::string(70000, 'p') + R"("})", 413, "too-large"},
      {R"({"variant":"no-such-game","fen":")" + start + R"("})", 400, "bad-variant"},
      {R"({"variant":"chess","options":{"x":1},"fen":")" + start + R"("})", 400, "bad-options"},
      {positionBody("chess", start, "e2e5"), 400, "illegal-move"},
      {positionBody("chess", start, "e7e5"), 400, "illegal-move"},  // not the side to move
      {positionBody("chess", start, "e2-e4"), 400, "illegal-move"}, // another spelling than "legal"'s
      {positionBody("chess", start, std::string(100, 'e')), 400, "illegal-move"},
      {R"({"variant":"chess","fen":")" + start + R"(","move":7})", 400, "illegal-move"},
      {positionBody("chess", "k7/1Q6/1K6/8/8/8/8/8 b - - 0 1", "a8a7"), 400, "illegal-move"},  // mated: no move
      {positionBody("fog-of-war", start), 403, "hidden"},
      {positionBody("fog-of-war", start, "e2e4"), 403, "hidden"},
  });
  // A decided position: an answer with nobody to move and no legal move.
  const auto mated = postPosition(f, positionBody("chess", "k7/1Q6/1K6/8/8/8/8/8 b - - 0 1"));
  ASSERT_EQ(mated.status, 200) << mated.body;
  EXPECT_TRUE(parsed(mated.body).get("toMove")->isNull());
  EXPECT_TRUE(parsed(mated.body).get("legal")->members().empty());
  // A mating move: the answer is the decided position.
  const auto mate = postPosition(f, positionBody("chess", "k7/8/1K6/8/8/8/7Q/8 w - - 0 1", "h2h8"));
  ASSERT_EQ(mate.status, 200) << mate.body;
  EXPECT_TRUE(parsed(mate.body).get("toMove")->isNull());
  EXPECT_EQ(parsed(mate.body).get("lastMove")->asString(), "h2h8");
}

TEST(ServerPosition, RateLimitedPerClientWithRetryAfter) {
  AnalyseFixture f(testing::fakeBots());
  const std::string body = positionBody("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "e2e4");
  int ok = 0;
  ApiResponse last;
  for (int i = 0; i < 200; ++i) {
    last = postPosition(f, body);
    if (last.status != 200) break;
    ++ok;
  }
  EXPECT_EQ(ok, Lobby::kPositionsPerMinute / 10);  // the burst, time standing still
  EXPECT_EQ(last.status, 429);
  EXPECT_EQ(parsed(last.body).get("code")->asString(), "rate-limited");
  EXPECT_GT(parsed(last.body).get("retryAfterMs")->asNumber(), 0);
  EXPECT_EQ(postPosition(f, body, "10.0.0.2").status, 200) << "another client is not limited";
  f.time.advance(1000);
  EXPECT_EQ(postPosition(f, body).status, 200) << "tokens come back";
}

// A bot that waits inside its search until the test lets it go.
class HeldBot : public engine::Bot {
 public:
  HeldBot(std::atomic<bool>* inside, std::atomic<bool>* release) : inside_(inside), release_(release) {}
  std::string name() const override { return "held"; }
  engine::SearchResult choose(const Game& game, const engine::SearchLimits&, std::atomic<bool>&,
                              const std::function<void(const engine::SearchInfo&)>&) override {
    *inside_ = true;
    while (!*release_) std::this_thread::yield();
    engine::SearchResult r;
    Game copy(game);
    const auto legal = copy.legalMoves();
    if (!legal.empty()) r.found = true, r.best = legal.front();
    return r;
  }

 private:
  std::atomic<bool>* inside_;
  std::atomic<bool>* release_;
};

TEST(ServerAnalyse, CountedWithTheBotSearchesAndOneAtATimePerClient) {
  std::atomic<bool> inside{false}, release{false};
  AnalyseFixture f([&](std::shared_ptr<const Rules>, int, uint64_t) { return std::make_unique<HeldBot>(&inside, &release); });
  const std::string body = R"({"variant":"chess","fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"})";
  ApiResponse first;
  std::thread t([&] { first = f.post(body, "10.0.0.1"); });
  ASSERT_TRUE(testing::waitFor([&] { return inside.load(); }));
  const auto same = f.post(body, "10.0.0.1");
  EXPECT_EQ(same.status, 429) << same.body;
  const auto other = f.post(body, "10.0.0.2");
  EXPECT_EQ(other.status, 503) << other.body;  // the one bot-search slot (botThreads = 1) is taken
  EXPECT_EQ(parsed(other.body).get("code")->asString(), "full");
  EXPECT_GT(parsed(other.body).get("retryAfterMs")->asNumber(), 0);
  release = true;
  t.join();
  EXPECT_EQ(first.status, 200) << first.body;
  EXPECT_EQ(f.post(body, "10.0.0.2").status, 200) << "the slot is free again";
}

// The bound of docs/api.md (400 ms for the whole request) is kept by the
// search's limit: what is left of kAnalyseMs once the bot is made, less the
// margin for the rest. Time is a hand-moved clock that the bot factory moves
// as a slow machine would; the limits the bot is given are checked, no timing.
TEST(ServerAnalyse, TheSearchGetsWhatIsLeftOfTheBoundAfterTheBotIsMade) {
  static_assert(Lobby::kAnalyseMs == 400, "docs/api.md promises 400 ms");
  static_assert(Lobby::kAnalyseMarginMs > 0 && Lobby::kAnalyseMarginMs < Lobby::kAnalyseMs);
  int64_t makingMs = 0;
  engine::SearchLimits seen;
  FakeTime* time = nullptr;
  struct Recording : testing::FakeBot {
    explicit Recording(engine::SearchLimits* seen) : seen_(seen) {}
    engine::SearchResult choose(const Game& g, const engine::SearchLimits& limits, std::atomic<bool>& stop,
                                const std::function<void(const engine::SearchInfo&)>& info) override {
      *seen_ = limits;
      return FakeBot::choose(g, limits, stop, info);
    }
    engine::SearchLimits* seen_;
  };
  AnalyseFixture f([&](std::shared_ptr<const Rules>, int level, uint64_t) {
    EXPECT_EQ(level, engine::kFullStrength);
    time->advance(makingMs);
    return std::make_unique<Recording>(&seen);
  });
  time = &f.time;
  const std::string body = R"({"variant":"chess","fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"})";
  struct Case {
    int64_t makingMs;
    int searchMs;
  } cases[] = {{0, 350}, {120, 230}, {349, 1}, {2000, 1}};
  for (const auto& c : cases) {
    SCOPED_TRACE("making the bot took " + std::to_string(c.makingMs) + " ms");
    makingMs = c.makingMs;
    seen = engine::SearchLimits{};
    ASSERT_EQ(f.post(body).status, 200);
    const int want = std::max(c.searchMs, Lobby::kAnalyseMinSearchMs);
    EXPECT_EQ(seen.moveTimeMs, want);
    EXPECT_EQ(seen.moveTimeMs, Lobby::analyseSearchMs(c.makingMs));
    EXPECT_EQ(seen.depth, Lobby::kAnalyseDepth);
    if (c.makingMs + Lobby::kAnalyseMinSearchMs <= Lobby::kAnalyseMs - Lobby::kAnalyseMarginMs) {
      EXPECT_LE(c.makingMs + seen.moveTimeMs + Lobby::kAnalyseMarginMs, Lobby::kAnalyseMs);
    }
    f.time.advance(60000);  // the next analysis is within the rate limit
  }
}

// Searches of games of bots only do not count against analyses: a flood of
// them (one bot thread, held inside its search) leaves analysis open; a
// search of a game with a human seat does count.
TEST(ServerAnalyse, GamesOfBotsOnlyDoNotTakeTheAnalysesSlot) {
  std::atomic<bool> inside{false}, release{false};
  AnalyseFixture f([&](std::shared_ptr<const Rules>, int level, uint64_t) -> std::unique_ptr<engine::Bot> {
    if (level == 9) return std::make_unique<testing::FakeBot>();  // the analysis
    return std::make_unique<HeldBot>(&inside, &release);
  });
  auto seat = [](bool bot) {
    SeatPlan s;
    s.bot = bot;
    s.level = bot ? 3 : 0;
    return s;
  };
  const std::string body = R"({"variant":"chess","fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"})";
  for (bool humanSeat : {false, true}) {
    SCOPED_TRACE(humanSeat ? "a game with a human seat" : "a game of bots only");
    CreateRequest r;
    r.variant = "chess";
    r.seats = {seat(!humanSeat), seat(true)};
    r.client = humanSeat ? "10.0.0.3" : "10.0.0.4";
    CreatedGame g;
    ASSERT_TRUE(f.lobby->create(r, &g).ok());
    if (humanSeat) {
      ASSERT_TRUE(f.lobby->find(g.id)->move(g.tokens[0], "e2e4").ok());
    }
    inside = false;
    release = false;
    std::thread t([&] { f.lobby->runOneBotJob(); });
    ASSERT_TRUE(testing::waitFor([&] { return inside.load(); }));
    const auto r1 = f.post(body, humanSeat ? "10.0.0.5" : "10.0.0.6");
    EXPECT_EQ(r1.status, humanSeat ? 503 : 200) << r1.body;
    release = true;
    t.join();
  }
}

}  // namespace
}  // namespace acedrex::server
