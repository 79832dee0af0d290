// Copies every game (finished or not, with its record) from one Store to
// another and verifies the copy game by game: `acedrex migrate`.
#pragma once

#include <functional>
#include <string>

#include "core/base/result.h"
#include "server/app/store.h"

namespace acedrex::server {

struct MigrateReport {
  int copied = 0;        // games written to the target
  int alreadyThere = 0;  // games the target had, identical (a migration run again)
  int entries = 0;       // record entries verified in all
};

// Stops at the first game that cannot be copied, or whose copy reads back
// different from the source (error code "verify", naming the game and what
// differs); a game the target already holds counts as copied when it is
// identical, and is an error when it differs. `progress` hears each game id.
Result<MigrateReport> migrateGames(Store& from, Store& to,
                                   const std::function<void(const std::string&)>& progress = {});

// Why two stored games differ ("" when they are the same): the first field that differs.
std::string storedGameDifference(const StoredGame& a, const StoredGame& b);

}  // namespace acedrex::server
