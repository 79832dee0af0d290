#include "server/app/glicko2.h"

#include <algorithm>
#include <cmath>

namespace acedrex::server::glicko2 {
namespace {

constexpr double kScale = 173.7178;  // the Glicko-2 scale: mu = (r - 1500) / kScale
constexpr double kEpsilon = 0.000001;  // the convergence bound of step 5
constexpr double kPi = 3.14159265358979323846;

double g(double phi) { return 1.0 / std::sqrt(1.0 + 3.0 * phi * phi / (kPi * kPi)); }
double expected(double mu, double muJ, double phiJ) { return 1.0 / (1.0 + std::exp(-g(phiJ) * (mu - muJ))); }

// Step 5: the new volatility, by the Illinois algorithm.
double newVolatility(double phi, double sigma, double v, double delta, double tau) {
  const double a = std::log(sigma * sigma);
  auto f = [&](double x) {
    const double ex = std::exp(x);
    const double d = phi * phi + v + ex;
    return ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau);
  };
  double A = a, B;
  if (delta * delta > phi * phi + v) {
    B = std::log(delta * delta - phi * phi - v);
  } else {
    int k = 1;
    while (f(a - k * tau) < 0) ++k;
    B = a - k * tau;
  }
  double fA = f(A), fB = f(B);
  for (int i = 0; i < 100 && std::abs(B - A) > kEpsilon; ++i) {
    const double C = A + (A - B) * fA / (fB - fA);
    const double fC = f(C);
    if (fC * fB <= 0) {
      A = B;
      fA = fB;
    } else {
      fA /= 2;
    }
    B = C;
    fB = fC;
  }
  return std::exp(A / 2);
}

}  // namespace

Rating update(const Rating& player, const std::vector<Game>& games, double tau) {
  // Step 2: to the Glicko-2 scale.
  const double mu = (player.rating - 1500) / kScale;
  const double phi = player.deviation / kScale;
  const double sigma = player.volatility;
  if (games.empty()) return Rating{player.rating, kScale * std::sqrt(phi * phi + sigma * sigma), sigma};
  // Steps 3 and 4: the estimated variance v and improvement delta.
  double vInv = 0, sum = 0;
  for (const Game& game : games) {
    const double muJ = (game.opponent.rating - 1500) / kScale;
    const double phiJ = game.opponent.deviation / kScale;
    const double e = expected(mu, muJ, phiJ);
    vInv += g(phiJ) * g(phiJ) * e * (1 - e);
    sum += g(phiJ) * (game.score - e);
  }
  const double v = 1 / vInv;
  const double delta = v * sum;
  // Steps 5 to 7: volatility, pre-period deviation, new deviation and rating.
  const double sigma2 = newVolatility(phi, sigma, v, delta, tau);
  const double phiStar = std::sqrt(phi * phi + sigma2 * sigma2);
  const double phi2 = 1 / std::sqrt(1 / (phiStar * phiStar) + 1 / v);
  const double mu2 = mu + phi2 * phi2 * sum;
  // Step 8: back to the Glicko scale.
  return Rating{kScale * mu2 + 1500, kScale * phi2, sigma2};
}

Rating afterGame(const Rating& player, const Rating& opponent, double score) {
  Rating r = update(player, {Game{opponent, score}}, kTau);
  r.deviation = std::clamp(r.deviation, kMinDeviation, kMaxDeviation);
  return r;
}

}  // namespace acedrex::server::glicko2
