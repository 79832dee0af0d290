// The Bot interface: anything that chooses a move for the seat to move.
//
// Threading contract: choose() runs on the caller's thread and reads only the
// Game it is given (it searches a copy of the position). `stop` may be set
// from another thread; choose() then returns its best move so far promptly.
// One Bot object serves one search at a time.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/game/game.h"

namespace acedrex::engine {

struct SearchLimits {
  int depth = 0;                 // 0: no depth limit
  uint64_t nodes = 0;            // 0: no node limit
  int moveTimeMs = 0;            // 0: none; exact time for this move
  std::array<int, kMaxSeats> timeMs{-1, -1, -1, -1, -1, -1, -1, -1};  // clock per seat, -1 unknown
  std::array<int, kMaxSeats> incMs{};
  int movesToGo = 0;
  bool infinite = false;
  std::vector<Move> searchMoves;  // UCI's searchmoves: the root tries only these legal moves (empty: all)
};

// Whether the root may play `m` under the limits' searchmoves (a duck
// game's turn matches by its piece move).
inline bool isSearchMove(const SearchLimits& limits, Move m) {
  return limits.searchMoves.empty() || std::any_of(limits.searchMoves.begin(), limits.searchMoves.end(),
                                                   [m](Move s) { return s.withoutDuck() == m.withoutDuck(); });
}

struct SearchInfo {
  int depth = 0;
  int selDepth = 0;
  int score = 0;          // centipawns from the mover's view
  bool isMate = false;
  int mateIn = 0;         // moves; negative when being mated
  uint64_t nodes = 0;
  int timeMs = 0;
  std::vector<Move> pv;
};

struct SearchResult {
  Move best;              // Move::null() for a lost turn
  bool found = false;     // false when the game is over
  SearchInfo info;
};

class Bot {
 public:
  virtual ~Bot() = default;
  virtual std::string name() const = 0;
  virtual SearchResult choose(const Game& game, const SearchLimits& limits, std::atomic<bool>& stop,
                              const std::function<void(const SearchInfo&)>& onInfo = {}) = 0;
  virtual void newGame() {}
};

constexpr int kFullStrength = 9;  // levels 1 (beginner) .. 8, and 9 = full strength

// A bot at a strength level for the game's rules; the seed drives its noise.
std::unique_ptr<Bot> makeBot(std::shared_ptr<const Rules> rules, int level, uint64_t seed = 1);

enum class MultiAlgorithm;
struct EvalParams;
// The same with the many-seat algorithm, the die handling and the evaluation
// parameters chosen (for experiments; null params: the variant's own).
std::unique_ptr<Bot> makeBotWith(std::shared_ptr<const Rules> rules, int level, uint64_t seed,
                                 MultiAlgorithm algorithm, bool chanceNodes,
                                 std::shared_ptr<const EvalParams> params = nullptr);

// What a level means (limits and noise), for docs and the UI.
std::string describeLevel(int level);

}  // namespace acedrex::engine
