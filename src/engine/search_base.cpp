#include "engine/search_base.h"

#include <algorithm>
#include <cmath>

#include "core/mechanisms/chasing.h"
#include "engine/duck.h"
#include "engine/see.h"

namespace acedrex::engine {

TimeBudget budgetFor(const SearchLimits& limits, int seat) {
  TimeBudget b;
  if (limits.infinite) return b;
  if (limits.moveTimeMs > 0) {
    b.softMs = b.hardMs = limits.moveTimeMs;
    return b;
  }
  const int time = limits.timeMs[seat];
  if (time < 0) return b;
  const int inc = limits.incMs[seat];
  const int moves = limits.movesToGo > 0 ? limits.movesToGo + 1 : 30;
  const int safety = std::min(50, time / 10);
  b.softMs = std::max(1, time / moves + inc * 3 / 4);
  b.hardMs = std::max(1, std::min(time / 3 + inc / 2, b.softMs * 3));
  b.softMs = std::min(b.softMs, std::max(1, time - safety));
  b.hardMs = std::min(b.hardMs, std::max(1, time - safety));
  return b;
}

// The faces' values are averaged as expected scores, not as centipawns: a
// face that takes or loses the king is a win or a loss, not 30000 centipawns
// that would outweigh every other face. kWinScale: centipawns for odds of 10
// to 1, fitted to the material balance and the results of 180 Grant Acedrex
// games with the die (material decides little there: a rook up scores 58%).
constexpr double kWinScale = 4000.0;

void FaceAverage::add(int score, double weight) {
  if (weight <= 0) return;
  weight_ += weight;
  if (score > kMateBound) wins_ += weight;
  else if (score < -kMateBound) losses_ += weight;
  mateSum_ += score * weight;
  if (score > kMateBound) chance_ += weight;
  else if (score >= -kMateBound) chance_ += weight / (1.0 + std::pow(10.0, -score / kWinScale));
}

int FaceAverage::value() const {
  if (weight_ <= 0) return 0;
  // Every face a win, or every face a loss: a mate score, the mean distance.
  if (wins_ >= weight_ || losses_ >= weight_) return static_cast<int>(std::lround(mateSum_ / weight_));
  const double p = std::clamp(chance_ / weight_, 1e-9, 1.0 - 1e-9);
  const double cp = -kWinScale * std::log10(1.0 / p - 1.0);
  return static_cast<int>(std::lround(std::clamp(cp, -double(kMateBound - 1), double(kMateBound - 1))));
}

SearchBase::SearchBase(std::shared_ptr<const Rules> rules, const Evaluator& eval, SearchConfig config)
    : rules_(std::move(rules)), eval_(eval), config_(config), tt_(config.ttMegabytes), pos_(rules_),
      rng_(config.seed) {
  history_.assign(static_cast<size_t>(rules_->nseats()) * kMaxSquares * kMaxSquares, 0);
  evalCache_.assign(1 << 16, EvalSlot{});
}

int SearchBase::ruleScore(int ply) const {
  if (!rules_->chasing) [[likely]] return 0;
  // The cycle must lie in the position's own history for the rule to judge it.
  const int ago = repetitionAgo();
  if (ago < 4 || ago > pos_.undoDepth()) return 0;
  const RepetitionVerdict v = judgeRepetition(pos_, ago);
  if (v.loser < 0) return 0;
  return v.loser == pos_.toMove() ? -(kMate - ply) : kMate - ply;
}

void SearchBase::clear() {
  tt_.clear();
  std::fill(history_.begin(), history_.end(), 0);
  clearKillers();
}

bool SearchBase::beginRun(const Game& game, const SearchLimits& limits, std::atomic<bool>& stop,
                          int historyDivisor, SearchResult& result, RunStart& start) {
  result = SearchResult{};
  if (game.finished()) return false;
  pos_ = game.position();
  stack_ = game.hashes();
  if (stack_.empty() || stack_.back() != pos_.hash()) stack_.push_back(pos_.hash());
  Game copy = game;
  start.root = copy.legalMoves();
  if (!limits.searchMoves.empty()) std::erase_if(start.root, [&](Move m) { return !isSearchMove(limits, m); });
  // With unions there may be more than a move list holds: the shortest turns come first.
  if (start.root.size() > static_cast<size_t>(MoveList::kCapacity)) start.root.resize(MoveList::kCapacity);
  if (start.root.empty()) return false;
  // Duck games: each move with the few duck squares the search tries (engine/duck.h).
  if (rules_->duck) [[unlikely]] start.root = rootDuckTurns(pos_, eval_, start.root, 3);
  result.found = true;
  result.best = start.root.front();
  if (start.root.size() == 1) return false;

  stopped_ = false;
  nodes_ = 0;
  selDepth_ = 0;
  start.budget = budgetFor(limits, pos_.toMove());
  uint64_t nodeLimit = limits.nodes ? limits.nodes : config_.maxNodes;
  if (config_.maxNodes && nodeLimit) nodeLimit = std::min(nodeLimit, config_.maxNodes);
  limiter_.start(&stop, start.budget.hardMs, nodeLimit);
  start.maxDepth = std::min(limits.depth > 0 ? limits.depth : kMaxPly - 8, config_.maxDepth);
  clearKillers();
  tt_.newSearch();
  for (int& h : history_) h /= historyDivisor;
  start.noise.assign(start.root.size(), 0);
  if (config_.noise > 0) {
    std::uniform_int_distribution<int> dist(-config_.noise, config_.noise);
    for (int& x : start.noise) x = dist(rng_);
  }
  return true;
}

std::vector<size_t> SearchBase::rootOrder(const std::vector<Move>& root, const MoveList& sorted) {
  std::vector<size_t> order(root.size());
  for (int i = 0; i < sorted.size(); ++i)
    order[i] = static_cast<size_t>(std::find(root.begin(), root.end(), sorted[i]) - root.begin());
  return order;
}

void SearchBase::reorderRoot(std::vector<size_t>& order, const std::vector<int>& scores, size_t first) {
  std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) { return scores[x] > scores[y]; });
  auto it = std::find(order.begin(), order.end(), first);
  std::rotate(order.begin(), it, it + 1);
}

void SearchBase::reportIteration(int depth, int score, std::vector<Move> pv, SearchResult& result,
                                 const std::function<void(const SearchInfo&)>& onInfo) const {
  SearchInfo info;
  info.depth = depth;
  info.selDepth = selDepth_;
  info.score = score;
  info.isMate = std::abs(score) >= kMateBound;
  if (info.isMate) info.mateIn = score > 0 ? (kMate - score + 1) / 2 : -(kMate + score) / 2;
  info.nodes = nodes_;
  info.timeMs = limiter_.elapsedMs();
  info.pv = std::move(pv);
  result.info = std::move(info);
  if (onInfo) onInfo(result.info);
}

int SearchBase::losingCaptureScore(Move m) const {
  return kLosingCaptureScore + eval_.pieceValue(typeOf(pos_.at(m.to()))) -
         eval_.pieceValue(typeOf(pos_.at(m.from()))) / 16;
}

void SearchBase::scoreMoves(const MoveList& list, Move ttMove, int ply, int* scores, LosingCaptures losing) const {
  const int us = pos_.toMove();
  for (int i = 0; i < list.size(); ++i) {
    const Move m = list[i];
    int s = 0;
    if (m == ttMove) {
      s = kTableMoveScore;
    } else if (isCapture(m)) {
      const int key = captureOrder(pos_, m, eval_);
      s = kCaptureScore + key;
      // A capture that loses material in the exchange on its square goes after the quiet moves.
      if (losing != LosingCaptures::kUntested && losesExchange(pos_, m, eval_))
        s = losing == LosingCaptures::kByValues ? losingCaptureScore(m) : kLosingCaptureScore + key / 16;
    } else if (m.promo() >= 0) {
      s = kPromotionScore + eval_.pieceValue(m.promo());
    } else if (ply < kMaxPly && m == killers_[ply][0]) {
      s = kKillerScore;
    } else if (ply < kMaxPly && m == killers_[ply][1]) {
      s = kKillerScore - 1;
    } else {
      s = history(us, m);
    }
    scores[i] = s;
  }
}

void SearchBase::quiescenceMoves(MoveList& list, bool inCheck) const {
  list.clear();
  if (inCheck) {
    pos_.pseudoMoves(list);
    return;
  }
  // Out of check only captures, en passant and promotions: the core
  // generates them without the quiet moves, in the order pseudoMoves has them.
  pos_.pseudoCaptures(list);
}

}  // namespace acedrex::engine
