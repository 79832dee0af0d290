// Three-player chess on the hex3 board (docs/rules/three-player-chess.md):
// the cell graph, the pieces across the seams and through the centre, the
// pawns' way into another half, mate and the dead army, the bots.
// Seats: white 0, black 1, red 2 (turn order).
#include <map>
#include <set>

#include "core/hex3.h"
#include "engine/bot.h"
#include "test_util.h"

namespace acedrex::test {
namespace {

const char* kVariant = "three-player-chess";

// A position from square -> cell ("wK", "bPe", ...), the three kings on their
// start cells unless given.
std::string hexFen(char toMove, std::map<std::string, std::string> cells, const std::string& in = "wbr") {
  for (auto [sq, c] : std::map<std::string, std::string>{{"e1", "wK"}, {"d8", "bK"}, {"i12", "rK"}})
    if (!cells.count(sq)) cells[sq] = c;
  return fen4(*rules(kVariant), toMove, in, cells);
}

std::set<std::string> targets(const std::string& fen, const std::string& from) {
  Position p = position(kVariant, fen);
  std::set<std::string> out;
  for (const auto& m : movesFrom(p, from)) out.insert(m.substr(from.size()));
  return out;
}

TEST(ThreePlayerChess, CellsAndSquaresRoundTripOnNinetySixCells) {
  auto r = rules(kVariant);
  int cells = 0;
  for (Square s = 0; s < r->nsq(); ++s) {
    if (r->blocked[s]) continue;
    ++cells;
    EXPECT_EQ(hex3Square(hex3Cell(s)), s) << r->squareName(s);
  }
  EXPECT_EQ(cells, 96);
  EXPECT_EQ(r->squareName(hex3Square({1, 3, 3})), "i5");  // black's queen file, innermost cell
  EXPECT_EQ(r->squareName(hex3Square({2, 4, 0})), "i12");
}

TEST(ThreePlayerChess, FilesRunOnIntoTheNextHalfAndTurnRound) {
  EXPECT_EQ(targets(hexFen('w', {{"e2", "wR"}}), "e2"),
            (std::set<std::string>{"e3", "e4", "e9", "e10", "e11", "e12", "d2", "c2", "b2", "a2", "f2", "g2", "h2"}));
  // A step forward from d4 is d5 (black's half), from e4 it is e9 (red's).
  const auto& s = hex3Step({0, 3, 3}, 0, 1);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(rules(kVariant)->squareName(hex3Square(s[0].cell)), "d5");
  EXPECT_EQ(s[0].dy, -1);  // and goes on towards black's back rank
}

TEST(ThreePlayerChess, DiagonalsThroughTheCentreFork) {
  // From d4 the diagonal towards the centre goes on into black's half (i5) and red's (e9).
  EXPECT_EQ(targets(hexFen('w', {{"d4", "wB"}, {"e1", "wK"}}), "d4"),
            (std::set<std::string>{"c3", "b2", "a1", "e3", "f2", "g1", "c5", "b6", "a7", "i5", "j6", "k7", "l8",
                                   "e9", "f10", "g11", "h12"}));
  // Through the centre from a1: both branches, each cell once; a piece on d4 blocks both.
  EXPECT_EQ(targets(hexFen('w', {{"a1", "wB"}}), "a1"),
            (std::set<std::string>{"b2", "c3", "d4", "i5", "j6", "k7", "l8", "e9", "f10", "g11", "h12"}));
  Position p = position(kVariant, hexFen('w', {{"a1", "wB"}}));
  EXPECT_EQ(movesFrom(p, "a1").size(), 11u);
  EXPECT_EQ(targets(hexFen('w', {{"a1", "wB"}, {"d4", "bN"}}), "a1"), (std::set<std::string>{"b2", "c3", "d4"}));
  // The cell opposite d4 at the centre (i9) is of the other colour: no diagonal reaches it.
  EXPECT_FALSE(targets(hexFen('w', {{"d4", "wB"}}), "d4").count("i9"));
}

TEST(ThreePlayerChess, KnightsNearTheCentreHaveBothPaths) {
  // Two cells along a file then one across, or one across then two along:
  // near the centre the two orders end on different cells.
  EXPECT_EQ(targets(hexFen('w', {{"d4", "wN"}}), "d4"),
            (std::set<std::string>{"b3", "b5", "c2", "c6", "e10", "e2", "f3", "f9", "i6", "j5"}));
  EXPECT_EQ(targets(hexFen('w', {{"d3", "wN"}}), "d3"),
            (std::set<std::string>{"b2", "b4", "c1", "c5", "e9", "f2", "f4", "i5"}));
}

TEST(ThreePlayerChess, PawnsCrossIntoAnotherHalfAndPromoteOnItsBackRank) {
  // White's pawn on d4 steps to d5 and captures on c5, and through the centre on i5 and e9.
  EXPECT_EQ(targets(hexFen('w', {{"d4", "wPn"}, {"c5", "bN"}, {"i5", "bN"}, {"e9", "rN"}}), "d4"),
            (std::set<std::string>{"d5", "c5", "i5", "e9"}));
  // In black's half it walks towards black's back rank (d6, d7) and promotes on row 8.
  EXPECT_EQ(targets(hexFen('w', {{"d5", "wPn"}}), "d5"), (std::set<std::string>{"d6"}));
  EXPECT_EQ(targets(hexFen('w', {{"b7", "wPn"}}), "b7"), (std::set<std::string>{"b8q", "b8r", "b8b", "b8n"}));
  // Black's pawns on i7 walk to the centre and on into red's half.
  EXPECT_EQ(targets(hexFen('b', {{"i7", "bPe"}}), "i7"), (std::set<std::string>{"i6", "i5"}));
  EXPECT_EQ(targets(hexFen('b', {{"i5", "bPe"}}), "i5"), (std::set<std::string>{"i9"}));
  EXPECT_EQ(targets(hexFen('b', {{"i10", "bPe"}}), "i10"), (std::set<std::string>{"i11"}));
  // A pawn standing on another half's back rank is refused (it would have promoted).
  Position p(rules(kVariant));
  EXPECT_FALSE(p.set(hexFen('w', {{"a8", "wPn"}})).ok());
}

TEST(ThreePlayerChess, StartPositionPerftAndText) {
  Position p = position(kVariant);
  EXPECT_EQ(p.text(), rules(kVariant)->start);
  EXPECT_EQ(perft(p, 1), 20u);
  EXPECT_EQ(perft(p, 2), 400u);
  EXPECT_EQ(perft(p, 3), 8000u);
}

TEST(ThreePlayerChess, MateLeavesTheArmyDeadAndTheOthersPlayOn) {
  // Red is mated by the queen (l9-k10-j11-i12 diagonal, i12 king boxed in).
  Game g(rules(kVariant), 1);
  PLAY(g, "d2d4"); PLAY(g, "l7l5"); PLAY(g, "k11k9"); PLAY(g, "h2h4"); PLAY(g, "k8j6"); PLAY(g, "j11j10");
  PLAY(g, "e2e3"); PLAY(g, "a7a6"); PLAY(g, "j12l10"); PLAY(g, "d1h9"); PLAY(g, "j6i9"); PLAY(g, "k9k5");
  PLAY(g, "e1d1"); PLAY(g, "i9c5"); PLAY(g, "l10j12"); PLAY(g, "h9l9"); PLAY(g, "c7c6");
  const Position& p = g.position();
  EXPECT_FALSE(p.isIn(2));
  EXPECT_TRUE(p.isIn(0) && p.isIn(1));
  EXPECT_FALSE(g.finished());
  EXPECT_EQ(p.toMove(), 0);  // red's turn is skipped
  // The dead army stays on the board.
  auto r = rules(kVariant);
  EXPECT_NE(p.at(*r->parseSquare("i12")), kEmpty);
}

TEST(ThreePlayerChess, GeometryKeyChecksTheBoard) {
  auto parsed = parseVariantFile(
      "name = bad-hex\nboard = 8x8\ngeometry = hex3\nseat = white w n\nseat = black b e\nseat = red r s\n"
      "piece = king K K royal\nstart = w-wbr-*-0-1-8/8/8/8/8/8/8/wK,bK,rK,5\n", "test");
  ASSERT_TRUE(parsed.ok());
  EXPECT_FALSE(Rules::compile(parsed.value(), {}).ok());
}

TEST(ThreePlayerChess, UciAnswersALegalMove) {
  const std::string mv = uciBestMove(kVariant, "startpos moves e2e4");
  Position p = position(kVariant);
  auto m = p.parseMove("e2e4");
  ASSERT_TRUE(m.ok());
  p.make(m.value());
  EXPECT_TRUE(hasMove(p, mv)) << mv;
}

}  // namespace
}  // namespace acedrex::test
