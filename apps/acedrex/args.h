// The parsed command line of one subcommand, the table that declares a
// subcommand's flags, and the subcommands themselves. The parsing itself
// (CLI11) lives in cli.cpp only; this header keeps CLI11 out of the command
// files. Each command file (cmd_*.cpp, serve.cpp, migrate.cpp) returns its
// Command(s): the flags it takes and the function that runs it.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "core/base/result.h"
#include "core/variant/variant.h"

namespace acedrex::cli {

// One flag of a subcommand, as declared to the parser and shown in its help.
struct Flag {
  enum Kind {
    kValue,     // --name VALUE or --name=VALUE; given twice, the last value counts
    kRepeated,  // --name VALUE, repeatable; every value is kept in order
    kSwitch,    // --name, no value
    kNumber,    // --name N: a whole number from lo to hi, parsed and checked by the parser
  };
  // How a bad number is told (kNumber): "--name must be a number, not "x"" and
  // "--name must be from LO to HI" (kMustBe), or "--name takes [0 (no limit)
  // or ]a number from LO to HI, not "x"" (kTakes).
  enum Words { kMustBe, kTakes };
  std::string name;  // without the leading "--"
  Kind kind = kValue;
  std::string valueName;  // shown in the help: "V", "N", "FILE"
  std::string help;
  uint64_t lo = 0, hi = 0;   // kNumber: the range
  bool zeroIsOff = false;    // kNumber: 0 is taken as well (a limit turned off)
  Words words = kMustBe;
  std::string badNumber = {};  // kNumber: the whole error for a bad value, when set ("--depth-scale is 0, 1 or 2")

  // A number flag.
  static Flag number(std::string name, std::string valueName, std::string help, uint64_t lo, uint64_t hi,
                     Words words = kMustBe, bool zeroIsOff = false) {
    Flag f{std::move(name), kNumber, std::move(valueName), std::move(help)};
    f.lo = lo;
    f.hi = hi;
    f.words = words;
    f.zeroIsOff = zeroIsOff;
    return f;
  }
  // The error for the value `text` of a number flag, "" when it is good.
  std::string numberError(const std::string& text) const;
};

struct Args {
  std::map<std::string, std::string> values;              // kValue flags that were given
  std::map<std::string, std::vector<std::string>> lists;  // kRepeated flags that were given
  std::set<std::string> switches;                         // kSwitch flags that were given
  std::map<std::string, uint64_t> numbers;                // kNumber flags that were given (checked)
  std::vector<std::string> positional;
  std::vector<uint64_t> positionalNumbers;                // a number positional (Command::positionalNumber)

  bool has(const std::string& name) const { return values.count(name) > 0 || numbers.count(name) > 0; }
  bool on(const std::string& name) const { return switches.count(name) > 0; }
  const std::string& value(const std::string& name) const { return values.at(name); }
  std::vector<std::string> list(const std::string& name) const {
    auto it = lists.find(name);
    return it == lists.end() ? std::vector<std::string>{} : it->second;
  }
  // The number flag `name`, or `def` when it was not given.
  uint64_t number(const std::string& name, uint64_t def) const {
    auto it = numbers.find(name);
    return it == numbers.end() ? def : it->second;
  }
};

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
  // A positional that is a number from positionalLo to positionalHi (into
  // Args::positionalNumbers); a bad one is "NAME must be a number from LO to HI, not "x"".
  bool positionalNumber = false;
  uint64_t positionalLo = 0, positionalHi = 0;
};

// The flags several commands share.
Flag variantsDirFlag();
Flag variantFlag();
Flag optionFlag();
Flag fenFlag();
Flag movesFlag();
Flag baseSeedFlag();

// The commands, by file: cmd_position.cpp (variants, perft, moves, summary),
// cmd_bench.cpp (bench), cmd_play.cpp (uci, match, openings), serve.cpp, migrate.cpp.
std::vector<Command> positionCommands();
Command benchCommand();
std::vector<Command> playCommands();
Command serveCommand();
Command migrateCommand();
extern const char* kServeUsage;

// The rules of --variant with its --option flags (after loading --variants DIR).
Result<std::shared_ptr<const Rules>> rulesFor(const Args& args, VariantRegistry& reg);

// Prints "error: MSG" on standard error; returns 2 (bad input).
int fail(const std::string& msg);

}  // namespace acedrex::cli
