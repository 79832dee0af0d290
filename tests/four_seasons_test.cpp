// Four Seasons Chess: every ruling of shared/RULINGS.md, on hand-built
// positions. Seats: green 0, red 1, black 2, white 3 (turn order).
#include <algorithm>
#include <cctype>
#include <map>
#include <numeric>
#include <random>

#include "test_util.h"

namespace acedrex::test {
namespace {

constexpr int G = 0, R = 1, B = 2, W = 3;
using Coins = std::array<int, kMaxSeats>;
using Places = std::array<int, kMaxSeats>;

// Compiled once per set of options.
std::shared_ptr<const Rules> fsRules(const std::vector<std::string>& opts = {}) {
  static std::map<std::vector<std::string>, std::shared_ptr<const Rules>> cache;
  auto& r = cache[opts];
  if (!r) r = rules("four-seasons", opts);
  return r;
}

std::string fs(char toMove, const std::map<std::string, std::string>& cells, int fifty = 0,
               const std::string& in = "grbw") {
  return fen4(*fsRules(), toMove, in, cells, fifty);
}

Game game(const std::string& fen, const std::vector<std::string>& opts = {}, uint64_t seed = 1) {
  Game g(fsRules(opts), seed);
  auto s = g.setStart(fen);
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().text());
  return g;
}

Position pos(const std::string& fen, const std::vector<std::string>& opts = {}) {
  Position p(fsRules(opts));
  auto s = p.set(fen);
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().text());
  return p;
}

Square sq(const Position& p, const std::string& name) { return *p.rules().parseSquare(name); }

// "gK", "rPn" (pawns and ferzes with their direction), "" for empty.
std::string cell(const Position& p, const std::string& name) {
  const Rules& r = p.rules();
  const Piece q = p.at(sq(p, name));
  if (q == kBlocked) return "x";
  if (q == kEmpty) return "";
  std::string c{r.seats[seatOf(q)].letter, r.types[typeOf(q)].letter};
  if (r.types[typeOf(q)].pawn || r.types[typeOf(q)].letter == 'F') c += "nesw"[dirOf(q)];
  return c;
}

std::vector<std::string> gameMoves(Game& g) {
  std::vector<std::string> out;
  for (Move m : g.legalMoves()) out.push_back(g.position().moveText(m));
  std::sort(out.begin(), out.end());
  return out;
}

bool gameHas(Game& g, const std::string& m) {
  auto v = gameMoves(g);
  return std::find(v.begin(), v.end(), m) != v.end();
}

int coinSum(const Game& g) { return std::accumulate(g.coins().begin(), g.coins().end(), 0); }

using V = std::vector<std::string>;

// ---------------------------------------------------------------------------
// Board, setup, pieces

TEST(FourSeasons, SetupSeatsAndFirstMoves) {
  Game g(fsRules());
  const Position& p = g.position();
  EXPECT_EQ(p.text(), fsRules()->start);
  EXPECT_EQ(p.toMove(), G);
  EXPECT_EQ(p.seatsIn(), 4);
  const std::map<std::string, std::string> expect = {
      {"a8", "gK"}, {"b8", "gR"}, {"a7", "gN"}, {"b7", "gA"}, {"a6", "gPs"}, {"b6", "gPs"}, {"c8", "gPe"}, {"c7", "gPe"},
      {"a1", "rK"}, {"b1", "rR"}, {"a2", "rN"}, {"b2", "rA"}, {"a3", "rPn"}, {"b3", "rPn"}, {"c1", "rPe"}, {"c2", "rPe"},
      {"h1", "bK"}, {"g1", "bR"}, {"h2", "bN"}, {"g2", "bA"}, {"h3", "bPn"}, {"g3", "bPn"}, {"f1", "bPw"}, {"f2", "bPw"},
      {"h8", "wK"}, {"g8", "wR"}, {"h7", "wN"}, {"g7", "wA"}, {"h6", "wPs"}, {"g6", "wPs"}, {"f8", "wPw"}, {"f7", "wPw"}};
  for (const auto& [s, c] : expect) EXPECT_EQ(cell(p, s), c) << s;
  for (int seat = 0; seat < 4; ++seat) EXPECT_EQ(p.pieceCount(seat), 8);
  // Pawns step once (never two), knights and the alfil leap; nothing else can move.
  EXPECT_EQ(gameMoves(g), (V{"a6a5", "a7b5", "a7c6", "b6b5", "b7d5", "c7d7", "c8d8"}));
  EXPECT_EQ(g.currentThrow(), 0);
}

TEST(FourSeasons, PawnsStepAndCaptureAlongTheirOwnWay) {
  const std::pair<char, V> cases[] = {
      {'n', {"d4c5", "d4d5", "d4e5"}},
      {'e', {"d4e3", "d4e4", "d4e5"}},
      {'s', {"d4c3", "d4d3", "d4e3"}},
      {'w', {"d4c3", "d4c4", "d4c5"}},
  };
  for (const auto& [dir, want] : cases) {
    Position p = pos(fs('g', {{"a8", "gK"}, {"a1", "rK"}, {"h1", "bK"}, {"h8", "wK"}, {"d4", std::string("gP") + dir},
                              {"c5", "rN"}, {"e5", "rN"}, {"c3", "rN"}, {"e3", "rN"}}));
    EXPECT_EQ(movesFrom(p, "d4"), want) << "pawn facing " << dir;
  }
}

TEST(FourSeasons, PawnBecomesFerzOnTheFarEdgeOfItsOwnWay) {
  const std::string fen = fs('g', {{"a8", "gK"}, {"a1", "rK"}, {"h1", "bK"}, {"h8", "wK"}, {"e8", "rN"},
                                   {"g4", "gPe"}, {"c7", "gPn"}, {"e2", "gPs"}, {"b5", "gPw"}, {"d7", "gPe"}, {"f7", "gPn"}});
  Position p = pos(fen);
  EXPECT_EQ(movesFrom(p, "g4"), (V{"g4h4f"}));  // forced, and written with its suffix
  EXPECT_EQ(movesFrom(p, "c7"), (V{"c7c8f"}));
  EXPECT_EQ(movesFrom(p, "e2"), (V{"e2e1f"}));
  EXPECT_EQ(movesFrom(p, "b5"), (V{"b5a5f"}));
  // An east-going pawn on rank 8 is not on its far edge (file h is); a north-going one is.
  EXPECT_EQ(movesFrom(p, "d7"), (V{"d7e7", "d7e8"}));
  EXPECT_EQ(movesFrom(p, "f7"), (V{"f7e8f", "f7f8f"}));

  Game g = game(fen);
  EXPECT_FALSE(g.play("g4h4").ok());
  EXPECT_FALSE(g.play("g4h4n").ok());
  PLAY(g, "g4h4f");
  EXPECT_EQ(cell(g.position(), "h4"), "gFe");
  EXPECT_EQ(g.record().back().move, "g4h4f");
}

TEST(FourSeasons, AlfilJumpsExactlyTwoDiagonally) {
  // The four squares between are all occupied; f6 holds a green piece.
  Position p = pos(fs('g', {{"a8", "gK"}, {"a1", "rK"}, {"h1", "bK"}, {"h8", "wK"}, {"d4", "gA"}, {"f6", "gN"},
                            {"b2", "rN"}, {"c3", "rN"}, {"c5", "gN"}, {"e3", "bN"}, {"e5", "wN"}}));
  EXPECT_EQ(movesFrom(p, "d4"), (V{"d4b2", "d4b6", "d4f2"}));
}

TEST(FourSeasons, FerzKingRookKnight) {
  // Ferz: one step diagonally (same clutter as the alfil test).
  Position f = pos(fs('g', {{"a8", "gK"}, {"a1", "rK"}, {"h1", "bK"}, {"h8", "wK"}, {"d4", "gFs"}, {"f6", "gN"},
                            {"b2", "rN"}, {"c3", "rN"}, {"c5", "gN"}, {"e3", "bN"}, {"e5", "wN"}}));
  EXPECT_EQ(movesFrom(f, "d4"), (V{"d4c3", "d4e3", "d4e5"}));
  Position r = pos(fs('g', {{"a8", "gK"}, {"a1", "rK"}, {"h1", "bK"}, {"h8", "wK"}, {"d4", "gR"}}));
  EXPECT_EQ(movesFrom(r, "d4").size(), 14u);
  Position n = pos(fs('g', {{"a8", "gK"}, {"a1", "rK"}, {"h1", "bK"}, {"h8", "wK"}, {"d4", "gN"}}));
  EXPECT_EQ(movesFrom(n, "d4"), (V{"d4b3", "d4b5", "d4c2", "d4c6", "d4e2", "d4e6", "d4f3", "d4f5"}));
  // (a knight on b8 so that not only kings are left)
  Position k = pos(fs('g', {{"d4", "gK"}, {"b8", "gN"}, {"a1", "rK"}, {"h1", "bK"}, {"h8", "wK"}}));
  EXPECT_EQ(movesFrom(k, "d4"), (V{"d4c3", "d4c4", "d4c5", "d4d3", "d4d5", "d4e3", "d4e4", "d4e5"}));
}

// ---------------------------------------------------------------------------
// Checks and who mated

TEST(FourSeasons, EachStartedCheckPaysOneAndAContinuingCheckNothing) {
  Game g = game(fs('g', {{"a8", "gK"}, {"d5", "gR"}, {"a1", "rK"}, {"h1", "bK"}, {"h8", "wK"}}));
  PLAY(g, "d5d1");  // checks red (a1) and black (h1) along rank 1
  EXPECT_EQ(g.coins(), (Coins{2, -1, -1, 0}));
  EXPECT_EQ(g.position().checkersOf(R), 1u << G);
  EXPECT_EQ(g.position().checkersOf(B), 1u << G);
  PLAY(g, "a1a2");
  EXPECT_EQ(g.coins(), (Coins{2, -1, -1, 0}));  // black still in check: no new coin
  PLAY(g, "h1h2");
  PLAY(g, "h8g8");
  PLAY(g, "d1d2");  // the same rook checks both again on rank 2
  EXPECT_EQ(g.coins(), (Coins{4, -2, -2, 0}));
}

TEST(FourSeasons, DiscoveredCheckByAThirdSeatGetsTheMateAndTheArmy) {
  // Green's knight d1 blocks White's rook g1 from Red's king a1; Black's rook
  // g2 covers a2 and b2. Green moves away: White mates Red.
  const std::map<std::string, std::string> cells = {{"a8", "gK"}, {"d1", "gN"}, {"a1", "rK"}, {"c3", "rPn"},
                                                    {"e6", "bK"}, {"g2", "bR"}, {"h8", "wK"}, {"g1", "wR"}};
  for (const char* takeover : {"takeover=yes", "takeover=no"}) {
    SCOPED_TRACE(takeover);
    const bool yes = std::string(takeover) == "takeover=yes";
    Game g = game(fs('g', cells), {takeover});
    PLAY(g, "d1e3");
    const Position& p = g.position();
    EXPECT_FALSE(p.isIn(R));
    ASSERT_EQ(p.outCount(), 1);
    EXPECT_EQ(p.outSeat(0), R);
    EXPECT_EQ(p.piecesAtOut(R), 2);
    EXPECT_EQ(cell(p, "a1"), "");
    // Red pays White 1 for the check and 1 per piece (king included) for the mate.
    EXPECT_EQ(g.coins(), (Coins{0, -3, 0, 3}));
    EXPECT_EQ(p.toMove(), B);
    EXPECT_FALSE(g.finished());
    if (yes) {
      // The pawn changes colour and keeps going north (White's own pieces face south).
      EXPECT_EQ(cell(p, "c3"), "wPn");
      PLAY(g, "e6e7");
      EXPECT_TRUE(gameHas(g, "c3c4"));
      EXPECT_FALSE(gameHas(g, "c3c2"));
    } else {
      EXPECT_EQ(cell(p, "c3"), "");
      EXPECT_EQ(p.pieceCount(R), 0);
    }
  }
}

TEST(FourSeasons, MostRecentCheckGetsTheMate) {
  // White checks Red first; then Green adds a second check that closes the net.
  Game g = game(fs('w', {{"f4", "gK"}, {"e5", "gA"}, {"a1", "rK"}, {"f1", "bK"}, {"b8", "bR"}, {"h6", "wK"}, {"h3", "wR"}}));
  PLAY(g, "h3a3");
  EXPECT_EQ(g.coins(), (Coins{0, -1, 0, 1}));
  PLAY(g, "e5c3");
  EXPECT_FALSE(g.position().isIn(R));
  // Red: check to White (1) and to Green (1), mate (1 piece) to Green.
  EXPECT_EQ(g.coins(), (Coins{2, -3, 0, 1}));
}

TEST(FourSeasons, ChecksStartedOnTheSamePlyGoToTheMoverIfAmongThem) {
  // Green's alfil a5 -> c3 checks a1 and uncovers White's rook a7 on the a-file.
  // By turn order after the mover White would come first; the mover wins the tie.
  Game g = game(fs('g', {{"f4", "gK"}, {"a5", "gA"}, {"a1", "rK"}, {"h1", "bK"}, {"b8", "bR"}, {"h6", "wK"}, {"a7", "wR"}}));
  PLAY(g, "a5c3");
  EXPECT_FALSE(g.position().isIn(R));
  EXPECT_EQ(g.coins(), (Coins{2, -3, 0, 1}));
  ASSERT_EQ(g.position().lastEvents().nOuts, 1);
  EXPECT_EQ(g.position().lastEvents().outs[0].by, G);
}

// Red is stalemated at its turn start; its pieces leave and White's rook h8
// now sees Black's king h1. Green's alfil d5 may check h1 from f3 first.
const std::map<std::string, std::string> kStalemateUncovers = {
    {"b6", "gK"}, {"c3", "gN"}, {"e3", "gA"}, {"d5", "gA"}, {"g4", "gPs"}, {"a1", "rK"}, {"h4", "rPw"},
    {"h1", "bK"}, {"g6", "wK"}, {"h8", "wR"}, {"d2", "wR"}};

TEST(FourSeasons, CheckStartedByAnEliminationAtATurnStart) {
  Game g = game(fs('g', kStalemateUncovers));
  PLAY(g, "b6b7");
  const Position& p = g.position();
  ASSERT_EQ(p.outCount(), 2);
  EXPECT_EQ(p.outSeat(0), R);  // stalemated: out, pieces gone, no coins
  EXPECT_EQ(p.outSeat(1), B);  // then mated by White's uncovered rook
  EXPECT_EQ(cell(p, "h4"), "");
  EXPECT_EQ(p.piecesAtOut(R), 2);
  EXPECT_EQ(g.coins(), (Coins{0, 0, -2, 2}));
  EXPECT_EQ(p.toMove(), W);
}

TEST(FourSeasons, CheckStartedByAnEliminationBelongsToTheLastMovesPly) {
  // Green checks h1 with its alfil, Red is stalemated and its removal starts
  // White's check: both belong to Green's ply, so the mover Green gets the mate.
  Game g = game(fs('g', kStalemateUncovers));
  PLAY(g, "d5f3");
  const Position& p = g.position();
  ASSERT_EQ(p.outCount(), 2);
  EXPECT_EQ(p.outSeat(0), R);
  EXPECT_EQ(p.outSeat(1), B);
  // Black: check to Green 1, check to White 1, mate (king only) to Green 1.
  EXPECT_EQ(g.coins(), (Coins{2, 0, -3, 1}));
  EXPECT_EQ(p.toMove(), W);
}

TEST(FourSeasons, SimultaneousChecksByOthersGoToTheFirstAfterTheMover) {
  // A set-up position is read as reached by the previous seat's move (Green
  // before Red); checks standing in it started on that ply. Red has no move.
  const std::map<std::string, std::string> base = {{"d6", "gK"}, {"d3", "gN"}, {"a1", "rK"}, {"f8", "bK"},
                                                   {"h5", "wK"}, {"h1", "wR"}};
  {
    auto cells = base;
    cells["a8"] = "bR";  // Black and White check: Black comes first after Green
    Game g = game(fs('r', cells));
    EXPECT_FALSE(g.position().isIn(R));
    ASSERT_EQ(g.position().outCount(), 1);
    EXPECT_EQ(g.position().lastEvents().outs[0].by, B);
    EXPECT_EQ(g.coins(), (Coins{0, -1, 1, 0}));  // set-up checks pay nothing; the mate 1 piece
    EXPECT_EQ(g.position().toMove(), B);
  }
  {
    auto cells = base;
    cells["a8"] = "gR";  // Green (the mover) and White: Green
    Game g = game(fs('r', cells));
    EXPECT_FALSE(g.position().isIn(R));
    EXPECT_EQ(g.coins(), (Coins{1, -1, 0, 0}));
  }
}

TEST(FourSeasons, PerftGoesOnPastAMateAtATurnStart) {
  // Red to move is mated (no move): the count goes on with Black's king, whose
  // only safe squares are f7 and g7.
  Position p = pos(fs('r', {{"d6", "gK"}, {"d3", "gN"}, {"a8", "gR"}, {"a1", "rK"}, {"f8", "bK"}, {"h5", "wK"},
                            {"h1", "wR"}}));
  EXPECT_EQ(perft(p, 1), 2u);
  auto div = perftDivide(p, 1);
  ASSERT_EQ(div.size(), 2u);
  EXPECT_EQ(div[0].first.substr(0, 2), "f8");
}

// ---------------------------------------------------------------------------
// King capture, takeover, legality after consequences

TEST(FourSeasons, AKingLeftInReachMayBeCapturedAndPaysPerPieceOnly) {
  const std::map<std::string, std::string> cells = {{"a6", "gK"}, {"h5", "gN"}, {"a1", "rK"}, {"d1", "bK"},
                                                    {"h2", "bR"}, {"h8", "wK"}, {"e6", "wN"}, {"b5", "wPs"}};
  for (const char* takeover : {"takeover=yes", "takeover=no"}) {
    SCOPED_TRACE(takeover);
    Game g = game(fs('g', cells), {takeover});
    PLAY(g, "h5f4");  // uncovers Black's rook on White's king
    EXPECT_EQ(g.coins(), (Coins{0, 0, 1, -1}));
    EXPECT_EQ(g.position().checkersOf(W), 1u << B);
    PLAY(g, "a1b1");
    ASSERT_TRUE(gameHas(g, "h2h8"));
    PLAY(g, "h2h8");
    const Position& p = g.position();
    EXPECT_FALSE(p.isIn(W));
    EXPECT_EQ(p.piecesAtOut(W), 3);
    // 3 pieces (king, knight, pawn) and nothing for the king as a captured piece.
    EXPECT_EQ(g.coins(), (Coins{0, 0, 4, -4}));
    EXPECT_EQ(cell(p, "h8"), "bR");
    EXPECT_EQ(p.fifty(), 0);  // a king capture is a capture
    if (std::string(takeover) == "takeover=yes") {
      EXPECT_EQ(cell(p, "e6"), "bN");
      EXPECT_EQ(cell(p, "b5"), "bPs");
    } else {
      EXPECT_EQ(cell(p, "e6"), "");
      EXPECT_EQ(cell(p, "b5"), "");
    }
    EXPECT_FALSE(g.finished());
    EXPECT_EQ(p.toMove(), G);
  }
}

TEST(FourSeasons, KingCaptureWhoseConsequencesShieldTheMover) {
  // Green stands in check from White's rook d8 and can take White's king h5:
  // taken over or removed, the rook no longer attacks.
  const std::string fen = fs('g', {{"d1", "gK"}, {"h1", "gR"}, {"a6", "rK"}, {"f3", "bK"}, {"h5", "wK"}, {"d8", "wR"}});
  for (const char* takeover : {"takeover=yes", "takeover=no"}) {
    SCOPED_TRACE(takeover);
    Position p = pos(fen, {takeover});
    EXPECT_TRUE(p.inCheck(G));
    EXPECT_TRUE(hasMove(p, "h1h5"));
    EXPECT_FALSE(hasMove(p, "h1h4"));
    Game g = game(fen, {takeover});
    PLAY(g, "h1h5");
    EXPECT_EQ(g.coins(), (Coins{2, 0, 0, -2}));
    EXPECT_EQ(cell(g.position(), "d8"), std::string(takeover) == "takeover=yes" ? "gR" : "");
  }
}

TEST(FourSeasons, KingCaptureWhoseRemovalExposesTheMover) {
  // White's knight d4 shields Green's king a4 from Black's rook g4.
  const std::string fen = fs('g', {{"a4", "gK"}, {"h1", "gR"}, {"a2", "rK"}, {"f7", "bK"}, {"g4", "bR"},
                                   {"h8", "wK"}, {"d4", "wN"}});
  Position yes = pos(fen, {"takeover=yes"});
  EXPECT_TRUE(hasMove(yes, "h1h8"));
  Position no = pos(fen, {"takeover=no"});
  EXPECT_FALSE(hasMove(no, "h1h8"));
  EXPECT_TRUE(hasMove(no, "h1h7"));
}

// ---------------------------------------------------------------------------
// Mate, stalemate, bare king

TEST(FourSeasons, StalemateRemovesTheArmyWithoutCoins) {
  const std::string fen = fs('r', {{"d7", "gK"}, {"a3", "gPs"}, {"c3", "gN"}, {"a1", "rK"}, {"a2", "rPn"},
                                   {"h1", "bK"}, {"h8", "wK"}});
  for (const char* takeover : {"takeover=yes", "takeover=no"}) {
    Game g = game(fen, {takeover});
    const Position& p = g.position();
    EXPECT_FALSE(p.isIn(R));
    EXPECT_EQ(p.pieceCount(R), 0);
    EXPECT_EQ(cell(p, "a1"), "");
    EXPECT_EQ(cell(p, "a2"), "");
    EXPECT_EQ(p.piecesAtOut(R), 2);
    EXPECT_EQ(g.coins(), (Coins{0, 0, 0, 0}));
    EXPECT_EQ(p.toMove(), B);
    EXPECT_FALSE(g.finished());
  }
}

TEST(FourSeasons, BareKingLosesGoesOutAtOnceWithoutCoins) {
  // Green is in check from White's king; taking White's last other piece
  // leaves White bare, out at once, so its king no longer attacks.
  const std::string fen = fs('g', {{"d4", "gK"}, {"h6", "gR"}, {"a1", "rK"}, {"a2", "rPn"}, {"a8", "bK"},
                                   {"a7", "bPs"}, {"e5", "wK"}, {"h2", "wN"}});
  Position plays = pos(fen);
  EXPECT_FALSE(hasMove(plays, "h6h2"));
  EXPECT_TRUE(hasMove(plays, "d4e5"));  // Green may always take the king in reach
  Position loses = pos(fen, {"bare-king=loses"});
  EXPECT_TRUE(hasMove(loses, "h6h2"));

  Game g = game(fen, {"bare-king=loses"});
  PLAY(g, "h6h2");
  const Position& p = g.position();
  EXPECT_FALSE(p.isIn(W));
  EXPECT_EQ(cell(p, "e5"), "");
  EXPECT_EQ(p.piecesAtOut(W), 1);
  EXPECT_EQ(g.coins(), (Coins{1, 0, 0, -1}));  // the knight only
  EXPECT_EQ(p.toMove(), R);
  EXPECT_FALSE(g.finished());
}

TEST(FourSeasons, BareKingLosesTheNextSeatGoesOutOnceAndTheTurnPasses) {
  // Green takes Red's last piece besides its king; Red, next to move, is bare:
  // it goes out once (as if stalemated, 1 piece) and Black moves next.
  Game g = game(fs('g', {{"a8", "gK"}, {"a6", "gR"}, {"c1", "rK"}, {"a3", "rN"}, {"h1", "bK"}, {"h2", "bPn"},
                         {"h8", "wK"}, {"h7", "wPs"}}),
                {"bare-king=loses"});
  PLAY(g, "a6a3");
  const Position& p = g.position();
  EXPECT_FALSE(p.isIn(R));
  EXPECT_EQ(p.outCount(), 1);
  EXPECT_EQ(p.outSeat(0), R);
  EXPECT_EQ(p.piecesAtOut(R), 1);
  EXPECT_EQ(p.toMove(), B);
  EXPECT_EQ(g.coins(), (Coins{1, -1, 0, 0}));
  EXPECT_EQ(g.record().size(), 1u);
  EXPECT_TRUE(gameHas(g, "h2h3"));
}

TEST(FourSeasons, BareKingLosesCanExposeTheMover) {
  // White's king d4 shields Green's king a4 from Black's rook h4; taking
  // White's knight leaves White bare and its king leaves the board.
  // Red keeps a pawn: a seat already bare could not be in with bare-king=loses.
  const std::string fen = fs('g', {{"a4", "gK"}, {"e8", "gR"}, {"a1", "rK"}, {"c1", "rPe"}, {"h1", "bK"},
                                   {"h4", "bR"}, {"d4", "wK"}, {"e6", "wN"}});
  Position plays = pos(fen);
  EXPECT_TRUE(hasMove(plays, "e8e6"));
  Position loses = pos(fen, {"bare-king=loses"});
  EXPECT_FALSE(hasMove(loses, "e8e6"));
  EXPECT_TRUE(hasMove(loses, "e8e7"));
}

TEST(FourSeasons, BareKingLosesRejectsAPositionWithABareSeat) {
  Position p(fsRules({"bare-king=loses"}));
  const std::string fen = fs('g', {{"a4", "gK"}, {"e8", "gR"}, {"a1", "rK"}, {"h1", "bK"}, {"h4", "bR"},
                                   {"d4", "wK"}, {"e6", "wN"}});
  const auto s = p.set(fen);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("only its king"), std::string::npos);
}

TEST(FourSeasons, BareKingLosesMeansOnlyKingsCannotArise) {
  // Two seats in. The knight takes White's alfil next to White's king.
  const std::string fen = fs('g', {{"a8", "gK"}, {"c3", "gN"}, {"a6", "wK"}, {"b5", "wA"}}, 0, "gw");
  {
    Game g = game(fen);  // plays: White's king takes back, only kings: a draw
    PLAY(g, "c3b5");
    EXPECT_FALSE(g.finished());
    PLAY(g, "a6b5");
    EXPECT_TRUE(g.finished());
    EXPECT_EQ(g.position().result(), ResultKind::kDraw);
    EXPECT_EQ(g.drawReasonKind(), DrawReason::kOnlyKings);
    EXPECT_EQ(g.position().places()[G], 1);
    EXPECT_EQ(g.position().places()[W], 1);
  }
  {
    Game g = game(fen, {"bare-king=loses"});
    PLAY(g, "c3b5");
    EXPECT_TRUE(g.finished());
    EXPECT_EQ(g.position().result(), ResultKind::kWin);
    EXPECT_EQ(g.position().winner(), G);
    EXPECT_EQ(g.position().places()[G], 1);
    EXPECT_EQ(g.position().places()[W], 2);
  }
}

TEST(FourSeasons, ResignationAndTimeoutRemoveTheArmy) {
  Game g(fsRules());
  g.resign(R);
  EXPECT_FALSE(g.position().isIn(R));
  EXPECT_EQ(g.position().pieceCount(R), 0);
  EXPECT_EQ(cell(g.position(), "a1"), "");
  EXPECT_EQ(g.position().toMove(), G);
  g.timeout(W);
  EXPECT_FALSE(g.position().isIn(W));
  EXPECT_EQ(cell(g.position(), "h8"), "");
  EXPECT_EQ(g.coins(), (Coins{0, 0, 0, 0}));
  EXPECT_FALSE(g.finished());
  PLAY(g, "a6a5");
  EXPECT_EQ(g.position().toMove(), B);
}

// ---------------------------------------------------------------------------
// Draws

// Red to move and stalemated: it goes out at once (first out, fourth place).
const std::map<std::string, std::string> kRedStalemated = {{"d7", "gK"}, {"a3", "gPs"}, {"c3", "gN"},
                                                           {"a1", "rK"}, {"a2", "rPn"}, {"h1", "bK"},
                                                           {"h8", "wK"}};

TEST(FourSeasons, ThreefoldRepetitionIsSharedBySeatsStillIn) {
  Game g = game(fs('r', kRedStalemated));
  ASSERT_FALSE(g.position().isIn(R));
  const char* cycle[] = {"h1g1", "h8g8", "d7e7", "g1h1", "g8h8", "e7d7"};
  for (int i = 0; i < 12; ++i) {
    EXPECT_FALSE(g.finished()) << "ply " << i;
    PLAY(g, cycle[i % 6]);
  }
  EXPECT_TRUE(g.finished());
  EXPECT_EQ(g.drawReasonKind(), DrawReason::kRepetition);
  EXPECT_EQ(g.position().result(), ResultKind::kDraw);
  EXPECT_EQ(g.position().places(), (Places{1, 4, 1, 1}));
  EXPECT_EQ(g.coins(), (Coins{0, 0, 0, 0}));
}

TEST(FourSeasons, FiftyRoundsAreFiftyTimesTheSeatsIn) {
  const std::map<std::string, std::string> cells = {{"a8", "gK"}, {"d4", "gN"}, {"c6", "gPs"},
                                                    {"a1", "rK"}, {"h1", "bK"}, {"h8", "wK"}};
  {
    Game g = game(fs('g', cells, 198));
    PLAY(g, "a8b8");
    EXPECT_FALSE(g.finished());
    EXPECT_EQ(g.position().fifty(), 199);
    PLAY(g, "a1b1");
    EXPECT_TRUE(g.finished());
    EXPECT_EQ(g.drawReasonKind(), DrawReason::kFiftyMoves);
    EXPECT_EQ(g.position().places(), (Places{1, 1, 1, 1}));
  }
  {
    Game g = game(fs('g', cells, 199));
    PLAY(g, "c6c5");  // a pawn move starts the count again
    EXPECT_FALSE(g.finished());
    EXPECT_EQ(g.position().fifty(), 0);
  }
  {
    // 3 seats in: 150 plies. The stalemate at Red's turn start does not reset the count.
    Game g = game(fs('g', kRedStalemated, 148));
    PLAY(g, "d7e7");
    ASSERT_FALSE(g.position().isIn(R));
    EXPECT_EQ(g.position().fifty(), 149);
    EXPECT_FALSE(g.finished());
    PLAY(g, "h1g1");
    EXPECT_TRUE(g.finished());
    EXPECT_EQ(g.drawReasonKind(), DrawReason::kFiftyMoves);
    EXPECT_EQ(g.position().places(), (Places{1, 4, 1, 1}));
  }
}

TEST(FourSeasons, RepetitionNeedsTheSameSeatToMove) {
  // Two seats in. Green's rook goes round c4-d4-e4 (3 moves), White's knight
  // h1-g3 (2 moves): the placement of ply 0 comes back after ply 5 with White
  // to move, and after ply 12 with Green to move; the whole state first
  // occurs a third time after ply 24.
  Game g = game(fs('g', {{"a8", "gK"}, {"c4", "gR"}, {"h8", "wK"}, {"h1", "wN"}}, 0, "gw"));
  const char* cycle[] = {"c4d4", "h1g3", "d4e4", "g3h1", "e4c4", "h1g3", "c4d4", "g3h1", "d4e4", "h1g3", "e4c4", "g3h1"};
  for (int i = 0; i < 24; ++i) {
    ASSERT_FALSE(g.finished()) << "ply " << i;
    PLAY(g, cycle[i % 12]);
  }
  EXPECT_TRUE(g.finished());
  EXPECT_EQ(g.drawReasonKind(), DrawReason::kRepetition);
}

TEST(FourSeasons, MatesAtTheTurnStartComeBeforeTheDrawTests) {
  // The discovered mate of Red is also the 200th quiet ply: Red is mated
  // first (4th place, coins paid), then the three left share the draw.
  Game g = game(fs('g', {{"a8", "gK"}, {"d1", "gN"}, {"a1", "rK"}, {"c3", "rPn"}, {"e6", "bK"}, {"g2", "bR"},
                         {"h8", "wK"}, {"g1", "wR"}},
                   199));
  PLAY(g, "d1e3");
  ASSERT_TRUE(g.finished());
  EXPECT_FALSE(g.position().isIn(R));
  EXPECT_EQ(g.drawReasonKind(), DrawReason::kFiftyMoves);
  EXPECT_EQ(g.position().places(), (Places{1, 4, 1, 1}));
  EXPECT_EQ(g.coins(), (Coins{0, -3, 0, 3}));
}

TEST(FourSeasons, OnlyKingsLeftIsADrawWithoutSettlement) {
  // Red stalemated at once; Black moves; White's king takes Black's alfil.
  Game g = game(fs('r', {{"c2", "gK"}, {"a1", "rK"}, {"h8", "bK"}, {"c4", "bA"}, {"d5", "wK"}}));
  ASSERT_FALSE(g.position().isIn(R));
  PLAY(g, "h8h7");
  PLAY(g, "d5c4");
  EXPECT_TRUE(g.finished());
  EXPECT_EQ(g.drawReasonKind(), DrawReason::kOnlyKings);
  EXPECT_EQ(g.position().places(), (Places{1, 4, 1, 1}));
  EXPECT_EQ(g.coins(), (Coins{0, 0, -1, 1}));
}

// ---------------------------------------------------------------------------
// A whole game to the end: places and the end settlement

const std::map<std::string, std::string> kToTheEnd = {
    {"a8", "gK"}, {"b7", "gR"}, {"c7", "gR"}, {"c3", "gN"}, {"e3", "gA"}, {"f5", "gPs"}, {"a1", "rK"},
    {"h1", "bK"}, {"g3", "bPn"}, {"h8", "wK"}, {"f4", "wN"}, {"a4", "wN"}};

TEST(FourSeasons, PlacesAndEndSettlement) {
  Game g = game(fs('g', kToTheEnd));
  PLAY(g, "a8a7");  // Red is stalemated: first out
  EXPECT_EQ(g.position().outCount(), 1);
  PLAY(g, "g3f4");  // Black takes a knight: +1
  EXPECT_EQ(g.coins(), (Coins{0, 0, 1, -1}));
  PLAY(g, "a4c5");
  PLAY(g, "b7b2");  // Black is stalemated: second out, balance +1, 2 pieces
  ASSERT_EQ(g.position().outCount(), 2);
  EXPECT_EQ(g.position().outSeat(1), B);
  EXPECT_EQ(g.position().piecesAtOut(B), 2);
  EXPECT_EQ(g.coins(), (Coins{0, 0, 1, -1}));
  PLAY(g, "c5a4");
  PLAY(g, "b2b8");  // check (1) and mate (2 pieces); Green is last in
  ASSERT_TRUE(g.finished());
  const Position& p = g.position();
  EXPECT_EQ(p.result(), ResultKind::kWin);
  EXPECT_EQ(p.winner(), G);
  EXPECT_EQ(p.places(), (Places{1, 4, 3, 2}));
  EXPECT_EQ(cell(p, "a4"), "gN");
  // Before settlement: G 3, B 1, W -4. Black pays 1 (balance) + 2 (pieces)
  // into the pot; White, third out, pays Green 2; Green takes the pot.
  EXPECT_EQ(g.coins(), (Coins{8, 0, -2, -6}));
  EXPECT_EQ(g.summaryJson(),
            "{\"variant\":\"four-seasons\",\"status\":\"finished\",\"to_move\":null,\"in\":[\"green\"],"
            "\"out_order\":[\"red\",\"black\",\"white\"],\"places\":{\"green\":1,\"red\":4,\"black\":3,\"white\":2},"
            "\"coins\":{\"green\":8,\"red\":0,\"black\":-2,\"white\":-6},\"plies\":6,\"fen\":\"" +
                p.text() + "\"}");
}

TEST(FourSeasons, SecondOutWithANegativeBalancePaysOnlyItsPieces) {
  // Red stalemated, Black mated (balance -3): then White resigns, Green wins.
  Game g = game(fs('g', kStalemateUncovers));
  PLAY(g, "d5f3");
  ASSERT_EQ(g.coins(), (Coins{2, 0, -3, 1}));
  EXPECT_EQ(g.summaryJson(),
            "{\"variant\":\"four-seasons\",\"status\":\"ongoing\",\"to_move\":\"white\",\"in\":[\"green\",\"white\"],"
            "\"out_order\":[\"red\",\"black\"],\"places\":{},\"coins\":{\"green\":2,\"red\":0,\"black\":-3,\"white\":1},"
            "\"plies\":1,\"fen\":\"" +
                g.position().text() + "\"}");
  g.resign(W);  // White goes out with 3 pieces
  ASSERT_TRUE(g.finished());
  EXPECT_EQ(g.position().winner(), G);
  EXPECT_EQ(g.position().places(), (Places{1, 4, 3, 2}));
  // Black pays 0 (balance not positive) + 1 piece; White pays 3 pieces.
  EXPECT_EQ(g.coins(), (Coins{6, 0, -4, -2}));
}

TEST(FourSeasons, DrawnGameMakesNoSettlement) {
  Game g = game(fs('g', kToTheEnd));
  for (const char* m : {"a8a7", "g3f4", "a4c5", "b7b2"}) PLAY(g, m);
  ASSERT_EQ(g.position().outCount(), 2);  // Red, then Black with +1
  g.agreeDraw();
  ASSERT_TRUE(g.finished());
  EXPECT_EQ(g.position().places(), (Places{1, 4, 3, 1}));
  EXPECT_EQ(g.coins(), (Coins{0, 0, 1, -1}));
}

TEST(FourSeasons, SummaryJsonAtTheStart) {
  Game g(fsRules());
  EXPECT_EQ(g.summaryJson(),
            "{\"variant\":\"four-seasons\",\"status\":\"ongoing\",\"to_move\":\"green\","
            "\"in\":[\"green\",\"red\",\"black\",\"white\"],\"out_order\":[],\"places\":{},"
            "\"coins\":{\"green\":0,\"red\":0,\"black\":0,\"white\":0},\"plies\":0,\"fen\":\"" +
                fsRules()->start + "\"}");
}

// ---------------------------------------------------------------------------
// Random games: coins always sum to 0

// Random games whose players always take a king when they can, and mostly
// give check, sometimes take a piece: they mate far more often than uniform
// random players, which draw nearly every game without a mate.
// Coins sum to 0 after every ply and after the settlement.
void randomGames(const std::vector<std::string>& opts, int games, int maxPlies, bool expectWinners) {
  int decided = 0, won = 0, nonZero = 0, mated = 0;
  for (int seed = 1; seed <= games; ++seed) {
    Game g(fsRules(opts), static_cast<uint64_t>(seed));
    std::mt19937 rng(static_cast<uint32_t>(seed * 7919));
    bool brokenOut = false;
    for (int ply = 0; ply < maxPlies && !g.finished(); ++ply) {
      const auto moves = g.legalMoves();
      ASSERT_FALSE(moves.empty());
      // A king capture if any; else mostly a check, sometimes a capture, else any move.
      std::vector<Move> kings, checks, captures;
      Position probe = g.position();
      for (Move m : moves) {
        if (m.isNull()) continue;
        const Piece victim = probe.at(m.to());
        if (isPiece(victim) && typeOf(victim) == probe.rules().royalType) kings.push_back(m);
        else if (isPiece(victim)) captures.push_back(m);
        probe.make(m);
        for (int s = 0; s < 4; ++s)
          if (probe.isIn(s) && (probe.lastEvents().checkStarts[s] != 0)) {
            checks.push_back(m);
            break;
          }
        probe.unmake();
      }
      const unsigned roll = rng() % 8;
      const Move m = !kings.empty()                   ? kings[rng() % kings.size()]
                     : !checks.empty() && roll != 0   ? checks[rng() % checks.size()]
                     : !captures.empty() && roll == 0 ? captures[rng() % captures.size()]
                                                      : moves[rng() % moves.size()];
      ASSERT_TRUE(g.play(m).ok());
      ASSERT_EQ(coinSum(g), 0) << "seed " << seed << " ply " << ply;
      // Every seat is either in or out, and goes out once (reported once per game).
      const Position& p = g.position();
      if (!brokenOut && p.outCount() + p.seatsIn() != 4) {
        brokenOut = true;
        ADD_FAILURE() << "seed " << seed << " ply " << ply << ": a seat went out twice: " << g.summaryJson();
      }
      std::string why;
      ASSERT_TRUE(g.position().isValid(&why)) << why;
      if (g.coins() != Coins{}) ++nonZero;
    }
    {
      // Whether some seat was mated or lost its king (the mate coins were paid).
      Position end = g.position();
      bool any = false;
      while (end.undoDepth() > 0) {
        for (int i = 0; i < end.lastEvents().nOuts; ++i)
          any = any || end.lastEvents().outs[i].reason == OutReason::kMated || end.lastEvents().outs[i].reason == OutReason::kKingCaptured;
        end.unmake();
      }
      if (any) ++mated;
    }
    if (g.finished()) {
      ++decided;
      const auto pl = g.position().places();
      for (int s = 0; s < 4; ++s) EXPECT_GE(pl[s], 1) << "seed " << seed;
      if (g.position().result() == ResultKind::kWin) {
        ++won;
        EXPECT_EQ(pl[g.position().winner()], 1) << "seed " << seed;
        EXPECT_EQ(std::count(pl.begin(), pl.end(), 1), 1) << "seed " << seed;  // a sole winner
      }
    }
    EXPECT_EQ(coinSum(g), 0);
  }
  EXPECT_GT(nonZero, 0);  // the games did move coins
  // Every game ends (a winner, only kings, or fifty rounds), so the coins are
  // checked at the end too; mates paid their coins in many of them; and where
  // a bare king goes out, many end with a winner, so the end settlement runs.
  // (Without that rule these players draw by only kings or fifty rounds once
  // one or two seats are out; the settlement has its own tests above.)
  EXPECT_EQ(decided, games) << decided << " of " << games << " games ended";
  EXPECT_GE(mated, games / 4) << mated << " of " << games << " games had a mate";
  if (expectWinners) {
    EXPECT_GE(won, games / 4) << won << " of " << games << " games ended with a winner";
  }
}

TEST(FourSeasons, RandomGamesCoinsSumToZero) { randomGames({}, 12, 1000, false); }
TEST(FourSeasons, RandomGamesCoinsSumToZeroTakeoverNo) { randomGames({"takeover=no"}, 12, 1000, false); }
TEST(FourSeasons, RandomGamesCoinsSumToZeroBareKingLoses) { randomGames({"bare-king=loses"}, 12, 1000, true); }
TEST(FourSeasons, RandomGamesCoinsSumToZeroWithDie) {
  randomGames({"die=on", "takeover=no", "bare-king=loses"}, 12, 1000, true);
}

// ---------------------------------------------------------------------------
// The die

TEST(FourSeasons, DieFacesChooseTheKind) {
  const auto r = fsRules({"die=on"});
  std::map<int, char> faces;
  for (const auto& f : r->die) faces[f.face] = r->types[f.type].letter;
  EXPECT_EQ(faces, (std::map<int, char>{{6, 'K'}, {5, 'F'}, {4, 'R'}, {3, 'N'}, {2, 'A'}, {1, 'P'}}));
  EXPECT_TRUE(rules("four-seasons")->die.empty());
}

TEST(FourSeasons, DieOnlyThatKindMovesAndTheGameReplays) {
  const auto r = fsRules({"die=on"});
  Game a(r, 42);
  std::mt19937 rng(5);
  std::vector<std::string> texts;
  std::vector<int> throws;
  int lost = 0;
  for (int ply = 0; ply < 80 && !a.finished(); ++ply) {
    const int t = a.currentThrow();
    ASSERT_GE(t, 1);
    ASSERT_LE(t, 6);
    throws.push_back(t);
    const auto moves = a.legalMoves();
    ASSERT_FALSE(moves.empty());
    if (moves.size() == 1 && moves[0].isNull()) {
      ++lost;
      // No piece of the thrown kind has a legal move.
      MoveList all;
      a.positionForSearch().legalMoves(all);
      for (Move m : all) EXPECT_NE(typeOf(a.position().at(m.from())), a.currentThrowType());
    } else {
      for (Move m : moves) EXPECT_EQ(typeOf(a.position().at(m.from())), a.currentThrowType());
    }
    const Move m = moves[rng() % moves.size()];
    texts.push_back(a.position().moveText(m));
    ASSERT_TRUE(a.play(m).ok());
    EXPECT_EQ(a.record().back().dieFace, t);
    EXPECT_EQ(a.record().back().move, texts.back());
  }
  EXPECT_GT(lost, 0);
  // Same seed, same moves: the same throws.
  Game b(r, 42);
  for (size_t i = 0; i < texts.size(); ++i) {
    ASSERT_EQ(b.currentThrow(), throws[i]) << "ply " << i;
    ASSERT_TRUE(b.play(texts[i]).ok()) << texts[i];
  }
  EXPECT_EQ(b.position().text(), a.position().text());
  EXPECT_EQ(b.coins(), a.coins());
  for (size_t i = 0; i < texts.size(); ++i) EXPECT_EQ(b.record()[i].dieFace, a.record()[i].dieFace);
  // Another seed throws differently.
  std::vector<int> other;
  Game c(r, 43);
  for (size_t i = 0; i < 20 && !c.finished(); ++i) {
    other.push_back(c.currentThrow());
    ASSERT_TRUE(c.play(c.legalMoves()[0]).ok());
  }
  EXPECT_NE(other, std::vector<int>(throws.begin(), throws.begin() + other.size()));
}

// The first seed (from 1) whose first throw in `fen` satisfies `pred`.
template <class Pred>
uint64_t findSeed(const std::string& fen, const std::vector<std::string>& opts, Pred pred) {
  for (uint64_t seed = 1; seed < 2000; ++seed) {
    Game g = game(fen, opts, seed);
    if (pred(g)) return seed;
  }
  ADD_FAILURE() << "no seed found";
  return 1;
}

TEST(FourSeasons, DieLostTurnWhenNoPieceOfThatKindCanMove) {
  const std::string start = fsRules()->start;
  const uint64_t seed = findSeed(start, {"die=on"}, [](Game& g) { return g.currentThrow() == 5; });
  Game g = game(start, {"die=on"}, seed);
  ASSERT_EQ(g.currentThrow(), 5);  // a ferz: Green has none
  EXPECT_EQ(gameMoves(g), (V{"0000"}));
  EXPECT_FALSE(g.play("a6a5").ok());
  PLAY(g, "0000");
  ASSERT_EQ(g.record().size(), 1u);
  EXPECT_EQ(g.record()[0].move, "0000");
  EXPECT_EQ(g.record()[0].seat, G);
  EXPECT_EQ(g.record()[0].dieFace, 5);
  EXPECT_EQ(g.position().toMove(), R);
  EXPECT_EQ(g.position().fifty(), 1);  // a lost turn counts as a ply

  // A pawn throw allows exactly the pawn steps.
  const uint64_t pawnSeed = findSeed(start, {"die=on"}, [](Game& g2) { return g2.currentThrow() == 1; });
  Game p = game(start, {"die=on"}, pawnSeed);
  EXPECT_EQ(gameMoves(p), (V{"a6a5", "b6b5", "c7d7", "c8d8"}));
  EXPECT_FALSE(p.play("0000").ok());
}

TEST(FourSeasons, DieLostTurnCountsTowardsFifty) {
  std::string start = fsRules()->start;
  start.replace(start.find("-0-1-"), 5, "-199-1-");
  const uint64_t seed = findSeed(start, {"die=on"}, [](Game& g) { return g.currentThrow() == 5; });
  Game g = game(start, {"die=on"}, seed);
  PLAY(g, "0000");
  EXPECT_TRUE(g.finished());
  EXPECT_EQ(g.drawReasonKind(), DrawReason::kFiftyMoves);
}

TEST(FourSeasons, DieLostTurnsRepeatThePositionIntoADraw) {
  // A lost turn is a ply and the throw is no part of the position: two
  // rounds of lost turns from the start bring the placement, the seat to
  // move and the seats in back a third time, a draw before any move.
  const std::string start = fsRules()->start;
  const uint64_t seed = findSeed(start, {"die=on"}, [](Game& g) {
    for (int ply = 0; ply < 8; ++ply)
      if (g.finished() || gameMoves(g) != V{"0000"} || !g.play("0000").ok()) return false;
    return true;
  });
  Game g = game(start, {"die=on"}, seed);
  for (int ply = 0; ply < 8; ++ply) {
    EXPECT_FALSE(g.finished()) << "ply " << ply;
    PLAY(g, "0000");
  }
  EXPECT_TRUE(g.finished());
  EXPECT_EQ(g.drawReasonKind(), DrawReason::kRepetition);
  EXPECT_EQ(g.position().places(), (Places{1, 1, 1, 1}));
}

// Red to move, in check from Black's rook a8 on the a-file; only its king can answer.
const std::map<std::string, std::string> kRedInCheck = {{"d5", "gK"}, {"a1", "rK"}, {"h2", "rN"},
                                                        {"h8", "bK"}, {"a8", "bR"}, {"e7", "wK"}};

TEST(FourSeasons, DieSeatInCheckThatCannotAnswerLosesItsTurnAndItsKing) {
  const std::string fen = fs('r', kRedInCheck);
  const uint64_t seed = findSeed(fen, {"die=on"}, [](Game& g) {
    if (g.currentThrow() == 6) return false;
    if (!g.play("0000").ok()) return false;
    return g.currentThrow() == 4;
  });
  Game g = game(fen, {"die=on"}, seed);
  EXPECT_TRUE(g.position().isIn(R));  // not mated: its king could move
  EXPECT_TRUE(g.position().inCheck(R));
  EXPECT_EQ(gameMoves(g), (V{"0000"}));
  PLAY(g, "0000");
  ASSERT_EQ(g.currentThrow(), 4);  // Black's rook
  EXPECT_TRUE(gameHas(g, "a8a1"));
  PLAY(g, "a8a1");
  const Position& p = g.position();
  EXPECT_FALSE(p.isIn(R));
  EXPECT_EQ(p.lastEvents().outs[0].reason, OutReason::kKingCaptured);
  EXPECT_EQ(cell(p, "h2"), "bN");
  EXPECT_EQ(g.coins(), (Coins{0, -2, 2, 0}));
  EXPECT_EQ(p.toMove(), W);
}

TEST(FourSeasons, DieNeverDecidesMateOrStalemate) {
  const std::string inCheck = fs('r', kRedInCheck);
  const std::string mated = fs('r', {{"d6", "gK"}, {"d3", "gN"}, {"a1", "rK"}, {"f8", "bK"}, {"a8", "bR"},
                                     {"h5", "wK"}, {"h1", "wR"}});
  const std::string stalemated = fs('r', kRedStalemated);
  for (uint64_t seed = 1; seed <= 24; ++seed) {
    SCOPED_TRACE(seed);
    Game a = game(inCheck, {"die=on"}, seed);
    EXPECT_TRUE(a.position().isIn(R));
    if (a.currentThrow() == 6) EXPECT_EQ(gameMoves(a), (V{"a1b1", "a1b2"}));
    else EXPECT_EQ(gameMoves(a), (V{"0000"}));
    Game b = game(mated, {"die=on"}, seed);
    EXPECT_FALSE(b.position().isIn(R));
    EXPECT_EQ(b.position().lastEvents().outs[0].reason, OutReason::kMated);
    EXPECT_EQ(b.record().size(), 0u);
    EXPECT_NE(b.currentThrow(), 0);  // the throw is Black's, after the mate
    Game c = game(stalemated, {"die=on"}, seed);
    EXPECT_FALSE(c.position().isIn(R));
    EXPECT_EQ(c.position().lastEvents().outs[0].reason, OutReason::kStalemated);
  }
}

}  // namespace
}  // namespace acedrex::test
