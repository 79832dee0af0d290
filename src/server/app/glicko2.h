// Glicko-2 ratings (Mark Glickman, "Example of the Glicko-2 system", 2012):
// a pure function from a player's rating and the games of one rating period
// to the new rating. Acedrex rates each game as a period of its own, as
// lichess does, per game (variant) and player.
//
// The choices (docs/server.md, "Ratings"): a new player starts at 1500 with a
// deviation of 350 and a volatility of 0.06; tau (how fast the volatility
// may change) is 0.75; the deviation stays within 45..350; a rating is
// provisional while its deviation is over 110.
#pragma once

#include <vector>

namespace acedrex::server::glicko2 {

struct Rating {
  double rating = 1500;
  double deviation = 350;
  double volatility = 0.06;
};

struct Game {
  Rating opponent;  // the opponent's rating before the game
  double score;     // 1 a win, 0.5 a draw, 0 a loss
};

constexpr double kTau = 0.75;
constexpr double kMinDeviation = 45;
constexpr double kMaxDeviation = 350;
constexpr double kProvisionalDeviation = 110;

// The rating after one period with `games` (none: only the deviation grows),
// computed as the paper's steps 2 to 8, without clamping.
Rating update(const Rating& player, const std::vector<Game>& games, double tau = kTau);

// Acedrex's update after one game: update() with kTau, the deviation kept within kMinDeviation..kMaxDeviation.
Rating afterGame(const Rating& player, const Rating& opponent, double score);

inline bool provisional(const Rating& r) { return r.deviation > kProvisionalDeviation; }

}  // namespace acedrex::server::glicko2
