#include "commands.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>  // only here: the one file that parses the command line
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <sstream>

#include "core/variant/chess960.h"
#include "core/game/game.h"
#include "core/position/perft.h"
#include "core/records/pgn.h"
#include "core/position/position.h"
#include "core/variant/variant.h"
#include "engine/bot.h"
#include "protocol/match.h"
#include "protocol/uci.h"
#include "migrate.h"
#include "serve.h"

namespace acedrex::cli {
namespace {

const char* kUsage =
    "usage: acedrex COMMAND [flags]     (acedrex help COMMAND, or acedrex COMMAND --help, lists a command's flags)\n"
    "  variants [--variants DIR]              list the variants and their options\n"
    "  perft --variant V [--option k=v]... [--fen F] [--moves \"m1 m2\"] [--divide] [--variants DIR] DEPTH\n"
    "  moves --variant V [--option k=v]... [--fen F] [--moves \"...\"] [--variants DIR]\n"
    "  summary --variant V [--option k=v]... [--fen F] [--moves \"...\"] [--seed N] [--pgn [--tag NAME=VALUE]...]\n"
    "          [--variants DIR]\n"
    "  bench [--depth-scale N] [--search-ms MS] [--rounds N] [--no-reference]\n"
    "                                         perft and search speed (with Fairy-Stockfish on Shako; others with $ACEDREX_FAIRY_STOCKFISH)\n"
    "  uci [--variants DIR]                   the UCI loop (Fairy-Stockfish conventions; UCI_Variant picks the game)\n"
    "  match --variant V [--option k=v]... --engine SPEC --engine SPEC [...] [--games N]\n"
    "        [--movetime MS | --tc S+INC | --depth D | --nodes N] [--openings FILE] [--concurrency N] [--pgn FILE]\n"
    "        [--sprt ELO0,ELO1] [--seed N] [--adjudicate CP,MOVES] [--max-plies N] [--variants DIR]\n"
    "        SPEC: level=1..9[,algo=brs|paranoid|maxn][,chance=on|off][,params=FILE][,name=X] or "
    "uci=PATH[,OPTION=VALUE...]\n"
    "  openings --variant V [--option k=v]... [--count 100] [--plies 8] [--max-score 60] [--nodes 20000] [--seed N]\n"
    "        [--variants DIR]                 balanced start positions: random plies, kept when a search scores them\n"
    "                                         within the bound; one position text per line\n";

}  // namespace

int fail(const std::string& msg) {
  std::cerr << "error: " << msg << "\n";
  return 2;
}

Result<long long> number(const Args& args, const std::string& key, long long def, long long lo, long long hi) {
  if (!args.has(key)) return def;
  const std::string& v = args.value(key);
  if (v.empty() || v.size() > 12 || v.find_first_not_of("0123456789") != std::string::npos)
    return makeError("usage", "--" + key + " must be a number, not \"" + v + "\"");
  const long long n = std::stoll(v);
  if (n < lo || n > hi)
    return makeError("usage", "--" + key + " must be from " + std::to_string(lo) + " to " + std::to_string(hi));
  return n;
}

namespace {

Result<std::shared_ptr<const Rules>> rulesFor(const Args& args, VariantRegistry& reg) {
  if (args.has("variants"))
    if (auto s = reg.loadDirectory(args.value("variants")); !s.ok()) return s.error();
  if (!args.has("variant")) return makeError("usage", "--variant is required");
  return reg.rules(args.value("variant"), args.list("option"));
}

Result<Position> positionFor(const Args& args, const std::shared_ptr<const Rules>& rules) {
  Position pos(rules);
  const std::string fen = args.has("fen") ? args.value("fen") : rules->start;
  if (auto s = pos.set(fen); !s.ok()) return s.error();
  if (args.has("moves"))
    if (auto s = playLine(pos, args.value("moves")); !s.ok()) return s.error();
  return pos;
}

int cmdVariants(const Args& args) {
  VariantRegistry reg = VariantRegistry::withEmbedded();
  if (args.has("variants"))
    if (auto s = reg.loadDirectory(args.value("variants")); !s.ok()) return fail(s.error().text());
  for (const VariantDef* d : reg.all()) {
    auto rules = Rules::compile(*d, {});
    std::cout << d->name << "  (" << d->title << ", " << (rules.ok() ? (*rules)->nseats() : 0) << " seats)\n";
    for (const auto& o : d->options) {
      std::cout << "  --option " << o.name << "=";
      for (size_t i = 0; i < o.values.size(); ++i) std::cout << (i ? "|" : "") << o.values[i];
      std::cout << "   (default " << o.values.front() << ")";
      if (!o.help.empty()) std::cout << "  " << o.help;
      std::cout << "\n";
    }
  }
  return 0;
}

int cmdPerft(const Args& args) {
  if (args.positional.size() != 1) return fail("perft needs one DEPTH");
  const std::string& d = args.positional[0];
  if (d.empty() || d.size() > 2 || d.find_first_not_of("0123456789") != std::string::npos)
    return fail("DEPTH must be a number from 0 to 99, not \"" + d + "\"");
  const int depth = std::stoi(d);
  VariantRegistry reg = VariantRegistry::withEmbedded();
  auto rules = rulesFor(args, reg);
  if (!rules.ok()) return fail(rules.error().text());
  auto pos = positionFor(args, rules.value());
  if (!pos.ok()) return fail(pos.error().text());
  uint64_t total = 0;
  if (args.on("divide")) {
    for (const auto& [move, n] : perftDivide(pos.value(), depth)) {
      std::cout << move << ": " << n << "\n";
      total += n;
    }
    if (depth == 0) total = 1;
  } else {
    total = perft(pos.value(), depth);
  }
  std::cout << "\nNodes searched: " << total << "\n";
  return 0;
}

int cmdMoves(const Args& args) {
  VariantRegistry reg = VariantRegistry::withEmbedded();
  auto rules = rulesFor(args, reg);
  if (!rules.ok()) return fail(rules.error().text());
  auto pos = positionFor(args, rules.value());
  if (!pos.ok()) return fail(pos.error().text());
  if (args.on("san")) {  // each move with its SAN, from a game at the position (its die throw too)
    Game game(rules.value(), 1);
    if (args.has("fen"))
      if (auto s = game.setStart(args.value("fen")); !s.ok()) return fail(s.error().text());
    if (args.has("moves"))
      if (auto s = game.playAll(args.value("moves")); !s.ok()) return fail(s.error().text());
    for (Move m : game.legalMoves())
      std::cout << game.position().moveText(m) << " " << moveWithSuffix(game, m, sanNotation()) << "\n";
    return 0;
  }
  std::vector<Move> turns;
  pos->legalTurns(turns);
  for (Move m : turns) std::cout << pos->moveText(m) << "\n";
  return 0;
}

int cmdSummary(const Args& args) {
  VariantRegistry reg = VariantRegistry::withEmbedded();
  auto rules = rulesFor(args, reg);
  if (!rules.ok()) return fail(rules.error().text());
  uint64_t seed = 1;
  if (args.has("seed")) {
    const std::string& s = args.value("seed");
    if (s.empty() || s.size() > 19 || s.find_first_not_of("0123456789") != std::string::npos)
      return fail("--seed must be a number, not \"" + s + "\"");
    seed = std::stoull(s);
  }
  Game game(rules.value(), seed);
  if (args.has("fen"))
    if (auto s = game.setStart(args.value("fen")); !s.ok()) return fail(s.error().text());
  if (args.has("moves"))
    if (auto s = game.playAll(args.value("moves")); !s.ok()) return fail(s.error().text());
  if (!args.on("pgn")) {
    if (!args.list("tag").empty()) return fail("--tag needs --pgn");
    std::cout << game.summaryJson() << "\n";
    return 0;
  }
  // The game's record (src/core/records/pgn.h) with the caller's tags: what a match
  // driver outside the program writes for the games it referees.
  PgnWriteOptions record;
  for (const std::string& t : args.list("tag")) {
    const size_t eq = t.find('=');
    if (eq == std::string::npos || eq == 0 ||
        t.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_") < eq)
      return fail("--tag is NAME=VALUE with a name of letters, digits and _, not \"" + t + "\"");
    const std::string value = t.substr(eq + 1);
    if (value.find_first_of("\n\r") != std::string::npos) return fail("a --tag value is one line");
    record.tags.push_back({t.substr(0, eq), value});
  }
  std::cout << writePgn(game, record);
  return 0;
}

// --- bench -----------------------------------------------------------------

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
  int in[2], out[2];
  if (pipe2(in, O_CLOEXEC) != 0) return false;
  if (pipe2(out, O_CLOEXEC) != 0) {
    close(in[0]);
    close(in[1]);
    return false;
  }
  // The child gets the read end of `in` as its standard input and the write end
  // of `out` as its standard output (dup2 clears close-on-exec on the copies);
  // every other descriptor of ours is closed at exec.
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in[0], 0);
  posix_spawn_file_actions_adddup2(&actions, out[1], 1);
  char* const argv[] = {const_cast<char*>(exe), nullptr};
  pid_t pid = -1;
  const int rc = posix_spawn(&pid, exe, &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  close(in[0]);
  close(out[1]);
  if (rc != 0) {
    close(in[1]);
    close(out[0]);
    return false;
  }
  // A program that exits without reading its input must not kill us with SIGPIPE.
  struct sigaction ignore = {};
  struct sigaction old = {};
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGPIPE, &ignore, &old);
  for (size_t done = 0; done < input.size();) {
    const ssize_t n = write(in[1], input.data() + done, input.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += static_cast<size_t>(n);
  }
  close(in[1]);
  sigaction(SIGPIPE, &old, nullptr);
  std::string buf;
  char chunk[4096];
  while (true) {
    const ssize_t n = read(out[0], chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    buf.append(chunk, static_cast<size_t>(n));
    for (size_t nl; (nl = buf.find('\n')) != std::string::npos; buf.erase(0, nl + 1)) onLine(buf.substr(0, nl));
  }
  if (!buf.empty()) onLine(buf);
  close(out[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
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
  int scale = 1;
  if (args.has("depth-scale")) {
    const std::string& s = args.value("depth-scale");
    if (s != "0" && s != "1" && s != "2") return fail("--depth-scale is 0, 1 or 2");
    scale = std::stoi(s);
  }
  const auto searchMs = number(args, "search-ms", 1000, 0, 600000);
  if (!searchMs.ok()) return fail(searchMs.error().text());
  const auto rounds = number(args, "rounds", 1, 1, 100);
  if (!rounds.ok()) return fail(rounds.error().text());
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
  if (*searchMs > 0) {
    // Rounds alternate which program searches first, so that a change in the
    // machine's speed within a run falls on both; the ratio is the median round's.
    const int ms = static_cast<int>(*searchMs);
    std::printf("\nsearch, shako, %d ms a position, %d round%s\n", ms, static_cast<int>(*rounds),
                *rounds == 1 ? "" : "s");
    std::vector<double> ratios;
    bool noRef = false;
    for (int round = 1; round <= *rounds; ++round) {
      SearchSpeed ours, ref;
      const bool theirsFirst = round % 2 == 0 && !args.on("no-reference");
      if (theirsFirst) ref = referenceSearchSpeed(searchCases(), ms);
      ours = ourSearchSpeed(reg, searchCases(), ms);
      if (!theirsFirst && !args.on("no-reference")) ref = referenceSearchSpeed(searchCases(), ms);
      const double oursNps = ours.nodes / std::max(ours.seconds, 1e-9);
      if (*rounds > 1) std::printf("round %d:\n", round);
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

int cmdMatch(const Args& args) {
  VariantRegistry reg = VariantRegistry::withEmbedded();
  if (args.has("variants"))
    if (auto s = reg.loadDirectory(args.value("variants")); !s.ok()) return fail(s.error().text());
  protocol::MatchConfig config;
  if (!args.has("variant")) return fail("--variant is required");
  config.variant = args.value("variant");
  config.options = args.list("option");
  for (const auto& e : args.list("engine")) {
    auto spec = protocol::parseEngineSpec(e);
    if (!spec.ok()) return fail(spec.error().text());
    config.engines.push_back(spec.value());
  }
  auto games = number(args, "games", 10, 1, 100000);
  auto movetime = number(args, "movetime", 0, 0, 3600000);
  auto depth = number(args, "depth", 0, 0, 60);
  auto nodes = number(args, "nodes", 0, 0, 1000000000);
  auto conc = number(args, "concurrency", 1, 1, 64);
  auto seed = number(args, "seed", 1, 0, 1LL << 40);
  auto maxPlies = number(args, "max-plies", 600, 1, 100000);
  for (const auto* r : {&games, &movetime, &depth, &nodes, &conc, &seed, &maxPlies})
    if (!r->ok()) return fail(r->error().text());
  config.games = static_cast<int>(*games);
  config.moveTimeMs = static_cast<int>(*movetime);
  config.depth = static_cast<int>(*depth);
  config.nodes = static_cast<int>(*nodes);
  config.concurrency = static_cast<int>(*conc);
  config.seed = static_cast<uint64_t>(*seed);
  config.maxPlies = static_cast<int>(*maxPlies);
  if (args.has("adjudicate")) {
    const std::string& v = args.value("adjudicate");
    const size_t comma = v.find(',');
    const auto digits = [](const std::string& x) {
      return !x.empty() && x.size() < 7 && x.find_first_not_of("0123456789") == std::string::npos;
    };
    if (comma == std::string::npos || !digits(v.substr(0, comma)) || !digits(v.substr(comma + 1)))
      return fail("--adjudicate is CP,MOVES, e.g. 800,4");
    config.resignCp = std::stoi(v.substr(0, comma));
    config.resignMoves = std::stoi(v.substr(comma + 1));
    if (config.resignCp <= 0 || config.resignMoves <= 0) return fail("--adjudicate needs CP and MOVES above 0");
  }
  if (args.has("tc")) {
    const std::string& tc = args.value("tc");
    const size_t plus = tc.find('+');
    try {
      config.baseMs = static_cast<int>(std::stod(tc.substr(0, plus)) * 1000);
      config.incMs = plus == std::string::npos ? 0 : static_cast<int>(std::stod(tc.substr(plus + 1)) * 1000);
    } catch (...) {
      return fail("--tc is SECONDS+INCREMENT, e.g. 10+0.1");
    }
    if (config.baseMs <= 0 || config.incMs < 0) return fail("--tc is SECONDS+INCREMENT, e.g. 10+0.1");
  }
  if (!config.moveTimeMs && !config.baseMs && !config.depth && !config.nodes) config.moveTimeMs = 100;
  if (args.has("sprt")) {
    const std::string& v = args.value("sprt");
    const size_t comma = v.find(',');
    try {
      config.elo0 = std::stod(v.substr(0, comma));
      config.elo1 = std::stod(v.substr(comma + 1));
    } catch (...) {
      return fail("--sprt is ELO0,ELO1");
    }
    if (comma == std::string::npos || config.elo1 <= config.elo0) return fail("--sprt is ELO0,ELO1 with ELO0 < ELO1");
    config.sprt = true;
  }
  if (args.has("openings")) {
    std::ifstream in(args.value("openings"));
    if (!in) return fail("cannot read " + args.value("openings"));
    for (std::string line; std::getline(in, line);)
      if (!line.empty() && line[0] != '#') config.openings.push_back(line);
  }
  if (args.has("pgn")) config.pgnPath = args.value("pgn");
  auto report = protocol::runMatch(reg, config, std::cerr);
  if (!report.ok()) return fail(report.error().text());
  protocol::printReport(report.value(), config, std::cout);
  return 0;
}

// Balanced start positions for matches and self-play: `plies` plies of a noisy
// level-2 bot from the start, kept when a full-strength search of `nodes` nodes
// scores the result within `max-score` centipawns and the game goes on.
int cmdOpenings(const Args& args) {
  VariantRegistry reg = VariantRegistry::withEmbedded();
  auto rules = rulesFor(args, reg);
  if (!rules.ok()) return fail(rules.error().text());
  auto count = number(args, "count", 100, 1, 100000);
  auto plies = number(args, "plies", 8, 0, 200);
  auto maxScore = number(args, "max-score", 60, 0, 100000);
  auto nodes = number(args, "nodes", 20000, 1, 100000000);
  auto seed = number(args, "seed", 1, 0, 1LL << 40);
  for (const auto* r : {&count, &plies, &maxScore, &nodes, &seed})
    if (!r->ok()) return fail(r->error().text());
  auto bot = engine::makeBot(*rules, engine::kFullStrength, static_cast<uint64_t>(*seed));
  DieRng rng(static_cast<uint64_t>(*seed) * 0x9e3779b97f4a7c15ULL + 1);
  std::set<std::string> seen;
  long long tries = 0;
  while (static_cast<long long>(seen.size()) < *count) {
    if (++tries > *count * 200) return fail("too few balanced positions found; raise --max-score or lower --plies");
    Game game(*rules, static_cast<uint64_t>(*seed) + static_cast<uint64_t>(tries));
    // Chess960 (start-array = chess960): each opening starts from an array drawn at random.
    if ((*rules)->chess960Start)
      if (auto s = game.setStart(chess960StartFen(static_cast<int>(rng.below(960)))); !s.ok()) return fail(s.error().text());
    bool alive = true;
    // The plies are a level-2 bot's (one ply deep, much noise): varied but not absurd.
    auto mover = engine::makeBot(*rules, 2, rng.next());
    for (int i = 0; i < *plies && alive; ++i) {
      engine::SearchLimits one;
      one.depth = 1;
      std::atomic<bool> halt{false};
      const auto r = mover->choose(game, one, halt);
      alive = r.found && game.play(r.best).ok() && !game.finished();
    }
    if (!alive) continue;
    const std::string text = game.position().text();
    if (seen.count(text)) continue;
    engine::SearchLimits limits;
    limits.nodes = static_cast<uint64_t>(*nodes);
    std::atomic<bool> stop{false};
    bot->newGame();
    const auto r = bot->choose(game, limits, stop);
    if (!r.found || r.info.isMate || std::abs(r.info.score) > *maxScore) continue;
    seen.insert(text);
    std::cout << text << "\n";
  }
  return 0;
}

int cmdUci(const Args& args) {
  VariantRegistry reg = VariantRegistry::withEmbedded();
  if (args.has("variants"))
    if (auto s = reg.loadDirectory(args.value("variants")); !s.ok()) return fail(s.error().text());
  return protocol::runUci(reg);
}

// --- the command line ------------------------------------------------------

// A subcommand: its flags (exactly the ones it takes), its positional
// argument if any, and what runs it.
struct Command {
  std::string name;
  std::string summary;
  std::vector<Flag> flags;
  std::string positional;  // perft's DEPTH; empty: none
  std::string positionalHelp;
  int (*run)(const Args&);
  std::string footer = {};
};

std::vector<Command> commands() {
  const Flag variantsDir{"variants", Flag::kValue, "DIR", "load every *.variant file of DIR as well"};
  const Flag variant{"variant", Flag::kValue, "V", "the variant (required; \"acedrex variants\" lists them)"};
  const Flag option{"option", Flag::kRepeated, "NAME=VALUE", "a rule option; repeat the flag for several"};
  const Flag fen{"fen", Flag::kValue, "F", "the start position (default: the variant's start)"};
  const Flag moves{"moves", Flag::kValue, "\"M1 M2 ...\"", "moves played from that position first"};
  const Flag baseSeed{"seed", Flag::kValue, "N", "the base seed, 0 to 2^40 (default 1)"};
  using F = Flag;
  return {
      {"variants", "List the variants and their options.", {variantsDir}, "", "", cmdVariants},
      {"perft",
       "Count the move paths of length DEPTH (0 to 99).",
       {variant, option, fen, moves, {"divide", F::kSwitch, "", "print the count for each first move"}, variantsDir},
       "DEPTH",
       "a number from 0 to 99",
       cmdPerft},
      {"moves",
       "List the legal moves of a position.",
       {variant, option, fen, moves, {"san", F::kSwitch, "", "each move followed by its SAN (as the PGN writes it)"}, variantsDir},
       "",
       "",
       cmdMoves},
      {"summary",
       "Play moves as a game and print its state as one JSON object (or, with --pgn, its record).",
       {variant,
        option,
        fen,
        moves,
        {"seed", F::kValue, "N", "the die's seed, up to 19 digits (default 1)"},
        {"pgn", F::kSwitch, "", "print the game's record (PGN, PGN4 for more seats) instead of the JSON"},
        {"tag", F::kRepeated, "NAME=VALUE", "with --pgn: a tag of the record (repeat the flag for several)"},
        variantsDir},
       "",
       "",
       cmdSummary},
      {"bench",
       "Perft and search speed, against Fairy-Stockfish on Shako; the last line is the signature.",
       {{"depth-scale", F::kValue, "N", "0, 1 or 2: depth added to the bench positions (default 1)"},
        {"search-ms", F::kValue, "MS", "0 to 600000: search time per position; 0 skips the search part (default 1000)"},
        {"rounds", F::kValue, "N", "1 to 100 rounds of the search comparison (default 1)"},
        {"no-reference", F::kSwitch, "", "skip the Fairy-Stockfish comparisons"}},
       "",
       "",
       cmdBench},
      {"uci", "The UCI loop on standard input and output (UCI_Variant picks the game).", {variantsDir}, "", "", cmdUci},
      {"match",
       "Play a series of games between engine settings and report scores, Elo and SPRT.",
       {variant,
        option,
        {"engine", F::kRepeated, "SPEC", "an engine, one per seat or two (see below); repeat the flag"},
        {"games", F::kValue, "N", "1 to 100000 games (default 10)"},
        {"movetime", F::kValue, "MS", "0 to 3600000 ms a move (default 100 when no limit is given)"},
        {"tc", F::kValue, "S+INC", "a clock per seat: seconds plus increment, e.g. 10+0.1"},
        {"depth", F::kValue, "D", "0 to 60 plies a move"},
        {"nodes", F::kValue, "N", "0 to 1000000000 nodes a move"},
        {"openings", F::kValue, "FILE", "start positions, one a line (from \"acedrex openings\")"},
        {"concurrency", F::kValue, "N", "1 to 64 games at once (default 1)"},
        {"pgn", F::kValue, "FILE", "write every game's record"},
        {"sprt", F::kValue, "ELO0,ELO1", "a sequential probability ratio test, ELO0 < ELO1"},
        baseSeed,
        {"adjudicate", F::kValue, "CP,MOVES",
         "two seats: resign when both engines agree a side is CP behind for MOVES moves"},
        {"max-plies", F::kValue, "N", "1 to 100000 (default 600): a longer game is an agreed draw"},
        variantsDir},
       "",
       "",
       cmdMatch,
       "SPEC: level=1..9[,algo=brs|paranoid|maxn][,chance=on|off][,params=FILE][,name=X]\n"
       "   or uci=PATH[,OPTION=VALUE...]"},
      {"openings",
       "Write balanced start positions, one a line, for \"match --openings\".",
       {variant,
        option,
        {"count", F::kValue, "N", "1 to 100000 positions (default 100)"},
        {"plies", F::kValue, "N", "0 to 200 random plies from the start (default 8)"},
        {"max-score", F::kValue, "CP", "0 to 100000: the bound on the search's score (default 60)"},
        {"nodes", F::kValue, "N", "1 to 100000000 nodes for that search (default 20000)"},
        baseSeed,
        variantsDir},
       "",
       "",
       cmdOpenings},
      {"serve", "The web server: page, JSON API, WebSockets (see docs/api.md).", kServeFlags, "", "", cmdServe},
      {"migrate", "Copy every game of a SQLite database into PostgreSQL and verify the copy (docs/deploy.md).",
       kMigrateFlags, "", "", cmdMigrate},
  };
}

// Declares a command's flags to the parser; what is given lands in `args`.
void declare(CLI::App& sub, const Command& command, Args& args) {
  for (const Flag& f : command.flags) {
    const std::string name = "--" + f.name;
    switch (f.kind) {
      case Flag::kSwitch:
        sub.add_flag_callback(
            name, [&args, n = f.name] { args.switches.insert(n); }, f.help);
        break;
      case Flag::kValue:
        sub.add_option_function<std::string>(
               name, [&args, n = f.name](const std::string& v) { args.values[n] = v; }, f.help)
            ->type_name(f.valueName)
            ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
        break;
      case Flag::kRepeated:
        sub.add_option_function<std::vector<std::string>>(
               name, [&args, n = f.name](const std::vector<std::string>& v) { args.lists[n] = v; }, f.help)
            ->type_name(f.valueName)
            ->allow_extra_args(false);
        break;
    }
  }
  if (!command.positional.empty())
    sub.add_option_function<std::string>(
           command.positional, [&args](const std::string& v) { args.positional.push_back(v); }, command.positionalHelp)
        ->type_name("");
  if (!command.footer.empty()) sub.footer(command.footer);
  // Unknown flags and surplus arguments are collected and reported by run().
  sub.allow_extras();
}

// A command-line error: the error line, then the command's help, on standard error.
int usageError(const CLI::App& sub, const std::string& msg) {
  std::cerr << "error: " << msg << "\n\n" << sub.help("acedrex");
  return 2;
}

}  // namespace

int run(const std::vector<std::string>& argv) {
  if (argv.empty()) return fail("no command (run \"acedrex help\" for the commands)");
  const std::vector<Command> all = commands();
  CLI::App root("Acedrex: chess variants", "acedrex");
  root.require_subcommand(1, 1);
  root.get_formatter()->column_width(34);  // room for --max-connections-per-client N
  Args args;
  std::map<std::string, std::pair<const Command*, CLI::App*>> byName;
  for (const Command& c : all) {
    CLI::App* sub = root.add_subcommand(c.name, c.summary);
    declare(*sub, c, args);
    byName[c.name] = {&c, sub};
  }
  if (argv[0] == "help" || argv[0] == "--help" || argv[0] == "-h") {
    if (argv.size() > 1 && byName.count(argv[1])) {
      std::cout << byName.at(argv[1]).second->help("acedrex");
    } else if (argv.size() > 1) {
      return fail("unknown command \"" + argv[1] + "\" (run \"acedrex help\" for the commands)");
    } else {
      std::cout << kUsage << kServeUsage;
    }
    return 0;
  }
  if (!byName.count(argv[0]))
    return fail("unknown command \"" + argv[0] + "\" (run \"acedrex help\" for the commands)");
  const auto [command, sub] = byName.at(argv[0]);
  try {
    std::vector<std::string> reversed(argv.rbegin(), argv.rend());  // CLI11 takes the words last first
    root.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    std::cout << sub->help("acedrex");
    return 0;
  } catch (const CLI::ArgumentMismatch& e) {
    // CLI11 says "--seed: 1 required N missing"; say it our way.
    const std::string what = e.what();
    const size_t colon = what.find(": ");
    if (what.rfind("--", 0) == 0 && colon != std::string::npos && what.find(" missing") != std::string::npos)
      return usageError(*sub, what.substr(0, colon) + " needs a value");
    return usageError(*sub, command->name + ": " + what);
  } catch (const CLI::ParseError& e) {
    return usageError(*sub, command->name + ": " + e.what());
  }
  for (const std::string& extra : sub->remaining()) {
    if (extra.size() > 1 && extra[0] == '-')
      return usageError(*sub, "unknown flag " + extra.substr(0, extra.find('=')) + " for " + command->name);
  }
  if (!sub->remaining().empty())
    return usageError(*sub, command->name + " takes no argument \"" + sub->remaining().front() + "\"");
  return command->run(args);
}

}  // namespace acedrex::cli
