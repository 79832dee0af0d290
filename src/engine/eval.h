// Evaluation: material, piece-square terms from each piece's reach, pawn
// advancement and king safety, with parameters read from data
// (src/engine/params/<variant>.params, embedded) so that the tuner can
// rewrite them.
#pragma once

#include <array>
#include <bitset>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/position/position.h"

namespace acedrex::engine {

// The named parameters of one variant's evaluation.
struct EvalParams {
  struct PieceParams { int value = 0; int mobility = 0; };
  std::map<char, PieceParams> pieces;
  int pawnAdvance = 40;
  int kingCenterOpening = -10;
  int kingCenterEnding = 8;
  int kingShelter = 8;     // per own piece next to the king (at most 4) and per pawn-shield point (2 a lane one step ahead, 1 two steps)
  int kingDanger = 12;
  int kingZone = 8;        // attack weight on the squares at the king, squared over 8
  int kingCrossfire = 0;   // two or more enemy seats attack the squares at the king (games of more seats)
  int kingSwarm = 0;       // percent of a per-square table: enemy attackers at the king beyond its team's defenders
  int pawnThreat = 40;     // a piece (not a pawn) standing where an enemy pawn takes
  int hanging = 30;        // a piece (not a pawn) attacked and not defended
  int passedPawn = 60;     // a pawn no enemy pawn can stop, growing with its progress
  int lesserThreat = 0;    // a piece (not a pawn) attacked by an enemy piece worth less
  int doubledPawn = 0;     // per own pawn on a lane with another own pawn
  int isolatedPawn = 0;    // per own pawn with no own pawn on the lanes next to it
  int openLane = 0;        // a piece that slides along its lane, on a lane without own pawns...
  int clearLane = 0;       // ...and without any pawns (added to open-lane)
  int kingOpenRay = 0;     // per line from the king toward the board's middle (three) with no own piece in two squares
  int leaperKing = 0;      // a piece that only leaps, two of its leaps from an enemy king (per king)
  int activation = 0;      // per piece (not a pawn or the king) off its first rank with room to move
  int activationPair = 0;  // teams: times the product of the two partners' activated pieces
  int tempo = 10;
  // Other variants these parameters serve (a file's `variants NAME...` line):
  // a variant without a file of its own takes the first file that names it.
  std::vector<std::string> alsoFor;

  // The tunable values as one vector, and back (order as written by toText).
  std::vector<int*> tunables();
  std::string toText(const std::string& variant) const;
};

Result<EvalParams> parseEvalParams(const std::string& text);
// The embedded parameters for a variant, or defaults derived from the pieces' reach.
EvalParams defaultEvalParams(const Rules& rules);

class Evaluator {
 public:
  Evaluator(std::shared_ptr<const Rules> rules, EvalParams params);
  // Score of the position for `seat` alone (its own material and placement).
  int seatScore(const Position& pos, int seat) const;
  // What one pass over the board learns: per seat, how many of its pieces
  // attack each square, where its pawns take, and its mobility score.
  struct Attacks {
    std::array<std::array<uint8_t, kMaxSquares>, kMaxSeats> count;
    std::array<uint8_t, kMaxSquares> pawns;  // a bit per seat whose pawns take there
    // Per seat and square: the value of its cheapest attacker that is not a pawn, or 0xFFFF.
    std::array<std::array<uint16_t, kMaxSquares>, kMaxSeats> lowest;
    std::array<int, kMaxSeats> mobility;
    std::array<int, kMaxSeats> active;  // activated pieces (see EvalParams::activation)
  };
  void attacks(const Position& pos, Attacks& a) const;
  int seatScore(const Position& pos, int seat, const Attacks& a) const;
  // Two seats: from the seat to move's view. More: from `view`'s view, own minus the opponents.
  int evaluate(const Position& pos, int view) const;
  int evaluate(const Position& pos, int view, const Attacks& a) const;  // with the attacks already made
  int pieceValue(int type) const { return value_[type]; }
  const EvalParams& params() const { return params_; }

 private:
  void build();
  // Unions (Rules::unions, friendly_eval.cpp): the score from the side to move's view.
  int unionScore(const Position& pos) const;
  // Marks the squares the piece attacks; returns how many it may go to safely.
  int walk(const Position& pos, Square s, Piece p, uint8_t unsafe, const uint8_t* pawns, uint8_t* count,
           uint16_t* lowest) const;
  // Per lane (shifted by one, with an empty lane at each side): the furthest
  // relative rank an enemy pawn stands on, or -1.
  using PawnFronts = std::array<int8_t, kMaxFiles + 2>;
  void pawnFronts(const Position& pos, int seat, int dir, PawnFronts& front) const;
  bool passed(Square s, int dir, const PawnFronts& front) const;
  // The enemy kings the leaper on s would attack after one of its leaps.
  int leaperKings(const Position& pos, Square s, Piece p) const;
  std::shared_ptr<const Rules> rules_;
  EvalParams params_;
  std::array<int, kMaxPieceTypes> value_{};
  std::array<int, kMaxPieceTypes> mobility_{};     // per square a piece may go to now
  std::array<int, kMaxPieceTypes> mobAverage_{};   // subtracted so that an average reach scores 0
  std::vector<int> pst_;                           // [kind][square]
  std::vector<int> center_;                        // per square: centrality, 0 at the edge
  std::vector<uint8_t> dist_;                      // king distance between two squares, [a * nsq + b]
  std::vector<std::vector<Square>> zone_;          // per square: it and its neighbours
  std::vector<int> passedBonus_;                   // [dir * nsq + square]
  std::array<bool, kMaxPieceTypes> laneSlider_{};  // slides at least two squares straight ahead
  std::array<bool, kMaxPieceTypes> leaper_{};      // moves by leaps only (not a pawn or the king)
  // Per leaper kind (made when leaper-king is set): per square, the squares
  // from which one of its leaps would attack a piece there.
  std::vector<std::vector<std::bitset<kMaxSquares>>> twoLeaps_;  // [kind][square]
  // Per king direction and square: the squares of its pawn shield, with their
  // weight (2 one step ahead on its file or the next, 1 two steps ahead).
  struct ShieldSquare {
    Square square;
    int lane;    // 0..2
    int weight;  // 2 or 1
  };
  std::vector<std::vector<ShieldSquare>> shield_;  // [dir * nsq + square]
  // Per king direction and square: the lines ahead of it (straight and the
  // two diagonals) that have two squares on the board, those two squares.
  std::vector<std::vector<std::array<Square, 2>>> kingLines_;  // [dir * nsq + square]
  int totalMaterial_ = 1;
};

}  // namespace acedrex::engine
