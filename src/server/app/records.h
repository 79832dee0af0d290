// Game records for downloads and replays: PGN (two players, SAN moves),
// PGN4-style text (four players) and the replay frames of a game.
#pragma once

#include <memory>
#include <string>

#include "core/game.h"
#include "server/app/json.h"
#include "server/app/store.h"

namespace acedrex::server {

std::string pgnOf(const StoredGame& game, const std::shared_ptr<const Rules>& rules);
std::string replayJsonOf(const StoredGame& game, const std::shared_ptr<const Rules>& rules);

// The "pieces" array of the state: every piece with square, seat, letter, name, dir.
void writePieces(JsonWriter& w, const Position& p);

// SAN of a legal move text in the game's current position (before it is played).
std::string sanOf(Game& game, const std::string& moveText);

}  // namespace acedrex::server
