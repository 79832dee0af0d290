// The variant-file key of the promotion move (promotion_move.cpp; the setup
// phase is `drops = setup`, in drops.cpp). docs/variant-files.md describes it.
#pragma once

#include "core/base/result.h"
#include "core/variant/variant.h"

namespace acedrex {

Status readPromotionMove(Rules& r, const VariantLine& l);

}  // namespace acedrex
