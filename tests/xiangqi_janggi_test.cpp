// Xiangqi and janggi: regions, lame leaps, the flying general, the janggi
// cannon, palace lines, passing, bikjang and material counting, perpetual
// check, and the bots playing both games.
#include <atomic>

#include "core/variant/betza.h"
#include "core/records/pgn.h"
#include "engine/bot.h"
#include "test_util.h"

namespace acedrex::test {
namespace {

bool hasMove(Position& pos, const std::string& text) {
  const auto moves = legalTexts(pos);
  return std::find(moves.begin(), moves.end(), text) != moves.end();
}

TEST(Betza, LameLeapsAndTheirPaths) {
  auto atoms = parseBetza("nN");
  ASSERT_TRUE(atoms.ok());
  EXPECT_TRUE(atoms->front().lame);
  EXPECT_EQ(atoms->front().offsets.size(), 8u);
  EXPECT_FALSE(parseBetza("nR").ok());  // a rider cannot be lame
  EXPECT_EQ(lamePath({1, 2}), (std::vector<Offset>{{0, 1}}));                // the horse's leg
  EXPECT_EQ(lamePath({-2, 2}), (std::vector<Offset>{{-1, 1}}));              // the elephant's eye
  EXPECT_EQ(lamePath({2, -3}), (std::vector<Offset>{{0, -1}, {1, -2}}));     // janggi's elephant
}

TEST(PositionText, XiangqiAndJanggiRoundTrip) {
  for (const std::string variant : {"xiangqi", "janggi"})
    for (const auto& [fen, depth, nodes] : perftFile(variant + ".txt")) {
      Position pos = position(variant, fen);
      EXPECT_EQ(pos.text(), fen) << variant;
    }
}

TEST(Xiangqi, HorseLegAndElephantEyeBlock) {
  // The b2 soldier stands on the b1 horse's leg (a3, c3) and the c1 elephant's
  // eye towards a3; the elephant stands on the leg towards d2.
  Position pos = position("xiangqi", "3k5/9/9/9/9/9/9/9/1P7/1NB1K4 w - - 0 1");
  EXPECT_FALSE(hasMove(pos, "b1a3"));
  EXPECT_FALSE(hasMove(pos, "b1c3"));
  EXPECT_FALSE(hasMove(pos, "b1d2"));
  EXPECT_FALSE(hasMove(pos, "c1a3"));
  EXPECT_TRUE(hasMove(pos, "c1e3"));
  // A horse checks unless a piece stands on its leg.
  EXPECT_TRUE(position("xiangqi", "3k5/9/9/9/9/9/9/4n4/9/5K3 w - - 0 1").inCheck(0));
  EXPECT_FALSE(position("xiangqi", "3k5/9/9/9/9/9/9/4n4/4p4/5K3 w - - 0 1").inCheck(0));
}

TEST(Xiangqi, RegionsConfineKingAdvisorAndElephant) {
  Position pos = position("xiangqi", "3k5/9/9/9/9/2B6/9/3A5/9/5K3 w - - 0 1");
  EXPECT_FALSE(hasMove(pos, "f1g1"));  // out of the palace
  EXPECT_TRUE(hasMove(pos, "f1f2"));
  EXPECT_FALSE(hasMove(pos, "d3c4"));  // the advisor stays in the palace
  EXPECT_TRUE(hasMove(pos, "d3e2"));
  EXPECT_FALSE(hasMove(pos, "c5a7"));  // the elephant never crosses the river
  EXPECT_FALSE(hasMove(pos, "c5e7"));
  EXPECT_TRUE(hasMove(pos, "c5a3"));
  EXPECT_TRUE(hasMove(pos, "c5e3"));
}

TEST(Xiangqi, SoldierStepsSidewaysOnlyAcrossTheRiver) {
  Position pos = position("xiangqi", "3k5/9/9/9/6P2/9/2P6/9/9/5K3 w - - 0 1");
  EXPECT_FALSE(hasMove(pos, "c4b4"));
  EXPECT_TRUE(hasMove(pos, "c4c5"));
  EXPECT_TRUE(hasMove(pos, "g6f6"));
  EXPECT_TRUE(hasMove(pos, "g6g7"));
  EXPECT_FALSE(hasMove(pos, "g6g5"));
}

TEST(Xiangqi, FlyingGeneral) {
  // e1-d1 would face the king on d10 across an open file.
  Position pos = position("xiangqi", "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1");
  EXPECT_FALSE(hasMove(pos, "e1d1"));
  EXPECT_TRUE(hasMove(pos, "e1f1"));
  // The only piece between the kings is pinned to the file.
  Position p2 = position("xiangqi", "4k4/9/9/9/4N4/9/9/9/9/4K4 w - - 0 1");
  EXPECT_FALSE(hasMove(p2, "e6d8"));
  EXPECT_FALSE(hasMove(p2, "e6c7"));
  EXPECT_TRUE(hasMove(p2, "e1f1"));
}

TEST(Xiangqi, StalemateLoses) {
  // Black's king alone has no legal move and is not in check.
  Game g(rules("xiangqi"));
  ASSERT_TRUE(g.setStart("3k5/R8/9/9/9/4R4/9/9/9/5K3 b - - 0 1").ok());
  EXPECT_TRUE(g.finished());
  EXPECT_EQ(g.position().result(), ResultKind::kWin);
  EXPECT_EQ(g.position().winner(), 0);
}

TEST(Xiangqi, PerpetualCheckLoses) {
  // The rook checks from f2 and e2 in turn; the third time the position after
  // a2f2+ stands, White, who checked with every move, loses.
  Game g(rules("xiangqi"));
  ASSERT_TRUE(g.setStart("5k3/9/9/9/9/9/9/9/R8/3K5 w - - 0 1").ok());
  ASSERT_TRUE(g.playAll("a2f2 f10e10 f2e2 e10f10 e2f2 f10e10 f2e2 e10f10").ok());
  EXPECT_FALSE(g.finished());
  ASSERT_TRUE(g.play("e2f2").ok());
  EXPECT_TRUE(g.finished());
  EXPECT_EQ(g.position().winner(), 1);
  EXPECT_EQ(g.decision(), Game::Decision::kPerpetualCheck);
  // The summary and the PGN say how it was decided.
  EXPECT_NE(g.summaryJson().find("\"decision\":\"perpetual-check\""), std::string::npos) << g.summaryJson();
  EXPECT_NE(writePgn(g).find("[Termination \"perpetual-check\"]"), std::string::npos) << writePgn(g);
}

TEST(Janggi, PassIsTheKingOnItsOwnSquare) {
  Position pos = position("janggi");
  EXPECT_TRUE(hasMove(pos, "e2e2"));
  auto m = pos.parseMove("e2e2");
  ASSERT_TRUE(m.ok());
  pos.make(*m);
  EXPECT_EQ(pos.text(), "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR b - - 1 1");
  // Not while in check: the rook on e5 checks the king on e2.
  Position p2 = position("janggi", "4k4/9/9/9/9/4r4/9/9/4K4/9 w - - 0 1");
  EXPECT_TRUE(p2.inCheck(0));
  EXPECT_FALSE(hasMove(p2, "e2e2"));
}

TEST(Janggi, CannonHopsToMoveAndNeverOverOrOntoACannon) {
  // The b3 cannon hops over the b4 soldier; it cannot move without a screen.
  Position pos = position("janggi", "3k5/9/9/9/9/9/1P7/1C7/9/4K4 w - - 0 1");
  EXPECT_FALSE(hasMove(pos, "b3c3"));
  EXPECT_FALSE(hasMove(pos, "b3b4"));
  EXPECT_TRUE(hasMove(pos, "b3b5"));
  // A cannon is no screen.
  Position p2 = position("janggi", "3k5/9/9/9/9/9/1C7/1C7/9/4K4 w - - 0 1");
  EXPECT_FALSE(hasMove(p2, "b3b5"));
  // An enemy cannon beyond the screen is not taken.
  Position p3 = position("janggi", "3k5/9/9/1c7/9/9/1P7/1C7/9/4K4 w - - 0 1");
  EXPECT_FALSE(hasMove(p3, "b3b7"));
  EXPECT_TRUE(hasMove(p3, "b3b6"));
}

TEST(Janggi, PalaceDiagonals) {
  // The king moves along the palace diagonals from e2, not from d2.
  Position pos = position("janggi", "3k5/9/9/9/9/9/9/9/4K4/9 w - - 0 1");
  EXPECT_TRUE(hasMove(pos, "e2d1"));
  EXPECT_TRUE(hasMove(pos, "e2f3"));
  Position p2 = position("janggi", "5k3/9/9/9/9/9/9/9/3K5/9 w - - 0 1");
  EXPECT_FALSE(hasMove(p2, "d2e1"));
  EXPECT_FALSE(hasMove(p2, "d2e3"));
  EXPECT_TRUE(hasMove(p2, "d2e2"));
  // A chariot slides along a diagonal from a palace corner, not from c1.
  Position p3 = position("janggi", "9/4k4/9/9/9/9/9/9/9/3R1K3 w - - 0 1");
  EXPECT_TRUE(hasMove(p3, "d1e2"));
  EXPECT_TRUE(hasMove(p3, "d1f3"));
  Position p4 = position("janggi", "5k3/9/9/9/9/9/9/9/9/2R2K3 w - - 0 1");
  EXPECT_FALSE(hasMove(p4, "c1d2"));
}

TEST(Janggi, BikjangLeftStandingIsDecidedByCounting) {
  // The kings face each other on the e-file, Black to move: it must part them or pass.
  Game g(rules("janggi"));
  ASSERT_TRUE(g.setStart("4k4/9/9/9/9/9/9/9/R8/4K4 b - - 0 1").ok());
  EXPECT_TRUE(g.position().bikjang());
  ASSERT_TRUE(g.play("e10e10").ok());  // Black leaves bikjang standing
  EXPECT_TRUE(g.finished());
  EXPECT_EQ(g.position().winner(), 0);  // 13 points against 0
  EXPECT_EQ(g.decision(), Game::Decision::kMaterialCount);
  EXPECT_NE(g.summaryJson().find("\"decision\":\"material-count\""), std::string::npos) << g.summaryJson();
  EXPECT_NE(writePgn(g).find("[Termination \"material-count\"]"), std::string::npos) << writePgn(g);
}

TEST(Janggi, TwoPassesEndTheGameAndBlackWinsEvenCounts) {
  Game g(rules("janggi"));
  // A soldier each: with the generals alone neither side could mate, a draw at once.
  ASSERT_TRUE(g.setStart("3k5/9/9/4p4/9/9/4P4/9/4K4/9 w - - 0 1").ok());
  ASSERT_TRUE(g.play("e2e2").ok());
  EXPECT_FALSE(g.finished());
  ASSERT_TRUE(g.play("d10d10").ok());
  EXPECT_TRUE(g.finished());
  EXPECT_EQ(g.position().winner(), 1);  // equal material: Black wins (White needs more than 1 point more)
}

TEST(Janggi, BikjangMustBeBrokenOrPassed) {
  Position pos = position("janggi", "4k4/9/9/9/9/9/9/9/9/3AK4 b - - 0 1");
  ASSERT_TRUE(pos.bikjang());
  EXPECT_TRUE(hasMove(pos, "e10e10"));
  EXPECT_FALSE(hasMove(pos, "e10e9"));  // still facing
  EXPECT_TRUE(hasMove(pos, "e10d10"));
}

}  // namespace
}  // namespace acedrex::test
