// The board's geometry in Rules (square names, the frames of the four
// directions, zones, the far edge) and the move and attack tables of a
// compiled variant (Rules::buildTables): forward leaps, rays and bent moves
// per kind and square, the reverse tables for attacks, move bounds, lines
// and the Zobrist keys. One file, so that the builders inline the geometry.
#include <algorithm>
#include <array>
#include <bit>
#include <string>
#include <vector>

#include "core/base/splitmix.h"
#include "core/position/position.h"  // the rights bits
#include "core/variant/variant.h"

namespace acedrex {

// ---------------------------------------------------------------------------
// Geometry

std::string Rules::squareName(Square s) const {
  if (s < 0 || s >= nsq()) return "-";
  return std::string(1, static_cast<char>('a' + fileOf(s))) + std::to_string(rankOf(s) + 1);
}

Result<Square> Rules::parseSquare(const std::string& t) const {
  if (t.size() < 2 || t.size() > 3 || t[0] < 'a' || t[0] >= 'a' + width)
    return makeError("square", "not a square: \"" + t + "\"");
  for (size_t i = 1; i < t.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(t[i]))) return makeError("square", "not a square: \"" + t + "\"");
  if (t[1] == '0') return makeError("square", "not a square: \"" + t + "\"");
  const int rank = std::atoi(t.c_str() + 1);
  if (rank < 1 || rank > height) return makeError("square", "not a square: \"" + t + "\"");
  return square(t[0] - 'a', rank - 1);
}

int Rules::typeByLetter(char upper) const {
  for (size_t i = 0; i < types.size(); ++i)
    if (types[i].letter == upper) return static_cast<int>(i);
  return -1;
}

int Rules::seatByName(const std::string& name) const {
  for (size_t i = 0; i < seats.size(); ++i)
    if (seats[i].name == name) return static_cast<int>(i);
  return -1;
}

Offset Rules::rotate(const Offset& o, int dir) const {
  switch (dir) {
    case kNorth: return {o.dx, o.dy};
    case kSouth: return {-o.dx, -o.dy};
    case kEast: return {o.dy, -o.dx};
    default: return {-o.dy, o.dx};
  }
}

bool Rules::inZone(const Zone& z, Square s, int dir) const {
  int file = 0;  // relative, 1-based, from the piece's left
  switch (dir) {
    case kNorth: file = fileOf(s) + 1; break;
    case kSouth: file = width - fileOf(s); break;
    case kEast: file = height - rankOf(s); break;
    default: file = rankOf(s) + 1; break;
  }
  const int rank = relativeRank(s, dir);
  return file >= z.fileLo && file <= z.fileHi && rank >= z.rankLo && rank <= z.rankHi;
}

std::vector<MoveAtom> Rules::atomsAt(int type, int dir, Square s) const {
  std::vector<MoveAtom> atoms = types[type].atoms;
  for (const ZoneMoves& zm : zoneMoves)
    if (zm.type == type && inZone(zm.zone, s, dir)) atoms.insert(atoms.end(), zm.atoms.begin(), zm.atoms.end());
  if (!lineSquares.empty() && lineSquares[s])
    for (const ZoneMoves& lm : lineMoves)
      if (lm.type == type) atoms.insert(atoms.end(), lm.atoms.begin(), lm.atoms.end());
  return atoms;
}

bool Rules::onFarEdge(Square s, int dir) const {
  if (promotionRank | static_cast<int>(geometry)) [[unlikely]]
    return geometry == Geometry::kHex3 ? (hexFarEdge[s] >> dir) & 1 : relativeRank(s, dir) == promotionRank;
  switch (dir) {
    case kNorth: return rankOf(s) == height - 1;
    case kSouth: return rankOf(s) == 0;
    case kEast: return fileOf(s) == width - 1;
    default: return fileOf(s) == 0;
  }
}


void Rules::buildTables() {
  // hex3 (the Triumvirate arena): one en-passant square, the last move's, for the next seat only.
  seatEnPassant = enPassant && nseats() > 2 && geometry != Geometry::kHex3;
  if (geometry == Geometry::kHex3) {
    buildHex3Tables();
  } else {
    buildMoveTables();
    buildAttackTables();
    buildLineAttackTables();
  }
  computeMoveBounds();
  buildLines();
  buildZobristKeys();
  buildDropTables();
  buildMaterialClasses();
}

bool Rules::playable(int file, int rank) const { return onBoard(file, rank) && !blocked[square(file, rank)]; }

Ray Rules::walkRay(int file, int rank, Offset step, uint8_t mode) {
  Ray ray{static_cast<uint32_t>(raySq.size()), 0, mode};
  for (int f = file, k = rank; playable(f, k); f += step.dx, k += step.dy) {
    raySq.push_back(static_cast<uint8_t>(square(f, k)));
    ++ray.len;
  }
  return ray;
}

void Rules::addRevLeap(Square from, Square to, uint64_t kinds) {
  auto& rl = revLeaps[to];
  auto it = std::find_if(rl.begin(), rl.end(), [&](const RevLeap& x) { return x.from == from; });
  if (it == rl.end()) rl.push_back({static_cast<uint8_t>(from), kinds});
  else it->kinds |= kinds;
}

std::array<uint8_t, 2> Rules::rotatedLamePath(Square from, const Offset& o, int dir) const {
  std::array<uint8_t, 2> block{0xFF, 0xFF};
  const auto path = lamePath(o);
  for (size_t i = 0; i < path.size(); ++i) {
    const Offset p = rotate(path[i], dir);
    block[i] = static_cast<uint8_t>(square(fileOf(from) + p.dx, rankOf(from) + p.dy));
  }
  return block;
}

void Rules::addRevLame(Square from, Square to, std::array<uint8_t, 2> block, uint64_t kinds) {
  auto& rl = revLames[to];
  auto it = std::find_if(rl.begin(), rl.end(), [&](const RevLame& x) {
    return x.from == from && x.block[0] == block[0] && x.block[1] == block[1];
  });
  if (it == rl.end()) rl.push_back({static_cast<uint8_t>(from), {block[0], block[1]}, kinds});
  else it->kinds |= kinds;
}

// Forward tables: per kind (type and facing) and square, the leaps, the rays
// (slides and hops) and the bent moves with their continuation rays.
void Rules::buildMoveTables() {
  const int n = nsq();
  table_.assign(kMaxKinds * kMaxSquares, SquareMoves{0, 0, 0, 0, 0, 0, 0, 0});
  regions.resize(types.size());
  for (int type = 0; type < static_cast<int>(types.size()); ++type) {
    for (int dir = 0; dir < 4; ++dir) {
      const int kind = kindOf(type, dir);
      for (Square s = 0; s < n; ++s) {
        SquareMoves& sm = table_[kind * kMaxSquares + s];
        const int f0 = fileOf(s), k0 = rankOf(s);
        const std::vector<MoveAtom> atoms = atomsAt(type, dir, s);
        // A leap's target, or -1 when it is off the board or out of the type's region.
        auto target = [&](const Offset& b) {
          const Square to = playable(f0 + b.dx, k0 + b.dy) ? square(f0 + b.dx, k0 + b.dy) : -1;
          return to >= 0 && allowedOn(type, dir, to) ? to : -1;
        };
        sm.leapBegin = static_cast<uint32_t>(leaps.size());
        for (const auto& atom : atoms) {
          if (atom.kind != AtomKind::kLeap || atom.lame) continue;
          const uint8_t mode = (atom.canMove ? kModeMove : 0) | (atom.canCapture ? kModeCapture : 0);
          for (const auto& o : atom.offsets)
            if (const Square to = target(rotate(o, dir)); to >= 0 && onLines(atom, to))
              leaps.push_back({static_cast<uint8_t>(to), mode});
        }
        sm.leapEnd = static_cast<uint32_t>(leaps.size());
        sm.lameBegin = static_cast<uint32_t>(lameLeaps.size());
        for (const auto& atom : atoms) {
          if (atom.kind != AtomKind::kLeap || !atom.lame) continue;
          const uint8_t mode = (atom.canMove ? kModeMove : 0) | (atom.canCapture ? kModeCapture : 0);
          for (const auto& o : atom.offsets) {
            const Square to = target(rotate(o, dir));
            if (to < 0 || !onLines(atom, to)) continue;
            const auto block = rotatedLamePath(s, o, dir);
            lameLeaps.push_back({static_cast<uint8_t>(to), mode, {block[0], block[1]}});
          }
        }
        sm.lameEnd = static_cast<uint32_t>(lameLeaps.size());
        sm.rayBegin = static_cast<uint32_t>(rays.size());
        for (const auto& atom : atoms) {
          if (atom.kind != AtomKind::kRide) continue;
          uint8_t mode = 0;
          if (atom.hop) mode = (atom.canMove ? kModeHopMove : 0) | (atom.canCapture ? kModeHopCapture : 0);
          else mode = (atom.canMove ? kModeMove : 0) | (atom.canCapture ? kModeCapture : 0);
          for (const auto& o : atom.offsets) {
            const Offset b = rotate(o, dir);
            Ray ray = walkRay(f0 + b.dx, k0 + b.dy, b, mode);
            for (uint8_t j = 0; j < ray.len; ++j)
              if (!allowedOn(type, dir, raySq[ray.begin + j]) || !onLines(atom, raySq[ray.begin + j])) ray.len = j;
            if (ray.len) rays.push_back(ray);
          }
        }
        sm.rayEnd = static_cast<uint32_t>(rays.size());
        sm.bentBegin = static_cast<uint32_t>(bents.size());
        for (const auto& atom : atoms) {
          if (atom.kind != AtomKind::kBent) continue;
          const uint8_t mode = (atom.canMove ? kModeMove : 0) | (atom.canCapture ? kModeCapture : 0);
          for (const auto& path : atom.bents) {
            const Offset a = rotate(path.first, dir);
            if (!playable(f0 + a.dx, k0 + a.dy)) continue;
            // Continuation rays are kept apart from the plain rays (bentRays).
            Bent bent{static_cast<uint8_t>(square(f0 + a.dx, k0 + a.dy)), mode,
                      static_cast<uint32_t>(bentRays.size()), 0};
            for (const auto& so : path.slides) {
              const Offset d = rotate(so, dir);
              const Ray ray = walkRay(f0 + a.dx + d.dx, k0 + a.dy + d.dy, d, mode);
              if (ray.len) bentRays.push_back(ray), ++bent.rayCount;
            }
            bents.push_back(bent);
          }
        }
        sm.bentEnd = static_cast<uint32_t>(bents.size());
      }
    }
  }
}

// Reverse tables, per target square and merged over all kinds: the squares a
// leap (or a bent move's first step) captures from, the lines a slider or a
// hopper captures along, and the bent paths.
void Rules::buildAttackTables() {
  const int n = nsq();
  revLeaps.assign(n, {});
  revRays.assign(n, {});
  revBents.assign(n, {});
  revLames.assign(n, {});
  // Lines and bent paths already made for a square, keyed by their steps.
  std::vector<std::map<std::pair<int, int>, size_t>> rayIndex(n);
  std::vector<std::map<std::tuple<int, int, int, int>, size_t>> bentIndex(n);
  for (int type = 0; type < static_cast<int>(types.size()); ++type)
    for (int dir = 0; dir < 4; ++dir) {
      const uint64_t kbit = 1ULL << kindOf(type, dir);
      for (Square s = 0; s < n; ++s) {
        if (blocked[s]) continue;
        for (const auto& atom : atomsAt(type, dir, s)) {
          if (atom.kind != AtomKind::kLeap || !atom.canCapture) continue;
          for (const auto& o : atom.offsets) {
            const Offset b = rotate(o, dir);
            if (!playable(fileOf(s) + b.dx, rankOf(s) + b.dy)) continue;
            const Square to = square(fileOf(s) + b.dx, rankOf(s) + b.dy);
            if (!allowedOn(type, dir, to) || !onLines(atom, to)) continue;
            if (atom.lame) addRevLame(s, to, rotatedLamePath(s, o, dir), kbit);
            else addRevLeap(s, to, kbit);
          }
        }
      }
    }
  for (int type = 0; type < static_cast<int>(types.size()); ++type) {
    for (int dir = 0; dir < 4; ++dir) {
      const uint64_t kbit = 1ULL << kindOf(type, dir);
      for (const auto& atom : types[type].atoms) {
        if (!atom.canCapture) continue;
        if (atom.kind == AtomKind::kRide) {
          for (const auto& o : atom.offsets) {
            const Offset b = rotate(o, dir);
            for (Square s = 0; s < n; ++s) {
              if (blocked[s]) continue;
              auto key = std::make_pair(-b.dx, -b.dy);
              auto it = rayIndex[s].find(key);
              if (it == rayIndex[s].end()) {
                RevRay rr{static_cast<uint32_t>(revRaySq.size()), 0, 0, 0};
                for (int f = fileOf(s) - b.dx, k = rankOf(s) - b.dy; playable(f, k); f -= b.dx, k -= b.dy) {
                  revRaySq.push_back(static_cast<uint8_t>(square(f, k)));
                  ++rr.len;
                }
                if (!rr.len) continue;
                it = rayIndex[s].emplace(key, revRays[s].size()).first;
                revRays[s].push_back(rr);
              }
              (atom.hop ? revRays[s][it->second].hoppers : revRays[s][it->second].sliders) |= kbit;
            }
          }
        } else if (atom.kind == AtomKind::kBent) {
          for (const auto& path : atom.bents) {
            const Offset a = rotate(path.first, dir);
            // The first step alone captures like a leap.
            for (Square x = 0; x < n; ++x)
              if (!blocked[x] && playable(fileOf(x) + a.dx, rankOf(x) + a.dy))
                addRevLeap(x, square(fileOf(x) + a.dx, rankOf(x) + a.dy), kbit);
            for (const auto& so : path.slides) {
              const Offset d = rotate(so, dir);
              for (Square s = 0; s < n; ++s) {
                if (blocked[s]) continue;
                auto key = std::make_tuple(a.dx, a.dy, d.dx, d.dy);
                auto it = bentIndex[s].find(key);
                if (it == bentIndex[s].end()) {
                  RevBent rb{static_cast<uint32_t>(revBentSq.size()), 0, 0};
                  for (int f = fileOf(s) - d.dx, k = rankOf(s) - d.dy; playable(f, k); f -= d.dx, k -= d.dy) {
                    const bool xok = playable(f - a.dx, k - a.dy);
                    revBentSq.push_back(static_cast<uint8_t>(square(f, k)));
                    revBentSq.push_back(xok ? static_cast<uint8_t>(square(f - a.dx, k - a.dy)) : 0xFF);
                    ++rb.len;
                  }
                  if (!rb.len) continue;
                  it = bentIndex[s].emplace(key, revBents[s].size()).first;
                  revBents[s].push_back(rb);
                }
                revBents[s][it->second].kinds |= kbit;
              }
            }
          }
        }
      }
    }
  }
}

// Reverse rays of the slides and hops along the line squares (line-moves):
// kept apart from the plain rays, as they end where the line squares end.
void Rules::buildLineAttackTables() {
  const int n = nsq();
  for (const ZoneMoves& lm : lineMoves)
    for (int dir = 0; dir < 4; ++dir) {
      const uint64_t kbit = 1ULL << kindOf(lm.type, dir);
      for (const auto& atom : lm.atoms) {
        if (atom.kind != AtomKind::kRide || !atom.canCapture) continue;
        for (const auto& o : atom.offsets) {
          const Offset b = rotate(o, dir);
          for (Square s = 0; s < n; ++s) {
            if (!lineSquares[s]) continue;
            RevRay rr{static_cast<uint32_t>(revRaySq.size()), 0, 0, 0};
            for (int f = fileOf(s) - b.dx, k = rankOf(s) - b.dy; playable(f, k) && lineSquares[square(f, k)];
                 f -= b.dx, k -= b.dy) {
              revRaySq.push_back(static_cast<uint8_t>(square(f, k)));
              ++rr.len;
            }
            if (!rr.len) continue;
            (atom.hop ? rr.hoppers : rr.sliders) = kbit;
            // Merge with a line ray of the same squares.
            auto it = std::find_if(revRays[s].begin(), revRays[s].end(), [&](const RevRay& x) {
              return x.len == rr.len && std::equal(revRaySq.begin() + x.begin, revRaySq.begin() + x.begin + x.len,
                                                   revRaySq.begin() + rr.begin);
            });
            if (it == revRays[s].end()) {
              revRays[s].push_back(rr);
            } else {
              it->sliders |= rr.sliders;
              it->hoppers |= rr.hoppers;
              revRaySq.resize(rr.begin);
            }
          }
        }
      }
    }
}

// onLine: the squares of every reverse ray and bent path of a square.
void Rules::buildLines() {
  const int n = nsq();
  lines_.assign(static_cast<size_t>(n) * n, 0);
  for (Square a = 0; a < n; ++a) {
    for (const RevRay& rr : revRays[a])
      for (int i = 0; i < rr.len; ++i) lines_[a * n + revRaySq[rr.begin + i]] |= rr.hoppers ? 3 : 1;
    for (const RevBent& rb : revBents[a])
      for (int i = 0; i < 2 * rb.len; ++i)
        if (revBentSq[rb.begin + i] != 0xFF) lines_[a * n + revBentSq[rb.begin + i]] |= 1;
    // A piece leaving or entering a lame leap's path opens or closes it.
    for (const RevLame& rl : revLames[a])
      for (uint8_t b : rl.block)
        if (b != 0xFF) lines_[a * n + b] |= 1;
    // The flying general (and bikjang) sees along the file.
    if (flyingGeneral || bikjang)
      for (Square b = fileOf(a); b < n; b += width) lines_[a * n + b] |= 1;
  }
}

// The same keys for every variant, from a fixed seed. The keys that existed
// when a piece was one byte (type + 1, direction and seat in 4, 2 and 2
// bits; four seats) are drawn from the old stream in their old order, so
// that every hash of a game of up to four seats, and with it every search
// figure, stays as it was; every other key comes from a second stream.
void Rules::buildZobristKeys() {
  constexpr uint64_t kGamma = kSplitmixGamma;  // skipping k keys adds k * kGamma
  constexpr int kOldSeats = 4, kOldSquares = 256;
  uint64_t fresh = 0xACED8EA75EEDULL;
  zPiece_.resize(static_cast<size_t>(nsq()) * kPieceValues);
  for (auto& k : zPiece_) k = splitmix64(fresh);
  for (auto& k : zToMove) k = splitmix64(fresh);
  for (auto& k : zIn) k = splitmix64(fresh);
  for (auto& k : zRights) k = splitmix64(fresh);
  uint64_t seed = 0x5EED0ACED4E7ULL;
  const int used = std::min(nsq(), kOldSquares);
  for (int old = 0; old < 256; ++old) {
    const Piece p = old == 0xFF ? kBlocked : makePiece((old >> 4) - 1, (old >> 2) & 3, old & 3);
    for (Square s = 0; s < used; ++s) zPiece_[static_cast<size_t>(s) * kPieceValues + p] = splitmix64(seed);
    seed += static_cast<uint64_t>(kOldSquares - used) * kGamma;
  }
  for (int i = 0; i < kOldSeats; ++i) zToMove[i] = splitmix64(seed);
  for (int i = 0; i < (1 << kOldSeats); ++i) zIn[i] = splitmix64(seed);
  // Old rights bits: castling 0-7, king leap 8-11, double step 12-15, first step 16-19.
  for (int b = 0; b < 32; ++b) {
    const uint64_t k = splitmix64(seed);
    const int seat = b % kOldSeats;
    const uint64_t bit = b < 8 ? castleBit(b / 2, b % 2) : b < 12 ? leapBit(seat) : b < 16 ? doubleBit(seat) : b < 20 ? firstStepBit(seat) : 0;
    if (bit) zRights[std::countr_zero(bit)] = k;
  }
  for (auto& k : zEp) k = splitmix64(seed);
}

void Rules::computeMoveBounds() {
  const int ntypes = static_cast<int>(types.size());
  const int promoFactor = std::max<int>(1, static_cast<int>(promoChoices.size()));
  typeMoveBound.assign(ntypes, 0);
  for (int type = 0; type < ntypes; ++type) {
    for (int dir = 0; dir < 4; ++dir) {
      for (Square s = 0; s < nsq(); ++s) {
        const SquareMoves& sm = moves(kindOf(type, dir), s);
        int count = static_cast<int>(sm.leapEnd - sm.leapBegin + sm.lameEnd - sm.lameBegin);
        for (uint32_t i = sm.rayBegin; i < sm.rayEnd; ++i) count += rays[i].len;  // slide and hop squares are apart
        if (!forkRange.empty()) {  // hex3's fork rays, less the cells they share
          const auto [fb, fe] = forkRange[kindOf(type, dir) * kMaxSquares + s];
          for (uint32_t i = fb; i < fe; ++i) count += forkRays[i].len - forkRays[i].skip;
        }
        for (uint32_t i = sm.bentBegin; i < sm.bentEnd; ++i) {
          count += 1;
          for (int c = 0; c < bents[i].rayCount; ++c) count += bentRays[bents[i].rayBegin + c].len;
        }
        if (types[type].pawn) count = (count + (doubleStepRank ? 1 : 0)) * promoFactor;
        typeMoveBound[type] = std::max(typeMoveBound[type], count);
      }
    }
  }
  // A pawn may become any promotion choice: it counts as the most it may
  // become (repeated, in case a choice is itself a pawn that promotes).
  for (bool changed = true; changed;) {
    changed = false;
    for (int type = 0; type < ntypes; ++type) {
      if (!types[type].pawn) continue;
      int most = typeMoveBound[type];
      for (int t : promoChoices) most = std::max(most, typeMoveBound[t]);
      for (int t : promoByFile) most = std::max(most, typeMoveBound[t]);
      if (most != typeMoveBound[type]) typeMoveBound[type] = most, changed = true;
    }
  }
  specialMoveBound = (castlingRank ? 2 : 0) + static_cast<int>(kingLeaps.size()) + (pass ? 1 : 0);
}

}  // namespace acedrex
