#include "engine/see.h"

#include <algorithm>
#include <bitset>

namespace acedrex::engine {
namespace {

constexpr int kKingValue = 20000;

// The board as the exchange goes on: the pieces that have captured are gone
// from their squares.
class ExchangeBoard {
 public:
  ExchangeBoard(const Position& pos, const Evaluator& eval) : pos_(pos), eval_(eval), r_(pos.rules()) {}
  bool occupied(Square s) const { return pos_.at(s) != kEmpty && !gone_[s]; }
  void take(Square s) { gone_[s] = true; }
  int value(Piece p) const {
    return typeOf(p) == r_.royalType ? kKingValue : eval_.pieceValue(typeOf(p));
  }

  // The least valuable piece of `seats` that attacks `target`, or kNoSquare.
  Square cheapestAttacker(Square target, uint8_t seats) const {
    Square best = kNoSquare;
    int bestValue = 0;
    auto consider = [&](Square s, uint64_t kinds) {
      const Piece q = pos_.at(s);
      if (gone_[s] || !isPiece(q) || !((kinds >> kindOf(q)) & 1) || !((seats >> seatOf(q)) & 1)) return;
      const int v = value(q);
      if (best == kNoSquare || v < bestValue) {
        best = s;
        bestValue = v;
      }
    };
    for (const RevLeap& rl : r_.revLeaps[target]) consider(rl.from, rl.kinds);
    for (const RevRay& rr : r_.revRays[target]) {
      const uint8_t* sq = &r_.revRaySq[rr.begin];
      int i = 0;
      while (i < rr.len && !occupied(sq[i])) ++i;
      if (i == rr.len) continue;
      consider(sq[i], rr.sliders);
      if (!rr.hoppers) continue;
      ++i;
      while (i < rr.len && !occupied(sq[i])) ++i;
      if (i < rr.len) consider(sq[i], rr.hoppers);
    }
    for (const RevBent& rb : r_.revBents[target]) {
      const uint8_t* sq = &r_.revBentSq[rb.begin];
      for (int i = 0; i < rb.len; ++i) {
        if (occupied(sq[2 * i])) break;
        if (sq[2 * i + 1] != 0xFF) consider(sq[2 * i + 1], rb.kinds);
      }
    }
    return best;
  }

 private:
  const Position& pos_;
  const Evaluator& eval_;
  const Rules& r_;
  std::bitset<kMaxSquares> gone_;
};

}  // namespace

namespace {

// The exchange on m's target after m, which wins `first` (the victim's value, 0 for a quiet move).
int exchange(const Position& pos, Move m, const Evaluator& eval, int first) {
  const Square target = m.to();
  ExchangeBoard board(pos, eval);
  const Piece mover = pos.at(m.from());
  const uint8_t ours = static_cast<uint8_t>(1u << seatOf(mover));
  const uint8_t theirs = static_cast<uint8_t>(pos.enemiesOf(seatOf(mover)));
  // gain[d]: what the side making the d-th capture has won if the exchange stops after it.
  int gain[64];
  int d = 0;
  gain[0] = first;
  int onSquare = board.value(mover);  // the value of the piece now standing on the target
  board.take(m.from());
  bool theirTurn = true;
  while (d < 63) {
    const Square s = board.cheapestAttacker(target, theirTurn ? theirs : ours);
    if (s == kNoSquare) break;
    const int v = board.value(pos.at(s));
    // A king may only take last: not while the other side still attacks the square.
    if (v == kKingValue) {
      board.take(s);
      const bool defended = board.cheapestAttacker(target, theirTurn ? ours : theirs) != kNoSquare;
      if (defended) break;
    }
    ++d;
    gain[d] = onSquare - gain[d - 1];
    // Neither side can do better by going on: stop early.
    if (std::max(-gain[d - 1], gain[d]) < 0) break;
    board.take(s);
    onSquare = v;
    theirTurn = !theirTurn;
  }
  while (d > 0) {
    gain[d - 1] = -std::max(-gain[d - 1], gain[d]);
    --d;
  }
  return gain[0];
}

}  // namespace

int staticExchange(const Position& pos, Move m, const Evaluator& eval) {
  const Piece victim = pos.at(m.to());
  if (m.isNull() || m.flag() != kNormal || !isPiece(victim)) return 0;
  return exchange(pos, m, eval, ExchangeBoard(pos, eval).value(victim));
}

int moveExchange(const Position& pos, Move m, const Evaluator& eval) {
  if (m.flag() == kNormal && isPiece(pos.at(m.to()))) return staticExchange(pos, m, eval);
  if (m.flag() != kNormal && m.flag() != kDoubleStep) return 0;
  if (m.promo() >= 0) return 0;
  return exchange(pos, m, eval, 0);
}

bool losesExchange(const Position& pos, Move m, const Evaluator& eval) {
  if (m.flag() != kNormal || m.promo() >= 0 || !isPiece(pos.at(m.to()))) return false;
  const int victimType = typeOf(pos.at(m.to()));
  if (victimType == pos.rules().royalType) return false;
  return eval.pieceValue(typeOf(pos.at(m.from()))) > eval.pieceValue(victimType) && staticExchange(pos, m, eval) < 0;
}

}  // namespace acedrex::engine
