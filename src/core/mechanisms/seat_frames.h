// Many seats: the variant-file keys of teams, dead armies, king capture in
// check and the promotion rank. Position's side is in seat_frames.cpp.
// docs/variant-files.md describes each key.
#pragma once

#include "core/base/result.h"
#include "core/variant/variant.h"

namespace acedrex {

Status readPromotionRank(Rules& r, const VariantLine& l);
Status readTeams(Rules& r, const VariantLine& l);
Status readDeadPieces(Rules& r, const VariantLine& l);
Status readKingCaptureInCheck(Rules& r, const VariantLine& l);

}  // namespace acedrex
