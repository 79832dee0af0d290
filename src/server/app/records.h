// Game records for downloads and replays: the PGN of a stored game (core's
// writePgn with the server's tags: players, date, site, termination, time
// control; SAN for two players, PGN4 long algebraic for four) and the replay
// frames of a game.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/game/game.h"
#include "server/app/json.h"
#include "server/app/store.h"

namespace acedrex::server {

std::string pgnOf(const StoredGame& game, const std::shared_ptr<const Rules>& rules);
std::string replayJsonOf(const StoredGame& game, const std::shared_ptr<const Rules>& rules);

// The "pieces" array of the state: every piece with square, seat, letter, name, dir
// (only those on the squares marked in `visible`, when given: fog of war).
void writePieces(JsonWriter& w, const Position& p, const std::vector<bool>* visible = nullptr);

// The fields of a replay frame (without "ply" and the braces): pieces, toMove,
// lastMove, check, die, coins, fen, in.
void writeFrameFields(JsonWriter& w, const Game& game, const std::string& lastMove);

// The state's "legal" object: the legal moves of the seat to move (as
// Game::legalMoves gives them: restricted by a throw), grouped by from-square;
// "0000" for a lost turn.
void writeLegal(JsonWriter& w, Game& game);

}  // namespace acedrex::server
