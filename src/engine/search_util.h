// Pieces shared by the two-seat and the many-seat search.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

#include "core/position/position.h"

namespace acedrex::engine {

// What ends a search early: the caller's stop flag, a hard time limit, a node limit.
class SearchLimiter {
 public:
  void start(std::atomic<bool>* stop, int hardMs, uint64_t nodeLimit) {
    stop_ = stop;
    hardMs_ = hardMs;
    nodeLimit_ = nodeLimit;
    start_ = std::chrono::steady_clock::now();
  }
  // True once the search must end; the clock is read every 1024 nodes.
  bool expired(uint64_t nodes) const {
    if (nodeLimit_ && nodes >= nodeLimit_) return true;
    if ((nodes & 1023) != 0) return false;
    if (stop_ && stop_->load(std::memory_order_relaxed)) return true;
    return hardMs_ > 0 && elapsedMs() >= hardMs_;
  }
  int elapsedMs() const {
    return static_cast<int>(
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start_).count());
  }

 private:
  std::atomic<bool>* stop_ = nullptr;
  int hardMs_ = 0;
  uint64_t nodeLimit_ = 0;
  std::chrono::steady_clock::time_point start_;
};

// A pass, a lost turn and a promotion in place (promotion-move) keep from == to.
inline bool isCaptureMove(const Position& pos, Move m) {
  return m.flag() == kEnPassant || (m.flag() != kCastle && m.from() != m.to() && isPiece(pos.at(m.to())));
}

// Moves the best-scored of list[k..] to k, the moves between shifting up one
// place, so that equal scores keep their order, as in sortByScore (a selection
// step: when a cutoff comes early, the rest of the list is never sorted).
inline void pickBest(MoveList& list, int* scores, int k) {
  int best = k;
  for (int i = k + 1; i < list.size(); ++i)
    if (scores[i] > scores[best]) best = i;
  if (best == k) return;
  const Move m = list[best];
  const int s = scores[best];
  for (int i = best; i > k; --i) {
    list.set(i, list[i - 1]);
    scores[i] = scores[i - 1];
  }
  list.set(k, m);
  scores[k] = s;
}

// Sorts list[from..] by the scores, best first, equal scores keeping their
// order (insertion sort: the lists are short).
inline void sortByScore(MoveList& list, int* scores, int from = 0) {
  for (int i = from + 1; i < list.size(); ++i) {
    const Move m = list[i];
    const int s = scores[i];
    int j = i - 1;
    while (j >= from && scores[j] < s) {
      list.set(j + 1, list[j]);
      scores[j + 1] = scores[j];
      --j;
    }
    list.set(j + 1, m);
    scores[j + 1] = s;
  }
}

}  // namespace acedrex::engine
