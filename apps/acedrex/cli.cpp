// The command line: the commands' table, their flags declared to CLI11 (the
// one file that sees it), the help, and the dispatch to the command files.
#include <CLI/CLI.hpp>  // only here: the one file that parses the command line
#include <iostream>
#include <map>

#include "args.h"
#include "commands.h"

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

// Every command, in the order the help lists them.
std::vector<Command> commands() {
  std::vector<Command> all = positionCommands();
  all.push_back(benchCommand());
  for (auto& c : playCommands()) all.push_back(std::move(c));
  all.push_back(serveCommand());
  all.push_back(migrateCommand());
  return all;
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
      case Flag::kNumber:
        // The parser checks the text (Flag::numberError) and converts it.
        sub.add_option_function<uint64_t>(
               name, [&args, n = f.name](const uint64_t& v) { args.numbers[n] = v; }, f.help)
            ->type_name(f.valueName)
            ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast)
            ->check(CLI::Validator([f](std::string& text) { return f.numberError(text); }, "", ""));
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

int fail(const std::string& msg) {
  std::cerr << "error: " << msg << "\n";
  return 2;
}

std::string Flag::numberError(const std::string& text) const {
  const bool digits = !text.empty() && text.size() <= 19 && text.find_first_not_of("0123456789") == std::string::npos;
  const uint64_t v = digits ? std::stoull(text) : 0;
  if (digits && ((v >= lo && v <= hi) || (zeroIsOff && v == 0))) return "";
  if (!badNumber.empty()) {
    const size_t at = badNumber.find("%s");
    return at == std::string::npos ? badNumber : badNumber.substr(0, at) + text + badNumber.substr(at + 2);
  }
  const std::string flag = "--" + name;
  if (words == kTakes)
    return flag + " takes " + (zeroIsOff ? "0 (no limit) or " : "") + "a number from " + std::to_string(lo) + " to " +
           std::to_string(hi) + ", not \"" + text + "\"";
  if (!digits) return flag + " must be a number, not \"" + text + "\"";
  return flag + " must be from " + std::to_string(lo) + " to " + std::to_string(hi);
}

Flag variantsDirFlag() { return {"variants", Flag::kValue, "DIR", "load every *.variant file of DIR as well"}; }
Flag variantFlag() { return {"variant", Flag::kValue, "V", "the variant (required; \"acedrex variants\" lists them)"}; }
Flag optionFlag() { return {"option", Flag::kRepeated, "NAME=VALUE", "a rule option; repeat the flag for several"}; }
Flag fenFlag() { return {"fen", Flag::kValue, "F", "the start position (default: the variant's start)"}; }
Flag movesFlag() { return {"moves", Flag::kValue, "\"M1 M2 ...\"", "moves played from that position first"}; }
Flag baseSeedFlag() { return Flag::number("seed", "N", "the base seed, 0 to 2^40 (default 1)", 0, 1ULL << 40); }

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
  } catch (const CLI::ValidationError& e) {
    // A bad number: one error line, as for any bad value (CLI11 says "NAME: "
    // before the words of Flag::numberError).
    const std::string what = e.what();
    const size_t colon = what.find(": ");
    return fail(colon == std::string::npos ? what : what.substr(colon + 2));
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
  // A number positional is checked once the flags are known good (an unknown
  // flag's value would otherwise be taken for it), with a number flag's check.
  if (command->positionalNumber) {
    Flag number = Flag::number(command->positional, "", "", command->positionalLo, command->positionalHi);
    number.badNumber = command->positional + " must be a number from " + std::to_string(command->positionalLo) +
                       " to " + std::to_string(command->positionalHi) + ", not \"%s\"";
    for (const std::string& text : args.positional) {
      if (const std::string bad = number.numberError(text); !bad.empty()) return fail(bad);
      args.positionalNumbers.push_back(std::stoull(text));
    }
  }
  return command->run(args);
}

}  // namespace acedrex::cli
