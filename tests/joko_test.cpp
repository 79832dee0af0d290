// Joko Urtaroak: every ruling of shared/RULINGS.md, on hand-built positions.
// Seats: green 0, red 1, black 2, white 3 (turn order). The 16 squares
// d4-g7 are blocked (written x in the position text).
#include <algorithm>
#include <cctype>
#include <map>
#include <random>

#include "test_util.h"

namespace acedrex::test {
namespace {

constexpr int G = 0, R = 1, B = 2, W = 3;
using Places = std::array<int, kMaxSeats>;
using V = std::vector<std::string>;

std::shared_ptr<const Rules> joko() {
  static const auto r = rules("joko-urtaroak");
  return r;
}

std::string jk(char toMove, const std::map<std::string, std::string>& cells, int fifty = 0) {
  return fen4(*joko(), toMove, "grbw", cells, fifty);
}

Game game(const std::string& fen, uint64_t seed = 1) {
  Game g(joko(), seed);
  auto s = g.setStart(fen);
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().text());
  return g;
}

Position pos(const std::string& fen) {
  Position p(joko());
  auto s = p.set(fen);
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().text());
  return p;
}

std::string cell(const Position& p, const std::string& name) {
  const Rules& r = p.rules();
  const Piece q = p.at(*r.parseSquare(name));
  if (q == kBlocked) return "x";
  if (q == kEmpty) return "";
  std::string c{r.seats[seatOf(q)].letter, r.types[typeOf(q)].letter};
  if (r.types[typeOf(q)].pawn) c += "nesw"[dirOf(q)];
  return c;
}

V sorted(V v) {
  std::sort(v.begin(), v.end());
  return v;
}

// The four kings out of the way, for the piece tests.
std::map<std::string, std::string> kings(std::map<std::string, std::string> cells,
                                         const std::map<std::string, std::string>& k = {
                                             {"a1", "gK"}, {"j1", "rK"}, {"j10", "bK"}, {"a10", "wK"}}) {
  for (const auto& [s, c] : k) cells.emplace(s, c);
  return cells;
}

// ---------------------------------------------------------------------------
// Board and setup

TEST(Joko, SetupAndBlockedCentre) {
  Game g(joko());
  const Position& p = g.position();
  const Rules& r = p.rules();
  EXPECT_EQ(r.width, 10);
  EXPECT_EQ(r.height, 10);
  int blocked = 0;
  for (int f = 0; f < 10; ++f)
    for (int k = 0; k < 10; ++k) {
      const bool want = f >= 3 && f <= 6 && k >= 3 && k <= 6;
      EXPECT_EQ(p.at(r.square(f, k)) == kBlocked, want) << r.squareName(r.square(f, k));
      blocked += want;
    }
  EXPECT_EQ(blocked, 16);
  // Seed 000, with the pawn directions of the rulings.
  const std::map<std::string, std::string> expect = {
      {"a4", "gPn"}, {"b4", "gPn"}, {"d1", "gPe"}, {"d2", "gPe"}, {"b3", "gE"}, {"c2", "gE"}, {"c3", "gB"},
      {"b2", "gG"},  {"a3", "gN"},  {"c1", "gR"},  {"a1", "gK"},
      {"g1", "rPw"}, {"g2", "rPw"}, {"i4", "rPn"}, {"j4", "rPn"}, {"h2", "rE"}, {"i3", "rE"}, {"h3", "rB"},
      {"i2", "rG"},  {"h1", "rN"},  {"j3", "rR"},  {"j1", "rK"},
      {"g9", "bPw"}, {"g10", "bPw"}, {"i7", "bPs"}, {"j7", "bPs"}, {"h9", "bE"}, {"i8", "bE"}, {"h8", "bB"},
      {"i9", "bG"},  {"j8", "bN"},  {"h10", "bR"}, {"j10", "bK"},
      {"a7", "wPs"}, {"b7", "wPs"}, {"d9", "wPe"}, {"d10", "wPe"}, {"b8", "wE"}, {"c9", "wE"}, {"c8", "wB"},
      {"b9", "wG"},  {"c10", "wN"}, {"a8", "wR"},  {"a10", "wK"}};
  for (const auto& [s, c] : expect) EXPECT_EQ(cell(p, s), c) << s;
  for (int seat = 0; seat < 4; ++seat) EXPECT_EQ(p.pieceCount(seat), 11);
  Position start = pos(r.start);
  EXPECT_EQ(legalTexts(start), sorted({"a1a2", "a1b1", "c1b1", "a3b1", "a3b5", "a3c4", "b3b1", "b3b5", "b3d3",
                                       "c2a2", "c2c4", "c2e2", "a4a5", "b4b5", "d1e1", "d2e2"}));
  EXPECT_EQ(p.text(), r.start);
}

// ---------------------------------------------------------------------------
// Pieces

TEST(Joko, KingStepsButNeverOntoBlockedSquares) {
  Position p = pos(jk('g', kings({{"c5", "gK"}}, {{"j1", "rK"}, {"j10", "bK"}, {"a10", "wK"}})));
  EXPECT_EQ(movesFrom(p, "c5"), sorted({"c5b4", "c5b5", "c5b6", "c5c4", "c5c6"}));
}

TEST(Joko, RookSlidesAndBlockedSquaresStopIt) {
  Position p = pos(jk('g', kings({{"c5", "gR"}, {"h5", "gR"}})));
  EXPECT_EQ(movesFrom(p, "c5"),
            sorted({"c5b5", "c5a5", "c5c6", "c5c7", "c5c8", "c5c9", "c5c10", "c5c4", "c5c3", "c5c2", "c5c1"}));
  EXPECT_EQ(movesFrom(p, "h5"),
            sorted({"h5i5", "h5j5", "h5h6", "h5h7", "h5h8", "h5h9", "h5h10", "h5h4", "h5h3", "h5h2", "h5h1"}));
}

TEST(Joko, KnightLeapsOverButNeverLandsOnBlockedSquares) {
  Position p = pos(jk('g', kings({{"c5", "gN"}, {"h5", "gN"}})));
  EXPECT_EQ(movesFrom(p, "c5"), sorted({"c5a4", "c5a6", "c5b3", "c5b7", "c5d3"}));  // not d7, e4, e6
  EXPECT_EQ(movesFrom(p, "h5"), sorted({"h5g3", "h5i3", "h5i7", "h5j4", "h5j6"}));
}

TEST(Joko, BishopSlidesDiagonallyAndBlockedSquaresStopIt) {
  Position p = pos(jk('g', kings({{"c3", "gB"}}, {{"a10", "gK"}, {"j1", "rK"}, {"j10", "bK"}, {"h10", "wK"}})));
  EXPECT_EQ(movesFrom(p, "c3"), sorted({"c3b4", "c3a5", "c3b2", "c3a1", "c3d2", "c3e1"}));
}

TEST(Joko, WarEngineJumpsExactlyTwoOrthogonallyOverAnything) {
  // c8: over b8 (empty), d8 (Black), c9 (Green), c7 (White); a8 holds a green piece, e8 a red one.
  Position p = pos(jk('g', kings({{"c8", "gE"}, {"a8", "gN"}, {"e8", "rN"}, {"d8", "bN"}, {"c9", "gN"}, {"c7", "wN"}},
                                 {{"a1", "gK"}, {"j1", "rK"}, {"j10", "bK"}, {"h1", "wK"}})));
  EXPECT_EQ(movesFrom(p, "c8"), sorted({"c8c10", "c8c6", "c8e8"}));
  // Next to the blocked centre: it never lands on it.
  Position q = pos(jk('g', kings({{"c5", "gE"}, {"h4", "gE"}})));
  EXPECT_EQ(movesFrom(q, "c5"), sorted({"c5a5", "c5c3", "c5c7"}));
  EXPECT_EQ(movesFrom(q, "h4"), sorted({"h4h2", "h4h6", "h4j4"}));
}

const std::map<std::string, std::string> kGryphonKings = {{"a8", "gK"}, {"c10", "rK"}, {"j8", "bK"}, {"a6", "wK"}};

TEST(Joko, GryphonStepsDiagonallyThenSlidesOutward) {
  Position p = pos(jk('g', kings({{"h2", "gG"}}, kGryphonKings)));
  // g3 may not go on north (g4 is blocked) and never back east or south.
  EXPECT_EQ(movesFrom(p, "h2"),
            sorted({"h2g1", "h2i1", "h2g3", "h2i3",                                 // the diagonal step
                    "h2f1", "h2e1", "h2d1", "h2c1", "h2b1", "h2a1", "h2j1",         // on from g1 / i1
                    "h2f3", "h2e3", "h2d3", "h2c3", "h2b3", "h2a3", "h2j3",         // on from g3 / i3
                    "h2i4", "h2i5", "h2i6", "h2i7", "h2i8", "h2i9", "h2i10"}));     // north from i3
}

TEST(Joko, GryphonNeverJumpsAndMayCaptureOnEitherLeg) {
  // Own knight on g1, Red's knight on i3 (taken on the step, no further),
  // Black's knight on c3 (taken at the end of the slide).
  Position p = pos(jk('g', kings({{"h2", "gG"}, {"g1", "gN"}, {"i3", "rN"}, {"c3", "bN"}}, kGryphonKings)));
  EXPECT_EQ(movesFrom(p, "h2"), sorted({"h2i1", "h2j1", "h2g3", "h2f3", "h2e3", "h2d3", "h2c3", "h2i3"}));
}

TEST(Joko, PawnsStepOnceAndPromoteToGryphonKnightOrRook) {
  const std::string fen = jk('g', kings({{"c9", "gPn"}, {"i5", "gPe"}, {"a3", "gPn"}, {"d3", "gPn"}, {"c4", "rN"}},
                                        {{"a1", "gK"}, {"j1", "rK"}, {"j10", "bK"}, {"e10", "wK"}}));
  Position p = pos(fen);
  EXPECT_EQ(movesFrom(p, "c9"), sorted({"c9c10g", "c9c10n", "c9c10r"}));
  EXPECT_EQ(movesFrom(p, "i5"), sorted({"i5j5g", "i5j5n", "i5j5r"}));  // east: its far edge is file j
  EXPECT_EQ(movesFrom(p, "a3"), V{"a3a4"});                              // never two
  EXPECT_EQ(movesFrom(p, "d3"), V{"d3c4"});                              // d4 is blocked
  Game g = game(fen);
  EXPECT_FALSE(g.play("c9c10").ok());
  EXPECT_FALSE(g.play("c9c10b").ok());
  PLAY(g, "c9c10g");
  EXPECT_EQ(cell(g.position(), "c10"), "gG");
}

// ---------------------------------------------------------------------------
// The end

TEST(Joko, FirstMateWinsAndTheOthersShareSecond) {
  const std::string fen = jk('g', {{"a10", "gK"}, {"a2", "gR"}, {"b3", "gR"}, {"j1", "rK"}, {"j10", "bK"}, {"e10", "wK"}});
  Game g = game(fen);
  PLAY(g, "b3b1");
  ASSERT_TRUE(g.finished());
  EXPECT_EQ(g.position().result(), ResultKind::kFirstMate);
  EXPECT_EQ(g.position().winner(), G);
  EXPECT_EQ(g.position().places(), (Places{1, 2, 2, 2}));
  EXPECT_EQ(g.summaryJson(),
            "{\"variant\":\"joko-urtaroak\",\"status\":\"finished\",\"to_move\":null,"
            "\"in\":[\"green\",\"black\",\"white\"],\"out_order\":[\"red\"],"
            "\"places\":{\"green\":1,\"red\":2,\"black\":2,\"white\":2},\"plies\":1,\"fen\":\"" +
                g.position().text() + "\"}");
}

TEST(Joko, AMateFoundAtTheTurnStartComesBeforeTheFiftyMoveDraw) {
  // The mating move is the 200th quiet ply; the mate is applied first and wins.
  Game g = game(jk('g', {{"a10", "gK"}, {"a2", "gR"}, {"b3", "gR"}, {"j1", "rK"}, {"j10", "bK"}, {"e10", "wK"}}, 199));
  PLAY(g, "b3b1");
  ASSERT_TRUE(g.finished());
  EXPECT_EQ(g.position().result(), ResultKind::kFirstMate);
  EXPECT_EQ(g.position().places(), (Places{1, 2, 2, 2}));
}

TEST(Joko, MateCountsForTheSeatWhoseCheckStartedMostRecently) {
  // Green's knight d1 uncovers Black's rook h1 on Red's king a1: Black mates and wins.
  Game g = game(jk('g', {{"a10", "gK"}, {"d1", "gN"}, {"a1", "rK"}, {"h1", "bR"}, {"h9", "bK"}, {"j2", "wR"},
                         {"j5", "wK"}}));
  PLAY(g, "d1c3");
  ASSERT_TRUE(g.finished());
  EXPECT_EQ(g.position().result(), ResultKind::kFirstMate);
  EXPECT_EQ(g.position().winner(), B);
  EXPECT_EQ(g.position().places(), (Places{2, 2, 1, 2}));
}

TEST(Joko, KingCaptureWins) {
  Game g = game(jk('g', {{"a10", "gK"}, {"h5", "gN"}, {"a1", "rK"}, {"d1", "bK"}, {"h2", "bR"}, {"h8", "wK"}}));
  PLAY(g, "h5j6");  // uncovers Black's rook on White's king
  EXPECT_FALSE(g.finished());
  PLAY(g, "a1b1");
  PLAY(g, "h2h8");
  ASSERT_TRUE(g.finished());
  EXPECT_EQ(g.position().lastEvents().outs[0].reason, OutReason::kKingCaptured);
  EXPECT_EQ(g.position().result(), ResultKind::kFirstMate);
  EXPECT_EQ(g.position().winner(), B);
  EXPECT_EQ(g.position().places(), (Places{2, 2, 1, 2}));
  EXPECT_EQ(g.summaryJson().find("coins"), std::string::npos);  // no coins in Joko
}

TEST(Joko, KingCaptureLegalityCountsTheArmyAsTakenOver) {
  // Black is in check from White's rook c1 and can take White's king h9:
  // White's rook then counts as Black's, so the capture is legal.
  const std::string fen = jk('b', {{"a10", "gK"}, {"j1", "rK"}, {"c8", "bK"}, {"h3", "bR"}, {"h9", "wK"}, {"c1", "wR"}});
  Position p = pos(fen);
  EXPECT_TRUE(p.inCheck(B));
  EXPECT_TRUE(hasMove(p, "h3h9"));
  EXPECT_FALSE(hasMove(p, "h3h4"));
  Game g = game(fen);
  PLAY(g, "h3h9");
  EXPECT_TRUE(g.finished());
  EXPECT_EQ(g.position().winner(), B);
}

TEST(Joko, StalematedSeatIsLastAndTheOthersShareADraw) {
  const std::string fen = jk('r', {{"a10", "gK"}, {"a2", "gR"}, {"h3", "gN"}, {"j1", "rK"}, {"j10", "bK"}, {"c10", "wK"}});
  Position p = pos(fen);
  EXPECT_FALSE(p.inCheck(R));
  EXPECT_EQ(perft(p, 1), 0u);  // the game ends at Red's turn start
  Game g = game(fen);
  ASSERT_TRUE(g.finished());
  EXPECT_EQ(g.position().result(), ResultKind::kOthersDraw);
  EXPECT_EQ(g.position().places(), (Places{1, 4, 1, 1}));
  EXPECT_EQ(g.summaryJson(),
            "{\"variant\":\"joko-urtaroak\",\"status\":\"finished\",\"to_move\":null,"
            "\"in\":[\"green\",\"black\",\"white\"],\"out_order\":[\"red\"],"
            "\"places\":{\"green\":1,\"red\":4,\"black\":1,\"white\":1},\"plies\":0,\"fen\":\"" +
                g.position().text() + "\"}");
}

TEST(Joko, MateAtTurnStartEndsThePerft) {
  // Red to move, already mated: the game ends, perft counts nothing.
  Position p = pos(jk('r', {{"a10", "gK"}, {"a2", "gR"}, {"b1", "gR"}, {"j1", "rK"}, {"j10", "bK"}, {"e10", "wK"}}));
  EXPECT_TRUE(p.inCheck(R));
  EXPECT_EQ(perft(p, 1), 0u);
  EXPECT_EQ(perft(p, 2), 0u);
}

TEST(Joko, RepetitionDrawsForAllFour) {
  Game g(joko());
  const char* cycle[] = {"a3b1", "h1g3", "j8i10", "c10a9", "b1a3", "g3h1", "i10j8", "a9c10"};
  for (int i = 0; i < 16; ++i) {
    EXPECT_FALSE(g.finished()) << "ply " << i;
    PLAY(g, cycle[i % 8]);
  }
  ASSERT_TRUE(g.finished());
  EXPECT_EQ(g.drawReasonKind(), DrawReason::kRepetition);
  EXPECT_EQ(g.position().result(), ResultKind::kDraw);
  EXPECT_EQ(g.position().places(), (Places{1, 1, 1, 1}));
}

TEST(Joko, FiftyRoundsDrawForAllFour) {
  std::string start = joko()->start;
  auto withFifty = [&](int n) {
    std::string s = start;
    s.replace(s.find("-0-1-"), 5, "-" + std::to_string(n) + "-1-");
    return s;
  };
  {
    Game g = game(withFifty(198));
    PLAY(g, "a3b1");
    EXPECT_FALSE(g.finished());
    PLAY(g, "h1g3");
    ASSERT_TRUE(g.finished());
    EXPECT_EQ(g.drawReasonKind(), DrawReason::kFiftyMoves);
    EXPECT_EQ(g.position().places(), (Places{1, 1, 1, 1}));
  }
  {
    Game g = game(withFifty(199));
    PLAY(g, "a4a5");  // a pawn move starts the count again
    EXPECT_FALSE(g.finished());
    EXPECT_EQ(g.position().fifty(), 0);
  }
}

TEST(Joko, OnlyKingsLeftIsNoDraw) {
  // The rulings list only repetition and fifty rounds as Joko draws (an
  // "only kings" draw is a Four Seasons rule): with only kings left the game
  // goes on, and may still end in a stalemate.
  Game g = game(jk('g', {{"b2", "gK"}, {"j1", "rK"}, {"j10", "bK"}, {"a10", "wK"}, {"c3", "wPs"}}));
  PLAY(g, "b2c3");
  EXPECT_FALSE(g.finished());
  EXPECT_EQ(g.drawReasonKind(), DrawReason::kNone);
}

TEST(Joko, SummaryJsonAtTheStart) {
  Game g(joko());
  EXPECT_EQ(g.summaryJson(),
            "{\"variant\":\"joko-urtaroak\",\"status\":\"ongoing\",\"to_move\":\"green\","
            "\"in\":[\"green\",\"red\",\"black\",\"white\"],\"out_order\":[],\"places\":{},\"plies\":0,\"fen\":\"" +
                joko()->start + "\"}");
}

TEST(Joko, RandomGamesNeverLandOnBlockedSquares) {
  for (int seed = 1; seed <= 6; ++seed) {
    Game g(joko(), static_cast<uint64_t>(seed));
    std::mt19937 rng(static_cast<uint32_t>(seed));
    for (int ply = 0; ply < 300 && !g.finished(); ++ply) {
      const auto moves = g.legalMoves();
      ASSERT_FALSE(moves.empty());
      for (Move m : moves) ASSERT_NE(g.position().at(m.to()), kBlocked);
      ASSERT_TRUE(g.play(moves[rng() % moves.size()]).ok());
      std::string why;
      ASSERT_TRUE(g.position().isValid(&why)) << why;
    }
    if (g.finished()) {
      const auto pl = g.position().places();
      const auto kind = g.position().result();
      for (int s = 0; s < 4; ++s) {
        int want = 0;
        if (kind == ResultKind::kFirstMate) want = s == g.position().winner() ? 1 : 2;
        if (kind == ResultKind::kDraw) want = 1;
        if (kind == ResultKind::kOthersDraw) want = s == g.position().winner() ? 4 : 1;
        EXPECT_EQ(pl[s], want) << "seed " << seed;
      }
    }
  }
}

}  // namespace
}  // namespace acedrex::test
