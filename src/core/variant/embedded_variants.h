// The variant files under variants/, embedded at build time.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace acedrex {

// (file name, text) for each embedded variant file.
const std::vector<std::pair<std::string, std::string>>& embeddedVariantFiles();

}  // namespace acedrex
