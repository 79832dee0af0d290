// UCI, following Fairy-Stockfish's conventions, for every Acedrex variant.
//
// Two-seat games: `position startpos|fen F [moves ...]`, `go wtime btime
// winc binc movestogo depth nodes movetime infinite`. Games of more seats use
// the same loop with the FEN4-like position line and one clock per seat named
// by its letter: gtime rtime btime wtime and ginc rinc binc winc.
// `go perft N` prints the divide and "Nodes searched: N". Malformed commands
// are answered with `info string error ...` and change nothing.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/game/game.h"
#include "core/variant/variant.h"
#include "engine/bot.h"

namespace acedrex::protocol {

class UciSession {
 public:
  // `write` receives each output line (without the newline); it may be called from the search thread.
  UciSession(const VariantRegistry& registry, std::function<void(const std::string&)> write);
  ~UciSession();

  // Handles one input line; returns false after "quit".
  bool handle(const std::string& line);
  void waitForSearch();  // joins a running search (for tests and shutdown)
  void finish();         // end of input: lets a bounded search finish, stops an infinite one

 private:
  void cmdUci();
  void cmdSetOption(const std::string& rest);
  void cmdPosition(const std::string& rest);
  void cmdGo(const std::string& rest);
  void error(const std::string& what);
  bool ensureGame();
  void rebuildRules();
  void stopSearch();

  const VariantRegistry& registry_;
  std::function<void(const std::string&)> write_;
  std::mutex writeMutex_;
  std::string variant_ = "shako";
  bool chess960_ = false;  // UCI_Chess960: chess is played with Chess960's notation (as fischerandom)
  std::vector<std::pair<std::string, std::string>> options_;  // variant options
  int level_ = engine::kFullStrength;
  uint64_t seed_ = 1;
  std::shared_ptr<const Rules> rules_;
  std::unique_ptr<Game> game_;
  std::unique_ptr<engine::Bot> bot_;
  std::thread search_;
  std::atomic<bool> stop_{false};
  bool infinite_ = false;
};

// Runs the loop on stdin/stdout.
int runUci(const VariantRegistry& registry);

}  // namespace acedrex::protocol
