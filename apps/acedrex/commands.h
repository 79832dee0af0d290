// The acedrex command line. run() returns the process exit code: 0 on
// success, 2 on bad input (one error line on stderr). The commands are in
// files of their own (args.h lists them); cli.cpp parses and dispatches.
#pragma once

#include <string>
#include <vector>

namespace acedrex::cli {

int run(const std::vector<std::string>& args);

}  // namespace acedrex::cli
