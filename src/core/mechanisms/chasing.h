// Xiangqi's repetition rules as Fairy-Stockfish plays them (Rules::chasing,
// `chasing = axf`): when a position repeats, a side that checked with every
// move of the cycle loses; if neither or both did, a side that chased an
// enemy piece with every move of the cycle loses (both: a draw). A move
// chases a piece it newly attacks when that piece is unprotected, or is a
// chariot attacked by a horse or cannon, or a chariot, cannon or horse
// attacked by an elephant or advisor; the general and soldiers that have
// not crossed the river are never chased, and mutual attacks by the same
// kind of piece do not count (docs/rules/xiangqi.md lists the details).
// Only read at repetitions: the cycle's boards come from the Position's
// undo history.
#pragma once

#include <vector>

#include "core/position/position.h"

namespace acedrex {

struct RepetitionVerdict {
  int loser = -1;        // the seat that loses, or -1 (the repetition rule applies)
  bool byCheck = false;  // lost by perpetual check (else by perpetual chase)
};

// The verdict on a repetition whose earlier occurrence stood `span` plies
// ago (even, 4 <= span <= pos.undoDepth()), for Rules::chasing.
RepetitionVerdict judgeRepetition(const Position& pos, int span);

// Fairy-Stockfish's n-move count under the chasing rules ends later: two
// plies for every check beyond ten that one side (the one that gave more)
// gave within the count, once the history holds 20 plies or more.
int moveRuleExtension(const Position& pos);

// The squares of the side to move's pieces that the last move chased
// (empty at the start of the history), in square order.
std::vector<Square> chasedByLastMove(const Position& pos);

}  // namespace acedrex
