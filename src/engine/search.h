// Two-seat search: iterative deepening PVS alpha-beta with a transposition
// table, quiescence search, null move, late-move reductions, killer and
// history ordering, aspiration windows, check extensions and mate scores.
// With a die, the current throw restricts the root and later throws are
// chance nodes (expectimax over the faces).
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <random>
#include <vector>

#include "engine/bot.h"
#include "engine/eval.h"
#include "engine/search_util.h"
#include "engine/tt.h"

namespace acedrex::engine {

constexpr int kMate = 30000;
constexpr int kInf = 32000;
constexpr int kMateBound = kMate - 1000;
constexpr int kMaxPly = 128;
constexpr int kHistoryMax = 16384;  // history scores stay within +/- this

struct SearchConfig {
  int maxDepth = kMaxPly - 8;
  uint64_t maxNodes = 0;   // 0: none
  int noise = 0;           // centipawns of root noise (strength levels)
  uint64_t seed = 1;
  bool chanceNodes = true; // with a die: search later throws as chance nodes
  size_t ttMegabytes = 32;
};

// Time budget from the clock.
struct TimeBudget {
  int softMs = 0;  // 0: no limit
  int hardMs = 0;
};
TimeBudget budgetFor(const SearchLimits& limits, int seat);

// The mean of a chance node's face values, taken over winning chances (see search.cpp).
class FaceAverage {
 public:
  void add(int score, double weight = 1.0);
  int value() const;

 private:
  double weight_ = 0, wins_ = 0, losses_ = 0, mateSum_ = 0, chance_ = 0;
};

class Search {
 public:
  Search(std::shared_ptr<const Rules> rules, const Evaluator& eval, SearchConfig config);
  SearchResult run(const Game& game, const SearchLimits& limits, std::atomic<bool>& stop,
                   const std::function<void(const SearchInfo&)>& onInfo);
  void clear();

 private:
  int negamax(int depth, int alpha, int beta, int ply, bool allowNull);
  int chance(int depth, int alpha, int beta, int ply);
  bool isChanceNode(int ply) const;
  int kingCaptureAtHorizon(int ply, int evasionFaces);
  int qsearch(int alpha, int beta, int ply, int qdepth);
  int terminalScore(int ply) const;
  bool isRepetition() const;
  // Scores the moves for ordering; testExchanges: score the captures that lose
  // their exchange after the quiet moves (else pickMove finds them when it reaches them).
  void scoreMoves(const MoveList& list, Move ttMove, int ply, int* scores, bool testExchanges) const;
  // Scores and sorts the whole list, the losing captures after the quiet moves (the root, chance nodes).
  void orderMoves(MoveList& list, Move ttMove, int ply, int* scores) const;
  // Brings the next move to list[k]: the best-scored one, a capture that loses its exchange
  // being moved to the losing band when it comes up. Once no capture is left to test, the
  // rest is sorted at once and `sorted` set, after which the list is already in order.
  void pickMove(MoveList& list, int* scores, int k, bool& sorted) const;
  int losingCaptureScore(Move m) const;
  bool isCapture(Move m) const;
  bool timeUp();
  int evaluate();
  std::vector<Move> extractPv(Move first);

  std::shared_ptr<const Rules> rules_;
  const Evaluator& eval_;
  SearchConfig config_;
  TranspositionTable tt_;
  Position pos_;
  std::vector<uint64_t> stack_;  // hashes of the game and the search path
  Move killers_[kMaxPly][2];
  std::vector<int> history_;     // [seat][from][to]
  int evalAt_[kMaxPly + 8];      // the static score at each ply (-kInf in check)
  struct EvalSlot {
    uint64_t key = 0;
    int score = 0;
  };
  std::vector<EvalSlot> evalCache_;
  uint64_t nodes_ = 0;
  int selDepth_ = 0;
  SearchLimiter limiter_;
  bool stopped_ = false;
  std::mt19937_64 rng_;
};

}  // namespace acedrex::engine
