// The hex3 board geometry (three-player chess, docs/rules/three-player-chess.md):
// 96 four-sided cells in three halves of 8x4, laid on a 12x12 grid of
// squares named a1..l12 (the rest are holes). Moves do not come from file
// and rank arithmetic but from the cell graph: files cross from one half into
// the next and turn round, and diagonals through the centre fork in two.
// Rules::buildHex3Tables fills the same move and attack tables as the
// rectangular builder, so move generation needs nothing else.
#pragma once

#include <vector>

#include "core/base/result.h"
#include "core/variant/variant.h"

namespace acedrex {

// The geometry key: `geometry = rect` (the default) or `hex3`.
Status readGeometry(Rules& r, const VariantLine& l);
// stuck-pawn = LETTER (after geometry = hex3 and mate = takeover).
Status readStuckPawn(Rules& r, const VariantLine& l);

// The Triumvirate arena's pawns. A pawn held by `owner` on s heads for the
// back rank of hex3PawnTarget: the other seat of the two its column joins
// when the owner is one of them, else the seat whose half it does not stand
// in (it goes on through the centre). hex3PawnDir: the engine's direction
// for that way (towards the centre in the half `dir`, away from it
// elsewhere), keeping `dir` when it already leads there.
int hex3PawnTarget(Square s, int owner);
int hex3PawnDir(Square s, int owner, int dir);
// A pawn p (already given to its new seat) after a takeover: it heads for
// its new owner's target, or becomes the stuck pawn (stuckType, the
// direction kept) when it stands on a column of its new owner's and that
// way runs back against the way it was going.
Piece hex3TakenPawn(Square s, Piece p, int stuckType);

// A cell of the hex3 board: half h (0..2, the seat whose army starts there),
// x 0..7 from that seat's left, y 0..3 from its back rank.
struct HexCell {
  int half, x, y;
};

// The grid square of a cell, and the cell of a playable square.
Square hex3Square(const HexCell& c);
HexCell hex3Cell(Square s);

// The cells one step from c along the local direction (dx, dy), |dx|, |dy| <= 1,
// each with the local direction that carries on beyond it: none off the
// board, one, or two for a diagonal through the centre.
struct HexStep {
  HexCell cell;
  int dx, dy;
};
std::vector<HexStep> hex3Step(const HexCell& c, int dx, int dy);

}  // namespace acedrex
