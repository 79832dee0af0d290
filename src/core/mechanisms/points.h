// Free-for-all points: the variant-file keys `points` (what a capture
// earns) and `awards` (what the points give besides captures). Position's
// side is in points.cpp. docs/variant-files.md describes the keys.
#pragma once

#include "core/base/result.h"
#include "core/variant/variant.h"

namespace acedrex {

Status readPoints(Rules& r, const VariantLine& l);
Status readAwards(Rules& r, const VariantLine& l);

}  // namespace acedrex
