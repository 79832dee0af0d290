// Friendly chess (Paco Ŝako, Rules::unions): each rule on a small position
// with its move list counted by hand (docs/rules/friendly-chess.md), the
// union letters of the FEN, the end of the game and the counters.
#include <mutex>

#include "protocol/uci.h"
#include "test_util.h"

namespace acedrex::test {
namespace {

const char* const kVariant = "friendly-chess";

std::vector<std::string> sorted(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  return v;
}

Position after(const std::string& fen, const std::vector<std::string>& moves) {
  Position pos = position(kVariant, fen);
  for (const auto& t : moves) {
    auto m = pos.parseMove(t);
    EXPECT_TRUE(m.ok()) << t << " in " << pos.text();
    if (m.ok()) pos.make(*m);
  }
  return pos;
}

TEST(Friendly, MovingOntoAnEnemyPieceFormsAUnion) {
  Position pos = position(kVariant, "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1");
  EXPECT_EQ(legalTexts(pos), sorted({"e1d1", "e1d2", "e1e2", "e1f1", "e1f2", "e4e5", "e4d5"}));
  pos.make(*pos.parseMove("e4d5"));
  // Nothing is captured: both pawns stand on d5, written 'a' (pawn and pawn).
  EXPECT_EQ(pos.text(), "4k3/8/8/3a4/8/8/8/4K3 b - - 0 1");
  const Square d5 = pos.rules().square(3, 4);
  EXPECT_EQ(typeOf(pos.at(d5)), pos.rules().typeByLetter('P'));
  EXPECT_EQ(seatOf(pos.at(d5)), 0);
  EXPECT_EQ(seatOf(pos.partnerAt(d5)), 1);
  // Black moves the union as its pawn, carrying the white pawn along; a union never strikes.
  EXPECT_EQ(legalTexts(pos), sorted({"e8d8", "e8f8", "e8d7", "e8e7", "e8f7", "d5d4"}));
  pos.make(*pos.parseMove("d5d4"));
  EXPECT_EQ(pos.text(), "4k3/8/8/8/3a4/8/8/4K3 w - - 1 2");
  pos.unmake();
  pos.unmake();
  EXPECT_EQ(pos.text(), "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1");
  EXPECT_TRUE(pos.isValid());
}

TEST(Friendly, EitherSideMovesAUnionAndAPieceEnteringOneFreesThePieceThere) {
  // d5: a black pawn with a white knight ('d'). White: queen d1, king e1.
  Position pos = position(kVariant, "4k3/8/8/3d4/8/8/8/3QK3 w - - 0 1");
  const auto moves = legalTexts(pos);
  // King 4, queen 13 quiet, the union as a knight 8, the queen into the
  // union freeing the knight, which goes on to any of its 8 squares.
  EXPECT_EQ(moves.size(), 33u);
  EXPECT_TRUE(hasMove(pos, "d5e7"));      // the union moved by white
  EXPECT_TRUE(hasMove(pos, "d1d5,d5e7"));  // the chain
  EXPECT_FALSE(hasMove(pos, "d1d5"));      // a freed piece must move on
  pos.make(*pos.parseMove("d1d5,d5e7"));
  EXPECT_EQ(pos.text(), "4k3/4N3/8/3f4/8/8/8/4K3 b - - 1 1");
}

TEST(Friendly, ChainsGoOnThroughFurtherUnions) {
  // The knight freed on d5 may enter the union on e7 and free the bishop there.
  Position pos = position(kVariant, "4k3/4e3/8/3d4/8/8/8/3QK3 w - - 0 1");
  // King 4, queen 13 quiet, chains 7 + 9, the knight union 7, the bishop union 9.
  EXPECT_EQ(legalTexts(pos).size(), 49u);
  EXPECT_TRUE(hasMove(pos, "d1d5,d5e7,e7a3"));
  pos.make(*pos.parseMove("d1d5,d5e7,e7a3"));
  EXPECT_EQ(pos.text(), "4k3/4d3/8/3f4/8/B7/8/4K3 b - - 1 1");
}

TEST(Friendly, TurnsEndingInTheSamePositionCountOnce) {
  // Ra4 into the union on d4 frees the rook there; its ending on b4 or c4 is
  // the plain Ra4-b4 / Ra4-c4, its ending on a4 a turn that changed nothing
  // on the board (still a move: the other side is to move).
  Position pos = position(kVariant, "4k3/8/8/8/R2c4/8/8/4K3 w - - 0 1");
  // King 5, rook 9, chains 14 - 2, the union as a rook 13.
  EXPECT_EQ(legalTexts(pos).size(), 39u);
  EXPECT_TRUE(hasMove(pos, "a4b4"));
  EXPECT_FALSE(hasMove(pos, "a4d4,d4b4"));
  EXPECT_TRUE(hasMove(pos, "a4d4,d4a4"));
  pos.make(*pos.parseMove("a4d4,d4a4"));
  EXPECT_EQ(pos.text(), "4k3/8/8/8/R2c4/8/8/4K3 b - - 1 1");
}

TEST(Friendly, TheKingNeverJoinsAUnion) {
  // A black pawn on d2 and a union on f2 next to the king: it may go to neither.
  Position pos = position(kVariant, "4k3/8/8/8/8/8/3p1a2/4K3 w - - 0 1");
  EXPECT_EQ(legalTexts(pos), sorted({"e1d1", "e1e2", "e1f1", "f2f3", "f2f4"}));
}

TEST(Friendly, UnitingWithTheEnemyKingWins) {
  Position pos = position(kVariant, "4k3/8/3N4/8/8/8/8/4K3 w - - 0 1");
  pos.make(*pos.parseMove("d6e8"));
  EXPECT_TRUE(pos.finished());
  EXPECT_EQ(pos.result(), ResultKind::kWin);
  EXPECT_EQ(pos.winner(), 0);
  EXPECT_EQ(pos.text(), "4U3/8/8/8/8/8/8/4K3 b - - 0 1");  // U: white knight, black king
  MoveList none;
  pos.legalMoves(none);
  EXPECT_TRUE(none.empty());
  // The finished position reads back as finished.
  Position again = position(kVariant, pos.text());
  EXPECT_TRUE(again.finished());
  EXPECT_EQ(again.winner(), 0);
  EXPECT_EQ(perft(again, 1), 0u);
}

TEST(Friendly, APawnUnitingWithTheKingOnItsLastRankWinsWithoutPromoting) {
  // d7xe8 unites with the king: one move, not four, and the pawn stays a pawn.
  Position pos = position(kVariant, "4k3/3P4/8/8/8/8/8/K7 w - - 0 1");
  EXPECT_EQ(legalTexts(pos), sorted({"a1a2", "a1b1", "a1b2", "d7d8q", "d7d8r", "d7d8b", "d7d8n", "d7e8"}));
  pos.make(*pos.parseMove("d7e8"));
  EXPECT_TRUE(pos.finished());
  EXPECT_EQ(pos.text(), "4G3/8/8/8/8/8/8/K7 b - - 0 1");  // G: white pawn, black king
  EXPECT_TRUE(position(kVariant, pos.text()).finished());
}

TEST(Friendly, QuiescenceGetsTheTurnsThatUniteWithTheKing) {
  Position pos = position(kVariant, "4k3/8/3N4/8/8/8/8/Q3K3 w - - 0 1");
  MoveList caps;
  pos.pseudoCaptures(caps);
  ASSERT_EQ(caps.size(), 1);
  EXPECT_EQ(pos.moveText(caps[0]), "d6e8");
  EXPECT_TRUE(pos.isCaptureOrPromotion(caps[0]));
  EXPECT_FALSE(pos.isCaptureOrPromotion(*pos.parseMove("d6f5")));
}

TEST(Friendly, MoreTurnsThanAMoveListHolds) {
  // A position of a random game with 3831 turns: all of them are legal
  // moves, the move list keeps the shortest 1024.
  Position pos = position(kVariant, "4QJI1/3ipj2/pp1p1f1p/e3k2P/E2P1CyQ/1P1o4/2K5/8 w - - 7 63");
  std::vector<Move> all;
  pos.legalTurns(all);
  EXPECT_EQ(all.size(), 3831u);
  EXPECT_EQ(perft(pos, 1), 3831u);
  MoveList list;
  pos.legalMoves(list);
  EXPECT_EQ(list.size(), MoveList::kCapacity);
  // The last turn parses and plays.
  const std::string text = pos.moveText(all.back());
  auto m = pos.parseMove(text);
  ASSERT_TRUE(m.ok()) << text;
  pos.make(*m);
  pos.unmake();
  EXPECT_EQ(pos.text(), "4QJI1/3ipj2/pp1p1f1p/e3k2P/E2P1CyQ/1P1o4/2K5/8 w - - 7 63");
}

TEST(Friendly, LeavingTheKingToBeUnitedIsLegal) {
  // No check: the king may step next to the enemy queen (and lose).
  Position pos = position(kVariant, "4k3/8/8/8/8/8/3q4/7K w - - 0 1");
  EXPECT_EQ(legalTexts(pos), sorted({"h1g1", "h1g2", "h1h2"}));
}

TEST(Friendly, CastlingNeedsItsSquaresFreeOfThreatsChainsIncluded) {
  Position plain = position(kVariant, "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
  EXPECT_EQ(legalTexts(plain).size(), 15u);
  plain.make(*plain.parseMove("e1g1"));
  EXPECT_EQ(plain.text(), "4k3/8/8/8/8/8/8/5RK1 b - - 1 1");
  // A black pawn on g2 threatens f1: no castling.
  Position pawn = position(kVariant, "4k3/8/8/8/8/8/6p1/4K2R w K - 0 1");
  EXPECT_EQ(legalTexts(pawn).size(), 14u);
  EXPECT_FALSE(hasMove(pawn, "e1g1"));
  // The black bishop in the union on d4 threatens nothing by itself...
  Position union_ = position(kVariant, "4k3/8/8/8/3E4/8/8/4K2R w K - 0 1");
  EXPECT_TRUE(hasMove(union_, "e1g1"));
  EXPECT_EQ(legalTexts(union_).size(), 16u);
  // ...but the black rook on a4 can enter the union and free it towards g1.
  Position chain = position(kVariant, "4k3/8/8/8/r2E4/8/8/4K2R w K - 0 1");
  EXPECT_FALSE(hasMove(chain, "e1g1"));
  EXPECT_EQ(legalTexts(chain).size(), 15u);
}

TEST(Friendly, LiftingARookUnionForfeitsCastlingOnItsSquare) {
  // Black's rook stands united with the white rook on h1 (h: rook and rook).
  Position pos = position(kVariant, "4k3/8/8/8/8/8/8/4K2h b K - 0 1");
  pos.make(*pos.parseMove("h1h4"));
  EXPECT_EQ(pos.text(), "4k3/8/8/8/7h/8/8/4K3 w - - 1 2");
}

TEST(Friendly, EnPassantPullsTheUnionBackAndMayChain) {
  // Black moves the union d7 (black pawn, white knight) two squares as its pawn.
  Position pos = after("4k3/3d4/8/4P3/8/8/8/4K3 b - - 0 1", {"d7d5"});
  EXPECT_EQ(pos.text(), "4k3/8/8/3dP3/8/8/8/4K3 w - d6 1 2");
  pos = after("4k3/3d4/8/4P3/8/8/8/4K3 b - - 0 1", {"d7d5"});
  // King 5, the union as a knight 8, e5-e6, and e5xd6 en passant: the union
  // comes back to d6, the pawn joins it and frees the knight (8 squares,
  // e8 uniting with the king).
  EXPECT_EQ(legalTexts(pos).size(), 22u);
  EXPECT_TRUE(hasMove(pos, "e5d6,d6e8"));
  pos.make(*pos.parseMove("e5d6,d6f5"));
  EXPECT_EQ(pos.text(), "4k3/8/3a4/5N2/8/8/8/4K3 b - - 2 2");
  Position win = after("4k3/3d4/8/4P3/8/8/8/4K3 b - - 0 1", {"d7d5", "e5d6,d6e8"});
  EXPECT_TRUE(win.finished());
  EXPECT_EQ(win.winner(), 0);
  // A lone pawn taken en passant forms a union on the square it passed.
  Position lone = after("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1", {"d7d5", "e5d6"});
  EXPECT_EQ(lone.text(), "4k3/8/3a4/8/8/8/8/4K3 b - - 0 2");
}

TEST(Friendly, PromotionAloneAndInAChain) {
  // d7 may step to d8 (4 promotions) or strike the union on e8 (black rook,
  // white knight): it promotes there and frees the knight (4 x 4); the union
  // moves as a knight (4); the king (3).
  Position pos = position(kVariant, "4i2k/3P4/8/8/8/8/8/K7 w - - 0 1");
  EXPECT_EQ(legalTexts(pos).size(), 27u);
  EXPECT_TRUE(hasMove(pos, "d7d8q"));
  pos.make(*pos.parseMove("d7e8q,e8f6"));
  EXPECT_EQ(pos.text(), "4l2k/8/5N2/8/8/8/8/K7 b - - 0 1");  // l: black rook, white queen
}

TEST(Friendly, APawnCarriedToItsLastRankPromotesAtItsOwnersTurn) {
  // The union e7 (white pawn, black rook) moved by black to e8: white chooses
  // the promotion as the first step of its turn.
  Position pos = position(kVariant, "k7/4C3/8/8/8/8/8/K7 b - - 0 1");
  EXPECT_EQ(legalTexts(pos).size(), 17u);
  pos.make(*pos.parseMove("e7e8"));
  EXPECT_EQ(pos.text(), "k3C3/8/8/8/8/8/8/K7 w - - 1 2");
  // 4 promotions, each followed by a king move (3) or the union's move as
  // the new piece: queen 20, rook 13, bishop 7, knight 4.
  EXPECT_EQ(legalTexts(pos).size(), 56u);
  EXPECT_TRUE(hasMove(pos, "e8e8q,a1a2"));
  pos.make(*pos.parseMove("e8e8n,e8f6"));
  EXPECT_EQ(pos.text(), "k7/8/5i2/8/8/8/8/K7 b - - 1 2");  // i: black rook, white knight
  // The position waiting for the promotion reads back; a lone pawn on its last rank does not.
  EXPECT_EQ(position(kVariant, "k3C3/8/8/8/8/8/8/K7 w - - 1 2").text(), "k3C3/8/8/8/8/8/8/K7 w - - 1 2");
  Position bad(rules(kVariant));
  EXPECT_FALSE(bad.set("k3C3/8/8/8/8/8/8/K7 b - - 1 2").ok());
  EXPECT_FALSE(bad.set("k3P3/8/8/8/8/8/8/K7 w - - 1 2").ok());
}

TEST(Friendly, TheNoProgressCountResetsOnlyWhenAUnionFormsOrAPawnPromotes) {
  // Pawn moves do not reset it (unlike chess); forming a union does.
  Position pos = after("4k3/8/8/3p4/8/4P3/8/4K3 w - - 7 1", {"e3e4"});
  EXPECT_EQ(pos.fifty(), 8);
  pos.make(*pos.parseMove("e8e7"));
  EXPECT_EQ(pos.fifty(), 9);
  pos.make(*pos.parseMove("e4d5"));
  EXPECT_EQ(pos.fifty(), 0);
}

TEST(Friendly, UnionLettersRoundTrip) {
  // Every pair of types both ways, as pacosako.com writes them.
  const std::string letters = "acdefghijlmostuvwxyz";  // '_' (two kings) cannot arise
  for (char c : letters) {
    for (char l : {c, static_cast<char>(std::toupper(static_cast<unsigned char>(c)))}) {
      // Kings in unions only where the game is over; keep two lone kings otherwise.
      const bool king = std::string("gmuxzGMUXZ").find(l) != std::string::npos;
      const std::string fen = king ? std::string("8/8/8/3") + l + "4/8/8/8/" + (std::islower(l) ? "k7" : "K7") + " w - - 0 1"
                                   : std::string("k7/8/8/3") + l + "4/8/8/8/7K w - - 0 1";
      Position pos(rules(kVariant));
      ASSERT_TRUE(pos.set(fen).ok()) << fen;
      // A pair of one type has one letter; its upper case reads as the lower.
      const bool same = std::string("ahovyAHOVY").find(l) != std::string::npos;
      std::string expected = fen;
      if (same) expected[fen.find(l)] = c;
      EXPECT_EQ(pos.text(), expected);
    }
  }
}

TEST(Friendly, PerftFromTheStart) {
  Position pos = position(kVariant);
  EXPECT_EQ(perft(pos, 1), 20u);
  EXPECT_EQ(perft(pos, 2), 400u);
  EXPECT_EQ(perft(pos, 3), 8902u);
}

// Through UCI by its name: `go movetime 200` answers a legal turn, a chain
// included (the queen into the union frees the knight, which unites with the king).
TEST(Friendly, UciAnswersALegalMove) {
  for (const std::string fen : {"r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 2 3",
                                "4k3/8/8/3d4/8/8/8/3QK3 w - - 0 1", "8/4k3/8/3d4/8/8/8/3QK3 w - - 0 1"}) {
    const std::string best = uciBestMove(kVariant, "fen " + fen);
    Position pos = position(kVariant, fen);
    EXPECT_TRUE(hasMove(pos, best)) << fen << ": " << best;
    if (fen.rfind("8/4k3", 0) == 0) {
      EXPECT_EQ(best, "d1d5,d5e7");  // the only turn that wins at once
    }
  }
}

}  // namespace
}  // namespace acedrex::test
