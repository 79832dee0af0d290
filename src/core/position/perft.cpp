#include "core/position/perft.h"

namespace acedrex {

namespace {
// Duck games: each legal move once per square the duck may go to; the last
// ply counts them without making them.
uint64_t duckPerft(Position& pos, const MoveList& list, int depth) {
  uint64_t total = 0;
  if (depth == 1) {
    for (Move m : list) total += static_cast<uint64_t>(pos.duckTurnCount(m));
    return total;
  }
  std::vector<Move> turns;
  for (Move m : list) {
    turns.clear();
    pos.appendDuckTurns(m, turns);
    for (Move t : turns) {
      pos.make(t);
      total += perft(pos, depth - 1);
      pos.unmake();
    }
  }
  return total;
}

// With unions a position may have more turns than a MoveList holds.
uint64_t unionPerft(Position& pos, int depth) {
  std::vector<Move> moves;
  pos.legalTurns(moves);
  if (depth == 1 || moves.empty()) return static_cast<uint64_t>(moves.size());
  uint64_t total = 0;
  for (Move m : moves) {
    pos.make(m);
    total += perft(pos, depth - 1);
    pos.unmake();
  }
  return total;
}
}  // namespace

uint64_t perft(Position& pos, int depth) {
  if (depth == 0) return 1;
  if (pos.finished()) return 0;
  if (pos.rules().unions) [[unlikely]] return unionPerft(pos, depth);
  MoveList list;
  pos.legalMoves(list);
  if (list.empty()) {
    pos.applyTurnStart();
    const uint64_t n = pos.finished() ? 0 : perft(pos, depth);
    pos.unmake();
    return n;
  }
  if (pos.rules().duck) [[unlikely]] return duckPerft(pos, list, depth);
  if (depth == 1) return static_cast<uint64_t>(list.size());
  uint64_t total = 0;
  for (Move m : list) {
    pos.make(m);
    total += perft(pos, depth - 1);
    pos.unmake();
  }
  return total;
}

std::vector<std::pair<std::string, uint64_t>> perftDivide(Position& pos, int depth) {
  std::vector<std::pair<std::string, uint64_t>> out;
  if (depth < 1 || pos.finished()) return out;
  std::vector<Move> turns;  // with a duck, each move once per duck square; with unions, every chain
  pos.legalTurns(turns);
  if (turns.empty()) {
    pos.applyTurnStart();
    out = perftDivide(pos, depth);
    pos.unmake();
    return out;
  }
  for (Move m : turns) {
    std::string text = pos.moveText(m);  // before the move: castling's text reads the rook's square
    pos.make(m);
    out.emplace_back(std::move(text), perft(pos, depth - 1));
    pos.unmake();
  }
  return out;
}

}  // namespace acedrex

#include <sstream>

namespace acedrex {

Status playLine(Position& pos, const std::string& moves) {
  std::istringstream in(moves);
  int ply = 0;
  for (std::string t; in >> t;) {
    ++ply;
    auto m = pos.parseMove(t);
    if (!m.ok()) {
      Error e = m.error();
      e.location = "ply " + std::to_string(ply) + ", " + e.location;
      return e;
    }
    pos.make(m.value());
    MoveList list;
    while (!pos.finished()) {
      pos.legalMoves(list);
      if (!list.empty()) break;
      pos.applyTurnStart();
    }
  }
  return okStatus();
}

}  // namespace acedrex
