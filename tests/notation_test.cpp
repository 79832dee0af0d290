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

}  // namespace
}  // namespace acedrex::test
