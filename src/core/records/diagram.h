// What a piece can reach from a square on an otherwise empty board, read from
// the same tables as the move generator, for the rules pages' diagrams.
#pragma once

#include <vector>

#include "core/variant/variant.h"

namespace acedrex {

struct PieceReach {
  std::vector<Square> moves;     // squares it may move to (empty board)
  std::vector<Square> captures;  // squares where it would capture an enemy
  std::vector<Square> hops;      // squares a hopper reaches over a screen (on its lines)
};

PieceReach pieceReach(const Rules& rules, int type, int dir, Square from);

// pieceReach with the lame leaps too (the xiangqi horse and elephant, never
// blocked on an empty board): what the rules pages draw. Kept apart from
// pieceReach, which the evaluator's default tables read.
PieceReach diagramReach(const Rules& rules, int type, int dir, Square from);

}  // namespace acedrex
