// acedrex: the one binary. Subcommands: variants, perft, moves, summary, bench,
// uci, match, openings, serve (apps/acedrex/commands.cpp declares their flags).
#include <string>
#include <vector>

#include "commands.h"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  return acedrex::cli::run(args);
}
