// The variant-file key of the promotion move (sittuyin.cpp; the setup phase
// is `drops = setup`, read in drops.cpp). docs/variant-files.md describes it.
#pragma once

#include "core/result.h"
#include "core/variant.h"

namespace acedrex {

Status readPromotionMove(Rules& r, const VariantLine& l);

}  // namespace acedrex
