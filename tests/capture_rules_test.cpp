// Captures with side effects: antichess (no royal piece, compulsory captures,
// the side without pieces or moves wins) and atomic (explosions, connected
// kings). Perft against Fairy-Stockfish is in catalogue_perft_test.cpp.
#include <atomic>
#include <random>

#include "engine/bot.h"
#include "test_util.h"

namespace acedrex::test {
namespace {

// --- antichess

TEST(Antichess, TheKingIsAnOrdinaryPiece) {
  auto r = rules("antichess");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->royalType, -1);
  // A king may be left attacked and be taken.
  Position pos = position("antichess", "8/8/8/8/8/8/r7/K7 w - - 0 1");
  EXPECT_EQ(legalTexts(pos), (std::vector<std::string>{"a1a2"}));
  pos = position("antichess", "8/8/8/8/8/8/8/Kr6 b - - 0 1");
  EXPECT_FALSE(pos.inCheck(0));
  EXPECT_EQ(legalTexts(pos), (std::vector<std::string>{"b1a1"}));
}

TEST(Antichess, CapturesAreCompulsory) {
  Position pos = position("antichess", "rnbqkbnr/p1pppppp/8/1p6/8/4P3/PPPP1PPP/RNBQKBNR w - - 0 2");
  EXPECT_EQ(legalTexts(pos), (std::vector<std::string>{"f1b5"}));
  // pseudoCaptures (quiescence) agrees: the capture only, no quiet promotion beside it.
  pos = position("antichess", "8/P7/8/8/8/1p6/8/2N5 w - - 0 1");
  EXPECT_EQ(legalTexts(pos), (std::vector<std::string>{"c1b3"}));
  MoveList caps;
  pos.pseudoCaptures(caps);
  ASSERT_EQ(caps.size(), 1);
  EXPECT_EQ(pos.moveText(caps[0]), "c1b3");
  // Without a capture the quiet promotions are back.
  pos = position("antichess", "8/P7/8/8/8/8/1p6/2N5 w - - 0 1");
  caps.clear();
  pos.pseudoCaptures(caps);
  EXPECT_EQ(caps.size(), 5);
}

TEST(Antichess, PromotionToKing) {
  Position pos = position("antichess", "8/P7/8/8/8/8/8/7k w - - 0 1");
  EXPECT_EQ(legalTexts(pos), (std::vector<std::string>{"a7a8b", "a7a8k", "a7a8n", "a7a8q", "a7a8r"}));
}

TEST(Antichess, LosingEveryPieceWins) {
  Game g(rules("antichess"), 1);
  ASSERT_TRUE(g.setStart("8/8/8/8/8/8/p7/1R6 b - - 0 1").ok());
  ASSERT_TRUE(g.play("a2b1q").ok());
  ASSERT_TRUE(g.finished());
  EXPECT_EQ(g.position().result(), ResultKind::kWin);
  EXPECT_EQ(g.position().winner(), 0);  // white, left without a piece
}

TEST(Antichess, BeingStalematedWins) {
  // White's pawn is blocked: white has no move and wins.
  Game h(rules("antichess"), 1);
  ASSERT_TRUE(h.setStart("8/8/8/8/p7/8/P7/8 w - - 0 1").ok());
  ASSERT_TRUE(h.play("a2a3").ok());
  ASSERT_TRUE(h.finished());
  EXPECT_EQ(h.position().winner(), 1);
  EXPECT_EQ(h.position().outSeat(0), 0);
  EXPECT_EQ(nameOf(OutReason::kOpponentNoMoves), "opponent-no-moves");
}

TEST(Antichess, NoCastling) {
  Position pos = position("antichess", "r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1");
  EXPECT_FALSE(hasMove(pos, "e1g1"));
  EXPECT_FALSE(hasMove(pos, "e1c1"));
}

// --- atomic

TEST(Atomic, ACaptureExplodesAllButPawnsAround) {
  Position pos = position("atomic", "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
  ASSERT_TRUE(pos.parseMove("e4d5").ok());
  pos.make(pos.parseMove("e4d5").value());
  // Both pawns gone; nothing else stood next to d5.
  EXPECT_EQ(pos.text(), "rnbqkbnr/ppp1pppp/8/8/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2");
  // A knight takes on d7: the knight, the pawn on d7 and the pieces on c8,
  // d8, e8 (the king: black loses) go; the pawns on c7 and e7 stay.
  pos = position("atomic", "rnbqkbnr/pppppppp/2N5/8/8/8/PPPPPPPP/R1BQKBNR w KQkq - 0 1");
  pos.make(pos.parseMove("c6d8").value());
  EXPECT_TRUE(pos.finished());
  EXPECT_EQ(pos.winner(), 0);
}

TEST(Atomic, ExplodedRookTakesItsCastlingRight) {
  // The black rook takes the knight on g1: the rook on h1 beside it goes too.
  Position pos = position("atomic", "r3k1r1/8/8/8/8/8/8/R3K1NR b KQq - 0 1");
  pos.make(pos.parseMove("g8g1").value());
  EXPECT_EQ(pos.text(), "r3k3/8/8/8/8/8/8/R3K3 w Qq - 0 2");
  pos = position("atomic", "r3k2r/8/8/8/8/8/8/R3K1nR w KQkq - 0 1");
  pos.make(pos.parseMove("h1g1").value());  // the rook itself explodes
  EXPECT_EQ(pos.text(), "r3k2r/8/8/8/8/8/8/R3K3 b Qkq - 0 1");
}

TEST(Atomic, KingsCannotCaptureAndSelfExplosionIsIllegal) {
  Position pos = position("atomic", "4k3/8/8/8/8/8/3q4/4K3 w - - 0 1");
  EXPECT_FALSE(hasMove(pos, "e1d2"));  // the king would blow itself up
  // A rook may not take next to its own king.
  pos = position("atomic", "4k3/8/8/8/8/8/3q4/3RK3 w - - 0 1");
  EXPECT_FALSE(hasMove(pos, "d1d2"));
}

TEST(Atomic, ConnectedKingsCannotBeChecked) {
  // The black rook attacks e1, but the kings touch: no check.
  Position pos = position("atomic", "8/8/8/8/8/8/3k4/4K2r w - - 0 1");
  EXPECT_FALSE(pos.inCheck(0));
  // In check, the white king may step onto d1, on the rook's line but next
  // to the black king; not onto f1.
  pos = position("atomic", "8/8/8/8/8/8/2k5/4K2r w - - 0 1");
  EXPECT_TRUE(pos.inCheck(0));
  EXPECT_TRUE(hasMove(pos, "e1d1"));
  EXPECT_FALSE(hasMove(pos, "e1f1"));
}

TEST(Atomic, BlowingUpTheKingBeatsCheck) {
  // White is in check but may take the pawn beside the black king, which
  // blows the king up, instead of answering the check; a quiet move may not.
  Position pos = position("atomic", "4k3/4p3/8/8/7Q/8/8/r3K3 w - - 0 1");
  EXPECT_TRUE(pos.inCheck(0));
  EXPECT_TRUE(hasMove(pos, "h4e7"));
  EXPECT_FALSE(hasMove(pos, "h4h5"));
}

TEST(Atomic, MateWinsAndStalemateDraws) {
  Game g(rules("atomic"), 1);
  ASSERT_TRUE(g.setStart("6k1/5ppp/8/8/8/8/8/K2R4 w - - 0 1").ok());
  ASSERT_TRUE(g.play("d1d8").ok());
  ASSERT_TRUE(g.finished());
  EXPECT_EQ(g.position().result(), ResultKind::kWin);
  EXPECT_EQ(g.position().winner(), 0);
  Game h(rules("atomic"), 1);
  ASSERT_TRUE(h.setStart("7k/8/4Q3/8/8/8/8/K7 w - - 0 1").ok());
  ASSERT_TRUE(h.play("e6f7").ok());
  ASSERT_TRUE(h.finished());
  EXPECT_EQ(h.position().result(), ResultKind::kDraw);
}

// --- both: stored positions round-trip; the bots play legal moves.

TEST(CaptureRules, FenRoundTripsOnEveryStoredPosition) {
  for (const std::string v : {"antichess", "atomic"}) {
    int n = 0;
    for (const auto& [fen, depth, nodes] : perftFile(v + ".txt")) {
      Position pos = position(v, fen);
      EXPECT_EQ(pos.text(), fen) << v;
      ++n;
    }
    EXPECT_GT(n, 8) << v;
  }
}

TEST(CaptureRules, BotsSeeTheWin) {
  auto pick = [](const std::string& v, const std::string& fen) {
    auto r = rules(v);
    Game g(r, 1);
    EXPECT_TRUE(g.setStart(fen).ok());
    auto bot = engine::makeBot(r, 9, 1);
    engine::SearchLimits limits;
    limits.depth = 3;
    std::atomic<bool> stop{false};
    auto res = bot->choose(g, limits, stop);
    return res.found ? g.position().moveText(res.best) : std::string("(none)");
  };
  EXPECT_EQ(pick("atomic", "2k5/2p5/8/8/8/8/8/2R1K3 w - - 0 1"), "c1c7");
  // Antichess: white's last piece, the rook, goes where the black rook must
  // take it (d2 or a1); any other square leaves black free to move.
  const std::string fen = "7k/8/8/8/8/8/r7/3R4 w - - 0 1";
  const std::string move = pick("antichess", fen);
  EXPECT_TRUE(move == "d1d2" || move == "d1a1") << move;
}

}  // namespace
}  // namespace acedrex::test

namespace acedrex::test {
namespace {

// A royal piece is optional; blast = atomic needs one.
TEST(CaptureRules, RoyalPieceOptionalButBlastNeedsOne) {
  const std::string base =
      "name = t\nboard = 4x4\nseat = white w n\nseat = black b s\npiece = king K K\n"
      "start = k3/4/4/3K w - - 0 1\n";
  VariantRegistry reg;
  ASSERT_TRUE(reg.add(base, "t").ok());
  EXPECT_TRUE(reg.rules("t", {}).ok());
  VariantRegistry reg2;
  const Status s = reg2.add(base + "blast = atomic\n", "t");  // compiled when added
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().text().find("royal"), std::string::npos) << s.error().text();
}

}  // namespace
}  // namespace acedrex::test
