#include "engine/duck.h"

#include <algorithm>
#include <array>
#include <cstdlib>

namespace acedrex::engine {

namespace {

int distance(const Rules& r, Square a, Square b) {
  return std::max(std::abs(r.fileOf(a) - r.fileOf(b)), std::abs(r.rankOf(a) - r.rankOf(b)));
}

// An empty square that stops every attack of `them` on s, nearest s first;
// kNoSquare when none does (a leaper's attack, or two attackers on two lines).
Square shieldSquare(Position& pos, Square s, uint8_t them) {
  const Rules& r = pos.rules();
  Square best = kNoSquare;
  int bestDist = 1 << 20;
  for (Square b = 0; b < r.nsq(); ++b) {
    if (pos.at(b) != kEmpty || !r.onLine(s, b)) continue;
    const int d = distance(r, s, b);
    if (d >= bestDist || pos.attackedPast(s, them, b)) continue;
    best = b;
    bestDist = d;
  }
  return best;
}

// After the move alone (the duck still on its old square): the duck squares
// to try, best first, at most `n`.
int chooseSquares(Position& pos, const Evaluator& eval, int mover, std::array<Square, 3>& out, int n) {
  const Rules& r = pos.rules();
  const uint8_t them = static_cast<uint8_t>(1u << (1 - mover));
  int k = 0;
  auto add = [&](Square s) {
    if (s == kNoSquare || k >= n || pos.at(s) != kEmpty) return;
    for (int i = 0; i < k; ++i)
      if (out[i] == s) return;
    out[k++] = s;
  };
  if (!pos.finished()) {
    // Defence: the king first, then the most valuable attacked piece.
    const Square king = pos.kingSquare(mover);
    if (king != kNoSquare && pos.attacked(king, them)) {
      add(shieldSquare(pos, king, them));
    } else {
      Square target = kNoSquare;
      int value = 0;
      for (int i = 0; i < pos.pieceCount(mover); ++i) {
        const Square s = pos.pieceSquare(mover, i);
        const int v = eval.pieceValue(typeOf(pos.at(s)));
        if (s != king && v > value && pos.attacked(s, them)) {
          value = v;
          target = s;
        }
      }
      if (target != kNoSquare) add(shieldSquare(pos, target, them));
    }
  }
  // Attack: a square next to the enemy king, toward the mover's side of the board.
  const Square enemyKing = pos.kingSquare(1 - mover);
  const Square ownKing = pos.kingSquare(mover);
  Square near = kNoSquare, far = kNoSquare;
  int nearDist = 1 << 20, farScore = -(1 << 20);
  for (Square s = 0; s < r.nsq(); ++s) {
    if (pos.at(s) != kEmpty) continue;
    if (enemyKing != kNoSquare) {
      const int d = distance(r, s, enemyKing) * 16 + (ownKing != kNoSquare ? distance(r, s, ownKing) : 0);
      if (d < nearDist) {
        nearDist = d;
        near = s;
      }
    }
    // A quiet square: far from both kings, on no line through the enemy king.
    int score = (enemyKing != kNoSquare ? distance(r, s, enemyKing) : 0) + (ownKing != kNoSquare ? distance(r, s, ownKing) : 0);
    if (enemyKing != kNoSquare && r.onLine(enemyKing, s)) score -= 8;
    if (score > farScore) {
      farScore = score;
      far = s;
    }
  }
  add(near);
  add(far);
  return k;
}

}  // namespace

void placeDucks(Position& pos, const Evaluator& eval, MoveList& list, int perMove) {
  const int n = list.size();
  if (n == 0) return;
  perMove = std::clamp(perMove, 1, 3);
  while (perMove > 1 && n * perMove > MoveList::kCapacity) --perMove;
  const int mover = pos.toMove();
  // The moves alone are copied out first: the turns overwrite the list.
  std::array<Move, MoveList::kCapacity> alone;
  for (int i = 0; i < n; ++i) alone[i] = list[i].withoutDuck();
  list.clear();
  std::array<Square, 3> squares;
  for (int i = 0; i < n; ++i) {
    pos.make(alone[i]);  // the duck stays on its square until the turn is made
    const int k = chooseSquares(pos, eval, mover, squares, perMove);
    pos.unmake();
    for (int j = 0; j < k; ++j) list.push(alone[i].withDuck(squares[j]));
  }
}

std::vector<Move> rootDuckTurns(Position& pos, const Evaluator& eval, const std::vector<Move>& turns, int perMove) {
  MoveList alone;
  for (Move m : turns)
    if (alone.empty() || alone[alone.size() - 1] != m.withoutDuck()) alone.push(m.withoutDuck());
  placeDucks(pos, eval, alone, perMove);
  std::vector<Move> out;
  for (Move m : alone)
    if (std::find(turns.begin(), turns.end(), m) != turns.end()) out.push_back(m);
  return out.empty() ? turns : out;
}

}  // namespace acedrex::engine
