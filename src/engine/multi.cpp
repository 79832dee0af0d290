#include "engine/multi.h"

#include <algorithm>

namespace acedrex::engine {

MultiSearch::MultiSearch(std::shared_ptr<const Rules> rules, const Evaluator& eval, SearchConfig config,
                         MultiAlgorithm algorithm)
    : rules_(std::move(rules)), eval_(eval), config_(config), algo_(algorithm), tt_(config.ttMegabytes),
      pos_(rules_), rng_(config.seed) {
  history_.assign(kMaxSeats * kMaxSquares * kMaxSquares, 0);
}

bool MultiSearch::isCapture(Move m) const { return isCaptureMove(pos_, m); }

bool MultiSearch::timeUp() {
  if (!stopped_ && limiter_.expired(nodes_)) stopped_ = true;
  return stopped_;
}

int MultiSearch::terminalScore(int ply) const {
  const auto places = pos_.places();
  const int n = rules_->nseats();
  int place = places[root_];
  if (place == 0) place = pos_.seatsIn() + 1;  // out while the game goes on
  int shared = 0;
  for (int s = 0; s < n; ++s) shared += places[s] == place ? 1 : 0;
  if (place == 1 && shared <= 1) return kMate - ply;
  if (place == 1) return 0;  // a shared first place: a draw
  return -(kMate - ply) + 200 * (n - place);
}

MultiSearch::Vec MultiSearch::evalVec() const {
  Vec v{};
  for (int s = 0; s < rules_->nseats(); ++s) v[s] = pos_.isIn(s) ? eval_.evaluate(pos_, s) : -kMate / 2;
  return v;
}

MultiSearch::Vec MultiSearch::terminalVec(int ply) const {
  Vec v{};
  const int saved = root_;
  auto* self = const_cast<MultiSearch*>(this);
  for (int s = 0; s < rules_->nseats(); ++s) {
    self->root_ = s;
    v[s] = terminalScore(ply);
  }
  self->root_ = saved;
  return v;
}

int MultiSearch::settle() {
  int pushed = 0;
  MoveList list;
  while (!pos_.finished()) {
    pos_.legalMoves(list);
    if (!list.empty()) break;
    pos_.applyTurnStart();
    ++pushed;
  }
  return pushed;
}

bool MultiSearch::legalOrdered(MoveList& list, int ply) {
  (void)ply;
  pos_.legalMoves(list);
  if (list.empty()) return false;
  const int us = pos_.toMove();
  const uint64_t key = pos_.hash();
  const TTEntry* e = tt_.probe(key);
  const Move ttMove = e ? Move::fromRaw(e->move) : Move();
  int scores[1024];
  for (int i = 0; i < list.size(); ++i) {
    const Move m = list[i];
    int s = history_[(us * kMaxSquares + m.from()) * kMaxSquares + m.to()];
    if (m == ttMove) s = 1 << 30;
    else if (isCapture(m)) {
      const Piece v = pos_.at(m.to());
      s = (1 << 24) + (typeOf(v) == rules_->royalType ? 100000 : eval_.pieceValue(typeOf(v))) * 16 -
          eval_.pieceValue(typeOf(pos_.at(m.from()))) / 16;
    } else if (m.promo() >= 0) {
      s = 1 << 23;
    }
    scores[i] = s;
  }
  sortByScore(list, scores);
  return true;
}

Move MultiSearch::firstOrdered(int ply) {
  MoveList list;
  if (!legalOrdered(list, ply)) return Move();
  return list[0];
}

int MultiSearch::quiesce(int alpha, int beta, int ply, int qdepth) {
  // Captures only, every seat in turn; the root seat maximises, the others minimise.
  ++nodes_;
  if (ply > selDepth_) selDepth_ = ply;
  // A finished game, or the root seat out of it, is scored by places.
  if (pos_.finished() || !pos_.isIn(root_)) return terminalScore(ply);
  if (timeUp()) return 0;
  const bool maxNode = pos_.toMove() == root_;
  const int stand = eval_.evaluate(pos_, root_);
  if (qdepth > 6 || ply >= kMaxPly - 2) return stand;
  if (maxNode) {
    if (stand >= beta) return stand;
    alpha = std::max(alpha, stand);
  } else {
    if (stand <= alpha) return stand;
    beta = std::min(beta, stand);
  }
  MoveList list;
  pos_.pseudoMoves(list);
  int best = stand;
  for (Move m : list) {
    if (!isCapture(m) || !pos_.isLegal(m)) continue;
    pos_.make(m);
    const int pushed = settle();
    const int s = quiesce(alpha, beta, ply + 1, qdepth + 1);
    for (int i = 0; i < pushed; ++i) pos_.unmake();
    pos_.unmake();
    if (stopped_) return 0;
    if (maxNode) {
      best = std::max(best, s);
      alpha = std::max(alpha, s);
    } else {
      best = std::min(best, s);
      beta = std::min(beta, s);
    }
    if (alpha >= beta) break;
  }
  return best;
}

int MultiSearch::chance(int depth, int alpha, int beta, int ply) {
  (void)alpha;
  (void)beta;
  const Rules& r = *rules_;
  const bool maxNode = pos_.toMove() == root_;
  MoveList list;
  legalOrdered(list, ply);
  long total = 0;
  int nullValue = kInf + 1;
  for (const DieFace& face : r.die) {
    int best = maxNode ? -kInf : kInf;
    bool any = false;
    for (Move m : list) {
      if (typeOf(pos_.at(m.from())) != face.type) continue;
      any = true;
      pos_.make(m);
      const int pushed = settle();
      const int s = paranoid(depth - 1, -kInf, kInf, ply + 1);
      for (int i = 0; i < pushed; ++i) pos_.unmake();
      pos_.unmake();
      if (stopped_) return 0;
      best = maxNode ? std::max(best, s) : std::min(best, s);
    }
    if (!any) {
      if (nullValue == kInf + 1) {
        pos_.make(Move::null());
        const int pushed = settle();
        nullValue = paranoid(depth - 1, -kInf, kInf, ply + 1);
        for (int i = 0; i < pushed; ++i) pos_.unmake();
        pos_.unmake();
        if (stopped_) return 0;
      }
      best = nullValue;
    }
    total += best;
  }
  return static_cast<int>(total / static_cast<long>(r.die.size()));
}

int MultiSearch::paranoid(int depth, int alpha, int beta, int ply) {
  // A finished game, or the root seat out of it, is scored by places.
  if (pos_.finished() || !pos_.isIn(root_)) return terminalScore(ply);
  if (depth <= 0) return quiesce(alpha, beta, ply, 0);
  ++nodes_;
  if (timeUp()) return 0;
  if (ply > selDepth_) selDepth_ = ply;
  if (!rules_->die.empty() && config_.chanceNodes) return chance(depth, alpha, beta, ply);
  const bool maxNode = pos_.toMove() == root_;
  const uint64_t key = pos_.hash() ^ (static_cast<uint64_t>(root_) * 0x9E3779B97F4A7C15ULL);
  MoveList list;
  legalOrdered(list, ply);
  const int a0 = alpha, b0 = beta;
  int best = maxNode ? -kInf : kInf;
  Move bestMove;
  for (Move m : list) {
    pos_.make(m);
    const int pushed = settle();
    const int s = paranoid(depth - 1, alpha, beta, ply + 1);
    for (int i = 0; i < pushed; ++i) pos_.unmake();
    pos_.unmake();
    if (stopped_) return 0;
    if (maxNode ? s > best : s < best) {
      best = s;
      bestMove = m;
    }
    if (maxNode) alpha = std::max(alpha, s);
    else beta = std::min(beta, s);
    if (alpha >= beta) {
      if (!isCapture(m)) {
        int& h = history_[(pos_.toMove() * kMaxSquares + m.from()) * kMaxSquares + m.to()];
        h = std::min(h + depth * depth, 1 << 20);
      }
      break;
    }
  }
  (void)a0;
  (void)b0;
  tt_.store(key, bestMove, 0, depth, kBoundNone);
  return best;
}

int MultiSearch::brs(int depth, int alpha, int beta, int ply) {
  // A finished game, or the root seat out of it, is scored by places.
  if (pos_.finished() || !pos_.isIn(root_)) return terminalScore(ply);
  if (depth <= 0) return quiesce(alpha, beta, ply, 0);
  ++nodes_;
  if (timeUp()) return 0;
  if (ply > selDepth_) selDepth_ = ply;
  if (pos_.toMove() == root_) {
    // MAX layer: the root seat's own moves.
    MoveList list;
    legalOrdered(list, ply);
    int best = -kInf;
    Move bestMove;
    for (Move m : list) {
      pos_.make(m);
      const int pushed = settle();
      const int s = brs(depth - 1, alpha, beta, ply + 1);
      for (int i = 0; i < pushed; ++i) pos_.unmake();
      pos_.unmake();
      if (stopped_) return 0;
      if (s > best) {
        best = s;
        bestMove = m;
      }
      alpha = std::max(alpha, s);
      if (alpha >= beta) {
        if (!isCapture(m)) {
          int& h = history_[(root_ * kMaxSquares + m.from()) * kMaxSquares + m.to()];
          h = std::min(h + depth * depth, 1 << 20);
        }
        break;
      }
    }
    tt_.store(pos_.hash() ^ 0x5151, bestMove, 0, depth, kBoundNone);
    return best;
  }
  // MIN layer: for each opponent in turn, its every reply while the opponents
  // before it play their first ordered move; the ones after it likewise, until
  // the root seat moves again.
  int best = kInf;
  std::vector<int> seats;
  {
    int s = pos_.toMove();
    while (s != root_ && static_cast<int>(seats.size()) < rules_->nseats()) {
      seats.push_back(s);
      int next = s;
      for (int i = 1; i <= rules_->nseats(); ++i) {
        next = (s + i) % rules_->nseats();
        if (pos_.isIn(next)) break;
      }
      s = next;
    }
  }
  for (size_t which = 0; which < seats.size() && alpha < beta; ++which) {
    // Play the earlier opponents' ordered moves.
    int made = 0;
    bool ok = true;
    for (size_t k = 0; k < which; ++k) {
      if (pos_.finished() || !pos_.isIn(root_) || pos_.toMove() == root_) {
        ok = false;
        break;
      }
      const Move fm = firstOrdered(ply);
      if (fm == Move()) {
        ok = false;
        break;
      }
      pos_.make(fm);
      ++made;
      made += settle();
    }
    if (ok && !pos_.finished() && pos_.toMove() != root_ && pos_.toMove() == seats[which]) {
      MoveList list;
      legalOrdered(list, ply);
      for (Move m : list) {
        pos_.make(m);
        int inner = 1 + settle();
        // The later opponents play their ordered moves.
        while (!pos_.finished() && pos_.isIn(root_) && pos_.toMove() != root_) {
          const Move fm = firstOrdered(ply);
          if (fm == Move()) break;
          pos_.make(fm);
          ++inner;
          inner += settle();
        }
        const int s = brs(depth - 1, alpha, beta, ply + 1);
        for (int i = 0; i < inner; ++i) pos_.unmake();
        if (stopped_) break;
        best = std::min(best, s);
        beta = std::min(beta, s);
        if (alpha >= beta) break;
      }
    }
    for (int i = 0; i < made; ++i) pos_.unmake();
    if (stopped_) return 0;
  }
  if (best == kInf) return eval_.evaluate(pos_, root_);
  return best;
}

MultiSearch::Vec MultiSearch::maxn(int depth, int ply) {
  if (pos_.finished()) return terminalVec(ply);
  ++nodes_;
  if (depth <= 0 || timeUp()) return evalVec();
  const int us = pos_.toMove();
  MoveList list;
  legalOrdered(list, ply);
  Vec best{};
  best[us] = -kInf * 2;
  for (Move m : list) {
    pos_.make(m);
    const int pushed = settle();
    const Vec v = maxn(depth - 1, ply + 1);
    for (int i = 0; i < pushed; ++i) pos_.unmake();
    pos_.unmake();
    if (stopped_) break;
    if (v[us] > best[us]) best = v;
  }
  return best;
}

SearchResult MultiSearch::run(const Game& game, const SearchLimits& limits, std::atomic<bool>& stop,
                              const std::function<void(const SearchInfo&)>& onInfo) {
  SearchResult result;
  if (game.finished()) return result;
  pos_ = game.position();
  root_ = pos_.toMove();
  Game copy = game;
  std::vector<Move> root = copy.legalMoves();
  if (root.empty()) return result;
  result.found = true;
  result.best = root.front();
  if (root.size() == 1) return result;
  stopped_ = false;
  nodes_ = 0;
  selDepth_ = 0;
  const TimeBudget budget = budgetFor(limits, root_);
  uint64_t nodeLimit = limits.nodes ? limits.nodes : config_.maxNodes;
  if (config_.maxNodes && nodeLimit) nodeLimit = std::min(nodeLimit, config_.maxNodes);
  limiter_.start(&stop, budget.hardMs, nodeLimit);
  const int maxDepth = std::min(limits.depth > 0 ? limits.depth : kMaxPly - 8, config_.maxDepth);
  for (int& h : history_) h /= 8;
  std::vector<int> noise(root.size(), 0);
  if (config_.noise > 0) {
    std::uniform_int_distribution<int> dist(-config_.noise, config_.noise);
    for (int& x : noise) x = dist(rng_);
  }
  std::vector<size_t> order(root.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::vector<int> scores(root.size(), -kInf);
  for (int depth = 1; depth <= maxDepth; ++depth) {
    int alpha = -kInf;
    bool complete = true;
    std::vector<int> iter(root.size(), -kInf);
    for (size_t k = 0; k < order.size(); ++k) {
      const size_t i = order[k];
      pos_.make(root[i]);
      const int pushed = settle();
      int s;
      if (algo_ == MultiAlgorithm::kMaxN) s = maxn(depth - 1, 1)[root_];
      else if (algo_ == MultiAlgorithm::kParanoid || !rules_->die.empty())
        s = paranoid(depth - 1, config_.noise > 0 ? -kInf : alpha, kInf, 1);
      else s = brs(depth - 1, config_.noise > 0 ? -kInf : alpha, kInf, 1);
      for (int j = 0; j < pushed; ++j) pos_.unmake();
      pos_.unmake();
      if (stopped_) {
        complete = k > 0;
        break;
      }
      iter[i] = s;
      alpha = std::max(alpha, s);
    }
    if (!complete) break;
    for (size_t i = 0; i < root.size(); ++i)
      if (iter[i] != -kInf || !stopped_) scores[i] = iter[i];
    size_t chosen = 0;
    int bestNoisy = -kInf * 2, bestRaw = -kInf;
    for (size_t i = 0; i < root.size(); ++i) {
      if (scores[i] == -kInf) continue;
      const int noisy = std::abs(scores[i]) >= kMateBound ? scores[i] : scores[i] + noise[i];
      if (noisy > bestNoisy) {
        bestNoisy = noisy;
        chosen = i;
        bestRaw = scores[i];
      }
    }
    result.best = root[chosen];
    std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) { return scores[x] > scores[y]; });
    SearchInfo info;
    info.depth = depth;
    info.selDepth = selDepth_;
    info.score = bestRaw;
    info.isMate = std::abs(bestRaw) >= kMateBound;
    if (info.isMate) info.mateIn = bestRaw > 0 ? (kMate - bestRaw + 1) / 2 : -(kMate + bestRaw) / 2;
    info.nodes = nodes_;
    info.timeMs = limiter_.elapsedMs();
    info.pv = {result.best};
    result.info = info;
    if (onInfo) onInfo(info);
    if (stopped_) break;
    if (budget.softMs > 0 && !limits.moveTimeMs && info.timeMs >= budget.softMs / 2 && !limits.infinite) break;
  }
  result.info.nodes = nodes_;
  return result;
}

}  // namespace acedrex::engine
