// Duck games (Rules::duck): the engine's choice of the duck's square.
//
// A turn is a move and a duck square, moves times empty squares: too many to
// search. The search tries each move with a few duck squares that a simple
// rule finds (a two-stage turn): first the square that shields the mover's
// king, or else its most valuable attacked piece, from the attack the
// opponent would make next; then a square next to the enemy king, and a
// quiet square far from the play. Every square given is one the duck may
// legally take.
#pragma once

#include "core/position/position.h"
#include "engine/eval.h"

namespace acedrex::engine {

// Replaces each move of `list` (moves alone, as the generator makes them) by
// up to `perMove` turns with the duck squares above, best first; fewer when
// the list would overflow.
void placeDucks(Position& pos, const Evaluator& eval, MoveList& list, int perMove);

// The same for a list of turns from Game::legalMoves (the root): keeps the
// turns whose duck square placeDucks would choose for their move.
std::vector<Move> rootDuckTurns(Position& pos, const Evaluator& eval, const std::vector<Move>& turns, int perMove);

}  // namespace acedrex::engine
