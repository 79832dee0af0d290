// Unions (Rules::unions, Paco Ŝako's rules; docs/rules/friendly-chess.md):
// nothing is captured. A piece moving onto an enemy piece forms a union with
// it; either side may move a union as its own piece in it, carrying the
// partner; a piece moving into a union frees the mover's piece there, which
// moves on in the same turn (a chain). One turn is a sequence of actions
// (lift, place, promote); the generator finds every distinct position a turn
// can end in, and the Move of a turn is a key into a table of the actions
// that reach it (UnionTable), one table per ply of the Position's stack.
#pragma once

#include <cstdint>
#include <vector>

#include "core/base/types.h"

namespace acedrex {

// The most squares a board with unions may have (the turn simulation's arrays).
constexpr int kUnionSquares = 64;

// One action of a turn: lift the piece (or the union) on a square, place the
// lifted piece on a square, or promote the pawn waiting on `square` to `promo`.
struct UnionAction {
  enum Kind : uint8_t { kLift, kPlace, kPromote };
  uint8_t kind = kLift;
  uint8_t square = 0;
  int8_t promo = -1;
};

// A turn found by the generator: the Move that names it (from the first lift's
// square to the last placement's, the last promotion, an ordinal in bits 24 to
// 31 among turns with the same squares) and its actions in UnionTable::actions.
struct UnionTurn {
  Move move;
  uint32_t begin = 0;
  uint16_t len = 0;
};

// Every turn of one position (the position's hash is the key).
struct UnionTable {
  uint64_t key = 0;
  bool valid = false;
  std::vector<UnionTurn> turns;
  std::vector<UnionAction> actions;
};

// What a Position keeps to undo a turn: its partners before it, and the depth
// of the undo stack the turn pushed.
struct UnionUndo {
  int depth = 0;
  std::vector<uint8_t> partner;
};

}  // namespace acedrex
