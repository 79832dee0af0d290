// libFuzzer target: lines of moves on every variant, through playLine and
// Game::playAll.
//
// Input: a first line choosing the variant and options (as in fen_fuzz;
// anything that names no variant picks one of all the rule sets by a hash of
// the line: running all of them on every input made 4 runs a second), then
// bytes: [0] how many guided plies, [1] the die seed, then one byte per
// guided ply choosing among the legal moves (so games get deep), then raw
// move text appended to the line.
// Checks: a move that fails (illegal, malformed, the game over, the wrong die
// face) changes nothing; playLine and playAll stop at the same ply as moves
// played one at a time and leave the same position; positions stay valid;
// every few guided plies and at the end, perft with make/unmake from the
// position reached restores its text and hash (fuzz_rules.h).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "core/game/game.h"
#include "core/position/perft.h"
#include "core/position/position.h"
#include "core/variant/variant.h"
#include "fuzz_rules.h"

namespace {

using namespace acedrex;


std::string g_context;

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "move_fuzz: %s\n  %s\n", what.c_str(), g_context.c_str());
  std::abort();
}

void checkValid(const Position& pos, const std::string& where) {
  std::string why;
  if (!pos.isValid(&why)) fail("isValid after " + where + ": " + why);
}

std::vector<std::string> tokens(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> out;
  for (std::string t; in >> t;) out.push_back(t);
  return out;
}

void onRules(const std::shared_ptr<const Rules>& rules, const std::string& payload);

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  const size_t nl = input.find('\n');
  const std::string selector = nl == std::string::npos ? std::string() : input.substr(0, nl);
  const std::string payload = nl == std::string::npos ? input : input.substr(nl + 1);
  onRules(acedrex::fuzz::chooseOne(selector), payload);
  return 0;
}

namespace {

// The move generation check from a game's position (a copy: the game keeps its own).
void walkFrom(const Game& game, int depth) {
  Position pos = game.position();
  const acedrex::fuzz::WalkContext c{"move_fuzz", g_context};
  if (depth >= 2) acedrex::fuzz::perft2(c, pos);
  else (void)acedrex::fuzz::walk(c, pos, depth);
}

void onRules(const std::shared_ptr<const Rules>& rules, const std::string& payload) {
  const size_t guided = payload.size() > 0 ? static_cast<uint8_t>(payload[0]) % 48 : 0;
  const uint64_t seed = payload.size() > 1 ? static_cast<uint8_t>(payload[1]) : 1;
  size_t i = 2;

  // Game, one move at a time. First the guided part: legal moves chosen by
  // the input bytes (under the die if any), played by their text.
  Game one(rules, seed);
  std::string line;
  size_t played = 0;
  for (size_t k = 0; k < guided && i < payload.size() && !one.finished(); ++k) {
    const auto moves = one.legalMoves();
    if (moves.empty()) fail("Game::legalMoves() is empty in a game that goes on");
    const std::string t = one.position().moveText(moves[static_cast<uint8_t>(payload[i++]) % moves.size()]);
    line += t + " ";
    g_context = rules->variant + " seed " + std::to_string(seed) + ": \"" + line + "\"";
    if (!one.play(t).ok()) fail("Game::play refused a move of its own legalMoves(): " + t);
    if (++played % 4 == 0) {
      checkValid(one.position(), t);
      walkFrom(one, 1);
    }
  }
  // Then the raw text: a failure changes nothing and ends the line.
  if (i < payload.size()) line += payload.substr(i);
  g_context = rules->variant + " seed " + std::to_string(seed) + ": \"" + line + "\"";
  const auto toks = tokens(line);
  for (size_t k = played; k < toks.size(); ++k) {
    const std::string& t = toks[k];
    const std::string text = one.position().text();
    const uint64_t hash = one.position().hash();
    const size_t rec = one.record().size();
    const int face = one.currentThrow();
    auto s = one.play(t);
    if (!s.ok()) {
      if (one.position().text() != text || one.position().hash() != hash || one.record().size() != rec ||
          one.currentThrow() != face)
        fail("Game::play(\"" + t + "\") failed but changed the game");
      if (s.error().message.empty()) fail("an error without a message");
      break;
    }
    if (++played % 8 == 0) checkValid(one.position(), t);
  }
  checkValid(one.position(), "the line played move by move");
  walkFrom(one, 2);
  // Game::playAll on the whole line: the same plies, the same end.
  Game all(rules, seed);
  auto sa = all.playAll(line);
  if (sa.ok() != (played == toks.size())) fail("playAll and play disagree on success");
  checkValid(all.position(), "the whole line");
  if (all.position().text() != one.position().text() || all.record().size() != one.record().size() ||
      all.position().hash() != one.position().hash())
    fail("playAll and play one by one end differently");
  if (!sa.ok() && sa.error().location.rfind("ply " + std::to_string(played + 1) + ",", 0) != 0)
    fail("playAll names the wrong ply: " + sa.error().location);

  // playLine (no die: it does not throw one).
  if (rules->die.empty()) {
    Position single(rules);
    if (!single.set(rules->start).ok()) fail("start does not set");
    size_t n = 0;
    for (const auto& t : toks) {
      const std::string text = single.text();
      const uint64_t hash = single.hash();
      const int depth = single.undoDepth();
      auto s = playLine(single, t);
      if (!s.ok()) {
        if (single.text() != text || single.hash() != hash || single.undoDepth() != depth)
          fail("playLine(\"" + t + "\") failed but changed the position");
        break;
      }
      ++n;
    }
    Position whole(rules);
    if (!whole.set(rules->start).ok()) fail("start does not set");
    auto sl = playLine(whole, line);
    if (sl.ok() != (n == toks.size())) fail("playLine of the line and of single moves disagree on success");
    checkValid(whole, "the whole line");
    if (whole.text() != single.text() || whole.hash() != single.hash())
      fail("playLine of the line and of single moves end differently");
    // Without a die, Game and playLine accept the same moves, except that a
    // Game also ends by repetition or the fifty-move count.
    if (n < played || (n > played && !one.finished())) fail("playLine and Game::play accept different moves");
    if (n == played && whole.text() != one.position().text()) fail("playLine and Game end in different positions");
  }
}

}  // namespace
