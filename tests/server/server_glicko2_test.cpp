// Glicko-2 against the worked example of Glickman's paper ("Example of the
// Glicko-2 system", tau = 0.5) and the bounds Acedrex adds.
#include <gtest/gtest.h>

#include <cmath>

#include "server/app/glicko2.h"

namespace acedrex::server::glicko2 {
namespace {

TEST(Glicko2, MatchesThePapersExample) {
  const Rating player{1500, 200, 0.06};
  const std::vector<Game> games = {
      {Rating{1400, 30, 0.06}, 1}, {Rating{1550, 100, 0.06}, 0}, {Rating{1700, 300, 0.06}, 0}};
  const Rating r = update(player, games, 0.5);
  EXPECT_NEAR(r.rating, 1464.06, 0.01);
  EXPECT_NEAR(r.deviation, 151.52, 0.01);
  EXPECT_NEAR(r.volatility, 0.05999, 0.00001);
}

TEST(Glicko2, APeriodWithoutGamesOnlyWidensTheDeviation) {
  const Rating r = update(Rating{1600, 100, 0.06}, {});
  EXPECT_EQ(r.rating, 1600);
  EXPECT_NEAR(r.deviation, 173.7178 * std::sqrt(std::pow(100 / 173.7178, 2) + 0.06 * 0.06), 1e-9);
  EXPECT_EQ(r.volatility, 0.06);
}

TEST(Glicko2, OneGameBetweenNewPlayers) {
  const Rating fresh;
  const Rating win = afterGame(fresh, fresh, 1), loss = afterGame(fresh, fresh, 0), draw = afterGame(fresh, fresh, 0.5);
  EXPECT_GT(win.rating, 1600);
  EXPECT_NEAR(win.rating - 1500, 1500 - loss.rating, 1e-9) << "symmetric";
  EXPECT_NEAR(draw.rating, 1500, 1e-9);
  EXPECT_LT(win.deviation, 350);
  EXPECT_TRUE(provisional(win));
  EXPECT_FALSE(provisional(Rating{1500, 110, 0.06}));
}

TEST(Glicko2, TheDeviationStaysWithinItsBounds) {
  Rating r{1500, 46, 0.06};
  for (int i = 0; i < 200; ++i) r = afterGame(r, Rating{1500, 45, 0.06}, i % 2);
  EXPECT_GE(r.deviation, kMinDeviation);
  EXPECT_LE(afterGame(Rating{1500, 350, 0.5}, Rating{1500, 350, 0.06}, 1).deviation, kMaxDeviation);
}

}  // namespace
}  // namespace acedrex::server::glicko2
