// The commands on one position or game: variants, perft, moves, summary.
#include <iostream>

#include "args.h"
#include "core/game/game.h"
#include "core/position/perft.h"
#include "core/records/pgn.h"
#include "core/position/position.h"

namespace acedrex::cli {
namespace {

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
  if (args.positionalNumbers.size() != 1) return fail("perft needs one DEPTH");
  const int depth = static_cast<int>(args.positionalNumbers[0]);
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
  Game game(rules.value(), args.number("seed", 1));
  if (args.has("fen"))
    if (auto s = game.setStart(args.value("fen")); !s.ok()) return fail(s.error().text());
  if (args.has("moves"))
    if (auto s = game.playAll(args.value("moves")); !s.ok()) return fail(s.error().text());
  if (!args.on("pgn")) {
    if (!args.list("tag").empty()) return fail("--tag needs --pgn");
    std::cout << game.summaryJson() << "\n";
    return 0;
  }
  // The game's record (src/core/pgn.h) with the caller's tags: what a match
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

}  // namespace

Result<std::shared_ptr<const Rules>> rulesFor(const Args& args, VariantRegistry& reg) {
  if (args.has("variants"))
    if (auto s = reg.loadDirectory(args.value("variants")); !s.ok()) return s.error();
  if (!args.has("variant")) return makeError("usage", "--variant is required");
  return reg.rules(args.value("variant"), args.list("option"));
}

std::vector<Command> positionCommands() {
  using F = Flag;
  return {
      {"variants", "List the variants and their options.", {variantsDirFlag()}, "", "", cmdVariants},
      {"perft",
       "Count the move paths of length DEPTH (0 to 99).",
       {variantFlag(), optionFlag(), fenFlag(), movesFlag(), {"divide", F::kSwitch, "", "print the count for each first move"},
        variantsDirFlag()},
       "DEPTH",
       "a number from 0 to 99",
       cmdPerft,
       "",
       true,
       0,
       99},
      {"moves",
       "List the legal moves of a position.",
       {variantFlag(), optionFlag(), fenFlag(), movesFlag(),
        {"san", F::kSwitch, "", "each move followed by its SAN (as the PGN writes it)"}, variantsDirFlag()},
       "",
       "",
       cmdMoves},
      {"summary",
       "Play moves as a game and print its state as one JSON object (or, with --pgn, its record).",
       {variantFlag(),
        optionFlag(),
        fenFlag(),
        movesFlag(),
        F::number("seed", "N", "the die's seed, up to 19 digits (default 1)", 0, 9999999999999999999ULL),
        {"pgn", F::kSwitch, "", "print the game's record (PGN, PGN4 for more seats) instead of the JSON"},
        {"tag", F::kRepeated, "NAME=VALUE", "with --pgn: a tag of the record (repeat the flag for several)"},
        variantsDirFlag()},
       "",
       "",
       cmdSummary},
  };
}

}  // namespace acedrex::cli
