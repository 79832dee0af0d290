// The commands that play: uci (the UCI loop), match (engines against each
// other), openings (balanced start positions for matches).
#include <atomic>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <set>

#include "args.h"
#include "core/variant/chess960.h"
#include "core/game/game.h"
#include "engine/bot.h"
#include "protocol/match.h"
#include "protocol/uci.h"

namespace acedrex::cli {
namespace {

int cmdUci(const Args& args) {
  VariantRegistry reg = VariantRegistry::withEmbedded();
  if (args.has("variants"))
    if (auto s = reg.loadDirectory(args.value("variants")); !s.ok()) return fail(s.error().text());
  return protocol::runUci(reg);
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
  config.games = static_cast<int>(args.number("games", 10));
  config.moveTimeMs = static_cast<int>(args.number("movetime", 0));
  config.depth = static_cast<int>(args.number("depth", 0));
  config.nodes = static_cast<int>(args.number("nodes", 0));
  config.concurrency = static_cast<int>(args.number("concurrency", 1));
  config.seed = args.number("seed", 1);
  config.maxPlies = static_cast<int>(args.number("max-plies", 600));
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
  const long long count = static_cast<long long>(args.number("count", 100));
  const int plies = static_cast<int>(args.number("plies", 8));
  const int maxScore = static_cast<int>(args.number("max-score", 60));
  const uint64_t nodes = args.number("nodes", 20000);
  const uint64_t seed = args.number("seed", 1);
  auto bot = engine::makeBot(*rules, engine::kFullStrength, seed);
  DieRng rng(seed * 0x9e3779b97f4a7c15ULL + 1);
  std::set<std::string> seen;
  long long tries = 0;
  while (static_cast<long long>(seen.size()) < count) {
    if (++tries > count * 200) return fail("too few balanced positions found; raise --max-score or lower --plies");
    Game game(*rules, seed + static_cast<uint64_t>(tries));
    // Chess960 (start-array = chess960): each opening starts from an array drawn at random.
    if ((*rules)->chess960Start)
      if (auto s = game.setStart(chess960StartFen(static_cast<int>(rng.below(960)))); !s.ok()) return fail(s.error().text());
    bool alive = true;
    // The plies are a level-2 bot's (one ply deep, much noise): varied but not absurd.
    auto mover = engine::makeBot(*rules, 2, rng.next());
    for (int i = 0; i < plies && alive; ++i) {
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
    limits.nodes = nodes;
    std::atomic<bool> stop{false};
    bot->newGame();
    const auto r = bot->choose(game, limits, stop);
    if (!r.found || r.info.isMate || std::abs(r.info.score) > maxScore) continue;
    seen.insert(text);
    std::cout << text << "\n";
  }
  return 0;
}

}  // namespace

std::vector<Command> playCommands() {
  using F = Flag;
  return {
      {"uci", "The UCI loop on standard input and output (UCI_Variant picks the game).", {variantsDirFlag()}, "", "",
       cmdUci},
      {"match",
       "Play a series of games between engine settings and report scores, Elo and SPRT.",
       {variantFlag(),
        optionFlag(),
        {"engine", F::kRepeated, "SPEC", "an engine, one per seat or two (see below); repeat the flag"},
        F::number("games", "N", "1 to 100000 games (default 10)", 1, 100000),
        F::number("movetime", "MS", "0 to 3600000 ms a move (default 100 when no limit is given)", 0, 3600000),
        {"tc", F::kValue, "S+INC", "a clock per seat: seconds plus increment, e.g. 10+0.1"},
        F::number("depth", "D", "0 to 60 plies a move", 0, 60),
        F::number("nodes", "N", "0 to 1000000000 nodes a move", 0, 1000000000),
        {"openings", F::kValue, "FILE", "start positions, one a line (from \"acedrex openings\")"},
        F::number("concurrency", "N", "1 to 64 games at once (default 1)", 1, 64),
        {"pgn", F::kValue, "FILE", "write every game's record"},
        {"sprt", F::kValue, "ELO0,ELO1", "a sequential probability ratio test, ELO0 < ELO1"},
        baseSeedFlag(),
        {"adjudicate", F::kValue, "CP,MOVES",
         "two seats: resign when both engines agree a side is CP behind for MOVES moves"},
        F::number("max-plies", "N", "1 to 100000 (default 600): a longer game is an agreed draw", 1, 100000),
        variantsDirFlag()},
       "",
       "",
       cmdMatch,
       "SPEC: level=1..9[,algo=brs|paranoid|maxn][,chance=on|off][,params=FILE][,name=X]\n"
       "   or uci=PATH[,OPTION=VALUE...]"},
      {"openings",
       "Write balanced start positions, one a line, for \"match --openings\".",
       {variantFlag(),
        optionFlag(),
        F::number("count", "N", "1 to 100000 positions (default 100)", 1, 100000),
        F::number("plies", "N", "0 to 200 random plies from the start (default 8)", 0, 200),
        F::number("max-score", "CP", "0 to 100000: the bound on the search's score (default 60)", 0, 100000),
        F::number("nodes", "N", "1 to 100000000 nodes for that search (default 20000)", 1, 100000000),
        baseSeedFlag(),
        variantsDirFlag()},
       "",
       "",
       cmdOpenings},
  };
}

}  // namespace acedrex::cli
