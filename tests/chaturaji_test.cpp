// Chaturaji as chess.com plays it: every rule of docs/rules/chaturaji.md on
// hand-built positions. Seats: red 0, blue 1, yellow 2, green 3 (turn order).
#include <map>
#include <set>

#include "core/records/pgn.h"
#include "engine/bot.h"
#include "test_util.h"

namespace acedrex::test {
namespace {

constexpr int Red = 0, Blue = 1, Yellow = 2, Green = 3;
const std::vector<std::string> kDice = {"dice=on"};

// A chess.com-style FEN4 of the 8x8 board from square -> "rK" cells.
std::string fen(char toMove, const std::map<std::string, std::string>& cells, const std::string& out = "0,0,0,0",
                const std::string& points = "0,0,0,0", int fifty = 0) {
  return fen4ChessCom(*rules("chaturaji"), toMove, cells, out, points, "0,0,0,0", "0,0,0,0", fifty);
}

// The four kings on their start squares and whatever else is given.
std::map<std::string, std::string> withKings(std::map<std::string, std::string> cells) {
  for (auto [sq, c] : std::map<std::string, std::string>{{"d1", "rK"}, {"a5", "bK"}, {"e8", "yK"}, {"h4", "gK"}})
    if (!cells.count(sq)) cells[sq] = c;
  return cells;
}

Game game(const std::string& text, const std::vector<std::string>& opts = {}, uint64_t seed = 1) {
  Game g(rules("chaturaji", opts), seed);
  auto s = g.setStart(text);
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().text());
  return g;
}

// The reason of the last elimination the last ply (or turn start) brought.
OutReason lastOut(const Game& g) {
  const PlyEvents& ev = g.position().lastEvents();
  EXPECT_GE(ev.nOuts, 1);
  return ev.nOuts ? ev.outs[ev.nOuts - 1].reason : OutReason::kResigned;
}

Piece pieceAt(const Game& g, const std::string& sq) { return g.position().at(*g.rules().parseSquare(sq)); }

TEST(Chaturaji, StartSetupRoundTripsAndPerft) {
  auto r = rules("chaturaji");
  Position p = position("chaturaji");
  EXPECT_EQ(p.text(), r->start);
  // Each army in its corner: boat, knight, bishop, king from the corner along its edge; pawns in front.
  const std::map<std::string, std::pair<int, char>> setup = {
      {"a1", {Red, 'R'}},    {"b1", {Red, 'N'}},    {"c1", {Red, 'B'}},    {"d1", {Red, 'K'}},    {"d2", {Red, 'P'}},
      {"a8", {Blue, 'R'}},   {"a7", {Blue, 'N'}},   {"a6", {Blue, 'B'}},   {"a5", {Blue, 'K'}},   {"b5", {Blue, 'P'}},
      {"h8", {Yellow, 'R'}}, {"g8", {Yellow, 'N'}}, {"f8", {Yellow, 'B'}}, {"e8", {Yellow, 'K'}}, {"e7", {Yellow, 'P'}},
      {"h1", {Green, 'R'}},  {"h2", {Green, 'N'}},  {"h3", {Green, 'B'}},  {"h4", {Green, 'K'}},  {"g4", {Green, 'P'}}};
  for (const auto& [sq, want] : setup) {
    const Piece q = p.at(*r->parseSquare(sq));
    ASSERT_TRUE(isPiece(q)) << sq;
    EXPECT_EQ(seatOf(q), want.first) << sq;
    EXPECT_EQ(r->types[typeOf(q)].letter, want.second) << sq;
  }
  EXPECT_EQ(perft(p, 1), 8u);
  EXPECT_EQ(perft(p, 2), 64u);
  EXPECT_EQ(perft(p, 3), 512u);
  EXPECT_EQ(perft(p, 4), 4096u);
  EXPECT_EQ(perft(p, 5), 43392u);
  // Red moves first, then clockwise: Blue, Yellow, Green; every pawn one step its own way.
  Game g(r, 1);
  EXPECT_TRUE(hasMove(p, "a2a3"));
  EXPECT_FALSE(hasMove(p, "a2a4"));  // no double step
  play(g, "a2a3");
  EXPECT_EQ(g.position().toMove(), Blue);
  play(g, "b8c8");
  EXPECT_EQ(g.position().toMove(), Yellow);
  play(g, "h7h6");
  EXPECT_EQ(g.position().toMove(), Green);
  play(g, "g1f1");
  EXPECT_EQ(g.position().toMove(), Red);
}

TEST(Chaturaji, TheBoatIsARookAndTheBishopSlides) {
  Position p = position("chaturaji", fen('R', withKings({{"c3", "rR"}})));
  EXPECT_EQ(movesFrom(p, "c3").size(), 14u);
  p = position("chaturaji", fen('R', withKings({{"c3", "rB"}})));
  // b2 a1, d2 e1, b4 a5 (Blue's king, taken), d4 .. h8.
  EXPECT_EQ(movesFrom(p, "c3").size(), 11u);
  EXPECT_TRUE(hasMove(p, "c3a5"));
}

TEST(Chaturaji, PawnsPromoteToABoatOnTheFarEdgeOnly) {
  Game g = game(fen('R', withKings({{"c7", "rP"}, {"g2", "bP"}})));
  Position p = g.position();
  EXPECT_EQ(movesFrom(p, "c7"), (std::vector<std::string>{"c7c8r"}));
  // The quiescence search sees the promotion (captures and promotions).
  MoveList caps;
  p.pseudoCaptures(caps);
  bool promotes = false;
  for (Move m : caps) promotes |= p.moveText(m) == "c7c8r";
  EXPECT_TRUE(promotes);
  play(g, "c7c8r g2h2r");
  EXPECT_EQ(g.rules().types[typeOf(pieceAt(g, "c8"))].letter, 'R');
  EXPECT_EQ(g.rules().types[typeOf(pieceAt(g, "h2"))].letter, 'R');
  EXPECT_EQ(seatOf(pieceAt(g, "h2")), Blue);
}

TEST(Chaturaji, NoCheckAKingMayStandAttackedAndIsTaken) {
  // Yellow's boat on e3 attacks e1 and e2; Red's king may go there anyway.
  Game g = game(fen('R', withKings({{"e3", "yR"}})));
  Position p = g.position();
  EXPECT_FALSE(p.inCheck(Red));
  EXPECT_TRUE(hasMove(p, "d1e1"));
  EXPECT_TRUE(hasMove(p, "d1e2"));
  play(g, "d1e2 a5a4 e3e2");  // Yellow takes the king: 3 points, Red is out
  const Position& q = g.position();
  EXPECT_FALSE(q.isIn(Red));
  EXPECT_EQ(points(g), (std::array<int, 4>{0, 0, 3, 0}));
  EXPECT_EQ(q.toMove(), Green);
  EXPECT_EQ(lastOut(g), OutReason::kKingCaptured);
}

TEST(Chaturaji, ACapturedKingsArmyStaysDeadAndIsWorthNothingButItsKing) {
  // Red takes Blue's king; Blue's boat and pawn stay, never move, block, and earn nothing.
  Game g = game(fen('R', withKings({{"a2", "rR"}, {"b7", "bR"}, {"c6", "bP"}, {"b2", "rR"}, {"c2", "rB"}})));
  play(g, "a2a5");
  EXPECT_FALSE(g.position().isIn(Blue));
  EXPECT_EQ(points(g)[Red], 3);
  EXPECT_NE(pieceAt(g, "b7"), kEmpty);
  EXPECT_EQ(g.position().toMove(), Yellow);  // Blue's turns are skipped
  play(g, "e8f8 h4h3");
  // The dead boat on b7 blocks Red's boat on b2: b8 is out of reach.
  Position p = g.position();
  EXPECT_TRUE(hasMove(p, "b2b7"));
  EXPECT_FALSE(hasMove(p, "b2b8"));
  play(g, "b2b7");
  EXPECT_EQ(points(g)[Red], 3);  // a dead boat: 0
  // A resigned seat's king stays on the board, dead, and is still worth 3.
  Game r = game(fen('R', withKings({{"a2", "rR"}})));
  r.resign(Red);
  ASSERT_FALSE(r.position().isIn(Red));
  EXPECT_NE(pieceAt(r, "d1"), kEmpty);
  play(r, "a5a4 e8e7 h4h3");
  EXPECT_EQ(r.position().toMove(), Blue);
  play(r, "a4a3 e7e6");
  play(r, "h3h2 a3a2 e6e5 h2h1");  // the dead boat on a2 taken by Blue's king: 0
  EXPECT_EQ(points(r)[Blue], 0);
  play(r, "a2b1 e5e4 h1g1 b1c1 e4e3 g1f1 c1d1");  // the dead king: 3
  EXPECT_EQ(points(r)[Blue], 3);
}

TEST(Chaturaji, CapturesScoreByPiece) {
  for (auto [piece, value] : std::map<std::string, int>{{"gP", 1}, {"gN", 3}, {"gB", 5}, {"gR", 5}}) {
    Game g = game(fen('R', withKings({{"c3", "rR"}, {"c6", piece}})));
    play(g, "c3c6");
    EXPECT_EQ(points(g)[Red], value) << piece;
  }
}

TEST(Chaturaji, ThreatsOnTwoKingsScoreOneAndOnThreeFive) {
  // The boat from d5 to e5 threatens Blue on a5 (from a new square) and Yellow on e8: +1.
  Game two = game(fen('R', withKings({{"d5", "rR"}})));
  play(two, "d5e5");
  EXPECT_EQ(points(two)[Red], 1);
  // With Green's king on e1 as well: three kings, +5.
  Game three = game(fen('R', withKings({{"d5", "rR"}, {"h4", ""}, {"e1", "gK"}, {"d1", ""}, {"c1", "rK"}})));
  play(three, "d5e5");
  EXPECT_EQ(points(three)[Red], 5);
  // A threat that stands before and after the move is not new: the knight on b3 already
  // threatens Blue's king, the boat only Yellow's: nothing.
  Game old = game(fen('R', withKings({{"b3", "rN"}, {"d6", "rR"}})));
  play(old, "d6e6");
  EXPECT_EQ(points(old)[Red], 0);
  // A threat the move uncovers counts for the mover even when it is another seat's:
  // the knight leaves e5 for g4 (threatening Green's king on h2) and uncovers
  // Blue's boat on e3 against Yellow's king on e8.
  Game disc = game(fen('R', withKings({{"e5", "rN"}, {"e3", "bR"}, {"h4", ""}, {"h2", "gK"}})));
  play(disc, "e5g4");
  EXPECT_EQ(points(disc)[Red], 1);
}

TEST(Chaturaji, ASeatWithNoMoveGoesOutWithoutPoints) {
  // Blue's king on a8 is walled in by its own boats and bishop; its pawns face
  // pieces they cannot take.
  Game g = game(fen('R', {{"a8", "bK"}, {"b8", "bR"}, {"c8", "bP"}, {"d8", "gN"}, {"h8", "yK"}, {"a7", "bR"},
                          {"b7", "bB"}, {"a6", "bP"}, {"b6", "rP"}, {"c6", "bP"}, {"d6", "rP"}, {"h4", "gK"}, {"e1", "rK"}}));
  play(g, "e1e2");
  EXPECT_FALSE(g.position().isIn(Blue));
  EXPECT_EQ(lastOut(g), OutReason::kStalemated);
  EXPECT_EQ(points(g), (std::array<int, 4>{0, 0, 0, 0}));
  EXPECT_EQ(g.position().toMove(), Yellow);
  EXPECT_NE(pieceAt(g, "a8"), kEmpty);  // dead, on the board
}

TEST(Chaturaji, TheLastSeatInEndsTheGameAndTakesThreeForEveryStandingKing) {
  // Blue resigned earlier (its king stands on a5), Yellow's king was taken; Red takes
  // Green's king: 3, and 3 for Blue's standing king. Blue's 10 points still win.
  Game g = game(fen('R', withKings({{"e8", ""}, {"h7", "rR"}}), "0,1,1,0", "0,10,4,0"));
  play(g, "h7h4");
  ASSERT_TRUE(g.finished());
  EXPECT_EQ(points(g), (std::array<int, 4>{6, 10, 4, 0}));
  const auto pl = g.position().places();
  EXPECT_EQ(pl[Blue], 1);
  EXPECT_EQ(pl[Red], 2);
  EXPECT_EQ(pl[Yellow], 3);
  EXPECT_EQ(pl[Green], 4);
}

TEST(Chaturaji, ResigningLeavesTheKingForTheLastSeat) {
  Game g = game(fen('R', withKings({}), "0,0,1,1", "2,1,0,0"));
  g.resign(Blue);
  ASSERT_TRUE(g.finished());
  // Red is the last seat: 3 for each king still on the board (Blue's, Yellow's, Green's).
  EXPECT_EQ(points(g), (std::array<int, 4>{11, 1, 0, 0}));
  EXPECT_EQ(g.position().places()[Red], 1);
}

TEST(Chaturaji, FiftyRoundsWithoutCaptureOrPawnMoveDrawWithTwoEach) {
  Game g = game(fen('R', withKings({{"b1", "rN"}}), "0,0,0,0", "0,0,0,0", 199));
  play(g, "b1c3");
  ASSERT_TRUE(g.finished());
  EXPECT_EQ(points(g), (std::array<int, 4>{2, 2, 2, 2}));
}

TEST(Chaturaji, PositionTextsRoundTripWithDeadArmiesAndPoints) {
  const std::string t = fen('G', withKings({{"c3", "rR"}, {"b7", "bR"}}), "0,1,0,0", "7,3,0,12", 5);
  Position p = position("chaturaji", t);
  EXPECT_EQ(p.text(), t);
  EXPECT_FALSE(p.isIn(Blue));
  EXPECT_EQ(p.points(Green), 12);
}

TEST(Chaturaji, RecordsRoundTrip) {
  for (const auto& opts : {std::vector<std::string>{}, kDice}) {
    Game g(rules("chaturaji", opts), 5);
    for (int ply = 0; ply < 12; ++ply) ASSERT_TRUE(g.play(g.legalMoves().front()).ok());
    const std::string pgn = writePgn(g);
    EXPECT_NE(pgn.find("[Variant \"Chaturaji\"]"), std::string::npos) << pgn;
    auto games = readPgn(pgn);
    ASSERT_TRUE(games.ok()) << games.error().text();
    auto back = replayPgn(games.value().at(0), VariantRegistry::withEmbedded());
    ASSERT_TRUE(back.ok()) << back.error().text() << pgn;
    EXPECT_EQ((*back)->position().text(), g.position().text());
  }
}

TEST(Chaturaji, TheDiceChooseTheKindThatMoves) {
  auto r = rules("chaturaji", kDice);
  std::set<int> seen;
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    Game g(r, seed);
    const int t = g.currentThrow();
    seen.insert(t);
    std::set<std::string> texts;
    for (Move m : g.legalMoves()) texts.insert(m.isNull() ? "0000" : g.position().moveText(m));
    switch (t) {
      case 2:  // the boat, walled in at the start: the turn is lost
      case 4:  // the bishop, likewise
        EXPECT_EQ(texts, (std::set<std::string>{"0000"}));
        break;
      case 3:
        EXPECT_EQ(texts, (std::set<std::string>{"b1a3", "b1c3"}));
        break;
      case 5: {  // the king or a pawn, and a wrong piece's move is refused naming both
        EXPECT_EQ(texts, (std::set<std::string>{"a2a3", "b2b3", "c2c3", "d2d3", "d1e1", "d1e2"}));
        EXPECT_EQ(g.currentThrowKinds(), "king or pawn");
        const auto wrong = g.play("b1c3");
        ASSERT_FALSE(wrong.ok());
        EXPECT_NE(wrong.error().text().find("the die shows 5 (king or pawn): move a king or pawn"), std::string::npos)
            << wrong.error().text();
        break;
      }
      default:
        ADD_FAILURE() << "a throw of " << t;
    }
    if (t == 2) {
      EXPECT_FALSE(g.play("b1c3").ok());
      ASSERT_TRUE(g.play("0000").ok());
      EXPECT_EQ(g.position().toMove(), Blue);
    }
  }
  EXPECT_EQ(seen, (std::set<int>{2, 3, 4, 5}));
  // Without the option there is no die.
  Game plain(rules("chaturaji"), 1);
  EXPECT_EQ(plain.currentThrow(), 0);
}

// (Every embedded game's bots at levels 1, 5 and 9, dice included: engine_test.cpp.)
TEST(Chaturaji, TheBotPrefersLivePiecesAndAnswersUci) {
  // The bot takes the live boat (5) rather than the dead one (0).
  auto botMove = [](const std::string& text) {
    auto r = rules("chaturaji");
    Game g(r, 1);
    EXPECT_TRUE(g.setStart(text).ok());
    auto bot = engine::makeBot(r, 9, 1);
    engine::SearchLimits limits;
    limits.depth = 1;
    std::atomic<bool> stop{false};
    const auto res = bot->choose(g, limits, stop);
    return res.found ? g.position().moveText(res.best) : std::string();
  };
  EXPECT_EQ(botMove(fen('R', withKings({{"c3", "rR"}, {"c7", "bR"}, {"f3", "gR"}}), "0,1,0,0")), "c3f3");
  // UCI: a legal move in the given time.
  const std::string best = uciBestMove("chaturaji", "startpos");
  Position start = position("chaturaji");
  EXPECT_TRUE(hasMove(start, best)) << best;
}

}  // namespace
}  // namespace acedrex::test
