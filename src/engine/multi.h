// Search for more than two seats, from the root seat's view.
//
// - BRS+ (Best-Reply Search with the other opponents playing their first
//   ordered move, Esser et al. 2013) on a paranoid backbone: the root seat's
//   move, then one layer in which the strongest single reply of any opponent
//   is chosen while the others play their best-ordered move.
// - Paranoid: every opponent minimises the root seat's score in turn order.
// - Max^n: every seat maximises its own score (shallow-pruning free).
// A seat without a legal move is mated or stalemated at its turn start, as
// in the game; the evaluation counts armies a mate hands over because the
// position after the takeover already has them recoloured. Results are
// decided by places, not coins. With a die, later throws are chance nodes
// (expectimax over the faces, on the paranoid backbone).
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <random>
#include <vector>

#include "engine/bot.h"
#include "engine/eval.h"
#include "engine/search.h"
#include "engine/search_util.h"
#include "engine/tt.h"

namespace acedrex::engine {

enum class MultiAlgorithm { kBrsPlus, kParanoid, kMaxN };

class MultiSearch {
 public:
  MultiSearch(std::shared_ptr<const Rules> rules, const Evaluator& eval, SearchConfig config,
              MultiAlgorithm algorithm);
  SearchResult run(const Game& game, const SearchLimits& limits, std::atomic<bool>& stop,
                   const std::function<void(const SearchInfo&)>& onInfo);

 private:
  using Vec = std::array<int, kMaxSeats>;
  int paranoid(int depth, int alpha, int beta, int ply);
  int brs(int depth, int alpha, int beta, int ply);
  int chance(int depth, int alpha, int beta, int ply);
  Vec maxn(int depth, int ply);
  int quiesce(int alpha, int beta, int ply, int qdepth);
  int terminalScore(int ply) const;
  Vec terminalVec(int ply) const;
  Vec evalVec() const;
  // Moves for the seat to move; applies turn starts until someone can move.
  // Returns the number of turn-start records pushed (to undo).
  int settle();
  bool legalOrdered(MoveList& list, int ply);
  Move firstOrdered(int ply);
  bool timeUp();
  bool isCapture(Move m) const;

  std::shared_ptr<const Rules> rules_;
  const Evaluator& eval_;
  SearchConfig config_;
  MultiAlgorithm algo_;
  TranspositionTable tt_;
  Position pos_;
  int root_ = 0;
  uint64_t nodes_ = 0;
  int selDepth_ = 0;
  SearchLimiter limiter_;
  bool stopped_ = false;
  std::vector<int> history_;
  std::mt19937_64 rng_;
};

}  // namespace acedrex::engine
