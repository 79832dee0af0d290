// Four-player chess as chess.com plays it: the variant-file keys that switch
// on its rules (teams, dead armies, points, the promotion rank, chess.com's
// FEN4). Position's side of the mechanism is in fourp.cpp too.
// docs/variant-files.md describes each key.
#pragma once

#include "core/result.h"
#include "core/variant.h"

namespace acedrex {

Status readPromotionRank(Rules& r, const VariantLine& l);
Status readTeams(Rules& r, const VariantLine& l);
Status readDeadPieces(Rules& r, const VariantLine& l);
Status readPoints(Rules& r, const VariantLine& l);
Status readPositionText(Rules& r, const VariantLine& l);

// The fixed awards of chess.com's free-for-all points (Rules::capturePoints).
constexpr int kMatePoints = 20;            // a mate, to the mater
constexpr int kSelfStalematePoints = 20;   // a stalemate, to the stalemated seat
constexpr int kDrawPoints = 10;            // a draw, to each seat still in
constexpr int kLastKingPoints = 20;        // a resigned seat's king, to the last seat in
constexpr int kDoubleCheckPoints[2] = {5, 1};   // two kings checked at once: [0] otherwise, [1] by a queen
constexpr int kTripleCheckPoints[2] = {20, 5};  // three kings

}  // namespace acedrex
