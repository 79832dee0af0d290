// Position::pseudoCaptures, the generator for quiescence: exactly the moves
// of pseudoMoves that capture (en passant included) or promote (quiet
// promotions included), in the same order.
#include <random>

#include "test_util.h"

namespace acedrex::test {
namespace {

// Independent of Position::isCaptureOrPromotion: what the move does to the board.
bool capturesOrPromotes(const Position& pos, Move m) {
  if (m.flag() == kCastle || m.flag() == kPass) return false;
  return m.flag() == kEnPassant || m.promo() >= 0 || isPiece(pos.at(m.to()));
}

struct Seen {
  int positions = 0, captures = 0, enPassant = 0, quietPromotions = 0, capturePromotions = 0;
};

void expectCapturesAreTheFilteredMoves(const Position& pos, Seen& seen) {
  MoveList all, caps;
  pos.pseudoMoves(all);
  pos.pseudoCaptures(caps);
  std::vector<Move> expected;
  for (Move m : all) {
    EXPECT_EQ(pos.isCaptureOrPromotion(m), capturesOrPromotes(pos, m)) << pos.text() << " " << pos.moveText(m);
    if (!capturesOrPromotes(pos, m)) continue;
    expected.push_back(m);
    ++seen.captures;
    if (m.flag() == kEnPassant) ++seen.enPassant;
    if (m.promo() >= 0) ++(isPiece(pos.at(m.to())) ? seen.capturePromotions : seen.quietPromotions);
  }
  ASSERT_EQ(std::vector<Move>(caps.begin(), caps.end()), expected) << pos.text();
  ++seen.positions;
}

// Seeded random games from the start; every position on the way is compared.
Seen walk(const std::string& variant, const std::vector<std::string>& options, uint32_t seed, int games, int plies) {
  Seen seen;
  std::mt19937 rng(seed);
  for (int g = 0; g < games; ++g) {
    Game game(rules(variant, options), seed + g);
    for (int i = 0; i < plies && !game.finished(); ++i) {
      expectCapturesAreTheFilteredMoves(game.position(), seen);
      const auto moves = game.legalMoves();
      EXPECT_TRUE(game.play(moves[rng() % moves.size()]).ok());
    }
  }
  return seen;
}

// Every embedded variant: enough positions and captures, and promotions and
// en passant where the variant has them, to mean something.
TEST(PseudoCaptures, RandomGamesOfEveryVariant) {
  const VariantRegistry embedded = VariantRegistry::withEmbedded();
  uint32_t seed = 11;
  for (const VariantDef* d : embedded.all()) {
    const std::string& variant = d->name;
    const auto r = rules(variant);
    if (r->unions) continue;  // nothing is captured: tests/friendly_test.cpp checks its generator
    // Chaturaji's random games end before a pawn crosses the board (its kings
    // are taken first; tests/chaturaji_test.cpp checks its promotions). It
    // takes a seed of its own so that the other games keep theirs.
    const bool shortGames = r->kingCapture && r->nseats() > 2;
    const Seen s = walk(variant, {}, shortGames ? 1000 : seed++, 32, 250);
    EXPECT_GT(s.positions, 1000) << variant;  // antichess games are short
    EXPECT_GT(s.captures, 300) << variant;
    if ((!r->promoChoices.empty() || !r->promoByFile.empty()) && !shortGames) {
      EXPECT_GT(s.quietPromotions + s.capturePromotions, 0) << variant;
    }
    if (r->enPassant) {
      EXPECT_GT(s.enPassant, 0) << variant;
    }
  }
}

// Antichess: with a capture on the board both generators keep the captures
// only (must-capture); atomic: the same generators, a blast only on make.
TEST(PseudoCaptures, AntichessAndAtomicRandomGames) {
  for (const std::string v : {"antichess", "atomic"}) {
    const Seen s = walk(v, {}, 15, 20, 200);
    EXPECT_GT(s.positions, 1000) << v;
    EXPECT_GT(s.captures, 300) << v;
  }
}

// Quiet and capturing promotions, a double step, en passant and castling in
// one Shako position: only the captures and the promotions remain.
TEST(PseudoCaptures, ShakoPromotionsEnPassantAndCastling) {
  Position pos = position("shako", "1r2k5/P9/10/10/10/3pP5/10/10/1R3K2R1/10 b KQ e4 0 1");
  Seen seen;
  expectCapturesAreTheFilteredMoves(pos, seen);
  EXPECT_EQ(seen.enPassant, 1);
  ASSERT_TRUE(pos.set("1r2k5/P9/10/10/10/10/10/10/1R3K2R1/10 w KQ - 0 1").ok());
  expectCapturesAreTheFilteredMoves(pos, seen);
  EXPECT_EQ(seen.quietPromotions, 6);    // a9a10 to Q R B N E C
  EXPECT_EQ(seen.capturePromotions, 6);  // a9b10
  MoveList caps;
  pos.pseudoCaptures(caps);
  EXPECT_EQ(caps.size(), 13);  // and b2b10; not the castlings f2h2 and f2d2
}

}  // namespace
}  // namespace acedrex::test
