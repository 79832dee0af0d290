// The evaluation parameter files under src/engine/params/, embedded at build time.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace acedrex {

const std::vector<std::pair<std::string, std::string>>& embeddedParamFiles();

}  // namespace acedrex
