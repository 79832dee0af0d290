// Transposition table: clusters of four entries (one cache line), each entry
// stamped with the search that wrote it. A store replaces the entry of the
// same key, else the cluster's least useful entry: the shallowest, an entry
// from an earlier search counting as kAgePenalty plies shallower per search
// since (so that old results give way to the current search's).
#pragma once

#include <cstdint>
#include <vector>

#include "core/base/types.h"

namespace acedrex::engine {

enum Bound : uint8_t { kBoundNone = 0, kBoundUpper = 1, kBoundLower = 2, kBoundExact = 3 };

struct TTEntry {
  uint64_t key = 0;
  uint32_t move = 0;
  int16_t score = 0;
  int8_t depth = -1;
  uint8_t genBound = kBoundNone;  // bits 0-1 the bound, bits 2-7 the search's generation
  Bound bound() const { return static_cast<Bound>(genBound & 3); }
  int generation() const { return genBound >> 2; }
};

class TranspositionTable {
 public:
  static constexpr int kClusterSize = 4;
  static constexpr int kAgePenalty = 8;
  static constexpr int kGenerations = 64;

  explicit TranspositionTable(size_t megabytes = 16) { resize(megabytes); }
  void resize(size_t megabytes) {
    size_t n = 1;
    while (n * 2 * sizeof(Cluster) <= megabytes * 1024 * 1024) n *= 2;
    table_.assign(n, Cluster{});
    mask_ = n - 1;
    generation_ = 0;
  }
  void clear() {
    std::fill(table_.begin(), table_.end(), Cluster{});
    generation_ = 0;
  }
  // A new search: entries written from now on are younger than all before.
  void newSearch() { generation_ = (generation_ + 1) % kGenerations; }
  const TTEntry* probe(uint64_t key) const {
    const Cluster& c = table_[key & mask_];
    for (const TTEntry& e : c.entries)
      if (e.key == key && e.depth >= 0) return &e;
    return nullptr;
  }
  void store(uint64_t key, Move move, int score, int depth, Bound bound) {
    Cluster& c = table_[key & mask_];
    TTEntry* slot = nullptr;
    for (TTEntry& e : c.entries)
      if (e.key == key && e.depth >= 0) {
        slot = &e;
        break;
      }
    if (slot) {
      // The same position: a shallower result from this search does not
      // displace a deeper bound, but its move is kept.
      if (move == Move()) move = Move::fromRaw(slot->move);
      if (bound != kBoundExact && depth < slot->depth && slot->generation() == generation_) {
        slot->move = move.raw();
        return;
      }
    } else {
      slot = &c.entries[0];
      for (TTEntry& e : c.entries)
        if (worth(e) < worth(*slot)) slot = &e;
    }
    *slot = TTEntry{key, move.raw(), static_cast<int16_t>(score), static_cast<int8_t>(depth),
                    static_cast<uint8_t>(bound | (generation_ << 2))};
  }

 private:
  struct alignas(64) Cluster {
    TTEntry entries[kClusterSize];
  };
  static_assert(sizeof(Cluster) == 64);
  // What an entry is worth keeping: its depth less its age's penalty (an empty entry least).
  int worth(const TTEntry& e) const {
    if (e.depth < 0) return -1 << 20;
    const int age = (generation_ - e.generation() + kGenerations) % kGenerations;
    return e.depth - kAgePenalty * age;
  }

  std::vector<Cluster> table_;
  size_t mask_ = 0;
  int generation_ = 0;
};

}  // namespace acedrex::engine
