// Four-player chess (chess.com's 4PC): every rule of
// docs/rules/four-player-chess.md on hand-built positions.
// Seats: red 0, blue 1, yellow 2, green 3 (turn order).
#include <functional>
#include <map>
#include <set>

#include "core/records/pgn.h"
#include "engine/bot.h"
#include "engine/eval.h"
#include "engine/search.h"
#include "test_util.h"

namespace acedrex::test {
namespace {

constexpr int Red = 0, Blue = 1, Yellow = 2, Green = 3;
const std::vector<std::string> kTeams = {"mode=teams"};

// A chess.com FEN4 from square -> "rK" cells; corners written as runs of empty squares.
std::string fen4cc(char toMove, const std::map<std::string, std::string>& cells, const std::string& out = "0,0,0,0",
                   const std::string& points = "0,0,0,0", const std::string& ks = "0,0,0,0",
                   const std::string& qs = "0,0,0,0", int fifty = 0) {
  return fen4ChessCom(*rules("four-player-chess"), toMove, cells, out, points, ks, qs, fifty);
}

// The four kings on their start squares and whatever else is given.
std::map<std::string, std::string> withKings(std::map<std::string, std::string> cells) {
  for (auto [sq, c] : std::map<std::string, std::string>{{"h1", "rK"}, {"a7", "bK"}, {"g14", "yK"}, {"n8", "gK"}})
    if (!cells.count(sq)) cells[sq] = c;
  return cells;
}

Game game(const std::string& fen, const std::vector<std::string>& opts = {}) {
  Game g(rules("four-player-chess", opts), 1);
  auto s = g.setStart(fen);
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().text());
  return g;
}

TEST(FourPlayerChess, StartRoundTripsAndPerft) {
  for (const auto& opts : {std::vector<std::string>{}, kTeams}) {
    auto r = rules("four-player-chess", opts);
    Position p = position("four-player-chess", "", opts);
    EXPECT_EQ(p.text(), r->start);
    EXPECT_EQ(perft(p, 1), 20u);
    EXPECT_EQ(perft(p, 2), 395u);
    EXPECT_EQ(perft(p, 3), 7800u);
  }
}

TEST(FourPlayerChess, ReadsCornersAsXAndTheExtraField) {
  const std::string start = rules("four-player-chess")->start;
  std::string withX = start;
  // 4pchess writes the corners as x; chess.com adds a {...} field in some exports.
  for (size_t at; (at = withX.find("-3,y")) != std::string::npos || (at = withX.find("/3,")) != std::string::npos;)
    withX.replace(at + 1, 1, "x,x,x");
  for (size_t at; (at = withX.find(",3/")) != std::string::npos;) withX.replace(at + 1, 1, "x,x,x");
  withX.replace(withX.size() - 1, 1, "x,x,x");
  Position p = position("four-player-chess", withX);
  EXPECT_EQ(p.text(), start);
  const std::string extra = start.substr(0, 36) + "{'enPassant':('','','','')}-" + start.substr(36);
  Position q = position("four-player-chess", extra);
  EXPECT_EQ(q.text(), start);
  Position bad(rules("four-player-chess"));
  EXPECT_FALSE(bad.set(fen4cc('R', withKings({{"a1", "rQ"}}))).ok());  // a piece on a cut corner
}

TEST(FourPlayerChess, CastlesInEverySeatsFrame) {
  const std::string fen = fen4cc('R',
                                 {{"d1", "rR"}, {"h1", "rK"}, {"k1", "rR"}, {"a4", "bR"}, {"a7", "bK"}, {"a11", "bR"},
                                  {"d14", "yR"}, {"g14", "yK"}, {"k14", "yR"}, {"n4", "gR"}, {"n8", "gK"}, {"n11", "gR"}, {"g2", "rP"}, {"b8", "bP"}},
                                 "0,0,0,0", "0,0,0,0", "1,1,1,1", "1,1,1,1");
  Game g = game(fen);
  play(g, "h1j1 a7a5 g14e14 n8n10");
  const std::string after = g.position().text();
  EXPECT_NE(after.find("-0,0,0,0-0,0,0,0-"), std::string::npos) << after;
  auto at = [&](const std::string& s) { return g.position().at(*g.rules().parseSquare(s)); };
  EXPECT_EQ(typeOf(at("i1")), g.rules().typeByLetter('R'));
  EXPECT_EQ(typeOf(at("a6")), g.rules().typeByLetter('R'));
  EXPECT_EQ(typeOf(at("f14")), g.rules().typeByLetter('R'));
  EXPECT_EQ(typeOf(at("n9")), g.rules().typeByLetter('R'));
  Game q = game(fen);
  play(q, "h1f1 a7a9 g14i14 n8n6");
  EXPECT_EQ(typeOf(q.position().at(*q.rules().parseSquare("g1"))), q.rules().typeByLetter('R'));
  EXPECT_EQ(typeOf(q.position().at(*q.rules().parseSquare("n7"))), q.rules().typeByLetter('R'));
  // Not through an attacked square: a blue rook on i-file... here a green rook on rank... a yellow rook on i.
  Game blocked = game(fen4cc('R', {{"h1", "rK"}, {"k1", "rR"}, {"a7", "bK"}, {"g14", "yK"}, {"i13", "yR"}, {"n8", "gK"}},
                             "0,0,0,0", "0,0,0,0", "1,0,0,0", "0,0,0,0"));
  Position& bp = blocked.positionForSearch();
  EXPECT_FALSE(hasMove(bp, "h1j1"));
}

TEST(FourPlayerChess, EnPassantForEachOpponentOnItsNextTurn) {
  // Green's m5 pawn double-steps to k5 in front of Red's k4 pawn; Red may take it on l5.
  const auto cells = withKings({{"k4", "rP"}, {"m5", "gP"}, {"e12", "yP"}, {"d2", "rP"}, {"b5", "bP"}, {"m11", "gP"}});
  Game g = game(fen4cc('G', cells));
  play(g, "m5k5");
  EXPECT_TRUE(hasMove(g.positionForSearch(), "k4l5"));
  play(g, "k4l5");
  EXPECT_EQ(g.position().at(*g.rules().parseSquare("k5")), kEmpty);
  // A right that is not used goes when the turn passes.
  Game h = game(fen4cc('G', cells));
  play(h, "m5k5 d2d3");
  play(h, "b5c5 g14g13 m11l11");  // blue, yellow, green move on
  EXPECT_FALSE(hasMove(h.positionForSearch(), "k4l5"));
  // Yellow's pawn on k12 may take Green's m11-k11 double step on l11 (its next turn).
  Game y = game(fen4cc('G', withKings({{"k12", "yP"}, {"m11", "gP"}, {"d2", "rP"}, {"b5", "bP"}})));
  play(y, "m11k11 d2d3 b5c5");
  EXPECT_TRUE(hasMove(y.positionForSearch(), "k12l11"));
  play(y, "k12l11");
  EXPECT_EQ(y.position().at(*y.rules().parseSquare("k11")), kEmpty);
}

TEST(FourPlayerChess, EnPassantAlsoByThePawnBehindTheSquareTheDoubleStepLeft) {
  // Yellow's j13 pawn double-steps to j11 past j12. Green's pawn on k13
  // (behind j13 for Green, who moves toward the a-file) attacks j12 and may
  // take en passant there, as may its pawn on k11 (behind the landing square).
  for (const char* from : {"k13", "k11"}) {
    SCOPED_TRACE(from);
    Game g = game(fen4cc('Y', withKings({{"j13", "yP"}, {from, "gP"}})), kTeams);
    play(g, "j13j11");
    const std::string take = std::string(from) + "j12";
    EXPECT_TRUE(hasMove(g.positionForSearch(), take));
    play(g, take);
    EXPECT_EQ(g.position().at(*g.rules().parseSquare("j11")), kEmpty);
    EXPECT_EQ(seatOf(g.position().at(*g.rules().parseSquare("j12"))), Green);
  }
}

TEST(FourPlayerChess, FreeForAllPromotesOnTheEighthRankToTheOnePointQueen) {
  Game g = game(fen4cc('R', withKings({{"e7", "rP"}, {"b9", "bP"}, {"g13", "yP"}, {"m9", "gP"}})));
  EXPECT_EQ(movesFrom(g.positionForSearch(), "e7"), (std::vector<std::string>{"e7e8d"}));
  play(g, "e7e8d");
  EXPECT_EQ(typeOf(g.position().at(*g.rules().parseSquare("e8"))), g.rules().typeByLetter('D'));
  // Blue's pawn: its 8th rank is the i-file.
  play(g, "b9c9");
  Game b = game(fen4cc('B', withKings({{"g9", "bP"}})));
  EXPECT_EQ(movesFrom(b.positionForSearch(), "g9"), (std::vector<std::string>{"g9h9d"}));
  // Capturing a 1-point queen earns 1.
  Game c = game(fen4cc('B', withKings({{"e8", "rD"}, {"f9", "bB"}})));
  play(c, "f9e8");
  EXPECT_EQ(points(c)[Blue], 1);
}

TEST(FourPlayerChess, TeamsPromoteOnTheEleventhRank) {
  Game g = game(fen4cc('R', withKings({{"e7", "rP"}, {"e10", "rP"}})), kTeams);
  EXPECT_EQ(movesFrom(g.positionForSearch(), "e7"), (std::vector<std::string>{"e7e8"}));
  EXPECT_EQ(movesFrom(g.positionForSearch(), "e10"),
            (std::vector<std::string>{"e10e11b", "e10e11n", "e10e11q", "e10e11r"}));
}

TEST(FourPlayerChess, TeamsNeverCaptureThePartnerNorFearItsAttacks) {
  // Red's queen can take Blue's knight but not Yellow's; Yellow's rook on the
  // i-file does not stop Red's king from stepping onto it.
  Game g = game(fen4cc('R', withKings({{"e5", "rQ"}, {"e9", "yN"}, {"g5", "bN"}, {"i13", "yR"}})), kTeams);
  Position& p = g.positionForSearch();
  EXPECT_TRUE(hasMove(p, "e5g5"));
  EXPECT_FALSE(hasMove(p, "e5e9"));
  EXPECT_TRUE(hasMove(p, "h1i1"));
  // In free-for-all all three are fair game, and the rook's file is not.
  Game f = game(fen4cc('R', withKings({{"e5", "rQ"}, {"e9", "yN"}, {"g5", "bN"}, {"i13", "yR"}})));
  EXPECT_TRUE(hasMove(f.positionForSearch(), "e5e9"));
  EXPECT_FALSE(hasMove(f.positionForSearch(), "h1i1"));
}

TEST(FourPlayerChess, ASeatInCheckMayTakeAKing) {
  // Red, checked by Blue's queen on f1, may take Blue's king on b7 with its
  // bishop instead of answering the check: Blue goes out with it, and so does
  // the check (chess.com's rule since its update; 4pchess keeps the older one).
  for (const auto& opts : {std::vector<std::string>{}, kTeams}) {
    Game g = game(fen4cc('R', {{"h1", "rK"}, {"f1", "bQ"}, {"b7", "bK"}, {"g12", "rB"}, {"g14", "yK"}, {"n8", "gK"}}),
                  opts);
    EXPECT_EQ(legalTexts(g.positionForSearch()), (std::vector<std::string>{"g12b7", "h1h2", "h1i2"}));
    play(g, "g12b7");
    EXPECT_FALSE(g.position().isIn(Blue));
  }
  // Checked by Green instead: in teams the capture ends the game and is legal
  // (king-capture-in-check); in free-for-all the game goes on, Green's check
  // stays, and it is not.
  const std::map<std::string, std::string> byGreen = {{"h1", "rK"}, {"f1", "gQ"}, {"b7", "bK"},
                                                       {"g12", "rB"}, {"g14", "yK"}, {"n8", "gK"}};
  Game teams = game(fen4cc('R', byGreen), kTeams);
  EXPECT_EQ(legalTexts(teams.positionForSearch()), (std::vector<std::string>{"g12b7", "h1h2", "h1i2"}));
  play(teams, "g12b7");
  EXPECT_TRUE(teams.finished());
  EXPECT_EQ(teams.position().places()[Red], 1);
  Game ffa = game(fen4cc('R', byGreen));
  EXPECT_EQ(legalTexts(ffa.positionForSearch()), (std::vector<std::string>{"h1h2", "h1i2"}));
}

// Red's rook mates Blue's king in its corner: a4 with the queen on c5 guarding a5, b4, b5.
std::map<std::string, std::string> blueMate() {
  return {{"h1", "rK"}, {"c5", "rQ"}, {"j10", "rR"}, {"a4", "bK"}, {"b9", "bP"}, {"g14", "yK"}, {"n8", "gK"}, {"m9", "gP"}, {"f13", "yP"}};
}

TEST(FourPlayerChess, MateScoresTwentyAndLeavesADeadArmy) {
  Game g = game(fen4cc('R', blueMate()));
  play(g, "j10a10");
  const Position& p = g.position();
  EXPECT_FALSE(p.isIn(Blue));
  EXPECT_EQ(points(g), (std::array<int, 4>{20, 0, 0, 0}));
  EXPECT_EQ(p.toMove(), Yellow);
  // The dead king and pawn stay; the text marks Blue out.
  EXPECT_NE(p.text().find("-0,1,0,0-"), std::string::npos) << p.text();
  EXPECT_NE(p.at(*p.rules().parseSquare("a4")), kEmpty);
  EXPECT_NE(p.at(*p.rules().parseSquare("b9")), kEmpty);
  // The text reads back with the dead pieces.
  Position back(rules("four-player-chess"));
  ASSERT_TRUE(back.set(p.text()).ok());
  EXPECT_EQ(back.text(), p.text());
  // Dead pieces give no check and earn nothing: Red's king may stand beside the dead pawn's
  // capture square, and capturing the dead king and pawn scores 0.
  play(g, "f13f12 m9l9 a10a4");
  EXPECT_EQ(points(g)[Red], 20);
  EXPECT_EQ(g.position().at(*g.rules().parseSquare("a4")), makePiece(g.rules().typeByLetter('R'), kNorth, Red));
}

TEST(FourPlayerChess, CapturesScoreByPieceAndChecksOfSeveralKings) {
  // Capture values.
  for (auto [piece, value] : std::map<std::string, int>{{"gP", 1}, {"gN", 3}, {"gB", 5}, {"gR", 5}, {"gQ", 9}}) {
    Game g = game(fen4cc('R', withKings({{"e5", "rR"}, {"e9", piece}})));
    play(g, "e5e9");
    EXPECT_EQ(points(g)[Red], value) << piece;
  }
  // A queen from g6 to h7 checks Blue (a7), Green (n7) and Yellow (h14): +5.
  const std::map<std::string, std::string> three = {{"e1", "rK"}, {"g6", "rQ"}, {"a7", "bK"}, {"n7", "gK"}, {"h14", "yK"}};
  Game q = game(fen4cc('R', three));
  play(q, "g6h7");
  EXPECT_EQ(points(q)[Red], 5);
  // A knight's move that checks one king and uncovers two rooks' checks on two more: +20.
  Game d = game(fen4cc('R', {{"e1", "rK"}, {"h3", "rR"}, {"h7", "rN"}, {"c7", "rR"}, {"k10", "bK"}, {"n7", "gK"}, {"h14", "yK"}}));
  play(d, "h7i9");
  EXPECT_EQ(points(d)[Red], 20);
  // Two kings: +5 with a rook, +1 with a queen.
  std::map<std::string, std::string> two = {{"e1", "rK"}, {"h5", "rR"}, {"a7", "bK"}, {"n7", "gK"}, {"g14", "yK"}};
  Game t = game(fen4cc('R', two));
  play(t, "h5h7");
  EXPECT_EQ(points(t)[Red], 5);
  two["h5"] = "rQ";
  Game tq = game(fen4cc('R', two));
  play(tq, "h5h7");
  EXPECT_EQ(points(tq)[Red], 1);
}

TEST(FourPlayerChess, KingCaptureScoresTwenty) {
  // Red's move uncovers Yellow's rook on Blue's king; Yellow takes it before Blue moves.
  Game g = game(fen4cc('R', withKings({{"n11", "yR"}, {"n10", "rN"}, {"b5", "bP"}})));
  play(g, "n10l9 b5c5 n11n8");
  EXPECT_FALSE(g.position().isIn(Green));
  EXPECT_EQ(points(g)[Yellow], 20);
}

TEST(FourPlayerChess, StalematedSeatScoresTwentyAndGoesOut) {
  // Blue's king on a4 with no move and no check: the rooks on b10 and (after the move) on rank 5.
  Game g = game(fen4cc('R', withKings({{"a4", "bK"}, {"a7", ""}, {"b10", "rR"}, {"j6", "rR"}})));
  play(g, "j6j5");
  EXPECT_FALSE(g.position().isIn(Blue));
  EXPECT_EQ(points(g)[Blue], 20);
  EXPECT_NE(g.position().at(*g.rules().parseSquare("a4")), kEmpty);
}

TEST(FourPlayerChess, DrawGivesTenToEachSeatStillIn) {
  Game g = game(fen4cc('R', withKings({{"e5", "rN"}, {"e9", "bN"}, {"j9", "yN"}, {"j5", "gN"}})));
  for (int i = 0; i < 2; ++i) play(g, "e5f7 e9f11 j9i11 j5i7 f7e5 f11e9 i11j9 i7j5");
  ASSERT_TRUE(g.finished());
  EXPECT_EQ(points(g), (std::array<int, 4>{10, 10, 10, 10}));
}

TEST(FourPlayerChess, ResignationLeavesADeadArmyAndTheLastKingsPointsGoToTheWinner) {
  Game g = game(fen4cc('R', withKings({{"e5", "rN"}}), "0,0,1,1", "30,3,0,0"));
  g.resign(Blue);
  ASSERT_TRUE(g.finished());
  EXPECT_EQ(points(g), (std::array<int, 4>{50, 3, 0, 0}));
  EXPECT_NE(g.position().at(*g.rules().parseSquare("a7")), kEmpty);
  const auto places = g.position().places();
  EXPECT_EQ(places[Red], 1);
  EXPECT_EQ(places[Blue], 2);
  EXPECT_EQ(places[Yellow], 3);
  EXPECT_EQ(places[Green], 3);
}

TEST(FourPlayerChess, PlacesFollowThePoints) {
  // Red mates Blue with 20; Yellow and Green then resign: the points decide.
  Game g = game(fen4cc('R', blueMate(), "0,0,0,0", "0,0,25,0"));
  play(g, "j10a10");
  g.resign(Yellow);
  g.resign(Green);
  ASSERT_TRUE(g.finished());
  const auto pl = g.position().places();
  EXPECT_EQ(pl[Red], 1);  // 20 + 20 for the last resigned king
  EXPECT_EQ(pl[Yellow], 2);
}

TEST(FourPlayerChess, TeamsFirstMateWinsForBothPartners) {
  Game g = game(fen4cc('R', blueMate()), kTeams);
  play(g, "j10a10");
  ASSERT_TRUE(g.finished());
  const auto pl = g.position().places();
  EXPECT_EQ(pl[Red], 1);
  EXPECT_EQ(pl[Yellow], 1);
  EXPECT_EQ(pl[Blue], 3);
  EXPECT_EQ(pl[Green], 3);
}

TEST(FourPlayerChess, TeamsStalemateDraws) {
  Game g = game(fen4cc('R', withKings({{"a4", "bK"}, {"a7", ""}, {"b10", "rR"}, {"j6", "rR"}})), kTeams);
  play(g, "j6j5");
  ASSERT_TRUE(g.finished());
  EXPECT_EQ(g.position().result(), ResultKind::kDraw);
}

TEST(FourPlayerChess, ReadsChessComPgn4) {
  const std::string text =
      "[GameNr \"1\"]\n[Variant \"Teams\"]\n[RuleVariants \"EnPassant\"]\n[StartFen4 \"4PC\"]\n\n"
      "1. h2-h4 .. b7-d7 .. g13-g11 .. m8-k8 2. Nj1-i3 .. Na5-c6 .. Ne14-f12 .. Nn10-l11 *\n";
  auto games = readPgn(text);
  ASSERT_TRUE(games.ok()) << games.error().text();
  auto g = replayPgn(games.value().at(0), VariantRegistry::withEmbedded());
  ASSERT_TRUE(g.ok()) << g.error().text();
  EXPECT_TRUE((*g)->rules().teams);
  Game same(rules("four-player-chess", kTeams));
  play(same, "h2h4 b7d7 g13g11 m8k8 j1i3 a5c6 e14f12 n10l11");
  EXPECT_EQ((*g)->position().text(), same.position().text());
}

TEST(FourPlayerChess, WritesPgn4AsChessComDoesAndReadsItBack) {
  Game g = game(fen4cc('R', {{"d1", "rR"}, {"h1", "rK"}, {"k1", "rR"}, {"h9", "rQ"}, {"e7", "rP"}, {"a7", "bK"}, {"e9", "bN"},
                             {"g14", "yK"}, {"f13", "yP"}, {"n8", "gK"}, {"m9", "gP"}},
                            "0,0,0,0", "0,0,0,0", "1,0,0,0", "1,0,0,0"));
  play(g, "h1j1 a7a6 f13f12 m9l9 h9e9 a6a7 f12f11 l9k9 e7e8d");
  const std::string pgn = writePgn(g);
  EXPECT_NE(pgn.find("[Variant \"FFA\"]"), std::string::npos) << pgn;
  EXPECT_NE(pgn.find("[RuleVariants \"EnPassant PromoteTo=D\"]"), std::string::npos) << pgn;
  EXPECT_NE(pgn.find("1. O-O .. Ka7-a6 .. f13-f12 .. m9-l9"), std::string::npos) << pgn;
  EXPECT_NE(pgn.find("Qh9xNe9"), std::string::npos) << pgn;
  EXPECT_NE(pgn.find("e7-e8=D"), std::string::npos) << pgn;
  // A mate is marked #.
  Game m = game(fen4cc('R', blueMate()));
  play(m, "j10a10");
  EXPECT_NE(writePgn(m).find("1. Rj10-a10#"), std::string::npos) << writePgn(m);
  auto games = readPgn(pgn);
  ASSERT_TRUE(games.ok()) << games.error().text();
  auto back = replayPgn(games.value().at(0), VariantRegistry::withEmbedded());
  ASSERT_TRUE(back.ok()) << back.error().text();
  EXPECT_EQ((*back)->position().text(), g.position().text());
}

// The bots: the mate in one is found in both modes (worth 20 points in
// free-for-all, the game in teams), and in free-for-all a live piece is
// worth taking where a dead one of the same kind is not.
engine::SearchResult botSearch(const std::string& fen, const std::vector<std::string>& opts, int depth) {
  auto r = rules("four-player-chess", opts);
  Game g(r, 1);
  EXPECT_TRUE(g.setStart(fen).ok());
  auto bot = engine::makeBot(r, 9, 1);
  engine::SearchLimits limits;
  limits.depth = depth;
  std::atomic<bool> stop{false};
  return bot->choose(g, limits, stop);
}

std::string botMove(const std::string& fen, const std::vector<std::string>& opts, int depth) {
  const auto res = botSearch(fen, opts, depth);
  Game g(rules("four-player-chess", opts), 1);
  EXPECT_TRUE(g.setStart(fen).ok());
  return res.found ? g.position().moveText(res.best) : "";
}

TEST(FourPlayerChess, BotsMateInBothModesAndPreferLivePieces) {
  // Both rook checks, on the a-file and on rank 4, mate.
  const std::set<std::string> mates = {"j10a10", "j10j4"};
  EXPECT_TRUE(mates.count(botMove(fen4cc('R', blueMate()), {}, 2)));
  EXPECT_TRUE(mates.count(botMove(fen4cc('R', blueMate()), kTeams, 2)));
  // Blue is out: its dead rook on e9 earns nothing, Green's live one on i5 earns 5.
  const auto cells = withKings({{"e5", "rR"}, {"e9", "bR"}, {"i5", "gR"}, {"b9", "bP"}, {"f13", "yP"}, {"m9", "gP"}});
  EXPECT_EQ(botMove(fen4cc('R', cells, "0,1,0,0"), {}, 1), "e5i5");
}

// Teams play as two sides: the two-seat search, partners as one side.
TEST(FourPlayerChess, TeamsAreSearchedAsTwoSides) {
  EXPECT_TRUE(engine::playsAsTwoSides(*rules("four-player-chess", kTeams)));
  EXPECT_FALSE(engine::playsAsTwoSides(*rules("four-player-chess")));
  EXPECT_FALSE(engine::playsAsTwoSides(*rules("chaturaji")));
  EXPECT_FALSE(engine::playsAsTwoSides(*rules("three-player-chess")));
  EXPECT_TRUE(engine::playsAsTwoSides(*rules("chess")));
}

// Red's score (teams) by an evaluation with only the king term `term` on,
// at 100, with Red's four queens on d5 to g5 (they keep its phase full)
// added to `cells`.
// A teams evaluator with material and one term only, set to `value`.
std::shared_ptr<engine::Evaluator> evaluatorWithOnly(const std::string& term, int value) {
  auto params = engine::parseEvalParams(
      "piece K 0 0\npiece Q 900 0\npiece D 900 0\npiece R 500 0\npiece B 300 0\npiece N 300 0\npiece P 100 0\n"
      "pawn-advance 0\nking-center-opening 0\nking-center-ending 0\nking-shelter 0\nking-danger 0\nking-zone 0\n"
      "pawn-threat 0\nhanging 0\npassed-pawn 0\ntempo 0\n" +
      term + " " + std::to_string(value) + "\n");
  EXPECT_TRUE(params.ok()) << params.error().text();
  return std::make_shared<engine::Evaluator>(rules("four-player-chess", kTeams), params.value());
}

std::function<int(std::map<std::string, std::string>)> redWithOnly(const std::string& term) {
  auto ev = evaluatorWithOnly(term, 100);
  return [ev](std::map<std::string, std::string> cells) {
    for (const char* q : {"d5", "e5", "f5", "g5"}) cells[q] = "rQ";
    Game g = game(fen4cc('R', withKings(cells)), kTeams);
    return ev->seatScore(g.position(), Red);
  };
}

TEST(FourPlayerChess, KingCrossfireCountsTwoEnemySeatsAtOneKing) {
  // Blue's rook on d2 attacks g2 next to Red's king, Green's bishop on k5 attacks h2.
  const auto red = redWithOnly("king-crossfire");
  const int none = red({});
  EXPECT_EQ(red({{"d2", "bR"}}), none);                 // one seat
  EXPECT_EQ(red({{"d2", "bR"}, {"k5", "gB"}}), none - 100);  // two seats
  EXPECT_EQ(red({{"d2", "bR"}, {"k5", "bB"}}), none);   // two pieces of one seat
}

TEST(FourPlayerChess, KingSwarmGrowsFasterThanTheAttackersAtTheKing) {
  // Red's queens defend g1 and g2 (g5), g2 (d5), h2 (e5) and i2 (f5); per
  // square at Red's king the table gives attackers 20, 80, 144... less half
  // the defenders' (its king left out).
  const auto red = redWithOnly("king-swarm");
  const int none = red({});
  // Blue's rook on d2 attacks g2 (two defenders: 20 - 40, nothing), h2 and i2 (one each: 20 - 10).
  EXPECT_EQ(red({{"d2", "bR"}}), none - 20);
  // Green's bishop on k5 adds h2 (two attackers, one defender: 80 - 10) and g1 (20 - 10).
  EXPECT_EQ(red({{"d2", "bR"}, {"k5", "gB"}}), none - 90);
  // Yellow's rook on i14 (a partner's) defends i2, i1 and nothing else near: the i2 term goes.
  EXPECT_EQ(red({{"d2", "bR"}, {"k5", "gB"}, {"i14", "yR"}}), none - 80);
  // Blue's rook on h5 checks Red: h2 (defended by e5) and the king's own square
  // (by d5; the king does not defend its own square) each cost 20 - 10.
  EXPECT_EQ(red({{"h5", "bR"}}), none - 20);
}

TEST(FourPlayerChess, KingOpenRayCountsTheLinesAheadOfTheKingWithoutAnOwnPiece) {
  // Red's king on h1 looks up g2-f3, h2-h3 and i2-j3; all three are open.
  const auto red = redWithOnly("king-open-ray");
  const int none = red({});
  EXPECT_EQ(red({{"g2", "rP"}}), none + 100 + 100);  // a pawn (100) closes one line
  EXPECT_EQ(red({{"g2", "rP"}, {"h3", "rN"}}), none + 400 + 100 + 100);
  EXPECT_EQ(red({{"j3", "rP"}}), none + 100 + 100);    // two squares out closes it too
  EXPECT_EQ(red({{"i2", "bP"}, {"g2", "yP"}}), none);  // an enemy's or a partner's does not
}

TEST(FourPlayerChess, LeaperKingCountsAKnightTwoLeapsFromAnEnemyKing) {
  // Blue's king is on a7 and Green's on n8 (enemies), Yellow's on g14 (the partner).
  const auto red = redWithOnly("leaper-king");
  const int far = red({{"c4", "rN"}});
  EXPECT_EQ(red({{"c7", "rN"}}), far + 100);  // c7-b5, then b5 attacks a7
  EXPECT_EQ(red({{"g10", "rN"}}), far);       // two leaps from Yellow's king only
  EXPECT_EQ(red({{"c4", "rB"}}), far);        // a bishop is no leaper (both worth 300)
}

TEST(FourPlayerChess, ActivationCountsPiecesOffTheirFirstRankWithRoomToMove) {
  const auto red = redWithOnly("activation");
  const int queens = red({});                    // the four queens on the fifth rank are out: 400
  EXPECT_EQ(red({{"j1", "rN"}}), queens + 300);  // on its first rank
  EXPECT_EQ(red({{"a4", "rN"}}), queens + 300);  // out, with two squares to go to (b6, c5)
  // On d4 it may go to b5, c6, e2, e6 and f3 (f5 holds a queen): out.
  EXPECT_EQ(red({{"d4", "rN"}}), queens + 300 + 100);
  // Blue's pawns (taking toward the n-file) watch c6, e6 and f3: two squares left.
  const std::map<std::string, std::string> pawns = {{"b7", "bP"}, {"d7", "bP"}, {"e4", "bP"}};
  auto withKnight = pawns;
  withKnight["d4"] = "rN";
  EXPECT_EQ(red(withKnight), red(pawns) + 300);
}

TEST(FourPlayerChess, ActivationPairRewardsPartnersThatBothBringPiecesOut) {
  const auto ev = evaluatorWithOnly("activation-pair", 10);
  auto score = [&](const std::map<std::string, std::string>& cells) {
    Game g = game(fen4cc('R', withKings(cells)), kTeams);
    return ev->evaluate(g.position(), Red);
  };
  const std::map<std::string, std::string> red = {{"e5", "rQ"}, {"g5", "rQ"}, {"i5", "rQ"}};
  EXPECT_EQ(score(red), 2700);  // Yellow has none out: no product
  auto withYellow = red;
  withYellow["f10"] = "yQ";
  EXPECT_EQ(score(withYellow), 3600 + 10 * 3 * 1);
  auto withBlue = withYellow;
  withBlue["e9"] = "bQ";
  withBlue["e11"] = "gQ";
  EXPECT_EQ(score(withBlue), 3600 - 1800 + 10 * 3 * 1 - 10 * 1 * 1);
}

// The teams bot, `toMove` to play, finds a win for its team at `depth`.
void expectTeamWin(char toMove, const std::map<std::string, std::string>& cells, int depth) {
  const auto res = botSearch(fen4cc(toMove, withKings(cells)), kTeams, depth);
  ASSERT_TRUE(res.found);
  EXPECT_TRUE(res.info.isMate);
  EXPECT_GT(res.info.score, engine::kMateBound);
}

TEST(FourPlayerChess, TeamsBotCountsItsPartnersMateAsItsOwn) {
  // Red has only its king; Yellow mates Green with Rd10-n10 on the third ply
  // (the rook on m4 holds the m-file), and Blue cannot stop it.
  expectTeamWin('R', {{"m4", "yR"}, {"d10", "yR"}}, 4);
}

TEST(FourPlayerChess, TeamsBotSavesItsPartnerFromMate) {
  // Blue threatens Rk10-k14 mate of Yellow (its rook on d13 holds rank 13);
  // only Red's Rxk10 stops it for good (a check of Blue only delays it).
  const auto cells = withKings({{"d13", "bR"}, {"k10", "bR"}, {"k4", "rR"}});
  EXPECT_EQ(botMove(fen4cc('R', cells), kTeams, 5), "k4k10");
}

TEST(FourPlayerChess, TeamsBotSeesAKingTakenBeforeItsSeatMoves) {
  // Blue's knight on f3 blocks Green's bishop on d5 from Red's king on h1. Any
  // knight move uncovers it, and Green takes the king before Red moves: at
  // depth 1 that is seen only if Yellow, whose partner then stands in check,
  // may not stand pat in the quiescence search.
  expectTeamWin('B', {{"f3", "bN"}, {"d5", "gB"}}, 1);
}

}  // namespace
}  // namespace acedrex::test
