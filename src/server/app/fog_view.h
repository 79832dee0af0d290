// What one client may see of a game: everything, except in a fog-of-war
// game (Rules::fog) before its end. Then a seat sees its own view
// (core/mechanisms/fog.h), a watcher holding no seat only what both seats see, and a
// token holding both seats everything. GameRoom builds every state it sends
// (HTTP, NDJSON stream, WebSocket) through one GameView; records (PGN,
// replay) stay closed until the end.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/game/game.h"

namespace acedrex::server {

struct GameView {
  // The view of a client holding the seats in seatMask (bit per seat; 0: a watcher).
  static GameView of(const Game& game, bool over, uint8_t seatMask);

  bool all = true;             // nothing is hidden
  int seat = -1;               // the seat whose view this is; -1 for a watcher (or all)
  std::vector<bool> visible;   // per square, when !all
  std::string positionText;    // the FEN, or the view text with '?' for hidden squares

  // Each cache key names one distinct view: 0xFF everything, else the seat mask.
  uint8_t key = 0xFF;
  bool showsSquare(int square) const { return all || visible[static_cast<size_t>(square)]; }
  // A move entry is shown when its seat is the viewer's (or nothing is hidden).
  bool showsMoveOf(int entrySeat) const { return all || entrySeat == seat; }
  // The legal moves go only to the seat to move.
  bool showsLegalMoves(int toMove) const { return all || seat == toMove; }
};

}  // namespace acedrex::server
