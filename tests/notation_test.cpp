// Position text round trips (FEN for two seats, the FEN4-like line for four),
// over seeded random games, and bad text that must change nothing.
#include <random>

#include "test_util.h"

namespace acedrex::test {
namespace {

// Plays random legal moves; after each, the text must read back to the same
// text and the same hash (placement, seat to move, seats in, rights).
void roundTrips(const std::string& variant, const std::vector<std::string>& options, uint32_t seed, int plies) {
  auto r = rules(variant, options);
  Game g(r, seed);
  std::mt19937 rng(seed);
  for (int i = 0; i < plies && !g.finished(); ++i) {
    const auto moves = g.legalMoves();
    ASSERT_FALSE(moves.empty());
    ASSERT_TRUE(g.play(moves[rng() % moves.size()]).ok());
    const std::string text = g.position().text();
    Position back(r);
    auto s = back.set(text);
    ASSERT_TRUE(s.ok()) << s.error().text();
    EXPECT_EQ(back.text(), text) << variant << " ply " << i;
    if (!g.finished()) {
      EXPECT_EQ(back.hash(), g.position().hash()) << variant << " ply " << i << " " << text;
    }
    std::string why;
    EXPECT_TRUE(g.position().isValid(&why)) << why;
  }
}

TEST(Notation, RoundTripsShako) { roundTrips("shako", {}, 1, 120); }
TEST(Notation, RoundTripsGrantAcedrex) { roundTrips("grant-acedrex", {}, 2, 120); }
TEST(Notation, RoundTripsFourSeasons) {
  for (uint32_t seed : {3u, 4u, 5u}) roundTrips("four-seasons", {}, seed, 200);
}
TEST(Notation, RoundTripsFourSeasonsWithoutTakeover) { roundTrips("four-seasons", {"takeover=no"}, 6, 200); }
TEST(Notation, RoundTripsJoko) {
  for (uint32_t seed : {7u, 8u}) roundTrips("joko-urtaroak", {}, seed, 200);
}

TEST(Notation, BadFourPlayerTextChangesNothing) {
  Position p = position("joko-urtaroak");
  const std::string before = p.text();
  const std::string board = before.substr(before.rfind('-') + 1);
  for (const std::string& bad : std::vector<std::string>{"", "g", "z-grbw-*-0-1-" + board, "g-grbw-*-x-1-10/10",
        "g-grbw-K-0-1-" + board,
        // a pawn without its direction
        "g-grbw-*-0-1-wK,1,wN,wP,2,bPw,bR,1,bK/1,wG,wE,wPe,2,bPw,bE,bG,1/wR,wE,wB,4,bB,bE,bN/"
        "wPs,wPs,1,x,x,x,x,1,bPs,bPs/3,x,x,x,x,3/3,x,x,x,x,3/gPn,gPn,1,x,x,x,x,1,rPn,rPn/"
        "gN,gE,gB,4,rB,rE,rR/1,gG,gE,gPe,2,rPw,rE,rG,1/gK,1,gR,gPe,2,rPw,rN,1,rK",
        // a piece on a blocked square
        "g-grbw-*-0-1-wK,9/10/10/3,gR,x,x,x,3/3,x,x,x,x,3/3,x,x,x,x,3/3,x,x,x,x,3/10/10/gK,2,rK,2,bK,3",
        // a run of empty squares through the blocked centre
        "g-grbw-*-0-1-wK,9/10/10/10/3,x,x,x,x,3/3,x,x,x,x,3/3,x,x,x,x,3/10/10/gK,2,rK,2,bK,3"}) {
    EXPECT_FALSE(p.set(bad).ok()) << bad;
    EXPECT_EQ(p.text(), before);
  }
}

// Each step of Position::set names what it refused; the whole text is the location.
TEST(Notation, EachSetupStepNamesItsError) {
  const std::string start = "c8c/ernbqkbnre/pppppppppp/10/10/10/10/PPPPPPPPPP/ERNBQKBNRE/C8C";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"  ", "empty position"},
      {start, "expected the board and the side to move"},
      {start + " w KQkq - 0 1 x", "unexpected text \"x\""},
      {"10/10 w", "expected 10 ranks, found 2"},
      {"c8c/ernbqkbnre/pppppppppp/10/10/10/10/PPPPPPPPPP/ERNBQKBNRE/C10 w", "rank 1 is too long"},
      {"c8c/ernbqkbnre/pppppppppp/10/10/10/10/PPPPPPPPPP/ERNBQKBNRE/C8 w", "rank 1 has 9 squares, not 10"},
      {"c8c/ernbqkbnre/pppppppppp/10/10/10/10/PPPPPPPPPP/ERNBQKBNRX/C8C w", "unknown piece 'X'"},
      {start + " x", "the side to move is w or b, not \"x\""},
      {start + " w KZ", "unknown castling right 'Z'"},
      {start + " w KQkq j1", "bad en-passant square \"j1\""},
      {start + " w KQkq - a 1", "the move counters must be numbers"},
      {"c8c/ernbq1bnre/pppppppppp/10/10/10/10/PPPPPPPPPP/ERNBQKBNRE/C8C w", "the black seat needs exactly one king"},
      {"c7Pc/ernbqkbnre/pppppppppp/10/10/10/10/PPPPPPPPP1/ERNBQKBNRE/C8C w", "a pawn on its last square at i10"},
      {"4k5/4R5/10/10/10/10/10/10/10/4K5 b", ""},
      {"4k5/4R5/10/10/10/10/10/10/10/4K5 w", "the side not to move is in check"},
  };
  Position p = position("shako");
  const std::string before = p.text();
  for (const auto& [text, why] : cases) {
    const Status s = p.set(text);
    if (why.empty()) {
      EXPECT_TRUE(s.ok()) << text << ": " << s.error().text();
      ASSERT_TRUE(p.set(before).ok());
      continue;
    }
    ASSERT_FALSE(s.ok()) << text;
    EXPECT_EQ(s.error().code, "fen");
    EXPECT_EQ(s.error().message, why) << text;
    EXPECT_EQ(s.error().location, "position \"" + text + "\"");
    EXPECT_EQ(p.text(), before) << text;
  }
  Position four = position("joko-urtaroak");
  for (const auto& [text, why] : std::vector<std::pair<std::string, std::string>>{
           {"g-grbw-*-0-1", "expected 6 fields separated by '-': to-move, seats in, rights, fifty, ply, board"},
           {"z-grbw-*-0-1-10", "unknown seat to move \"z\""},
           {"g-grqw-*-0-1-10", "unknown seat 'q' among the seats in"},
           {"g-rbw-*-0-1-10", "the seat to move is not in"},
           {"g-grbw-K-0-1-10", "this variant has no rights; write *"},
           {"g-grbw-*-x-1-10", "the counters must be numbers"},
           {"g-grbw-*-0-1-10", "expected 10 ranks, found 1"}}) {
    const Status s = four.set(text);
    ASSERT_FALSE(s.ok()) << text;
    EXPECT_EQ(s.error().message, why) << text;
  }
}

}  // namespace
}  // namespace acedrex::test
