// `acedrex bench`: perft and search speed, against Fairy-Stockfish where it
// is installed (run as a child process); its last lines are the signatures.
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <sstream>

#include "args.h"
#include "core/game/game.h"
#include "core/position/perft.h"
#include "core/position/position.h"
#include "engine/bot.h"
#include "protocol/child_process.h"

namespace acedrex::cli {
namespace {

struct BenchCase {
  std::string variant;
  std::vector<std::string> options;
  std::string fen;  // empty: start
  int depth;
};

std::vector<BenchCase> benchCases(int scale) {
  return {
      {"shako", {}, "", 3 + scale},
      {"shako", {}, "4kc3c/ernbq1b1re/ppp3p1pp/3p2pp2/4p5/5P4/2PN2P3/PP1PP2PPP/ER1BQKBNR1/5C3C w KQ - 0 9", 2 + scale},
      // No castling into check in these positions, which Debian's Fairy-Stockfish 11.1 would allow.
      {"shako", {}, "4ncr1k1/1cr2P4/pp2p2pp1/P7PN/2Ep1p4/B3P1eN2/2P1n1P3/1B1P1K4/9p/5C2CR w - - 0 1", 2 + scale},
      {"four-seasons", {}, "", 5 + scale},
      {"joko-urtaroak", {}, "", 4 + scale},
      {"four-player-chess", {}, "", 4 + scale},
      {"three-player-chess", {}, "", 3 + scale},
      {"three-player-chess", {}, "w-wbr-*-3-19-x,x,x,x,rQ,rB,rN,rR,rK,1,rN,rR/x,x,x,x,rPs,rPs,1,rPs,2,rPs,1/x,x,x,x,2,rPs,2,rPs,1,rPs/x,x,x,x,1,rB,1,wPn,3,bPe/bR,bN,bB,bK,x,x,x,x,1,bB,bN,bR/bPe,1,bPe,1,x,x,x,x,bPe,bPe,bPe,1/1,bPe,bQ,1,x,x,x,x,4/3,bPe,x,x,x,x,rPs,3/8,x,x,x,x/wPn,2,wPn,4,x,x,x,x/1,wPn,wPn,1,wPn,wPn,wPn,1,x,x,x,x/wR,wN,wB,wQ,wK,wB,wN,wR,x,x,x,x", 2 + scale},
      {"grant-acedrex", {"king-leap=yes", "pawn-double=always"}, "", 2 + scale},
      {"xiangqi", {}, "", 3 + scale},
      {"xiangqi", {}, "r2a1ab1r/4k4/2n1b3n/p1p3p2/1C2p1C1p/P1P6/4P1P1P/c3B4/8R/RNBAKA1N1 w - - 15 16", 3 + scale},
      {"janggi", {}, "", 3 + scale},
      {"janggi", {}, "rnba1abnr/4k4/1c5c1/p2pp2pR/9/9/P1PP2PP1/1CN4C1/4K4/R1BAA1BN1 b - - 2 5", 3 + scale},
      {"antichess", {}, "", 4 + scale},
      {"atomic", {}, "", 4 + scale},
      {"atomic", {}, "r4b1r/2kb1N2/p2Bpnp1/8/2Pp3p/1P1PPP2/P5PP/R3K2R b KQ - 0 1", 3 + scale},
      {"crazyhouse", {}, "", 3 + scale},
      {"crazyhouse", {}, "1r2kb1r/p1p1n1pp/1p1P4/3NnpP1/PP1Pp3/4P2b/1B2qP1P/RNQ2RKB[P] w k - 1 19", 2 + scale},
      {"shogi", {}, "", 3 + scale},
      {"shogi", {}, "lr4snl/2sg1k1b1/pp2g2pp/2ppppp2/1P6P/3P5/2P1P1PP1/LBR1KS2L/1+nSG2GN1[npp] b - - 1 20", 2 + scale},
      {"minishogi", {}, "", 4 + scale},
      {"chess", {}, "", 4 + scale},
      {"fischerandom", {}, "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", 3 + scale},
      {"chaturanga", {}, "", 4 + scale},
      {"shatranj", {}, "", 4 + scale},
      {"makruk", {}, "", 4 + scale},
      {"cambodian", {}, "", 4 + scale},
      {"fog-of-war", {}, "", 4 + scale},  // no Fairy-Stockfish counterpart: no ratio
      // The setup phase from the start, and a middlegame with a promotion to come.
      {"sittuyin", {}, "", 2 + scale},
      {"sittuyin", {}, "1ss5/1k4r1/f3p2p/1pSnPp1P/pPp2P2/P1Rp1K2/3S2N1/4R3[] w - - 0 43", 3 + scale},
      // Duck: moves times duck squares (640 turns from the start); Debian's 11.1 lacks it.
      {"duck", {}, "", 2 + scale},
      {"duck", {}, "rnbqk1nr/pppp1ppp/8/4p1B1/3P3*/b4P2/PPP1P1PP/RN1QKBNR w KQkq - 3 4", 1 + scale},
      // Friendly chess (unions and chains; no Fairy-Stockfish counterpart).
      {"friendly-chess", {}, "", 3 + scale},
      {"friendly-chess", {}, "r1b1r3/2Pk4/n1a1p2p/1faB1pNn/c4EpN/6qP/1P1B1PPK/7R w - - 13 36", 2 + scale},
      // Chaturaji (no Fairy-Stockfish counterpart): the start, and a middlegame with a dead army.
      {"chaturaji", {}, "", 5 + scale},
      {"chaturaji", {}, "Y-1,0,0,0-0,0,0,0-0,0,0,0-0,0,0,0-0-1,bP,3,yB,1,yR/bR,bP,2,yK,yP,yP,1/bB,7/bK,1,bP,4,yP/6,gK,1/5,yN,2/bN,rP,rP,rP,3,gN/rR,rN,rB,2,gB,gP,gR", 3 + scale},
  };
}

// The games whose perft is compared with Fairy-Stockfish's in the same run.
const char* const kReferenceVariants[] = {"shako",      "chess",  "fischerandom", "chaturanga", "shatranj",
                                           "makruk",     "cambodian", "sittuyin",  "xiangqi",    "janggi",     "antichess",
                                           "atomic",     "crazyhouse", "shogi",    "minishogi", "duck"};

// The binary named by ACEDREX_FAIRY_STOCKFISH or FAIRY_STOCKFISH (a current
// build from source, which has atomic and duck), else Debian's 11.1 (which
// plays chess when asked for atomic: the node counts then differ, which the
// ratio line says).
const char* fairyStockfishPath() {
  for (const char* name : {"ACEDREX_FAIRY_STOCKFISH", "FAIRY_STOCKFISH"})
    if (const char* env = std::getenv(name); env && *env) return env;
  return "/usr/games/fairy-stockfish";
}

// Runs `exe` (no shell) with `input` on its standard input and calls `onLine`
// with each line of its standard output. False when it cannot be started.
// The input is written whole before the output is read, so it must fit in the
// pipe's buffer (64 KiB on Linux; the scripts here are a few hundred bytes).
bool runProgram(const char* exe, const std::string& input, const std::function<void(const std::string&)>& onLine) {
  if (input.size() > 4096) return false;
  protocol::ChildProcess child;
  if (!child.start(exe).ok()) return false;
  // A program that exits without reading its input must not kill us with SIGPIPE.
  struct sigaction ignore = {};
  struct sigaction old = {};
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGPIPE, &ignore, &old);
  (void)child.write(input);
  child.closeInput();
  sigaction(SIGPIPE, &old, nullptr);
  for (std::string line; child.readLine(&line, -1) == protocol::ChildProcess::Read::kLine;) onLine(line);
  child.wait();
  return true;
}

// Runs Fairy-Stockfish's own perft on the same positions of one game; returns seconds or -1.
double referenceSeconds(const std::string& variant, const std::vector<BenchCase>& cases, uint64_t& nodes) {
  const char* fsf = fairyStockfishPath();
  if (access(fsf, X_OK) != 0) return -1;
  std::string script = "uci\nsetoption name UCI_Variant value " + variant + "\n";
  for (const auto& c : cases) {
    if (c.variant != variant) continue;
    script += "position " + (c.fen.empty() ? std::string("startpos") : "fen " + c.fen) + "\n";
    script += "go perft " + std::to_string(c.depth) + "\n";
  }
  script += "quit\n";
  // The process's start-up time is measured apart and taken off.
  const auto s0 = std::chrono::steady_clock::now();
  if (!runProgram(fsf, "quit\n", [](const std::string&) {})) return -1;
  const double startup = std::chrono::duration<double>(std::chrono::steady_clock::now() - s0).count();
  const auto t0 = std::chrono::steady_clock::now();
  nodes = 0;
  const bool ran = runProgram(fsf, script, [&](const std::string& l) {
    if (l.rfind("Nodes searched: ", 0) == 0) nodes += std::strtoull(l.c_str() + 16, nullptr, 10);
  });
  if (!ran) return -1;
  // Below the start-up time's noise the difference may come out negative: "too fast", not "not found".
  return std::max(0.0, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() - startup);
}

// Search speed on the Shako bench positions: each engine searches each
// position for `ms` milliseconds; nodes per second as each engine counts them.
struct SearchSpeed {
  uint64_t nodes = 0;
  double seconds = 0;
};

// Shako positions for the search speed: the start, a middlegame and an early
// opening. (The third perft position is left out: Fairy-Stockfish answers it at
// once, it has a single sensible reply.)
std::vector<BenchCase> searchCases() {
  return {{"shako", {}, "", 0},
          {"shako", {}, "4kc3c/ernbq1b1re/ppp3p1pp/3p2pp2/4p5/5P4/2PN2P3/PP1PP2PPP/ER1BQKBNR1/5C3C w KQ - 0 9", 0},
          {"shako", {}, "c8c/ernbqkb1re/ppppp1p1p1/6np1p/5p4/P7P1/3N1P4/1PPPP1PP1P/ER1BQKBNRE/C8C w KQkq - 0 5", 0}};
}

SearchSpeed ourSearchSpeed(VariantRegistry& reg, const std::vector<BenchCase>& cases, int ms) {
  SearchSpeed out;
  auto rules = reg.rules("shako", {});
  if (!rules.ok()) return out;
  auto bot = engine::makeBot(*rules, engine::kFullStrength, 1);
  for (const auto& c : cases) {
    if (c.variant != "shako") continue;
    Game game(*rules);
    if (!c.fen.empty() && !game.setStart(c.fen).ok()) continue;
    engine::SearchLimits limits;
    limits.moveTimeMs = ms;
    std::atomic<bool> stop{false};
    bot->newGame();
    const auto t0 = std::chrono::steady_clock::now();
    const auto r = bot->choose(game, limits, stop);
    out.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    out.nodes += r.info.nodes;
  }
  return out;
}

SearchSpeed referenceSearchSpeed(const std::vector<BenchCase>& cases, int ms) {
  SearchSpeed out;
  if (access(fairyStockfishPath(), X_OK) != 0) return out;
  std::string script = "uci\nsetoption name UCI_Variant value shako\nsetoption name Hash value 32\n";
  for (const auto& c : cases) {
    if (c.variant != "shako") continue;
    script += "ucinewgame\nposition " + (c.fen.empty() ? std::string("startpos") : "fen " + c.fen) + "\n";
    script += "go movetime " + std::to_string(ms) + "\nisready\n";
  }
  script += "quit\n";
  // `quit` is read only after the searches end: isready waits for each bestmove.
  uint64_t lastNodes = 0;
  double lastSec = 0;
  runProgram(fairyStockfishPath(), script, [&](const std::string& line) {
    std::istringstream in(line);
    std::string w;
    in >> w;
    if (w == "bestmove") {
      out.nodes += lastNodes;
      out.seconds += lastSec;
      lastNodes = 0;
      lastSec = 0;
      return;
    }
    if (w != "info") return;
    while (in >> w) {
      if (w == "nodes")
        in >> lastNodes;
      else if (w == "time") {
        long long t = 0;
        in >> t;
        lastSec = t / 1000.0;
      }
    }
  });
  return out;
}

// The search's signature: fixed-depth searches of two-seat positions, each
// by a fresh full-strength bot, one thread; the total of their nodes changes
// exactly when the search or the evaluation decides differently.
struct SearchSignatureCase {
  std::string variant;
  std::string fen;  // empty: the start
  int depth;
};

uint64_t searchSignature(VariantRegistry& reg) {
  const std::vector<SearchSignatureCase> cases = {
      {"chess", "", 10},
      {"chess", "r1bq1rk1/pp2bppp/2n1pn2/2pp4/3P4/2PBPN2/PP1N1PPP/R1BQ1RK1 w - - 0 8", 9},
      {"chess", "8/5pk1/6p1/3R4/5P2/6PK/r7/8 b - - 3 45", 12},
      {"shako", "", 8},
      {"xiangqi", "", 8},
      {"crazyhouse", "", 7},
  };
  uint64_t total = 0;
  for (const auto& c : cases) {
    auto rules = reg.rules(c.variant, {});
    if (!rules.ok()) continue;
    Game game(*rules);
    if (!c.fen.empty() && !game.setStart(c.fen).ok()) continue;
    auto bot = engine::makeBot(*rules, engine::kFullStrength, 1);
    engine::SearchLimits limits;
    limits.depth = c.depth;
    std::atomic<bool> stop{false};
    total += bot->choose(game, limits, stop).info.nodes;
  }
  return total;
}

int cmdBench(const Args& args) {
  const int scale = static_cast<int>(args.number("depth-scale", 1));
  const int searchMs = static_cast<int>(args.number("search-ms", 1000));
  const int rounds = static_cast<int>(args.number("rounds", 1));
  VariantRegistry reg = VariantRegistry::withEmbedded();
  const auto cases = benchCases(scale);
  std::map<std::string, std::pair<uint64_t, double>> per;
  uint64_t signature = 0;
  for (const auto& c : cases) {
    auto rules = reg.rules(c.variant, c.options);
    if (!rules.ok()) return fail(rules.error().text());
    Position pos(rules.value());
    if (auto s = pos.set(c.fen.empty() ? (*rules)->start : c.fen); !s.ok()) return fail(s.error().text());
    const auto t0 = std::chrono::steady_clock::now();
    const uint64_t n = perft(pos, c.depth);
    const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    per[c.variant].first += n;
    per[c.variant].second += sec;
    signature += n;
    std::printf("%-14s depth %d  %12llu nodes  %8.3f s  %10.0f nodes/s\n", c.variant.c_str(), c.depth,
                static_cast<unsigned long long>(n), sec, n / std::max(sec, 1e-9));
  }
  std::printf("\n");
  for (const auto& [v, ns] : per)
    std::printf("%-14s %12llu nodes  %10.0f nodes/s\n", v.c_str(), static_cast<unsigned long long>(ns.first),
                ns.first / std::max(ns.second, 1e-9));
  for (const char* variant : kReferenceVariants) {
    if (args.on("no-reference")) break;
    uint64_t refNodes = 0;
    const double refSec = referenceSeconds(variant, cases, refNodes);
    if (refSec > 0.001) {
      const double ours = per[variant].first / std::max(per[variant].second, 1e-9);
      const double theirs = refNodes / refSec;
      std::printf("fairy-stockfish %-12s %12llu nodes  %10.0f nodes/s (start-up time excluded)\n", variant,
                  static_cast<unsigned long long>(refNodes), theirs);
      std::printf("%s speed ratio acedrex/fairy-stockfish: %.3f%s\n", variant, ours / theirs,
                  refNodes == per[variant].first ? "" : "  (NODE COUNTS DIFFER)");
    } else {
      std::printf(refSec < 0 ? "fairy-stockfish not found: no %s reference ratio\n"
                             : "fairy-stockfish finished %s too fast to time: use a larger --depth-scale\n",
                  variant);
    }
  }
  if (searchMs > 0) {
    // Rounds alternate which program searches first, so that a change in the
    // machine's speed within a run falls on both; the ratio is the median round's.
    const int ms = searchMs;
    std::printf("\nsearch, shako, %d ms a position, %d round%s\n", ms, rounds,
                rounds == 1 ? "" : "s");
    std::vector<double> ratios;
    bool noRef = false;
    for (int round = 1; round <= rounds; ++round) {
      SearchSpeed ours, ref;
      const bool theirsFirst = round % 2 == 0 && !args.on("no-reference");
      if (theirsFirst) ref = referenceSearchSpeed(searchCases(), ms);
      ours = ourSearchSpeed(reg, searchCases(), ms);
      if (!theirsFirst && !args.on("no-reference")) ref = referenceSearchSpeed(searchCases(), ms);
      const double oursNps = ours.nodes / std::max(ours.seconds, 1e-9);
      if (rounds > 1) std::printf("round %d:\n", round);
      std::printf("acedrex search         %8llu nodes  %10.0f nodes/s\n", static_cast<unsigned long long>(ours.nodes),
                  oursNps);
      if (args.on("no-reference")) continue;
      if (ref.seconds <= 0.001) {
        noRef = true;
        break;
      }
      const double refNps = ref.nodes / ref.seconds;
      std::printf("fairy-stockfish search %8llu nodes  %10.0f nodes/s  ratio %.3f\n",
                  static_cast<unsigned long long>(ref.nodes), refNps, oursNps / refNps);
      ratios.push_back(oursNps / refNps);
    }
    if (noRef) std::printf("fairy-stockfish not found: no search reference\n");
    if (!ratios.empty()) {
      std::sort(ratios.begin(), ratios.end());
      const size_t n = ratios.size();
      const double median = n % 2 ? ratios[n / 2] : (ratios[n / 2 - 1] + ratios[n / 2]) / 2;
      std::printf("shako search speed ratio acedrex/fairy-stockfish: %.3f%s\n", median,
                  n > 1 ? " (the median round)" : "");
    }
  }
  std::printf("Search bench: %llu\n", static_cast<unsigned long long>(searchSignature(reg)));
  std::printf("Bench: %llu\n", static_cast<unsigned long long>(signature));
  return 0;
}

}  // namespace

Command benchCommand() {
  using F = Flag;
  Flag depthScale = F::number("depth-scale", "N", "0, 1 or 2: depth added to the bench positions (default 1)", 0, 2);
  depthScale.badNumber = "--depth-scale is 0, 1 or 2";
  return {"bench",
          "Perft and search speed, against Fairy-Stockfish on Shako; the last line is the signature.",
          {depthScale,
           F::number("search-ms", "MS", "0 to 600000: search time per position; 0 skips the search part (default 1000)", 0,
                     600000),
           F::number("rounds", "N", "1 to 100 rounds of the search comparison (default 1)", 1, 100),
           {"no-reference", F::kSwitch, "", "skip the Fairy-Stockfish comparisons"}},
          "",
          "",
          cmdBench};
}

}  // namespace acedrex::cli
