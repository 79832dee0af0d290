// Fog of war in the server tests: the check that a state sent to one client
// holds nothing that client may not see (server_fog_test, server_http_test).
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/mechanisms/fog.h"
#include "core/game/game.h"
#include "test_support.h"

namespace acedrex::server::testing {

struct Heard {
  std::string who;    // "white", "black", "watcher"
  int seat;           // -1: the watcher
  std::string text;   // the whole message as the net layer would send it
};

// What a client may see of the real game: its seat's view, or for a watcher
// the squares both seats see (core/mechanisms/fog.h, tested on its own in fog_test.cpp).
inline std::vector<bool> allowed(const Position& real, int seat) {
  return seat < 0 ? commonSquares(real) : visibleSquares(real, seat);
}

// Checks one state (or delta) sent to a client while the game goes on against the real game.
inline void expectNothingHidden(const Heard& h, const Game& real) {
  SCOPED_TRACE(h.who + " heard " + h.text);
  const Position& p = real.position();
  const Rules& r = p.rules();
  const Json s = parsed(h.text);
  const Json* state = s.get("d") ? s.get("d") : &s;
  ASSERT_EQ(state->get("status")->asString(), "ongoing");
  const auto seen = allowed(p, h.seat);
  // Every piece sent stands on a square the client sees, and is the real one.
  for (const auto& piece : state->get("pieces")->items()) {
    const auto sq = r.parseSquare(piece.get("square")->asString());
    ASSERT_TRUE(sq.ok());
    EXPECT_TRUE(seen[static_cast<size_t>(*sq)]) << piece.get("square")->asString();
    ASSERT_TRUE(isPiece(p.at(*sq)));
    EXPECT_EQ(piece.get("seat")->asString(), r.seats[static_cast<size_t>(seatOf(p.at(*sq)))].name);
  }
  // No hidden piece anywhere in the text: the full position never leaves
  // (the start position, known to both, is the only full board sent).
  const std::string board = p.text().substr(0, p.text().find(' '));
  std::string rest = h.text;
  const std::string start = "\"startFen\":\"" + real.startText() + "\"";
  if (const size_t at = rest.find(start); at != std::string::npos) rest.erase(at, start.size());
  EXPECT_EQ(rest.find(board), std::string::npos);
  EXPECT_NE(state->get("fen")->asString().find('?'), std::string::npos);
  EXPECT_TRUE(state->get("check")->items().empty());
  // Another seat's moves come without their text (in a delta: its new entries); the legal moves only to the seat to move.
  const Json* moves = state->get("moves") ? state->get("moves") : state->get("append");
  ASSERT_NE(moves, nullptr);
  for (const auto& m : moves->items()) {
    const bool own = h.seat >= 0 && m.get("seat")->asString() == r.seats[static_cast<size_t>(h.seat)].name;
    EXPECT_EQ(m.get("uci")->isNull(), !own);
    if (!own) {
      EXPECT_TRUE(m.get("san")->isNull());
    }
  }
  if (h.seat != p.toMove()) {
    EXPECT_NE(h.text.find("\"legal\":{}"), std::string::npos);
  }
  if (h.seat < 0) {
    EXPECT_TRUE(state->get("lastMove")->isNull());
  }
}

}  // namespace acedrex::server::testing
