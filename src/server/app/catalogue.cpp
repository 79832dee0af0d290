#include "server/app/catalogue.h"

#include <array>

#include "server/app/players.h"

namespace acedrex::server {
namespace {

struct Known {
  const char* name;
  CatalogueEntry entry;
};

// In the lobby's order. Names the engine does not play yet (three- and
// eight-player games) cost nothing here: only embedded variants are listed.
constexpr std::array kKnown{
    Known{"four-seasons", {"alfonso", 10, "Four armies in the corners of an 8x8 board; mate a king and its army is yours."}},
    Known{"joko-urtaroak", {"alfonso", 11, "Four armies on a 10x10 board whose centre cannot be entered, with war engines and gryphons."}},
    Known{"grant-acedrex", {"alfonso", 12, "Alfonso's great chess on 12x12, with the aanca, the rhinoceros, the lion, the crocodile and the giraffe."}},
    Known{"chess", {"chess", 20, "The chess played the world over."}},
    Known{"fischerandom", {"chess", 21, "Chess with the back ranks shuffled, one of 960 starts; the king castles onto its rook."}},
    Known{"crazyhouse", {"chess", 22, "Chess where a captured piece changes sides and can be dropped back onto the board."}},
    Known{"atomic", {"chess", 23, "Every capture explodes, taking the pieces around it; blow up the enemy king."}},
    Known{"antichess", {"chess", 24, "Captures are compulsory; lose all your pieces to win."}},
    Known{"duck", {"chess", 25, "After each move a duck, which blocks everyone, is placed on an empty square; capture the king."}},
    Known{"fog-of-war", {"chess", 26, "Chess where you see only the squares your pieces can reach; capture the king."}},
    Known{"friendly-chess", {"chess", 27, "Paco Sako: pieces do not capture but join into pairs that move together."}},
    Known{"shako", {"chess", 28, "Chess on 10x10 with the elephant and the cannon."}},
    Known{"chaturanga", {"family", 30, "The Indian ancestor of chess: a slow queen, a leaping elephant, no castling."}},
    Known{"shatranj", {"family", 31, "The Persian and Arab chess that Alfonso's book teaches: bare king loses."}},
    Known{"makruk", {"family", 32, "Thai chess: pawns start on the third rank and the queen steps one square diagonally."}},
    Known{"cambodian", {"family", 33, "Ouk Chatrang, Cambodian chess: makruk with the first leaps of the king and the queen."}},
    Known{"sittuyin", {"family", 34, "Burmese chess: each side sets up its own pieces behind its pawns before the play."}},
    Known{"xiangqi", {"family", 35, "Chinese chess, on the points of a 9x10 board with a river, palaces and cannons."}},
    Known{"janggi", {"family", 36, "Korean chess: palaces with diagonal lines, cannons that jump, and passing allowed."}},
    Known{"shogi", {"family", 37, "Japanese chess on 9x9: captured pieces come back as your own, and pieces promote."}},
    Known{"minishogi", {"family", 38, "Shogi on a 5x5 board with drops and promotions."}},
    Known{"four-player-chess", {"more-players", 40, "Four armies on a cross-shaped board, each for itself or in teams."}},
    Known{"chaturaji", {"more-players", 41, "The four-handed Indian game: four armies, boats and points for captures."}},
    Known{"three-player-chess", {"more-players", 42, "Three armies on a six-sided board of 96 cells; files bend and diagonals fork at the centre."}},
    Known{"eight-player-chess", {"more-players", 43, "Chess for eight players."}},
};

}  // namespace

CatalogueEntry catalogueEntry(const std::string& name) {
  for (const auto& k : kKnown)
    if (name == k.name) return k.entry;
  return {"other", 100, ""};
}

void writeGameSummary(JsonWriter& w, const StoredGame& g, const Rules& r, bool finished, int toMove,
                      std::optional<int64_t> plies) {
  w.beginObject();
  writeGameSummaryFields(w, g, r, finished, toMove, plies);
  w.endObject();
}

void writeGameSummaryFields(JsonWriter& w, const StoredGame& g, const Rules& r, bool finished, int toMove,
                            std::optional<int64_t> plies) {
  w.key("id").value(g.id).key("variant").value(r.variant).key("title").value(r.title);
  w.key("status").value(finished ? "finished" : "ongoing");
  w.key("toMove");
  if (toMove >= 0 && toMove < r.nseats()) w.value(r.seats[static_cast<size_t>(toMove)].name);
  else w.null();
  w.key("plies");
  if (plies) w.value(*plies);
  else w.null();
  w.key("options").beginObject();
  for (const auto& [k, v] : g.options) w.key(k).value(v);
  w.endObject();
  w.key("clock");
  if (g.clock.enabled)
    w.beginObject().key("initialMs").value(g.clock.initialMs).key("incrementMs").value(g.clock.incrementMs).endObject();
  else w.null();
  w.key("hotSeat").value(g.hotSeat);
  w.key("seats").beginArray();
  for (size_t s = 0; s < g.seats.size() && s < r.seats.size(); ++s) {
    const SeatPlan& p = g.seats[s];
    w.beginObject().key("seat").value(r.seats[s].name).key("kind").value(p.bot ? "bot" : "human");
    w.key("level");
    if (p.bot) w.value(p.level);
    else w.null();
    w.key("open").value(!finished && p.open && !p.bot);
    writeSeatPlayer(w, p);
    w.endObject();
  }
  w.endArray();
  w.key("createdAt").value(g.createdMs);
}

}  // namespace acedrex::server
