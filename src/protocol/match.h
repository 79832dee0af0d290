// The match runner: N games between engine configurations (our levels, or
// external UCI engines for two-seat games), any number of seats with the
// seats rotated, from a file of opening positions, in parallel; PGN/PGN4
// records; scores, Elo with a 95% interval and an SPRT verdict.
#pragma once

#include <iosfwd>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/base/result.h"
#include "core/variant/variant.h"
#include "engine/eval.h"

namespace acedrex::protocol {

struct EngineSpec {
  std::string label;
  int level = 9;
  std::string algorithm = "brs";   // brs | paranoid | maxn (many seats)
  bool chanceNodes = true;          // with a die: throws as chance nodes (false: as if free)
  std::shared_ptr<const engine::EvalParams> params;  // params=FILE: evaluation parameters (null: built in)
  std::string uciPath;              // external UCI engine (two seats)
  std::vector<std::pair<std::string, std::string>> uciOptions;
};

// Parses "level=4,algo=paranoid,chance=off,params=FILE" or "uci=/usr/games/fairy-stockfish,UCI_Elo=2000,...".
Result<EngineSpec> parseEngineSpec(const std::string& text);

struct MatchConfig {
  std::string variant;
  std::vector<std::string> options;
  std::vector<EngineSpec> engines;  // one per seat (rotated game by game), or two for a duel
  int games = 10;
  int moveTimeMs = 0;               // per move; or a clock:
  int baseMs = 0, incMs = 0;
  int depth = 0, nodes = 0;         // alternatively fixed depth/nodes per move
  std::vector<std::string> openings;  // position texts; empty: the start
  int concurrency = 1;
  std::string pgnPath;
  bool sprt = false;
  double elo0 = 0, elo1 = 10;
  uint64_t seed = 1;
  int maxPlies = 600;
  // Two seats: a game is given to a side when both engines have scored it at
  // least resignCp ahead for resignMoves moves in a row each (0: never).
  int resignCp = 0, resignMoves = 0;
};

struct EngineScore {
  std::string label;
  double points = 0;   // 1 a sole first place, shared first places share the point
  int games = 0, wins = 0, draws = 0, losses = 0;
  double placeSum = 0;
  std::vector<double> perGame;
};

// Head to head between two engine names in a game of more than two seats:
// every pair of seats (a, b) with a held by an engine of the first name and b
// by one of the second scores 1 if a placed better than b, 1/2 if they share
// a place and 0 if a placed worse. `places[s]` is seat s's place (1 = first,
// shared places share a number), `side[s]` 0 for the first name's seats, 1
// for the second's, anything else for neither.
struct PairScore {
  double points = 0;
  int pairs = 0;
};
PairScore pairwiseScore(const std::vector<int>& places, const std::vector<int>& side);

// The first engine name against another over a match (games of more than two
// seats): the pairs summed over the games, and each game's mean pair score.
struct HeadToHead {
  std::string first, second;
  double points = 0;
  int pairs = 0;
  std::vector<double> perGame;  // games with at least one pair
};

// The mean of per-game samples with a 95% interval from their spread (mean
// +/- 1.96 sample standard deviations over the root of the count, clamped to
// [0, 1]). Fewer than two samples: the interval is 0 to 1. Samples that are
// all equal give an interval of width 0.
struct MeanInterval {
  double mean = 0, low = 0, high = 1, sd = 0;
};
MeanInterval meanInterval(const std::vector<double>& xs);

struct MatchReport {
  std::vector<EngineScore> scores;
  std::vector<HeadToHead> headToHead;  // more than two seats: the first name against each other name
  double elo = 0, eloLow = 0, eloHigh = 0;  // engine 0 against the rest
  double llr = 0;
  std::string sprtVerdict;  // "H1 accepted", "H0 accepted", "continue"
};

// Engine 0's Elo against the rest from its points in each game, where an
// equal engine scores `share` a game (1/2 in a two-seat game): the estimate
// and a 95% interval. The interval is a Wilson score interval on the
// two-player-equivalent score, with the binomial variance scaled by the spread
// the games show (draws narrow it), so that a perfect or a zero score still has
// a finite bound on one side; the other side and the estimate are then
// +/-infinity.
struct EloEstimate {
  double elo = 0, low = 0, high = 0;
};
EloEstimate estimateElo(const std::vector<double>& perGame, double share);

Result<MatchReport> runMatch(const VariantRegistry& registry, const MatchConfig& config, std::ostream& log);
void printReport(const MatchReport& report, const MatchConfig& config, std::ostream& out);

}  // namespace acedrex::protocol
