// Grant Acedrex: every ruling of RULINGS.md on hand-checked positions.
#include <algorithm>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>

#include "test_util.h"

namespace acedrex::test {
namespace {

using Strings = std::vector<std::string>;
using Placement = std::map<std::string, char>;  // square name -> FEN letter

std::string fen12(const std::map<std::string, char>& pieces, const std::string& tail) {
  return fenFromPieces(12, 12, pieces, tail);
}

// Compiled once per set of options. Throws (a test failure; the other tests
// go on) when the options do not compile.
std::shared_ptr<const Rules> grantRules(const std::vector<std::string>& options = {}) {
  static std::map<std::vector<std::string>, std::shared_ptr<const Rules>> cache;
  auto& r = cache[options];
  if (!r) r = rules("grant-acedrex", options);
  if (!r) throw std::runtime_error("grant-acedrex does not compile with these options");
  return r;
}

Position grant(const std::string& fen, const std::vector<std::string>& options = {}) {
  auto r = grantRules(options);
  Position pos(r);
  const auto s = pos.set(fen.empty() ? r->start : fen);
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().text());
  return pos;
}

// The destination squares of the legal moves from `from`, sorted.
Strings targets(Position& pos, const std::string& from) {
  Strings out;
  MoveList list;
  pos.legalMoves(list);
  for (Move m : list) {
    if (pos.rules().squareName(m.from()) == from) out.push_back(pos.rules().squareName(m.to()));
  }
  std::sort(out.begin(), out.end());
  return out;
}

Strings sorted(Strings v) {
  std::sort(v.begin(), v.end());
  return v;
}

Status play(Position& pos, const std::string& line) { return playLine(pos, line); }

// ---------------------------------------------------------------------------
// Pieces

// The expected squares are laid out by branch.
// clang-format off

TEST(GrantPieces, AancaStepsDiagonallyThenSlidesOutward) {
  Position pos = grant(fen12({{"a1", 'K'}, {"l12", 'k'}, {"f6", 'A'}}, "w - - 0 1"));
  EXPECT_EQ(targets(pos, "f6"), sorted({
                                    "e5", "d5", "c5", "b5", "a5", "e4", "e3", "e2", "e1",  // via e5
                                    "g5", "h5", "i5", "j5", "k5", "l5", "g4", "g3", "g2", "g1",  // via g5
                                    "e7", "d7", "c7", "b7", "a7", "e8", "e9", "e10", "e11", "e12",  // via e7
                                    "g7", "h7", "i7", "j7", "k7", "l7", "g8", "g9", "g10", "g11", "g12",  // via g7
                                }));
  EXPECT_EQ(targets(pos, "f6").size(), 40u);
}

TEST(GrantPieces, AancaNeedsAnEmptyDiagonalSquareToGoOn) {
  // Own pawn on g7: nothing through it. Black rook on e7: captured, nothing beyond.
  // Black pawn on j5 stops the slide along rank 5.
  Position pos = grant(fen12({{"a1", 'K'}, {"l12", 'k'}, {"f6", 'A'}, {"g7", 'P'}, {"e7", 'r'}, {"j5", 'p'}},
                             "w - - 0 1"));
  EXPECT_EQ(targets(pos, "f6"), sorted({
                                    "e5", "d5", "c5", "b5", "a5", "e4", "e3", "e2", "e1",
                                    "g5", "h5", "i5", "j5", "g4", "g3", "g2", "g1",
                                    "e7",
                                }));
}

TEST(GrantPieces, RhinocerosLeapsLikeAKnightThenSlidesAway) {
  Position pos = grant(fen12({{"a1", 'K'}, {"l12", 'k'}, {"f6", 'U'}}, "w - - 0 1"));
  EXPECT_EQ(targets(pos, "f6"), sorted({
                                    "g8", "h9", "i10", "j11", "k12",  // (1,2) then (1,1)
                                    "h7", "i8", "j9", "k10", "l11",   // (2,1)
                                    "e8", "d9", "c10", "b11", "a12",  // (-1,2) then (-1,1)
                                    "d7", "c8", "b9", "a10",          // (-2,1)
                                    "g4", "h3", "i2", "j1",           // (1,-2) then (1,-1)
                                    "h5", "i4", "j3", "k2", "l1",     // (2,-1)
                                    "e4", "d3", "c2", "b1",           // (-1,-2) then (-1,-1)
                                    "d5", "c4", "b3", "a2",           // (-2,-1)
                                }));
}

TEST(GrantPieces, RhinocerosNeedsAnEmptyKnightSquareToGoOn) {
  // Own pawn on g8 stops the whole (1,2) branch; black rook on h7 is taken and
  // stops the (2,1) branch; a black pawn on c10 ends the (-1,2) slide.
  Position pos = grant(fen12({{"a1", 'K'}, {"l12", 'k'}, {"f6", 'U'}, {"g8", 'P'}, {"h7", 'r'}, {"c10", 'p'}},
                             "w - - 0 1"));
  EXPECT_EQ(targets(pos, "f6"), sorted({
                                    "h7",
                                    "e8", "d9", "c10",
                                    "d7", "c8", "b9", "a10",
                                    "g4", "h3", "i2", "j1",
                                    "h5", "i4", "j3", "k2", "l1",
                                    "e4", "d3", "c2", "b1",
                                    "d5", "c4", "b3", "a2",
                                }));
}

TEST(GrantPieces, RhinocerosForwardSlidesOnlyForward) {
  Position white = grant(fen12({{"a1", 'K'}, {"l12", 'k'}, {"f6", 'U'}}, "w - - 0 1"), {"rhino=forward"});
  EXPECT_EQ(targets(white, "f6"), sorted({
                                      "g8", "h9", "i10", "j11", "k12",
                                      "h7", "i8", "j9", "k10", "l11",
                                      "e8", "d9", "c10", "b11", "a12",
                                      "d7", "c8", "b9", "a10",
                                      "g4", "h5", "e4", "d5",  // backward leaps stay knight leaps
                                  }));
  // Black's forward is down the board.
  Position black = grant(fen12({{"l12", 'K'}, {"a12", 'k'}, {"f7", 'u'}}, "b - - 0 1"), {"rhino=forward"});
  EXPECT_EQ(targets(black, "f7"), sorted({
                                      "g9", "h8", "e9", "d8",
                                      "g5", "h4", "i3", "j2", "k1",
                                      "h6", "i5", "j4", "k3", "l2",
                                      "e5", "d4", "c3", "b2", "a1",
                                      "d6", "c5", "b4", "a3",
                                  }));
}

// A ring of own pawns does not stop a leaper.
const Placement kLionRing = {{"a1", 'K'}, {"l12", 'k'}, {"f6", 'L'}, {"e5", 'P'}, {"f5", 'P'}, {"g5", 'P'},
                             {"e6", 'P'}, {"g6", 'P'}, {"e7", 'P'}, {"f7", 'P'}, {"g7", 'P'}};

TEST(GrantPieces, LionCazaux) {
  Position pos = grant(fen12(kLionRing, "w - - 0 1"));
  EXPECT_EQ(targets(pos, "f6"), sorted({"f9", "f3", "c6", "i6", "e9", "g9", "e3", "g3", "c5", "c7", "i5", "i7"}));
  Position explicitOption = grant(fen12(kLionRing, "w - - 0 1"), {"lion=cazaux"});
  EXPECT_EQ(targets(explicitOption, "f6").size(), 12u);
}

TEST(GrantPieces, LionMurray) {
  Position pos = grant(fen12(kLionRing, "w - - 0 1"), {"lion=murray"});
  EXPECT_EQ(targets(pos, "f6"), sorted({"f9", "f3", "c6", "i6"}));
  // It captures where it lands, never on its own piece.
  Position capture = grant(fen12({{"a1", 'K'}, {"l12", 'k'}, {"f6", 'L'}, {"f9", 'r'}, {"f3", 'P'}}, "w - - 0 1"),
                           {"lion=murray"});
  EXPECT_EQ(targets(capture, "f6"), sorted({"f9", "c6", "i6"}));
}

TEST(GrantPieces, LionMusser) {
  Position pos = grant(fen12(kLionRing, "w - - 0 1"), {"lion=musser"});
  EXPECT_EQ(targets(pos, "f6"), sorted({"f9", "c6", "i6"}));
  // Musser's lion never jumps backward: for Black that is up the board.
  Position black = grant(fen12({{"a1", 'K'}, {"l12", 'k'}, {"f7", 'l'}}, "b - - 0 1"), {"lion=musser"});
  EXPECT_EQ(targets(black, "f7"), sorted({"f4", "c7", "i7"}));
}

const Placement kGiraffe = {{"a1", 'K'}, {"l12", 'k'}, {"f6", 'G'}, {"f7", 'P'}, {"g7", 'P'}, {"g6", 'P'}};

TEST(GrantPieces, GiraffeCazaux) {
  Position pos = grant(fen12(kGiraffe, "w - - 0 1"));
  EXPECT_EQ(targets(pos, "f6"), sorted({"h9", "d9", "h3", "d3", "i8", "c8", "i4", "c4"}));
}

TEST(GrantPieces, GiraffeMurray) {
  Position pos = grant(fen12(kGiraffe, "w - - 0 1"), {"giraffe=murray"});
  EXPECT_EQ(targets(pos, "f6"), sorted({"g10", "e10", "g2", "e2", "j7", "b7", "j5", "b5"}));
}

TEST(GrantPieces, CrocodileIsABishop) {
  Position pos = grant(fen12({{"a1", 'K'}, {"l12", 'k'}, {"f5", 'C'}, {"c8", 'p'}}, "w - - 0 1"));
  EXPECT_EQ(targets(pos, "f5"), sorted({
                                    "g6", "h7", "i8", "j9", "k10", "l11",
                                    "e6", "d7", "c8",
                                    "e4", "d3", "c2", "b1",
                                    "g4", "h3", "i2", "j1",
                                }));
}

TEST(GrantPieces, BentPiecesAttackAlongTheirWholePath) {
  // Black rhinoceros d8: knight leap to e6, then down-right f5 g4 h3.
  EXPECT_TRUE(grant(fen12({{"h3", 'K'}, {"l12", 'k'}, {"d8", 'u'}}, "w - - 0 1")).inCheck(0));
  EXPECT_FALSE(grant(fen12({{"h3", 'K'}, {"l12", 'k'}, {"d8", 'u'}, {"e6", 'P'}}, "w - - 0 1")).inCheck(0));
  EXPECT_FALSE(grant(fen12({{"h3", 'K'}, {"l12", 'k'}, {"d8", 'u'}, {"g4", 'P'}}, "w - - 0 1")).inCheck(0));
  // Black aanca b10: diagonal step to c9, then down the c-file to c2.
  EXPECT_TRUE(grant(fen12({{"c2", 'K'}, {"l12", 'k'}, {"b10", 'a'}}, "w - - 0 1")).inCheck(0));
  EXPECT_FALSE(grant(fen12({{"c2", 'K'}, {"l12", 'k'}, {"b10", 'a'}, {"c9", 'P'}}, "w - - 0 1")).inCheck(0));
  // The king may not step onto a square the aanca reaches: from c2, c1 and c3
  // are on the c-file; b1, b2, b3 and d1, d2, d3 are free.
  Position pos = grant(fen12({{"c2", 'K'}, {"l12", 'k'}, {"b10", 'a'}}, "w - - 0 1"));
  EXPECT_EQ(targets(pos, "c2"), sorted({"b1", "b2", "b3", "d1", "d2", "d3"}));
}

// clang-format on

// ---------------------------------------------------------------------------
// The king's first leap

const std::string kLone = fen12({{"g1", 'K'}, {"g12", 'k'}}, "w Jj - 0 1");

TEST(GrantKing, LeapsTwoSquaresWhileItHasNeverMoved) {
  Position pos = grant(kLone);
  EXPECT_EQ(targets(pos, "g1"), sorted({"f1", "h1", "f2", "g2", "h2", "e1", "i1", "e3", "g3", "i3"}));
  // Without the right in the position text there is no leap.
  Position noRight = grant(fen12({{"g1", 'K'}, {"g12", 'k'}}, "w j - 0 1"));
  EXPECT_EQ(targets(noRight, "g1"), sorted({"f1", "h1", "f2", "g2", "h2"}));
  // With king-leap=no, none at all.
  Position off = grant(kLone, {"king-leap=no"});
  EXPECT_EQ(targets(off, "g1"), sorted({"f1", "h1", "f2", "g2", "h2"}));
}

TEST(GrantKing, LeapJumpsOverAPieceButNeverCaptures) {
  // Own pawn on g2 is jumped; a black giraffe on g3 may not be taken by the
  // leap (it attacks d1, j1, d5, j5 only).
  Position pos = grant(fen12({{"g1", 'K'}, {"g12", 'k'}, {"g2", 'P'}, {"g3", 'g'}}, "w Jj - 0 1"));
  EXPECT_EQ(targets(pos, "g1"), sorted({"f1", "h1", "f2", "h2", "e1", "i1", "e3", "i3"}));
  Position over = grant(fen12({{"g1", 'K'}, {"g12", 'k'}, {"g2", 'P'}}, "w Jj - 0 1"));
  EXPECT_EQ(targets(over, "g1"), sorted({"f1", "h1", "f2", "h2", "e1", "i1", "e3", "g3", "i3"}));
}

TEST(GrantKing, NoLeapOutOfCheck) {
  Position pos = grant(fen12({{"g1", 'K'}, {"g12", 'k'}, {"g8", 'r'}}, "w Jj - 0 1"));
  EXPECT_EQ(targets(pos, "g1"), sorted({"f1", "h1", "f2", "h2"}));
}

TEST(GrantKing, NoLeapOverAnAttackedSquare) {
  // The black rook on h8 attacks h1 and h2: no step there, and no leap over
  // them to i1 or i3.
  Position pos = grant(fen12({{"g1", 'K'}, {"g12", 'k'}, {"h8", 'r'}}, "w Jj - 0 1"));
  EXPECT_EQ(targets(pos, "g1"), sorted({"f1", "f2", "g2", "e1", "e3", "g3"}));
  // The landing square must not be attacked either (rook on e8).
  Position landing = grant(fen12({{"g1", 'K'}, {"g12", 'k'}, {"e8", 'r'}}, "w Jj - 0 1"));
  EXPECT_EQ(targets(landing, "g1"), sorted({"f1", "h1", "f2", "g2", "h2", "g3", "i1", "i3"}));
}

TEST(GrantKing, AnyKingMoveLosesTheLeap) {
  Position pos = grant(kLone);
  ASSERT_TRUE(play(pos, "g1g2 g12g11 g2g1").ok());
  EXPECT_EQ(pos.text(), fen12({{"g1", 'K'}, {"g11", 'k'}}, "b - - 3 2"));
  ASSERT_TRUE(play(pos, "g11g12").ok());
  EXPECT_EQ(targets(pos, "g1"), sorted({"f1", "h1", "f2", "g2", "h2"}));
  // After the leap itself the right is gone too.
  Position leap = grant(kLone);
  ASSERT_TRUE(play(leap, "g1i3").ok());
  EXPECT_EQ(leap.text(), fen12({{"i3", 'K'}, {"g12", 'k'}}, "b j - 1 1"));
  ASSERT_TRUE(play(leap, "g12e10").ok());
  EXPECT_EQ(leap.text(), fen12({{"i3", 'K'}, {"e10", 'k'}}, "w - - 2 2"));
  EXPECT_EQ(targets(leap, "i3").size(), 8u);
  // Another piece's move keeps the right.
  Position other = grant(fen12({{"g1", 'K'}, {"g12", 'k'}, {"a1", 'R'}}, "w Jj - 0 1"));
  ASSERT_TRUE(play(other, "a1a2 g12g11").ok());
  EXPECT_EQ(other.text(), fen12({{"g1", 'K'}, {"g11", 'k'}, {"a2", 'R'}}, "w J - 2 2"));
  EXPECT_TRUE(hasMove(other, "g1g3"));
}

TEST(GrantKing, StartPositionLeapCounts) {
  Position leap = grant("");
  EXPECT_EQ(targets(leap, "g1"), sorted({"f2", "g2", "h2", "e3", "g3", "i3"}));
  EXPECT_EQ(leap.countLegal(), 71);
  Position noLeap = grant("", {"king-leap=no"});
  EXPECT_EQ(targets(noLeap, "g1"), sorted({"f2", "g2", "h2"}));
  EXPECT_EQ(noLeap.countLegal(), 68);
}

// ---------------------------------------------------------------------------
// The pawns' double step

TEST(GrantPawns, UntilCaptureLostForAllPawnsOfThatSide) {
  const std::string fen =
      fen12({{"g1", 'K'}, {"g12", 'k'}, {"a4", 'P'}, {"c4", 'P'}, {"b5", 'p'}, {"k9", 'p'}}, "w Dd - 0 1");
  Position pos = grant(fen);
  EXPECT_EQ(targets(pos, "a4"), sorted({"a5", "a6", "b5"}));
  EXPECT_EQ(targets(pos, "c4"), sorted({"c5", "c6", "b5"}));
  ASSERT_TRUE(play(pos, "a4b5").ok());
  EXPECT_EQ(pos.text(), fen12({{"g1", 'K'}, {"g12", 'k'}, {"b5", 'P'}, {"c4", 'P'}, {"k9", 'p'}}, "b d - 0 1"));
  EXPECT_TRUE(hasMove(pos, "k9k7"));  // Black keeps its right
  ASSERT_TRUE(play(pos, "k9k7").ok());
  EXPECT_EQ(targets(pos, "c4"), Strings{"c5"});
  EXPECT_FALSE(pos.parseMove("c4c6").ok());
}

TEST(GrantPawns, UntilCaptureBlackSideAndNonPawnCaptures) {
  // A black pawn's capture takes Black's right only.
  Position pos =
      grant(fen12({{"g1", 'K'}, {"g12", 'k'}, {"a4", 'P'}, {"i8", 'P'}, {"j9", 'p'}, {"k9", 'p'}}, "b Dd - 0 1"));
  EXPECT_EQ(targets(pos, "k9"), sorted({"k8", "k7"}));
  ASSERT_TRUE(play(pos, "j9i8").ok());
  EXPECT_EQ(pos.text(), fen12({{"g1", 'K'}, {"g12", 'k'}, {"a4", 'P'}, {"i8", 'p'}, {"k9", 'p'}}, "w D - 0 2"));
  EXPECT_EQ(targets(pos, "a4"), sorted({"a5", "a6"}));
  ASSERT_TRUE(play(pos, "a4a6").ok());
  EXPECT_EQ(targets(pos, "k9"), Strings{"k8"});
  // A capture by another piece keeps the right.
  Position rook = grant(fen12({{"g1", 'K'}, {"g12", 'k'}, {"b1", 'R'}, {"c4", 'P'}, {"b5", 'p'}}, "w Dd - 0 1"));
  ASSERT_TRUE(play(rook, "b1b5 g12g11").ok());
  EXPECT_EQ(rook.text(), fen12({{"g1", 'K'}, {"g11", 'k'}, {"b5", 'R'}, {"c4", 'P'}}, "w Dd - 1 2"));
  EXPECT_EQ(targets(rook, "c4"), sorted({"c5", "c6"}));
}

TEST(GrantPawns, AlwaysAndNever) {
  const std::string fen =
      fen12({{"g1", 'K'}, {"g12", 'k'}, {"a4", 'P'}, {"c4", 'P'}, {"b5", 'p'}, {"k9", 'p'}}, "w - - 0 1");
  Position always = grant(fen, {"pawn-double=always"});
  ASSERT_TRUE(play(always, "a4b5 k9k7").ok());
  EXPECT_EQ(targets(always, "c4"), sorted({"c5", "c6"}));
  Position never = grant(fen, {"pawn-double=never"});
  EXPECT_EQ(targets(never, "a4"), sorted({"a5", "b5"}));
  EXPECT_EQ(targets(never, "c4"), sorted({"c5", "b5"}));
  // At the start: 12 double steps fewer.
  EXPECT_EQ(grant("", {"pawn-double=always"}).countLegal(), 71);
  EXPECT_EQ(grant("", {"pawn-double=never"}).countLegal(), 59);
  Position start = grant("");
  EXPECT_EQ(start.countLegal(), 71);
  EXPECT_TRUE(hasMove(start, "a4a6"));
  EXPECT_TRUE(hasMove(start, "l4l6"));
}

TEST(GrantPawns, DoubleStepOnlyFromTheStartingRankOverTwoEmptySquares) {
  Position pos = grant(fen12({{"g1", 'K'},
                              {"g12", 'k'},
                              {"a5", 'P'},
                              {"b3", 'P'},
                              {"c4", 'P'},
                              {"e4", 'P'},
                              {"e5", 'p'},
                              {"h4", 'P'},
                              {"h6", 'p'},
                              {"d8", 'p'}},
                             "w Dd - 0 1"));
  EXPECT_EQ(targets(pos, "a5"), Strings{"a6"});
  EXPECT_EQ(targets(pos, "b3"), Strings{"b4"});
  EXPECT_EQ(targets(pos, "c4"), sorted({"c5", "c6"}));
  EXPECT_EQ(targets(pos, "e4"), Strings{});      // blocked on e5: no jump to e6
  EXPECT_EQ(targets(pos, "h4"), Strings{"h5"});  // h6 occupied
  ASSERT_TRUE(play(pos, "c4c5").ok());
  EXPECT_EQ(targets(pos, "d8"), Strings{"d7"});
}

TEST(GrantPawns, NoEnPassant) {
  Position pos = grant(fen12({{"g1", 'K'}, {"g12", 'k'}, {"d4", 'P'}, {"e6", 'p'}}, "w Dd - 0 1"));
  ASSERT_TRUE(play(pos, "d4d6").ok());
  EXPECT_EQ(pos.text(), fen12({{"g1", 'K'}, {"g12", 'k'}, {"d6", 'P'}, {"e6", 'p'}}, "b Dd - 0 1"));
  EXPECT_EQ(targets(pos, "e6"), Strings{"e5"});
  // An en-passant square written in the text is ignored.
  Position written = grant(fen12({{"g1", 'K'}, {"g12", 'k'}, {"d6", 'P'}, {"e6", 'p'}}, "b Dd d5 0 1"));
  EXPECT_EQ(written.epSquare(), kNoSquare);
  EXPECT_EQ(targets(written, "e6"), Strings{"e5"});
}

// ---------------------------------------------------------------------------
// Promotion by file

TEST(GrantPromotion, ThePieceOfThatFilesSetup) {
  Placement p = {{"c3", 'K'}, {"a1", 'k'}};
  for (char f = 'a'; f <= 'l'; ++f) p[std::string(1, f) + "11"] = 'P';
  Position pos = grant(fen12(p, "w - - 0 1"));
  Strings promos;
  for (const auto& m : legalTexts(pos))
    if (m.find("11") == 1) promos.push_back(m);
  EXPECT_EQ(promos, sorted({"a11a12r", "b11b12l", "c11c12u", "d11d12g", "e11e12c", "f11f12a", "g11g12a", "h11h12c",
                            "i11i12g", "j11j12u", "k11k12l", "l11l12r"}));
  // The suffix is forced: without it, or with another letter, it is refused.
  for (const char* bad : {"c11c12", "c11c12q", "c11c12r", "c11c12U", "g11g12k"}) {
    const std::string before = pos.text();
    EXPECT_FALSE(pos.parseMove(bad).ok()) << bad;
    EXPECT_FALSE(play(pos, bad).ok()) << bad;
    EXPECT_EQ(pos.text(), before);
  }
  ASSERT_TRUE(play(pos, "c11c12u").ok());
  const int rhino = pos.rules().typeByLetter('U');
  const Piece q = pos.at(*pos.rules().parseSquare("c12"));
  EXPECT_EQ(typeOf(q), rhino);
  EXPECT_EQ(seatOf(q), 0);
}

TEST(GrantPromotion, ByTheFileOfArrivalAndForBlack) {
  // A capture onto a12 makes a rook although the pawn came from the b-file.
  Position pos =
      grant(fen12({{"l3", 'K'}, {"g8", 'k'}, {"b11", 'P'}, {"a12", 'l'}, {"f2", 'p'}, {"e1", 'R'}}, "w - - 0 1"));
  EXPECT_EQ(targets(pos, "b11"), sorted({"a12", "b12"}));
  EXPECT_TRUE(hasMove(pos, "b11a12r"));
  EXPECT_TRUE(hasMove(pos, "b11b12l"));
  ASSERT_TRUE(play(pos, "b11a12r").ok());
  // Black: f2 to f1 makes an aanca, taking e1 a crocodile.
  Strings black;
  for (const auto& m : legalTexts(pos))
    if (m.rfind("f2", 0) == 0) black.push_back(m);
  EXPECT_EQ(black, sorted({"f2e1c", "f2f1a"}));
}

// ---------------------------------------------------------------------------
// The end

TEST(GrantEnd, CheckmateWins) {
  Game game(grantRules());
  ASSERT_TRUE(game.setStart(fen12({{"b10", 'K'}, {"a12", 'k'}, {"c1", 'R'}}, "w - - 0 1")).ok());
  ASSERT_TRUE(game.play("c1c12").ok());
  EXPECT_TRUE(game.finished());
  EXPECT_EQ(game.position().result(), ResultKind::kWin);
  EXPECT_EQ(game.position().winner(), 0);
}

TEST(GrantEnd, StalemateDrawOrLoss) {
  const std::string fen = fen12({{"b10", 'K'}, {"a12", 'k'}, {"e11", 'C'}}, "w - - 0 1");
  Game draw(grantRules());
  ASSERT_TRUE(draw.setStart(fen).ok());
  ASSERT_TRUE(draw.play("e11d10").ok());
  EXPECT_TRUE(draw.finished());
  EXPECT_EQ(draw.position().result(), ResultKind::kDraw);
  EXPECT_EQ(draw.drawReasonKind(), DrawReason::kStalemate);
  EXPECT_EQ(draw.position().places()[0], 1);
  EXPECT_EQ(draw.position().places()[1], 1);

  Game loss(grantRules({"stalemate=loss"}));
  ASSERT_TRUE(loss.setStart(fen).ok());
  ASSERT_TRUE(loss.play("e11d10").ok());
  EXPECT_TRUE(loss.finished());
  EXPECT_EQ(loss.position().result(), ResultKind::kWin);
  EXPECT_EQ(loss.position().winner(), 0);
  EXPECT_EQ(loss.position().places()[0], 1);
  EXPECT_EQ(loss.position().places()[1], 2);

  // Perft counts nothing after the stalemate.
  Position pos = grant(fen);
  ASSERT_TRUE(play(pos, "e11d10").ok());
  EXPECT_EQ(perft(pos, 1), 0u);
}

// ---------------------------------------------------------------------------
// The die

// Face -> letter of the piece that face moves.
const std::map<int, char> kFaces = {{8, 'K'}, {7, 'A'}, {6, 'U'}, {5, 'R'}, {4, 'L'}, {3, 'C'}, {2, 'G'}, {1, 'P'}};

std::vector<PlyRecord> randomDieGame(uint64_t seed, int plies) {
  auto r = grantRules({"die=on"});
  Game game(r, seed);
  std::mt19937 pick(99);
  for (int i = 0; i < plies && !game.finished(); ++i) {
    const int face = game.currentThrow();
    EXPECT_TRUE(kFaces.count(face)) << face;
    EXPECT_EQ(game.currentThrowType(), r->typeByLetter(kFaces.at(face)));
    const auto moves = game.legalMoves();
    EXPECT_FALSE(moves.empty());
    const Move m = moves[pick() % moves.size()];
    if (m.isNull()) {
      EXPECT_EQ(moves.size(), 1u);
    } else {
      EXPECT_EQ(typeOf(game.position().at(m.from())), game.currentThrowType());
    }
    EXPECT_TRUE(game.play(m).ok());
  }
  return game.record();
}

TEST(GrantDie, AVariantFileDieHasAtMost32Faces) {
  std::ifstream in(std::string(ACEDREX_SOURCE_DIR) + "/variants/shako.variant");
  std::stringstream text;
  text << in.rdbuf();
  ASSERT_FALSE(text.str().empty());
  auto withFaces = [&](int n) {
    std::string die = "\ndie =";
    for (int f = 1; f <= n; ++f) die += " " + std::to_string(f) + ":P";
    VariantRegistry reg;
    return reg.add(text.str() + die + "\n", "test.variant");
  };
  EXPECT_TRUE(withFaces(32).ok());
  const Status s = withFaces(33);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().text().find("at most 32 faces"), std::string::npos) << s.error().text();
}

TEST(GrantDie, ThrowsAreDeterministicPerSeed) {
  const auto a = randomDieGame(123, 60);
  const auto b = randomDieGame(123, 60);
  const auto c = randomDieGame(124, 60);
  ASSERT_EQ(a.size(), b.size());
  std::string facesA, facesC;
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].move, b[i].move);
    EXPECT_EQ(a[i].dieFace, b[i].dieFace);
    facesA += std::to_string(a[i].dieFace);
  }
  for (const auto& p : c) facesC += std::to_string(p.dieFace);
  EXPECT_NE(facesA, facesC);
  // Every face turns up over a long game.
  std::set<int> seen;
  for (const auto& p : a) seen.insert(p.dieFace);
  EXPECT_EQ(seen.size(), 8u);
}

TEST(GrantDie, LostTurnWhenTheThrownKindCannotMove) {
  auto r = grantRules({"die=on"});
  const std::string fen = fen12({{"g1", 'K'}, {"g12", 'k'}, {"a4", 'P'}}, "w - - 0 1");
  uint64_t seed = 0;
  for (uint64_t s = 1; s < 1000 && !seed; ++s) {
    Game g(r, s);
    ASSERT_TRUE(g.setStart(fen).ok());
    if (g.currentThrow() == 7) seed = s;  // an aanca, which White lacks
  }
  ASSERT_NE(seed, 0u);
  Game game(r, seed);
  ASSERT_TRUE(game.setStart(fen).ok());
  ASSERT_EQ(game.currentThrow(), 7);
  const auto moves = game.legalMoves();
  ASSERT_EQ(moves.size(), 1u);
  EXPECT_TRUE(moves[0].isNull());
  const std::string before = game.position().text();
  EXPECT_FALSE(game.play("g1g2").ok());
  EXPECT_FALSE(game.play("a4a5").ok());
  EXPECT_EQ(game.position().text(), before);
  EXPECT_TRUE(game.record().empty());
  ASSERT_TRUE(game.play("0000").ok());
  ASSERT_EQ(game.record().size(), 1u);
  EXPECT_EQ(game.record()[0].move, "0000");
  EXPECT_EQ(game.record()[0].dieFace, 7);
  EXPECT_EQ(game.position().toMove(), 1);
  EXPECT_EQ(game.position().fifty(), 1);
  // Without the die, 0000 is no move.
  Game noDie(grantRules());
  ASSERT_TRUE(noDie.setStart(fen).ok());
  EXPECT_FALSE(noDie.play("0000").ok());
}

TEST(GrantDie, AKingLeftInCheckMayBeCapturedWhichWins) {
  auto r = grantRules({"die=on"});
  // Black is in check from the rook on a1; only its king can answer.
  const std::string fen = fen12({{"l1", 'K'}, {"a1", 'R'}, {"a12", 'k'}, {"h9", 'p'}}, "b - - 0 1");
  uint64_t seed = 0;
  for (uint64_t s = 1; s < 20000 && !seed; ++s) {
    Game g(r, s);
    ASSERT_TRUE(g.setStart(fen).ok());
    if (g.currentThrow() == 8) continue;
    if (!g.play("0000").ok()) continue;
    if (g.currentThrow() == 5) seed = s;
  }
  ASSERT_NE(seed, 0u);
  Game game(r, seed);
  ASSERT_TRUE(game.setStart(fen).ok());
  EXPECT_FALSE(game.finished());  // not mated: the king could move
  EXPECT_NE(game.currentThrow(), 8);
  EXPECT_FALSE(game.play("a12b12").ok());
  EXPECT_FALSE(game.play("h9h8").ok());
  ASSERT_TRUE(game.play("0000").ok());
  EXPECT_EQ(game.currentThrow(), 5);
  EXPECT_TRUE(game.position().inCheck(1));
  auto moves = game.legalMoves();
  bool capture = false;
  for (Move m : moves) capture = capture || game.position().moveText(m) == "a1a12";
  EXPECT_TRUE(capture);
  ASSERT_TRUE(game.play("a1a12").ok());
  EXPECT_TRUE(game.finished());
  EXPECT_EQ(game.position().result(), ResultKind::kWin);
  EXPECT_EQ(game.position().winner(), 0);
  EXPECT_EQ(game.position().places()[0], 1);
  EXPECT_EQ(game.position().places()[1], 2);
}

// ---------------------------------------------------------------------------
// Position text

TEST(GrantText, RoundTripsWithLeapAndDoubleStepRights) {
  Position pos = grant("");
  EXPECT_EQ(pos.text(), "rlugcakcgulr/12/12/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/12/12/RLUGCAKCGULR w JDjd - 0 1");
  ASSERT_TRUE(play(pos, "e4e6 d9d7 e6d7").ok());
  EXPECT_EQ(pos.text(), "rlugcakcgulr/12/12/ppp1pppppppp/12/3P8/12/12/PPPP1PPPPPPP/12/12/RLUGCAKCGULR b Jjd - 0 2");
  ASSERT_TRUE(play(pos, "g12g11").ok());
  EXPECT_EQ(pos.text(), "rlugca1cgulr/6k5/12/ppp1pppppppp/12/3P8/12/12/PPPP1PPPPPPP/12/12/RLUGCAKCGULR w Jd - 1 3");
  for (const std::string& fen : {
           pos.text(),
           std::string("rlugcakcgulr/12/12/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/12/12/RLUGCAKCGULR w JDjd - 0 1"),
           fen12({{"g1", 'K'}, {"g12", 'k'}}, "b Jj - 7 30"),
           fen12({{"g1", 'K'}, {"g12", 'k'}}, "w Dd - 0 1"),
           fen12({{"g1", 'K'}, {"g12", 'k'}}, "w Jd - 0 1"),
           fen12({{"g1", 'K'}, {"g12", 'k'}}, "w jD - 0 1"),
           fen12({{"g1", 'K'}, {"g12", 'k'}}, "w - - 0 1"),
       }) {
    Position a = grant(fen);
    Position b(a.rulesPtr());
    ASSERT_TRUE(b.set(a.text()).ok()) << fen;
    EXPECT_EQ(b.text(), a.text());
    EXPECT_EQ(b.hash(), a.hash());
    EXPECT_EQ(a.rights(), b.rights());
  }
  // "jD" is written in the canonical order.
  EXPECT_EQ(grant(fen12({{"g1", 'K'}, {"g12", 'k'}}, "w jD - 0 1")).text(),
            fen12({{"g1", 'K'}, {"g12", 'k'}}, "w Dj - 0 1"));
  // The rights are part of the position: the same placement with and without
  // the leap right are different positions.
  EXPECT_NE(grant(fen12({{"g1", 'K'}, {"g12", 'k'}}, "w Jj - 0 1")).hash(),
            grant(fen12({{"g1", 'K'}, {"g12", 'k'}}, "w j - 0 1")).hash());
  EXPECT_NE(grant(fen12({{"g1", 'K'}, {"g12", 'k'}}, "w Dd - 0 1")).hash(),
            grant(fen12({{"g1", 'K'}, {"g12", 'k'}}, "w d - 0 1")).hash());
}

TEST(GrantText, RejectsMalformedText) {
  Position pos = grant("");
  const std::string before = pos.text();
  for (const std::string& bad : {
           std::string(""),
           std::string("rlugcakcgulr/12/12/pppppppppppp/12/12/12/PPPPPPPPPPPP/12/12/RLUGCAKCGULR w JDjd - 0 1"),
           std::string("rlugcakcgulr/12/12/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/12/12/RLUGCAKCGULRR w JDjd - 0 1"),
           std::string("rlugcakcgulr/12/12/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/12/12/RLUGCAKCGULQ w JDjd - 0 1"),
           std::string("rlugcakcgulr/12/12/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/12/12/RLUGCAKCGULR x JDjd - 0 1"),
           std::string("rlugcakcgulr/12/12/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/12/12/RLUGCAKCGULR w JDjdX - 0 1"),
           std::string("rlugcakcgulr/12/12/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/12/12/RLUGCAKCGULR w JDjd - a 1"),
           std::string("rlugca1cgulr/12/12/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/12/12/RLUGCAKCGULR w JDjd - 0 1"),
           fen12({{"g1", 'K'}, {"g12", 'k'}, {"a12", 'P'}}, "w - - 0 1"),  // pawn on its last rank
           fen12({{"g1", 'K'}, {"g12", 'k'}, {"g2", 'r'}}, "b - - 0 1"),   // side not to move in check
       }) {
    EXPECT_FALSE(pos.set(bad).ok()) << bad;
    EXPECT_EQ(pos.text(), before) << bad;
  }
  EXPECT_EQ(pos.countLegal(), 71);
}

}  // namespace
}  // namespace acedrex::test
