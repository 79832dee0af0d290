// A game that leaves the draws by rule to its caller (the UCI engine's) flags
// exactly the positions where the rules end a game of the same moves.
#include <gtest/gtest.h>

#include "core/game/game.h"
#include "test_util.h"

namespace acedrex {
namespace {
using test::rules;

// Random games (seeded) played into a game that declares the ends by rule
// and one that leaves them: up to the first end, the second flags a rule's
// end exactly when the first declares one while the seat to move still has
// a legal move, and both agree on mates and stalemates.
void expectSameEnds(const std::string& variant, int games, int maxPlies) {
  for (int seed = 1; seed <= games; ++seed) {
    Game declared(rules(variant), static_cast<uint64_t>(seed));
    Game left(rules(variant), static_cast<uint64_t>(seed));
    left.leaveRuleDrawsToCaller();
    DieRng pick(static_cast<uint64_t>(seed) * 7919);
    for (int ply = 0; ply < maxPlies; ++ply) {
      if (declared.finished()) {
        // Ended by rule: the other still plays and flags it; ended by mate
        // or stalemate: the other has ended too.
        if (left.finished()) EXPECT_FALSE(left.ruleDrawLeft());
        else EXPECT_TRUE(left.ruleDrawLeft()) << variant << " seed " << seed << " ply " << ply;
        break;
      }
      ASSERT_FALSE(left.finished()) << variant << " seed " << seed << " ply " << ply;
      ASSERT_FALSE(left.ruleDrawLeft()) << variant << " seed " << seed << " ply " << ply;
      const auto moves = declared.legalMoves();
      const Move m = moves[static_cast<size_t>(pick.below(static_cast<int>(moves.size())))];
      ASSERT_TRUE(declared.play(m).ok());
      ASSERT_TRUE(left.play(m).ok());
    }
  }
}

// Chess: repetition, the fifty-move count, insufficient material.
TEST(GameRuleDraws, LeftDrawsMatchDeclaredOnesInChess) { expectSameEnds("chess", 20, 700); }
// Xiangqi: the move count's extension for chasing, perpetual check and chase.
TEST(GameRuleDraws, LeftDrawsMatchDeclaredOnesInXiangqi) { expectSameEnds("xiangqi", 15, 700); }
// Makruk and sittuyin: counting; sittuyin's stalemate with only promotions left.
TEST(GameRuleDraws, LeftDrawsMatchDeclaredOnesInMakrukAndSittuyin) {
  expectSameEnds("makruk", 15, 700);
  expectSameEnds("sittuyin", 15, 700);
}
// Janggi: what would draw is decided by the material count.
TEST(GameRuleDraws, LeftDrawsMatchDeclaredOnesInJanggi) { expectSameEnds("janggi", 10, 700); }

// Sittuyin: a king and a pawn whose only moves are promotions is a
// stalemate (Fairy-Stockfish); the caller's game flags it and still has the
// promotions to play.
TEST(GameRuleDraws, OnlyPromotionsLeftIsFlaggedWhereDrawsAreLeft) {
  Game declared(rules("sittuyin"));
  Game left(rules("sittuyin"));
  left.leaveRuleDrawsToCaller();
  for (Game* g : {&declared, &left}) {
    ASSERT_TRUE(g->setStart("8/8/8/1p6/1P6/5n2/4k3/7K[] b - - 0 1").ok());
    ASSERT_TRUE(g->play("e2f2").ok());
  }
  EXPECT_EQ(declared.drawReasonKind(), DrawReason::kStalemate);
  EXPECT_FALSE(left.finished());
  EXPECT_TRUE(left.ruleDrawLeft());
  EXPECT_TRUE(left.play("b4b4f").ok());
}

}  // namespace
}  // namespace acedrex
