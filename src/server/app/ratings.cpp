#include "server/app/ratings.h"

#include <cctype>
#include <cmath>

#include "server/app/glicko2.h"
#include "server/app/json.h"

namespace acedrex::server {
namespace {

std::string keyOfName(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

bool ratedSeats(const std::vector<SeatPlan>& seats) {
  if (seats.size() != 2) return false;
  for (const auto& s : seats)
    if (s.bot || !s.rated || !s.account || s.name.empty()) return false;
  return keyOfName(seats[0].name) != keyOfName(seats[1].name);
}

std::vector<StoredRating> ratingsAfter(
    const std::string& variant, const std::vector<SeatPlan>& seats, const std::string& resultJson, int64_t nowMs,
    const std::function<std::optional<StoredRating>(const std::string& accountKey)>& current) {
  if (!ratedSeats(seats)) return {};
  auto result = parseJson(resultJson);
  if (!result.ok() || !result->isObject()) return {};
  const Json* places = result->get("places");
  if (!places || !places->isObject() || places->members().size() != 2) return {};
  // Places in seat order (the members are named by seat; the first seat is the one listed first in the result).
  std::vector<double> place;
  for (const auto& [seat, p] : places->members()) {
    if (!p.isNumber()) return {};
    place.push_back(p.asNumber());
  }
  // places are written in seat order (resultJsonOf), so place[i] belongs to seats[i].
  const double score0 = place[0] < place[1] ? 1.0 : place[0] > place[1] ? 0.0 : 0.5;
  std::vector<StoredRating> before;
  for (const auto& s : seats) {
    const std::string key = keyOfName(s.name);
    StoredRating r;
    if (auto c = current(key)) r = *c;
    r.account = key;
    r.variant = variant;
    before.push_back(r);
  }
  auto asGlicko = [](const StoredRating& r) { return glicko2::Rating{r.rating, r.deviation, r.volatility}; };
  std::vector<StoredRating> after = before;
  for (size_t i = 0; i < 2; ++i) {
    const double score = i == 0 ? score0 : 1.0 - score0;
    const glicko2::Rating next = glicko2::afterGame(asGlicko(before[i]), asGlicko(before[1 - i]), score);
    after[i].rating = next.rating;
    after[i].deviation = next.deviation;
    after[i].volatility = next.volatility;
    after[i].games = before[i].games + 1;
    after[i].updatedMs = nowMs;
  }
  return after;
}

}  // namespace acedrex::server
