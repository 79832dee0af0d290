// chess.com's FEN4: the variant-file key that chooses the position text
// (position-text); Position reads and writes the line (records/fen4.cpp).
#pragma once

#include "core/base/result.h"
#include "core/variant/variant.h"

namespace acedrex {

Status readPositionText(Rules& r, const VariantLine& l);

}  // namespace acedrex
