// Evaluation: material, piece-square terms from each piece's reach, pawn
// advancement and king safety, with parameters read from data
// (src/engine/params/<variant>.params, embedded) so that the tuner can
// rewrite them.
#pragma once

#include <array>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/position.h"

namespace acedrex::engine {

// The named parameters of one variant's evaluation.
struct EvalParams {
  struct PieceParams { int value = 0; int mobility = 0; };
  std::map<char, PieceParams> pieces;
  int pawnAdvance = 40;
  int kingCenterOpening = -10;
  int kingCenterEnding = 8;
  int kingShelter = 8;
  int kingDanger = 12;
  int tempo = 10;

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
  // Two seats: from the seat to move's view. More: from `view`'s view, own minus the opponents.
  int evaluate(const Position& pos, int view) const;
  int pieceValue(int type) const { return value_[type]; }
  const EvalParams& params() const { return params_; }

 private:
  void build();
  int sliderReach(const Position& pos, Square s, Piece p) const;
  std::shared_ptr<const Rules> rules_;
  EvalParams params_;
  std::array<int, kMaxPieceTypes> value_{};
  std::array<int, kMaxPieceTypes> mobility_{};   // per square a slider reaches now
  std::array<int, kMaxPieceTypes> mobAverage_{};  // subtracted so that an average reach scores 0
  std::array<bool, kMaxPieceTypes> slider_{};
  std::vector<int> pst_;  // [kind][square]
  std::vector<int> center_;  // per square: centrality, 0 at the edge
  std::vector<uint8_t> dist_;  // king distance between two squares, [a * nsq + b]
  int totalMaterial_ = 1;
};

}  // namespace acedrex::engine
