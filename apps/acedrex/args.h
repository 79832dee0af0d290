// The parsed command line of one subcommand, and the table that declares a
// subcommand's flags. The parsing itself (CLI11) lives in commands.cpp only;
// this header keeps CLI11 out of the other files.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/base/result.h"

namespace acedrex::cli {

// One flag of a subcommand, as declared to the parser and shown in its help.
struct Flag {
  enum Kind {
    kValue,     // --name VALUE or --name=VALUE; given twice, the last value counts
    kRepeated,  // --name VALUE, repeatable; every value is kept in order
    kSwitch,    // --name, no value
  };
  std::string name;  // without the leading "--"
  Kind kind = kValue;
  std::string valueName;  // shown in the help: "V", "N", "FILE"
  std::string help;
};

struct Args {
  std::map<std::string, std::string> values;              // kValue flags that were given
  std::map<std::string, std::vector<std::string>> lists;  // kRepeated flags that were given
  std::set<std::string> switches;                         // kSwitch flags that were given
  std::vector<std::string> positional;

  bool has(const std::string& name) const { return values.count(name) > 0; }
  bool on(const std::string& name) const { return switches.count(name) > 0; }
  const std::string& value(const std::string& name) const { return values.at(name); }
  std::vector<std::string> list(const std::string& name) const {
    auto it = lists.find(name);
    return it == lists.end() ? std::vector<std::string>{} : it->second;
  }
};

// Prints "error: MSG" on standard error; returns 2 (bad input).
int fail(const std::string& msg);

// The value of the number flag `name`, or `def` when it was not given: a whole
// number from lo to hi, else an error "--name must be a number, not "x"" or
// "--name must be from LO to HI".
Result<long long> number(const Args& args, const std::string& name, long long def, long long lo, long long hi);

}  // namespace acedrex::cli
