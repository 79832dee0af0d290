// Sittuyin (Burmese chess): the setup phase, the promotion move and the
// ASEAN counting rules, each checked against what Fairy-Stockfish's
// "sittuyin" lists or writes for the same position; the bots playing it.
#include <atomic>
#include <mutex>

#include "engine/bot.h"
#include "protocol/uci.h"
#include "test_util.h"

namespace acedrex::test {
namespace {

using Texts = std::vector<std::string>;

TEST(Sittuyin, TheSetupDropsOnlyBehindThePawnsAndTheRooksOnTheFirstRank) {
  Position pos = position("sittuyin");
  EXPECT_EQ(pos.text(), "8/8/4pppp/pppp4/4PPPP/PPPP4/8/8[KSSFRRNNkssfrrnn] w - - 0 1");
  const auto moves = legalTexts(pos);
  EXPECT_EQ(moves.size(), 88u);
  for (const auto& m : moves) EXPECT_EQ(m[1], '@') << m;       // e4xd5 is there but must wait
  EXPECT_TRUE(hasMove(pos, "R@h1"));
  EXPECT_FALSE(hasMove(pos, "R@h2"));
  EXPECT_TRUE(hasMove(pos, "K@e3"));
  EXPECT_FALSE(hasMove(pos, "K@d3"));  // a pawn stands there
  EXPECT_FALSE(hasMove(pos, "N@e4"));
  pos.make(pos.parseMove("K@e2").value());
  EXPECT_EQ(pos.text(), "8/8/4pppp/pppp4/4PPPP/PPPP4/4K3/8[SSFRRNNkssfrrnn] b - - 0 1");
  EXPECT_TRUE(hasMove(pos, "R@a8"));  // the letter upper case for both sides, as Fairy-Stockfish writes it
  EXPECT_FALSE(hasMove(pos, "R@a7"));
}

// In check with pieces in hand: the drops that answer it are the only moves;
// when none can (a rook drops only on the first rank), the pieces move.
TEST(Sittuyin, InCheckTheDropsMustAnswerItOrThePiecesMove) {
  Position pos = position("sittuyin", "4k3/8/8/8/8/r6K/8/8[N] w - - 0 1");
  EXPECT_EQ(legalTexts(pos), (Texts{"N@b3", "N@c3", "N@d3", "N@e3", "N@f3", "N@g3"}));
  pos = position("sittuyin", "4k3/8/8/8/8/r6K/8/8[R] w - - 0 1");
  EXPECT_EQ(legalTexts(pos), (Texts{"h3g2", "h3g4", "h3h2", "h3h4"}));
  // A king from the hand may not land where it is attacked.
  pos = position("sittuyin", "4k3/8/8/8/8/8/8/4r3[K] w - - 0 1");
  EXPECT_EQ(legalTexts(pos).size(), 14u);
  EXPECT_FALSE(hasMove(pos, "K@e2"));
  EXPECT_FALSE(hasMove(pos, "K@a1"));
}

TEST(Sittuyin, APawnPromotesInPlaceOrByAGeneralsStep) {
  // The last pawn promotes from any square; g7g8 is a plain move.
  Position pos = position("sittuyin", "1k5K/3r2P1/8/8/8/8/8/8[] w - - 0 1");
  EXPECT_EQ(legalTexts(pos), (Texts{"g7f6f", "g7f8f", "g7g7f", "g7g8", "g7h6f", "h8g8", "h8h7"}));
  pos.make(pos.parseMove("g7g7f").value());
  EXPECT_EQ(pos.text(), "1k5K/3r2F1/8/8/8/8/8/8[] b - - 0 1");
  pos.unmake();
  pos.make(pos.parseMove("g7f6f").value());
  EXPECT_EQ(pos.text(), "1k5K/3r4/5F2/8/8/8/8/8[] b - - 0 1");
  // With two pawns only one on the long diagonals promotes (d5, not c3).
  pos = position("sittuyin", "k7/8/8/3P4/8/2P5/8/K7[] w - - 0 1");
  EXPECT_EQ(movesFrom(pos, "d5"), (Texts{"d5c4f", "d5c6f", "d5d5f", "d5d6", "d5e4f", "d5e6f"}));
  EXPECT_EQ(movesFrom(pos, "c3"), (Texts{"c3c4"}));
  // Not while the side has a general.
  pos = position("sittuyin", "k7/8/8/3P4/8/2P5/8/K4F2[] w - - 0 1");
  EXPECT_EQ(movesFrom(pos, "d5"), (Texts{"d5d6"}));
  // The new general may not attack a piece (the rook on b7 from c6), nor give check (c6 next to b7's king).
  pos = position("sittuyin", "k7/1r6/8/3P4/8/8/8/K7[] w - - 0 1");
  EXPECT_EQ(movesFrom(pos, "d5"), (Texts{"d5c4f", "d5d5f", "d5d6", "d5e4f", "d5e6f"}));
  pos = position("sittuyin", "8/1k6/8/3P4/8/8/8/K7[] w - - 0 1");
  EXPECT_EQ(movesFrom(pos, "d5"), (Texts{"d5c4f", "d5d5f", "d5d6", "d5e4f", "d5e6f"}));
  // Nor may it uncover a check: the rook on a5 behind the pawn.
  pos = position("sittuyin", "8/8/8/R2P3k/8/8/8/K7[] w - - 0 1");
  EXPECT_EQ(movesFrom(pos, "d5"), (Texts{"d5d5f", "d5d6"}));
}

// King and pawn whose only moves are promotions: Fairy-Stockfish draws
// (Sittuyin's rule that a promotion is never compulsory).
TEST(Sittuyin, OnlyPromotionsLeftIsAStalemate) {
  Game g(rules("sittuyin"));
  ASSERT_TRUE(g.setStart("8/8/8/1p6/1P6/5n2/4k3/7K[] b - - 0 1").ok());
  EXPECT_EQ(g.legalMoves().size(), 20u);
  ASSERT_TRUE(g.play("e2f2").ok());
  EXPECT_TRUE(g.finished());
  Position pos = position("sittuyin", "8/8/8/1p6/1P6/5n2/5k2/7K[] w - - 1 1");
  EXPECT_EQ(legalTexts(pos), (Texts{"b4a3f", "b4a5f", "b4b4f", "b4c3f", "b4c5f"}));
  EXPECT_TRUE(pos.onlyPromotionMovesLeft());
  EXPECT_EQ(g.drawReasonKind(), DrawReason::kStalemate);
}

// ASEAN counting: a bare king counts once the pawns are gone, against a rook
// 16 moves (32 plies, the FEN's limit), from 0; run out, it is a draw.
TEST(Sittuyin, AseanCountingFromTheCaptureToADraw) {
  Position pos = position("sittuyin", "8/8/3k4/8/3n4/8/8/K2R4[] w - - 0 1");
  pos.make(pos.parseMove("d1d4").value());
  EXPECT_EQ(pos.text(), "8/8/3k4/8/3R4/8/8/K7[] b - 32 0 1");
  Game g(rules("sittuyin"));
  ASSERT_TRUE(g.setStart("8/8/8/4k3/8/8/8/K2R4[] w - 32 30 40").ok());
  ASSERT_TRUE(g.play("d1d2").ok());
  ASSERT_TRUE(g.play("e5e6").ok());
  EXPECT_EQ(g.position().text(), "8/8/4k3/8/8/8/3R4/K7[] w - 32 32 41");
  EXPECT_FALSE(g.finished());
  ASSERT_TRUE(g.play("d2d1").ok());
  EXPECT_TRUE(g.finished());
  EXPECT_EQ(g.drawReasonKind(), DrawReason::kCounting);
  // A knight and pawns on the board: nobody counts.
  pos = position("sittuyin", "8/8/3k4/8/3n4/7p/8/K2R4[] w - - 0 1");
  pos.make(pos.parseMove("d1d4").value());
  EXPECT_EQ(pos.text(), "8/8/3k4/8/3R4/7p/8/K7[] b - - 0 1");
}

// The bots through the setup and on from positions with promotions and counting.
TEST(Sittuyin, BotsPlayLegalMovesAtLevelsOneFiveNine) {
  auto r = rules("sittuyin");
  for (const char* fen : {"", "1ss5/1k4r1/f3p2p/1pSnPp1P/pPp2P2/P1Rp1K2/3S2N1/4R3[] w - - 0 43",
                          "8/8/6R1/s3r3/P5R1/1KP3p1/1F2kr2/8[] b - - 0 72", "1k5K/3r2P1/8/8/8/8/8/8[] w - - 0 1"}) {
    for (int level : {1, 5, 9}) {
      Game g(r, 11);
      if (*fen) {
        ASSERT_TRUE(g.setStart(fen).ok());
      }
      auto bot = engine::makeBot(r, level, 5);
      engine::SearchLimits limits;
      limits.depth = 3;
      limits.nodes = 3000;
      std::atomic<bool> stop{false};
      for (int ply = 0; ply < 16 && !g.finished(); ++ply) {
        const auto res = bot->choose(g, limits, stop);
        ASSERT_TRUE(res.found) << level << " " << g.position().text();
        const auto legal = g.legalMoves();
        ASSERT_NE(std::find(legal.begin(), legal.end(), res.best), legal.end()) << level << " " << g.position().text();
        ASSERT_TRUE(g.play(res.best).ok());
      }
    }
  }
}

TEST(Sittuyin, UciAnswersALegalMove) {
  for (const char* fen : {"8/8/4pppp/pppp4/4PPPP/PPPP4/8/8[KSSFRRNNkssfrrnn] w - - 0 1",
                          "rs3r2/1f1s4/n1k1p1pp/1pppPpn1/pP1P1P1P/PRP1SF1K/N5N1/4S2R[] w - - 0 18"}) {
    const std::string best = uciBestMove("sittuyin", std::string("fen ") + fen);
    Position pos = position("sittuyin", fen);
    EXPECT_TRUE(hasMove(pos, best)) << fen << ": " << best;
  }
}

}  // namespace
}  // namespace acedrex::test
