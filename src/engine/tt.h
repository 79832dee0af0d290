// Transposition table: one entry per bucket slot, always-replace by depth.
#pragma once

#include <cstdint>
#include <vector>

#include "core/types.h"

namespace acedrex::engine {

enum Bound : uint8_t { kBoundNone = 0, kBoundUpper = 1, kBoundLower = 2, kBoundExact = 3 };

struct TTEntry {
  uint64_t key = 0;
  uint32_t move = 0;
  int16_t score = 0;
  int8_t depth = -1;
  uint8_t bound = kBoundNone;
};

class TranspositionTable {
 public:
  explicit TranspositionTable(size_t megabytes = 16) { resize(megabytes); }
  void resize(size_t megabytes) {
    size_t n = 1;
    while (n * 2 * sizeof(TTEntry) <= megabytes * 1024 * 1024) n *= 2;
    table_.assign(n, TTEntry{});
    mask_ = n - 1;
  }
  void clear() { std::fill(table_.begin(), table_.end(), TTEntry{}); }
  const TTEntry* probe(uint64_t key) const {
    const TTEntry& e = table_[key & mask_];
    return e.key == key ? &e : nullptr;
  }
  void store(uint64_t key, Move move, int score, int depth, Bound bound) {
    TTEntry& e = table_[key & mask_];
    if (e.key == key && depth < e.depth && bound != kBoundExact) return;
    if (e.key == key && move == Move()) move = Move::fromRaw(e.move);
    e = TTEntry{key, move.raw(), static_cast<int16_t>(score), static_cast<int8_t>(depth), bound};
  }

 private:
  std::vector<TTEntry> table_;
  size_t mask_ = 0;
};

}  // namespace acedrex::engine
