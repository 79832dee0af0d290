// Three-player chess on the hex3 board (docs/rules/three-player-chess.md):
// the cell graph, the pieces across the seams and through the centre, the
// pawns' way into another half, and the Triumvirate arena's rules: mate and
// the takeover, the stuck pawn, the pass, castling, en passant, the pawn that
// turns on another column, the arena's position line; the bots.
// Seats: white 0, black 1, red 2 (turn order).
#include <map>
#include <set>

#include "core/board/hex3.h"
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

Piece at(const Position& p, const std::string& sq) { return p.at(*rules(kVariant)->parseSquare(sq)); }
bool gameHas(const Game& g, const std::string& move) {
  Position p = g.position();
  return hasMove(p, move);
}

TEST(ThreePlayerChess, TheMaterTakesOverTheMatedArmyAndPlaysBoth) {
  // Red is mated by white's queen (l9-k10-j11-i12 diagonal, i12 king boxed in).
  Game g(rules(kVariant), 1);
  PLAY(g, "d2d4"); PLAY(g, "l7l5"); PLAY(g, "k11k9"); PLAY(g, "h2h4"); PLAY(g, "k8j6"); PLAY(g, "j11j10");
  PLAY(g, "e2e3"); PLAY(g, "a7a6"); PLAY(g, "j12l10"); PLAY(g, "d1h9"); PLAY(g, "j6i9"); PLAY(g, "k9k5");
  PLAY(g, "e1d1"); PLAY(g, "i9c5"); PLAY(g, "l10j12"); PLAY(g, "h9l9"); PLAY(g, "c7c6");
  const Position& p = g.position();
  EXPECT_FALSE(p.isIn(2));
  EXPECT_TRUE(p.isIn(0) && p.isIn(1));
  EXPECT_FALSE(g.finished());
  EXPECT_EQ(p.toMove(), 0);  // red's turn is skipped: white now moves for both armies
  // The red king leaves the board; red's other pieces are white's, keeping their direction.
  EXPECT_EQ(at(p, "i12"), kEmpty);
  EXPECT_EQ(seatOf(at(p, "j12")), 0);
  EXPECT_EQ(dirOf(at(p, "j12")), kSouth);
  // Red's pawns on the e-h files were heading for white's back rank: now
  // white's, they would have to turn back on a file of white's, so they are
  // stuck (capture only). Those on the i-l files still head for black's.
  const auto r = rules(kVariant);
  EXPECT_EQ(typeOf(at(p, "f11")), r->stuckPawnType);
  EXPECT_TRUE(r->types[typeOf(at(p, "i11"))].pawn);
  EXPECT_EQ(targets(g.position().text(), "f11"), (std::set<std::string>{}));
  // A pawn that changed hands steps once only; the taken-over rooks move for white.
  EXPECT_EQ(targets(g.position().text(), "i11"), (std::set<std::string>{"i10"}));
  Position q = g.position();
  int redsMoves = 0;
  for (const auto& m : legalTexts(q)) {
    const size_t digits = m.find_first_not_of("0123456789", 1);  // the from-cell: a letter and its row
    redsMoves += dirOf(at(q, m.substr(0, digits))) == kSouth;
  }
  EXPECT_GT(redsMoves, 0);
  // The arena's line writes the red pieces as white's: rB>wJ12.
  EXPECT_NE(p.text().find("rB>wJ12"), std::string::npos) << p.text();
  EXPECT_NE(p.text().find(" w w-.bKQ.r- - a"), std::string::npos) << p.text();
  EXPECT_NE(p.text().find("x 0 "), std::string::npos) << p.text();
}

TEST(ThreePlayerChess, ASecondMateWins) {
  // Black is out (its army white's); white's rook to l12 mates red on h12.
  Game g(rules(kVariant), 1);
  ASSERT_TRUE(g.setStart("wKE1,rKH12,wRK11,wRL10 w w-.b-.r- - axa 0 30").ok());
  PLAY(g, "l10l12");
  EXPECT_TRUE(g.finished());
  EXPECT_EQ(g.position().places()[0], 1);
  EXPECT_EQ(g.position().winner(), 0);
}

TEST(ThreePlayerChess, AStalematedPlayerPasses) {
  // Black's king on l8 has no move and is not in check: black passes, red moves.
  Game g(rules(kVariant), 1);
  ASSERT_TRUE(g.setStart("wRA7,wKE1,rPH11,rKI12,wRK10,bKL8 w w-.b-.r- - aaa 0 1").ok());
  PLAY(g, "e1d1");
  EXPECT_FALSE(g.finished());
  EXPECT_TRUE(g.position().isIn(1));
  EXPECT_EQ(g.position().toMove(), 2);
}

TEST(ThreePlayerChess, WhenEverySeatMustPassTheGameIsDrawn) {
  // stalemate = pass on a row of three kings kept apart by holes: no one can move.
  const std::string variant =
      "name = three-kings\nboard = 5x2\nblocked = b1 d1 a2-e2\nseat = white w n\nseat = black b n\nseat = red r n\n"
      "piece = king K K royal\nending = last-standing\nstalemate = pass\nstart = w-wbr-*-0-1-x,x,x,x,x/wK,x,bK,x,rK\n";
  VariantRegistry reg;
  ASSERT_TRUE(reg.add(variant, "three-kings.variant").ok());
  auto r = reg.rules("three-kings", {});
  ASSERT_TRUE(r.ok());
  Position p(r.value());
  ASSERT_TRUE(p.set(r.value()->start).ok());
  p.applyTurnStart();  // white passes
  EXPECT_FALSE(p.finished());
  EXPECT_EQ(p.toMove(), 1);
  p.applyTurnStart();  // black passes
  EXPECT_FALSE(p.finished());
  p.applyTurnStart();  // red passes: all three in a row
  EXPECT_TRUE(p.finished());
  EXPECT_EQ(p.result(), ResultKind::kDraw);
}

TEST(ThreePlayerChess, TheBotSearchesPastARootSeatThatMustPass) {
  // White's king is walled in on a1 and each of its two steppers has one step
  // (f1f2, g1g2) into a dead end: after both, white passes at every turn start
  // (stalemate = pass) while black's and red's kings walk to and fro, so the
  // game never ends. The best-reply search played the later opponents' moves
  // until the root seat moved again, which never came: it did not return, and
  // filled the memory (three-player chess at short move times, 2026-12-06).
  const std::string variant =
      "name = walled\nboard = 7x3\nblocked = b3 e3-g3 a2-e2 b1 e1\n"
      "seat = white w n\nseat = black b s\nseat = red r s\n"
      "piece = king K K royal\npiece = stepper S fW\nending = last-standing\nstalemate = pass\n"
      "start = w-wbr-*-0-1-1,x,rK,1,x,x,x/x,x,x,x,x,2/wK,x,bK,1,x,wS,wS\n";
  VariantRegistry reg;
  ASSERT_TRUE(reg.add(variant, "walled.variant").ok());
  auto r = reg.rules("walled", {});
  ASSERT_TRUE(r.ok()) << r.error().text();
  for (int level : {5, 9}) {
    Game g(r.value(), 1);
    auto bot = engine::makeBot(r.value(), level, 1);
    std::atomic<bool> stop{false};
    engine::SearchLimits limits;
    limits.depth = 4;  // level 9 by depth, not by the clock
    const auto result = bot->choose(g, limits, stop);
    ASSERT_TRUE(result.found) << "level " << level;
    const std::string move = g.position().moveText(result.best);
    EXPECT_TRUE(move == "f1f2" || move == "g1g2") << "level " << level << ": " << move;
  }
}

TEST(ThreePlayerChess, CastlingInEachArmysOwnRow) {
  const std::string fen = "wRA1,wKE1,wRH1,bRA8,bKD8,bRL8,rRH12,rKI12,rRL12 w wKQ.bKQ.rKQ - aaa 0 1";
  Game g(rules(kVariant), 1);
  ASSERT_TRUE(g.setStart(fen).ok());
  EXPECT_TRUE(gameHas(g, "e1c1"));
  PLAY(g, "e1g1");  // white short: the rook h1 to f1
  EXPECT_TRUE(gameHas(g, "d8j8"));
  PLAY(g, "d8b8");  // black short: the rook a8 to c8
  EXPECT_FALSE(gameHas(g, "i12f12"));  // red long would end on f12, which white's rook on f1 attacks
  PLAY(g, "i12k12");  // red short: the rook l12 to j12
  const Position& p = g.position();
  const int rook = rules(kVariant)->typeByLetter('R');
  EXPECT_EQ(at(p, "f1"), makePiece(rook, kNorth, 0));
  EXPECT_EQ(at(p, "c8"), makePiece(rook, kEast, 1));
  EXPECT_EQ(at(p, "j12"), makePiece(rook, kSouth, 2));
  EXPECT_EQ(at(p, "l12"), kEmpty);
  EXPECT_NE(p.text().find(" w w-.b-.r- "), std::string::npos) << p.text();
  // Not across an attacked cell: a white rook on c4 attacks c8, which black's king crosses going short.
  Position q = position(kVariant, "wRA1,wKE1,wRC4,bRA8,bKD8,bRL8,rKI12 b w-.bKQ.r- - aaa 0 1");
  EXPECT_FALSE(hasMove(q, "d8b8"));
  EXPECT_TRUE(hasMove(q, "d8j8"));  // black long, across the gap between d8 and i8
  q.make(*q.parseMove("d8j8"));
  EXPECT_EQ(typeOf(at(q, "i8")), rules(kVariant)->typeByLetter('R'));
}

TEST(ThreePlayerChess, EnPassantIsForTheNextPlayerOnly) {
  Game g(rules(kVariant), 1);
  ASSERT_TRUE(g.setStart("bPD4,bKD8,wPE2,wKH1,rKI12,rPF11 w w-.b-.r- - aaa 0 1").ok());
  PLAY(g, "e2e4");
  EXPECT_NE(g.position().text().find(" b w-.b-.r- E3 "), std::string::npos) << g.position().text();
  PLAY(g, "d4e3");  // black takes the pawn on e4 in passing
  EXPECT_EQ(at(g.position(), "e4"), kEmpty);
  EXPECT_EQ(seatOf(at(g.position(), "e3")), 1);
  // The square is kept for the next seat only.
  Position p = position(kVariant, "bPD4,bKD8,wPE2,wKH1,rKI12,rPF11 w w-.b-.r- - aaa 0 1");
  p.make(*p.parseMove("e2e4"));
  p.make(*p.parseMove("d8d7"));
  EXPECT_NE(p.text().find(" r w-.b-.r- - "), std::string::npos) << p.text();
}

TEST(ThreePlayerChess, APawnThatCapturesOntoAnotherColumnTurnsTowardsTheOtherHalf) {
  // Black's pawn on d5 takes on e4 (a file of white and red): it now heads
  // through the centre for red, as the arena's pawns do (e4 to e9).
  Game g(rules(kVariant), 1);
  ASSERT_TRUE(g.setStart("bPD5,bKD8,wNE4,wKH1,rKI12,rPF11 b w-.b-.r- - aaa 0 1").ok());
  PLAY(g, "d5e4");
  PLAY(g, "f11f10");
  PLAY(g, "h1g1");
  EXPECT_EQ(targets(g.position().text(), "e4"), (std::set<std::string>{"e9"}));
  EXPECT_NE(g.position().text().find("bPE4"), std::string::npos) << g.position().text();
  // Read from the line, a pawn on a file of the two other armies heads the same way.
  EXPECT_EQ(targets("bPE4,bKD8,wKH1,rKI12 b w-.b-.r- - aaa 0 1", "e4"), (std::set<std::string>{"e9"}));
  EXPECT_EQ(targets("wPI9,wKH1,bKD8,rKI12 w w-.b-.r- - aaa 0 1", "i9"), (std::set<std::string>{"i5"}));
}

TEST(ThreePlayerChess, TheArenaLineReadsAndWrites) {
  // A state of the arena's server after black was mated and red took its army
  // (fortser/Triumvirate_LLMbot logs): the pawns on the l-file are stuck,
  // the one on a4 heads for black's back rank.
  const std::string arena =
      "rBA1,wPA2,wBA3,bP>rA4,bR>rA6,wPB4,bP>rB7,wPC2,wPD2,bP>rD7,rPE9,rQE10,wKF1,rPF11,wPG2,rNG4,rPG11,rNH1,wPH2,"
      "rPH11,rRH12,wPI9,rPI11,rKI12,rBJ12,bN>rK8,rPK10,bP>rL7,rPL11,rRL12 r w-.b-.rKQ - axa 3 25";
  Position p = position(kVariant, arena);
  EXPECT_EQ(typeOf(at(p, "l7")), rules(kVariant)->stuckPawnType);
  std::set<std::string> from;
  for (const auto& m : legalTexts(p)) from.insert(m);
  EXPECT_TRUE(from.count("a4a5"));
  EXPECT_TRUE(from.count("b7b6") && !from.count("b7b5"));  // a pawn that changed hands: one step
  EXPECT_TRUE(from.count("i12f12"));                        // red's long castling
  // Written back: the same line, but for the pawn that turned (a4), which is written as red's own.
  std::string back = arena;
  back.replace(back.find("bP>rA4"), 6, "rPA4");
  EXPECT_EQ(p.text(), back);
  // The engine's many-seat line is read as well (without castling rights).
  Position q = position(kVariant, hexFen('w', {{"e2", "wPn"}}));
  EXPECT_EQ(q.text(), "bKD8,wKE1,wPE2,rKI12 w w-.b-.r- - aaa 0 1");
}

TEST(ThreePlayerChess, BadArenaLinesAreRefused) {
  const auto r = rules(kVariant);
  const std::string good = "bKD8,wKE1,rKI12 w w-.b-.r- - aaa 0 1";
  Position p(r);
  ASSERT_TRUE(p.set(good).ok());
  const std::vector<std::string> bad = {
      "wKE1,bKD8,rKI12 w w-.b-.r- - aaa 0",                 // six fields
      "wKE1,bKD8,rKI12 g w-.b-.r- - aaa 0 1",               // no such seat
      "wKE1,bKD8,rKI12 w w-.b-.r- - aqa 0 1",               // a state letter
      "wKE1,bKD8,rKI12 b w-.b-.r- - axa 0 1",               // the seat to move is out
      "wKE1,bKD8,rKI12,wQE5 w w-.b-.r- - aaa 0 1",          // e5 is not a cell
      "wKE1,bKD8,rKI12,wQE1 w w-.b-.r- - aaa 0 1",          // two pieces on e1
      "wKE1,bKD8,rKI12,wXE2 w w-.b-.r- - aaa 0 1",          // no such piece
      "wKE1,bKD8,rKI12,wSE2 w w-.b-.r- - aaa 0 1",          // the stuck pawn is written P
      "wKE1,bKD8,rKI12,bR>xA8 w w-.b-.r- - aaa 0 1",        // no such owner
      "wKE1,bKD8,rKI12 w wK.b-.r- - aaa 0 1",               // castling without the rook
      "wKE1,bKD8,rKI12 w wKQ.b- - aaa 0 1",                 // two castling parts
      "wKE1,bKD8,rKI12 w w-.b-.r- E3 aaa 0 1",              // en passant without a pawn
      "wKE1,bKD8,rKI12 w w-.b-.r- - aaa x 1",               // the half-move count
      "wKE1,bKD8,rKI12 w w-.b-.r- - aaa 0 0",               // the move number from 1
      "wKE1,bKD8 w w-.b-.r- - aaa 0 1",                     // red has no king
      "wKE1,bKD8,rKI12,rQA1 w w-.b-.r- - axa 0 1",          // fine, but black is out with its king on d8
  };
  for (const auto& t : bad) {
    EXPECT_FALSE(p.set(t).ok()) << t;
    EXPECT_EQ(p.text(), good) << t;  // a refused text changes nothing
  }
}

TEST(ThreePlayerChess, TakeoverBoundKeepsEveryArmyInOneMoveList) {
  // All three armies together could make up to 1,110 moves by the engine's
  // bound (each pawn counted as a queen), more than a move list holds; but a
  // seat never holds all three: the game ends when one seat is left, and the
  // other seat still in keeps its own army.
  Position p = position(kVariant);
  EXPECT_LT(p.moveBound(0), kMoveListCapacity);
  EXPECT_GT(p.moveBound(0), kMoveListCapacity / 2);
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

TEST(ThreePlayerChess, UciReadsTheArenaLine) {
  // position fen takes the arena's line (seven fields); black's answer is legal there.
  const std::string fen = "bPD4,bKD8,wPE2,wKH1,rKI12 w w-.b-.r- - aaa 0 1";
  const std::string mv = uciBestMove(kVariant, "fen " + fen + " moves e2e4", "go depth 2");
  Position p = position(kVariant, fen);
  p.make(*p.parseMove("e2e4"));
  EXPECT_TRUE(hasMove(p, mv)) << mv;
}

}  // namespace
}  // namespace acedrex::test
