// acedrex: the one binary. Subcommands: variants, perft, moves, summary, bench,
// uci, match, openings, serve, migrate (cli.cpp parses the command line; each
// command's file declares its flags).
#include <string>
#include <vector>

#include "commands.h"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  return acedrex::cli::run(args);
}
