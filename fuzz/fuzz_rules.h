// Shared by the fuzz targets: every compiled rule set, the choice of rule
// sets by the input's first line ("shako", "grant-acedrex king-leap=no
// die=on": that one; anything else: all of them, or one of them by a hash of
// the line), and the move-generation
// check run from every position that a target reaches (perft 2 with
// make/unmake, the position text and hash restored after every unmake).
#pragma once

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "core/position/perft.h"
#include "core/position/position.h"
#include "core/variant/variant.h"

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

// The rule sets an input runs on: the one its first line names (a variant
// and valid options), or else every rule set. Compiling rules is costly
// (tables, hash keys): once per selector.
inline const std::vector<std::shared_ptr<const Rules>>& choose(const std::string& selector) {
  static std::map<std::string, std::vector<std::shared_ptr<const Rules>>> cache;
  const Rulesets& s = rulesets();
  std::istringstream in(selector);
  std::string name, opt;
  std::vector<std::string> opts;
  in >> name;
  while (in >> opt) opts.push_back(opt);
  if (!s.registry.find(name)) return s.all;
  if (auto it = cache.find(selector); it != cache.end()) return it->second;
  if (cache.size() > 4096) cache.clear();
  auto& slot = cache[selector];
  auto r = s.registry.rules(name, opts);
  if (r.ok()) slot.push_back(r.value());
  else slot = s.all;
  return slot;
}

// One rule set for an input: the one its first line names, or else one of
// all of them by a hash of the line (for targets too slow to run every rule
// set on every input; over many inputs each gets its turn).
inline std::shared_ptr<const Rules> chooseOne(const std::string& selector) {
  const auto& sets = choose(selector);
  if (sets.size() == 1) return sets.front();
  return sets[std::hash<std::string>{}(selector) % sets.size()];
}

// ---------------------------------------------------------------------------
// Move generation from a position: perft 2 with every check we can afford.

struct WalkContext {
  const char* target;     // the fuzz target's name, for the report
  std::string input;      // what led here (variant, text, moves)
};

[[noreturn]] inline void walkFail(const WalkContext& c, const Position& pos, const std::string& what) {
  std::fprintf(stderr, "%s: %s\n  variant: %s\n  input: \"%s\"\n  position: \"%s\"\n", c.target, what.c_str(),
               pos.rules().variant.c_str(), c.input.c_str(), pos.text().c_str());
  std::abort();
}

inline void checkValid(const WalkContext& c, const Position& pos, const std::string& where) {
  std::string why;
  if (!pos.isValid(&why)) walkFail(c, pos, "isValid " + where + ": " + why);
}

// Legal moves against pseudo-legal ones: every legal move is pseudo-legal
// and a move of the side to move, there are no more pseudo-legal moves than
// the position's bound, and pseudoCaptures is exactly the pseudo-legal
// captures and promotions, in order.
inline void checkMoveList(const WalkContext& c, Position& pos, const MoveList& legal) {
  MoveList pseudo, captures;
  pos.pseudoMoves(pseudo);
  pos.pseudoCaptures(captures);
  if (pseudo.size() > pos.moveBound(pos.toMove()) || legal.size() > pseudo.size()) walkFail(c, pos, "move list sizes");
  int next = 0;
  for (Move m : pseudo) {
    if (!pos.isCaptureOrPromotion(m)) continue;
    if (next >= captures.size() || captures[next] != m) walkFail(c, pos, "pseudoCaptures misses " + pos.moveText(m));
    ++next;
  }
  if (next != captures.size()) walkFail(c, pos, "pseudoCaptures has more than the captures and promotions");
  for (Move m : legal) {
    bool found = false;
    for (Move p : pseudo) found = found || p == m;
    if (!found) walkFail(c, pos, "a legal move that is not pseudo-legal: " + pos.moveText(m));
    if (!m.isNull() && (!isPiece(pos.at(m.from())) || seatOf(pos.at(m.from())) != pos.toMove()))
      walkFail(c, pos, "a move of no piece of the side to move: " + pos.moveText(m));
  }
}

// The position's perft to `depth` by make/unmake (and turn starts, as
// perft() does), checking at every node that unmake restores the hash and the
// undo depth, at the root and its children that it restores the text too,
// and that the children are valid. Returns the node count.
inline uint64_t walk(const WalkContext& c, Position& pos, int depth, bool top = true) {
  if (depth == 0) return 1;
  if (pos.finished()) return 0;
  MoveList list;
  pos.legalMoves(list);
  if (top || depth > 1) checkMoveList(c, pos, list);
  const uint64_t hash = pos.hash();
  const int undo = pos.undoDepth();
  const std::string text = depth > 1 ? pos.text() : std::string();
  auto restored = [&](const std::string& after) {
    if (pos.hash() != hash || pos.undoDepth() != undo) walkFail(c, pos, "unmake did not restore the hash after " + after);
    if (depth > 1 && pos.text() != text) walkFail(c, pos, "unmake did not restore the text after " + after);
  };
  if (list.empty()) {
    pos.applyTurnStart();
    if (depth > 1) checkValid(c, pos, "after a turn start");
    const uint64_t n = pos.finished() ? 0 : walk(c, pos, depth, false);
    pos.unmake();
    restored("a turn start");
    return n;
  }
  uint64_t total = 0;
  for (Move m : list) {
    const std::string mt = pos.moveText(m);
    pos.make(m);
    if (depth > 1) checkValid(c, pos, "after " + mt);
    total += walk(c, pos, depth - 1, false);
    pos.unmake();
    restored(mt);
  }
  return total;
}

// Perft 2 from pos, with the checks above; the count must equal perft()'s.
inline void perft2(const WalkContext& c, Position& pos) {
  const uint64_t walked = walk(c, pos, 2);
  const uint64_t counted = perft(pos, 2);
  if (walked != counted) walkFail(c, pos, "perft 2 counts differ: " + std::to_string(walked) + " walked, " +
                                              std::to_string(counted) + " by perft()");
}

}  // namespace acedrex::fuzz
