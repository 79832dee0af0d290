// Game records: PGN for two seats (with [Variant] and [FEN] tags, moves in
// the engine's move text) and a PGN4-style record for more seats.
#pragma once

#include <map>
#include <string>

#include "core/game.h"

namespace acedrex {

// tags: extra or overriding tags (Event, Site, Date, player names by seat name, ...).
std::string toPgn(const Game& game, const std::map<std::string, std::string>& tags = {});
// "1-0", "0-1", "1/2-1/2", "*" for two seats; places like "1-4-2-3" (in seat order) for more.
std::string resultText(const Game& game);

}  // namespace acedrex
