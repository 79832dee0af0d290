// Search for more than two seats, from the root seat's view.
//
// - Best-Reply Search (Schadd and Winands 2011) on a paranoid backbone: the
//   root seat's move, then one layer in which the strongest single reply of
//   any opponent is chosen while the other opponents pass; an opponent in
//   check plays its first ordered move instead, as in BRS+ (Esser et al.
//   2013). (With BRS+'s ordered moves for all of them, a mate by the seat just
//   before the root seat was often hidden by the moves played before it.)
// - Paranoid: every opponent minimises the root seat's score in turn order.
// - Max^n: every seat maximises its own score (shallow-pruning free).
// A seat without a legal move is mated or stalemated at its turn start, as
// in the game; the evaluation counts armies a mate hands over because the
// position after the takeover already has them recoloured, and adds the root
// seat's pressure on the opponents' kings, less the opponents' grip on its
// own, a mop-up against bare kings and a bonus per opponent out (see
// evaluate). BRS reduces late quiet moves. Results are decided by places, not
// coins; a repeated position is scored as the draw it can be made into. The
// quiescence search lets every opponent capture (or pass) before the root
// seat moves again. With a die, each opponent's next throw is a chance node
// (expectimax over the faces, averaged as winning chances, on the paranoid
// backbone); later throws are searched as if free.
#pragma once

#include <array>
#include <atomic>
#include <functional>
#include <memory>
#include <vector>

#include "engine/search_base.h"

namespace acedrex::engine {

enum class MultiAlgorithm { kBrsPlus, kParanoid, kMaxN };

// Late move reductions in BRS: how many plies shallower a move is tried
// first, from the remaining depth, its place in the order and whether it is
// quiet (no capture, promotion or killer). One ply for a quiet move after
// the first three when at least three plies remain; the tree is wide (every
// opponent's replies in one layer), and the depth-limited levels (depth 3
// or less) are never reduced.
int lateMoveReduction(int depth, int index, bool quiet);

// Where the first mate ends the game: a game another seat won by mating a
// third, with the root seat still in, is as lost as its own mate, but scored
// only this far below an even game. Scored as a mate against it, every mate
// any opponent could give another (which the best-reply layer offers as the
// opponents' best) outweighed the root seat's own attack, and the bot spent
// its moves guarding the others' kings (docs/strength.md, Joko Urtaroak).
constexpr int kThirdPartyMate = 1000;
// Where the first mate ends the game, the root seat's grip on the king of the
// next seat still in counts this many times: its move is the last before
// that seat's turn, so a mate of it needs no other seat to wait (in Joko the
// winners mated the next seat most often; docs/strength.md).
constexpr int kNextSeatPressure = 3;
// Four-player chess's free-for-all: what one point of the score is worth in
// the evaluation (a pawn is about 90): the points decide the places, and a
// capture earns both its material and its points.
constexpr int kPointValue = 40;

// The root seat's king pressure from its grip score on each seat's king (0
// for itself and the seats out): mostly the best target, as one king mated
// is worth more than three harassed. The seat `favoured` (the next seat
// where the first mate ends the game, or -1) counts kNextSeatPressure times.
int combinedPressure(const std::array<int, kMaxSeats>& grips, int favoured);

class MultiSearch : public SearchBase {
 public:
  MultiSearch(std::shared_ptr<const Rules> rules, const Evaluator& eval, SearchConfig config,
              MultiAlgorithm algorithm);
  SearchResult run(const Game& game, const SearchLimits& limits, std::atomic<bool>& stop,
                   const std::function<void(const SearchInfo&)>& onInfo);
  // The static score the search gives `pos` from `root`'s view (the
  // evaluation with the root seat's king terms, mop-up and seats out).
  int staticScore(const Position& pos, int root);
  // The score the search gives the finished game `pos` from `root`'s view,
  // at the root (a win or a loss is a mate score, a shared first place 0).
  int finishedScore(const Position& pos, int root);

 private:
  using Vec = std::array<int, kMaxSeats>;
  int paranoid(int depth, int alpha, int beta, int ply);
  // The checks every search node starts with (game over, repetition, leaf,
  // clock, ply cap); true with `score` set when the node is settled by them.
  bool settledBeforeSearch(int depth, int alpha, int beta, int ply, int& score);
  int brs(int depth, int alpha, int beta, int ply);
  // lateMoveReduction for `m`, the `index`th in the order; and the search of
  // a made move with that reduction.
  int lateReduction(Move m, int depth, int index, int ply) const;
  int brsReduced(int depth, int reduction, int alpha, int beta, int ply, bool maxLayer);
  int chance(int depth, int alpha, int beta, int ply);
  bool isChanceNode(int ply) const;
  Vec maxn(int depth, int ply);
  int quiesce(int alpha, int beta, int ply, int qdepth, bool quiet);
  int searchChild(int depth, int alpha, int beta, int ply);  // the configured algorithm below the root
  int terminalScore(int ply) const;
  Vec terminalVec(int ply) const;
  Vec evalVec() const;
  int evaluate();  // static score from the root seat's view (cached)
  int kingPressure(const Evaluator::Attacks& a) const;
  int pointsLead() const;  // free-for-all points (Rules::capturePoints)
  // The root seat or its partner (Rules::teams): the seats whose moves maximise.
  bool ours(int seat) const { return (rules_->friends[root_] >> seat) & 1; }
  // Squares next to `seat`'s king that seats `by` attack, and its free squares.
  struct KingGrip {
    int hits = 0;
    int escapes = 0;
  };
  KingGrip kingGrip(int seat, uint8_t by, const Evaluator::Attacks& a) const;
  static int gripScore(const KingGrip& g);
  int ownKingRisk(const Evaluator::Attacks& a) const;
  int mopUp() const;
  // Moves for the seat to move; applies turn starts until someone can move.
  // Returns the number of turn-start records pushed (to undo).
  int settle();
  // Makes a move and the turn starts after it, and records the position for
  // repetitions; undo() takes back what play() returned.
  int play(Move m);
  void undo(int records);
  uint64_t ttKey() const;
  bool legalOrdered(MoveList& list, int ply, Move ttMove = Move());
  Move firstOrdered(int ply);
  Move idleMove(int ply);  // what an opponent other than the best replier plays in BRS
  void rememberCutoff(Move m, int depth, int ply);

  MultiAlgorithm algo_;
  int root_ = 0;
};

}  // namespace acedrex::engine
