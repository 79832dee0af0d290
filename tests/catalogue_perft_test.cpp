// Perft of the catalogue games against Fairy-Stockfish: the start position and
// positions from seeded random games, in tests/data/perft/<variant>.txt, made
// by tools/reference/catalogue.mjs (see tools/reference/README.md). The fast
// tests take every line up to kFastNodes, the slow ones every line.
#include "test_util.h"

namespace acedrex::test {
namespace {

constexpr uint64_t kFastNodes = 100000;

// Checks every line of the variant's file with at most maxNodes nodes.
void checkCatalogueFile(const std::string& variant, uint64_t maxNodes) {
  const auto cases = perftFile(variant + ".txt");
  ASSERT_GE(cases.size(), 8u) << "tests/data/perft/" << variant << ".txt missing or short";
  int checked = 0;
  for (const auto& [fen, depth, nodes] : cases) {
    if (nodes > maxNodes) continue;
    Position pos = position(variant, fen);
    EXPECT_EQ(pos.text(), fen) << variant << ": the position text round-trips";
    EXPECT_EQ(perft(pos, depth), nodes) << variant << " depth " << depth << " " << fen;
    std::string why;
    EXPECT_TRUE(pos.isValid(&why)) << why;
    ++checked;
  }
  EXPECT_GE(checked, 4) << variant;
}

TEST(CataloguePerft, Chess) { checkCatalogueFile("chess", kFastNodes); }
TEST(CataloguePerft, Chess960) { checkCatalogueFile("fischerandom", kFastNodes); }
TEST(CataloguePerft, Chaturanga) { checkCatalogueFile("chaturanga", kFastNodes); }
TEST(CataloguePerft, Shatranj) { checkCatalogueFile("shatranj", kFastNodes); }
TEST(CataloguePerft, Xiangqi) { checkCatalogueFile("xiangqi", kFastNodes); }
TEST(CataloguePerft, Janggi) { checkCatalogueFile("janggi", kFastNodes); }
TEST(CataloguePerft, Antichess) { checkCatalogueFile("antichess", kFastNodes); }
TEST(CataloguePerft, Atomic) { checkCatalogueFile("atomic", kFastNodes); }
TEST(CataloguePerft, Crazyhouse) { checkCatalogueFile("crazyhouse", kFastNodes); }
TEST(CataloguePerft, Shogi) { checkCatalogueFile("shogi", kFastNodes); }
TEST(CataloguePerft, Minishogi) { checkCatalogueFile("minishogi", kFastNodes); }

TEST(CataloguePerft, Makruk) { checkCatalogueFile("makruk", kFastNodes); }
TEST(CataloguePerft, Cambodian) { checkCatalogueFile("cambodian", kFastNodes); }
// Our own counts, checked against Fairy-Stockfish given the game as a custom variant (tools/reference/fog_of_war_perft.py).
TEST(CataloguePerft, FogOfWar) { checkCatalogueFile("fog-of-war", kFastNodes); }
TEST(CataloguePerft, Sittuyin) { checkCatalogueFile("sittuyin", kFastNodes); }
TEST(CataloguePerft, Duck) { checkCatalogueFile("duck", kFastNodes); }
// Friendly chess has no Fairy-Stockfish counterpart: its file is checked
// against pacosako.com's rules library (docs/rules/friendly-chess.md).
TEST(CataloguePerft, FriendlyChess) { checkCatalogueFile("friendly-chess", kFastNodes); }
// Three-player chess has no Fairy-Stockfish counterpart: its file is checked
// against an independent model of the board (docs/rules/three-player-chess.md).
TEST(CataloguePerft, ThreePlayerChess) { checkCatalogueFile("three-player-chess", kFastNodes); }
// Chaturaji has no outside engine that plays chess.com's rules: its file is
// checked against an independent generator written from the rules (docs/rules/chaturaji.md).
TEST(CataloguePerft, Chaturaji) { checkCatalogueFile("chaturaji", kFastNodes); }

// Fairy-Stockfish's bare king: after 1. Rxd3+ Black, bare against king and
// rook, may reply (d2d3: 5 at depth 2, 81 in all) and loses at White's turn
// unless it took the rook (the second position: Kxd3 bares White in return).
TEST(CataloguePerft, ShatranjBareKingMayReply) {
  Position pos = position("shatranj", "8/8/8/3k4/8/3p4/3R4/3K4 w - - 0 1");
  EXPECT_EQ(perft(pos, 2), 81u);
  ASSERT_TRUE(pos.parseMove("d2d3").ok());
  pos.make(pos.parseMove("d2d3").value());
  EXPECT_FALSE(pos.finished());
  pos.make(pos.parseMove("d5e5").value());
  EXPECT_TRUE(pos.finished());
  EXPECT_EQ(pos.winner(), 0);
  pos = position("shatranj", "8/8/8/8/3k4/3p4/3R4/3K4 w - - 0 1");
  pos.make(pos.parseMove("d2d3").value());
  pos.make(pos.parseMove("d4d3").value());
  EXPECT_FALSE(pos.finished());  // king against king: plays on
  // Set up with a bare king against two pieces: the game is over.
  pos = position("shatranj", "8/8/8/3k4/8/8/3RR3/3K4 b - - 0 1");
  EXPECT_TRUE(pos.finished());
  EXPECT_EQ(pos.winner(), 0);
}

TEST(CataloguePerftSlow, Chess) { checkCatalogueFile("chess", UINT64_MAX); }
TEST(CataloguePerftSlow, FriendlyChess) { checkCatalogueFile("friendly-chess", UINT64_MAX); }
TEST(CataloguePerftSlow, ThreePlayerChess) { checkCatalogueFile("three-player-chess", UINT64_MAX); }
TEST(CataloguePerftSlow, Chaturaji) { checkCatalogueFile("chaturaji", UINT64_MAX); }
TEST(CataloguePerftSlow, Chess960) { checkCatalogueFile("fischerandom", UINT64_MAX); }
TEST(CataloguePerftSlow, Chaturanga) { checkCatalogueFile("chaturanga", UINT64_MAX); }
TEST(CataloguePerftSlow, Shatranj) { checkCatalogueFile("shatranj", UINT64_MAX); }
TEST(CataloguePerftSlow, Xiangqi) { checkCatalogueFile("xiangqi", UINT64_MAX); }
TEST(CataloguePerftSlow, Janggi) { checkCatalogueFile("janggi", UINT64_MAX); }
TEST(CataloguePerftSlow, Antichess) { checkCatalogueFile("antichess", UINT64_MAX); }
TEST(CataloguePerftSlow, Atomic) { checkCatalogueFile("atomic", UINT64_MAX); }
TEST(CataloguePerftSlow, Crazyhouse) { checkCatalogueFile("crazyhouse", UINT64_MAX); }
TEST(CataloguePerftSlow, Shogi) { checkCatalogueFile("shogi", UINT64_MAX); }
TEST(CataloguePerftSlow, Minishogi) { checkCatalogueFile("minishogi", UINT64_MAX); }
TEST(CataloguePerftSlow, Makruk) { checkCatalogueFile("makruk", UINT64_MAX); }
TEST(CataloguePerftSlow, Cambodian) { checkCatalogueFile("cambodian", UINT64_MAX); }
TEST(CataloguePerftSlow, FogOfWar) { checkCatalogueFile("fog-of-war", UINT64_MAX); }
TEST(CataloguePerftSlow, Sittuyin) { checkCatalogueFile("sittuyin", UINT64_MAX); }
TEST(CataloguePerftSlow, Duck) { checkCatalogueFile("duck", UINT64_MAX); }

}  // namespace
}  // namespace acedrex::test
