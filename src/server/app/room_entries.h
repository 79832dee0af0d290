// Record entries and a Game: applying an entry (a move text, "0000",
// "resign", "timeout", "draw"), the notes the state's move list shows beside
// an entry, and the result object of a finished game. Pure functions: the
// room, the records (PGN, replays) and their tests use them.
#pragma once

#include <string>
#include <vector>

#include "core/game/game.h"

namespace acedrex::server {

// What the state's move list says about an entry besides its text.
struct EntryNote {
  std::string san;      // two-player games: the move in SAN, as the PGN writes it
  std::string dieKind;  // the piece kind the throw allowed, "" without a die
};

// Applies one record entry (move text, "0000", "resign", "timeout", "draw")
// to a Game, and notes why seats went out. False if the entry does not apply.
bool applyEntryToGame(Game& game, const std::string& text, int seat, std::vector<std::string>& outReasons);
// The note of the entry `text` that took `before` to `after`: its SAN in
// two-player games (as the PGN writes it, with + and #) and the piece kind
// the die allowed.
EntryNote entryNoteOf(const Game& before, const Game& after, const std::string& text);
// The result object of a finished game: {"places":{...},"reason":...,"winner":...}.
std::string resultJsonOf(const Game& game, const std::vector<std::string>& outReasons);

}  // namespace acedrex::server
