// Captures with side effects: compulsory captures (must-capture, antichess)
// and explosions (blast = atomic). Position's shared functions call these
// behind one Rules flag each, so the other games pay one predictable branch.
#include <array>
#include <cstdlib>
#include <utility>

#include "core/position/position.h"

namespace acedrex {

// Keeps only the captures (en passant included) among out[begin..] when
// there is one; otherwise leaves the list as it is.
void Position::keepCapturesOnly(MoveList& out, int begin) const {
  auto capture = [&](Move m) {
    return m.flag() == kEnPassant || (m.flag() != kCastle && isPiece(st_.board[m.to()]));
  };
  int n = begin;
  for (int i = begin; i < out.size(); ++i)
    if (capture(out[i])) out.set(n++, out[i]);
  if (n > begin) out.truncate(n);
}

// The capturing piece, now on `to`, explodes with every piece but pawns on
// the squares around `to`. A king in the blast leaves the board: the enemy's
// is taken (kingTaken), the mover's makes the move illegal (blastLegal).
// A rook that explodes takes its castling right with it.
void Position::explode(Square to, int us, int& kingTaken) {
  const Rules& r = *rules_;
  auto blast = [&](Square s) {
    const int seat = seatOf(st_.board[s]);
    if (st_.king[seat] == s && seat != us) kingTaken = seat;
    for (int side = 0; side < 2; ++side)
      for (int c = 0; c < r.nseats(); ++c)
        if (st_.castleRook[c][side] == s) st_.rights &= ~castleBit(c, side);
    remove(s);
  };
  blast(to);
  const int f0 = r.fileOf(to), k0 = r.rankOf(to);
  for (int df = -1; df <= 1; ++df)
    for (int dk = -1; dk <= 1; ++dk) {
      if ((df == 0 && dk == 0) || !r.onBoard(f0 + df, k0 + dk)) continue;
      const Square s = r.square(f0 + df, k0 + dk);
      const Piece q = st_.board[s];
      if (isPiece(q) && !r.types[typeOf(q)].pawn) blast(s);
    }
}

bool Position::touchesKingOf(Square s, int seat) const {
  const Square k = st_.king[seat];
  if (k == kNoSquare) return false;
  const Rules& r = *rules_;
  return std::abs(r.fileOf(k) - r.fileOf(s)) <= 1 && std::abs(r.rankOf(k) - r.rankOf(s)) <= 1;
}

bool Position::kingsTouch() const {
  const Square k = st_.king[0];
  return k != kNoSquare && touchesKingOf(k, 1);
}

// A move is legal when the mover's king survives it and either the enemy
// king is blown up or the mover's king is not left in check (kings side by
// side cannot check: taking one would blow up the other). Judged on the
// board array alone, the blast included; castling goes through make.
bool Position::blastLegal(Move m) {
  const int us = st_.toMove, them = 1 - us;
  if (m.flag() == kCastle) {
    makeImpl(m, false);
    const bool ok = st_.king[us] != kNoSquare && (st_.king[them] == kNoSquare || !inCheck(us));
    unmake();
    return ok;
  }
  const Rules& r = *rules_;
  auto& b = st_.board;
  const Square from = m.from(), to = m.to(), k = st_.king[us], ek = st_.king[them];
  const Square kingAfter = from == k ? to : k;
  auto touching = [&](Square a, Square c) {
    return a != kNoSquare && c != kNoSquare && std::abs(r.fileOf(a) - r.fileOf(c)) <= 1 &&
           std::abs(r.rankOf(a) - r.rankOf(c)) <= 1;
  };
  auto safe = [&]() { return kingAfter == kNoSquare || touching(kingAfter, ek) || !attacked(kingAfter, enemiesOf(us)); };
  const Square capSq = m.flag() == kEnPassant ? epCaptureSquare(m) : to;
  const Piece p = b[from];
  if (!isPiece(b[capSq])) {
    // A quiet move: the board changes on two squares.
    b[from] = kEmpty;
    b[to] = p;
    const bool ok = safe();
    b[to] = kEmpty;
    b[from] = p;
    return ok;
  }
  if (from == k) return false;  // a king that captures blows itself up
  // Empty every square the capture clears, remembering what stood there.
  std::array<std::pair<Square, Piece>, 11> saved;
  int n = 0;
  auto clear = [&](Square s) {
    saved[n++] = {s, b[s]};
    b[s] = kEmpty;
  };
  clear(from);
  clear(capSq);
  if (capSq != to) clear(to);
  bool ownKingHit = false, enemyKingHit = false;
  const int f0 = r.fileOf(to), k0 = r.rankOf(to);
  for (int df = -1; df <= 1; ++df)
    for (int dk = -1; dk <= 1; ++dk) {
      if ((df == 0 && dk == 0) || !r.onBoard(f0 + df, k0 + dk)) continue;
      const Square s = r.square(f0 + df, k0 + dk);
      if (!isPiece(b[s]) || r.types[typeOf(b[s])].pawn) continue;
      ownKingHit |= s == k;
      enemyKingHit |= s == ek;
      clear(s);
    }
  const bool ok = !ownKingHit && (enemyKingHit || safe());
  while (n > 0) {
    --n;
    b[saved[n].first] = saved[n].second;
  }
  return ok;
}

}  // namespace acedrex
