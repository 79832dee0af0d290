// What the two-seat search (Search) and the many-seat search (MultiSearch)
// share: the transposition table and its mate-distance scores, node counting
// and limits, the path's hashes for repetitions, killer and history tables,
// the move-ordering bands, the quiescence search's moves, the root's setup,
// noise and order between iterations, and the report of each iteration.
// No virtual functions: each search calls these helpers from its own nodes.
#pragma once

#include <atomic>
#include <cstdint>
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
constexpr int kHistoryMax = 16384;  // the two-seat history scores stay within +/- this

struct SearchConfig {
  int maxDepth = kMaxPly - 8;
  uint64_t maxNodes = 0;  // 0: none
  int noise = 0;          // centipawns of root noise (strength levels)
  uint64_t seed = 1;
  bool chanceNodes = true;  // with a die: search later throws as chance nodes
  size_t ttMegabytes = 32;
};

// Time budget from the clock.
struct TimeBudget {
  int softMs = 0;  // 0: no limit
  int hardMs = 0;
};
TimeBudget budgetFor(const SearchLimits& limits, int seat);

// The mean of a chance node's face values, taken over winning chances (see search_base.cpp).
class FaceAverage {
 public:
  void add(int score, double weight = 1.0);
  int value() const;

 private:
  double weight_ = 0, wins_ = 0, losses_ = 0, mateSum_ = 0, chance_ = 0;
};

// Move-ordering bands: the table's move, captures (most valuable victim
// first), promotions, the two killers, quiet moves by history, and last the
// captures that lose their exchange.
constexpr int kTableMoveScore = 1 << 30;
constexpr int kCaptureScore = 1 << 24;
constexpr int kPromotionScore = 1 << 23;
constexpr int kKillerScore = 1 << 22;
constexpr int kLosingCaptureScore = -(1 << 20);

// How scoreMoves places a capture that loses its exchange.
enum class LosingCaptures {
  kUntested,    // not tested: scored as any capture (the two-seat search tests it when picking)
  kByValues,    // in the losing band by the victim's value less a sixteenth of the attacker's
  kByOrderKey,  // in the losing band by a sixteenth of captureOrder (the many-seat search)
};

class SearchBase {
 public:
  void clear();  // forgets the table, history and killers (a new game)

 protected:
  SearchBase(std::shared_ptr<const Rules> rules, const Evaluator& eval, SearchConfig config);

  // The setup of run(): the position, the path's hashes, the root's legal
  // moves, the counters and the limits, the killers cleared and the history
  // divided by `historyDivisor`. False when there is nothing to search (the
  // game is over, or one move only), `result` then being the answer.
  struct RunStart {
    std::vector<Move> root;
    std::vector<int> noise;  // a fixed offset per root move for the weaker levels (all 0 without noise)
    TimeBudget budget;
    int maxDepth = 0;
  };
  bool beginRun(const Game& game, const SearchLimits& limits, std::atomic<bool>& stop, int historyDivisor,
                SearchResult& result, RunStart& start);
  // The root moves' indices in the order of `sorted` (the same moves, ordered).
  static std::vector<size_t> rootOrder(const std::vector<Move>& root, const MoveList& sorted);
  // The next iteration's order: `first`, then by this iteration's scores, ties in their order.
  static void reorderRoot(std::vector<size_t>& order, const std::vector<int>& scores, size_t first);
  // The iteration's report, kept in `result` and passed to onInfo.
  void reportIteration(int depth, int score, std::vector<Move> pv, SearchResult& result,
                       const std::function<void(const SearchInfo&)>& onInfo) const;
  // On a clock, a new iteration starts only while it can likely finish; a fixed move time is used whole.
  static bool outOfTimeForIteration(const TimeBudget& budget, const SearchLimits& limits, int elapsedMs) {
    return budget.softMs > 0 && !limits.moveTimeMs && elapsedMs >= budget.softMs / 2 && !limits.infinite;
  }

  bool timeUp() {
    if (!stopped_ && limiter_.expired(nodes_)) stopped_ = true;
    return stopped_;
  }
  bool isCapture(Move m) const { return isCaptureMove(pos_, m); }
  bool chanceNodesOn() const { return !rules_->die.empty() && config_.chanceNodes; }
  // A repetition of a position on the path or in the game since the last
  // capture or pawn move (the game could repeat it again), or the fifty-round
  // count run out: the game's draw.
  bool drawnByRule() const { return repetitionAgo() > 0 || pos_.fifty() >= 50 * pos_.seatsIn(); }
  // How many plies ago this position last stood on the path or in the game
  // since the last capture or pawn move; 0 if it did not.
  int repetitionAgo() const {
    const uint64_t h = pos_.hash();
    const int n = static_cast<int>(stack_.size());
    const int back = std::min(n - 1, pos_.fifty());
    for (int i = 1; i <= back; ++i)
      if (stack_[n - 1 - i] == h) return i;
    return 0;
  }
  // The score for the side to move of a node drawnByRule() found: a draw,
  // but with Rules::chasing a repetition where one side checked or chased
  // with every move of the cycle is lost by that side (core/mechanisms/chasing.h).
  int ruleScore(int ply) const;

  // Killers and history.
  int& history(int seat, Move m) { return history_[(seat * kMaxSquares + m.from()) * kMaxSquares + m.to()]; }
  int history(int seat, Move m) const { return history_[(seat * kMaxSquares + m.from()) * kMaxSquares + m.to()]; }
  bool isKiller(Move m, int ply) const { return ply < kMaxPly && (m == killers_[ply][0] || m == killers_[ply][1]); }
  void rememberKiller(Move m, int ply) {
    if (ply < kMaxPly && killers_[ply][0] != m) {
      killers_[ply][1] = killers_[ply][0];
      killers_[ply][0] = m;
    }
  }
  void clearKillers() {
    for (auto& k : killers_) k[0] = k[1] = Move();
  }

  // Ordering scores for list, by the bands above (ply: for the killers; kMaxPly: none).
  void scoreMoves(const MoveList& list, Move ttMove, int ply, int* scores, LosingCaptures losing) const;
  int losingCaptureScore(Move m) const;
  // The quiescence search's pseudo-legal moves: in check every move (the
  // evasions), else the captures (en passant included) and promotions, in
  // generation order. Legality is left to the caller.
  void quiescenceMoves(MoveList& list, bool inCheck) const;

  // The static score for `key` from the cache, or computed by `compute` and
  // kept (a direct-mapped cache: the key must say all the score depends on).
  template <class Compute>
  int cachedEval(uint64_t key, Compute&& compute) {
    EvalSlot& slot = evalCache_[key & (evalCache_.size() - 1)];
    if (slot.key == key) return slot.score;
    const int v = compute();
    slot.key = key;
    slot.score = v;
    return v;
  }

  // The table: mate scores are stored as distances from the node, not the root.
  static int scoreToTable(int score, int ply) {
    return score > kMateBound ? score + ply : (score < -kMateBound ? score - ply : score);
  }
  static int scoreFromTable(int score, int ply) {
    return score > kMateBound ? score - ply : (score < -kMateBound ? score + ply : score);
  }
  // The table's move for `key`, or Move() without one.
  Move tableMove(uint64_t key) const {
    const TTEntry* e = tt_.probe(key);
    return e ? Move::fromRaw(e->move) : Move();
  }
  // The table's move for `key` into ttMove; true, with `score` set, when the
  // entry is at least `depth` deep and its bound settles the window.
  bool probeTable(uint64_t key, int depth, int alpha, int beta, int ply, Move& ttMove, int& score) const {
    const TTEntry* e = tt_.probe(key);
    ttMove = e ? Move::fromRaw(e->move) : Move();
    if (!e || e->depth < depth) return false;
    score = scoreFromTable(e->score, ply);
    return e->bound() == kBoundExact || (e->bound() == kBoundLower && score >= beta) ||
           (e->bound() == kBoundUpper && score <= alpha);
  }
  // Stores a node's result with its bound against the window it was searched in.
  void storeResult(uint64_t key, Move best, int score, int depth, int alpha0, int beta, int ply) {
    tt_.store(key, best, scoreToTable(score, ply), depth,
              score >= beta ? kBoundLower : (score > alpha0 ? kBoundExact : kBoundUpper));
  }

  std::shared_ptr<const Rules> rules_;
  const Evaluator& eval_;
  SearchConfig config_;
  TranspositionTable tt_;
  Position pos_;
  std::vector<uint64_t> stack_;  // hashes of the game and the search path, for repetitions
  Move killers_[kMaxPly][2];
  std::vector<int> history_;  // [seat][from][to]
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
