// Shared by the fuzz targets: every compiled rule set, and the choice of one
// by the input's first line ("shako", "grant-acedrex king-leap=no die=on";
// anything else picks one of them by a hash of the line).
#pragma once

#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "core/variant.h"

namespace acedrex::fuzz {

struct Rulesets {
  VariantRegistry registry = VariantRegistry::withEmbedded();
  std::vector<std::shared_ptr<const Rules>> all;  // every variant, defaults and each single option change
};

inline const Rulesets& rulesets() {
  static const Rulesets* s = [] {
    auto* out = new Rulesets;
    for (const VariantDef* d : out->registry.all()) {
      auto add = [&](const std::vector<std::string>& opts) {
        auto r = out->registry.rules(d->name, opts);
        if (r.ok()) out->all.push_back(r.value());
      };
      add({});
      for (const auto& o : d->options)
        for (size_t i = 1; i < o.values.size(); ++i) add({o.name + "=" + o.values[i]});
    }
    if (out->all.empty()) std::abort();
    return out;
  }();
  return *s;
}

// Compiling rules is costly (tables, hash keys): once per selector.
inline std::shared_ptr<const Rules> choose(const std::string& selector) {
  static std::map<std::string, std::shared_ptr<const Rules>> cache;
  const Rulesets& s = rulesets();
  if (auto it = cache.find(selector); it != cache.end()) return it->second;
  if (cache.size() > 4096) cache.clear();
  auto& slot = cache[selector];
  std::istringstream in(selector);
  std::string name, opt;
  std::vector<std::string> opts;
  in >> name;
  while (in >> opt) opts.push_back(opt);
  if (s.registry.find(name)) {
    auto r = s.registry.rules(name, opts);
    if (r.ok()) return slot = r.value();
  }
  return slot = s.all[std::hash<std::string>{}(selector) % s.all.size()];
}

}  // namespace acedrex::fuzz
