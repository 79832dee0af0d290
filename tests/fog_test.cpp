// Fog of war (docs/rules/fog-of-war.md): king capture instead of check, and
// each seat's view of a position (core/mechanisms/fog.h); the bot plays from its view.
#include <random>

#include "core/mechanisms/fog.h"
#include "engine/bot.h"
#include "test_util.h"

namespace acedrex::test {
namespace {

const char* kVariant = "fog-of-war";

// View texts are written here with '_' for a hidden square ('?' in the
// engine's text; runs of '?' would read as trigraphs in C++ literals).
std::string fogged(std::string s) {
  for (char& c : s)
    if (c == '_') c = '?';
  return s;
}

TEST(FogOfWar, ThereIsNoCheckAndTakingTheKingWins) {
  // White's king stands en prise with White to move: legal here, and White may leave it.
  Position p = position(kVariant, "4k3/8/8/8/8/8/8/4K2r w - - 0 1");
  EXPECT_FALSE(p.inCheck(0));
  EXPECT_TRUE(hasMove(p, "e1f1"));   // stays on the rook's rank
  EXPECT_TRUE(hasMove(p, "e1e2"));
  Game g(rules(kVariant));
  ASSERT_TRUE(g.setStart("4k3/8/8/8/8/8/8/4K2r w - - 0 1").ok());
  ASSERT_TRUE(g.playAll("e1d1 h1d1").ok());
  ASSERT_TRUE(g.finished());
  EXPECT_EQ(g.position().result(), ResultKind::kWin);
  EXPECT_EQ(g.position().winner(), 1);
  EXPECT_EQ(g.position().lastEvents().outs[0].reason, OutReason::kKingCaptured);
}

TEST(FogOfWar, CastlingOutOfThroughAndIntoAttack) {
  Position out = position(kVariant, "4k3/8/8/4q3/8/8/8/R3K2R w KQ - 0 1");  // the queen attacks e1
  EXPECT_TRUE(hasMove(out, "e1g1"));
  EXPECT_TRUE(hasMove(out, "e1c1"));
  Position through = position(kVariant, "3rkr2/8/8/8/8/8/8/R3K2R w KQ - 0 1");  // d1 and f1 attacked
  EXPECT_TRUE(hasMove(through, "e1g1"));
  EXPECT_TRUE(hasMove(through, "e1c1"));
  Position into = position(kVariant, "2r1k1r1/8/8/8/8/8/8/R3K2R w KQ - 0 1");  // c1 and g1 attacked
  EXPECT_TRUE(hasMove(into, "e1g1"));
  EXPECT_TRUE(hasMove(into, "e1c1"));
  // Chess refuses all three.
  Position chess = position("chess", "3rkr2/8/8/8/8/8/8/R3K2R w KQ - 0 1");
  EXPECT_FALSE(hasMove(chess, "e1g1"));
}

TEST(FogOfWar, NoDrawByInsufficientMaterial) {
  // A lone king can still walk into the other king: play goes on.
  Game g(rules(kVariant));
  ASSERT_TRUE(g.setStart("4k3/8/8/8/8/8/8/4K3 w - - 0 1").ok());
  EXPECT_FALSE(g.finished());
  ASSERT_TRUE(g.playAll("e1e2 e8e7 e2e3 e7e6 e3e4 e6e5").ok());
  EXPECT_FALSE(g.finished());
  ASSERT_TRUE(g.play("e4d4").ok());  // beside the black king
  ASSERT_TRUE(g.play("e5d4").ok());  // and taken
  EXPECT_TRUE(g.finished());
  EXPECT_EQ(g.position().winner(), 1);
}

TEST(FogOfWar, ViewsOfTheStart) {
  Position p = position(kVariant);
  EXPECT_EQ(viewText(p, 0), fogged("________/________/________/________/8/8/PPPPPPPP/RNBQKBNR w KQ - - 1"));
  EXPECT_EQ(viewText(p, 1), fogged("rnbqkbnr/pppppppp/8/8/________/________/________/________ w kq - - 1"));
  const auto seen = visibleSquares(p, 0);
  int n = 0;
  for (bool b : seen) n += b;
  EXPECT_EQ(n, 32);
}

TEST(FogOfWar, ViewShowsCapturesHidesWhatNoMoveReaches) {
  Game g(rules(kVariant));
  ASSERT_TRUE(g.playAll("e2e4 d7d5").ok());
  const Position& p = g.position();
  // White sees d5 (e4 takes there), e5 (the push), a6 and b5 (its bishop),
  // h5 (its queen), not f5 (no pawn takes onto an empty square) nor e3 (nothing goes there).
  EXPECT_EQ(viewText(p, 0), fogged("________/________/1_______/_1_p1__1/4P3/4_3/PPPP1PPP/RNBQKBNR w KQ - - 2"));
  // Black sees e4 (d5 takes there), d4, g4 and h3 (its bishop); its view is the same whoever is to move.
  EXPECT_EQ(viewText(p, 1), fogged("rnbqkbnr/ppp1pppp/8/3p4/___1P_1_/_______1/________/________ w kq - - 2"));
}

TEST(FogOfWar, APawnBlockedByAHiddenPieceAndEnPassant) {
  // Black's pawn on e5 blocks White's e4 pawn: White does not see e5.
  Position blocked = position(kVariant, "4k3/8/8/4p3/4P3/8/8/4K3 w - - 0 1");
  const auto seen = visibleSquares(blocked, 0);
  EXPECT_FALSE(seen[static_cast<size_t>(*blocked.rules().parseSquare("e5"))]);
  // En passant: the square and the pawn to take are seen, by the side to move only.
  Position ep = position(kVariant, "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
  EXPECT_EQ(viewText(ep, 0), fogged("________/________/___2___/___pP___/________/________/___3__/___1K1__ w - d6 - 2"));
  EXPECT_EQ(viewText(ep, 1).substr(viewText(ep, 1).find(' ')), " w - - - 2");
}

// Walks seeded random games; at every ply, for both seats: the view and the
// sample agree (the sample shows the same view) and, for the side to move,
// its legal moves in the sample are exactly those in the real position.
TEST(FogOfWar, TheSampleHasTheSameViewAndTheSameMoves) {
  auto r = rules(kVariant);
  std::mt19937 rng(11);
  int plies = 0;
  for (int game = 0; game < 30; ++game) {
    Game g(r);
    for (int ply = 0; ply < 90 && !g.finished(); ++ply, ++plies) {
      const Position& real = g.position();
      for (int seat = 0; seat < 2; ++seat) {
        const std::string sampleText = viewSampleText(real, seat);
        Position sample(r);
        ASSERT_TRUE(sample.set(sampleText).ok()) << sampleText << " from " << real.text();
        ASSERT_EQ(viewText(sample, seat), viewText(real, seat)) << real.text() << " seat " << seat;
        if (seat == real.toMove()) {
          Position copy(real);
          ASSERT_EQ(legalTexts(sample), legalTexts(copy)) << real.text() << " sample " << sampleText;
        }
      }
      const auto legal = g.legalMoves();
      ASSERT_TRUE(g.play(legal[rng() % legal.size()]).ok());
    }
  }
  EXPECT_GT(plies, 1000);
}

// The bot plays from its view: moving an enemy piece it does not see, from
// one hidden square to another, changes nothing it sees and so never its move.
TEST(FogOfWar, TheBotDoesNotPeek) {
  auto r = rules(kVariant);
  // White to move; Black's queen on d8 or on a5 (both hidden from White), its rook on h8 or h6.
  const std::vector<std::string> variants = {
      "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 2",
      "rnb1kbnr/pppp1ppp/8/q3p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 2",
      "rnbqkbn1/pppp1ppp/7r/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQq - 0 2",
  };
  std::string view;
  for (const auto& fen : variants) {
    Position p = position(kVariant, fen);
    if (view.empty()) view = viewText(p, 0);
    ASSERT_EQ(viewText(p, 0), view) << fen;
  }
  for (int level : {1, 5, 9}) {
    std::string first;
    for (const auto& fen : variants) {
      Game g(r, 5);
      ASSERT_TRUE(g.setStart(fen).ok());
      auto bot = engine::makeBot(r, level, 17);
      engine::SearchLimits limits;
      limits.depth = 4;
      limits.nodes = 20000;
      std::atomic<bool> stop{false};
      const auto res = bot->choose(g, limits, stop);
      ASSERT_TRUE(res.found);
      const std::string move = g.position().moveText(res.best);
      if (first.empty()) first = move;
      EXPECT_EQ(move, first) << "level " << level << " " << fen;
    }
  }
}

}  // namespace
}  // namespace acedrex::test
