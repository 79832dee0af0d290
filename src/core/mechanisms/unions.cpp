// Unions and chains (Rules::unions): Paco Ŝako's rules as pacosako.com plays
// them (docs/rules/friendly-chess.md). A turn is simulated action by action
// on a small copy of the board that holds each seat's piece per square; the
// generator walks every sequence of actions, and each distinct position a
// turn can end in is one move.
#include <algorithm>
#include <cassert>
#include <cctype>
#include <cstring>
#include <unordered_set>

#include "core/position/position.h"

namespace acedrex {
namespace {

// What the simulation must do next.
enum class Need : uint8_t {
  kLift,               // lift a piece or a union of the mover
  kPlace,              // place the lifted piece
  kPromoteThenLift,    // the mover's pawn, brought to its last rank by the other side: promote, then lift
  kPromoteThenPlace,   // a pawn placed on its last rank in a chain: promote, then place the freed piece
  kPromoteThenFinish,  // a pawn placed on its last rank at the end: promote, and the turn is over
  kDone,               // the turn is over
};

// Per seat, the piece each square holds; a union is a square with both.
struct SimState {
  std::array<std::array<Piece, kUnionSquares>, 2> at{};
  uint64_t key = 0;  // the pieces, the en-passant square and the rights (Rules' keys)
  int16_t ep = kNoSquare;
  uint64_t rights = 0;
  uint8_t mover = 0;
  Need need = Need::kLift;
  Piece hand = kEmpty, handPartner = kEmpty;  // the lifted piece (the mover's) and a union partner
  int16_t handSq = kNoSquare;
  int16_t promoSq = kNoSquare;
  bool unionMade = false, promoted = false, kingUnited = false;
  int fifty = 0;  // the no-progress count as the actions go

  // The state's key including what is in hand (for the visited sets).
  uint64_t fullKey() const {
    uint64_t k = key ^ (uint64_t{hand} * 0x9E3779B97F4A7C15ull) ^ (uint64_t{handPartner} << 20) ^
                 (static_cast<uint64_t>(handSq + 1) << 40) ^ (static_cast<uint64_t>(need) << 52) ^
                 (static_cast<uint64_t>(promoSq + 1) << 56);
    return k ^ (k >> 29);
  }
};

class Sim {
 public:
  Sim(const Rules& r, const std::array<std::array<int16_t, 2>, kMaxSeats>& castleRook) : r_(r), castleRook_(castleRook) {}

  void set(SimState& s, int seat, Square sq, Piece p) const {
    const Piece old = s.at[seat][sq];
    if (old != kEmpty) s.key ^= r_.zPiece(old, sq);
    if (p != kEmpty) s.key ^= r_.zPiece(p, sq);
    s.at[seat][sq] = p;
  }
  void setEp(SimState& s, int16_t ep) const {
    if (s.ep != kNoSquare) s.key ^= r_.zEp[s.ep];
    s.ep = ep;
    if (ep != kNoSquare) s.key ^= r_.zEp[ep];
  }
  void clearRights(SimState& s, uint32_t bits) const {
    for (uint64_t b = s.rights & bits; b; b &= b - 1) s.key ^= r_.zRights[__builtin_ctzll(b)];
    s.rights &= ~bits;
  }
  bool empty(const SimState& s, Square sq) const { return s.at[0][sq] == kEmpty && s.at[1][sq] == kEmpty; }
  bool isPawn(Piece p) const { return r_.types[typeOf(p)].pawn; }
  bool isKing(Piece p) const { return typeOf(p) == r_.royalType; }
  bool isRook(Piece p) const { return p != kEmpty && r_.types[typeOf(p)].letter == 'R'; }
  // One step forward for a piece facing dir from sq, or kNoSquare.
  Square forward(Square sq, int dir) const {
    const Offset f = r_.rotate({0, 1}, dir);
    const int file = r_.fileOf(sq) + f.dx, rank = r_.rankOf(sq) + f.dy;
    return r_.onBoard(file, rank) ? r_.square(file, rank) : kNoSquare;
  }
  // The single lifted piece may land on sq unless only one of the mover's own pieces stands there.
  bool singleMayLand(const SimState& s, Square sq) const {
    return s.at[1 - s.mover][sq] != kEmpty || s.at[s.mover][sq] == kEmpty;
  }

  // The squares the lifted piece p (the mover's; with a partner when pair)
  // on sq may be placed on. threat: what it threatens instead (every square
  // a capture could reach, occupied or not; a king threatens nothing).
  template <class Add>
  void targets(const SimState& s, Piece p, Square sq, bool pair, bool threat, Add&& add) const {
    if (isKing(p)) {
      if (threat) return;
      const SquareMoves& sm = r_.moves(kindOf(p), sq);
      for (uint32_t i = sm.leapBegin; i < sm.leapEnd; ++i)
        if (empty(s, r_.leaps[i].to)) add(r_.leaps[i].to);
      if (!pair) castlingTargets(s, sq, add);
      return;
    }
    const SquareMoves& sm = r_.moves(kindOf(p), sq);
    const int opp = 1 - s.mover;
    if (isPawn(p)) {
      for (uint32_t i = sm.leapBegin; i < sm.leapEnd; ++i) {
        const Leap& l = r_.leaps[i];
        if (l.mode & kModeCapture) {
          if (threat || (!pair && (s.at[opp][l.to] != kEmpty || s.ep == l.to))) add(l.to);
        } else if ((l.mode & kModeMove) && !threat && empty(s, l.to)) {
          add(l.to);
          if (r_.doubleStepRank && r_.relativeRank(sq, dirOf(p)) <= r_.doubleStepRank) {
            const Square two = forward(l.to, dirOf(p));
            if (two != kNoSquare && empty(s, two)) add(two);
          }
        }
      }
      return;
    }
    for (uint32_t i = sm.leapBegin; i < sm.leapEnd; ++i) {
      const Square to = r_.leaps[i].to;
      if (threat || empty(s, to) || (!pair && singleMayLand(s, to))) add(to);
    }
    for (uint32_t i = sm.rayBegin; i < sm.rayEnd; ++i) {
      const Ray& ray = r_.rays[i];
      const uint8_t* q = &r_.raySq[ray.begin];
      for (int j = 0; j < ray.len; ++j) {
        if (empty(s, q[j])) {
          add(q[j]);
          continue;
        }
        if (threat || (!pair && singleMayLand(s, q[j]))) add(q[j]);
        break;
      }
    }
  }

  // Castling (the king in hand on sq): the right kept, the squares between
  // king and rook and their destinations empty, and no square from the
  // king's to its destination threatened by the other side, chains included.
  template <class Add>
  void castlingTargets(const SimState& s, Square k, Add&& add) const {
    const int us = s.mover;
    if (!r_.castlingRank || !(s.rights & (castleBit(us, 0) | castleBit(us, 1)))) return;
    uint64_t threats = 0;
    bool threatsKnown = false;
    for (int side = 0; side < 2; ++side) {
      const Square rook = castleRook_[us][side];
      if (!(s.rights & castleBit(us, side)) || rook == kNoSquare) continue;
      const int rank = r_.rankOf(k);
      const Square kdest = r_.square(r_.castleKingFile[side], rank);
      const Square rdest = r_.square(r_.castleKingFile[side] + (side == 0 ? -1 : 1), rank);
      const int lo = std::min({k, rook, kdest, rdest}), hi = std::max({k, rook, kdest, rdest});
      bool ok = true;
      for (Square q = lo; q <= hi && ok; ++q)
        if (q != k && q != rook && !empty(s, q)) ok = false;
      if (!ok) continue;
      if (!threatsKnown) {
        threats = threatsOf(s, 1 - us);
        threatsKnown = true;
      }
      for (Square q = std::min(k, kdest); q <= std::max(k, kdest) && ok; ++q)
        if ((threats >> q) & 1) ok = false;
      if (ok) add(kdest);
    }
  }

  // The squares `seat` threatens on this board (the mover's king being in
  // hand): what its lifted single pieces could reach, following every chain.
  uint64_t threatsOf(const SimState& base, int seat) const {
    SimState start = base;
    start.mover = static_cast<uint8_t>(seat);
    start.need = Need::kLift;
    start.hand = start.handPartner = kEmpty;
    start.handSq = start.promoSq = kNoSquare;
    uint64_t threats = 0;
    std::vector<SimState> todo;
    std::unordered_set<uint64_t> seen;
    for (Square sq = 0; sq < r_.nsq(); ++sq) {
      const Piece p = start.at[seat][sq];
      if (p == kEmpty || isKing(p) || start.at[1 - seat][sq] != kEmpty) continue;
      SimState t = start;
      lift(t, sq);
      todo.push_back(t);
    }
    while (!todo.empty()) {
      const SimState u = todo.back();
      todo.pop_back();
      auto follow = [&](const UnionAction& a) {
        SimState v = u;
        apply(v, a);
        if (v.need != Need::kDone && seen.insert(v.fullKey()).second) todo.push_back(v);
      };
      if (u.need == Need::kPlace) {
        targets(u, u.hand, u.handSq, false, true, [&](Square q) { threats |= uint64_t{1} << q; });
        const bool epPossible = isPawn(u.hand) && u.ep != kNoSquare && pawnStrikes(u.hand, u.handSq, u.ep);
        targets(u, u.hand, u.handSq, false, false, [&](Square q) {
          if ((u.at[0][q] != kEmpty && u.at[1][q] != kEmpty) || epPossible)
            follow({UnionAction::kPlace, static_cast<uint8_t>(q), -1});
        });
      } else if (u.need == Need::kPromoteThenPlace) {
        for (int t : r_.promoChoices) follow({UnionAction::kPromote, static_cast<uint8_t>(u.promoSq), static_cast<int8_t>(t)});
      }
    }
    return threats;
  }

  // Whether the pawn p on sq strikes target (one of its capture leaps).
  bool pawnStrikes(Piece p, Square sq, Square target) const {
    const SquareMoves& sm = r_.moves(kindOf(p), sq);
    for (uint32_t i = sm.leapBegin; i < sm.leapEnd; ++i)
      if ((r_.leaps[i].mode & kModeCapture) && r_.leaps[i].to == target) return true;
    return false;
  }

  // The actions the state allows.
  template <class Each>
  void actions(const SimState& s, Each&& each) const {
    switch (s.need) {
      case Need::kLift:
        for (Square sq = 0; sq < r_.nsq(); ++sq)
          if (s.at[s.mover][sq] != kEmpty) each(UnionAction{UnionAction::kLift, static_cast<uint8_t>(sq), -1});
        break;
      case Need::kPlace:
        targets(s, s.hand, s.handSq, s.handPartner != kEmpty, false,
                [&](Square q) { each(UnionAction{UnionAction::kPlace, static_cast<uint8_t>(q), -1}); });
        break;
      case Need::kPromoteThenLift:
      case Need::kPromoteThenPlace:
      case Need::kPromoteThenFinish:
        for (int t : r_.promoChoices)
          each(UnionAction{UnionAction::kPromote, static_cast<uint8_t>(s.promoSq), static_cast<int8_t>(t)});
        break;
      case Need::kDone:
        break;
    }
  }

  void apply(SimState& s, const UnionAction& a) const {
    switch (a.kind) {
      case UnionAction::kLift: lift(s, a.square); break;
      case UnionAction::kPlace: place(s, a.square); break;
      default: promote(s, a.promo); break;
    }
  }

  // Lifting a rook, or a union with a rook, off a castling rook's square
  // forfeits that castling right, whoever lifts it.
  void lift(SimState& s, Square sq) const {
    const int us = s.mover, opp = 1 - us;
    s.hand = s.at[us][sq];
    s.handPartner = s.at[opp][sq];
    s.handSq = static_cast<int16_t>(sq);
    ++s.fifty;
    if (isRook(s.hand) || isRook(s.handPartner))
      for (int seat = 0; seat < 2; ++seat)
        for (int side = 0; side < 2; ++side)
          if (castleRook_[seat][side] == sq) clearRights(s, castleBit(seat, side));
    set(s, us, sq, kEmpty);
    set(s, opp, sq, kEmpty);
    s.need = Need::kPlace;
  }

  void place(SimState& s, Square to) const {
    const int us = s.mover, opp = 1 - us;
    const Piece p = s.hand;
    const Square from = s.handSq;
    const int dir = dirOf(p);
    if (s.handPartner != kEmpty) {
      placePair(s, to);
      return;
    }
    // En passant: a pawn striking onto the en-passant square pulls the piece
    // (or union) that made the double step back onto it, and meets it there.
    if (isPawn(p) && s.ep == to && forward(from, dir) != to) {
      const Square back = forward(to, r_.seats[opp].dir);
      if (back != kNoSquare) {
        for (int seat = 0; seat < 2; ++seat) {
          const Piece a = s.at[seat][to], b = s.at[seat][back];
          set(s, seat, to, b);
          set(s, seat, back, a);
        }
      }
      setEp(s, kNoSquare);
    }
    if (isPawn(p) && r_.onFarEdge(to, dir)) s.promoSq = static_cast<int16_t>(to);
    if (isKing(p)) {
      setEp(s, kNoSquare);
      for (int side = 0; side < 2; ++side) {
        if (!(s.rights & castleBit(us, side)) || castleRook_[us][side] == kNoSquare) continue;
        if (to != r_.square(r_.castleKingFile[side], r_.rankOf(from))) continue;
        const Square rook = castleRook_[us][side];
        const Square rdest = to + (side == 0 ? -1 : 1);
        for (int seat = 0; seat < 2; ++seat) {
          const Piece a = s.at[seat][rook], b = s.at[seat][rdest];
          set(s, seat, rook, b);
          set(s, seat, rdest, a);
        }
        break;
      }
      set(s, us, to, p);
      clearRights(s, castleBit(us, 0) | castleBit(us, 1));
      endHand(s);
      s.need = Need::kDone;
      return;
    }
    const Piece own = s.at[us][to];
    set(s, us, to, p);
    if (own != kEmpty) {  // a chain: the mover's piece there is freed
      s.hand = own;
      s.handSq = static_cast<int16_t>(to);
      s.need = s.promoSq != kNoSquare ? Need::kPromoteThenPlace : Need::kPlace;
      return;
    }
    const Piece partner = s.at[opp][to];
    if (partner != kEmpty) {
      s.unionMade = true;
      s.fifty = 0;
    }
    setEp(s, kNoSquare);
    markEnPassant(s, p, from, to);
    endHand(s);
    if (partner != kEmpty && isKing(partner)) {
      // The game is won at once: a pawn uniting with the king on its last rank stays a pawn.
      s.kingUnited = true;
      s.promoSq = kNoSquare;
      s.need = Need::kDone;
      return;
    }
    s.need = s.promoSq != kNoSquare ? Need::kPromoteThenFinish : Need::kDone;
  }

  // A union lifted by the mover goes to an empty square; a pawn of either
  // side in it that reaches its last rank promotes: the mover's now, the
  // other side's at the start of its turn (its owner chooses).
  void placePair(SimState& s, Square to) const {
    const int us = s.mover, opp = 1 - us;
    const Piece p = s.hand, q = s.handPartner;
    setEp(s, kNoSquare);
    markEnPassant(s, p, s.handSq, to);
    set(s, us, to, p);
    set(s, opp, to, q);
    endHand(s);
    if (isPawn(p) && r_.onFarEdge(to, dirOf(p))) {
      s.promoSq = static_cast<int16_t>(to);
      s.need = Need::kPromoteThenFinish;
    } else {
      s.need = Need::kDone;
    }
  }

  void markEnPassant(SimState& s, Piece p, Square from, Square to) const {
    if (!isPawn(p) || !r_.enPassant || !r_.doubleStepRank) return;
    if (r_.relativeRank(from, dirOf(p)) != r_.doubleStepRank) return;
    const Square one = forward(from, dirOf(p));
    if (one != kNoSquare && forward(one, dirOf(p)) == to) setEp(s, static_cast<int16_t>(one));
  }

  void endHand(SimState& s) const {
    s.hand = s.handPartner = kEmpty;
    s.handSq = kNoSquare;
  }

  void promote(SimState& s, int type) const {
    const Square sq = s.promoSq;
    const Piece pawn = s.at[s.mover][sq];
    set(s, s.mover, sq, makePiece(type, dirOf(pawn), s.mover));
    s.promoSq = kNoSquare;
    s.promoted = true;
    s.fifty = 0;
    switch (s.need) {
      case Need::kPromoteThenLift: s.need = Need::kLift; break;
      case Need::kPromoteThenPlace: s.need = Need::kPlace; break;
      default:
        setEp(s, kNoSquare);
        s.need = Need::kDone;
        break;
    }
  }

  // The state at the start of a turn: a pawn of the mover waiting on its
  // last rank (brought there in a union by the other side) promotes first.
  void startTurn(SimState& s) const {
    s.need = Need::kLift;
    for (Square sq = 0; sq < r_.nsq(); ++sq) {
      const Piece p = s.at[s.mover][sq];
      if (p != kEmpty && isPawn(p) && r_.onFarEdge(sq, dirOf(p))) {
        s.promoSq = static_cast<int16_t>(sq);
        s.need = Need::kPromoteThenLift;
        return;
      }
    }
  }

 private:
  const Rules& r_;
  const std::array<std::array<int16_t, 2>, kMaxSeats>& castleRook_;
};

// The generator's walk over the actions of one turn, breadth first: each
// position a turn can end in is recorded with the shortest sequence of
// actions that reaches it (in the order the actions are generated), and the
// turns come in order of their length.
struct Walk {
  const Sim& sim;
  UnionTable& table;
  struct Node {
    SimState state;
    int parent;
    UnionAction action;
  };
  std::vector<Node> nodes;
  std::unordered_set<uint64_t> seen;  // intermediate states
  std::unordered_set<uint64_t> ends;  // the positions turns end in
  std::vector<uint16_t> ordinal;  // per pair of squares, kUnionSquares * kUnionSquares
  std::vector<UnionAction> path;

  // The Move of a turn: from the first lift's square to the last placement's,
  // the last promotion, and its ordinal among turns with the same two squares
  // in bits 24 to 31, the ordinal's high part (up to 8) as the flag 8 + high.
  void record(int parent, const UnionAction& last) {
    path.assign(1, last);
    for (int i = parent; i > 0; i = nodes[i].parent) path.push_back(nodes[i].action);
    std::reverse(path.begin(), path.end());
    Square from = kNoSquare, to = kNoSquare;
    int promo = -1;
    for (const UnionAction& a : path) {
      if (a.kind == UnionAction::kLift && from == kNoSquare) from = a.square;
      if (a.kind == UnionAction::kPlace) to = a.square;
      if (a.kind == UnionAction::kPromote) promo = a.promo;
    }
    uint16_t& n = ordinal[from * kUnionSquares + to];
    if (n >= 9 * 256) return;  // more than 2304 turns between two squares: not representable
    const uint32_t flag = n < 256 ? kNormal : 8 + (n >> 8) - 1;
    const uint32_t raw = Move(from, to, kNormal, promo).raw() | (flag << 20) | (uint32_t{static_cast<uint8_t>(n)} << 24);
    ++n;
    table.turns.push_back({Move::fromRaw(raw), static_cast<uint32_t>(table.actions.size()), static_cast<uint16_t>(path.size())});
    table.actions.insert(table.actions.end(), path.begin(), path.end());
  }

  void run(const SimState& start) {
    nodes.push_back({start, -1, {}});
    for (size_t i = 0; i < nodes.size(); ++i) {
      const SimState cur = nodes[i].state;  // nodes grows while its actions are walked
      sim.actions(cur, [&](const UnionAction& a) {
        SimState t = cur;
        sim.apply(t, a);
        if (t.need == Need::kDone) {
          if (ends.insert(t.key).second) record(static_cast<int>(i), a);
        } else if (seen.insert(t.fullKey()).second) {
          nodes.push_back({t, static_cast<int>(i), a});
        }
      });
    }
  }
};

}  // namespace

// ---------------------------------------------------------------------------
// Position's side

Piece Position::partnerAt(Square s) const { return partner_[s]; }

// The simulation's view of the board: board[] holds the first seat's piece of
// a union, partner_[] the second's.
static SimState simOf(const Rules& r, const std::array<Piece, kMaxSquares>& board,
                      const std::array<Piece, kMaxSquares>& partner, int toMove, int ep, uint64_t rights) {
  SimState s;
  for (Square sq = 0; sq < r.nsq(); ++sq) {
    const Piece p = board[sq];
    if (!isPiece(p)) continue;
    s.at[seatOf(p)][sq] = p;
    s.key ^= r.zPiece(p, sq);
    if (partner[sq] != kEmpty) {
      s.at[seatOf(partner[sq])][sq] = partner[sq];
      s.key ^= r.zPiece(partner[sq], sq);
    }
  }
  s.mover = static_cast<uint8_t>(toMove);
  s.ep = static_cast<int16_t>(ep);
  if (ep != kNoSquare) s.key ^= r.zEp[ep];
  s.rights = rights & (castleBit(0, 0) | castleBit(0, 1) | castleBit(1, 0) | castleBit(1, 1));
  for (uint64_t b = s.rights; b; b &= b - 1) s.key ^= r.zRights[__builtin_ctzll(b)];
  return s;
}

const UnionTable& Position::unionTable() const {
  const size_t depth = undo_.size();
  if (unionTables_.size() <= depth) unionTables_.resize(depth + 1);
  UnionTable& table = unionTables_[depth];
  if (table.valid && table.key == st_.hash) return table;
  table.valid = true;
  table.key = st_.hash;
  table.turns.clear();
  table.actions.clear();
  if (finished()) return table;
  const Sim sim(*rules_, st_.castleRook);
  SimState s = simOf(*rules_, st_.board, partner_, st_.toMove, st_.ep, st_.rights);
  sim.startTurn(s);
  Walk walk{sim, table, {}, {}, {}, std::vector<uint16_t>(kUnionSquares * kUnionSquares, 0), {}};
  walk.run(s);
  return table;
}

void Position::genUnionTurns(MoveList& out, bool winsOnly) const {
  const UnionTable& table = unionTable();
  for (const UnionTurn& t : table.turns) {
    if (out.size() >= MoveList::kCapacity) break;  // the longest turns go (legalTurns has them all)
    if (winsOnly) {
      const UnionAction& last = table.actions[t.begin + t.len - 1];
      const Square to = last.kind == UnionAction::kPlace ? last.square : kNoSquare;
      const Piece there = to == kNoSquare ? kEmpty : st_.board[to];
      const Piece king = isPiece(there) && seatOf(there) != st_.toMove ? there : kEmpty;
      if (king == kEmpty || typeOf(king) != rules_->royalType) continue;
    }
    out.push(t.move);
  }
}

void Position::appendUnionTurns(std::vector<Move>& out) {
  if (finished()) return;
  for (const UnionTurn& t : unionTable().turns) out.push_back(t.move);
}

const UnionTurn* Position::findUnionTurn(Move m) const {
  const UnionTable& table = unionTable();
  for (const UnionTurn& t : table.turns)
    if (t.move == m) return &t;
  return nullptr;
}

void Position::makeUnionTurn(Move m) {
  const Rules& r = *rules_;
  const UnionTurn* turn = findUnionTurn(m);
  assert(turn);
  const UnionTable& table = unionTables_[undo_.size()];
  const Sim sim(r, st_.castleRook);
  SimState s = simOf(r, st_.board, partner_, st_.toMove, st_.ep, st_.rights);
  s.fifty = st_.fifty;
  sim.startTurn(s);
  if (turn)
    for (uint32_t i = turn->begin; i < turn->begin + turn->len; ++i) sim.apply(s, table.actions[i]);

  pushState();
  unionUndo_.push_back({static_cast<int>(undo_.size()), std::vector<uint8_t>(partner_.begin(), partner_.begin() + r.nsq())});
  PlyEvents& ev = undo_.back().events;
  const int us = st_.toMove;
  ev.mover = us;
  st_.hash ^= scalarKeyOf(st_.toMove, st_.inMask, st_.rights, st_.ep);
  for (Square sq = 0; sq < r.nsq(); ++sq) {
    const Piece w = s.at[0][sq], b = s.at[1][sq];
    const Piece first = w != kEmpty ? w : b;
    const Piece second = w != kEmpty ? b : kEmpty;
    if (st_.board[sq] != first) {
      if (st_.board[sq] != kEmpty) remove(sq);
      if (first != kEmpty) put(sq, first);
    }
    if (partner_[sq] != second) {
      if (partner_[sq] != kEmpty) st_.hash ^= r.zPiece(partner_[sq], sq);
      if (second != kEmpty) st_.hash ^= r.zPiece(second, sq);
      partner_[sq] = second;
    }
  }
  st_.rights = (st_.rights & ~(castleBit(0, 0) | castleBit(0, 1) | castleBit(1, 0) | castleBit(1, 1))) | s.rights;
  st_.ep = s.ep;
  st_.epVictim = kNoSquare;
  if (s.ep != kNoSquare) {
    const Offset f = r.rotate({0, 1}, r.seats[us].dir);
    st_.epVictim = static_cast<int16_t>(r.square(r.fileOf(s.ep) + f.dx, r.rankOf(s.ep) + f.dy));
  }
  st_.fifty = s.fifty;
  st_.lastMover = static_cast<int8_t>(us);
  st_.lastDrop = -1;
  st_.passed = false;
  ++st_.ply;
  st_.toMove = static_cast<uint8_t>(1 - us);
  if (s.kingUnited) eliminate(1 - us, OutReason::kKingCaptured, us, ev);
  st_.hash ^= scalarKeyOf(st_.toMove, st_.inMask, st_.rights, st_.ep);
  assert(isValid());
}

void Position::unmakeUnionPartners() {
  if (unionUndo_.empty() || unionUndo_.back().depth != static_cast<int>(undo_.size())) return;
  const auto& saved = unionUndo_.back().partner;
  std::copy(saved.begin(), saved.end(), partner_.begin());
  unionUndo_.pop_back();
}

std::string Position::unionMoveText(Move m) const {
  const UnionTurn* turn = findUnionTurn(m);
  if (!turn) return "????";
  const UnionTable& table = unionTables_[undo_.size()];
  const Rules& r = *rules_;
  std::string out;
  Square last = kNoSquare;  // where the piece in hand stands
  for (uint32_t i = turn->begin; i < turn->begin + turn->len; ++i) {
    const UnionAction& a = table.actions[i];
    switch (a.kind) {
      case UnionAction::kLift:
        last = a.square;
        break;
      case UnionAction::kPlace:
        if (!out.empty()) out += ',';
        out += r.squareName(last) + r.squareName(a.square);
        last = a.square;
        break;
      case UnionAction::kPromote:
        // A promotion right after a placement belongs to that step; one at
        // the start of the turn is its own step on the pawn's square.
        if (i == turn->begin) out += r.squareName(a.square) + r.squareName(a.square);
        out += static_cast<char>(std::tolower(static_cast<unsigned char>(r.types[a.promo].letter)));
        break;
    }
  }
  return out;
}

// The union letters of the board field (pacosako.com's FEN, after vchess):
// a lower-case letter names a union whose second seat's piece comes first in
// the order P R N B Q K, an upper-case one the same pair with the seats swapped.
namespace {
constexpr const char* kUnionOrder = "PRNBQK";
constexpr const char* kUnionLetters = "acdefghijlmostuvwxyz_";  // pairs (i <= j) in order
int unionIndex(int i, int j) {  // i <= j, indexes into kUnionOrder
  int n = 0;
  for (int a = 0; a < i; ++a) n += 6 - a;
  return n + (j - i);
}
int orderOf(const Rules& r, Piece p) {
  const char* at = std::strchr(kUnionOrder, r.types[typeOf(p)].letter);
  return at ? static_cast<int>(at - kUnionOrder) : -1;
}
}  // namespace

char Position::unionLetter(Square s) const {
  const Rules& r = *rules_;
  const Piece w = st_.board[s], b = partner_[s];
  const int iw = orderOf(r, w), ib = orderOf(r, b);
  if (iw < 0 || ib < 0) return '?';
  if (ib <= iw) return kUnionLetters[unionIndex(ib, iw)];
  return static_cast<char>(std::toupper(static_cast<unsigned char>(kUnionLetters[unionIndex(iw, ib)])));
}

bool Position::readUnionLetter(char c, Square s) {
  const Rules& r = *rules_;
  const char lower = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const char* at = std::strchr(kUnionLetters, lower);
  if (!at || lower == 0) return false;
  const int idx = static_cast<int>(at - kUnionLetters);
  int i = 0, j = 0;
  for (int a = 0, n = 0; a < 6; ++a)
    for (int b = a; b < 6; ++b, ++n)
      if (n == idx) i = a, j = b;
  // Lower case: the second seat's piece is kUnionOrder[i]; upper case: the first seat's.
  const bool upper = c != lower;
  const int firstType = r.typeByLetter(kUnionOrder[upper ? i : j]);
  const int secondType = r.typeByLetter(kUnionOrder[upper ? j : i]);
  if (firstType < 0 || secondType < 0) return false;
  if (st_.count[0] >= kMaxPiecesPerSeat) return false;
  put(s, makePiece(firstType, r.seats[0].dir, 0));
  partner_[s] = makePiece(secondType, r.seats[1].dir, 1);
  return true;
}

uint64_t Position::partnerHash() const {
  uint64_t h = 0;
  for (Square s = 0; s < rules_->nsq(); ++s)
    if (partner_[s] != kEmpty) h ^= rules_->zPiece(partner_[s], s);
  return h;
}

// After set(): a king in a union means the game is over (its owner lost);
// pawns may stand on their last rank only in a union, waiting for the side
// to move's promotion.
Status Position::checkUnions() {
  const Rules& r = *rules_;
  int kings[2] = {0, 0};
  int united = -1;
  for (Square s = 0; s < r.nsq(); ++s) {
    for (const Piece p : {st_.board[s], partner_[s]}) {
      if (!isPiece(p)) continue;
      if (typeOf(p) == r.royalType) {
        ++kings[seatOf(p)];
        if (partner_[s] != kEmpty) united = seatOf(p);
      }
      const bool withKing = partner_[s] != kEmpty && (typeOf(st_.board[s]) == r.royalType || typeOf(partner_[s]) == r.royalType);
      if (r.types[typeOf(p)].pawn && r.onFarEdge(s, dirOf(p)) && !withKing &&
          (partner_[s] == kEmpty || seatOf(p) != st_.toMove))
        return makeError("fen", "a pawn on its last square at " + r.squareName(s));
    }
  }
  if (kings[0] != 1 || kings[1] != 1) return makeError("fen", "each side needs exactly one king");
  if (united >= 0) {
    PlyEvents ev;
    eliminate(united, OutReason::kKingCaptured, 1 - united, ev);
  }
  return okStatus();
}

}  // namespace acedrex
