// The lobby's lists: the catalogue of the games the server plays (the group
// each belongs to, its place there and a line about it in our words), and the
// one-line summaries of games in GET /api/games.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/variant/variant.h"
#include "server/app/json.h"
#include "server/app/store.h"

namespace acedrex::server {

// What the lobby knows about a game by its name. Games the table does not
// name are in the group "other", after the others, with no description.
struct CatalogueEntry {
  const char* group;        // "alfonso", "chess", "family", "more-players" or "other"
  int order;                // the games' order in the lobby (groups first)
  const char* description;  // English; the page shows its own translation (catalogue.desc.NAME)
};
CatalogueEntry catalogueEntry(const std::string& name);

// One game of the lobby's lists: {"id", "variant", "title", "status",
// "toMove", "plies", "options", "clock", "seats": [{"seat", "kind", "level",
// "open"}], "createdAt"}. Never a token. toMove < 0 and plies unset: null.
void writeGameSummary(JsonWriter& w, const StoredGame& game, const Rules& rules, bool finished, int toMove,
                      std::optional<int64_t> plies);
// The same keys into an object the caller has begun (and ends), for a
// summary with keys of its own.
void writeGameSummaryFields(JsonWriter& w, const StoredGame& game, const Rules& rules, bool finished, int toMove,
                            std::optional<int64_t> plies);

}  // namespace acedrex::server
