// libFuzzer target: PGN text through readPgn and replayPgn (core/records/pgn.h).
//
// Input: any bytes, read as PGN. Checks: the reader returns games or an
// error with a message and a "line L, column C" location, never crashes;
// every move token has a line and a column inside the text; each game read
// (the first few) is replayed with the engine's move text and with the
// server's notations (SAN for two seats, PGN4 long algebraic), and a
// replay that succeeds is written again, read again and replayed again to
// the same moves and position (the round trip of the writer and reader).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/records/pgn.h"
#include "fuzz_rules.h"

namespace {

using namespace acedrex;

std::string g_input;

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "pgn_fuzz: %s\n  input: \"%s\"\n", what.c_str(), g_input.c_str());
  std::abort();
}

void checkError(const Error& e, bool located) {
  if (e.message.empty()) fail("an error without a message");
  if (located && e.location.find("line ") == std::string::npos) fail("an error without a line: " + e.text());
}

void roundTrip(const Game& game, const MoveNotation& notation, const VariantRegistry& registry) {
  PgnWriteOptions o;
  o.notation = &notation;
  const std::string text = writePgn(game, o);
  auto again = readPgn(text);
  if (!again.ok()) fail("a written record does not read: " + again.error().text() + "\n" + text);
  if (again->size() != 1) fail("a written record reads as " + std::to_string(again->size()) + " games\n" + text);
  auto back = replayPgn(again->front(), registry, notation);
  if (!back.ok()) fail("a written record does not replay: " + back.error().text() + "\n" + text);
  const Game& b = **back;
  if (b.record().size() != game.record().size()) fail("the replay has another number of plies\n" + text);
  for (size_t i = 0; i < game.record().size(); ++i)
    if (b.record()[i].move != game.record()[i].move || b.record()[i].seat != game.record()[i].seat)
      fail("the replay differs at ply " + std::to_string(i + 1) + "\n" + text);
  if (b.position().text() != game.position().text()) fail("the replay ends elsewhere\n" + text);
  if (writePgn(b, o) != text) fail("written twice, the record differs\n" + text);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  g_input.assign(reinterpret_cast<const char*>(data), size);
  const VariantRegistry& registry = acedrex::fuzz::rulesets().registry;
  auto games = readPgn(g_input, "fuzz");
  if (!games.ok()) {
    checkError(games.error(), true);
    return 0;
  }
  int lines = 1;
  for (char c : g_input) lines += c == '\n';
  size_t replayed = 0;
  for (const PgnGame& g : *games) {
    for (const PgnMove& m : g.moves)
      if (m.text.empty() || m.line < 1 || m.line > lines || m.column < 1 ||
          static_cast<size_t>(m.column) > g_input.size())
        fail("a move token without text, line or column: \"" + m.text + "\"");
    if (++replayed > 4) continue;  // replays cost more than reading
    for (const MoveNotation* n : {&engineNotation(), &sanNotation(), &longNotation()}) {
      auto game = replayPgn(g, registry, *n, "fuzz");
      if (!game.ok()) {
        checkError(game.error(), true);
        continue;
      }
      // The server's SAN is for two seats: with pawns of one seat going two
      // ways it may name two moves alike (and the reader then refuses it).
      if (n == &sanNotation() && (*game)->rules().nseats() > 2) continue;
      roundTrip(**game, *n, registry);
    }
  }
  return 0;
}
