// Chaturaji as chess.com plays it: the variant-file key `awards` (what the
// free-for-all points give besides captures). Position's side is in
// chaturaji.cpp too. docs/variant-files.md describes the key.
#pragma once

#include "core/result.h"
#include "core/variant.h"

namespace acedrex {

Status readAwards(Rules& r, const VariantLine& l);

}  // namespace acedrex
