// Fog of war (Rules::fog, docs/rules/fog-of-war.md): what one seat of a
// two-seat game may know of a position. A seat sees the squares of its own
// pieces and the squares its moves reach (as if it were to move: captures,
// pushes, castling's king and rook squares, an en passant capture's square
// and victim); every other square is hidden. Everything here is computed
// from the full position, and everything it returns depends only on what
// the seat sees.
#pragma once

#include <string>
#include <vector>

#include "core/position/position.h"

namespace acedrex {

// Per square: whether `seat` sees it.
std::vector<bool> visibleSquares(const Position& pos, int seat);

// The view text: a FEN whose board writes `?` for every hidden square
// (digits count visible empty squares only), the side to move, the seat's own
// castling rights only, the en passant square only when the seat is to move
// and may take en passant, `-` for the half-move clock (it would tell of the
// other side's pawn moves), and the move number. E.g. White at the start:
// `????????/????????/????????/????????/8/8/PPPPPPPP/RNBQKBNR w KQ - - 1`.
std::string viewText(const Position& pos, int seat);

// What a watcher holding no seat may see during the game: only the squares
// both seats see, so that watching never tells a seat more than its own view.
std::vector<bool> commonSquares(const Position& pos);

// The view text for any set of visible squares: as viewText, with the rights
// and en passant square of `seat`, or none at all when seat is -1.
std::string maskedText(const Position& pos, const std::vector<bool>& visible, int seat);

// A position built from the seat's view alone, for a bot to search: its own
// pieces and rights, the enemy pieces it sees, an enemy pawn on each hidden
// square that blocks one of its pawn pushes (a push it cannot make shows that
// something stands there), and, when the enemy king is hidden, that king on
// the hidden square nearest its start square where no pawn of the seat could
// take it. The seat's legal moves there are exactly its legal moves in the
// real position. Hidden enemy pieces are otherwise left out.
std::string viewSampleText(const Position& pos, int seat);

}  // namespace acedrex
