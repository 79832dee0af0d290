// libFuzzer target: position text on every variant.
//
// Input: a first line choosing the variant and options ("shako",
// "grant-acedrex king-leap=no die=on"; anything else: every variant, with its
// default options and each single option changed), then the position text.
// Checks, on each rule set: a failed set() leaves the position as it was and
// says why; a successful one is valid, and its text() reads back to the same
// text and hash; from it, perft 2 with make/unmake restores the text and hash
// after every move (fuzz_rules.h), and counts as perft() does; a Game set up
// from the same text agrees and plays a move.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "core/game/game.h"
#include "core/position/perft.h"
#include "core/position/position.h"
#include "core/variant/variant.h"
#include "fuzz_rules.h"

namespace {

using namespace acedrex;
using acedrex::fuzz::WalkContext;

void checkRoundTrip(const WalkContext& c, const Position& pos) {
  acedrex::fuzz::checkValid(c, pos, "after set()");
  const std::string text = pos.text();
  Position again(pos.rulesPtr());
  auto s = again.set(text);
  if (!s.ok()) acedrex::fuzz::walkFail(c, pos, "text() does not read back: " + s.error().text());
  if (again.text() != text) acedrex::fuzz::walkFail(c, pos, "text() reads back as \"" + again.text() + "\"");
  if (again.hash() != pos.hash()) acedrex::fuzz::walkFail(c, pos, "hash differs after reading back");
}

void onRules(const std::shared_ptr<const Rules>& rules, const std::string& text) {
  WalkContext c{"fen_fuzz", rules->variant + " | " + text};
  Position pos(rules);
  if (!pos.set(rules->start).ok()) acedrex::fuzz::walkFail(c, pos, "the start position does not set");
  const std::string before = pos.text();
  const uint64_t beforeHash = pos.hash();
  auto s = pos.set(text);
  if (!s.ok()) {
    if (pos.text() != before || pos.hash() != beforeHash) acedrex::fuzz::walkFail(c, pos, "a failed set() changed the position");
    if (s.error().message.empty()) acedrex::fuzz::walkFail(c, pos, "an error without a message");
    return;
  }
  checkRoundTrip(c, pos);
  // Perft 2, make/unmake, text and hash restored (turn starts and finished games included).
  const std::string here = pos.text();
  acedrex::fuzz::perft2(c, pos);
  if (pos.text() != here) acedrex::fuzz::walkFail(c, pos, "perft changed the position");

  // The same text through a Game: accepted too, and a legal move plays.
  Game game(rules, 7);
  auto g = game.setStart(text);
  if (!g.ok()) acedrex::fuzz::walkFail(c, pos, "Game::setStart refuses what Position::set accepts: " + g.error().text());
  if (!game.finished()) {
    const auto moves = game.legalMoves();
    if (moves.empty()) acedrex::fuzz::walkFail(c, pos, "Game::legalMoves() is empty in a game that goes on");
    const std::string mt = game.position().moveText(moves[moves.size() / 2]);
    if (auto p = game.play(mt); !p.ok()) acedrex::fuzz::walkFail(c, pos, "Game::play refused its own move " + mt + ": " + p.error().text());
    acedrex::fuzz::checkValid(c, game.position(), "after Game::play(" + mt + ")");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  const size_t nl = input.find('\n');
  const std::string selector = nl == std::string::npos ? std::string() : input.substr(0, nl);
  const std::string text = nl == std::string::npos ? input : input.substr(nl + 1);
  for (const auto& rules : acedrex::fuzz::choose(selector)) onRules(rules, text);
  return 0;
}
