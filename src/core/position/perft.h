// Perft: counts the move paths of a given length. Only real moves count; a
// seat without a legal move is mated or stalemated at its turn start (which
// is no move) and the count goes on with the next seat; a finished game
// counts 0.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/position/position.h"

namespace acedrex {

uint64_t perft(Position& pos, int depth);
// Per first move: (move text, count), in generation order.
std::vector<std::pair<std::string, uint64_t>> perftDivide(Position& pos, int depth);

}  // namespace acedrex

namespace acedrex {

// Plays a space-separated line of moves on a position, with the turn-start
// processing between them (no die). An error names the ply and the move.
Status playLine(Position& pos, const std::string& moves);

}  // namespace acedrex
