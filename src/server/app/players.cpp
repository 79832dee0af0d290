#include "server/app/players.h"

namespace acedrex::server {

void writeSeatPlayer(JsonWriter& w, const SeatPlan& seat) {
  w.key("name");
  if (!seat.bot && !seat.name.empty()) w.value(seat.name);
  else w.null();
  w.key("account").value(!seat.bot && seat.account).key("rated").value(seat.rated);
  w.key("rating");
  if (seat.rating > 0) w.value(seat.rating);
  else w.null();
  w.key("provisional").value(seat.rating > 0 && seat.provisional);
}

void seatThePlayer(SeatPlan& seat, const SeatPlan& player) {
  seat.name = player.name;
  seat.account = player.account;
  seat.rating = player.account ? player.rating : 0;
  seat.provisional = player.account && player.provisional;
}

std::string playerName(const SeatPlan& seat) {
  if (seat.bot) return "Acedrex level " + std::to_string(seat.level);
  return seat.name.empty() ? std::string("Human") : seat.name;
}

}  // namespace acedrex::server
