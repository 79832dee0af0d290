// The hex3 geometry: three-player chess's board of three halves of 8x4 cells
// (docs/rules/three-player-chess.md). See hex3.h.
#include "core/board/hex3.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "core/position/position.h"
#include "core/base/text_util.h"

namespace acedrex {

namespace {

constexpr int kHalves = 3;
constexpr int kGrid = 12;

// The half a cell's file runs into when it crosses the middle seam: the left
// quadrant (x < 4) of half h joins the right quadrant of half h + 1.
int partner(int half, int x) { return x < 4 ? (half + 1) % kHalves : (half + 2) % kHalves; }

bool isCell(int file, int rank) {
  if (file < 0 || rank < 0 || file >= kGrid || rank >= kGrid) return false;
  const int band = file / 4;  // a-d, e-h, i-l
  const int row = rank / 4;   // 1-4, 5-8, 9-12
  // Half 0: a-h on 1-4; half 1: a-d and i-l on 5-8; half 2: e-h and i-l on 9-12.
  return (row == 0 && band != 2) || (row == 1 && band != 1) || (row == 2 && band != 0);
}

// A step along an orthogonal direction (never forks); sign turns round with
// the local frame when the step crosses the seam.
bool orthStep(HexCell& c, int& sign, int dx, int dy) {
  const auto next = hex3Step(c, sign * dx, sign * dy);
  if (next.empty()) return false;
  if (next[0].cell.half != c.half) sign = -sign;
  c = next[0].cell;
  return true;
}

// The knight's targets for the offset (dx, dy) in c's local frame: the two
// orthogonal paths, long leg first and short leg first.
void knightTargets(const HexCell& from, int dx, int dy, std::vector<HexCell>& out) {
  const bool tall = std::abs(dy) == 2;
  const int lx = tall ? 0 : dx / 2, ly = tall ? dy / 2 : 0;  // the long leg's unit step
  const int sx = tall ? dx : 0, sy = tall ? 0 : dy;         // the short leg
  for (int order = 0; order < 2; ++order) {
    HexCell c = from;
    int sign = 1;
    bool ok = true;
    if (order == 0) ok = orthStep(c, sign, lx, ly) && orthStep(c, sign, lx, ly) && orthStep(c, sign, sx, sy);
    else ok = orthStep(c, sign, sx, sy) && orthStep(c, sign, lx, ly) && orthStep(c, sign, lx, ly);
    if (ok) out.push_back(c);
  }
}

// Every ray from c along the local direction (dx, dy): one path, or two that
// share the cells before the centre. `shared` gets how many cells the second
// path shares with the first.
std::vector<std::vector<HexCell>> hexRays(const HexCell& c, int dx, int dy, int& shared) {
  std::vector<std::vector<HexCell>> rays(1);
  shared = 0;
  struct Front { HexCell cell; int dx, dy; size_t ray; };
  std::vector<Front> fronts{{c, dx, dy, 0}};
  while (!fronts.empty()) {
    Front f = fronts.back();
    fronts.pop_back();
    for (;;) {
      const auto next = hex3Step(f.cell, f.dx, f.dy);
      if (next.empty()) break;
      if (next.size() == 2) {  // the fork at the centre: the second branch gets a ray of its own
        shared = static_cast<int>(rays[f.ray].size());
        std::vector<HexCell> branch = rays[f.ray];
        branch.push_back(next[1].cell);
        rays.push_back(std::move(branch));
        fronts.push_back({next[1].cell, next[1].dx, next[1].dy, rays.size() - 1});
      }
      rays[f.ray].push_back(next[0].cell);
      f.cell = next[0].cell, f.dx = next[0].dx, f.dy = next[0].dy;
    }
  }
  if (rays[0].empty()) rays.clear();
  return rays;
}

bool isStep(const Offset& o) { return std::abs(o.dx) <= 1 && std::abs(o.dy) <= 1 && (o.dx || o.dy); }
bool isKnight(const Offset& o) {
  return (std::abs(o.dx) == 1 && std::abs(o.dy) == 2) || (std::abs(o.dx) == 2 && std::abs(o.dy) == 1);
}

// The piece-frame offset o in the local frame of half `half`: a pawn's
// forward is towards the centre in its own half and away from it elsewhere.
Offset localOffset(const Offset& o, bool pawn, int dir, int half) {
  return pawn && half != dir ? Offset{-o.dx, -o.dy} : o;
}

}  // namespace

Square hex3Square(const HexCell& c) {
  switch (c.half) {
    case 0: return c.y * kGrid + c.x;
    case 1: return (7 - c.y) * kGrid + (c.x < 4 ? 11 - c.x : 7 - c.x);
    default: return (11 - c.y) * kGrid + (c.x < 4 ? 7 - c.x : c.x + 4);
  }
}

HexCell hex3Cell(Square s) {
  const int file = s % kGrid, rank = s / kGrid;
  if (rank < 4) return {0, file, rank};
  if (rank < 8) return {1, file >= 8 ? 11 - file : 7 - file, 7 - rank};
  return {2, file < 8 ? 7 - file : file - 4, 11 - rank};
}

std::vector<HexStep> hex3Step(const HexCell& c, int dx, int dy) {
  const int nx = c.x + dx, ny = c.y + dy;
  if (nx < 0 || nx > 7 || ny < 0) return {};
  if (ny <= 3) return {{{c.half, nx, ny}, dx, dy}};
  // Across the middle seam the local frame turns round: the file runs on
  // into the partner half towards its back rank.
  if (dx == 0) return {{{partner(c.half, c.x), 7 - c.x, 3}, 0, -1}};
  if ((c.x < 4) == (nx < 4)) return {{{partner(c.half, c.x), 7 - nx, 3}, -dx, -1}};
  // A diagonal through the centre, where six cells meet, forks: forward then
  // sideways, or sideways then forward.
  return {{{partner(c.half, c.x), 7 - nx, 3}, -dx, -1}, {{partner(c.half, nx), 7 - nx, 3}, -dx, -1}};
}

Status readGeometry(Rules& r, const VariantLine& l) {
  const std::string v = trim(l.value);
  if (v == "rect") {
    r.geometry = Rules::Geometry::kRect;
    return okStatus();
  }
  if (v != "hex3") return keyError("geometry is rect or hex3");
  if (r.width != kGrid || r.height != kGrid) return keyError("geometry = hex3 needs board = 12x12");
  if (r.nseats() != kHalves) return keyError("geometry = hex3 needs three seats");
  for (int i = 0; i < kHalves; ++i)
    if (r.seats[i].dir != i) return keyError("geometry = hex3: the seats face n, e and s, in that order (their halves)");
  if (r.hasRegion || !r.zoneMoves.empty() || !r.lineMoves.empty() || !r.kingLeaps.empty() || r.promotionRank)
    return keyError("geometry = hex3 has no regions, zone or line moves, king leaps or promotion rank");
  if (r.doubleStepRank && r.doubleStepRank != 2) return keyError("geometry = hex3: double-step is 2 or none");
  for (const PieceType& t : r.types)
    for (const MoveAtom& a : t.atoms) {
      const bool ride = a.kind == AtomKind::kRide && !a.hop;
      const bool leap = a.kind == AtomKind::kLeap && !a.lame;
      if ((!ride && !leap) || a.linesOnly) return keyError("geometry = hex3: piece " + t.name + " has a move it cannot make there");
      for (const Offset& o : a.offsets)
        if (!isStep(o) && !(leap && isKnight(o)))
          return keyError("geometry = hex3: piece " + t.name + " has a move it cannot make there");
    }
  r.geometry = Rules::Geometry::kHex3;
  r.hexDoubleStep = r.doubleStepRank == 2;
  r.doubleStepRank = 0;  // the table holds the double step (a lame leap)
  for (int rank = 0; rank < kGrid; ++rank)
    for (int file = 0; file < kGrid; ++file) r.blocked[r.square(file, rank)] = !isCell(file, rank);
  return okStatus();
}

Status readStuckPawn(Rules& r, const VariantLine& l) {
  const std::string v = trim(l.value);
  if (v == "none") {
    r.stuckPawnType = -1;
    return okStatus();
  }
  if (r.geometry != Rules::Geometry::kHex3 || r.mateEffect != MateEffect::kTakeover)
    return keyError("stuck-pawn needs geometry = hex3 and mate = takeover before it");
  const int type = v.size() == 1 ? r.typeByLetter(v[0]) : -1;
  if (type < 0 || r.types[type].pawn || r.types[type].royal)
    return keyError("stuck-pawn is the letter of a piece that is neither pawn nor royal, not \"" + v + "\"");
  r.stuckPawnType = type;
  return okStatus();
}

// The forward and reverse tables from the cell graph (the rectangular
// builders' counterparts: buildMoveTables, buildAttackTables).
void Rules::buildHex3Tables() {
  const int n = nsq();
  table_.assign(kMaxKinds * kMaxSquares, SquareMoves{0, 0, 0, 0, 0, 0, 0, 0});
  regions.resize(types.size());
  revLeaps.assign(n, {});
  revRays.assign(n, {});
  revBents.assign(n, {});
  revLames.assign(n, {});
  hexFarEdge.assign(n, 0);
  for (Square s = 0; s < n; ++s) {
    if (blocked[s]) continue;
    const HexCell c = hex3Cell(s);
    for (int dir = 0; dir < 4; ++dir)
      if (c.y == 0 && c.half != dir) hexFarEdge[s] |= static_cast<uint8_t>(1u << dir);
  }
  std::vector<std::map<std::tuple<int, int, int>, size_t>> rayIndex(n);
  forkRange.assign(kMaxKinds * kMaxSquares, {0, 0});
  for (int type = 0; type < static_cast<int>(types.size()); ++type) {
    // A stuck pawn (stuckPawnType) keeps the pawn's forward.
    const bool pawn = types[type].pawn || type == stuckPawnType;
    for (int dir = 0; dir < 4; ++dir) {
      const int kind = kindOf(type, dir);
      const uint64_t kbit = 1ULL << kind;
      for (Square s = 0; s < n; ++s) {
        SquareMoves& sm = table_[kind * kMaxSquares + s];
        sm.leapBegin = sm.leapEnd = static_cast<uint32_t>(leaps.size());
        sm.lameBegin = sm.lameEnd = static_cast<uint32_t>(lameLeaps.size());
        sm.rayBegin = sm.rayEnd = static_cast<uint32_t>(rays.size());
        sm.bentBegin = sm.bentEnd = static_cast<uint32_t>(bents.size());
        if (blocked[s] || (pawn && dir == 3)) continue;
        const HexCell c = hex3Cell(s);
        // Leaps: the targets of every leap atom, each square once with its modes merged.
        std::vector<std::pair<Square, uint8_t>> targets;
        for (const MoveAtom& atom : types[type].atoms) {
          if (atom.kind != AtomKind::kLeap) continue;
          const uint8_t mode = (atom.canMove ? kModeMove : 0) | (atom.canCapture ? kModeCapture : 0);
          std::vector<HexCell> cells;
          for (const Offset& o : atom.offsets) {
            const Offset lo = localOffset(o, pawn, dir, c.half);
            if (isKnight(lo)) knightTargets(c, lo.dx, lo.dy, cells);
            else
              for (const HexStep& st : hex3Step(c, lo.dx, lo.dy)) cells.push_back(st.cell);
          }
          for (const HexCell& t : cells) {
            const Square to = hex3Square(t);
            auto it = std::find_if(targets.begin(), targets.end(), [&](const auto& x) { return x.first == to; });
            if (it == targets.end()) targets.push_back({to, mode});
            else it->second |= mode;
          }
        }
        for (const auto& [to, mode] : targets) {
          leaps.push_back({static_cast<uint8_t>(to), mode});
          if (mode & kModeCapture) addRevLeap(s, to, kbit);
        }
        sm.leapEnd = static_cast<uint32_t>(leaps.size());
        // The pawn's double step from its second rank, as a leap over the square between.
        if (pawn && hexDoubleStep && c.half == dir && c.y == 1) {
          const uint8_t to = static_cast<uint8_t>(hex3Square({dir, c.x, 3}));
          const uint8_t over = static_cast<uint8_t>(hex3Square({dir, c.x, 2}));
          lameLeaps.push_back({to, kModeMove | kModeDoubleStep, {over, 0xFF}});
        }
        sm.lameEnd = static_cast<uint32_t>(lameLeaps.size());
        // Rides: one ray per path; the second path of a fork goes to forkRays
        // and skips the cells it shares with the first.
        std::vector<Ray> forks;
        for (const MoveAtom& atom : types[type].atoms) {
          if (atom.kind != AtomKind::kRide) continue;
          const uint8_t mode = (atom.canMove ? kModeMove : 0) | (atom.canCapture ? kModeCapture : 0);
          for (const Offset& o : atom.offsets) {
            const Offset lo = localOffset(o, pawn, dir, c.half);
            int shared = 0;
            const auto paths = hexRays(c, lo.dx, lo.dy, shared);
            for (size_t p = 0; p < paths.size(); ++p) {
              Ray ray{static_cast<uint32_t>(raySq.size()), static_cast<uint8_t>(paths[p].size()), mode};
              ray.skip = static_cast<uint8_t>(p ? shared : 0);
              for (const HexCell& t : paths[p]) raySq.push_back(static_cast<uint8_t>(hex3Square(t)));
              (p ? forks : rays).push_back(ray);
              if (!atom.canCapture) continue;
              // The reverse table: the same path read from s finds what attacks s along it.
              auto key = std::make_tuple(lo.dx, lo.dy, static_cast<int>(p));
              auto it = rayIndex[s].find(key);
              if (it == rayIndex[s].end()) {
                RevRay rr{static_cast<uint32_t>(revRaySq.size()), static_cast<uint8_t>(paths[p].size()), 0, 0};
                for (const HexCell& t : paths[p]) revRaySq.push_back(static_cast<uint8_t>(hex3Square(t)));
                it = rayIndex[s].emplace(key, revRays[s].size()).first;
                revRays[s].push_back(rr);
              }
              revRays[s][it->second].sliders |= kbit;
            }
          }
        }
        sm.rayEnd = static_cast<uint32_t>(rays.size());
        forkRange[kind * kMaxSquares + s] = {static_cast<uint32_t>(forkRays.size()),
                                             static_cast<uint32_t>(forkRays.size() + forks.size())};
        forkRays.insert(forkRays.end(), forks.begin(), forks.end());
      }
    }
  }
}

// ---------------------------------------------------------------------------
// Pawns after a takeover

int hex3PawnTarget(Square s, int owner) {
  const HexCell c = hex3Cell(s);
  const int other = partner(c.half, c.x);
  return owner == other ? c.half : other;
}

int hex3PawnDir(Square s, int owner, int dir) {
  const int half = hex3Cell(s).half;
  if (hex3PawnTarget(s, owner) != half) return half;  // towards the centre and across
  return dir != half ? dir : owner;                    // towards this half's back rank (owner != half here)
}

Piece hex3TakenPawn(Square s, Piece p, int stuckType) {
  const HexCell c = hex3Cell(s);
  const int owner = seatOf(p);
  const int dir = hex3PawnDir(s, owner, dirOf(p));
  // Stuck: on a column that joins the new owner's half, heading now the
  // other way along it than before. On a column of the two other seats it
  // turns without getting stuck (as the arena's logged states show).
  const bool ownColumn = owner == c.half || owner == partner(c.half, c.x);
  if (ownColumn && (dir == c.half) != (dirOf(p) == c.half)) return makePiece(stuckType, dirOf(p), owner);
  return makePiece(typeOf(p), dir, owner);
}

}  // namespace acedrex
