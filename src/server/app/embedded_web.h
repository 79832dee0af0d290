// The web front end (web/), compiled into the binary: {path under web/, bytes}.
#pragma once

#include <string_view>
#include <utility>
#include <vector>

namespace acedrex {

const std::vector<std::pair<std::string_view, std::string_view>>& embeddedWebFiles();

}  // namespace acedrex
