// The engine: it finds mates and wins material, respects limits and levels,
// and handles dice. (The UCI session and the match driver: protocol_test.cpp.)
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "engine/bot.h"
#include "engine/embedded_params.h"
#include "engine/eval.h"
#include "engine/multi.h"
#include "engine/search.h"
#include "engine/search_base.h"
#include "engine/search_util.h"
#include "engine/see.h"
#include "test_util.h"

namespace acedrex::test {
namespace {

std::string best(const std::string& variant, const std::string& fen, int level, engine::SearchLimits limits,
                 const std::vector<std::string>& options = {}) {
  auto r = rules(variant, options);
  Game g(r, 1);
  auto s = g.setStart(fen);
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().text());
  auto bot = engine::makeBot(r, level, 1);
  std::atomic<bool> stop{false};
  auto res = bot->choose(g, limits, stop);
  return res.found ? g.position().moveText(res.best) : "(none)";
}

engine::SearchLimits depth(int d) {
  engine::SearchLimits l;
  l.depth = d;
  return l;
}

TEST(Engine, ShakoMateInOne) {
  EXPECT_EQ(best("shako", "3k6/10/3K6/10/10/10/10/10/10/7R2 w - - 0 1", 9, depth(4)), "h1h10");
}

TEST(Engine, ShakoWinsTheQueen) {
  EXPECT_EQ(best("shako", "4k5/10/10/10/4q5/10/10/10/4R5/4K5 w - - 0 1", 9, depth(4)), "e2e6");
}

TEST(Engine, GrantAcedrexMateInOneWithTheRook) {
  EXPECT_EQ(best("grant-acedrex", "5k6/12/5K6/12/12/12/12/12/12/12/12/R11 w - - 0 1", 9, depth(4)), "a1a12");
}

TEST(Engine, FourSeasonsTakesAnAttackedKing) {
  // Green's rook has the white king in reach along the eighth rank on
  // Green's turn: taking it is a mate (White's pawn turns green), at every
  // depth and level.
  const std::string fen = fen4(*rules("four-seasons"), 'g', "grbw",
                               {{"a8", "gK"}, {"a1", "rK"}, {"h1", "bK"}, {"h8", "wK"}, {"c8", "gR"}, {"h3", "bPn"},
                                {"c2", "rPe"}, {"g6", "wPs"}, {"b6", "gPs"}});
  {
    Position pos = position("four-seasons", fen);
    ASSERT_TRUE(hasMove(pos, "c8h8"));
    ASSERT_GT(pos.countLegal(), 5);  // there are other moves to choose
  }
  for (int d = 1; d <= 3; ++d) EXPECT_EQ(best("four-seasons", fen, 9, depth(d)), "c8h8") << "depth " << d;
  EXPECT_EQ(best("four-seasons", fen, 5, depth(2)), "c8h8");
}

TEST(Engine, JokoFindsTheWinningKingCapture) {
  // Green's rook reaches Red's king, which stands attacked on Green's turn: capturing it wins.
  const std::string fen = fen4(*rules("joko-urtaroak"), 'g', "grbw",
                               {{"a1", "gK"}, {"j1", "rK"}, {"j10", "bK"}, {"a10", "wK"}, {"c1", "gR"}});
  EXPECT_EQ(best("joko-urtaroak", fen, 9, depth(2)), "c1j1");
}

TEST(Engine, FourSeasonsMatesToTakeOverAnArmy) {
  // c8c1 mates Red at its turn start (the rook on h2 covers a2 and b2); Red's
  // knight and rook then turn green. No other move wins anything like it.
  const std::string fen = fen4(*rules("four-seasons"), 'g', "grbw",
                               {{"a8", "gK"}, {"c8", "gR"}, {"h2", "gR"}, {"a1", "rK"}, {"e4", "rN"}, {"e6", "rR"},
                                {"g6", "bK"}, {"h8", "wK"}, {"f7", "wPs"}});
  EXPECT_EQ(best("four-seasons", fen, 9, depth(3)), "c8c1");
}

TEST(Engine, FourSeasonsSeesTheThirdSeatsRecapture) {
  // Taking the black pawn on d3 loses the rook to White's knight, and White
  // moves only after Red and Black: the quiescence search must let every
  // opponent capture before the root seat moves again.
  const std::string fen = fen4(*rules("four-seasons"), 'g', "grbw",
                               {{"a8", "gK"}, {"d8", "gR"}, {"a1", "rK"}, {"h1", "bK"}, {"d3", "bPn"}, {"h8", "wK"},
                                {"c1", "wN"}});
  for (int d : {1, 2, 3}) EXPECT_NE(best("four-seasons", fen, 9, depth(d)), "d8d3") << "depth " << d;
}

TEST(Engine, JokoDoesNotOpenTheFileToAMate) {
  // From a game: a3b1 opens the a-file and White's rook mates at once (a8a2).
  // Four seats deep every move looks lost to the opponents' combined best
  // replies; a move that only ties such a score must not be taken for it.
  const std::string fen =
      "g-grbw-*-3-25-1,wK,1,wPe,1,bB,bPw,1,bR,1/wN,wG,wE,wPe,1,bPw,1,bE,bG,bK/wR,wE,6,bE,bN/1,wB,1,x,x,x,x,3/"
      "1,wPs,1,x,x,x,x,1,bPs,bPs/1,gPn,1,x,x,x,x,3/3,x,x,x,x,1,rPn,rPn/gN,gE,gB,2,rB,2,rE,rR/"
      "gE,gG,1,gPe,1,rPw,1,rE,rG,1/gK,1,gR,2,gPe,rPw,rN,rK,1";
  for (int d : {2, 3, 4}) EXPECT_NE(best("joko-urtaroak", fen, 9, depth(d)), "a3b1") << "depth " << d;
}

TEST(Engine, FourSeasonsPutsOutABareKing) {
  // d5a5 mates Red's bare king (Green's king covers b1 and b2) and c2b3
  // stalemates it (Black's rook covers b1): no army is handed over, but a
  // seat fewer is worth more than the pawn d5f5 wins. (With the opponents'
  // average over the seats still in, putting out the weakest raised it and
  // the pawn was taken.)
  auto r = rules("four-seasons");
  const std::string fen = fen4(*r, 'g', "grbw",
                               {{"c2", "gK"}, {"d5", "gR"}, {"a1", "rK"}, {"h1", "bK"}, {"g1", "bR"},
                                {"h2", "bN"}, {"f5", "bPn"}, {"h8", "wK"}, {"g8", "wR"}, {"h7", "wN"}});
  for (int d : {1, 2, 3}) {
    Game g(r, 1);
    ASSERT_TRUE(g.setStart(fen).ok());
    const std::string move = best("four-seasons", fen, 9, depth(d));
    ASSERT_TRUE(g.play(move).ok()) << move;
    EXPECT_FALSE(g.position().isIn(1)) << "depth " << d << ": " << move;
  }
}

// The many-seat search's static score of a four-seat position for its seat to move.
int multiScore(const std::string& variant, const std::string& fen) {
  auto r = rules(variant);
  Position pos(r);
  EXPECT_TRUE(pos.set(fen).ok());
  engine::Evaluator eval(r, engine::defaultEvalParams(*r));
  engine::MultiSearch search(r, eval, engine::SearchConfig{}, engine::MultiAlgorithm::kBrsPlus);
  return search.staticScore(pos, pos.toMove());
}

TEST(Engine, FourSeasonsDrivesABareKingToTheEdge) {
  // Green's rook against Red's bare king (and a knight each for Black and
  // White): Red's king on the edge is worth more to Green than the same king
  // in the middle, the same distance from Green's.
  auto r = rules("four-seasons");
  auto with = [&](const std::string& red) {
    return multiScore("four-seasons", fen4(*r, 'g', "grbw",
                                           {{"c3", "gK"}, {"b7", "gR"}, {red, "rK"}, {"h1", "bK"}, {"h3", "bN"},
                                            {"h8", "wK"}, {"f8", "wN"}}));
  };
  EXPECT_GE(with("e1") - with("e5"), 60);
}

TEST(Engine, TheGripOnTheRootSeatsOwnKing) {
  // In the ending, Red's rook on the b-file takes two of the three squares of
  // Green's king in the corner; far away it takes none. In Joko, where the
  // first mate ends the game and the root seat's king is all it can lose,
  // the grip counts three times.
  auto cost = [](const std::string& variant, const std::map<std::string, std::string>& others) {
    auto r = rules(variant);
    auto with = [&](const std::string& rook) {
      auto cells = others;
      cells["a1"] = "gK";
      cells[rook] = "rR";
      return multiScore(variant, fen4(*r, 'g', "grbw", cells));
    };
    return with("h5") - with("b5");
  };
  EXPECT_GE(cost("four-seasons", {{"h4", "gR"}, {"c8", "rK"}, {"h1", "bK"}, {"f8", "wK"}}), 40);
  EXPECT_GE(cost("joko-urtaroak", {{"h3", "gR"}, {"j1", "rK"}, {"j10", "bK"}, {"a10", "wK"}}), 120);
}

TEST(Engine, JokoPressesTheNextSeatsKingHardest) {
  // Two kings gripped alike: with no seat favoured the pressure is the mean
  // of their sum and the best; the favoured seat's grip counts three times.
  const std::array<int, kMaxSeats> grips{0, 54, 0, 54};
  EXPECT_EQ(engine::combinedPressure(grips, -1), (108 + 2 * 54) / 3);
  EXPECT_EQ(engine::combinedPressure(grips, 1), (4 * 54 + 2 * 3 * 54) / 3);
  EXPECT_EQ(engine::combinedPressure(grips, 1), engine::combinedPressure(grips, 3));
  EXPECT_EQ(engine::combinedPressure({}, 1), 0);
}

TEST(Engine, JokoScoresAThirdPartyMateAsALossShortOfAMate) {
  // Green's knight uncovers Black's rook on Red's king: Black mates and wins.
  // For Black a win, for Red a mate lost; Green, still in but not first, is
  // scored kThirdPartyMate below an even game.
  auto r = rules("joko-urtaroak");
  Game g(r, 1);
  ASSERT_TRUE(g.setStart(fen4(*r, 'g', "grbw",
                              {{"a10", "gK"}, {"d1", "gN"}, {"a1", "rK"}, {"h1", "bR"}, {"h9", "bK"}, {"j2", "wR"},
                               {"j5", "wK"}}))
                  .ok());
  ASSERT_TRUE(g.play("d1c3").ok());
  ASSERT_TRUE(g.finished());
  engine::Evaluator eval(r, engine::defaultEvalParams(*r));
  engine::MultiSearch search(r, eval, engine::SearchConfig{}, engine::MultiAlgorithm::kBrsPlus);
  EXPECT_EQ(search.finishedScore(g.position(), 2), engine::kMate);
  EXPECT_LT(search.finishedScore(g.position(), 1), -engine::kMateBound);
  EXPECT_EQ(search.finishedScore(g.position(), 0), -engine::kThirdPartyMate);
  EXPECT_EQ(search.finishedScore(g.position(), 3), -engine::kThirdPartyMate);
  // A stalemate is no third-party mate: Red stalemated at its turn start, the
  // other three share first place, a draw (0) for each of them.
  Game stale(r, 1);
  ASSERT_TRUE(stale.setStart(fen4(*r, 'r', "grbw",
                                  {{"a10", "gK"}, {"a2", "gR"}, {"h3", "gN"}, {"j1", "rK"}, {"j10", "bK"},
                                   {"c10", "wK"}}))
                  .ok());
  ASSERT_TRUE(stale.finished());
  for (int seat : {0, 2, 3}) EXPECT_EQ(search.finishedScore(stale.position(), seat), 0) << seat;
}

TEST(Engine, BestReplySearchWindowsKeepTheRootScore) {
  // The windowed search of the root moves (each after the first with the
  // best score so far as the lower bound, alpha-beta in both layers below)
  // must give the root the score that searching every root move with the
  // full window gives (the weaker levels' way; 1 cp of noise turns it on
  // and can shift the chosen score by 2 cp at most). Depth 3 has no
  // reductions.
  const std::vector<std::pair<std::string, std::string>> games = {
      {"joko-urtaroak",
       "a1a2 i3i1 j10j9 b7b6 c1b1 i4i5 h9h7 b8b10 d1e1 h3j5 h7h5 c8b7 b3d3 j5i4 j8i10 a8c8 b1c1 i4h5 i7i6 "
       "d10e10 b4b5 h5i4 i8g8 c10e9 c3b4 h2j2 h10h9 c9c7"},
      {"joko-urtaroak",
       "a1a2 j4j5 g10f10 a10b10 c1a1 i3i5 h9j9 b7b6 d1e1 h1g3 i8i10 c8a6 e1f1 g2f2 j7j6 d10e10 d2e2 i5i3 j9j7 "
       "b8d8 b4b5 g3h5 j8h9 a6b7 c3b4 j1i1 i10i8 d8d10 b3d3 i4i5 i8g8 b9g8 d3f3 h3i4 j10i10 d10d8 a1d1 i5i6 "
       "h10g10 b10b9 d1d3 i3g3 i10h10 b9b10 a3c4 i6j7 i9j7 g8h7 c4e3 h5j6 i7j6 h7g8 e3d1 j3i3 j7i9 c10a9"},
      {"four-seasons",
       "a7b5 b2d4 h2g4 g7e5 b5d4 c2d2 g4e5 h8g7 b7d5 a2b4 h3h4 h6h5 b8b7 b4d5 g2e4 g8h8 d4c2 a1a2 e4g6 h8g8 "
       "a6a5 a2b2 h1h2 g8h8 c2d4 b2a2 h2h1 f7e7 d4b5 a3a4 h1h2 h8g8 b5c3 d5c3 g1h1 g8h8 c7d7 c3b5 g6e4 h8g8"},
      {"four-seasons",
       "a6a5 a2c3 h3h4 g7e5 c7d7 c3a4 g2e4 e5c3 b7d5 a4c3 e4c2 f7e7 d5b3 b2d4 g1g2 h8g7 a8b7 b1b3 h2g4 h6h5 "
       "b7a8 b3b2 g4e3 f8e8 b8b7 a1a2 f2e2 e8d8 b6b5 c3b1 f1e1 g8f8 b7b8 b2b3 e3d1 g7h6 a5a4 b3b2 c2e4 f8f7"}};
  for (const auto& [variant, line] : games) {
    auto r = rules(variant);
    engine::Evaluator eval(r, engine::defaultEvalParams(*r));
    Game g(r, 1);
    std::istringstream in(line);
    std::string mv;
    while (in >> mv) ASSERT_TRUE(g.play(mv).ok()) << mv;
    const auto scoreWith = [&](int noise) {
      engine::SearchConfig config;
      config.noise = noise;
      config.ttMegabytes = 4;
      engine::MultiSearch search(r, eval, config, engine::MultiAlgorithm::kBrsPlus);
      std::atomic<bool> stop{false};
      return search.run(g, depth(3), stop, {}).info.score;
    };
    const int windowed = scoreWith(0);
    EXPECT_NEAR(windowed, scoreWith(1), 2) << variant << ": " << line;
  }
}

TEST(Engine, FourSeasonsDrawsByTheFiftyRoundsWhenBehind) {
  // Green's bare king against three rooks, 199 plies without a capture or a
  // pawn move: any move draws by the fifty rounds (200 plies with four seats
  // in), which the search scores as a draw.
  auto r = rules("four-seasons");
  Game g(r, 1);
  ASSERT_TRUE(g.setStart(fen4(*r, 'g', "grbw",
                              {{"d5", "gK"}, {"a1", "rK"}, {"b1", "rR"}, {"h1", "bK"}, {"g1", "bR"}, {"h8", "wK"},
                               {"g8", "wR"}},
                              199))
                  .ok());
  auto bot = engine::makeBot(r, 9, 1);
  std::atomic<bool> stop{false};
  const auto res = bot->choose(g, depth(2), stop);
  ASSERT_TRUE(res.found);
  EXPECT_EQ(res.info.score, 0);
}

TEST(Engine, LateMoveReductions) {
  // Only quiet moves after the first three, with three plies left or more:
  // the depth-limited levels (depth 3 at most) search as before.
  EXPECT_EQ(engine::lateMoveReduction(3, 3, true), 1);
  EXPECT_EQ(engine::lateMoveReduction(8, 20, true), 1);
  EXPECT_EQ(engine::lateMoveReduction(2, 20, true), 0);
  EXPECT_EQ(engine::lateMoveReduction(5, 2, true), 0);
  EXPECT_EQ(engine::lateMoveReduction(5, 10, false), 0);
}

TEST(Engine, NodeLimitIsRespected) {
  auto r = rules("shako");
  Game g(r, 1);
  auto bot = engine::makeBot(r, 9, 1);
  std::atomic<bool> stop{false};
  engine::SearchLimits l;
  l.nodes = 5000;
  auto res = bot->choose(g, l, stop);
  EXPECT_TRUE(res.found);
  EXPECT_LE(res.info.nodes, 5000u + 2048u);
}

TEST(Engine, StopFlagEndsAnInfiniteSearch) {
  auto r = rules("grant-acedrex");
  Game g(r, 1);
  auto bot = engine::makeBot(r, 9, 1);
  std::atomic<bool> stop{true};  // already stopped: returns at once with a legal move
  engine::SearchLimits l;
  l.infinite = true;
  auto res = bot->choose(g, l, stop);
  ASSERT_TRUE(res.found);
  EXPECT_TRUE(g.position().moveText(res.best).size() >= 4);
}

TEST(Engine, LevelsAreDeterministicForASeed) {
  auto r = rules("four-seasons");
  for (int level : {1, 4}) {
    std::string a, b;
    for (std::string* out : {&a, &b}) {
      Game g(r, 7);
      auto bot = engine::makeBot(r, level, 42);
      std::atomic<bool> stop{false};
      for (int i = 0; i < 8 && !g.finished(); ++i) {
        auto res = bot->choose(g, engine::SearchLimits{}, stop);
        ASSERT_TRUE(res.found);
        const std::string m = g.position().moveText(res.best);
        ASSERT_TRUE(g.play(m).ok()) << m;
        *out += m + " ";
      }
    }
    EXPECT_EQ(a, b) << "level " << level;
  }
}

// The search tree, pinned: with a fixed seed and depth and no time limit,
// each search must choose the same move with the same score after the same
// number of nodes. A change to move ordering, pruning, the table or the
// evaluation changes these figures; if that change is meant, record them
// again and say so in the commit. The figures below were recorded from the
// engine with the search of continuation and capture histories, clustered
// table, singular extensions and ProbCut (2026-12-07). Each case searches its
// position, plays the move found and searches again with the same search
// object, so that what one search leaves to the next (the table, history,
// killers) is pinned too.
struct TreeCase {
  std::string variant;
  std::vector<std::string> options;
  std::string fen;    // empty: the start
  std::string moves;  // played from there
  const char* algo;   // "two", or a MultiAlgorithm: "brs", "paranoid", "maxn"
  int depth;
  int noise;
  bool chance;
  std::string expected;  // "move score nodes pv; ..." for each search
};

std::string searchFigures(const TreeCase& c) {
  auto r = rules(c.variant, c.options);
  Game g(r, 1);
  if (!c.fen.empty()) {
    EXPECT_TRUE(g.setStart(c.fen).ok()) << c.fen;
  }
  if (!c.moves.empty()) {
    EXPECT_TRUE(g.playAll(c.moves).ok()) << c.moves;
  }
  engine::Evaluator eval(r, engine::defaultEvalParams(*r));
  engine::SearchConfig config;
  config.seed = 5;
  config.noise = c.noise;
  config.chanceNodes = c.chance;
  config.ttMegabytes = 4;
  const std::string algo = c.algo;
  std::unique_ptr<engine::Search> two;
  std::unique_ptr<engine::MultiSearch> multi;
  if (algo == "two")
    two = std::make_unique<engine::Search>(r, eval, config);
  else
    multi = std::make_unique<engine::MultiSearch>(r, eval, config,
                                                  algo == "brs"        ? engine::MultiAlgorithm::kBrsPlus
                                                  : algo == "paranoid" ? engine::MultiAlgorithm::kParanoid
                                                                       : engine::MultiAlgorithm::kMaxN);
  engine::SearchLimits limits;
  limits.depth = c.depth;
  std::string out;
  // Two searches that find a move (a lost turn to a throw is recorded and played as well).
  for (int i = 0, found = 0; found < 2 && i < 8 && !g.finished(); ++i) {
    std::atomic<bool> stop{false};
    const auto res = two ? two->run(g, limits, stop, {}) : multi->run(g, limits, stop, {});
    if (!res.found) break;
    const std::string m = g.position().moveText(res.best);
    if (!res.best.isNull()) ++found;
    if (i) out += "; ";
    out += m + " " + std::to_string(res.info.score) + " " + std::to_string(res.info.nodes);
    Position p = g.position();
    for (Move pv : res.info.pv) {
      out += " " + p.moveText(pv);
      p.make(pv);
    }
    EXPECT_TRUE(g.play(m).ok()) << m;
  }
  return out;
}

TEST(SearchTree, FixedDepthSearchesKeepTheirFigures) {
  const std::string jokoMid =
      "g-grbw-*-3-25-1,wK,1,wPe,1,bB,bPw,1,bR,1/wN,wG,wE,wPe,1,bPw,1,bE,bG,bK/wR,wE,6,bE,bN/1,wB,1,x,x,x,x,3/"
      "1,wPs,1,x,x,x,x,1,bPs,bPs/1,gPn,1,x,x,x,x,3/3,x,x,x,x,1,rPn,rPn/gN,gE,gB,2,rB,2,rE,rR/"
      "gE,gG,1,gPe,1,rPw,1,rE,rG,1/gK,1,gR,2,gPe,rPw,rN,rK,1";
  const std::string fsMoves = "c7d7 a2b4 h3h4 g6g5 c8d8 b4a6 g2e4 g5h4 b8c8 c2d2 g3h4 f8e8";
  const std::string jokoMoves = "d1e1 h1g3 h10i10 a7a6 a1b1 j1i1 g10f10 a10a9";
  // clang-format off
  const std::vector<TreeCase> cases = {
      {"shako", {}, "", "", "two", 6, 0, true,
       "i3i5 14 7851 i3i5 e8e6 e3e5 b8b6 a3a5 a8a6 a5b6 b9b6; j8j6 -10 8951 j8j6 e3e5 i8i6 a3a5 e8e6 b3b5 j6i5 i2i5"},
      {"shako", {}, "4kc3c/ernbq1b1re/ppp3p1pp/3p2pp2/4p5/5P4/2PN2P3/PP1PP2PPP/ER1BQKBNR1/5C3C w KQ - 0 9", "", "two", 6, 0, true,
       "f5e6 -59 12068 f5e6 g9a3 b2b1 i9f9 h2f3 d7e6 h3h5; g9a3 63 4438 g9a3 b2b1 i9f9 g2f3 d7e6 f2g2 d9f7"},
      {"shako", {}, "c8c/1rnbqkbnre/p1pp1ppppp/2e1p5/10/1pP7/1B1N2P3/PP1PPP1PPP/ER2QKBNRE/C8C w KQkq - 1 5", "", "two", 4, 30, true,
       "h3h5 -37 49932 h3h5 d8d6 f3f4 d6c5 b4c5; d8d6 41 35059 d8d6 f3f4 i8i6 i3i5 d6c5 b4c5"},
      {"grant-acedrex", {}, "", "", "two", 5, 0, true,
       "e4e6 26 4113 e4e6 e9e7 a4a6 k9k7 k4k6; e9e7 -21 6489 e9e7 a4a6 k9k7 h4h5 l9l8"},
      {"grant-acedrex", {}, "rlugcakcgul1/12/11r/p1pp1pp1pppp/4p2p4/1p10/1P4P5/5P6/P1PPP2PPPPP/3U8/12/RL1GCAKCGULR w JDjd - 0 5", "", "two", 5, 0, true,
       "e4e6 50 4059 e4e6 a9a8 a4a6 b7a6 a1a6; a9a8 -27 9426 a9a8 a4a6 b7a6 a1a6 e12j7"},
      {"grant-acedrex", {"die=on"}, "", "", "two", 4, 0, true,
       "f1g2 -18 49086 f1g2; e9e7 59 48074 e9e7 h4h6 h9h7 f4f6 e7f6 g2f6 c12h6 f6h7"},
      {"grant-acedrex", {"die=on"}, "rlugcakcgulr/12/12/pppp1pp2ppp/4p7/8p3/3PP7/12/PPP2PPPP1PP/12/12/RLUGCAKCGULR w Jj - 0 5", "", "two", 4, 0, false,
       "f1d2 -63 917 f1d2 j12g8 c1h7 c12f8; b9b8 24 1471 b9b8 c1h7 j12g8 b1e2"},
      {"four-seasons", {}, "", "", "brs", 4, 0, true,
       "c8d8 -29 3032 c8d8; c1d1 -37 9927 c1d1"},
      {"four-seasons", {}, "", fsMoves, "brs", 4, 0, true,
       "d7e7 -112 9304 d7e7; a3a4 105 8182 a3a4"},
      {"four-seasons", {}, "", fsMoves, "paranoid", 3, 0, true,
       "d7e7 -110 908 d7e7; b2d4 117 947 b2d4"},
      {"four-seasons", {}, "", fsMoves, "maxn", 2, 0, true,
       "d7e8 -42 169 d7e8; a1a2 123 180 a1a2"},
      {"four-seasons", {"die=on"}, "", "", "brs", 4, 0, true,
       "c8d8 23 4366 c8d8; 0000 0 0; 0000 0 0; f8e8 15 10883 f8e8"},
      {"four-seasons", {"die=on"}, "", "", "paranoid", 3, 0, true,
       "c8d8 26 664 c8d8; 0000 0 0; 0000 0 0; f8e8 16 824 f8e8"},
      {"joko-urtaroak", {}, "", jokoMoves, "brs", 4, 0, true,
       "b1a2 -31 10259 b1a2; j4j5 -28 8645 j4j5"},
      {"joko-urtaroak", {}, jokoMid, "", "brs", 3, 20, true,
       "a2a4 -385 31701 a2a4; f3e2 -58 58393 f3e2"},
  };
  // clang-format on

  for (const TreeCase& c : cases)
    EXPECT_EQ(searchFigures(c), c.expected)
        << c.variant << " " << c.algo << " depth " << c.depth << " " << c.fen << c.moves;
}

TEST(Engine, DieGameMovesOnlyTheThrownKind) {
  auto r = rules("grant-acedrex", {"die=on"});
  Game g(r, 3);
  auto bot = engine::makeBot(r, 5, 1);
  std::atomic<bool> stop{false};
  for (int i = 0; i < 12 && !g.finished(); ++i) {
    const int type = g.currentThrowType();
    auto res = bot->choose(g, depth(2), stop);
    ASSERT_TRUE(res.found);
    if (!res.best.isNull()) {
      EXPECT_EQ(typeOf(g.position().at(res.best.from())), type);
    }
    ASSERT_TRUE(g.play(res.best).ok());
  }
}

TEST(Engine, ChanceFacesAverageAsWinningChances) {
  // One face of eight takes the king, the others are level: a small edge, not
  // an eighth of a mate score (3750 centipawns).
  engine::FaceAverage oneWin;
  oneWin.add(engine::kMate - 3);
  for (int i = 0; i < 7; ++i) oneWin.add(0);
  EXPECT_GT(oneWin.value(), 0);
  EXPECT_LT(oneWin.value(), 1000);
  // Level faces average to level, and one face's edge is mirrored by the other's.
  engine::FaceAverage mirrored;
  mirrored.add(300);
  mirrored.add(-300);
  EXPECT_EQ(mirrored.value(), 0);
  // Every face a win: still a mate score.
  engine::FaceAverage allWins;
  allWins.add(engine::kMate - 3);
  allWins.add(engine::kMate - 5);
  EXPECT_GT(allWins.value(), engine::kMateBound);
  // A face's loss of the king weighs as one lost game in eight.
  engine::FaceAverage oneLoss;
  oneLoss.add(-(engine::kMate - 2));
  for (int i = 0; i < 7; ++i) oneLoss.add(0);
  EXPECT_EQ(oneLoss.value(), -oneWin.value());
}

// The move chosen by the full-strength bot, with or without chance nodes,
// after the first seed whose first throw is `face`.
std::string bestUnderThrow(const std::string& fen, int face, bool chanceNodes, int d) {
  auto r = rules("grant-acedrex", {"die=on"});
  for (uint64_t seed = 1; seed < 200; ++seed) {
    Game g(r, seed);
    EXPECT_TRUE(g.setStart(fen).ok());
    if (g.currentThrow() != face) continue;
    auto bot = engine::makeBotWith(r, 9, 1, engine::MultiAlgorithm::kBrsPlus, chanceNodes);
    std::atomic<bool> stop{false};
    auto res = bot->choose(g, depth(d), stop);
    return res.found ? g.position().moveText(res.best) : "(none)";
  }
  return "(no seed throws " + std::to_string(face) + ")";
}

TEST(Engine, ChanceBotChecksWhenFewThrowsAnswerTheCheck) {
  // The throw is the rook (5). After Rl3+ only the king face answers the
  // check; on the seven others Black loses the turn and the throws race, the
  // rook face taking the king before the king face answers about half the
  // time. That is worth more than the rhinoceros that Rxc10 wins, which is
  // what the bot that takes the throws as free sees.
  const std::string fen = fenFromPieces(12, 12, {{"a1", 'K'}, {"c3", 'R'}, {"l12", 'k'}, {"c10", 'u'}}, "w - - 0 1");
  for (int d : {2, 4}) {
    EXPECT_EQ(bestUnderThrow(fen, 5, true, d), "c3l3") << "depth " << d;
    EXPECT_EQ(bestUnderThrow(fen, 5, false, d), "c3c10") << "depth " << d;
  }
}

TEST(Engine, ChanceBotTakesMaterialWhenManyThrowsAnswerTheCheck) {
  // The same with an aanca to win, but the aanca, a crocodile, a lion, a
  // giraffe and a rook can each block the check on the l-file: six faces of
  // eight answer it, the race is short, and the aanca is worth more.
  const std::string fen = fenFromPieces(12, 12,
                                        {{"f1", 'K'}, {"c3", 'R'}, {"l12", 'k'}, {"c10", 'a'}, {"h1", 'c'},
                                         {"i7", 'l'}, {"j5", 'g'}, {"a11", 'r'}},
                                        "w - - 0 1");
  for (int d : {2, 4}) EXPECT_EQ(bestUnderThrow(fen, 5, true, d), "c3c10") << "depth " << d;
}

TEST(Engine, FourSeasonsChanceNodesWeighTheThrowsThatMate) {
  // Green must move its knight (the throw). Red's rook mates Green on h1
  // (the alfils on a2 and b2 box the king in and cannot block the first
  // rank), but only on a rook throw, one of six; on the others Red moves its
  // king or loses the turn. Searching the throws as if free, Green is mated;
  // with the opponents' next throws as chance nodes, Green is worse but far
  // from lost, and not by a mate score averaged as centipawns (about 5000).
  auto r = rules("four-seasons", {"die=on"});
  const std::string fen = fen4(*r, 'g', "grbw",
                               {{"a1", "gK"}, {"a2", "gA"}, {"b2", "gA"}, {"a8", "gN"}, {"h8", "rR"},
                                {"c5", "rK"}, {"f5", "bK"}, {"e7", "wK"}});
  auto scoreWith = [&](bool chanceNodes) {
    for (uint64_t seed = 1; seed < 200; ++seed) {
      Game g(r, seed);
      EXPECT_TRUE(g.setStart(fen).ok());
      if (g.currentThrow() != 3) continue;  // the knight
      auto bot = engine::makeBotWith(r, 9, 1, engine::MultiAlgorithm::kParanoid, chanceNodes);
      std::atomic<bool> stop{false};
      return bot->choose(g, depth(4), stop).info.score;
    }
    ADD_FAILURE() << "no seed throws the knight";
    return 0;
  };
  EXPECT_LT(scoreWith(false), -engine::kMateBound);
  const int withChance = scoreWith(true);
  EXPECT_GT(withChance, -2500);
  EXPECT_LT(withChance, -100);
}

TEST(Engine, EvalParamsRoundTrip) {
  auto r = rules("shako");
  const auto p = engine::defaultEvalParams(*r);
  auto back = engine::parseEvalParams(p.toText("shako"));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->toText("shako"), p.toText("shako"));
  EXPECT_FALSE(engine::parseEvalParams("piece Q x").ok());
  EXPECT_FALSE(engine::parseEvalParams("nonsense 3").ok());
}

TEST(Engine, EvalParamsFileNamesTheOtherVariantsItServes) {
  auto p = engine::parseEvalParams("variants fischerandom other\npiece Q 950 2\n");
  ASSERT_TRUE(p.ok()) << p.error().text();
  EXPECT_EQ(p->alsoFor, (std::vector<std::string>{"fischerandom", "other"}));
  auto back = engine::parseEvalParams(p->toText("chess"));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->alsoFor, p->alsoFor);
  EXPECT_FALSE(engine::parseEvalParams("variants\n").ok());
  // Chess960 has no file of its own: it takes chess's, not the values by reach.
  const auto chess = engine::defaultEvalParams(*rules("chess"));
  const auto c960 = engine::defaultEvalParams(*rules("fischerandom"));
  EXPECT_EQ(c960.toText("x"), chess.toText("x"));
  EXPECT_EQ(chess.pieces.at('B').value, 330);
  // Every embedded file parses, and a variant it names has no file of its own.
  for (const auto& [name, text] : embeddedParamFiles()) {
    auto f = engine::parseEvalParams(text);
    ASSERT_TRUE(f.ok()) << name << ": " << f.error().text();
    for (const auto& other : f->alsoFor) {
      EXPECT_NE(rules(other), nullptr) << name << " names " << other;
      for (const auto& [name2, text2] : embeddedParamFiles()) EXPECT_NE(name2, other) << name << " names " << other;
    }
  }
}

TEST(Engine, PawnShieldCountsThePawnsInFrontOfTheKing) {
  // Only the king shelter term is on, so the scores differ by the shield alone.
  auto params = engine::parseEvalParams(
      "piece K 0 0\npiece Q 900 0\npiece R 500 0\npiece B 300 0\npiece N 300 0\npiece E 250 0\n"
      "piece C 300 0\npiece P 100 0\npawn-advance 0\nking-center-opening 0\nking-center-ending 0\n"
      "king-shelter 10\nking-danger 0\nking-zone 0\npawn-threat 0\nhanging 0\npassed-pawn 0\ntempo 0\n");
  ASSERT_TRUE(params.ok()) << params.error().text();
  auto r = rules("shako");
  const engine::Evaluator ev(r, *params);
  auto white = [&](const std::string& fen) {
    Position p(r);
    EXPECT_TRUE(p.set(fen).ok()) << fen;
    return ev.seatScore(p, 0);
  };
  const int home = white("c8c/ernbqkbnre/pppppppppp/10/10/10/10/PPPPPPPPPP/ERNBQKBNRE/C8C w KQkq - 0 1");
  const int oneUp = white("c8c/ernbqkbnre/pppppppppp/10/10/10/5P4/PPPPP1PPPP/ERNBQKBNRE/C8C w KQkq - 0 1");
  const int twoUp = white("c8c/ernbqkbnre/pppppppppp/10/10/5P4/10/PPPPP1PPPP/ERNBQKBNRE/C8C w KQkq - 0 1");
  const int aside = white("c8c/ernbqkbnre/pppppppppp/10/10/10/P9/1PPPPPPPPP/ERNBQKBNRE/C8C w KQkq - 0 1");
  EXPECT_EQ(home - oneUp, 10);  // the f-pawn two steps ahead is worth 1 point, not 2
  EXPECT_EQ(home - twoUp, 20);  // and beyond that nothing
  EXPECT_EQ(home, aside);       // a pawn away from the king's lanes does not count
}

// The evaluation with every term off but the ones given (mobility 0 too).
engine::Evaluator onlyTerms(const std::shared_ptr<const Rules>& r, const std::string& terms) {
  auto params = engine::parseEvalParams(
      "piece K 0 0\npiece Q 900 0\npiece R 500 0\npiece B 300 0\npiece N 300 0\npiece E 250 0\n"
      "piece C 300 0\npiece P 100 0\npawn-advance 0\nking-center-opening 0\nking-center-ending 0\n"
      "king-shelter 0\nking-danger 0\nking-zone 0\npawn-threat 0\nhanging 0\npassed-pawn 0\ntempo 0\n" + terms);
  EXPECT_TRUE(params.ok()) << params.error().text();
  return engine::Evaluator(r, params.ok() ? *params : engine::EvalParams{});
}

TEST(Engine, PawnStructureAndOpenLanes) {
  auto r = rules("shako");
  auto white = [&](const engine::Evaluator& ev, const std::map<std::string, char>& pieces) {
    Position p(r);
    EXPECT_TRUE(p.set(fenFromPieces(10, 10, pieces, "w - - 0 1")).ok());
    return ev.seatScore(p, 0);
  };
  const std::map<std::string, char> kings = {{"a1", 'K'}, {"j10", 'k'}};
  auto with = [&](std::map<std::string, char> more) {
    more.insert(kings.begin(), kings.end());
    return more;
  };
  const auto doubled = onlyTerms(r, "doubled-pawn 7\n");
  // Two white pawns on the e-file: each pays; side by side they do not.
  EXPECT_EQ(white(doubled, with({{"e3", 'P'}, {"e5", 'P'}})) - white(doubled, with({{"e3", 'P'}, {"f3", 'P'}})), -14);
  const auto isolated = onlyTerms(r, "isolated-pawn 5\n");
  EXPECT_EQ(white(isolated, with({{"c3", 'P'}, {"e3", 'P'}})) - white(isolated, with({{"d3", 'P'}, {"e3", 'P'}})), -10);
  const auto lanes = onlyTerms(r, "open-lane 11\nclear-lane 4\n");
  // The rook on e1: behind its own pawn nothing, before a black pawn only open, on an empty file both.
  const int own = white(lanes, with({{"e1", 'R'}, {"e3", 'P'}, {"c7", 'p'}}));
  const int half = white(lanes, with({{"e1", 'R'}, {"c3", 'P'}, {"e7", 'p'}}));
  const int clear = white(lanes, with({{"e1", 'R'}, {"c3", 'P'}, {"c7", 'p'}}));
  EXPECT_EQ(half - own, 11);
  EXPECT_EQ(clear - own, 15);
  // A knight is no lane slider.
  EXPECT_EQ(white(lanes, with({{"e1", 'N'}, {"c3", 'P'}, {"c7", 'p'}})),
            white(lanes, with({{"e1", 'N'}, {"e3", 'P'}, {"c7", 'p'}})));
}

TEST(Engine, APieceAttackedByALesserOne) {
  auto r = rules("shako");
  const auto ev = onlyTerms(r, "lesser-threat 9\n");
  auto white = [&](const std::map<std::string, char>& pieces) {
    Position p(r);
    EXPECT_TRUE(p.set(fenFromPieces(10, 10, pieces, "w - - 0 1")).ok());
    return ev.seatScore(p, 0);
  };
  // The white rook on e5 attacked by the black knight on d7 (worth less), or by the black queen (worth more).
  const int byKnight = white({{"a1", 'K'}, {"j10", 'k'}, {"e5", 'R'}, {"d7", 'n'}});
  const int byQueen = white({{"a1", 'K'}, {"j10", 'k'}, {"e5", 'R'}, {"e9", 'q'}});
  const int free = white({{"a1", 'K'}, {"j10", 'k'}, {"e5", 'R'}, {"d8", 'n'}});
  EXPECT_EQ(free - byKnight, 9);
  EXPECT_EQ(free, byQueen);
  // A king next to a defended piece is no threat to it.
  const int byKing = white({{"a1", 'K'}, {"f6", 'k'}, {"e5", 'R'}, {"e1", 'R'}});
  const int alone = white({{"a1", 'K'}, {"h8", 'k'}, {"e5", 'R'}, {"e1", 'R'}});
  EXPECT_EQ(byKing, alone);
}

TEST(Engine, LevelDescriptions) {
  EXPECT_NE(engine::describeLevel(1).find("noise"), std::string::npos);
  EXPECT_NE(engine::describeLevel(9).find("full strength"), std::string::npos);
}

// `measure` (one of see.h's functions of a position, a move and the
// evaluation) of White's `move` on a Shako board of `pieces`, with Shako's
// embedded values (pawn 90, knight 300, rook 500).
template <typename Measure>
auto onShakoBoard(const std::map<std::string, char>& pieces, const std::string& move, Measure measure) {
  const auto r = rules("shako");
  Position pos(r);
  const auto set = pos.set(fenFromPieces(10, 10, pieces, "w - - 0 1"));
  EXPECT_TRUE(set.ok()) << (set.ok() ? "" : set.error().text());
  const engine::Evaluator eval(r, engine::defaultEvalParams(*r));
  const auto m = pos.parseMove(move);
  EXPECT_TRUE(m.ok()) << move;
  return m.ok() ? measure(pos, m.value(), eval) : decltype(measure(pos, Move(), eval)){};
}

int exchange(const std::map<std::string, char>& pieces, const std::string& move) {
  return onShakoBoard(pieces, move, engine::staticExchange);
}

TEST(Exchange, UndefendedAndDefendedVictims) {
  EXPECT_EQ(exchange({{"j1", 'K'}, {"a10", 'k'}, {"e1", 'R'}, {"e5", 'n'}}, "e1e5"), 300);
  // The pawn on d6 takes the rook back.
  EXPECT_EQ(exchange({{"j1", 'K'}, {"a10", 'k'}, {"e1", 'R'}, {"e5", 'p'}, {"d6", 'p'}}, "e1e5"), 90 - 500);
  // Knight takes, rook takes the knight, the rook behind takes the rook: the pawn is won.
  EXPECT_EQ(exchange({{"j1", 'K'}, {"a10", 'k'}, {"d3", 'N'}, {"e1", 'R'}, {"e5", 'p'}, {"e10", 'r'}}, "d3e5"), 90);
  // The rook takes first: the black rook takes it and the knight takes back, the pawn and a rook for a rook.
  EXPECT_EQ(exchange({{"j1", 'K'}, {"a10", 'k'}, {"d3", 'N'}, {"e1", 'R'}, {"e5", 'p'}, {"e10", 'r'}}, "e1e5"), 90);
}

TEST(Exchange, CannonsNeedExactlyOneScreen) {
  // The black cannon on e10 guards e5 over the pawn on e8, not without it.
  EXPECT_EQ(exchange({{"j1", 'K'}, {"a10", 'k'}, {"e1", 'R'}, {"e5", 'p'}, {"e10", 'c'}, {"e8", 'p'}}, "e1e5"),
            90 - 500);
  EXPECT_EQ(exchange({{"j1", 'K'}, {"a10", 'k'}, {"e1", 'R'}, {"e5", 'p'}, {"e10", 'c'}}, "e1e5"), 90);
  // The white cannon on e1 loses its screen when the rook on e3 takes on e5: it cannot take back.
  EXPECT_EQ(exchange({{"j1", 'K'}, {"a10", 'k'}, {"e3", 'R'}, {"e1", 'C'}, {"e5", 'n'}, {"e10", 'r'}}, "e3e5"),
            300 - 500);
  // Over the knight on e2 it can: the rook that takes from a5 is avenged.
  EXPECT_EQ(
      exchange({{"j1", 'K'}, {"j10", 'k'}, {"a5", 'R'}, {"e2", 'N'}, {"e1", 'C'}, {"e5", 'n'}, {"e10", 'r'}}, "a5e5"),
      300);
}

TEST(Exchange, AKingTakesBackOnlyAnUndefendedPiece) {
  EXPECT_EQ(exchange({{"j1", 'K'}, {"e6", 'k'}, {"a5", 'R'}, {"e5", 'n'}}, "a5e5"), 300 - 500);
  EXPECT_EQ(exchange({{"j1", 'K'}, {"e6", 'k'}, {"a5", 'R'}, {"e5", 'n'}, {"e1", 'Q'}}, "a5e5"), 300);
}

// moveExchange: a quiet step onto a square the enemy takes on risks the
// mover, less what the recapture wins back; a capture is its static exchange.
TEST(Exchange, QuietMovesRiskTheMoverOnItsNewSquare) {
  auto quiet = [](const std::map<std::string, char>& pieces, const std::string& move) {
    return onShakoBoard(pieces, move, engine::moveExchange);
  };
  // The rook steps next to a black pawn's reach: the pawn takes it for nothing.
  EXPECT_EQ(quiet({{"j1", 'K'}, {"a10", 'k'}, {"e1", 'R'}, {"d6", 'p'}}, "e1e5"), -500);
  // A safe square: nothing is risked.
  EXPECT_EQ(quiet({{"j1", 'K'}, {"a10", 'k'}, {"e1", 'R'}, {"d8", 'p'}}, "e1e5"), 0);
  // The knight goes where a rook takes it but a pawn of ours takes the rook back: the black rook stops.
  EXPECT_EQ(quiet({{"j1", 'K'}, {"a10", 'k'}, {"d3", 'N'}, {"d4", 'P'}, {"e10", 'r'}}, "d3e5"), 0);
  // Undefended against the same rook: the knight is lost.
  EXPECT_EQ(quiet({{"j1", 'K'}, {"a10", 'k'}, {"d3", 'N'}, {"e10", 'r'}}, "d3e5"), -300);
  // A capture scores as staticExchange does.
  EXPECT_EQ(quiet({{"j1", 'K'}, {"a10", 'k'}, {"e1", 'R'}, {"e5", 'p'}, {"d6", 'p'}}, "e1e5"), 90 - 500);
}

// The table keeps four entries per cluster; a new key replaces the least
// useful one (the shallowest, an older search's counting 8 plies shallower
// per search since), and the same key's shallower bound from the same search
// leaves the deeper one but takes its move.
TEST(TranspositionTable, ClustersAgeAndReplace) {
  engine::TranspositionTable tt(1);
  // 1 MB: 8,192 clusters; keys that differ above bit 13 share a cluster.
  auto key = [](uint64_t i) { return 5 + (i << 20); };
  for (int i = 0; i < 4; ++i) tt.store(key(i), Move(1, 2 + i), 10 * i, 4 + i, engine::kBoundExact);
  for (int i = 0; i < 4; ++i) {
    const auto* e = tt.probe(key(i));
    ASSERT_NE(e, nullptr) << i;
    EXPECT_EQ(e->depth, 4 + i);
    EXPECT_EQ(e->score, 10 * i);
  }
  // A fifth key in the same search replaces the shallowest (depth 4).
  tt.store(key(4), Move(1, 9), 0, 2, engine::kBoundLower);
  EXPECT_EQ(tt.probe(key(0)), nullptr);
  EXPECT_NE(tt.probe(key(4)), nullptr);
  // Two searches later, a depth-7 entry (worth 7 - 16) gives way before a new depth-2 one.
  tt.newSearch();
  tt.newSearch();
  tt.store(key(5), Move(1, 10), 0, 2, engine::kBoundUpper);
  tt.store(key(6), Move(1, 11), 0, 1, engine::kBoundUpper);
  EXPECT_NE(tt.probe(key(5)), nullptr);
  EXPECT_NE(tt.probe(key(6)), nullptr);
  // Same key, same search: a shallower bound keeps the deeper entry and takes the move.
  tt.store(key(5), Move(3, 4), 99, 1, engine::kBoundUpper);
  EXPECT_EQ(tt.probe(key(5))->depth, 2);
  EXPECT_EQ(tt.probe(key(5))->move, Move(3, 4).raw());
  // An exact score replaces it whatever its depth.
  tt.store(key(5), Move(3, 4), 50, 1, engine::kBoundExact);
  EXPECT_EQ(tt.probe(key(5))->depth, 1);
  EXPECT_EQ(tt.probe(key(5))->bound(), engine::kBoundExact);
  tt.clear();
  EXPECT_EQ(tt.probe(key(5)), nullptr);
}

bool losesItsExchange(const std::map<std::string, char>& pieces, const std::string& move) {
  return onShakoBoard(pieces, move, engine::losesExchange);
}

TEST(Exchange, OnlyACaptureByTheDearerPieceThatLosesIsALosingCapture) {
  // The rook takes a defended pawn: it loses.
  EXPECT_TRUE(losesItsExchange({{"j1", 'K'}, {"a10", 'k'}, {"e1", 'R'}, {"e5", 'p'}, {"d6", 'p'}}, "e1e5"));
  // Undefended: it wins.
  EXPECT_FALSE(losesItsExchange({{"j1", 'K'}, {"a10", 'k'}, {"e1", 'R'}, {"e5", 'p'}}, "e1e5"));
  // A pawn taking a defended rook is never a losing capture, nor is a move that captures nothing.
  EXPECT_FALSE(losesItsExchange({{"j1", 'K'}, {"a10", 'k'}, {"d4", 'P'}, {"e5", 'r'}, {"e10", 'r'}}, "d4e5"));
  EXPECT_FALSE(losesItsExchange({{"j1", 'K'}, {"a10", 'k'}, {"e1", 'R'}, {"d6", 'p'}}, "e1e5"));
}

int captureKey(const std::map<std::string, char>& pieces, const std::string& move) {
  return onShakoBoard(pieces, move, engine::captureOrder);
}

// The quiescence search's move generation, reached through a SearchBase that exposes it.
class QuiescenceProbe : public engine::SearchBase {
 public:
  QuiescenceProbe(std::shared_ptr<const Rules> r, const engine::Evaluator& eval)
      : SearchBase(std::move(r), eval, config()) {}
  std::vector<std::string> moves(const Position& p, bool inCheck) {
    pos_ = p;
    MoveList list;
    quiescenceMoves(list, inCheck);
    std::vector<std::string> out;
    for (Move m : list) out.push_back(pos_.moveText(m));
    std::sort(out.begin(), out.end());
    return out;
  }

 private:
  static engine::SearchConfig config() {
    engine::SearchConfig c;
    c.ttMegabytes = 1;
    return c;
  }
};

TEST(Quiescence, OutOfCheckTheCapturesEnPassantAndPromotionsOnly) {
  // b9 promotes by moving and by capturing on a10 and c10; e7 takes d7 en
  // passant; e7e8 and the king's moves are quiet.
  auto r = rules("shako");
  engine::Evaluator eval(r, engine::defaultEvalParams(*r));
  QuiescenceProbe probe(r, eval);
  Position pos = position("shako", "r1r1k5/1P8/10/3pP5/10/10/10/10/4K5/10 w - d8 0 1");
  std::vector<std::string> expected{"e7d8"};
  for (const char* to : {"a10", "b10", "c10"})
    for (const char* promo : {"q", "r", "b", "n", "e", "c"}) expected.push_back(std::string("b9") + to + promo);
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(probe.moves(pos, false), expected);
}

TEST(Quiescence, InCheckEveryPseudoLegalMove) {
  auto r = rules("shako");
  engine::Evaluator eval(r, engine::defaultEvalParams(*r));
  QuiescenceProbe probe(r, eval);
  Position pos = position("shako", "r1r1k5/1P8/10/3pP5/10/10/10/10/4K5/4r5 w - d8 0 1");
  ASSERT_TRUE(pos.inCheck(pos.toMove()));
  MoveList all;
  pos.pseudoMoves(all);
  std::vector<std::string> expected;
  for (Move m : all) expected.push_back(pos.moveText(m));
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(probe.moves(pos, true), expected);
  EXPECT_GT(expected.size(), pos.countLegal() + 10u);  // the illegal ones too: legality is the caller's
}

TEST(MoveOrder, CapturesGoByTheDearestVictimThenTheCheapestAttacker) {
  // Shako's values: pawn 90, knight 300, rook 500.
  const std::map<std::string, char> board{{"j1", 'K'}, {"a10", 'k'}, {"e1", 'R'}, {"d3", 'N'},
                                          {"e5", 'n'}, {"c5", 'p'},  {"f4", 'P'}};
  EXPECT_EQ(captureKey(board, "e1e5"), 300 * 16 - 500 / 16);
  EXPECT_EQ(captureKey(board, "d3e5"), 300 * 16 - 300 / 16);
  EXPECT_EQ(captureKey(board, "f4e5"), 300 * 16 - 90 / 16);
  EXPECT_GT(captureKey(board, "e1e5"), captureKey(board, "d3c5"));  // a knight before a pawn, whoever takes
}

TEST(MoveOrder, PickingTheBestKeepsEqualScoresInTheirOrder) {
  MoveList list;
  int scores[6] = {5, 9, 1, 9, 5, 7};
  for (int i = 0; i < 6; ++i) list.push(Move(i, i + 10));
  MoveList sorted = list;
  int sortedScores[6];
  std::copy(std::begin(scores), std::end(scores), sortedScores);
  engine::sortByScore(sorted, sortedScores);
  for (int k = 0; k < list.size(); ++k) {
    engine::pickBest(list, scores, k);
    EXPECT_EQ(list[k], sorted[k]) << k;
    EXPECT_EQ(scores[k], sortedScores[k]) << k;
  }
  EXPECT_EQ(list[0], Move(1, 11));
  EXPECT_EQ(list[1], Move(3, 13));
  EXPECT_EQ(list[5], Move(2, 12));
}

TEST(MoveOrder, SortingTheRestAfterAPickGivesThePickingOrder) {
  // The search picks the first moves one at a time and then sorts the rest at once.
  const int original[7] = {5, 9, 1, 9, 5, 7, 5};
  MoveList picked, mixed;
  for (int i = 0; i < 7; ++i) {
    picked.push(Move(i, i + 10));
    mixed.push(Move(i, i + 10));
  }
  int pickedScores[7], mixedScores[7];
  std::copy(std::begin(original), std::end(original), pickedScores);
  std::copy(std::begin(original), std::end(original), mixedScores);
  for (int k = 0; k < picked.size(); ++k) engine::pickBest(picked, pickedScores, k);
  engine::pickBest(mixed, mixedScores, 0);
  engine::pickBest(mixed, mixedScores, 1);
  engine::sortByScore(mixed, mixedScores, 2);
  for (int k = 0; k < picked.size(); ++k) {
    EXPECT_EQ(mixed[k], picked[k]) << k;
    EXPECT_EQ(mixedScores[k], pickedScores[k]) << k;
  }
  EXPECT_EQ(mixed[3], Move(0, 10));  // the three 5s in their first order
  EXPECT_EQ(mixed[4], Move(4, 14));
  EXPECT_EQ(mixed[5], Move(6, 16));
}

// Every embedded game, at levels 1, 5 and 9 (a small depth and node budget):
// the bot finds a move in every position of a short game, and it is legal.
TEST(Bots, EveryEmbeddedGamePlaysLegalMovesAtLevelsOneFiveNine) {
  const VariantRegistry embedded = VariantRegistry::withEmbedded();
  // Each game with its default options, and the modes that search differently.
  std::vector<std::pair<std::string, std::vector<std::string>>> games;
  for (const VariantDef* d : embedded.all()) games.push_back({d->name, {}});
  games.push_back({"four-player-chess", {"mode=teams"}});  // partners cooperate (a paranoid search)
  games.push_back({"chaturaji", {"dice=on"}});  // the throws as chance nodes
  for (const auto& [variant, options] : games) {
    auto r = rules(variant, options);
    for (int level : {1, 5, 9}) {
      Game g(r, 7);
      auto bot = engine::makeBot(r, level, 3);
      engine::SearchLimits limits;
      limits.depth = 2;
      limits.nodes = 3000;
      std::atomic<bool> stop{false};
      for (int ply = 0; ply < 12 && !g.finished(); ++ply) {
        const auto res = bot->choose(g, limits, stop);
        ASSERT_TRUE(res.found) << variant << " level " << level << " " << g.position().text();
        const auto legal = g.legalMoves();
        ASSERT_NE(std::find(legal.begin(), legal.end(), res.best), legal.end())
            << variant << " level " << level << " " << g.position().text();
        ASSERT_TRUE(g.play(res.best).ok());
      }
    }
  }
}

}  // namespace
}  // namespace acedrex::test
