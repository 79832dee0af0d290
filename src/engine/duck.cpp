#include "engine/duck.h"

#include <algorithm>
#include <array>
#include <cstdlib>

namespace acedrex::engine {

namespace {

int distance(const Rules& r, Square a, Square b) {
  return std::max(std::abs(r.fileOf(a) - r.fileOf(b)), std::abs(r.rankOf(a) - r.rankOf(b)));
}

// An empty square next to s on one of the eight lines from s whose blocking
// stops every attack of `them` on s; kNoSquare when none does (a leaper's
// attack, or attacks along two lines).
Square shieldSquare(Position& pos, Square s, uint8_t them) {
  const Rules& r = pos.rules();
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) {
      if (!dx && !dy) continue;
      const int f = r.fileOf(s) + dx, k = r.rankOf(s) + dy;
      if (!r.onBoard(f, k)) continue;
      const Square b = r.square(f, k);
      if (pos.at(b) == kEmpty && !pos.attackedPast(s, them, b)) return b;
    }
  return kNoSquare;
}

// What placeDucks works out once per list, before any move is made.
struct NodeFacts {
  Square threatened = kNoSquare;  // the mover's most valuable attacked piece (not the king)
  int threatenedValue = 0;
  std::array<Square, 4> near{};  // empty squares next to the enemy king, nearest first
  int nNear = 0;
  std::array<Square, 4> quiet{};  // empty squares far from both kings
  int nQuiet = 0;
};

NodeFacts factsOf(Position& pos, const Evaluator& eval, int mover) {
  const Rules& r = pos.rules();
  const uint8_t them = static_cast<uint8_t>(1u << (1 - mover));
  NodeFacts f;
  const Square ownKing = pos.kingSquare(mover), enemyKing = pos.kingSquare(1 - mover);
  for (int i = 0; i < pos.pieceCount(mover); ++i) {
    const Square s = pos.pieceSquare(mover, i);
    const int v = eval.pieceValue(typeOf(pos.at(s)));
    if (s != ownKing && v > f.threatenedValue && pos.attacked(s, them)) {
      f.threatenedValue = v;
      f.threatened = s;
    }
  }
  // Squares scored once: next to the enemy king (toward the mover's king),
  // and quiet squares far from both kings and off the enemy king's lines.
  std::array<std::pair<int, Square>, kMaxSquares> near, quiet;
  int n = 0;
  for (Square s = 0; s < r.nsq(); ++s) {
    if (pos.at(s) != kEmpty) continue;
    const int de = enemyKing != kNoSquare ? distance(r, s, enemyKing) : 8;
    const int dk = ownKing != kNoSquare ? distance(r, s, ownKing) : 8;
    near[n] = {de * 16 + dk, s};
    quiet[n] = {-(de + dk) + (enemyKing != kNoSquare && r.onLine(enemyKing, s) ? 8 : 0), s};
    ++n;
  }
  const int keep = std::min(n, 4);
  std::partial_sort(near.begin(), near.begin() + keep, near.begin() + n);
  std::partial_sort(quiet.begin(), quiet.begin() + keep, quiet.begin() + n);
  for (int i = 0; i < keep; ++i) {
    f.near[f.nNear++] = near[i].second;
    f.quiet[f.nQuiet++] = quiet[i].second;
  }
  return f;
}

// After the move alone m (the duck still on its old square): the duck
// squares to try, best first, at most n.
int chooseSquares(Position& pos, const Evaluator& eval, const NodeFacts& facts, int mover, Move m,
                  std::array<Square, 3>& out, int n) {
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
    // Defence: the king first, else the most valuable attacked piece (the one
    // attacked before the move, or the moved piece if it stands attacked now
    // and is worth more).
    const Square king = pos.kingSquare(mover);
    if (king != kNoSquare && pos.attacked(king, them)) {
      add(shieldSquare(pos, king, them));
    } else if (!m.isDrop() && m.flag() != kCastle) {
      Square target = facts.threatened == m.from() ? kNoSquare : facts.threatened;
      const int moved = eval.pieceValue(typeOf(pos.at(m.to())));
      if (moved > (target == kNoSquare ? 0 : facts.threatenedValue) && pos.attacked(m.to(), them)) target = m.to();
      if (target != kNoSquare && isPiece(pos.at(target))) add(shieldSquare(pos, target, them));
    }
  }
  for (int i = 0; i < facts.nNear && k < std::min(n, 2); ++i) add(facts.near[i]);
  for (int i = 0; i < facts.nQuiet && k < n; ++i) add(facts.quiet[i]);
  // Always one square: any empty one.
  for (Square s = 0; k == 0 && s < r.nsq(); ++s) add(s);
  return k;
}

}  // namespace

void placeDucks(Position& pos, const Evaluator& eval, MoveList& list, int perMove) {
  const int n = list.size();
  if (n == 0) return;
  perMove = std::clamp(perMove, 1, 3);
  while (perMove > 1 && n * perMove > MoveList::kCapacity) --perMove;
  const int mover = pos.toMove();
  const NodeFacts facts = factsOf(pos, eval, mover);
  // The moves alone are copied out first: the turns overwrite the list.
  std::array<Move, MoveList::kCapacity> alone;
  for (int i = 0; i < n; ++i) alone[i] = list[i].withoutDuck();
  list.clear();
  std::array<Square, 3> squares;
  for (int i = 0; i < n; ++i) {
    pos.make(alone[i]);  // the duck stays on its square until the turn is made
    const int k = chooseSquares(pos, eval, facts, mover, alone[i], squares, perMove);
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
