#include "commands.h"
#include "serve.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <sstream>

#include "core/game.h"
#include "core/perft.h"
#include "core/position.h"
#include "core/variant.h"
#include "engine/bot.h"
#include "protocol/match.h"
#include "protocol/uci.h"

namespace acedrex::cli {
namespace {

const char* kUsage =
    "usage: acedrex COMMAND [options]\n"
    "  variants                               list the variants and their options\n"
    "  perft --variant V [--option k=v]... [--fen F] [--moves \"m1 m2\"] [--divide] DEPTH\n"
    "  moves --variant V [--option k=v]... [--fen F] [--moves \"...\"]\n"
    "  summary --variant V [--option k=v]... [--fen F] [--moves \"...\"] [--seed N]\n"
    "  bench [--depth-scale N] [--search-ms MS] [--rounds N] [--no-reference]\n"
    "                                         perft and search speed (with Fairy-Stockfish on Shako)\n"
    "  uci                                    the UCI loop (Fairy-Stockfish conventions; UCI_Variant picks the game)\n"
    "  match --variant V --engine SPEC --engine SPEC [...] [--games N] [--movetime MS | --tc S+INC | --depth D |\n"
    "        --nodes N] [--openings FILE] [--concurrency N] [--pgn FILE] [--sprt ELO0,ELO1] [--seed N]\n"
    "        [--adjudicate CP,MOVES] [--max-plies N]\n"
    "        SPEC: level=1..9[,algo=brs|paranoid|maxn][,chance=on|off][,params=FILE][,name=X] or uci=PATH[,OPTION=VALUE...]\n"
    "  openings --variant V [--option k=v]... [--count 100] [--plies 8] [--max-score 60] [--nodes 20000] [--seed N]\n"
    "                                         balanced start positions: random plies, kept when a search scores them\n"
    "                                         within the bound; one position text per line\n"
    "  serve [--port 8080] [--db acedrex.db] [--web web] [...]   the web server (see docs/api.md)\n"
    "common: --variants DIR loads more variant files\n";

struct Args {
  std::string command;
  std::map<std::string, std::string> values;
  std::vector<std::string> options;
  std::vector<std::string> engines;
  std::vector<std::string> positional;
  bool divide = false;
  bool noReference = false;
};

int fail(const std::string& msg) {
  std::cerr << "error: " << msg << "\n";
  return 2;
}

Result<Args> parseArgs(const std::vector<std::string>& a) {
  Args out;
  if (a.empty()) return makeError("usage", "no command");
  out.command = a[0];
  for (size_t i = 1; i < a.size(); ++i) {
    const std::string& t = a[i];
    if (t == "--divide") { out.divide = true; continue; }
    if (t == "--no-reference") { out.noReference = true; continue; }
    if (t.rfind("--", 0) == 0) {
      std::string key = t.substr(2), val;
      const size_t eq = key.find('=');
      if (eq != std::string::npos) {
        val = key.substr(eq + 1);
        key = key.substr(0, eq);
      } else {
        if (i + 1 >= a.size()) return makeError("usage", "--" + key + " needs a value");
        val = a[++i];
      }
      static const char* known[] = {"variant", "option", "fen",   "moves",       "seed",  "variants",
                                    "depth-scale", "engine", "games", "movetime", "tc", "depth",
                                    "nodes",   "openings", "concurrency", "pgn", "sprt", "max-plies",
                                    "adjudicate", "count", "plies", "max-score", "search-ms", "rounds"};
      bool ok = false;
      for (const char* k : known) ok = ok || key == k;
      if (!ok) return makeError("usage", "unknown flag --" + key);
      if (key == "option") out.options.push_back(val);
      else if (key == "engine") out.engines.push_back(val);
      else out.values[key] = val;
      continue;
    }
    out.positional.push_back(t);
  }
  return out;
}

struct Setup {
  VariantRegistry registry = VariantRegistry::withEmbedded();
  std::shared_ptr<const Rules> rules;
};

Result<std::shared_ptr<const Rules>> rulesFor(const Args& args, VariantRegistry& reg) {
  if (args.values.count("variants"))
    if (auto s = reg.loadDirectory(args.values.at("variants")); !s.ok()) return s.error();
  if (!args.values.count("variant")) return makeError("usage", "--variant is required");
  return reg.rules(args.values.at("variant"), args.options);
}

Result<Position> positionFor(const Args& args, const std::shared_ptr<const Rules>& rules) {
  Position pos(rules);
  const std::string fen = args.values.count("fen") ? args.values.at("fen") : rules->start;
  if (auto s = pos.set(fen); !s.ok()) return s.error();
  if (args.values.count("moves"))
    if (auto s = playLine(pos, args.values.at("moves")); !s.ok()) return s.error();
  return pos;
}

int cmdVariants(const Args& args) {
  VariantRegistry reg = VariantRegistry::withEmbedded();
  if (args.values.count("variants"))
    if (auto s = reg.loadDirectory(args.values.at("variants")); !s.ok()) return fail(s.error().text());
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
  if (args.divide) {
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
  MoveList list;
  pos->legalMoves(list);
  for (Move m : list) std::cout << pos->moveText(m) << "\n";
  return 0;
}

int cmdSummary(const Args& args) {
  VariantRegistry reg = VariantRegistry::withEmbedded();
  auto rules = rulesFor(args, reg);
  if (!rules.ok()) return fail(rules.error().text());
  uint64_t seed = 1;
  if (args.values.count("seed")) {
    const std::string& s = args.values.at("seed");
    if (s.empty() || s.size() > 19 || s.find_first_not_of("0123456789") != std::string::npos)
      return fail("--seed must be a number, not \"" + s + "\"");
    seed = std::stoull(s);
  }
  Game game(rules.value(), seed);
  if (args.values.count("fen"))
    if (auto s = game.setStart(args.values.at("fen")); !s.ok()) return fail(s.error().text());
  if (args.values.count("moves"))
    if (auto s = game.playAll(args.values.at("moves")); !s.ok()) return fail(s.error().text());
  std::cout << game.summaryJson() << "\n";
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
      {"grant-acedrex", {"king-leap=yes", "pawn-double=always"}, "", 2 + scale},
  };
}

// Runs Fairy-Stockfish's own perft on the same Shako positions; returns seconds or -1.
double referenceSeconds(const std::vector<BenchCase>& cases, uint64_t& nodes) {
  const char* exe = "/usr/games/fairy-stockfish";
  if (std::system((std::string("test -x ") + exe).c_str()) != 0) return -1;
  std::string script = "uci\nsetoption name UCI_Variant value shako\n";
  for (const auto& c : cases) {
    if (c.variant != "shako") continue;
    script += "position " + (c.fen.empty() ? std::string("startpos") : "fen " + c.fen) + "\n";
    script += "go perft " + std::to_string(c.depth) + "\n";
  }
  script += "quit\n";
  const std::string file = "/tmp/acedrex-bench-fsf.txt";
  if (FILE* f = std::fopen(file.c_str(), "w")) {
    std::fputs(script.c_str(), f);
    std::fclose(f);
  } else {
    return -1;
  }
  // The process's start-up time is measured apart and taken off.
  const auto s0 = std::chrono::steady_clock::now();
  if (FILE* q = popen((std::string("echo quit | ") + exe).c_str(), "r")) {
    char sink[512];
    while (std::fgets(sink, sizeof sink, q)) {
    }
    pclose(q);
  }
  const double startup = std::chrono::duration<double>(std::chrono::steady_clock::now() - s0).count();
  const auto t0 = std::chrono::steady_clock::now();
  FILE* p = popen((std::string(exe) + " < " + file).c_str(), "r");
  if (!p) return -1;
  char line[512];
  nodes = 0;
  while (std::fgets(line, sizeof line, p)) {
    std::string l(line);
    if (l.rfind("Nodes searched: ", 0) == 0) nodes += std::stoull(l.substr(16));
  }
  pclose(p);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() - startup;
}

Result<long long> number(const Args& args, const std::string& key, long long def, long long lo, long long hi) {
  if (!args.values.count(key)) return def;
  const std::string& v = args.values.at(key);
  if (v.empty() || v.size() > 12 || v.find_first_not_of("0123456789") != std::string::npos)
    return makeError("usage", "--" + key + " must be a number, not \"" + v + "\"");
  const long long n = std::stoll(v);
  if (n < lo || n > hi)
    return makeError("usage", "--" + key + " must be from " + std::to_string(lo) + " to " + std::to_string(hi));
  return n;
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
  const char* exe = "/usr/games/fairy-stockfish";
  if (std::system((std::string("test -x ") + exe).c_str()) != 0) return out;
  std::string script = "uci\nsetoption name UCI_Variant value shako\nsetoption name Hash value 32\n";
  for (const auto& c : cases) {
    if (c.variant != "shako") continue;
    script += "ucinewgame\nposition " + (c.fen.empty() ? std::string("startpos") : "fen " + c.fen) + "\n";
    script += "go movetime " + std::to_string(ms) + "\nisready\n";
  }
  script += "quit\n";
  const std::string file = "/tmp/acedrex-bench-fsf-search.txt";
  FILE* f = std::fopen(file.c_str(), "w");
  if (!f) return out;
  std::fputs(script.c_str(), f);
  std::fclose(f);
  // `quit` is read only after the searches end: isready waits for each bestmove.
  FILE* p = popen((std::string(exe) + " < " + file).c_str(), "r");
  if (!p) return out;
  char line[4096];
  uint64_t lastNodes = 0;
  double lastSec = 0;
  while (std::fgets(line, sizeof line, p)) {
    std::istringstream in(line);
    std::string w;
    in >> w;
    if (w == "bestmove") {
      out.nodes += lastNodes;
      out.seconds += lastSec;
      lastNodes = 0;
      lastSec = 0;
      continue;
    }
    if (w != "info") continue;
    while (in >> w) {
      if (w == "nodes") in >> lastNodes;
      else if (w == "time") {
        long long t = 0;
        in >> t;
        lastSec = t / 1000.0;
      }
    }
  }
  pclose(p);
  return out;
}

int cmdBench(const Args& args) {
  int scale = 1;
  if (args.values.count("depth-scale")) {
    const std::string& s = args.values.at("depth-scale");
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
  if (!args.noReference) {
    uint64_t refNodes = 0;
    const double refSec = referenceSeconds(cases, refNodes);
    if (refSec > 0.001) {
      const double ours = per["shako"].first / std::max(per["shako"].second, 1e-9);
      const double theirs = refNodes / refSec;
      std::printf("fairy-stockfish shako %12llu nodes  %10.0f nodes/s (start-up time excluded)\n",
                  static_cast<unsigned long long>(refNodes), theirs);
      std::printf("shako speed ratio acedrex/fairy-stockfish: %.3f%s\n", ours / theirs,
                  refNodes == per["shako"].first ? "" : "  (NODE COUNTS DIFFER)");
    } else {
      std::printf(refSec < 0 ? "fairy-stockfish not found: no reference ratio\n"
                             : "fairy-stockfish finished too fast to time: use a larger --depth-scale\n");
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
      const bool theirsFirst = round % 2 == 0 && !args.noReference;
      if (theirsFirst) ref = referenceSearchSpeed(searchCases(), ms);
      ours = ourSearchSpeed(reg, searchCases(), ms);
      if (!theirsFirst && !args.noReference) ref = referenceSearchSpeed(searchCases(), ms);
      const double oursNps = ours.nodes / std::max(ours.seconds, 1e-9);
      if (*rounds > 1) std::printf("round %d:\n", round);
      std::printf("acedrex search         %8llu nodes  %10.0f nodes/s\n", static_cast<unsigned long long>(ours.nodes),
                  oursNps);
      if (args.noReference) continue;
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
  std::printf("Bench: %llu\n", static_cast<unsigned long long>(signature));
  return 0;
}

int cmdMatch(const Args& args) {
  VariantRegistry reg = VariantRegistry::withEmbedded();
  if (args.values.count("variants"))
    if (auto s = reg.loadDirectory(args.values.at("variants")); !s.ok()) return fail(s.error().text());
  protocol::MatchConfig config;
  if (!args.values.count("variant")) return fail("--variant is required");
  config.variant = args.values.at("variant");
  config.options = args.options;
  for (const auto& e : args.engines) {
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
  if (args.values.count("adjudicate")) {
    const std::string& v = args.values.at("adjudicate");
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
  if (args.values.count("tc")) {
    const std::string& tc = args.values.at("tc");
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
  if (args.values.count("sprt")) {
    const std::string& v = args.values.at("sprt");
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
  if (args.values.count("openings")) {
    std::ifstream in(args.values.at("openings"));
    if (!in) return fail("cannot read " + args.values.at("openings"));
    for (std::string line; std::getline(in, line);)
      if (!line.empty() && line[0] != '#') config.openings.push_back(line);
  }
  if (args.values.count("pgn")) config.pgnPath = args.values.at("pgn");
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

}  // namespace

int run(const std::vector<std::string>& argv) {
  if (argv.empty()) return fail("no command (run \"acedrex help\" for the commands)");
  if (argv[0] == "help" || argv[0] == "--help" || argv[0] == "-h") {
    std::cout << kUsage;
    return 0;
  }
  if (argv[0] == "serve") return cmdServe(std::vector<std::string>(argv.begin() + 1, argv.end()));
  auto args = parseArgs(argv);
  if (!args.ok()) return fail(args.error().text() + " (run \"acedrex help\" for the commands)");
  const std::string& c = args->command;
  if (c == "variants") return cmdVariants(*args);
  if (c == "perft") return cmdPerft(*args);
  if (c == "moves") return cmdMoves(*args);
  if (c == "summary") return cmdSummary(*args);
  if (c == "bench") return cmdBench(*args);
  if (c == "match") return cmdMatch(*args);
  if (c == "openings") return cmdOpenings(*args);
  if (c == "uci") {
    VariantRegistry reg = VariantRegistry::withEmbedded();
    if (args->values.count("variants"))
      if (auto s = reg.loadDirectory(args->values.at("variants")); !s.ok()) return fail(s.error().text());
    return protocol::runUci(reg);
  }
  return fail("unknown command \"" + c + "\" (run \"acedrex help\" for the commands)");
}

}  // namespace acedrex::cli
