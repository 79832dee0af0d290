// Shako: castling on rank 2, cannon, elephant, en passant, promotion, position
// text, results through Game, and the errors for bad text. Expected figures
// are hand-checked and were compared with Fairy-Stockfish 11.1 (except where
// RULINGS.md departs from it, on castling into check).
#include <algorithm>
#include <map>

#include "test_util.h"

namespace acedrex::test {
namespace {

using Strings = std::vector<std::string>;

const std::string kStart = "c8c/ernbqkbnre/pppppppppp/10/10/10/10/PPPPPPPPPP/ERNBQKBNRE/C8C w KQkq - 0 1";

std::string fen10(const std::map<std::string, char>& pieces, const std::string& tail) {
  return fenFromPieces(10, 10, pieces, tail);
}

std::shared_ptr<const Rules> shakoRules() {
  static const auto r = rules("shako");
  return r;
}

Position shako(const std::string& fen = "") {
  Position pos(shakoRules());
  const auto s = pos.set(fen.empty() ? kStart : fen);
  EXPECT_TRUE(s.ok()) << fen << ": " << (s.ok() ? "" : s.error().text());
  return pos;
}

Strings targets(Position& pos, const std::string& from) {
  Strings out;
  MoveList list;
  pos.legalMoves(list);
  for (Move m : list)
    if (pos.rules().squareName(m.from()) == from) out.push_back(pos.moveText(m).substr(from.size()));
  std::sort(out.begin(), out.end());
  return out;
}

Strings sorted(Strings v) {
  std::sort(v.begin(), v.end());
  return v;
}

// Everything a caller can see of a position.
struct Snapshot {
  std::string text;
  uint64_t hash;
  int undo;
  Strings legal;
  bool operator==(const Snapshot&) const = default;
};
Snapshot snap(Position& pos) { return {pos.text(), pos.hash(), pos.undoDepth(), legalTexts(pos)}; }

// ---------------------------------------------------------------------------
// Castling

const std::string kCastle = fen10({{"f2", 'K'}, {"b2", 'R'}, {"i2", 'R'}, {"f10", 'k'}}, "w KQ - 0 1");

TEST(ShakoCastling, KingGoesToHOrDAndTheRookFollows) {
  Position pos = shako(kCastle);
  EXPECT_EQ(targets(pos, "f2"), sorted({"e1", "f1", "g1", "e2", "g2", "e3", "f3", "g3", "h2", "d2"}));
  ASSERT_TRUE(playLine(pos, "f2h2").ok());
  EXPECT_EQ(pos.text(), "5k4/10/10/10/10/10/10/10/1R4RK2/10 b - - 1 1");
  Position q = shako(kCastle);
  ASSERT_TRUE(playLine(q, "f2d2").ok());
  EXPECT_EQ(q.text(), "5k4/10/10/10/10/10/10/10/3KR3R1/10 b - - 1 1");
  // A rook's move loses its side; the king's move both.
  Position r = shako(kCastle);
  ASSERT_TRUE(playLine(r, "i2i3 f10f9").ok());
  EXPECT_EQ(r.text(), "10/5k4/10/10/10/10/10/8R1/1R3K4/10 w Q - 2 2");
  EXPECT_FALSE(hasMove(r, "f2h2"));
  EXPECT_TRUE(hasMove(r, "f2d2"));
  Position k = shako(kCastle);
  ASSERT_TRUE(playLine(k, "f2f3 f10f9 f3f2 f9f10").ok());
  EXPECT_EQ(k.text(), fen10({{"f2", 'K'}, {"b2", 'R'}, {"i2", 'R'}, {"f10", 'k'}}, "w - - 4 3"));
  EXPECT_FALSE(hasMove(k, "f2h2"));
  EXPECT_FALSE(hasMove(k, "f2d2"));
}

// A king already on its castling square keeps its right in a FEN (Fairy-
// Stockfish accepts it too): castling then moves only the rook, and is
// written as the king's move onto its own square. The generator used to loop
// for ever on it.
TEST(ShakoCastling, AKingAlreadyOnItsCastlingSquareCastlesByMovingTheRook) {
  const std::string fen = "c8c/ernbqkbnre/pppppppppp/10/10/10/10/PPPPPPPPPP/ERNBQ2KRE/C8C w Kkq - 0 1";
  Position pos = shako(fen);
  EXPECT_EQ(targets(pos, "h2"), sorted({"g1", "h1", "i1", "g2", "h2"}));
  EXPECT_EQ(perft(pos, 1), 57u);  // as Fairy-Stockfish 11.1
  const Snapshot before = snap(pos);
  auto m = pos.parseMove("h2h2");
  ASSERT_TRUE(m.ok()) << m.error().text();
  EXPECT_EQ(m.value().flag(), acedrex::kCastle);
  pos.make(m.value());
  EXPECT_EQ(pos.text(), "c8c/ernbqkbnre/pppppppppp/10/10/10/10/PPPPPPPPPP/ERNBQ1RK1E/C8C b kq - 1 1");
  std::string why;
  EXPECT_TRUE(pos.isValid(&why)) << why;
  pos.unmake();
  EXPECT_EQ(snap(pos), before);
  // The same for Black, and on the queen side (the rook from b2 to e2).
  Position black = shako("c8c/ernbq2kre/pppppppppp/10/10/10/10/PPPPPPPPPP/ERNBQKBNRE/C8C b KQk - 0 1");
  ASSERT_TRUE(playLine(black, "h9h9").ok());
  EXPECT_EQ(black.text(), "c8c/ernbq1rk1e/pppppppppp/10/10/10/10/PPPPPPPPPP/ERNBQKBNRE/C8C w KQ - 1 2");
  Position queen = shako(fen10({{"d2", 'K'}, {"b2", 'R'}, {"f10", 'k'}}, "w Q - 0 1"));
  ASSERT_TRUE(playLine(queen, "d2d2").ok());
  EXPECT_EQ(queen.text(), "5k4/10/10/10/10/10/10/10/3KR5/10 b - - 1 1");
  // Not out of check.
  Position checked = shako(fen10({{"d2", 'K'}, {"b2", 'R'}, {"a10", 'k'}, {"d8", 'r'}}, "w Q - 0 1"));
  EXPECT_TRUE(checked.inCheck(0));
  EXPECT_FALSE(hasMove(checked, "d2d2"));
}

// A king beyond its castling square (i2, with the rook on j2): it castles
// towards the rook's side it came from, the king to h2 and the rook to g2.
// The side used to be taken from the way the king went, which picked the
// queen side's (missing) rook.
TEST(ShakoCastling, AKingBeyondItsCastlingSquareCastlesOnItsOwnSide) {
  Position pos = shako(fen10({{"i2", 'K'}, {"j2", 'R'}, {"b2", 'R'}, {"f10", 'k'}}, "w J - 0 1"));
  // Two moves read "i2h2": the king's step and the castling (as in
  // Fairy-Stockfish, which lists both).
  EXPECT_EQ(perft(pos, 1), 33u);  // as Fairy-Stockfish 11.1
  MoveList list;
  pos.legalMoves(list);
  int castles = 0;
  for (Move mv : list)
    if (mv.flag() == acedrex::kCastle) {
      ++castles;
      pos.make(mv);
      EXPECT_EQ(pos.text(), "5k4/10/10/10/10/10/10/10/1R4RK2/10 b - - 1 1");
      pos.unmake();
    }
  EXPECT_EQ(castles, 1);
}

TEST(ShakoCastling, FromTheStartOnceThePiecesAreGone) {
  Position pos = shako();
  ASSERT_TRUE(playLine(pos, "h2g4 h9g7 h3h4 h8h7 g2h3 g9h8").ok());
  EXPECT_TRUE(hasMove(pos, "f2h2"));
  EXPECT_FALSE(hasMove(pos, "f2d2"));
  ASSERT_TRUE(playLine(pos, "f2h2 f9h9").ok());
  // As Fairy-Stockfish writes it after the same moves.
  EXPECT_EQ(pos.text(), "c8c/ernbq1rk1e/pppppppbpp/6np2/10/10/6NP2/PPPPPPPBPP/ERNBQ1RK1E/C8C w - - 4 5");
}

TEST(ShakoCastling, NotOutOfCheckNorAcrossOrOntoAnAttackedSquare) {
  auto with = [](const std::string& sq, char piece) {
    return shako(fen10({{"f2", 'K'}, {"b2", 'R'}, {"i2", 'R'}, {"f10", 'k'}, {sq, piece}}, "w KQ - 0 1"));
  };
  {
    Position pos = with("f8", 'r');  // check
    EXPECT_FALSE(hasMove(pos, "f2h2"));
    EXPECT_FALSE(hasMove(pos, "f2d2"));
  }
  {
    Position pos = with("g8", 'r');  // g2 crossed on the king side
    EXPECT_FALSE(hasMove(pos, "f2h2"));
    EXPECT_TRUE(hasMove(pos, "f2d2"));
  }
  {
    Position pos = with("e8", 'r');  // e2 crossed on the queen side
    EXPECT_TRUE(hasMove(pos, "f2h2"));
    EXPECT_FALSE(hasMove(pos, "f2d2"));
  }
  {
    Position pos = with("h8", 'r');  // h2, the king's landing square
    EXPECT_FALSE(hasMove(pos, "f2h2"));
    EXPECT_TRUE(hasMove(pos, "f2d2"));
  }
  {
    Position pos = with("d8", 'r');  // d2
    EXPECT_TRUE(hasMove(pos, "f2h2"));
    EXPECT_FALSE(hasMove(pos, "f2d2"));
  }
  {
    Position pos = with("c3", 'r');  // c2 is only crossed by the rook: allowed (Fairy-Stockfish too)
    EXPECT_TRUE(hasMove(pos, "f2h2"));
    EXPECT_TRUE(hasMove(pos, "f2d2"));
  }
  {
    Position pos = with("b8", 'r');  // the rook itself attacked: allowed
    EXPECT_TRUE(hasMove(pos, "f2d2"));
  }
}

TEST(ShakoCastling, NotOntoASquareAttackedOnceTheRookHasMoved) {
  // RULINGS.md: the black rook on j2 sees h2 once the white rook has left i2.
  // (Fairy-Stockfish 11.1 allows f2h2 here.)
  Position pos = shako("4k5/10/10/10/10/10/10/10/5K2Rr/10 w K - 0 1");
  EXPECT_FALSE(hasMove(pos, "f2h2"));
  EXPECT_EQ(pos.countLegal(), 11);
  EXPECT_EQ(perft(pos, 1), 11u);
  const auto err = pos.parseMove("f2h2");
  ASSERT_FALSE(err.ok());
  EXPECT_EQ(err.error().code, "move");
  // The same on the queen side: a black rook on a2 sees d2 once b2 is empty.
  Position q = shako("5k4/10/10/10/10/10/10/10/rR3K4/10 w Q - 0 1");
  EXPECT_FALSE(hasMove(q, "f2d2"));
  EXPECT_EQ(q.countLegal(), 12);
}

TEST(ShakoCastling, BlockedByAnyPieceBetween) {
  for (const char* sq : {"c2", "d2", "e2"}) {
    Position pos = shako(fen10({{"f2", 'K'}, {"b2", 'R'}, {"i2", 'R'}, {"f10", 'k'}, {sq, 'N'}}, "w KQ - 0 1"));
    EXPECT_FALSE(hasMove(pos, "f2d2")) << sq;
    EXPECT_TRUE(hasMove(pos, "f2h2")) << sq;
  }
  for (const char* sq : {"g2", "h2"}) {
    Position pos = shako(fen10({{"f2", 'K'}, {"b2", 'R'}, {"i2", 'R'}, {"f10", 'k'}, {sq, 'n'}}, "w KQ - 0 1"));
    EXPECT_FALSE(hasMove(pos, "f2h2")) << sq;
    EXPECT_TRUE(hasMove(pos, "f2d2")) << sq;
  }
  // At the start nothing can castle.
  Position start = shako();
  EXPECT_FALSE(hasMove(start, "f2h2"));
  EXPECT_FALSE(hasMove(start, "f2d2"));
}

// ---------------------------------------------------------------------------
// Pieces

TEST(ShakoPieces, CannonMovesAsARookAndCapturesOverExactlyOnePiece) {
  // Up: e6, then own pawn e7 as the screen, e8 may not be reached, e9 taken.
  // Left: d5, the black knight c5 cannot be taken (no screen) but screens
  // the black rook a5. Right and down: free.
  Position pos = shako(
      fen10({{"j1", 'K'}, {"a10", 'k'}, {"e5", 'C'}, {"e7", 'P'}, {"e9", 'p'}, {"c5", 'n'}, {"a5", 'r'}}, "w - - 0 1"));
  EXPECT_EQ(targets(pos, "e5"), sorted({"e6", "e9", "d5", "a5", "f5", "g5", "h5", "i5", "j5", "e4", "e3", "e2", "e1"}));
  // Two pieces between: no capture; own piece after the screen: no capture.
  Position two = shako(
      fen10({{"j1", 'K'}, {"a10", 'k'}, {"e5", 'C'}, {"e7", 'P'}, {"e8", 'p'}, {"e9", 'p'}, {"g5", 'P'}, {"i5", 'B'}},
            "w - - 0 1"));
  EXPECT_EQ(targets(two, "e5"), sorted({"e6", "e8", "d5", "c5", "b5", "a5", "f5", "e4", "e3", "e2", "e1"}));
  // The cannon gives check over a screen, not without one.
  EXPECT_TRUE(shako(fen10({{"e1", 'K'}, {"e3", 'P'}, {"e9", 'c'}, {"a10", 'k'}}, "w - - 0 1")).inCheck(0));
  EXPECT_FALSE(shako(fen10({{"e1", 'K'}, {"e9", 'c'}, {"a10", 'k'}}, "w - - 0 1")).inCheck(0));
  EXPECT_FALSE(
      shako(fen10({{"e1", 'K'}, {"e3", 'P'}, {"e5", 'P'}, {"e9", 'c'}, {"a10", 'k'}}, "w - - 0 1")).inCheck(0));
}

TEST(ShakoPieces, AMoveMayNotMakeAScreenForACannonOnItsOwnKing) {
  // The white knight may not step onto e4 or e6 (the black cannon on e9
  // would check over it), nor may the bishop go to e3; elsewhere they go.
  Position pos = shako(fen10({{"e1", 'K'}, {"e9", 'c'}, {"a10", 'k'}, {"c5", 'N'}, {"c1", 'B'}}, "w - - 0 1"));
  const Strings knight = targets(pos, "c5");
  EXPECT_EQ(std::count(knight.begin(), knight.end(), "e4"), 0);
  EXPECT_EQ(std::count(knight.begin(), knight.end(), "e6"), 0);
  EXPECT_EQ(std::count(knight.begin(), knight.end(), "d7"), 1);
  const Strings bishop = targets(pos, "c1");
  EXPECT_EQ(std::count(bishop.begin(), bishop.end(), "e3"), 0);
  EXPECT_EQ(std::count(bishop.begin(), bishop.end(), "d2"), 1);
  // Whether the king stands in check is remembered only for the board it was asked about.
  EXPECT_FALSE(pos.inCheck(0));
  ASSERT_TRUE(pos.parseMove("c5d7").ok());
  pos.make(pos.parseMove("c5d7").value());
  pos.make(pos.parseMove("a10a9").value());
  EXPECT_FALSE(pos.inCheck(0));
  pos.unmake();
  pos.unmake();
  Position screened = shako(fen10({{"e1", 'K'}, {"e9", 'c'}, {"a10", 'k'}, {"e5", 'N'}}, "w - - 0 1"));
  EXPECT_TRUE(screened.inCheck(0));
  // Taking the screen away answers the check: all eight knight moves are legal.
  EXPECT_EQ(targets(screened, "e5"), sorted({"d7", "f7", "c6", "g6", "c4", "g4", "d3", "f3"}));
}

TEST(ShakoPieces, ElephantStepsOrJumpsDiagonally) {
  // Own pawns on d6 and f6 do not stop the jumps to c7 and g7; the black
  // pawn on d4 is taken or jumped; own pawn on g3 ends that jump.
  Position pos = shako(
      fen10({{"j1", 'K'}, {"j10", 'k'}, {"e5", 'E'}, {"d6", 'P'}, {"f6", 'P'}, {"d4", 'p'}, {"g3", 'P'}}, "w - - 0 1"));
  EXPECT_EQ(targets(pos, "e5"), sorted({"c3", "c7", "d4", "f4", "g7"}));
  Position open = shako(fen10({{"j1", 'K'}, {"j10", 'k'}, {"e5", 'E'}}, "w - - 0 1"));
  EXPECT_EQ(targets(open, "e5"), sorted({"d4", "f4", "d6", "f6", "c3", "g3", "c7", "g7"}));
  // From the start corner: b1 and b3 (own pawn), c4 jumping over the pawn.
  Position start = shako();
  EXPECT_EQ(targets(start, "a2"), sorted({"b1", "c4"}));
}

TEST(ShakoPieces, StartPositionMoves) {
  Position pos = shako();
  EXPECT_EQ(pos.text(), kStart);
  EXPECT_EQ(pos.countLegal(), 58);
  EXPECT_EQ(targets(pos, "a1"), sorted({"b1", "c1", "d1", "e1", "f1", "g1", "h1", "i1"}));
  EXPECT_EQ(targets(pos, "e3"), sorted({"e4", "e5"}));
}

// ---------------------------------------------------------------------------
// Pawns

TEST(ShakoPawns, EnPassant) {
  Position pos = shako("5k4/10/3p6/10/4P5/10/10/10/5K4/10 b - - 0 1");
  ASSERT_TRUE(playLine(pos, "d8d6").ok());
  EXPECT_EQ(pos.text(), "5k4/10/10/10/3pP5/10/10/10/5K4/10 w - d7 0 2");
  EXPECT_EQ(targets(pos, "e6"), sorted({"d7", "e7"}));
  ASSERT_TRUE(playLine(pos, "e6d7").ok());
  EXPECT_EQ(pos.text(), "5k4/10/10/3P6/10/10/10/10/5K4/10 b - - 0 2");
  // Only for the reply: after another move the right is gone.
  Position later = shako("5k4/10/3p6/10/4P5/10/10/10/5K4/10 b - - 0 1");
  ASSERT_TRUE(playLine(later, "d8d6 f2f3 f10f9").ok());
  EXPECT_EQ(targets(later, "e6"), Strings{"e7"});
  // No en-passant square when no pawn could take (as Fairy-Stockfish writes it).
  Position none = shako("5k4/10/3p6/10/10/10/10/10/5K4/10 b - - 0 1");
  ASSERT_TRUE(playLine(none, "d8d6").ok());
  EXPECT_EQ(none.text(), "5k4/10/10/10/3p6/10/10/10/5K4/10 w - - 0 2");
  // An en-passant capture that opens the king's rank is illegal.
  Position pinned = shako("5k4/10/3p6/10/K3P4r/10/10/10/10/10 b - - 0 1");
  ASSERT_TRUE(playLine(pinned, "d8d6").ok());
  EXPECT_EQ(targets(pinned, "e6"), Strings{"e7"});
  // White's double step from rank 3; the square is written in the text.
  Position white = shako("5k4/10/10/10/10/5p4/10/4P5/5K4/10 w - - 0 1");
  ASSERT_TRUE(playLine(white, "e3e5").ok());
  EXPECT_EQ(white.text(), "5k4/10/10/10/10/4Pp4/10/10/5K4/10 b - e4 0 1");
  EXPECT_TRUE(hasMove(white, "f5e4"));
  // Read from the text too.
  Position read = shako("5k4/10/10/10/10/4Pp4/10/10/5K4/10 b - e4 0 1");
  EXPECT_TRUE(hasMove(read, "f5e4"));
}

TEST(ShakoPawns, DoubleStepOnlyFromRankThreeOverEmptySquares) {
  Position pos = shako(
      fen10({{"f2", 'K'}, {"f10", 'k'}, {"a3", 'P'}, {"b4", 'P'}, {"c3", 'P'}, {"c4", 'n'}, {"d3", 'P'}, {"d5", 'n'}},
            "w - - 0 1"));
  EXPECT_EQ(targets(pos, "a3"), sorted({"a4", "a5"}));
  EXPECT_EQ(targets(pos, "b4"), Strings{"b5"});         // not from rank 4
  EXPECT_EQ(targets(pos, "c3"), Strings{});             // blocked on c4: no jump
  EXPECT_EQ(targets(pos, "d3"), sorted({"c4", "d4"}));  // d5 occupied
}

TEST(ShakoPawns, PromotionToQueenRookBishopKnightElephantCannon) {
  Position pos = shako(fen10({{"f2", 'K'}, {"f10", 'k'}, {"a9", 'P'}, {"b10", 'r'}}, "w - - 0 1"));
  EXPECT_EQ(targets(pos, "a9"),
            sorted({"a10q", "a10r", "a10b", "a10n", "a10e", "a10c", "b10q", "b10r", "b10b", "b10n", "b10e", "b10c"}));
  const Snapshot before = snap(pos);
  for (const char* bad : {"a9a10", "a9a10k", "a9a10p", "a9a10Q", "a9a10qq", "a9a10u"}) {
    auto m = pos.parseMove(bad);
    EXPECT_FALSE(m.ok()) << bad;
    EXPECT_FALSE(playLine(pos, bad).ok()) << bad;
    EXPECT_EQ(snap(pos), before) << bad;
  }
  ASSERT_TRUE(playLine(pos, "a9a10e").ok());
  EXPECT_EQ(pos.text(), fen10({{"f2", 'K'}, {"f10", 'k'}, {"a10", 'E'}, {"b10", 'r'}}, "b - - 0 1"));
  // Black promotes on rank 1.
  Position black = shako(fen10({{"f2", 'K'}, {"f10", 'k'}, {"j2", 'p'}}, "b - - 0 1"));
  EXPECT_EQ(targets(black, "j2"), sorted({"j1q", "j1r", "j1b", "j1n", "j1e", "j1c"}));
  ASSERT_TRUE(playLine(black, "j2j1c").ok());
  EXPECT_EQ(black.text(), fen10({{"f2", 'K'}, {"f10", 'k'}, {"j1", 'c'}}, "w - - 0 2"));
}

// ---------------------------------------------------------------------------
// Position text

TEST(ShakoText, RoundTrips) {
  for (const std::string& fen : {
           kStart,
           std::string("4kc3c/ernbq1b1re/ppp3p1pp/3p2pp2/4p5/5P4/2PN2P3/PP1PP2PPP/ER1BQKBNR1/5C3C w KQ - 0 9"),
           std::string("4ncr1k1/1cr2P4/pp2p2pp1/P7PN/2Ep1p4/B3P1eN2/2P1n1P3/1B1P1K4/9p/5C2CR w - - 0 1"),
           std::string("r5k3/4q2c2/1ebppnp3/1pp3BeEQ/10/2PE2P3/1P3P4/5NP2P/rR3KB3/7C2 w Q - 3 35"),
           std::string("10/rr3k4/ppppp5/10/10/10/10/6PPPP/5K2RR/10 w Kq - 0 1"),
           std::string("c8c/ernbqkbnre/1pp1pppppp/p9/3pP5/10/10/PPPP1PPPPP/ERNBQKBNRE/C8C w KQkq d7 0 3"),
           std::string("c8c/ernbqkbnre/pppppppppp/10/10/10/10/PPPPPPPPPP/ERNBQKBNRE/C8C b Qk - 17 42"),
           std::string("5k4/10/10/10/10/4Pp4/10/10/5K4/10 b - e4 0 1"),
       }) {
    Position pos = shako(fen);
    EXPECT_EQ(pos.text(), fen);
    Position again(pos.rulesPtr());
    ASSERT_TRUE(again.set(pos.text()).ok());
    EXPECT_EQ(again.text(), fen);
    EXPECT_EQ(again.hash(), pos.hash());
    std::string why;
    EXPECT_TRUE(pos.isValid(&why)) << why;
  }
  // Missing counters default to 0 1; spaces around are ignored.
  EXPECT_EQ(shako("  c8c/ernbqkbnre/pppppppppp/10/10/10/10/PPPPPPPPPP/ERNBQKBNRE/C8C w KQkq -  ").text(), kStart);
  // A game's text round-trips at every ply.
  Position pos = shako();
  for (const char* m : {"e3e5", "d8d6", "e5d6", "c9d7", "f3f4", "e8e7", "g2c6", "j9h7"}) {
    ASSERT_TRUE(playLine(pos, m).ok()) << m;
    Position again(pos.rulesPtr());
    ASSERT_TRUE(again.set(pos.text()).ok()) << pos.text();
    EXPECT_EQ(again.text(), pos.text());
    EXPECT_EQ(again.hash(), pos.hash()) << pos.text();
  }
  // As Fairy-Stockfish writes it after the same moves.
  EXPECT_EQ(pos.text(), "c8c/er1bqkbnr1/ppp2ppppp/3np2e2/2BP6/10/5P4/PPPP2PPPP/ERNBQK1NRE/C8C w KQkq - 2 5");
}

TEST(ShakoText, UnusableEnPassantSquareIsDropped) {
  // No white pawn can take on d7: Fairy-Stockfish drops the square when it
  // reads the text, and so does a move that makes the same position.
  Position played = shako("5k4/10/3p6/10/10/10/10/10/5K4/10 b - - 0 1");
  ASSERT_TRUE(playLine(played, "d8d6").ok());
  EXPECT_EQ(played.text(), "5k4/10/10/10/3p6/10/10/10/5K4/10 w - - 0 2");
  Position read = shako("5k4/10/10/10/3p6/10/10/10/5K4/10 w - d7 0 2");
  EXPECT_EQ(read.text(), "5k4/10/10/10/3p6/10/10/10/5K4/10 w - - 0 2");
  EXPECT_EQ(read.hash(), played.hash());  // the same position for repetition
  EXPECT_EQ(read.epSquare(), kNoSquare);
}

TEST(ShakoText, MalformedPositionsAreRejectedAndChangeNothing) {
  Position pos = shako("r5k3/4q2c2/1ebppnp3/1pp3BeEQ/10/2PE2P3/1P3P4/5NP2P/rR3KB3/7C2 w Q - 3 35");
  const Snapshot before = snap(pos);
  const std::vector<std::string> bad = {
      "",
      "   ",
      "c8c/ernbqkbnre/pppppppppp/10/10/10/PPPPPPPPPP/ERNBQKBNRE/C8C w KQkq - 0 1",        // 9 ranks
      "c8c/ernbqkbnre/pppppppppp/10/10/10/10/10/PPPPPPPPPP/ERNBQKBNRE/C8C w KQkq - 0 1",  // 11 ranks
      "c8cc/ernbqkbnre/pppppppppp/10/10/10/10/PPPPPPPPPP/ERNBQKBNRE/C8C w KQkq - 0 1",    // long rank
      "c8/ernbqkbnre/pppppppppp/10/10/10/10/PPPPPPPPPP/ERNBQKBNRE/C8C w KQkq - 0 1",      // short rank
      "c8c/ernbqkbnre/pppppppppp/11/10/10/10/PPPPPPPPPP/ERNBQKBNRE/C8C w KQkq - 0 1",     // 11 squares
      "c8c/ernbqkbnre/pppppppppp/0/10/10/10/PPPPPPPPPP/ERNBQKBNRE/C8C w KQkq - 0 1",      // zero
      "c8c/ernbqkbnxe/pppppppppp/10/10/10/10/PPPPPPPPPP/ERNBQKBNRE/C8C w KQkq - 0 1",     // unknown piece
      "c8c/ernbqkbnre/pppppppppp/10/10/10/10/PPPPPPPPPP/ERNBQKBNRE/C8C",                  // no side
      "c8c/ernbqkbnre/pppppppppp/10/10/10/10/PPPPPPPPPP/ERNBQKBNRE/C8C x KQkq - 0 1",     // bad side
      "c8c/ernbqkbnre/pppppppppp/10/10/10/10/PPPPPPPPPP/ERNBQKBNRE/C8C w KQkqZ - 0 1",    // bad right
      "c8c/ernbqkbnre/pppppppppp/10/10/10/10/PPPPPPPPPP/ERNBQKBNRE/C8C w KQkq z9 0 1",    // bad ep
      "c8c/ernbqkbnre/pppppppppp/10/10/10/10/PPPPPPPPPP/ERNBQKBNRE/C8C w KQkq k3 0 1",    // ep off board
      "c8c/ernbqkbnre/pppppppppp/10/10/10/10/PPPPPPPPPP/ERNBQKBNRE/C8C w KQkq - x 1",     // counter
      "c8c/ernbqkbnre/pppppppppp/10/10/10/10/PPPPPPPPPP/ERNBQKBNRE/C8C w KQkq - 0 -1",    // counter
      "c8c/ernbqkbnre/pppppppppp/10/10/10/10/PPPPPPPPPP/ERNBQKBNRE/C8C w KQkq - 0 1 x",   // extra text
      "c8c/ernbq1bnre/pppppppppp/10/10/10/10/PPPPPPPPPP/ERNBQKBNRE/C8C w KQ - 0 1",       // no black king
      "c8c/ernbqkbnre/pppppppppp/10/10/10/10/PPPPPPPPPP/ERNBKKBNRE/C8C w KQkq - 0 1",     // two kings
      "5k4/10/10/10/10/10/10/10/5K4/10 w K - 0 1",                                        // no rook
      "P4k4/10/10/10/10/10/10/10/5K4/10 w - - 0 1",                                       // pawn on rank 10
      "5k4/10/10/10/10/10/10/10/5K4/p9 w - - 0 1",                                        // pawn on rank 1
      "5k4/10/10/10/10/10/10/10/5K4/5r4 b - - 0 1",                                       // not to move, in check
  };
  for (const auto& fen : bad) {
    const auto s = pos.set(fen);
    ASSERT_FALSE(s.ok()) << fen;
    EXPECT_EQ(s.error().code, "fen") << fen;
    EXPECT_FALSE(s.error().message.empty()) << fen;
    EXPECT_EQ(snap(pos), before) << fen;
  }
  // A Game's start is unchanged by a bad text too.
  Game game(shakoRules());
  ASSERT_TRUE(game.playAll("e3e4").ok());
  const std::string text = game.position().text();
  for (const auto& fen : bad) EXPECT_FALSE(game.setStart(fen).ok()) << fen;
  EXPECT_EQ(game.position().text(), text);
  EXPECT_EQ(game.record().size(), 1u);
}

// ---------------------------------------------------------------------------
// Moves: errors change nothing

TEST(ShakoMoves, IllegalAndMalformedMovesChangeNothing) {
  // The white knight on g3 is pinned by the black bishop on j6.
  const std::string fen = fen10({{"f2", 'K'}, {"g3", 'N'}, {"j6", 'b'}, {"a10", 'k'}, {"a3", 'P'}}, "w - - 0 1");
  Position pos = shako(fen);
  const Snapshot before = snap(pos);
  const std::vector<std::string> bad = {
      "",      "zz",    "a3",     "a3a",      "a3a4x", "a3a4q",  "a3a6",   "a0a1", "k1k2",
      "a3a11", "a11a3", "g3e4",   "g3h5",     "a10a9", "b5b6",   "0000",   "f2f2", "A3A4",
      "a3 a4", "a3a4 ", "f2e2e3", "99999999", "a-1a4", "a3a4\n", "\ta3a4",
  };
  for (const auto& m : bad) {
    EXPECT_FALSE(pos.parseMove(m).ok()) << m;
    EXPECT_EQ(snap(pos), before) << m;
  }
  // The pinned knight's moves are refused with a reason.
  const auto pinned = pos.parseMove("g3e4");
  ASSERT_FALSE(pinned.ok());
  EXPECT_EQ(pinned.error().code, "move");
  EXPECT_NE(pinned.error().message.find("king"), std::string::npos) << pinned.error().message;

  Game game(shakoRules());
  ASSERT_TRUE(game.setStart(fen).ok());
  for (const auto& m : bad) {
    const std::string text = game.position().text();
    EXPECT_FALSE(game.play(m).ok()) << m;
    EXPECT_EQ(game.position().text(), text) << m;
    EXPECT_TRUE(game.record().empty()) << m;
  }
  // playLine / playAll stop at the bad ply, which changes nothing, and name it.
  Position line = shako(fen);
  const auto s = playLine(line, "a3a4 a10b10 a3a4");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().location.find("ply 3"), std::string::npos) << s.error().location;
  EXPECT_EQ(line.text(), fen10({{"f2", 'K'}, {"g3", 'N'}, {"j6", 'b'}, {"b10", 'k'}, {"a4", 'P'}}, "w - - 1 2"));
  const auto g = game.playAll("a3a4 a10b10 g3e4 f2e1");
  ASSERT_FALSE(g.ok());
  EXPECT_NE(g.error().location.find("ply 3"), std::string::npos) << g.error().location;
  EXPECT_EQ(game.record().size(), 2u);
  EXPECT_EQ(game.position().text(), line.text());
  // The game goes on normally afterwards.
  EXPECT_TRUE(game.play("f2e1").ok());
}

// ---------------------------------------------------------------------------
// Results through Game

TEST(ShakoGame, CheckmateWins) {
  Game game(shakoRules());
  ASSERT_TRUE(game.setStart("9k/8pp/10/10/10/10/10/10/5K4/R9 w - - 0 1").ok());
  ASSERT_TRUE(game.play("a1a10").ok());
  EXPECT_TRUE(game.finished());
  EXPECT_EQ(game.position().result(), ResultKind::kWin);
  EXPECT_EQ(game.position().winner(), 0);
  EXPECT_EQ(game.position().places()[0], 1);
  EXPECT_EQ(game.position().places()[1], 2);
  EXPECT_FALSE(game.play("j10i10").ok());
  EXPECT_TRUE(game.legalMoves().empty());
  EXPECT_NE(game.summaryJson().find("\"status\":\"finished\""), std::string::npos);
  // The same through perft: no move after the mate.
  Position pos = shako("9k/8pp/10/10/10/10/10/10/5K4/R9 w - - 0 1");
  ASSERT_TRUE(playLine(pos, "a1a10").ok());
  EXPECT_TRUE(pos.finished());
  EXPECT_EQ(perft(pos, 1), 0u);
  EXPECT_EQ(perft(pos, 3), 0u);
}

TEST(ShakoGame, StalemateDraws) {
  Game game(shakoRules());
  ASSERT_TRUE(game.setStart("k9/10/10/10/10/2Q7/10/10/5K4/10 w - - 0 1").ok());
  ASSERT_TRUE(game.play("c5c9").ok());
  EXPECT_TRUE(game.finished());
  EXPECT_EQ(game.position().result(), ResultKind::kDraw);
  EXPECT_EQ(game.drawReasonKind(), DrawReason::kStalemate);
  EXPECT_EQ(game.position().places()[0], 1);
  EXPECT_EQ(game.position().places()[1], 1);
}

TEST(ShakoGame, RepetitionAndFiftyMoves) {
  Game game(shakoRules());
  ASSERT_TRUE(game.setStart(kCastle).ok());
  ASSERT_TRUE(game.playAll("b2b3 f10f9 b3b2 f9f10 b2b3 f10f9 b3b2").ok());
  EXPECT_FALSE(game.finished());
  // The start placement a third time, but only the second time with these rights.
  ASSERT_TRUE(game.play("f9f10").ok());
  EXPECT_FALSE(game.finished());
  ASSERT_TRUE(game.play("b2b3").ok());  // the third time of this one
  EXPECT_TRUE(game.finished());
  EXPECT_EQ(game.drawReasonKind(), DrawReason::kRepetition);

  Game fifty(shakoRules());
  ASSERT_TRUE(fifty.setStart(fen10({{"a1", 'K'}, {"j10", 'k'}, {"e5", 'R'}}, "w - - 99 80")).ok());
  EXPECT_FALSE(fifty.finished());
  ASSERT_TRUE(fifty.play("e5e6").ok());
  EXPECT_TRUE(fifty.finished());
  EXPECT_EQ(fifty.drawReasonKind(), DrawReason::kFiftyMoves);
}

}  // namespace
}  // namespace acedrex::test
