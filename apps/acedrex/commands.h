// The acedrex subcommands. Each returns the process exit code: 0 on success,
// 2 on bad input (one error line on stderr).
#pragma once

#include <string>
#include <vector>

namespace acedrex::cli {

int run(const std::vector<std::string>& args);

}  // namespace acedrex::cli
