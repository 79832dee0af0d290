// Two-seat search: iterative deepening PVS alpha-beta with a transposition
// table, quiescence search, null move, late-move reductions, killer and
// history ordering, aspiration windows, check extensions and mate scores.
// With a die, the current throw restricts the root and later throws are
// chance nodes (expectimax over the faces).
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <vector>

#include "engine/search_base.h"

namespace acedrex::engine {

// Whether the two-seat search plays these rules: two seats, or two teams
// whose seats alternate in a game that the first mate ends and stalemate
// draws (four-player chess's teams), so that every ply hands the move to the
// other side and a side's score is its team's.
bool playsAsTwoSides(const Rules& rules);

class Search : public SearchBase {
 public:
  Search(std::shared_ptr<const Rules> rules, const Evaluator& eval, SearchConfig config);
  SearchResult run(const Game& game, const SearchLimits& limits, std::atomic<bool>& stop,
                   const std::function<void(const SearchInfo&)>& onInfo);
  void clear();  // SearchBase::clear and this search's own move statistics

 private:
  int negamax(int depth, int alpha, int beta, int ply, bool allowNull, Move excluded = Move());
  int chance(int depth, int alpha, int beta, int ply);
  bool isChanceNode(int ply) const;
  int kingCaptureAtHorizon(int ply, int evasionFaces);
  int qsearch(int alpha, int beta, int ply, int qdepth);
  int terminalScore(int ply) const;
  // The score of a node where the side to move has no legal move: mated, or
  // stalemated (a draw, a loss or, with stalemate=win, a win).
  int noMoveScore(bool inCheck, int ply) const;
  // Scores and sorts the whole list, the losing captures after the quiet moves (the root, chance nodes).
  void orderMoves(MoveList& list, Move ttMove, int ply, int* scores) const;
  // Brings the next move to list[k]: the best-scored one, a capture that loses its exchange
  // being moved to the losing band when it comes up. Once no capture is left to test, the
  // rest is sorted at once and `sorted` set, after which the list is already in order.
  void pickMove(MoveList& list, int* scores, int k, bool& sorted) const;
  int evaluate();
  // Teams: whether the seat that moves after `seat` attacks the king of a partner of
  // `seat` (not itself), which it may take before that partner moves; false without teams.
  bool partnerInReach(int seat) const;
  std::vector<Move> extractPv(Move first);

  int evalAt_[kMaxPly + 8];      // the static score at each ply (-kInf in check)

  // Move statistics beyond SearchBase's killers and history. A move's
  // "piece-to" index is its moving (or dropped) piece type and its target.
  int pieceTo(Move m) const {
    const int type = m.isDrop() ? m.dropType() : typeOf(pos_.at(m.from()));
    return type * squares_ + m.to();
  }
  // The quiet move's ordering score from the history and the two
  // continuation histories (by the opponent's last move and our own before it).
  int quietStat(int us, Move m, int idx, int ply);
  int16_t* continuation(int ply, int back) {
    const int prev = ply - back >= 0 ? pieceToAt_[ply - back] : -1;
    return prev < 0 ? nullptr : &contHist_[static_cast<size_t>(prev) * pieceToCount_];
  }
  int16_t& captureHistory(Move m) {
    return captureHist_[static_cast<size_t>(pieceTo(m)) * rules_->types.size() + typeOf(pos_.at(m.to()))];
  }
  // Orders the list: SearchBase's bands, the counter move after the killers,
  // quiet moves by quietStat, captures by victim and capture history.
  void scoreNodeMoves(const MoveList& list, Move ttMove, int ply, int* scores);
  // After a cutoff by `best` (quiet or capture) at `depth`: its statistics
  // gain, those of the moves tried before it lose.
  void updateStats(Move best, int depth, int ply, const Move* quiets, int nQuiets, const Move* captures,
                   int nCaptures);

  int rootDepth_ = 0;                // the iteration's depth
  int extensionsAt_[kMaxPly + 8];    // the plies of extension on the path to each ply
  int squares_ = 0;        // width * height
  int pieceToCount_ = 0;   // piece types * squares_
  int pieceToAt_[kMaxPly + 8];  // the piece-to index of the move made at each ply (-1: a pass or none)
  std::vector<int16_t> contHist_;     // [piece-to of an earlier move][piece-to]
  std::vector<Move> counterMoves_;    // [piece-to of the opponent's last move]
  std::vector<int16_t> captureHist_;  // [piece-to][captured type]
};

}  // namespace acedrex::engine
