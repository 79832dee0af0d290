// The Texel tuner's logic (tools/tune): extracting from PGN records (read
// by core's readPgn) quiet positions with the game results, and fitting the evaluation
// parameters to them. main.cpp is the thin command line around it; the tests
// call these functions directly. See docs/tuning.md.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/records/pgn.h"
#include "core/position/position.h"
#include "core/base/result.h"
#include "core/variant/variant.h"
#include "engine/eval.h"

namespace acedrex::tune {

// ---- Extraction -----------------------------------------------------------

// One training position: position text and the game's result from White's
// (seat 0's) view: 1 a win, 0.5 a draw, 0 a loss.
struct Sample {
  std::string position;
  double result = 0.5;
  int line = 0;  // the line in the data file (0: not from a file)
};

struct ExtractOptions {
  int skipPlies = 8;      // positions before this ply of the record are not used
  bool quietOnly = true;  // drop checks, positions after a capture or promotion, and winning captures
};

struct ExtractStats {
  int games = 0;            // games read
  int gamesUsed = 0;        // games replayed and used
  int gamesSkipped = 0;     // other variant, no result, more than two seats, or a move that did not replay
  int positions = 0;        // positions seen in the games used
  int early = 0, finished = 0, inCheck = 0, afterCapture = 0, winningCapture = 0, duplicates = 0;
  int kept = 0;
  std::vector<std::string> warnings;  // why games were skipped (the first few)
};

// Replays the games of `variant` ([VariantName] or [Variant], see pgnVariant;
// moves in the engine's move text) and returns the quiet positions, each once
// (the first occurrence, by the position's hash), with their games' results.
// The variant's options come from each game's [VariantOptions] tag.
std::vector<Sample> extractSamples(const VariantRegistry& registry, const std::string& variant,
                                   const std::vector<PgnGame>& games, const ExtractOptions& options,
                                   ExtractStats& stats);

// The data file: '#' comments, and "POSITION ; RESULT" lines with RESULT one
// of 1, 0.5, 0 (White's view; 1-0, 1/2-1/2 and 0-1 are read too).
std::string formatSamples(const std::vector<Sample>& samples, const std::string& header);
Result<std::vector<Sample>> parseSamples(const std::string& text, const std::string& source);

// ---- Tuning ---------------------------------------------------------------

// The positions set up once, for evaluating many parameter sets.
class Dataset {
 public:
  static Result<Dataset> build(std::shared_ptr<const Rules> rules, const std::vector<Sample>& samples,
                               const std::string& source = "data");
  size_t size() const { return positions_.size(); }
  const std::shared_ptr<const Rules>& rules() const { return rules_; }
  // The evaluation of every position from White's (seat 0's) view.
  std::vector<int> whiteEvals(const engine::Evaluator& evaluator, int threads = 1) const;
  // Mean squared error between the results and sigmoid(k * eval).
  double error(const std::vector<int>& evals, double k) const;
  double error(const engine::EvalParams& params, double k, int threads = 1) const;

 private:
  std::shared_ptr<const Rules> rules_;
  std::vector<Position> positions_;
  std::vector<double> results_;
};

// 1 / (1 + exp(-k * eval)), the expected score of an evaluation in centipawns.
double sigmoid(double k, double eval);

// The k that minimises the error for the given evaluations.
double fitK(const Dataset& data, const std::vector<int>& evals);

// A readable name per entry of EvalParams::tunables() (same order), derived
// from the text toText writes: "piece Q 1" is the first number of the piece line.
std::vector<std::string> tunableNames(const engine::EvalParams& params, const std::string& variant);

struct TuneOptions {
  double k = 0;          // 0: fit k first
  int maxPasses = 100;   // passes over all parameters
  int maxStep = 32;      // the largest first step of a parameter
  int threads = 1;
  // Parameters left as they are: names as tunableNames gives them, '*' matching any text
  // ("piece *:1" freezes every piece value).
  std::vector<std::string> freeze;
  std::ostream* log = nullptr;  // progress, one line per pass
};

// Whether a name matches a pattern in which '*' matches any text.
bool matchesPattern(const std::string& name, const std::string& pattern);

struct TuneReport {
  double k = 0;
  double errorBefore = 0, errorAfter = 0;
  int passes = 0;
  int trials = 0;  // parameter sets evaluated
  bool converged = false;
};

// Texel local search: each parameter in turn is moved by its step while that
// lowers the error (the stride doubling after each success, back to the step
// after a failure); a parameter whose step helps in neither direction has its
// step halved; the search ends when every step is 1 and no move helps, or
// after maxPasses. Deterministic. `params` is changed in place.
TuneReport tune(const Dataset& data, engine::EvalParams& params, const TuneOptions& options);

}  // namespace acedrex::tune
