// Evaluation for games with unions (Rules::unions, friendly chess): nothing
// is ever captured, so material only changes by promotion; what counts is
// which pieces are free and how close the enemy comes to the king.
#include <algorithm>

#include "engine/eval.h"

namespace acedrex::engine {

int Evaluator::unionScore(const Position& pos) const {
  const Rules& r = *rules_;
  const int n = r.nsq();
  std::array<int, 2> score{0, 0};
  std::array<int, 2> danger{0, 0};  // enemy pieces within two steps of the king
  const std::array<Square, 2> king{pos.kingSquare(0), pos.kingSquare(1)};
  auto add = [&](Piece p, Square s, int share) {
    const int seat = seatOf(p);
    score[seat] += value_[typeOf(p)] * share / 4 + pst_[kindOf(p) * kMaxSquares + s];
    const Square k = king[1 - seat];
    if (k != kNoSquare && typeOf(p) != r.royalType && dist_[k * n + s] <= 2) ++danger[1 - seat];
  };
  for (Square s = 0; s < n; ++s) {
    const Piece a = pos.at(s);
    if (!isPiece(a)) continue;
    const Piece b = pos.partnerAt(s);
    if (b == kEmpty) {
      add(a, s, 4);  // a free piece
    } else {
      // A piece in a union moves only as its owner's and drags the partner:
      // each side's piece counts at half its value.
      add(a, s, 2);
      add(b, s, 2);
    }
  }
  for (int seat = 0; seat < 2; ++seat) score[seat] -= params_.kingDanger * danger[seat] * danger[seat] / 2;
  const int us = pos.toMove();
  return score[us] - score[1 - us] + params_.tempo;
}

}  // namespace acedrex::engine
