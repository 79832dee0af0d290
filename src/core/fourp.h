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
Status readKingCaptureInCheck(Rules& r, const VariantLine& l);
Status readPoints(Rules& r, const VariantLine& l);
Status readPositionText(Rules& r, const VariantLine& l);

}  // namespace acedrex
