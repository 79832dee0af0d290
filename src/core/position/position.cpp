#include "core/position/position.h"

#include "core/board/hex3.h"

#include <algorithm>
#include <optional>
#include <cassert>

namespace acedrex {

namespace {
struct OutReasonName {
  OutReason reason;
  std::string_view name;
};
constexpr OutReasonName kOutReasonNames[] = {
    {OutReason::kMated, "checkmate"},     {OutReason::kStalemated, "stalemate"}, {OutReason::kKingCaptured, "king-captured"},
    {OutReason::kBareKing, "bare-king"}, {OutReason::kResigned, "resign"},      {OutReason::kTimeout, "timeout"},
    {OutReason::kOpponentNoMoves, "opponent-no-moves"},
    {OutReason::kRepetition, "repetition"}, {OutReason::kPerpetualCheck, "perpetual-check"},
    {OutReason::kPerpetualChase, "perpetual-chase"},
};
}  // namespace

std::string_view nameOf(OutReason reason) {
  for (const auto& n : kOutReasonNames)
    if (n.reason == reason) return n.name;
  return "out";
}

std::optional<OutReason> parseOutReason(std::string_view name) {
  for (const auto& n : kOutReasonNames)
    if (n.name == name) return n.reason;
  return std::nullopt;
}

Position::Position(std::shared_ptr<const Rules> rules) : rules_(std::move(rules)) {
  const Rules& r = *rules_;
  const bool rare = r.kingCapture || r.unions || r.mustDrop || r.promoMoveType >= 0;
  fastLegality_ = rare ? kFastNone : r.blastOnCapture ? kFastQuiet : kFastAll;
  copyBytes_ = offsetof(State, seat) + static_cast<size_t>(r.nseats()) * sizeof(State::SeatPart);
  clear();
  undo_.reserve(256);
}

void Position::clear() {
  const Rules& r = *rules_;
  st_.board.fill(kEmpty);
  for (Square s = 0; s < r.nsq(); ++s)
    if (r.blocked[s]) st_.board[s] = kBlocked;
  for (Square s = r.nsq(); s < kMaxSquares; ++s) st_.board[s] = kBlocked;
  st_.count.fill(0);
  st_.index.fill(0);
  st_.king.fill(kNoSquare);
  for (auto& c : st_.castleRook) c.fill(kNoSquare);
  st_.hash = 0;
  st_.rights = 0;
  st_.ep = st_.epVictim = kNoSquare;
  st_.fifty = st_.ply = 0;
  st_.toMove = 0;
  st_.inMask = static_cast<uint8_t>((1u << r.nseats()) - 1);
  st_.attackedBy.fill(0);
  for (auto& part : st_.seat) {
    part.checkPly.fill(-1);
    part.checkMover.fill(-1);
  }
  st_.outOrder.fill(0);
  st_.piecesAtOut.fill(0);
  st_.outCount = 0;
  st_.result = ResultKind::kOngoing;
  st_.winner = -1;
  st_.lastMover = -1;
  st_.checkSeat = -1;
  st_.passed = st_.bikjang = false;
  st_.stalePasses = 0;
  for (auto& h : st_.hand) h.fill(0);
  st_.promoted.fill(0);
  st_.points.fill(0);
  st_.seatEp.fill(kNoSquare);
  st_.seatEpVictim.fill(kNoSquare);
  st_.lastDrop = -1;
  st_.firstStepSq.fill(kNoSquare);
  st_.countLimit = st_.countPly = 0;
  st_.duck = kNoSquare;
  undo_.clear();
  partner_.fill(kEmpty);
  unionUndo_.clear();
}

void Position::put(Square s, Piece p) {
  const int seat = seatOf(p);
  st_.board[s] = p;
  st_.checkSeat = -1;
  st_.index[s] = st_.count[seat];
  st_.seat[seat].list[st_.count[seat]++] = static_cast<uint8_t>(s);
  st_.hash ^= rules_->zPiece(p, s);
  if (typeOf(p) == rules_->royalType) st_.king[seat] = static_cast<int16_t>(s);
}

void Position::remove(Square s) {
  const Piece p = st_.board[s];
  const int seat = seatOf(p);
  const uint8_t idx = st_.index[s];
  const uint8_t last = st_.seat[seat].list[--st_.count[seat]];
  st_.seat[seat].list[idx] = last;
  st_.index[last] = idx;
  st_.board[s] = kEmpty;
  st_.checkSeat = -1;
  st_.hash ^= rules_->zPiece(p, s);
  if (st_.king[seat] == s) st_.king[seat] = kNoSquare;
}

void Position::movePiece(Square from, Square to) {
  const Piece p = st_.board[from];
  const int seat = seatOf(p);
  st_.board[to] = p;
  st_.board[from] = kEmpty;
  st_.checkSeat = -1;
  st_.index[to] = st_.index[from];
  st_.seat[seat].list[st_.index[to]] = static_cast<uint8_t>(to);
  st_.hash ^= rules_->zPiece(p, from) ^ rules_->zPiece(p, to);
  if (st_.king[seat] == from) st_.king[seat] = static_cast<int16_t>(to);
}

void Position::recolour(int from, int to) {
  const Rules& r = *rules_;
  while (st_.count[from] > 0) {
    const Square s = st_.seat[from].list[st_.count[from] - 1];
    Piece p = withSeat(st_.board[s], to);
    if (r.stuckPawnType >= 0 && r.types[typeOf(p)].pawn) p = hex3TakenPawn(s, p, r.stuckPawnType);
    remove(s);
    put(s, p);
  }
}

int Position::nextSeat(int seat) const {
  const int n = rules_->nseats();
  for (int i = 1; i <= n; ++i) {
    const int c = (seat + i) % n;
    if (isIn(c)) return c;
  }
  return seat;
}

std::array<int, kMaxSeats> Position::places() const {
  std::array<int, kMaxSeats> pl{};
  if (!finished()) return pl;
  if (!rules_->capturePoints.empty()) return placesByPoints();
  if (rules_->teams && st_.result == ResultKind::kFirstMate) return placesByTeam();
  const int n = rules_->nseats();
  int place = 1;
  auto placeOut = [&]() {
    for (int i = st_.outCount - 1; i >= 0; --i)
      if (pl[st_.outOrder[i]] == 0) pl[st_.outOrder[i]] = place++;
    // Seats that were already out in a loaded position share the places below.
    const int rest = place;
    for (int s = 0; s < n; ++s)
      if (pl[s] == 0) pl[s] = rest;
  };
  switch (st_.result) {
    case ResultKind::kWin:
      pl[st_.winner] = place++;
      placeOut();
      break;
    case ResultKind::kDraw: {
      for (int s = 0; s < n; ++s)
        if (isIn(s)) pl[s] = 1;
      place = seatsIn() + 1;
      placeOut();
      break;
    }
    case ResultKind::kFirstMate:
      for (int s = 0; s < n; ++s) pl[s] = s == st_.winner ? 1 : 2;
      break;
    case ResultKind::kOthersDraw:
      for (int s = 0; s < n; ++s) pl[s] = s == st_.winner ? n : 1;
      break;
    case ResultKind::kOngoing:
      break;
  }
  return pl;
}

// ---------------------------------------------------------------------------
// Attacks

// Aligned to a cache line: the hottest function of perft and search, whose
// loops ran 10% slower in Shako's perft (AMD EPYC) when unrelated code moved
// its start from 16 to 48 bytes into a line.
[[gnu::aligned(64)]] uint8_t Position::attackers(Square s, uint8_t seats) const { return attackersOf<true>(s, seats); }

uint8_t Position::pieceAttackers(Square s, uint8_t seats) const { return attackersOf<false>(s, seats); }

template <bool kGenerals>
[[gnu::aligned(64)]] uint8_t Position::attackersOf(Square s, uint8_t seats) const {
  uint8_t mask = 0;
  const Rules& r = *rules_;
  const auto& b = st_.board;
  // No kinds mask holds the kind of an empty square or of a hole (types.h).
  auto hit = [&](Piece q, uint64_t kinds) {
    if (((kinds >> kindOf(q)) & 1) && ((seats >> seatOf(q)) & 1)) mask |= 1u << seatOf(q);
  };
  for (const RevLeap& rl : r.revLeaps[s]) hit(b[rl.from], rl.kinds);
  for (const RevRay& rr : r.revRays[s]) {
    const uint8_t* sq = &r.revRaySq[rr.begin];
    int i = 0;
    while (i < rr.len && b[sq[i]] == kEmpty) ++i;
    if (i == rr.len) continue;
    hit(b[sq[i]], rr.sliders);
    if (!rr.hoppers) continue;
    const Piece screen = b[sq[i]];
    ++i;
    while (i < rr.len && b[sq[i]] == kEmpty) ++i;
    if (i == rr.len) continue;
    const Piece q = b[sq[i]];
    // A hopper barred from its own type may not hop over or take one.
    if (!r.hopNotSame.empty() && isPiece(q) && r.hopNotSame[typeOf(q)] &&
        (typeOf(screen) == typeOf(q) || (isPiece(b[s]) && typeOf(b[s]) == typeOf(q))))
      continue;
    hit(q, rr.hoppers);
  }
  for (const RevBent& rb : r.revBents[s]) {
    const uint8_t* sq = &r.revBentSq[rb.begin];
    for (int i = 0; i < rb.len; ++i) {
      if (b[sq[2 * i]] != kEmpty) break;
      if (sq[2 * i + 1] != 0xFF) hit(b[sq[2 * i + 1]], rb.kinds);
    }
  }
  for (const RevLame& rl : r.revLames[s])
    if (b[rl.block[0]] == kEmpty && (rl.block[1] == 0xFF || b[rl.block[1]] == kEmpty)) hit(b[rl.from], rl.kinds);
  // The flying general; with bikjang, while the kings face each other a move
  // must part them (or pass).
  if (kGenerals && (r.flyingGeneral || st_.bikjang)) mask |= flyingGenerals(s, seats);
  return mask;
}

uint8_t Position::flyingGenerals(Square s, uint8_t seats) const {
  const Rules& r = *rules_;
  uint8_t mask = 0;
  for (const int step : {r.width, -r.width})
    for (Square t = s + step; t >= 0 && t < r.nsq(); t += step) {
      const Piece q = st_.board[t];
      if (q == kEmpty) continue;
      if (isPiece(q) && typeOf(q) == r.royalType && ((seats >> seatOf(q)) & 1)) mask |= 1u << seatOf(q);
      break;
    }
  return mask;
}

bool Position::computeCheck(int seat) const {
  const Square k = st_.king[seat];
  bool v = k != kNoSquare && attacked(k, enemiesOf(seat));
  if (v && (rules_->blastOnCapture || rules_->kingCapture)) [[unlikely]] v = !rules_->kingCapture && !kingsTouch();
  st_.checkSeat = static_cast<int8_t>(seat);
  st_.checkValue = v;
  return v;
}

bool Position::mayGiveCheck(Move m) const {
  if (m.flag() != kNormal && m.flag() != kDoubleStep) return true;
  if (m.promo() >= 0) return true;
  const Rules& r = *rules_;
  const int us = seatOf(st_.board[m.from()]);
  const int kind = kindOf(st_.board[m.from()]);
  for (int seat = 0; seat < r.nseats(); ++seat) {
    if (seat == us || !isIn(seat)) continue;
    const Square k = st_.king[seat];
    if (k == kNoSquare) continue;
    if (r.onLine(k, m.from()) || r.onLine(k, m.to())) return true;
    for (const RevLeap& rl : r.revLeaps[k])
      if (rl.from == m.to() && ((rl.kinds >> kind) & 1)) return true;
    for (const RevLame& rl : r.revLames[k])
      if (rl.from == m.to() && ((rl.kinds >> kind) & 1)) return true;
  }
  return false;
}

// ---------------------------------------------------------------------------
// Move generation

void Position::addPawnMove(Square from, Square to, int dir, MoveFlag flag, MoveList& out) const {
  const Rules& r = *rules_;
  if (!r.onFarEdge(to, dir)) {
    out.push(Move(from, to, flag));
    return;
  }
  if (!r.promoByFile.empty()) {
    out.push(Move(from, to, flag, r.promoByFile[r.fileOf(to)]));
    return;
  }
  if (r.promoChoices.empty()) {
    out.push(Move(from, to, flag));
    return;
  }
  for (int t : r.promoChoices) out.push(Move(from, to, flag, t));
}

template <Position::GenType kGen>
void Position::genPiece(Square s, Piece p, MoveList& out) const {
  const Rules& r = *rules_;
  const int seat = seatOf(p);
  const int dir = dirOf(p);
  const bool pawn = r.types[typeOf(p)].pawn;
  const bool zoned = !r.zonePromo.empty() && r.zonePromo[typeOf(p)] >= 0;
  const auto& b = st_.board;
  const SquareMoves& sm = r.moves(kindOf(p), s);
  const uint8_t friends = r.friends[seat];
  auto enemy = [&](Piece q) { return q != kEmpty && q != kBlocked && !((friends >> seatOf(q)) & 1); };
  // A capture, or (kAll) any move.
  auto add = [&](Square to) {
    if (zoned) [[unlikely]] addZoneMoves(s, to, p, false, out);  // before the pawn's edge promotion (makruk)
    else if (pawn) addPawnMove(s, to, dir, kNormal, out);
    else out.push(Move(s, to));
  };
  // Whether a pawn's move onto `to` promotes.
  auto promotes = [&](Square to) {
    return pawn && r.onFarEdge(to, dir) && (!r.promoByFile.empty() || !r.promoChoices.empty());
  };
  // A move onto an empty square: with kCaptures only a pawn's promotion.
  auto addQuiet = [&](Square to) {
    if constexpr (kGen == GenType::kAll) add(to);
    else if (promotes(to)) addPawnMove(s, to, dir, kNormal, out);
    else if (zoned) addZoneMoves(s, to, p, true, out);
  };
  for (uint32_t i = sm.leapBegin; i < sm.leapEnd; ++i) {
    const Leap& l = r.leaps[i];
    const Piece q = b[l.to];
    if (q == kEmpty) {
      if (l.mode & kModeMove) addQuiet(l.to);
      else if (pawn && l.to == st_.ep && (l.mode & kModeCapture) && st_.epVictim != kNoSquare &&
               enemy(b[st_.epVictim]))
        out.push(Move(s, l.to, kEnPassant));
      else if (pawn && (l.mode & kModeCapture) && r.seatEnPassant && seatEpVictim(l.to, seat) != kNoSquare) [[unlikely]]
        out.push(Move(s, l.to, kEnPassant));
    } else if ((l.mode & kModeCapture) && enemy(q)) {
      add(l.to);
    }
  }
  // Lame leaps: blocked by a piece on their path.
  for (uint32_t i = sm.lameBegin; i < sm.lameEnd; ++i) {
    const LameLeap& l = r.lameLeaps[i];
    if (b[l.block[0]] != kEmpty || (l.block[1] != 0xFF && b[l.block[1]] != kEmpty)) continue;
    const Piece q = b[l.to];
    if (q == kEmpty) {
      if (l.mode & kModeDoubleStep) [[unlikely]] {
        // hex3: only a pawn still with the army it started in (its direction
        // is its seat's) steps twice.
        if (kGen == GenType::kAll && dir == seat) addPawnMove(s, l.to, dir, kDoubleStep, out);
      } else if (l.mode & kModeMove) {
        addQuiet(l.to);
      }
    } else if ((l.mode & kModeCapture) && enemy(q)) {
      add(l.to);
    }
  }
  for (uint32_t i = sm.rayBegin; i < sm.rayEnd; ++i) {
    const Ray& ray = r.rays[i];
    const uint8_t* sq = &r.raySq[ray.begin];
    int j = 0;
    for (; j < ray.len; ++j) {
      const Piece q = b[sq[j]];
      if (q == kEmpty) {
        if (ray.mode & kModeMove) addQuiet(sq[j]);
        continue;
      }
      if ((ray.mode & kModeCapture) && enemy(q)) add(sq[j]);
      break;
    }
    if (!(ray.mode & (kModeHopMove | kModeHopCapture))) continue;
    // A hopper barred from its own type neither hops over nor takes one.
    const bool notSame = !r.hopNotSame.empty() && r.hopNotSame[typeOf(p)];
    if (notSame && j < ray.len && typeOf(b[sq[j]]) == typeOf(p)) continue;
    for (++j; j < ray.len; ++j) {
      const Piece q = b[sq[j]];
      if (q == kEmpty) {
        if (ray.mode & kModeHopMove) addQuiet(sq[j]);
        continue;
      }
      if ((ray.mode & kModeHopCapture) && enemy(q) && !(notSame && typeOf(q) == typeOf(p))) add(sq[j]);
      break;
    }
  }
  for (uint32_t i = sm.bentBegin; i < sm.bentEnd; ++i) {
    const Bent& bent = r.bents[i];
    const Piece q = b[bent.first];
    if (q != kEmpty) {
      if ((bent.mode & kModeCapture) && enemy(q)) add(bent.first);
      continue;
    }
    if (bent.mode & kModeMove) addQuiet(bent.first);
    for (int c = 0; c < bent.rayCount; ++c) {
      const Ray& ray = r.bentRays[bent.rayBegin + c];
      const uint8_t* sq = &r.raySq[ray.begin];
      for (int j = 0; j < ray.len; ++j) {
        const Piece q2 = b[sq[j]];
        if (q2 == kEmpty) {
          if (bent.mode & kModeMove) addQuiet(sq[j]);
          continue;
        }
        if ((bent.mode & kModeCapture) && enemy(q2)) add(sq[j]);
        break;
      }
    }
  }
  // The pawn's two-square step from its double-step rank.
  if (pawn && r.doubleStepRank && r.relativeRank(s, dir) == r.doubleStepRank &&
      (r.doubleRights == DoubleStepRights::kNone || (st_.rights & doubleBit(seat)))) {
    const Offset f = r.rotate({0, 1}, dir);
    const int f1 = r.fileOf(s) + f.dx, k1 = r.rankOf(s) + f.dy;
    const int f2 = f1 + f.dx, k2 = k1 + f.dy;
    if (r.onBoard(f2, k2) && b[r.square(f1, k1)] == kEmpty && b[r.square(f2, k2)] == kEmpty &&
        (kGen == GenType::kAll || promotes(r.square(f2, k2))))
      addPawnMove(s, r.square(f2, k2), dir, kDoubleStep, out);
  }
}

int Position::castleSide(Move m) const {
  // By the king's destination file, not by the way it goes: a king may stand
  // on either side of its destination, or on it.
  return rules_->castleLateral(st_.toMove, m.to()) == rules_->castleKingFile[0] ? 0 : 1;
}

void Position::genSpecial(MoveList& out) const {
  const Rules& r = *rules_;
  const int us = st_.toMove;
  const Square k = st_.king[us];
  if (k == kNoSquare) return;
  const uint8_t them = enemiesOf(us);
  const auto& b = st_.board;
  if (r.castlingRank && (st_.rights & (castleBit(us, 0) | castleBit(us, 1))) &&
      r.onCastlingRank(us, k) && !inCheck(us)) {  // check = no: never in check
    for (int side = 0; side < 2; ++side) {
      const Square rook = st_.castleRook[us][side];
      if (!(st_.rights & castleBit(us, side)) || rook == kNoSquare) continue;
      // In lateral coordinates (castleLateral: files, or with more than two
      // seats counted from the seat's left along its first rank).
      const int kx = r.castleLateral(us, k), rx = r.castleLateral(us, rook);
      const int kdx = r.castleKingFile[side], rdx = kdx + (side == 0 ? -1 : 1);
      const Square kdest = r.castleSquare(us, k, kdx);
      const int lo = std::min({kx, rx, kdx, rdx}), hi = std::max({kx, rx, kdx, rdx});
      bool ok = true;
      for (int x = lo; x <= hi && ok; ++x)
        if (x != kx && x != rx && b[r.castleSquare(us, k, x)] != kEmpty) ok = false;
      // The squares the king crosses (none when it already stands on its
      // destination: then only the rook moves, as in Fairy-Stockfish and
      // Chess960); the destination itself is judged by isLegal.
      // With blasts, touching kings hide a check, so a rider may stand
      // behind the king on its rank: as in Fairy-Stockfish, the crossed
      // squares are judged with the king gone from its square (rare: a copy).
      const Position* judge = this;
      std::optional<Position> lifted;
      if (r.blastOnCapture && ok && attacked(k, them)) [[unlikely]] {
        lifted.emplace(*this);
        lifted->st_.board[k] = kEmpty;
        judge = &*lifted;
      }
      for (int x = std::min(kx, kdx) + 1; x < std::max(kx, kdx) && ok && !r.kingCapture; ++x) {
        const Square s = r.castleSquare(us, k, x);
        if (judge->attacked(s, them) && !(r.blastOnCapture && touchesKingOf(s, 1 - us))) ok = false;
      }
      if (ok) out.push(Move(k, kdest, kCastle));
    }
  }
  if (r.pass) out.push(Move(k, k, kPass));
  if (!r.kingLeaps.empty() && (st_.rights & leapBit(us)) && !attacked(k, them)) {
    const int dir = dirOf(b[k]);
    for (const Offset& o : r.kingLeaps) {
      const Offset d = r.rotate(o, dir);
      const int f = r.fileOf(k) + d.dx, rk = r.rankOf(k) + d.dy;
      if (!r.onBoard(f, rk) || b[r.square(f, rk)] != kEmpty) continue;
      const Square mid = r.square(r.fileOf(k) + d.dx / 2, r.rankOf(k) + d.dy / 2);
      if (r.kingLeapSafePath && b[mid] != kBlocked && attacked(mid, them)) continue;  // a leap passes over holes
      out.push(Move(k, r.square(f, rk), kKingLeap));
    }
  }
  if (r.firstStepType >= 0) genFirstStep(out);
}

// The first-step piece's two steps forward, a leap onto an empty square
// (Ouk Chatrang's met), while its seat keeps the right.
void Position::genFirstStep(MoveList& out) const {
  const Rules& r = *rules_;
  const int us = st_.toMove;
  if (!(st_.rights & firstStepBit(us))) return;
  const Square s = st_.firstStepSq[us];
  const Offset f = r.rotate({0, 2}, dirOf(st_.board[s]));
  const int file = r.fileOf(s) + f.dx, rank = r.rankOf(s) + f.dy;
  if (r.onBoard(file, rank) && st_.board[r.square(file, rank)] == kEmpty) out.push(Move(s, r.square(file, rank)));
}

// The rights of the king's leap and the first step after a move of p from
// `from` to `to`: the first step goes when its square is left or entered; with
// king-leap-lost = rook-line an enemy king's leap goes when a rook moves onto
// its rank or file.
void Position::updateLeapAndStepRights(Piece p, Square from, Square to) {
  const Rules& r = *rules_;
  if (r.firstStepType >= 0)
    for (int s = 0; s < r.nseats(); ++s)
      if (st_.firstStepSq[s] == from || st_.firstStepSq[s] == to) {
        st_.rights &= ~firstStepBit(s);
        st_.firstStepSq[s] = kNoSquare;
      }
  if (r.kingLeapLostToRook && r.types[typeOf(p)].letter == 'R')
    for (int s = 0; s < r.nseats(); ++s) {
      const Square k = st_.king[s];
      if (s == seatOf(p) || k == kNoSquare || !(st_.rights & leapBit(s))) continue;
      if (r.fileOf(k) == r.fileOf(to) || r.rankOf(k) == r.rankOf(to)) st_.rights &= ~leapBit(s);
    }
}

template <Position::GenType kGen>
void Position::genPieces(MoveList& out) const {
  const int us = st_.toMove;
  for (int i = 0; i < st_.count[us]; ++i) {
    const Square s = st_.seat[us].list[i];
    genPiece<kGen>(s, st_.board[s], out);
  }
  if (rules_->geometry == Rules::Geometry::kHex3) [[unlikely]] genHexForks<kGen>(out);
}

// The second paths of the diagonals that fork at hex3's centre (Rules::forkRays):
// the cells they share with the first path block them and are not generated again.
template <Position::GenType kGen>
void Position::genHexForks(MoveList& out) const {
  const Rules& r = *rules_;
  const int us = st_.toMove;
  const uint8_t friends = r.friends[us];
  const auto& b = st_.board;
  for (int i = 0; i < st_.count[us]; ++i) {
    const Square s = st_.seat[us].list[i];
    const auto [begin, end] = r.forkRange[kindOf(b[s]) * kMaxSquares + s];
    for (uint32_t k = begin; k < end; ++k) {
      const Ray& ray = r.forkRays[k];
      const uint8_t* sq = &r.raySq[ray.begin];
      int j = 0;
      while (j < ray.skip && b[sq[j]] == kEmpty) ++j;
      if (j < ray.skip) continue;
      for (; j < ray.len; ++j) {
        const Piece q = b[sq[j]];
        if (q == kEmpty) {
          if (kGen == GenType::kAll && (ray.mode & kModeMove)) out.push(Move(s, sq[j]));
          continue;
        }
        if ((ray.mode & kModeCapture) && isPiece(q) && !((friends >> seatOf(q)) & 1)) out.push(Move(s, sq[j]));
        break;
      }
    }
  }
}

void Position::pseudoMoves(MoveList& out) const {
  if (finished()) return;
  if (rules_->unions) [[unlikely]] return genUnionTurns(out, false);
  const int begin = out.size();
  if (rules_->mustDrop && !handEmpty(st_.toMove) && genForcedDrops(out)) [[unlikely]] return;  // the setup phase: drops only
  genPieces<GenType::kAll>(out);
  genSpecial(out);
  if (rules_->drops) genDrops(out);
  if (rules_->promoMoveType >= 0) [[unlikely]] genPromotionMoves(out);
  if (rules_->mustCapture) [[unlikely]] keepCapturesOnly(out, begin);
}

void Position::pseudoCaptures(MoveList& out) const {
  if (finished()) return;
  if (rules_->unions) [[unlikely]] return genUnionTurns(out, true);  // the turns that unite with the king
  const int begin = out.size();
  if (rules_->mustDrop && !handEmpty(st_.toMove) && dropsForced()) [[unlikely]] return;
  genPieces<GenType::kCaptures>(out);  // castling and the king's leap never capture
  if (rules_->promoMoveType >= 0) [[unlikely]] genPromotionMoves(out);
  if (rules_->mustCapture) [[unlikely]] keepCapturesOnly(out, begin);
}

bool Position::isCaptureOrPromotion(Move m) const {
  if (m.isNull() || m.flag() == kCastle || m.flag() == kPass || m.isDrop()) return false;
  if (rules_->unions) [[unlikely]] {
    const Piece q = st_.board[m.to()];
    return isPiece(q) && typeOf(q) == rules_->royalType && seatOf(q) != st_.toMove && partner_[m.to()] == kEmpty;
  }
  return m.flag() == kEnPassant || m.promo() >= 0 || isPiece(st_.board[m.to()]);
}

bool Position::judgeLegal(Move m) {
  // One test for the two flags: a bitwise or on purpose (clang's -Wbitwise-instead-of-logical wants the casts).
  if (static_cast<int>(rules_->blastOnCapture) | static_cast<int>(rules_->kingCapture)) [[unlikely]]
    return legalByRule(m);
  if (rules_->unions) [[unlikely]] return true;  // no check: a king left to be united just loses
  const int us = st_.toMove;
  const Rules& r = *rules_;
  // Fast path: most moves change only a few squares and have no consequence
  // beyond them (no king taken, nobody left bare), so the board alone is
  // enough to judge them; the rest go through make/unmake.
  // A pass: never in check, except that it always answers bikjang.
  if (m.flag() == kPass) return st_.bikjang || !inCheck(us);
  if (m.isDrop()) return dropLegal(m);
  if (r.mustDrop && !handEmpty(us) && dropsForced()) [[unlikely]] return false;
  if (r.promoMoveType >= 0 && m.promo() >= 0) [[unlikely]] return promotionMoveLegal(m);
  if (!m.isNull()) {
    const Square from = m.from(), to = m.to();
    auto& b = st_.board;
    const Piece p = b[from];
    if (m.flag() == kCastle) {
      const int side = castleSide(m);
      const Square rook = st_.castleRook[us][side];
      const Square rdest = r.castleSquare(us, to, r.castleKingFile[side] + (side == 0 ? -1 : 1));
      const Piece rp = b[rook];
      b[rook] = kEmpty;
      b[from] = kEmpty;
      b[to] = p;
      b[rdest] = rp;
      const bool ok = !attacked(to, enemiesOf(us));
      b[rdest] = kEmpty;
      b[to] = kEmpty;
      b[from] = p;
      b[rook] = rp;
      return ok;
    }
    // Another piece's move can only expose the king along a line through
    // the squares it leaves or enters; a king not in check and off those
    // lines stays safe.
    if (fastLegality_ == kFastNone && offLineLegal(m)) return true;  // the others asked it in isLegal
    const Square capSq = m.flag() == kEnPassant ? epCaptureSquare(m) : to;
    const Piece cap = b[capSq];
    if (r.kingCaptureInCheck && isPiece(cap) && typeOf(cap) == r.royalType) return true;
    const bool simple = !isPiece(cap) || (typeOf(cap) != r.royalType && !(r.bareKingLoses && st_.count[seatOf(cap)] == 2));
    if (simple) {
      const Square king = typeOf(p) == r.royalType ? to : st_.king[us];
      b[capSq] = kEmpty;
      b[from] = kEmpty;
      const Piece old = b[to];
      b[to] = p;
      const bool ok = king == kNoSquare || !attacked(king, enemiesOf(us));
      b[to] = old;
      b[from] = p;
      b[capSq] = cap;
      return ok;
    }
  }
  makeImpl(m, false);
  const Square k = st_.king[us];
  const bool ok = k == kNoSquare || !attacked(k, enemiesOf(us));
  unmake();
  return ok;
}

// Out of line, so that isLegal stays small enough to be inlined into legalMoves.
[[gnu::noinline]] bool Position::legalByRule(Move m) {
  if (rules_->kingCapture) return true;  // no check: the king may be left en prise, and is then taken
  return blastLegal(m);
}

void Position::legalMoves(MoveList& out) {
  out.clear();
  pseudoMoves(out);
  int n = 0;
  for (int i = 0; i < out.size(); ++i)
    if (isLegal(out[i])) out.set(n++, out[i]);
  out.truncate(n);
}

int Position::countLegal() {
  MoveList list;
  legalMoves(list);
  return list.size();
}

// ---------------------------------------------------------------------------
// Bikjang and material counting (janggi)

bool Position::kingsFace() const {
  const int us = st_.toMove;
  const Square k = st_.king[us];
  return k != kNoSquare && flyingGenerals(k, enemiesOf(us)) != 0;
}

int Position::materialCountWinner() const {
  const Rules& r = *rules_;
  int diff = 0;
  for (int seat = 0; seat < 2; ++seat)
    for (int i = 0; i < st_.count[seat]; ++i)
      diff += (seat == 0 ? 1 : -1) * r.materialPoints[typeOf(st_.board[st_.seat[seat].list[i]])];
  return diff > r.countHandicap ? 0 : 1;
}

void Position::afterBikjang() {
  st_.bikjang = kingsFace();
  if (finished() || undo_.empty()) return;
  const State& before = undo_.back().saved;
  if ((st_.bikjang && before.bikjang) || (st_.passed && before.passed)) {
    st_.result = ResultKind::kWin;
    st_.winner = static_cast<int8_t>(rules_->materialPoints.empty() ? 0 : materialCountWinner());
    st_.checkSeat = -1;
  }
}

// ---------------------------------------------------------------------------
// Make / unmake

void Position::unmake() {
  assert(!undo_.empty());
  if (rules_->unions) [[unlikely]] unmakeUnionPartners();
  std::memcpy(static_cast<void*>(&st_), &undo_.back().saved, copyBytes_);
  undo_.pop_back();
  assert(isValid());
}

bool Position::enemyPawnTakes(Square s, int seat) const {
  const Rules& r = *rules_;
  for (const RevLeap& rl : r.revLeaps[s]) {
    const Piece q = st_.board[rl.from];
    if (isPiece(q) && seatOf(q) != seat && r.types[typeOf(q)].pawn && ((rl.kinds >> kindOf(q)) & 1)) return true;
  }
  return false;
}

void Position::updateChecks(int mover, PlyEvents* ev) {
  const int plyIndex = st_.ply - 1;
  for (int t = 0; t < rules_->nseats(); ++t) {
    if (!isIn(t) || st_.king[t] == kNoSquare) {
      st_.attackedBy[t] = 0;
      continue;
    }
    const uint8_t cur = attackers(st_.king[t], enemiesOf(t));
    const uint8_t started = cur & ~st_.attackedBy[t];
    for (int a = 0; a < rules_->nseats(); ++a)
      if ((started >> a) & 1) {
        st_.seat[t].checkPly[a] = plyIndex;
        st_.seat[t].checkMover[a] = static_cast<int8_t>(mover);
      }
    if (ev) ev->checkStarts[t] |= started;
    st_.attackedBy[t] = cur;
  }
}

int Position::mateCredit(int seat) const {
  const uint8_t cur = attackers(st_.king[seat], enemiesOf(seat));
  if (rules_->nseats() == 2 || !cur) return nextSeat(seat);
  int best = -2;
  for (int a = 0; a < rules_->nseats(); ++a)
    if ((cur >> a) & 1) best = std::max(best, st_.seat[seat].checkPly[a]);
  uint8_t tied = 0;
  int mover = -1;
  for (int a = 0; a < rules_->nseats(); ++a)
    if (((cur >> a) & 1) && st_.seat[seat].checkPly[a] == best) {
      tied |= 1u << a;
      mover = st_.seat[seat].checkMover[a];
    }
  if (mover < 0) mover = st_.lastMover >= 0 ? st_.lastMover : seat;
  if ((tied >> mover) & 1) return mover;
  const int n = rules_->nseats();
  for (int i = 1; i <= n; ++i)
    if ((tied >> ((mover + i) % n)) & 1) return (mover + i) % n;
  return nextSeat(seat);
}

void Position::eliminate(int seat, OutReason reason, int by, PlyEvents& ev) {
  const Rules& r = *rules_;
  // A captured king has already left the board; it still counts as one of the pieces.
  const int pieces = st_.count[seat] + (reason == OutReason::kKingCaptured ? 1 : 0);
  if (ev.nOuts < kMaxSeats) ev.outs[ev.nOuts++] = {seat, reason, by, pieces};
  st_.outOrder[st_.outCount++] = static_cast<uint8_t>(seat);
  st_.piecesAtOut[seat] = static_cast<uint8_t>(pieces);
  st_.inMask &= static_cast<uint8_t>(~(1u << seat));
  st_.checkSeat = -1;
  st_.rights &= ~(castleBit(seat, 0) | castleBit(seat, 1) | leapBit(seat) | doubleBit(seat) | firstStepBit(seat));
  st_.firstStepSq[seat] = kNoSquare;
  st_.attackedBy[seat] = 0;
  if (!r.capturePoints.empty()) scoreOut(seat, reason, by);
  const bool mated = reason == OutReason::kMated || reason == OutReason::kKingCaptured;
  const bool lastStanding = r.ending == Ending::kLastStanding;
  if (r.deadPieces) {
    // The pieces stay where they are, inert (four-player chess's grey army).
  } else if (mated && r.mateEffect != MateEffect::kNone) {
    if (st_.king[seat] != kNoSquare) remove(st_.king[seat]);
    if (r.mateEffect == MateEffect::kTakeover) recolour(seat, by);
    else
      while (st_.count[seat]) remove(st_.seat[seat].list[0]);
  } else if (!mated && (lastStanding || r.ending == Ending::kFirstMate)) {
    while (st_.count[seat]) remove(st_.seat[seat].list[0]);
  }
  switch (r.ending) {
    case Ending::kCheckmate:
      st_.result = ResultKind::kWin;
      st_.winner = static_cast<int8_t>(nextSeat(seat));
      break;
    case Ending::kFirstMate:
      if (mated) {
        st_.result = ResultKind::kFirstMate;
        st_.winner = static_cast<int8_t>(by);
      }
      break;
    case Ending::kLastStanding:
      break;
  }
}

void Position::finishIfDecided() {
  if (finished()) return;
  if (seatsIn() == 1) {
    st_.result = ResultKind::kWin;
    for (int s = 0; s < rules_->nseats(); ++s)
      if (isIn(s)) st_.winner = static_cast<int8_t>(s);
    if (rules_->awards.standingKing) [[unlikely]] scoreStandingKings();
    return;
  }
  if (rules_->onlyKingsDraw) {
    bool onlyKings = true;
    for (int s = 0; s < rules_->nseats() && onlyKings; ++s)
      if (isIn(s) && st_.count[s] > 1) onlyKings = false;
    if (onlyKings) st_.result = ResultKind::kDraw;
  }
}

void Position::afterConsequences(PlyEvents& ev, bool full) {
  const Rules& r = *rules_;
  if (r.bareKingLoses && !finished()) {
    for (int s = 0; s < r.nseats(); ++s)
      if (isIn(s) && s != ev.mover && st_.count[s] == 1 && st_.king[s] != kNoSquare)
        eliminate(s, OutReason::kBareKing, -1, ev);
  }
  if (r.bareKingReply && !finished()) applyBareKingReply(ev);
  finishIfDecided();
  if (full && r.nseats() > 2) updateChecks(ev.mover, &ev);
}

// bare-king = reply (two seats): the side that just moved loses when it has
// only its king and the side to move has more; the side to move loses when it
// has only its king and the other side has two pieces or more besides its king
// (with one, it may still bare that king in reply).
void Position::applyBareKingReply(PlyEvents& ev) {
  const int us = st_.toMove, them = 1 - us;
  if (st_.count[them] <= 1 && st_.count[us] >= 2) eliminate(them, OutReason::kBareKing, us, ev);
  else if (st_.count[us] <= 1 && st_.count[them] >= 3) eliminate(us, OutReason::kBareKing, them, ev);
}

namespace {
uint64_t scalarKey(const Rules& r, uint8_t toMove, uint8_t inMask, uint64_t rights, int ep) {
  uint64_t k = r.zToMove[toMove] ^ r.zIn[inMask];
  for (uint64_t b = rights; b; b &= b - 1) k ^= r.zRights[__builtin_ctzll(b)];
  if (ep != kNoSquare) k ^= r.zEp[ep];
  return k;
}
}  // namespace

uint64_t Position::freshHash() const {
  uint64_t h = 0;
  for (Square s = 0; s < rules_->nsq(); ++s)
    if (isPiece(st_.board[s])) h ^= rules_->zPiece(st_.board[s], s);
  if (rules_->drops) h ^= handHash();
  if (st_.duck != kNoSquare) h ^= rules_->zPiece(kBlocked, st_.duck);
  if (rules_->unions) h ^= partnerHash();
  return h ^ scalarKey(*rules_, st_.toMove, st_.inMask, st_.rights, st_.ep);
}

void Position::computeHash() { st_.hash = freshHash(); }

uint64_t Position::scalarKeyOf(int toMove, uint8_t inMask, uint64_t rights, int ep) const {
  return scalarKey(*rules_, static_cast<uint8_t>(toMove), inMask, rights, ep);
}

void Position::makeImpl(Move m, bool full) {
  const Rules& r = *rules_;
  if (r.unions && !m.isNull()) [[unlikely]] return makeUnionTurn(m);
  pushState();
  PlyEvents& ev = undo_.back().events;
  const int us = st_.toMove;
  ev.mover = us;
  st_.hash ^= scalarKey(r, st_.toMove, st_.inMask, st_.rights, st_.ep);
  const Square oldEpVictim = m.flag() == kEnPassant ? epCaptureSquare(m) : kNoSquare;
  st_.ep = st_.epVictim = kNoSquare;
  if (r.seatEnPassant) st_.seatEp[us] = st_.seatEpVictim[us] = kNoSquare;
  st_.lastMover = static_cast<int8_t>(us);
  st_.lastDrop = -1;
  ++st_.ply;

  st_.passed = m.flag() == kPass;
  st_.stalePasses = 0;
  if (m.isNull() || m.flag() == kPass) {
    ++st_.fifty;
    if (st_.countLimit) ++st_.countPly;
    st_.toMove = static_cast<uint8_t>(nextSeat(us));
    if (r.bikjang) afterBikjang();
    st_.hash ^= scalarKey(r, st_.toMove, st_.inMask, st_.rights, st_.ep);
    assert(isValid());
    return;
  }
  if (m.isDrop()) {
    makeDrop(m);
    st_.toMove = static_cast<uint8_t>(nextSeat(us));
    afterConsequences(ev, full);
    st_.hash ^= scalarKey(r, st_.toMove, st_.inMask, st_.rights, st_.ep);
    assert(isValid());
    return;
  }

  std::optional<KingThreats> threatsBefore;
  if (full && r.awards.threatSquares) [[unlikely]] threatsBefore = kingThreats();
  const Square from = m.from(), to = m.to();
  const Piece p = st_.board[from];
  const bool pawn = r.types[typeOf(p)].pawn;
  int kingTaken = -1;
  bool capture = false;
  int capturedType = -1;

  if (m.flag() == kCastle) {
    const int side = castleSide(m);
    const Square rook = st_.castleRook[us][side];
    const Square rdest = r.castleSquare(us, to, r.castleKingFile[side] + (side == 0 ? -1 : 1));
    const Piece rp = st_.board[rook];
    remove(rook);
    if (from != to) movePiece(from, to);  // a king on its destination stays
    put(rdest, rp);
  } else {
    const Square capSq = m.flag() == kEnPassant ? oldEpVictim : to;
    const Piece cap = st_.board[capSq];
    if (isPiece(cap) && capSq != from) {  // from == to: a promotion in place (promotion-move)
      capture = true;
      capturedType = typeOf(cap);
      if (!r.capturePoints.empty()) [[unlikely]] scoreCapture(us, cap);
      if (typeOf(cap) == r.royalType && isIn(seatOf(cap))) kingTaken = seatOf(cap);  // not a dead king
      else ev.capturedOwner = seatOf(cap);
      if (r.drops && r.capturesToHand) captureToHand(capSq, us);
      remove(capSq);
      if (pawn && r.doubleRights == DoubleStepRights::kUntilCapture) st_.rights &= ~doubleBit(us);
    }
    if (from != to) movePiece(from, to);  // a promotion in place (promotion-move) stays
    if (r.drops) movePromoted(from, to);
    if (m.promo() >= 0) {
      remove(to);
      put(to, makePiece(m.promo(), dirOf(p), us));
      if (r.drops && r.capturesToHand && pawn) setPromoted(to, true);
    } else if (capture && pawn && r.geometry == Rules::Geometry::kHex3) [[unlikely]] {
      // hex3 (the Triumvirate arena): a pawn that captures onto another
      // column heads for the back rank that column leads it to.
      const int dir = hex3PawnDir(to, us, dirOf(p));
      if (dir != dirOf(p)) {
        remove(to);
        put(to, makePiece(typeOf(p), dir, us));
      }
    }
    if (capture && r.blastOnCapture) [[unlikely]] explode(to, us, kingTaken);
  }
  // Rights: a king that moves loses castling and its leap; a rook that moves or is taken, its side.
  if (typeOf(p) == r.royalType) st_.rights &= ~(castleBit(us, 0) | castleBit(us, 1) | leapBit(us));
  if (r.castlingRank)
    for (int s = 0; s < r.nseats(); ++s)
      for (int side = 0; side < 2; ++side)
        if (st_.castleRook[s][side] == from || st_.castleRook[s][side] == to) st_.rights &= ~castleBit(s, side);
  if (r.firstStepType >= 0 || r.kingLeapLostToRook) updateLeapAndStepRights(p, from, to);
  if (m.flag() == kDoubleStep && r.seatEnPassant) {
    st_.seatEp[us] = static_cast<int16_t>(r.square((r.fileOf(from) + r.fileOf(to)) / 2, (r.rankOf(from) + r.rankOf(to)) / 2));
    st_.seatEpVictim[us] = static_cast<int16_t>(to);
  } else if (m.flag() == kDoubleStep && r.enPassant) {
    const Square mid = r.square((r.fileOf(from) + r.fileOf(to)) / 2, (r.rankOf(from) + r.rankOf(to)) / 2);
    // Only an en-passant square that an enemy pawn could take is recorded
    // (hex3: always, as the Triumvirate arena's position line shows it).
    if ((enemyPawnTakes(mid, us) || r.geometry == Rules::Geometry::kHex3) && mid != m.duck()) {
      st_.ep = static_cast<int16_t>(mid);
      st_.epVictim = static_cast<int16_t>(to);
    }
  }
  st_.fifty = (capture || pawn) ? 0 : st_.fifty + 1;
  if (r.duck) [[unlikely]] moveDuck(m.duck());
  if (kingTaken >= 0) eliminate(kingTaken, OutReason::kKingCaptured, us, ev);
  st_.toMove = static_cast<uint8_t>(nextSeat(us));
  if (r.counting != Counting::kNone) updateCounting(capturedType, m.promo() >= 0);
  afterConsequences(ev, full);
  if (full && !r.capturePoints.empty()) [[unlikely]] scoreChecks(ev, st_.board[to], threatsBefore ? &*threatsBefore : nullptr);
  if (r.bikjang) afterBikjang();
  // A consequence (a bare king going out) may have removed the seat whose turn it was.
  if (!isIn(st_.toMove)) st_.toMove = static_cast<uint8_t>(nextSeat(st_.toMove));
  st_.hash ^= scalarKey(r, st_.toMove, st_.inMask, st_.rights, st_.ep);
  assert(isValid());
}

void Position::applyTurnStart() {
  const Rules& r = *rules_;
  pushState();
  PlyEvents& ev = undo_.back().events;
  ev.mover = st_.lastMover;
  st_.hash ^= scalarKey(r, st_.toMove, st_.inMask, st_.rights, st_.ep);
  const int s = st_.toMove;
  if (inCheck(s) && dropMateLoses()) {
    eliminate(st_.lastMover, OutReason::kMated, s, ev);
    st_.result = ResultKind::kWin;
    st_.winner = static_cast<int8_t>(s);
  } else if (inCheck(s)) {
    eliminate(s, OutReason::kMated, mateCredit(s), ev);
  } else {
    switch (r.stalemate) {
      case StalemateEffect::kDraw:
        st_.result = ResultKind::kDraw;
        break;
      case StalemateEffect::kLoss:
        eliminate(s, OutReason::kStalemated, nextSeat(s), ev);
        st_.result = ResultKind::kWin;
        break;
      case StalemateEffect::kOut:
        eliminate(s, OutReason::kStalemated, -1, ev);
        break;
      case StalemateEffect::kWin:
        eliminate(nextSeat(s), OutReason::kOpponentNoMoves, s, ev);
        st_.result = ResultKind::kWin;
        st_.winner = static_cast<int8_t>(s);
        break;
      case StalemateEffect::kOthersDraw:
        eliminate(s, OutReason::kStalemated, -1, ev);
        st_.result = ResultKind::kOthersDraw;
        st_.winner = static_cast<int8_t>(s);
        break;
      case StalemateEffect::kPass:
        // The seat passes and the next one moves; when every seat still in
        // has passed in a row, no one can move again: a draw.
        if (++st_.stalePasses >= seatsIn()) st_.result = ResultKind::kDraw;
        st_.toMove = static_cast<uint8_t>(nextSeat(s));
        st_.ep = st_.epVictim = kNoSquare;
        break;
    }
  }
  if (!isIn(s)) st_.toMove = static_cast<uint8_t>(nextSeat(s));
  if (!finished()) {
    ev.mover = st_.lastMover;
    afterConsequences(ev, true);
  }
  st_.hash ^= scalarKey(r, st_.toMove, st_.inMask, st_.rights, st_.ep);
  assert(isValid());
}

void Position::removeSeat(int seat, OutReason reason) {
  const Rules& r = *rules_;
  pushState();
  PlyEvents& ev = undo_.back().events;
  ev.mover = st_.lastMover;
  st_.hash ^= scalarKey(r, st_.toMove, st_.inMask, st_.rights, st_.ep);
  const int next = nextSeat(seat);
  if (r.nseats() == 2 || r.ending == Ending::kCheckmate) {
    eliminate(seat, reason, next, ev);
    st_.result = ResultKind::kWin;
    st_.winner = static_cast<int8_t>(next);
  } else {
    eliminate(seat, reason, -1, ev);
    if (!r.deadPieces)
      while (st_.count[seat]) remove(st_.seat[seat].list[0]);
    if (st_.toMove == seat) st_.toMove = static_cast<uint8_t>(next);
    afterConsequences(ev, true);
  }
  st_.hash ^= scalarKey(r, st_.toMove, st_.inMask, st_.rights, st_.ep);
  assert(isValid());
}

void Position::declareDraw() {
  pushState();
  if (!rules_->capturePoints.empty()) scoreDraw();
  st_.result = ResultKind::kDraw;
}

void Position::declareWinner(int seat) {
  pushState();
  st_.result = ResultKind::kWin;
  st_.winner = static_cast<int8_t>(seat);
}

// ---------------------------------------------------------------------------

bool Position::isValid(std::string* why) const {
  auto bad = [&](const std::string& w) {
    if (why) *why = w;
    return false;
  };
  const Rules& r = *rules_;
  const int n = r.nseats();
  std::array<int, kMaxSeats> counted{};
  std::array<int, kMaxSeats> kings{};
  for (Square s = 0; s < kMaxSquares; ++s) {
    const Piece p = st_.board[s];
    if (s >= r.nsq()) {
      if (p != kBlocked) return bad("a square off the board is not blocked");
      continue;
    }
    if (r.blocked[s] != (p == kBlocked && s != st_.duck)) return bad("hole mismatch at " + r.squareName(s));
    if (s == st_.duck && p != kBlocked) return bad("the duck's square is not blocked");
    if (!isPiece(p)) continue;
    if (typeOf(p) < 0 || typeOf(p) >= static_cast<int>(r.types.size()) || seatOf(p) >= n) return bad("bad piece");
    if (st_.index[s] >= st_.count[seatOf(p)]) return bad("piece index out of the list at " + r.squareName(s));
    ++counted[seatOf(p)];
    if (st_.seat[seatOf(p)].list[st_.index[s]] != s) return bad("piece list mismatch at " + r.squareName(s));
    if (typeOf(p) == r.royalType) {
      ++kings[seatOf(p)];
      if (st_.king[seatOf(p)] != s) return bad("the king's square is wrong at " + r.squareName(s));
    }
  }
  for (int s = 0; s < kMaxSeats; ++s) {
    if (s >= n) {
      if (st_.count[s] != 0 || ((st_.inMask >> s) & 1)) return bad("a seat the variant does not have");
      continue;
    }
    if (st_.count[s] > kMaxPiecesPerSeat) return bad("piece list overflow");
    if (counted[s] != st_.count[s]) return bad("piece count mismatch");
    if (kings[s] > 1) return bad("two kings of one seat");
    if (kings[s] == 0 && st_.king[s] != kNoSquare) return bad("a king square without a king");
    for (int side = 0; side < 2; ++side) {
      if (!(st_.rights & castleBit(s, side)) || r.unions) continue;  // unions: the right outlives a rook in a union
      const Square rook = st_.castleRook[s][side];
      if (rook < 0 || rook >= r.nsq() || !isPiece(st_.board[rook]) || seatOf(st_.board[rook]) != s)
        return bad("a castling right without its rook");
    }
    if (st_.rights & firstStepBit(s)) {
      const Square q = st_.firstStepSq[s];
      if (q < 0 || q >= r.nsq() || !isPiece(st_.board[q]) || seatOf(st_.board[q]) != s ||
          typeOf(st_.board[q]) != r.firstStepType)
        return bad("a first-step right without its piece");
    }
  }
  if (st_.toMove >= n || (!isIn(st_.toMove) && !finished())) return bad("the seat to move is out");
  if (st_.ep != kNoSquare) {
    if (st_.ep < 0 || st_.ep >= r.nsq() || st_.epVictim < 0 || st_.epVictim >= r.nsq()) return bad("bad en-passant square");
    if (!isPiece(st_.board[st_.epVictim])) return bad("an en-passant square without its pawn");
  }
  if (freshHash() != st_.hash) return bad("hash mismatch");
  return true;
}

}  // namespace acedrex
