#include "server/app/fog_view.h"

#include "core/mechanisms/fog.h"

namespace acedrex::server {

GameView GameView::of(const Game& game, bool over, uint8_t seatMask) {
  GameView v;
  const Position& p = game.position();
  const Rules& r = game.rules();
  const uint8_t everyone = static_cast<uint8_t>((1u << r.nseats()) - 1);
  if (!r.fog || over || (seatMask & everyone) == everyone) {
    v.positionText = p.text();
    return v;
  }
  v.all = false;
  v.key = seatMask & everyone;
  if (v.key == 0) {
    v.visible = commonSquares(p);
  } else {
    v.seat = __builtin_ctz(v.key);
    v.visible = visibleSquares(p, v.seat);
  }
  v.positionText = maskedText(p, v.visible, v.seat);
  return v;
}

}  // namespace acedrex::server
