// Perft against the figures of independent implementations (shared/reference).
#include <random>

#include "test_util.h"

namespace acedrex::test {
namespace {

struct PerftCase {
  std::string variant;
  std::vector<std::string> options;
  std::string fen;
  std::vector<uint64_t> counts;  // depth 1, 2, ...
};

void checkPerft(const PerftCase& c, int maxDepth) {
  Position pos = position(c.variant, c.fen, c.options);
  for (int d = 1; d <= maxDepth && d <= static_cast<int>(c.counts.size()); ++d)
    EXPECT_EQ(perft(pos, d), c.counts[d - 1]) << c.variant << " depth " << d << " " << c.fen;
  std::string why;
  EXPECT_TRUE(pos.isValid(&why)) << why;
}

const PerftCase kShako{"shako", {}, "", {58, 3364, 185938, 10273158}};
const PerftCase kFourSeasons{"four-seasons", {}, "", {7, 49, 343, 2401, 21952, 198842, 1788577}};
const PerftCase kGrantLeap{"grant-acedrex", {"king-leap=yes", "pawn-double=always"}, "", {71, 5041, 361317}};
const PerftCase kGrantNoLeap{"grant-acedrex", {"king-leap=no", "pawn-double=always"}, "", {68, 4624, 318922, 21961330}};

TEST(Perft, ShakoStart) { checkPerft(kShako, 3); }
TEST(Perft, FourSeasonsStart) { checkPerft(kFourSeasons, 5); }
TEST(Perft, GrantAcedrexKingLeap) { checkPerft(kGrantLeap, 2); }
TEST(Perft, GrantAcedrexNoKingLeap) { checkPerft(kGrantNoLeap, 2); }

// The Shako positions of Fairy-Stockfish's own perft suite.
std::vector<std::tuple<std::string, int, uint64_t>> shakoSuite() { return perftFile("shako_fsf_suite.tsv"); }

TEST(Perft, ShakoFairyStockfishSuite) {
  const auto suite = shakoSuite();
  ASSERT_EQ(suite.size(), 4u);
  for (const auto& [fen, depth, nodes] : suite) {
    Position pos = position("shako", fen);
    EXPECT_EQ(perft(pos, depth), nodes) << fen;
  }
}

// A king already on its castling square (only the rook moves, written as the
// king's null move "h2h2"), or beyond it: Fairy-Stockfish's counts. The first
// position used to loop for ever in the generator.
TEST(Perft, ShakoCastlingCornerCasesMatchFairyStockfish) {
  const auto cases = perftFile("shako_castling_fsf.tsv");
  ASSERT_EQ(cases.size(), 7u);
  for (const auto& [fen, depth, nodes] : cases) {
    Position pos = position("shako", fen);
    EXPECT_EQ(perft(pos, depth), nodes) << fen;
    std::string why;
    EXPECT_TRUE(pos.isValid(&why)) << why;
    EXPECT_EQ(pos.text(), fen);
  }
}

// The cheap check filter may say "maybe" too often but never "no" wrongly: in
// random games of each variant, no move it clears leaves another seat's king
// attacked by a seat that did not attack it before.
TEST(MayGiveCheck, NoMoveItClearsAttacksAnEnemyKing) {
  for (const std::string variant : {"shako", "grant-acedrex", "four-seasons", "joko-urtaroak"}) {
    int cleared = 0, total = 0, checks = 0;
    for (uint32_t seed = 1; seed <= 4; ++seed) {
      Game g(rules(variant), seed);
      std::mt19937 rng(seed * 7919);
      for (int ply = 0; ply < 160 && !g.finished(); ++ply) {
        Position pos = g.position();
        MoveList list;
        pos.legalMoves(list);
        const int us = pos.toMove();
        for (Move m : list) {
          ++total;
          const bool maybe = pos.mayGiveCheck(m);
          // A king of another seat that the move leaves attacked by a seat not attacking it before.
          std::array<uint8_t, kMaxSeats> before{};
          for (int seat = 0; seat < kMaxSeats; ++seat)
            if (seat != us && pos.isIn(seat) && pos.kingSquare(seat) != kNoSquare)
              before[seat] = pos.attackers(pos.kingSquare(seat), pos.enemiesOf(seat));
          pos.make(m);
          bool attacks = false;
          for (int seat = 0; seat < kMaxSeats; ++seat)
            if (seat != us && pos.isIn(seat) && pos.kingSquare(seat) != kNoSquare &&
                (pos.attackers(pos.kingSquare(seat), pos.enemiesOf(seat)) & ~before[seat]))
              attacks = true;
          pos.unmake();
          checks += attacks;
          if (!maybe) {
            ++cleared;
            EXPECT_FALSE(attacks) << variant << " " << pos.moveText(m) << " in " << pos.text();
          }
        }
        const auto moves = g.legalMoves();
        ASSERT_FALSE(moves.empty());
        ASSERT_TRUE(g.play(moves[rng() % moves.size()]).ok());
      }
    }
    EXPECT_GT(checks, 0) << variant;           // the games did hold checking moves
    // The filter clears moves; with one enemy king, a good share of all moves.
    EXPECT_GT(cleared, 0) << variant;
    if (rules(variant)->seats.size() == 2) {
      EXPECT_GT(cleared * 4, total) << variant;
    }
  }
}

TEST(PerftSlow, ShakoStartDepth4) { checkPerft(kShako, 4); }
TEST(PerftSlow, FourSeasonsStartDepth7) { checkPerft(kFourSeasons, 7); }
TEST(PerftSlow, GrantAcedrexKingLeapDepth3) { checkPerft(kGrantLeap, 3); }
TEST(PerftSlow, GrantAcedrexNoKingLeapDepth4) { checkPerft(kGrantNoLeap, 4); }

}  // namespace
}  // namespace acedrex::test
