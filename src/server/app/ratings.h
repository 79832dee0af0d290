// Ratings of accounts per game (variant): what a rated game's result does to
// its two players' Glicko-2 ratings (glicko2.h). The stores call
// ratingsAfter() inside the transaction that stores the result, so a result
// and its rating changes are stored together or not at all.
//
// A game is rated when it has two seats, both rated (SeatPlan::rated) and
// held by accounts (SeatPlan::account, SeatPlan::name the account's name).
// An aborted game (no places) changes no rating.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "server/app/store.h"

namespace acedrex::server {

// Whether seats make a rated game.
bool ratedSeats(const std::vector<SeatPlan>& seats);

// The new ratings of a rated game's two players after `resultJson`, for
// storing; empty when the game is not rated or has no decision (aborted).
// `current` reads a player's rating (nullopt: the player has none yet in this variant).
std::vector<StoredRating> ratingsAfter(
    const std::string& variant, const std::vector<SeatPlan>& seats, const std::string& resultJson, int64_t nowMs,
    const std::function<std::optional<StoredRating>(const std::string& accountKey)>& current);

}  // namespace acedrex::server
