// The duck (Rules::duck): a neutral blocker moved after every move.
//
// On the board the duck is a blocked square (kBlocked) whose place is
// st_.duck, so that the generator, the attack tables and the castling path
// treat it as the hole it is: nothing lands on it, captures it or passes
// through it. A turn is one Move whose top bits hold the duck's square
// (Move::duck()); the generator makes the moves alone (a MoveList holds them),
// and the turns are those moves times the squares the duck may go to, made on
// demand: legalTurns and appendDuckTurns for the lists a player chooses from,
// duckTurnCount for perft's last ply.
#include "core/position/position.h"

namespace acedrex {

void Position::moveDuck(Square s) {
  if (s == kNoSquare) return;  // a move alone: the duck stays (engine look-ahead)
  assert(st_.board[s] == kEmpty);
  if (st_.duck != kNoSquare) {
    st_.board[st_.duck] = kEmpty;
    st_.hash ^= rules_->zPiece(kBlocked, st_.duck);
  }
  st_.board[s] = kBlocked;
  st_.hash ^= rules_->zPiece(kBlocked, s);
  st_.duck = static_cast<int16_t>(s);
  st_.checkSeat = -1;
}

void Position::legalTurns(std::vector<Move>& out) {
  out.clear();
  if (rules_->unions) [[unlikely]] {
    appendUnionTurns(out);
    return;
  }
  MoveList list;
  legalMoves(list);
  if (!rules_->duck) {
    out.assign(list.begin(), list.end());
    return;
  }
  for (Move m : list) appendDuckTurns(m, out);
}

void Position::appendDuckTurns(Move m, std::vector<Move>& out) {
  const Move alone = m.withoutDuck();
  makeImpl(alone, false);  // the duck stays on its square, which is not empty
  for (Square s = 0; s < rules_->nsq(); ++s)
    if (st_.board[s] == kEmpty) out.push_back(alone.withDuck(s));
  unmake();
}

int Position::duckTurnCount(Move m) const {
  int empty = 0;
  for (Square s = 0; s < rules_->nsq(); ++s) empty += st_.board[s] == kEmpty ? 1 : 0;
  // A capture frees a square; a drop fills one; any other move (castling
  // included) leaves as many pieces on the board.
  if (m.isDrop()) return empty - 1;
  if (m.flag() == kEnPassant) return empty + 1;
  if (m.flag() != kCastle && !m.isNull() && m.flag() != kPass && isPiece(st_.board[m.to()])) return empty + 1;
  return empty;
}

bool Position::attackedPast(Square s, uint8_t seats, Square block) {
  assert(st_.board[block] == kEmpty);
  st_.board[block] = kBlocked;
  const bool hit = attacked(s, seats);
  st_.board[block] = kEmpty;
  return hit;
}

Status Position::readDuck(Square s) {
  if (!rules_->duck) return makeError("fen", "a duck '*' in a game without one");
  if (st_.duck != kNoSquare) return makeError("fen", "two ducks");
  if (rules_->blocked[s]) return makeError("fen", "the duck stands on a blocked square");
  st_.board[s] = kBlocked;
  st_.duck = static_cast<int16_t>(s);
  return okStatus();
}

std::string Position::duckText(Move m, Square shownTo) const {
  if (m.duck() == kNoSquare) return "";
  return "," + rules_->squareName(shownTo) + rules_->squareName(m.duck());
}

// "e2e4,e4d5": the move, a comma, the move's destination and the duck's square.
Result<Move> Position::parseDuckTurn(const std::string& text) {
  std::vector<Move> turns;
  legalTurns(turns);
  for (Move m : turns)
    if (moveText(m) == text) return m;
  const size_t comma = text.find(',');
  const std::string where = "move \"" + text + "\"";
  if (comma == std::string::npos)
    return makeError(
        "move", "a turn moves the duck too: write the move, a comma, its destination and the duck's square (e2e4,e4d5)",
        where);
  const std::string alone = text.substr(0, comma);
  for (Move m : turns)
    if (moveText(m.withoutDuck()) == alone)
      return makeError("move",
                       "the duck must go to an empty square other than its own, written after the move's destination",
                       where);
  auto base = parseMoveAlone(alone);  // says why the move alone is not legal
  if (!base.ok()) {
    Error e = base.error();
    e.location = where;
    return e;
  }
  return makeError("move", "not a legal turn here", where);
}

}  // namespace acedrex
