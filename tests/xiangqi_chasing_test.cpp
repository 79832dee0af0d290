// Xiangqi's repetition verdicts (chasing = axf, core/mechanisms/chasing.h): perpetual
// check and perpetual chase lose, mutual chases draw, and the attacks that
// are no chase. Every position and sequence here was played into the
// current Fairy-Stockfish through its xboard protocol (force, setboard, the
// moves as usermove with ranks counted from 0, then go): at the third
// occurrence it claims the result before moving ("0-1 {Black wins}",
// "1-0 {White wins}", "1/2-1/2 {Draw}"); the expected results below are
// its claims. tools/reference/chasing_diff.py compares the chased pieces of
// random games with its `d` output.
#include <atomic>

#include "core/mechanisms/chasing.h"
#include "engine/bot.h"
#include "test_util.h"

namespace acedrex::test {
namespace {

struct Case {
  const char* what;
  const char* fen;
  const char* cycle;  // four plies, played twice from the position
  int loser;          // -1: a draw by repetition
  Game::Decision decision;
};

const Case kCases[] = {
    // White's chariot chases the unprotected horse from a3 and b3: White loses.
    {"rook chases an unprotected horse", "3k5/9/1n7/9/9/9/9/R8/9/4K4 w - - 0 1", "a3b3 b8a10 b3a3 a10b8", 0,
     Game::Decision::kPerpetualChase},
    // The same with Black's rook on b10 protecting both squares: no chase.
    {"rook attacks a protected horse", "1r1k5/9/1n7/9/9/9/9/R8/9/4K4 w - - 0 1", "a3b3 b8a10 b3a3 a10b8", -1,
     Game::Decision::kNone},
    // A horse (the lesser piece) attacks a chariot that the a10 chariot
    // protects: it chases all the same, and White loses.
    {"horse chases a protected rook", "r4k3/r8/9/9/1N7/9/9/9/9/1RR1K4 w - - 0 1", "b6c8 a9a8 c8b6 a8a9", 0,
     Game::Decision::kPerpetualChase},
    // The horse on e5/d7 opens the e3 chariot's file and the a7 chariot's
    // rank in turn onto e7: a soldier that has not crossed the river is not
    // chased; a horse there is.
    {"discovered attacks on an uncrossed soldier", "3k5/9/9/R3p4/9/4N4/9/4R4/9/5K3 w - - 0 1",
     "e5d7 d10d9 d7e5 d9d10", -1, Game::Decision::kNone},
    {"discovered attacks on a horse", "3k5/9/9/R3n4/9/4N4/9/4R4/9/5K3 w - - 0 1", "e5d7 d10d9 d7e5 d9d10", 0,
     Game::Decision::kPerpetualChase},
    // Attacks on the general are checks: White, who checks with every move, loses.
    {"perpetual check", "3k5/R8/9/9/9/9/9/9/9/4K4 w - - 0 1", "a9a10 d10d9 a10a9 d9d10", 0,
     Game::Decision::kPerpetualCheck},
    // Black's chariot chases White's horse: Black loses.
    {"black chases", "4k4/9/r8/9/9/9/9/1N7/9/3K5 b - - 0 1", "a8b8 b3a1 b8a8 a1b3", 1,
     Game::Decision::kPerpetualChase},
    // Both horses open a chariot's line in turn: White chases the e7 horse,
    // Black the g4 horse, every move: a draw.
    {"mutual chase", "3k5/9/6r2/R3n4/5Pn2/4NP3/6N1r/4R4/9/5K3 w - - 0 1", "e5d7 g6h4 d7e5 h4g6", -1,
     Game::Decision::kNone},
};

TEST(XiangqiChasing, RepetitionVerdictsAsFairyStockfish) {
  for (const Case& c : kCases) {
    Game g(rules("xiangqi"));
    ASSERT_TRUE(g.setStart(c.fen).ok()) << c.what;
    ASSERT_TRUE(g.playAll(c.cycle).ok()) << c.what;
    // The first repetition (the second occurrence) ends nothing.
    ASSERT_TRUE(g.playAll(c.cycle).ok()) << c.what;
    EXPECT_TRUE(g.finished()) << c.what;
    if (c.loser < 0) {
      EXPECT_EQ(g.position().result(), ResultKind::kDraw) << c.what;
      EXPECT_EQ(g.drawReasonKind(), DrawReason::kRepetition) << c.what;
    } else {
      EXPECT_EQ(g.position().result(), ResultKind::kWin) << c.what;
      EXPECT_EQ(g.position().winner(), 1 - c.loser) << c.what;
    }
    EXPECT_EQ(g.decision(), c.decision) << c.what;
  }
}

TEST(XiangqiChasing, OnlyAtTheThirdOccurrence) {
  Game g(rules("xiangqi"));
  ASSERT_TRUE(g.setStart("3k5/9/1n7/9/9/9/9/R8/9/4K4 w - - 0 1").ok());
  ASSERT_TRUE(g.playAll("a3b3 b8a10 b3a3 a10b8 a3b3 b8a10 b3a3").ok());
  EXPECT_FALSE(g.finished());
  ASSERT_TRUE(g.play("a10b8").ok());
  EXPECT_TRUE(g.finished());
  EXPECT_NE(g.summaryJson().find("\"decision\":\"perpetual-chase\""), std::string::npos) << g.summaryJson();
}

TEST(XiangqiChasing, ChasedPiecesOfEachMove) {
  // The mutual chase: each move chases the one horse its discovered attack
  // reaches; the horses' own attacks on each other are mutual and the e5
  // horse is protected by the e3 chariot.
  Position pos = position("xiangqi", "3k5/9/6r2/R3n4/5Pn2/4NP3/6N1r/4R4/9/5K3 w - - 0 1");
  EXPECT_TRUE(chasedByLastMove(pos).empty());  // no move yet
  const char* expected[] = {"e7", "g4", "e7", "g4"};
  int i = 0;
  for (const char* m : {"e5d7", "g6h4", "d7e5", "h4g6"}) {
    auto mv = pos.parseMove(m);
    ASSERT_TRUE(mv.ok()) << m;
    pos.make(*mv);
    const auto chased = chasedByLastMove(pos);
    ASSERT_EQ(chased.size(), 1u) << m;
    EXPECT_EQ(pos.rules().squareName(chased[0]), expected[i++]) << m;
  }
  // An attack on a protected chariot by a chariot is no chase; by a horse it is.
  Position p2 = position("xiangqi", "r4k3/r8/9/9/1N7/9/9/9/9/1RR1K4 w - - 0 1");
  p2.make(*p2.parseMove("b6c8"));
  ASSERT_EQ(chasedByLastMove(p2).size(), 1u);
  EXPECT_EQ(p2.rules().squareName(chasedByLastMove(p2)[0]), "a9");
}

TEST(XiangqiChasing, SearchScoresAChasingRepetitionAsALoss) {
  // Black to move can repeat the position a third time: White, who chased
  // with every move, loses, so the bot takes the win (a mate score) although
  // it is a chariot down for a horse.
  Game g(rules("xiangqi"));
  ASSERT_TRUE(g.setStart("3k5/9/1n7/9/9/9/9/R8/9/4K4 w - - 0 1").ok());
  ASSERT_TRUE(g.playAll("a3b3 b8a10 b3a3 a10b8 a3b3 b8a10 b3a3").ok());
  auto bot = engine::makeBot(g.position().rulesPtr(), engine::kFullStrength, 1);
  std::atomic<bool> stop{false};
  engine::SearchLimits limits;
  limits.depth = 3;
  const auto r = bot->choose(g, limits, stop);
  ASSERT_TRUE(r.found);
  EXPECT_EQ(g.position().moveText(r.best), "a10b8");
  EXPECT_TRUE(r.info.isMate);
  EXPECT_GT(r.info.mateIn, 0);
}

TEST(XiangqiChasing, ChecksLengthenTheFiftyMoveCount) {
  // White checks with its first eleven moves, then both sides move quietly.
  // From a count of 79 plies the count reaches 100 after 21 plies, but the
  // eleven checks (one beyond ten) add two plies: Fairy-Stockfish claims the
  // draw after 23 plies, not before (its xboard `go` after 20 to 24 plies).
  const char* fen = "4k4/9/9/9/9/9/9/9/R8/3K4R w - - 79 1";
  const std::string moves =
      "a2e2 e10f10 e2f2 f10e10 f2f10 e10e9 f10e10 e9f9 e10e9 f9f10 e9e10 f10f9 e10e9 f9f8 e9f9 f8e8 f9f8 e8e9 "
      "f8e8 e9f9 i1i9 f9f10 i9i1";
  Game g(rules("xiangqi"));
  ASSERT_TRUE(g.setStart(fen).ok());
  ASSERT_TRUE(g.playAll(moves.substr(0, moves.rfind(' '))).ok());  // 22 plies, the count at 101
  EXPECT_FALSE(g.finished());
  ASSERT_TRUE(g.play("i9i1").ok());
  EXPECT_TRUE(g.finished());
  EXPECT_EQ(g.drawReasonKind(), DrawReason::kFiftyMoves);
}

}  // namespace
}  // namespace acedrex::test
