// Duck chess (variants/duck.variant, core/mechanisms/duck.cpp): the duck in the FEN, the
// turn's text, where the duck may go, no check with the king captured, the
// stalemated side winning, and the bots choosing legal turns. Every expected
// text and count was checked with the current Fairy-Stockfish (`go perft 1`).
#include <atomic>
#include <mutex>

#include "core/records/pgn.h"
#include "engine/bot.h"
#include "protocol/uci.h"
#include "test_util.h"

namespace acedrex::test {
namespace {

TEST(Duck, StartsOffTheBoardAndIsWrittenAsAStar) {
  Position pos = position("duck");
  EXPECT_EQ(pos.duckSquare(), kNoSquare);
  std::vector<Move> turns;
  pos.legalTurns(turns);
  EXPECT_EQ(turns.size(), 640u);  // 20 moves, 32 empty squares each
  pos.make(pos.parseMove("e2e4,e4e6").value());
  EXPECT_EQ(pos.text(), "rnbqkbnr/pppppppp/4*3/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
  pos.make(pos.parseMove("d7d5,d5d6").value());
  EXPECT_EQ(pos.text(), "rnbqkbnr/ppp1pppp/3*4/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
  const std::string fen = "rnbqkbnr/1pp1pp2/7p/p3*1P1/3pP3/P1P4N/1P1P2PP/RNBQKB1R b KQkq e3 0 6";
  Position back = position("duck", fen);
  EXPECT_EQ(back.text(), fen);
  EXPECT_EQ(back.duckSquare(), back.rules().parseSquare("e5").value());
}

TEST(Duck, TheFenRefusesTwoDucksAndADuckElsewhere) {
  Position pos(rules("duck"));
  EXPECT_FALSE(pos.set("rnbqkbnr/pppppppp/8/3**3/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").ok());
  Position chess(rules("chess"));
  EXPECT_FALSE(chess.set("rnbqkbnr/pppppppp/8/3*4/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").ok());
}

TEST(Duck, TurnTextsOfCastlingEnPassantAndPromotion) {
  Position castle = position("duck", "rnb1kbnr/1pp1pp2/7p/p2q2P1/2BpP1*1/P1P4N/1P1P2PP/RNBQK2R w KQkq - 3 8");
  EXPECT_TRUE(hasMove(castle, "e1g1,g1e1"));  // the duck may take the king's square
  EXPECT_TRUE(hasMove(castle, "e1g1,g1h1"));
  EXPECT_FALSE(hasMove(castle, "e1g1,g1g4"));  // its own square
  EXPECT_FALSE(hasMove(castle, "e1g1,g1f1"));  // the rook's
  Position ep = position("duck", "rnbqkbnr/1pp1pp2/7p/p3*1P1/3pP3/P1P4N/1P1P2PP/RNBQKB1R b KQkq e3 0 6");
  EXPECT_TRUE(hasMove(ep, "d4e3,e3e4"));  // the taken pawn's square is free
  Position promo = position("duck", "8/3q1R2/8/k5p1/3B4/1*N3K1/2p3b1/1R6 b - - 1 81");
  EXPECT_TRUE(hasMove(promo, "c2b1q,b1a1"));
  EXPECT_TRUE(hasMove(promo, "c2c1n,c1c2"));
}

TEST(Duck, TheDuckMustMoveToAnEmptySquare) {
  Game g(rules("duck"));
  ASSERT_TRUE(g.play("e2e4,e4e5").ok());
  const std::string own = g.play("e7e6,e6e5").error().message;
  EXPECT_NE(own.find("duck must go to an empty square"), std::string::npos) << own;
  EXPECT_FALSE(g.play("e7e6,e6d7").ok());  // a piece stands there
  const std::string alone = g.play("e7e6").error().message;
  EXPECT_NE(alone.find("comma"), std::string::npos) << alone;
  EXPECT_FALSE(g.play("e7e5,e5d5").ok());  // the duck blocks the pawn
  EXPECT_FALSE(g.play("d7d5,d5e4").ok());  // the duck may not land on a piece
  EXPECT_TRUE(g.play("d7d5,d5d4").ok());
}

TEST(Duck, TheDuckOnTheSkippedSquareLeavesNoEnPassant) {
  Position pos = position("duck", "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1");
  pos.make(pos.parseMove("d7d5,d5d6").value());
  EXPECT_EQ(pos.text(), "4k3/8/3*4/3pP3/8/8/8/4K3 w - - 0 2");
  pos.unmake();
  pos.make(pos.parseMove("d7d5,d5a1").value());
  EXPECT_EQ(pos.text(), "4k3/8/8/3pP3/8/8/8/*3K3 w - d6 0 2");
}

TEST(Duck, NoCheckAndTheKingIsCaptured) {
  // The king may step next to the enemy king and castle through attack.
  Position pos = position("duck", "r3k2r/8/8/8/8/8/5q2/R3K2R w KQkq - 0 1");
  EXPECT_FALSE(pos.inCheck(0));
  EXPECT_TRUE(hasMove(pos, "e1g1,g1a3"));
  EXPECT_TRUE(hasMove(pos, "e1c1,c1a3"));
  EXPECT_TRUE(hasMove(pos, "a1a2,a2a3"));  // leaving the king attacked
  Game g(rules("duck"));
  ASSERT_TRUE(g.setStart("4k3/8/8/8/8/8/8/4R2K w - - 0 1").ok());
  ASSERT_TRUE(g.play("e1e8,e8a1").ok());
  EXPECT_TRUE(g.finished());
  EXPECT_EQ(g.position().winner(), 0);
  ASSERT_EQ(g.position().lastEvents().nOuts, 1);
  EXPECT_EQ(g.position().lastEvents().outs[0].reason, OutReason::kKingCaptured);
  Position after = position("duck", "4k3/8/8/8/8/8/8/4R2K w - - 0 1");
  EXPECT_EQ(perft(after, 2), 270121u);  // Fairy-Stockfish: the capture of the king ends its line
}

TEST(Duck, TheDuckBlocksSlidersAndLeapers) {
  // The rook on a1 stops before the duck on a4; the knight may not land on it.
  Position pos = position("duck", "4k3/8/8/8/*7/8/2N5/R3K3 w - - 0 1");
  EXPECT_TRUE(hasMove(pos, "a1a3,a3h8"));
  EXPECT_FALSE(hasMove(pos, "a1a4,a4h8"));
  EXPECT_FALSE(hasMove(pos, "a1a5,a5h8"));
  EXPECT_FALSE(hasMove(pos, "c2a4,a4h8"));
  EXPECT_TRUE(hasMove(pos, "c2a3,a3h8"));
}

TEST(Duck, AStalematedSideWins) {
  // Black's pieces are all blocked by the duck, white pawns and each other.
  Game g(rules("duck"));
  ASSERT_TRUE(g.setStart("kn6/pp1p4/p*pP4/P1P5/8/8/8/7K b - - 0 1").ok());
  EXPECT_TRUE(g.finished());
  EXPECT_EQ(g.position().winner(), 1);
  Position pos = position("duck", "kn6/pp1p4/p*pP4/P1P5/8/8/8/7K b - - 0 1");
  EXPECT_EQ(perft(pos, 1), 0u);
}

TEST(Duck, SanAddsTheDuckSquare) {
  Game g(rules("duck"));
  Position p = g.position();
  const Move m = p.parseMove("g1f3,f3e4").value();
  EXPECT_EQ(sanNotation().write(g, m), "Nf3,e4");
  auto back = sanNotation().read(g, "Nf3,e4");
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back.value(), m);
  EXPECT_FALSE(sanNotation().read(g, "Nf3").ok());
}

// The most moves known in chess (218) times the empty squares (45), plus one
// square for each of the 9 captures: 9819 turns, beyond Fairy-Stockfish's
// list of 8192 (it fails on this position). Ours are never in one MoveList:
// the moves alone are, and the bot tries a few duck squares per move.
TEST(Duck, TheLongestTurnListFitsAndTheBotAnswers) {
  const std::string fen = "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1";
  Position pos = position("duck", fen);
  EXPECT_EQ(perft(pos, 1), 9819u);
  std::vector<Move> turns;
  pos.legalTurns(turns);
  EXPECT_EQ(turns.size(), 9819u);
  auto r = rules("duck");
  Game g(r);
  ASSERT_TRUE(g.setStart(fen).ok());
  auto bot = engine::makeBot(r, engine::kFullStrength, 1);
  engine::SearchLimits limits;
  limits.depth = 2;
  std::atomic<bool> stop{false};
  const auto res = bot->choose(g, limits, stop);
  EXPECT_TRUE(g.play(res.best).ok());
}

TEST(Duck, PerftDivideListsTurns) {
  Position pos = position("duck");
  const auto divide = perftDivide(pos, 1);
  ASSERT_EQ(divide.size(), 640u);
  EXPECT_EQ(divide.front().second, 1u);
  bool found = false;
  for (const auto& [text, n] : divide) found |= text == "g1f3,f3e4";
  EXPECT_TRUE(found);
}

TEST(Duck, BotsPlayLegalTurns) {
  auto r = rules("duck");
  for (int level : {1, 9}) {
    Game g(r, 3);
    auto bot = engine::makeBot(r, level, 5);
    engine::SearchLimits limits;
    limits.depth = 3;
    limits.nodes = 4000;
    std::atomic<bool> stop{false};
    for (int ply = 0; ply < 16 && !g.finished(); ++ply) {
      const auto res = bot->choose(g, limits, stop);
      ASSERT_TRUE(res.found);
      const auto legal = g.legalMoves();
      ASSERT_NE(std::find(legal.begin(), legal.end(), res.best), legal.end()) << g.position().text();
      ASSERT_NE(res.best.duck(), kNoSquare);
      ASSERT_TRUE(g.play(res.best).ok());
    }
  }
}

// The bot shields its king: the rook on e1 would take the king on e8 next
// turn unless the duck (or a move) stops it.
TEST(Duck, TheBotShieldsItsKing) {
  auto r = rules("duck");
  Game g(r);
  ASSERT_TRUE(g.setStart("4k3/8/8/8/8/8/P7/4R2K b - - 0 1").ok());
  auto bot = engine::makeBot(r, engine::kFullStrength, 1);
  engine::SearchLimits limits;
  limits.depth = 3;
  std::atomic<bool> stop{false};
  const auto res = bot->choose(g, limits, stop);
  const std::string played = g.position().moveText(res.best);
  ASSERT_TRUE(g.play(res.best).ok());
  Position after = g.position();
  std::vector<Move> turns;
  after.legalTurns(turns);
  for (Move m : turns) {
    after.make(m);
    EXPECT_FALSE(after.finished() && after.winner() == 0) << "white takes the king after " << played;
    after.unmake();
  }
}

TEST(Duck, UciGoMovetimeAnswersALegalTurn) {
  const std::string best = uciBestMove("duck", "startpos moves e2e4,e4e5 d7d5,d5d4");
  Game g(rules("duck"));
  ASSERT_TRUE(g.playAll("e2e4,e4e5 d7d5,d5d4").ok());
  EXPECT_TRUE(g.play(best).ok()) << "bestmove " << best;
}

}  // namespace
}  // namespace acedrex::test
