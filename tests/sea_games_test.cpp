// Makruk, Ouk Chatrang, shatranj, chaturanga, chess and Chess960: the rules
// that perft does not show (rights in the FEN, move text, game ends) and the
// bots playing them.
#include <atomic>
#include <mutex>
#include <set>

#include "core/variant/chess960.h"
#include "engine/bot.h"
#include "protocol/uci.h"
#include "test_util.h"

namespace acedrex::test {
namespace {

TEST(Makruk, APawnBecomesAMetOnTheSixthRankForcedly) {
  Position pos = position("makruk", "4k3/8/8/2P5/8/8/8/4K3 w - - 0 1");
  const auto moves = legalTexts(pos);
  EXPECT_NE(std::find(moves.begin(), moves.end(), "c5c6m"), moves.end());
  EXPECT_EQ(std::find(moves.begin(), moves.end(), "c5c6"), moves.end());
  pos.make(pos.parseMove("c5c6m").value());
  EXPECT_EQ(pos.text(), "4k3/8/2M5/8/8/8/8/4K3 b - 128 6 1");
}

TEST(Cambodian, TheKingLeapsAndTheMetStepsTwiceOnTheirFirstMoves) {
  Position pos = position("cambodian", "4k3/8/8/8/8/8/8/3KM3 w DE - 0 1");
  auto moves = legalTexts(pos);
  for (const char* m : {"d1b2", "d1f2", "e1e3"})
    EXPECT_NE(std::find(moves.begin(), moves.end(), m), moves.end()) << m;
  pos.make(pos.parseMove("e1e3").value());
  EXPECT_EQ(pos.text(), "4k3/8/8/8/8/4M3/8/3K4 b D 126 6 1");  // the met's right is gone
}

TEST(Cambodian, AnEnemyRookOnItsLineTakesTheKingsLeap) {
  Position pos = position("cambodian", "r3k3/8/8/8/8/8/8/3K4 b D - 0 1");
  pos.make(pos.parseMove("a8a1").value());  // onto the king's rank: a check too
  EXPECT_EQ(pos.text(), "4k3/8/8/8/8/8/8/r2K4 w - 30 6 2");
  pos = position("cambodian", "r3k3/8/8/8/2P5/8/8/3K4 b D - 0 1");
  pos.make(pos.parseMove("a8d8").value());  // the d-file, a pawn or not between
  EXPECT_EQ(pos.text(), "3rk3/8/8/8/2P5/8/8/3K4 w - 126 0 2");
  pos = position("cambodian", "r3k3/8/8/8/8/8/8/3K4 b D - 0 1");
  pos.make(pos.parseMove("a8b8").value());
  EXPECT_EQ(pos.text(), "1r2k3/8/8/8/8/8/8/3K4 w D 30 6 2");
}

TEST(Cambodian, NoLeapOutOfCheck) {
  Position pos = position("cambodian", "3rk3/8/8/8/8/8/8/3K4 w D - 0 1");
  const auto moves = legalTexts(pos);
  EXPECT_EQ(std::find(moves.begin(), moves.end(), "d1b2"), moves.end());
  EXPECT_EQ(std::find(moves.begin(), moves.end(), "d1f2"), moves.end());
}

TEST(Chess960, StartArraysByNumber) {
  EXPECT_EQ(chess960StartFen(518), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1");
  EXPECT_EQ(chess960StartFen(0), "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1");
  EXPECT_EQ(chess960StartFen(959), "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w CAca - 0 1");
  EXPECT_EQ(chess960StartFen(960), "");
  // Every array sets and round-trips, and they are all different.
  std::set<std::string> seen;
  for (int n = 0; n < 960; ++n) {
    const std::string fen = chess960StartFen(n);
    Position pos = position("fischerandom", fen);
    EXPECT_EQ(pos.text(), fen);
    seen.insert(fen);
  }
  EXPECT_EQ(seen.size(), 960u);
}

TEST(Chess960, AnswersToTheNameChess960) {
  const VariantRegistry reg = VariantRegistry::withEmbedded();
  ASSERT_NE(reg.find("chess960"), nullptr);
  EXPECT_EQ(reg.find("chess960")->name, "fischerandom");
}

TEST(Chess960, CastlingIsTheKingOntoItsRookAndRightsAreRookFiles) {
  Position pos = position("fischerandom", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1");
  EXPECT_EQ(pos.text(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w HAha - 0 1");
  const auto moves = legalTexts(pos);
  EXPECT_NE(std::find(moves.begin(), moves.end(), "e1h1"), moves.end());
  EXPECT_NE(std::find(moves.begin(), moves.end(), "e1a1"), moves.end());
  EXPECT_EQ(std::find(moves.begin(), moves.end(), "e1g1"), moves.end());
  pos.make(pos.parseMove("e1h1").value());
  EXPECT_EQ(pos.text(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 b ha - 1 1");
  // Chess keeps e1g1 and KQkq.
  Position chess = position("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1");
  const auto cm = legalTexts(chess);
  EXPECT_NE(std::find(cm.begin(), cm.end(), "e1g1"), cm.end());
  EXPECT_EQ(chess.text(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1");
}

// The counting rules, checked against Fairy-Stockfish's FEN (the limit in
// plies where the en-passant square stands, the plies counted after it); the
// count running out is a draw.
TEST(Makruk, CountingFromTheFenToADraw) {
  Game g(rules("makruk"));
  ASSERT_TRUE(g.setStart("4k3/8/8/8/8/8/8/r2K4 w - 32 30 40").ok());
  EXPECT_EQ(g.position().text(), "4k3/8/8/8/8/8/8/r2K4 w - 32 30 40");
  ASSERT_TRUE(g.play("d1e2").ok());
  EXPECT_FALSE(g.finished());
  ASSERT_TRUE(g.play("a1a2").ok());
  EXPECT_EQ(g.position().text(), "4k3/8/8/8/8/8/r3K3/8 w - 32 32 41");
  EXPECT_FALSE(g.finished());
  ASSERT_TRUE(g.play("e2e3").ok());
  EXPECT_TRUE(g.finished());
  EXPECT_EQ(g.drawReasonKind(), DrawReason::kCounting);
}

TEST(Chess, InsufficientMaterialDrawsAsLichessDoes) {
  const std::vector<std::pair<std::string, bool>> cases = {
      {"4k3/8/8/8/8/8/8/4K3 w - - 0 1", true},     {"4k3/8/8/8/8/8/8/3NK3 w - - 0 1", true},
      {"4k3/8/8/8/8/8/8/3BK3 w - - 0 1", true},    {"2b1k3/8/8/8/8/8/8/3BK3 w - - 0 1", true},  // same colour
      {"3bk3/8/8/8/8/8/8/3BK3 w - - 0 1", false},  // bishops on both colours
      {"3nk3/8/8/8/8/8/8/3NK3 w - - 0 1", false},  {"3nk3/8/8/8/8/8/8/3BK3 w - - 0 1", false},
      {"4k3/8/8/8/8/8/8/2NNK3 w - - 0 1", false},  {"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", false},
      {"4k3/8/8/8/8/8/8/3RK3 w - - 0 1", false}};
  for (const auto& [fen, draw] : cases) EXPECT_EQ(position("chess", fen).insufficientMaterial(), draw) << fen;
  Game g(rules("chess"));
  ASSERT_TRUE(g.setStart("4k3/8/8/8/8/8/3n4/3BK3 w - - 0 1").ok());
  ASSERT_TRUE(g.play("e1d2").ok());
  EXPECT_TRUE(g.finished());
  EXPECT_EQ(g.drawReasonKind(), DrawReason::kInsufficient);
}

// Fairy-Stockfish's general material test (insufficient-material =
// mating-pieces): each side's verdict in random sparse positions, as pyffish's
// has_insufficient_material gives it (tests/data/insufficient/<game>.txt,
// written by tools/reference/insufficient_material.py).
TEST(Catalogue, InsufficientMaterialAsFairyStockfish) {
  for (const std::string game : {"chaturanga", "makruk", "cambodian", "sittuyin", "xiangqi", "janggi"}) {
    std::ifstream in(std::string(ACEDREX_SOURCE_DIR) + "/tests/data/insufficient/" + game + ".txt");
    int n = 0, cannot = 0;
    for (std::string line; std::getline(in, line);) {
      if (line.empty() || line[0] == '#') continue;
      const auto bar = line.find('|');
      ASSERT_NE(bar, std::string::npos) << line;
      const std::string fen = line.substr(0, bar);
      const bool white = line[bar + 1] == '1', black = line[bar + 3] == '1';
      const Position pos = position(game, fen);
      EXPECT_EQ(pos.cannotMate(0), white) << game << " white: " << fen;
      EXPECT_EQ(pos.cannotMate(1), black) << game << " black: " << fen;
      EXPECT_EQ(pos.insufficientMaterial(), white && black) << game << ": " << fen;
      ++n;
      cannot += white + black;
    }
    EXPECT_GE(n, 200) << game;
    EXPECT_GE(cannot, 40) << game << ": the file has too few verdicts of insufficient material";
  }
}

// The draw itself: the move that leaves neither side able to mate ends the
// game, before mate and stalemate are looked at; in janggi it is a draw, not
// a material count; in sittuyin a piece still in hand can mate.
TEST(Catalogue, InsufficientMaterialEndsTheGame) {
  Game makruk(rules("makruk"));
  ASSERT_TRUE(makruk.setStart("4k3/8/8/8/8/8/3r4/3NK3 w - - 0 1").ok());
  ASSERT_TRUE(makruk.play("e1d2").ok());  // K+N against a bare king
  EXPECT_TRUE(makruk.finished());
  EXPECT_EQ(makruk.drawReasonKind(), DrawReason::kInsufficient);

  Game chaturanga(rules("chaturanga"));
  ASSERT_TRUE(chaturanga.setStart("4k3/8/8/8/8/8/3q4/4K3 w - - 0 1").ok());
  ASSERT_TRUE(chaturanga.play("e1d2").ok());  // kings only
  EXPECT_EQ(chaturanga.drawReasonKind(), DrawReason::kInsufficient);
  // Stalemate loses in chaturanga, so a lone ferz or knight still plays on.
  EXPECT_FALSE(position("chaturanga", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1").insufficientMaterial());

  // Advisors and elephants never leave their side: with nothing else, a draw.
  Game xiangqi(rules("xiangqi"));
  ASSERT_TRUE(xiangqi.setStart("5k3/4a4/9/9/9/9/9/4B4/9/3K2r2 w - - 0 1").ok());
  ASSERT_TRUE(xiangqi.play("e3g1").ok());  // the elephant takes the chariot
  EXPECT_TRUE(xiangqi.finished());
  EXPECT_EQ(xiangqi.drawReasonKind(), DrawReason::kInsufficient);
  EXPECT_FALSE(position("xiangqi", "5k3/4a4/9/9/9/9/9/4B4/9/3K2c2 w - - 0 1").cannotMate(1));  // a cannon

  Game janggi(rules("janggi"));
  ASSERT_TRUE(janggi.setStart("5k3/4a4/9/9/9/9/9/9/4A4/3K1r3 w - - 0 1").ok());
  ASSERT_TRUE(janggi.play("e2f1").ok());  // the guard takes the chariot
  EXPECT_TRUE(janggi.finished());
  EXPECT_EQ(janggi.drawReasonKind(), DrawReason::kInsufficient);
  EXPECT_EQ(janggi.decision(), Game::Decision::kNone);

  EXPECT_FALSE(position("sittuyin", "8/8/4k3/8/8/3K4/8/8[N] w - - 0 1").cannotMate(0));
  EXPECT_TRUE(position("sittuyin", "8/8/4k3/8/8/3K4/8/8[N] w - - 0 1").cannotMate(1));
  // Chess judges by its own minor-piece test; the general one gives no verdict there.
  EXPECT_TRUE(position("chess", "4k3/8/8/8/8/8/8/4K3 w - - 0 1").insufficientMaterial());
  EXPECT_FALSE(position("chess", "4k3/8/8/8/8/8/8/4K3 w - - 0 1").cannotMate(0));
}

// Shatranj and chaturanga draw after 70 moves without capture or pawn move; chess after 50.
TEST(MoveRule, SeventyMovesInShatranjFiftyInChess) {
  for (const auto& [variant, fen, moves] : std::vector<std::tuple<std::string, std::string, int>>{
           {"shatranj", "4k2r/8/8/8/8/8/R7/4K3 w - - 138 80", 70},
           {"chaturanga", "4k2r/8/8/8/8/8/R7/4K3 w - - 138 80", 70},
           {"chess", "4k2r/8/8/8/8/8/R7/4K3 w - - 98 80", 50}}) {
    Game g(rules(variant));
    ASSERT_TRUE(g.setStart(fen).ok());
    ASSERT_TRUE(g.play("a2b2").ok());
    EXPECT_FALSE(g.finished()) << variant;
    ASSERT_TRUE(g.play("h8h7").ok());
    EXPECT_TRUE(g.finished()) << variant;
    EXPECT_EQ(g.drawReasonKind(), DrawReason::kFiftyMoves) << variant << " " << moves;
  }
  Game g(rules("makruk"));  // counting instead: no n-move rule
  ASSERT_TRUE(g.setStart("4k2r/8/8/8/8/8/R7/4K3 w - - 200 80").ok());
  ASSERT_TRUE(g.play("a2b2").ok());
  EXPECT_FALSE(g.finished());
}

// Through `acedrex uci`: each game by its UCI_Variant name, a 960 castling
// in the moves, and `go movetime 200` answering a legal move.
TEST(SeaUci, EveryGameAnswersALegalMove) {
  const VariantRegistry reg = VariantRegistry::withEmbedded();
  for (const char* variant : {"chess", "fischerandom", "chaturanga", "shatranj", "makruk", "cambodian"}) {
    const std::string best = uciBestMove(variant, "startpos");
    Position pos = position(variant);
    EXPECT_TRUE(pos.parseMove(best).ok()) << variant << ": bestmove " << best;
  }
  std::vector<std::string> out;
  protocol::UciSession session(reg, [&](const std::string& l) { out.push_back(l); });
  session.handle("setoption name UCI_Variant value chess");
  session.handle("setoption name UCI_Chess960 value true");  // chess in Chess960's notation
  session.handle("position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1 moves e1h1 e7e6");
  session.handle("go depth 1");
  session.waitForSearch();
  bool answered = false;
  for (const auto& l : out) {
    answered |= l.rfind("bestmove ", 0) == 0 && l != "bestmove (none)";
    EXPECT_EQ(l.rfind("info string error", 0), std::string::npos) << l;
  }
  EXPECT_TRUE(answered);
}

}  // namespace
}  // namespace acedrex::test
