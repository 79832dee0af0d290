// Hands and drops: crazyhouse, shogi and minishogi as Fairy-Stockfish plays
// them (FEN with hands, drop and promotion text, the drop rules, the
// promotion zone, the pawn-drop mate), and the bots playing them.
#include <atomic>
#include <set>

#include <mutex>

#include "core/variant/embedded_variants.h"
#include "engine/bot.h"
#include "protocol/uci.h"
#include "test_util.h"

namespace acedrex::test {
namespace {

std::set<std::string> moveTexts(Position& pos) {
  MoveList list;
  pos.legalMoves(list);
  std::set<std::string> out;
  for (Move m : list) out.insert(pos.moveText(m));
  return out;
}

TEST(Drops, FenRoundTripsOnEveryStoredPosition) {
  for (const std::string v : {"crazyhouse", "shogi", "minishogi"})
    for (const auto& [fen, depth, nodes] : perftFile(v + ".txt")) {
      Position pos = position(v, fen);
      EXPECT_EQ(pos.text(), fen) << v;
    }
}

TEST(Drops, EmptyHandsMayBeWrittenWithADash) {
  Position pos = position("minishogi", "rbsgk/4p/5/P4/KGSBR[-] w - - 0 1");
  EXPECT_EQ(pos.text(), "rbsgk/4p/5/P4/KGSBR[] w - - 0 1");
}

TEST(Drops, CapturedPieceGoesToTheHandAndComesBackAsADrop) {
  Game g(rules("crazyhouse"));
  ASSERT_TRUE(g.setStart("4k3/8/8/3p4/8/2N5/8/4K3[] w - - 0 1").ok());
  ASSERT_TRUE(g.playAll("c3d5 e8d7").ok());
  EXPECT_EQ(g.position().text(), "8/3k4/8/3N4/8/8/8/4K3[P] w - - 1 2");
  ASSERT_TRUE(g.play("P@e4").ok());
  EXPECT_EQ(g.position().text(), "8/3k4/8/3N4/4P3/8/8/4K3[] b - - 0 2");
}

TEST(Drops, CrazyhousePromotedPieceDemotesToAPawn) {
  Game g(rules("crazyhouse"));
  ASSERT_TRUE(g.setStart("8/P7/4k3/8/8/8/7K/r7[] w - - 0 1").ok());
  ASSERT_TRUE(g.play("a7a8q").ok());
  EXPECT_EQ(g.position().text(), "Q~7/8/4k3/8/8/8/7K/r7[] b - - 0 1");
  ASSERT_TRUE(g.play("a1a8").ok());
  EXPECT_EQ(g.position().text(), "r7/8/4k3/8/8/8/7K/8[p] w - - 0 2");
}

TEST(Drops, CrazyhousePawnsAreNotDroppedOnTheFirstOrLastRank) {
  Position pos = position("crazyhouse", "4k3/8/8/8/8/8/8/4K3[P] w - - 0 1");
  const auto moves = moveTexts(pos);
  EXPECT_TRUE(moves.count("P@a2"));
  EXPECT_TRUE(moves.count("P@h7"));
  EXPECT_FALSE(moves.count("P@a1"));
  EXPECT_FALSE(moves.count("P@a8"));
}

TEST(Drops, ShogiDropRules) {
  // Knights not on the last two ranks, lances and pawns not on the last,
  // no second pawn on a file.
  Position pos = position("shogi", "4k4/9/9/9/9/9/9/P8/4K4[NLP] w - - 0 1");
  const auto moves = moveTexts(pos);
  EXPECT_TRUE(moves.count("N@b7"));
  EXPECT_FALSE(moves.count("N@b8"));
  EXPECT_TRUE(moves.count("L@b8"));
  EXPECT_FALSE(moves.count("L@b9"));
  EXPECT_TRUE(moves.count("P@b8"));
  EXPECT_FALSE(moves.count("P@b9"));
  EXPECT_FALSE(moves.count("P@a5"));
}

TEST(Drops, ShogiPromotionIsOptionalInTheZoneAndForcedWhereThePieceCouldNotMove) {
  Position pos = position("minishogi", "2k2/P4/5/5/K4[] w - - 0 1");
  EXPECT_EQ(moveTexts(pos), (std::set<std::string>{"a1a2", "a1b1", "a1b2", "a4a5+"}));
  pos = position("shogi", "4k4/9/S8/9/9/9/9/9/4K4[] w - - 0 1");
  const auto moves = moveTexts(pos);
  EXPECT_TRUE(moves.count("a7a8") && moves.count("a7a8+") && moves.count("a7b6") && moves.count("a7b6+"));
  Game g(rules("shogi"));
  ASSERT_TRUE(g.setStart("4k4/9/S8/9/9/9/9/9/4K4[] w - - 0 1").ok());
  ASSERT_TRUE(g.playAll("a7a8+ e9d9").ok());
  EXPECT_EQ(g.position().text(), "3k5/+S8/9/9/9/9/9/9/4K4[] w - - 2 2");
}

// The zone form makruk needs: a pawn (a `pawn` piece) promotes, forced, on
// reaching the zone, here a variant made from chess's file.
TEST(Drops, ForcedZonePromotionOfAPawn) {
  VariantRegistry reg = VariantRegistry::withEmbedded();
  std::string text;
  for (const auto& [file, body] : embeddedVariantFiles())
    if (body.find("name  = chess\n") != std::string::npos) text = body;
  ASSERT_FALSE(text.empty());
  text.replace(text.find("name  = chess"), 13, "name  = zoned");
  text.replace(text.find("promotion   = Q R B N"), 21, "promotion-zone = 3 forced P:Q");
  ASSERT_TRUE(reg.add(text, "zoned").ok());
  auto r = reg.rules("zoned", {});
  ASSERT_TRUE(r.ok()) << r.error().text();
  Position pos(r.value());
  ASSERT_TRUE(pos.set("4k3/8/8/P7/8/8/8/4K3 w - - 0 1").ok());
  const auto moves = moveTexts(pos);
  EXPECT_TRUE(moves.count("a5a6q"));
  EXPECT_FALSE(moves.count("a5a6"));
}

TEST(Drops, CapturedShogiPieceReturnsUnpromoted) {
  Game g(rules("shogi"));
  ASSERT_TRUE(g.setStart("4k4/9/9/9/9/9/9/+r8/R3K4[] w - - 0 1").ok());
  ASSERT_TRUE(g.play("a1a2").ok());
  EXPECT_EQ(g.position().text(), "4k4/9/9/9/9/9/9/R8/4K4[R] b - - 0 1");
}

TEST(Drops, PawnDropMateLosesForTheDropper) {
  // P@e4 mates (the gold guards d4 and e4, the bishop d5): Fairy-Stockfish
  // counts the move and gives the game to the mated side.
  Game g(rules("minishogi"));
  ASSERT_TRUE(g.setStart("4k/5/1B1G1/5/K4[P] w - - 0 1").ok());
  ASSERT_TRUE(g.play("P@e4").ok());
  ASSERT_TRUE(g.finished());
  EXPECT_EQ(g.position().result(), ResultKind::kWin);
  EXPECT_EQ(g.position().winner(), 1);
  // A mate by another drop wins as usual.
  Game h(rules("minishogi"));
  ASSERT_TRUE(h.setStart("4k/5/1B1G1/5/K4[G] w - - 0 1").ok());
  ASSERT_TRUE(h.play("G@e4").ok());
  ASSERT_TRUE(h.finished());
  EXPECT_EQ(h.position().winner(), 0);
}

TEST(Drops, FullShogiHandsFitTheMoveList) {
  // 525 moves, as Fairy-Stockfish counts.
  Position pos = position("shogi", "4k4/9/9/9/9/9/9/9/4K4[GGGGNNNNLLLLPPPPPPPPPPPPPPPPPPSSSSRRBB] w - - 0 1");
  EXPECT_EQ(perft(pos, 1), 525u);
  EXPECT_LE(pos.moveBound(0), pos.rules().moveCapacity);
}

TEST(Drops, HandsAreHashedAndRestoredByUnmake) {
  Position a = position("crazyhouse", "4k3/8/8/8/8/8/8/4K3[P] w - - 0 1");
  Position b = position("crazyhouse", "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1");
  EXPECT_NE(a.hash(), b.hash());
  const uint64_t before = a.hash();
  auto m = a.parseMove("P@e4");
  ASSERT_TRUE(m.ok());
  a.make(*m);
  EXPECT_EQ(a.handCount(0, a.rules().typeByLetter('P')), 0);
  a.unmake();
  EXPECT_EQ(a.hash(), before);
  EXPECT_EQ(a.handCount(0, a.rules().typeByLetter('P')), 1);
}

TEST(Drops, PseudoCapturesLeaveDropsOut) {
  Position pos = position("crazyhouse", "4k3/8/8/8/8/8/8/4K3[Q] w - - 0 1");
  MoveList caps;
  pos.pseudoCaptures(caps);
  EXPECT_EQ(caps.size(), 0);
}

TEST(Drops, ShogiFourfoldRepetitionDrawsAndMinishogiLosesItForWhite) {
  const std::string shuffle = "a1a2 e5e4 a2a1 e4e5 ";
  Game mini(rules("minishogi"));
  ASSERT_TRUE(mini.setStart("4k/5/5/5/K4[] w - - 0 1").ok());
  ASSERT_TRUE(mini.playAll(shuffle + shuffle).ok());
  EXPECT_FALSE(mini.finished());
  ASSERT_TRUE(mini.playAll(shuffle).ok());
  ASSERT_TRUE(mini.finished());
  EXPECT_EQ(mini.position().winner(), 1);
  Game shogi(rules("shogi"));
  ASSERT_TRUE(shogi.setStart("8k/9/9/9/9/9/9/9/K8[] w - - 0 1").ok());
  ASSERT_TRUE(shogi.playAll("a1a2 i9i8 a2a1 i8i9 a1a2 i9i8 a2a1 i8i9 a1a2 i9i8 a2a1").ok());
  EXPECT_FALSE(shogi.finished());
  ASSERT_TRUE(shogi.play("i8i9").ok());
  ASSERT_TRUE(shogi.finished());
  EXPECT_EQ(shogi.position().result(), ResultKind::kDraw);
  EXPECT_EQ(shogi.drawReason(), "repetition");
}

TEST(Drops, ShogiPerpetualCheckLosesForTheCheckingSide) {
  Game g(rules("shogi"));
  ASSERT_TRUE(g.setStart("9/4k4/9/9/9/9/9/R8/4K4[] w - - 0 1").ok());
  ASSERT_TRUE(g.playAll("a2a8 e8e9 a8a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9 a8a9 e9e8").ok());
  EXPECT_FALSE(g.finished());
  ASSERT_TRUE(g.play("a9a8").ok());
  ASSERT_TRUE(g.finished());
  EXPECT_EQ(g.position().winner(), 1);
}

// Through UCI with Fairy-Stockfish's variant names: `go movetime 200` from a
// position with pieces in hand answers a legal move.
TEST(Drops, UciAnswersALegalMove) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"crazyhouse", "r1bqk2r/pppp1ppp/2n1p3/4P3/1b1Pn3/2NB1N2/PPP2PPP/R1BQK2R[Pn] b KQkq - 0 1"},
      {"shogi", "lr4snl/2sg1k1b1/pp2g2pp/2ppppp2/1P6P/3P5/2P1P1PP1/LBR1KS2L/1+nSG2GN1[npp] b - - 1 20"},
      {"minishogi", "rbsgk/4p/5/P4/KGSBR[Pp] w - - 0 1"},
  };
  for (const auto& [variant, fen] : cases) {
    const std::string best = uciBestMove(variant, "fen " + fen);
    Position pos = position(variant, fen);
    EXPECT_TRUE(moveTexts(pos).count(best)) << variant << ": " << best;
  }
}

}  // namespace
}  // namespace acedrex::test
