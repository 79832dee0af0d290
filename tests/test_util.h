// Helpers shared by the tests.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/game.h"
#include "core/perft.h"
#include "core/position.h"
#include "core/variant.h"

namespace acedrex::test {

inline std::shared_ptr<const Rules> rules(const std::string& variant, const std::vector<std::string>& options = {}) {
  static const VariantRegistry reg = VariantRegistry::withEmbedded();
  auto r = reg.rules(variant, options);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().text());
  return r.ok() ? r.value() : nullptr;
}

inline Position position(const std::string& variant, const std::string& fen = "",
                         const std::vector<std::string>& options = {}) {
  auto r = rules(variant, options);
  Position pos(r);
  auto s = pos.set(fen.empty() ? r->start : fen);
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().text());
  return pos;
}

inline std::vector<std::string> legalTexts(Position& pos) {
  MoveList list;
  pos.legalMoves(list);
  std::vector<std::string> out;
  for (Move m : list) out.push_back(pos.moveText(m));
  std::sort(out.begin(), out.end());
  return out;
}

inline bool hasMove(Position& pos, const std::string& text) {
  auto v = legalTexts(pos);
  return std::find(v.begin(), v.end(), text) != v.end();
}

}  // namespace acedrex::test
