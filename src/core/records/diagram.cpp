#include "core/records/diagram.h"

#include <algorithm>

namespace acedrex {

PieceReach pieceReach(const Rules& r, int type, int dir, Square from) {
  PieceReach out;
  auto add = [](std::vector<Square>& v, Square s) {
    if (std::find(v.begin(), v.end(), s) == v.end()) v.push_back(s);
  };
  const SquareMoves& sm = r.moves(kindOf(type, dir), from);
  for (uint32_t i = sm.leapBegin; i < sm.leapEnd; ++i) {
    if (r.leaps[i].mode & kModeMove) add(out.moves, r.leaps[i].to);
    if (r.leaps[i].mode & kModeCapture) add(out.captures, r.leaps[i].to);
  }
  for (uint32_t i = sm.rayBegin; i < sm.rayEnd; ++i) {
    const Ray& ray = r.rays[i];
    for (int j = 0; j < ray.len; ++j) {
      const Square s = r.raySq[ray.begin + j];
      if (ray.mode & kModeMove) add(out.moves, s);
      if (ray.mode & kModeCapture) add(out.captures, s);
      if (j > 0 && (ray.mode & (kModeHopMove | kModeHopCapture))) add(out.hops, s);
    }
  }
  for (uint32_t i = sm.bentBegin; i < sm.bentEnd; ++i) {
    const Bent& b = r.bents[i];
    if (b.mode & kModeMove) add(out.moves, b.first);
    if (b.mode & kModeCapture) add(out.captures, b.first);
    for (int c = 0; c < b.rayCount; ++c) {
      const Ray& ray = r.bentRays[b.rayBegin + c];
      for (int j = 0; j < ray.len; ++j) {
        if (b.mode & kModeMove) add(out.moves, r.raySq[ray.begin + j]);
        if (b.mode & kModeCapture) add(out.captures, r.raySq[ray.begin + j]);
      }
    }
  }
  // The king's first leap and the pawn's double step are rules, not tables.
  if (type == r.royalType)
    for (const Offset& o : r.kingLeaps) {
      const Offset d = r.rotate(o, dir);
      const int f = r.fileOf(from) + d.dx, k = r.rankOf(from) + d.dy;
      if (r.onBoard(f, k) && !r.blocked[r.square(f, k)]) add(out.moves, r.square(f, k));
    }
  if (r.types[type].pawn && r.doubleStepRank && r.relativeRank(from, dir) == r.doubleStepRank) {
    const Offset d = r.rotate({0, 2}, dir);
    const int f = r.fileOf(from) + d.dx, k = r.rankOf(from) + d.dy;
    if (r.onBoard(f, k)) add(out.moves, r.square(f, k));
  }
  return out;
}

PieceReach diagramReach(const Rules& r, int type, int dir, Square from) {
  PieceReach out = pieceReach(r, type, dir, from);
  auto add = [&](Square s, uint8_t mode) {
    auto once = [](std::vector<Square>& v, Square x) {
      if (std::find(v.begin(), v.end(), x) == v.end()) v.push_back(x);
    };
    if (mode & kModeMove) once(out.moves, s);
    if (mode & kModeCapture) once(out.captures, s);
  };
  const SquareMoves& sm = r.moves(kindOf(type, dir), from);
  for (uint32_t i = sm.lameBegin; i < sm.lameEnd; ++i) add(r.lameLeaps[i].to, r.lameLeaps[i].mode);
  // hex3: the second branches of the diagonals that fork at the centre
  // (their cells before the fork are already in the first branch).
  if (!r.forkRange.empty()) {
    const auto [begin, end] = r.forkRange[static_cast<size_t>(kindOf(type, dir)) * kMaxSquares + from];
    for (uint32_t k = begin; k < end; ++k) {
      const Ray& ray = r.forkRays[k];
      for (int j = ray.skip; j < ray.len; ++j) add(r.raySq[ray.begin + j], ray.mode);
    }
  }
  return out;
}

}  // namespace acedrex
