// libFuzzer target: position text on every variant.
//
// Input: a first line choosing the variant and options ("shako",
// "grant-acedrex king-leap=no die=on"; anything else picks one of the
// compiled rule sets by a hash of the line), then the position text.
// Checks: a failed set() leaves the position as it was; a successful one is
// valid, and its text() reads back to the same text and hash; every legal
// move makes and unmakes cleanly, and the text after some of them reads back
// too; perft 2 runs clean.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "core/perft.h"
#include "core/position.h"
#include "core/variant.h"
#include "fuzz_rules.h"

namespace {

using namespace acedrex;

using acedrex::fuzz::choose;

[[noreturn]] void fail(const std::string& what, const Rules& r, const std::string& text) {
  std::fprintf(stderr, "fen_fuzz: %s\n  variant: %s\n  text: \"%s\"\n", what.c_str(), r.variant.c_str(), text.c_str());
  std::abort();
}

void checkRoundTrip(const Position& pos, const std::string& context) {
  const Rules& r = pos.rules();
  std::string why;
  if (!pos.isValid(&why)) fail("isValid: " + why, r, context);
  const std::string text = pos.text();
  Position again(pos.rulesPtr());
  auto s = again.set(text);
  if (!s.ok()) fail("text() does not read back: " + s.error().text() + " [" + text + "]", r, context);
  if (again.text() != text) fail("text() reads back as \"" + again.text() + "\" [" + text + "]", r, context);
  if (again.hash() != pos.hash()) fail("hash differs after reading back [" + text + "]", r, context);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  const size_t nl = input.find('\n');
  const std::string selector = nl == std::string::npos ? std::string() : input.substr(0, nl);
  const std::string text = nl == std::string::npos ? input : input.substr(nl + 1);
  const auto rules = choose(selector);

  Position pos(rules);
  if (!pos.set(rules->start).ok()) fail("the start position does not set", *rules, rules->start);
  const std::string before = pos.text();
  const uint64_t beforeHash = pos.hash();
  auto s = pos.set(text);
  if (!s.ok()) {
    if (pos.text() != before || pos.hash() != beforeHash) fail("a failed set() changed the position", *rules, text);
    if (s.error().message.empty()) fail("an error without a message", *rules, text);
    return 0;
  }
  checkRoundTrip(pos, text);

  // Every legal move: make, check, unmake.
  const std::string here = pos.text();
  const uint64_t hash = pos.hash();
  MoveList list;
  pos.legalMoves(list);
  int k = 0;
  for (Move m : list) {
    const std::string mt = pos.moveText(m);
    pos.make(m);
    // Reading back costs a Position each: a few moves only, spread over the list.
    if (k++ % std::max(1, list.size() / 6) == 0) checkRoundTrip(pos, text + " | " + mt);
    pos.unmake();
    if (pos.text() != here || pos.hash() != hash) fail("unmake did not restore after " + mt, *rules, text);
  }
  // Perft 2 runs (turn starts, finished games) without tripping the sanitizers.
  if (list.size() <= 64) (void)perft(pos, 2);
  if (pos.text() != here) fail("perft changed the position", *rules, text);
  return 0;
}
