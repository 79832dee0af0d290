// The hex3 geometry: three-player chess's board of three halves of 8x4 cells
// (docs/rules/three-player-chess.md). See hex3.h.
#include "core/hex3.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "core/position.h"
#include "core/text_util.h"

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

}  // namespace acedrex

// ---------------------------------------------------------------------------
// The Triumvirate arena's position line (Rules::triumvirateText):
//
//   wRA1,wPA2,...,bP>rA7,... w wKQ.bKQ.rKQ - aaa 0 1
//
// the pieces (colour, letter, `>` and the owner when another seat holds it
// after a takeover, cell), the seat to move, each seat's castling rights,
// the en-passant cell, each seat's state (a in play, c in check, x out), the
// half-move count and the move number (one per round of three plies).

namespace acedrex {

namespace {

Status lineError(const std::string& what) { return makeError("fen", what); }

int seatLetter(const Rules& r, char c) {
  for (int s = 0; s < r.nseats(); ++s)
    if (r.seats[s].letter == c) return s;
  return -1;
}

}  // namespace

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

Status Position::readTriumvirate(const std::string& text) {
  const Rules& r = *rules_;
  const auto f = words(text);
  if (f.size() != 7)
    return lineError("expected 7 fields separated by spaces: pieces, to move, castling, en passant, states, half-moves, move number");
  // The states first: they say which seats are in.
  if (f[4].size() != 3) return lineError("the states field has one letter per seat (a, c or x), not \"" + f[4] + "\"");
  st_.inMask = 0;
  for (int s = 0; s < 3; ++s) {
    const char c = f[4][s];
    if (c != 'a' && c != 'c' && c != 'x') return lineError(std::string("unknown seat state '") + c + "' (a, c or x)");
    if (c != 'x') st_.inMask |= static_cast<uint8_t>(1u << s);
  }
  const int mover = f[1].size() == 1 ? seatLetter(r, f[1][0]) : -1;
  if (mover < 0) return lineError("unknown seat to move \"" + f[1] + "\"");
  if (!isIn(mover)) return lineError("the seat to move is out");
  st_.toMove = static_cast<uint8_t>(mover);
  if (f[0] != "-")
    for (const std::string& tok : split(f[0], ',')) {
      // colour, piece letter, [> owner], cell
      const auto bad = [&] { return lineError("bad piece \"" + tok + "\" (e.g. wRA1 or bP>rA7)"); };
      if (tok.size() < 4) return bad();
      const int colour = seatLetter(r, tok[0]);
      int type = r.typeByLetter(tok[1]);
      size_t at = 2;
      int owner = colour;
      if (tok[at] == '>') {
        if (tok.size() < 6) return bad();
        owner = seatLetter(r, tok[at + 1]);
        at += 2;
      }
      if (colour < 0 || owner < 0 || type < 0 || type == r.stuckPawnType) return bad();
      std::string cell = tok.substr(at);
      std::transform(cell.begin(), cell.end(), cell.begin(), [](char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); });
      const auto sq = r.parseSquare(cell);
      if (!sq.ok() || r.blocked[sq.value()]) return lineError("not a cell in \"" + tok + "\"");
      if (isPiece(st_.board[sq.value()])) return lineError("two pieces on " + r.squareName(sq.value()));
      if (!isIn(owner)) return lineError("a piece of a seat that is out: \"" + tok + "\"");
      // A pawn's way is not written: it is the one it would take with its
      // own army (hex3PawnDir), turned as a takeover turns it when another
      // seat holds it.
      Piece p = makePiece(type, r.seats[colour].dir, owner);
      if (r.types[type].pawn) {
        p = makePiece(type, hex3PawnDir(sq.value(), colour, colour), colour);
        if (owner != colour && r.stuckPawnType >= 0) p = hex3TakenPawn(sq.value(), withSeat(p, owner), r.stuckPawnType);
        else p = withSeat(p, owner);
      }
      if (auto placed = placeRead(sq.value(), p); !placed.ok()) return placed;
    }
  // Castling: wKQ.bKQ.rKQ, "-" for none.
  const auto parts = split(f[2], '.');
  if (parts.size() != 3) return lineError("castling: three parts separated by dots (wKQ.bKQ.rKQ), not \"" + f[2] + "\"");
  std::array<int, kMaxSeats> kside{}, qside{};
  for (int s = 0; s < 3; ++s) {
    const std::string& p = parts[s];
    if (p.empty() || p[0] != r.seats[s].letter) return lineError("castling: part " + std::to_string(s + 1) + " must start with " + r.seats[s].letter);
    const std::string rights = p.substr(1);
    if (rights != "-" && rights != "K" && rights != "Q" && rights != "KQ")
      return lineError("castling: \"" + p + "\" is not " + r.seats[s].letter + "KQ, K, Q or -");
    kside[s] = rights.find('K') != std::string::npos;
    qside[s] = rights.find('Q') != std::string::npos;
  }
  if (auto s = setSeatCastling(kside, qside); !s.ok()) return s;
  // En passant: the cell the last double step skipped; its pawn stands beyond it.
  if (f[3] != "-") {
    std::string cell = f[3];
    std::transform(cell.begin(), cell.end(), cell.begin(), [](char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); });
    const auto sq = r.parseSquare(cell);
    if (!sq.ok() || r.blocked[sq.value()] || !r.enPassant) return lineError("no en passant on \"" + f[3] + "\"");
    const HexCell c = hex3Cell(sq.value());
    const Square victim = hex3Square({c.half, c.x, 3});
    const Piece v = st_.board[victim];
    if (c.y != 2 || isPiece(st_.board[sq.value()]) || !isPiece(v) || !r.types[typeOf(v)].pawn || dirOf(v) != c.half ||
        seatOf(v) == mover)
      return lineError("en passant on " + f[3] + " without an enemy pawn that has just stepped two cells past it");
    st_.ep = static_cast<int16_t>(sq.value());
    st_.epVictim = static_cast<int16_t>(victim);
  }
  const int fifty = smallNumber(f[5], 6), number = smallNumber(f[6], 6);
  if (fifty < 0 || number < 1)
    return lineError("the half-move count and the move number must be numbers (the move number from 1)");
  st_.fifty = fifty;
  st_.ply = (number - 1) * 3 + mover;
  return okStatus();
}

std::string Position::triumvirateText() const {
  const Rules& r = *rules_;
  std::string out;
  auto upper = [](std::string t) {
    std::transform(t.begin(), t.end(), t.begin(), [](char c) { return static_cast<char>(std::toupper(static_cast<unsigned char>(c))); });
    return t;
  };
  for (int file = 0; file < r.width; ++file)
    for (int rank = 0; rank < r.height; ++rank) {
      const Square s = r.square(file, rank);
      const Piece p = st_.board[s];
      if (!isPiece(p)) continue;
      // A piece keeps its army's direction when it changes hands, so that
      // gives its colour; but a pawn may also turn when it captures onto
      // another column (hex3PawnDir), so while the seat of its direction is
      // still in, a pawn is written as its owner's.
      const bool turned = r.types[typeOf(p)].pawn && isIn(dirOf(p));
      const int colour = turned ? seatOf(p) : dirOf(p);
      const int type = typeOf(p) == r.stuckPawnType ? r.typeByLetter('P') : typeOf(p);
      if (!out.empty()) out += ',';
      out += r.seats[colour].letter;
      out += r.types[type].letter;
      if (seatOf(p) != colour) out += std::string(">") + r.seats[seatOf(p)].letter;
      out += upper(r.squareName(s));
    }
  if (out.empty()) out = "-";
  out += ' ';
  out += r.seats[st_.toMove].letter;
  out += ' ';
  for (int s = 0; s < 3; ++s) {
    if (s) out += '.';
    out += r.seats[s].letter;
    std::string rights;
    if (st_.rights & castleBit(s, 0)) rights += 'K';
    if (st_.rights & castleBit(s, 1)) rights += 'Q';
    out += rights.empty() ? "-" : rights;
  }
  out += ' ' + (st_.ep == kNoSquare ? std::string("-") : upper(r.squareName(st_.ep))) + ' ';
  for (int s = 0; s < 3; ++s) out += !isIn(s) ? 'x' : inCheck(s) ? 'c' : 'a';
  out += ' ' + std::to_string(st_.fifty) + ' ' + std::to_string(st_.ply / 3 + 1);
  return out;
}

}  // namespace acedrex
