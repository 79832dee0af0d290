// Who sits in a seat, as the state, the lobby's lists and the records show
// it: a guest's display name or an account's name, with the account's
// rating in the game when it began (docs/api.md, "Players").
#pragma once

#include <string>

#include "server/app/json.h"
#include "server/app/store.h"

namespace acedrex::server {

// Writes a seat's "name" (null: unnamed), "account", "rated", "rating" (null:
// none) and "provisional" keys into the seat object being written.
void writeSeatPlayer(JsonWriter& w, const SeatPlan& seat);

// Puts `player` (name, account, rating, provisional) into `seat`; a guest
// carries no rating.
void seatThePlayer(SeatPlan& seat, const SeatPlan& player);

// The name of a seat's player in a record: the bot's level, the player's name, or "Human".
std::string playerName(const SeatPlan& seat);

}  // namespace acedrex::server
