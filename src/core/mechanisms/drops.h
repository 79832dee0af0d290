// Hands and drops: the variant-file keys that switch them on (the rest of
// the mechanism is Position's, in drops.cpp). docs/variant-files.md
// describes each key.
#pragma once

#include "core/base/result.h"
#include "core/variant/variant.h"

namespace acedrex {

Status readDrops(Rules& r, const VariantLine& l);
Status readDropRanks(Rules& r, const VariantLine& l);
Status readDropNoDoubled(Rules& r, const VariantLine& l);
Status readDropMate(Rules& r, const VariantLine& l);
Status readPromotionZone(Rules& r, const VariantLine& l);
// Shogi's history rules (Game).
Status readRepetition(Rules& r, const VariantLine& l);

}  // namespace acedrex
