// Static exchange evaluation: what a capture wins or loses once both sides
// have taken turns capturing on its square.
#pragma once

#include "core/position/position.h"
#include "engine/eval.h"

namespace acedrex::engine {

// The material balance, in the evaluation's piece values, for the side
// playing the capture `m` if the two sides (the mover's seat against all the
// others) then keep capturing on the target square, each time with their
// least valuable attacker, and each free to stop when going on would lose.
// The board is read as it stands (sliders and hoppers see through the pieces
// that have already captured), but pins and checks are not: a pinned piece
// counts as an attacker. A king captures last, and only onto a square no
// other piece attacks. Moves that are not plain captures score the victim.
int staticExchange(const Position& pos, Move m, const Evaluator& eval);

// The same for any plain move: a capture's static exchange, and for a quiet
// step (a pawn's double step too) what the mover stands to lose on its new
// square (0 or less). Castling, drops, promotions and the other special
// moves score 0.
int moveExchange(const Position& pos, Move m, const Evaluator& eval);

// A plain capture by a piece worth more than its victim (a king is worth
// more than any piece) whose static exchange loses material: the captures
// the searches order last and leave out of quiescence.
bool losesExchange(const Position& pos, Move m, const Evaluator& eval);

// The order key of a capture in every search: the most valuable victim first
// (a king above any piece, a pawn taken en passant at a pawn's 100), then the
// least valuable attacker. Inline: every search scores its captures with it.
inline int captureOrder(const Position& pos, Move m, const Evaluator& eval) {
  const int victimType = typeOf(pos.at(m.to()));
  const int victim = m.flag() == kEnPassant                ? 100
                     : victimType == pos.rules().royalType ? 100000
                                                           : eval.pieceValue(victimType);
  return victim * 16 - eval.pieceValue(typeOf(pos.at(m.from()))) / 16;
}

}  // namespace acedrex::engine
