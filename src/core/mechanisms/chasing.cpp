// Xiangqi's perpetual chase as Fairy-Stockfish rules it (chasing.h). The
// attack tests here follow Fairy-Stockfish's own, quirks included, so that
// a game ends where it ends: a moved piece attacks only squares of its
// region, but a discovered attack is counted over the whole board (an
// elephant whose eye opens "attacks" across the river), and a pinned
// soldier "protects" sideways before crossing.
#include "core/mechanisms/chasing.h"

#include <algorithm>
#include <bitset>
#include <cstdlib>

namespace acedrex {

namespace {

using Bits = std::bitset<kMaxSquares>;
using Board = std::array<Piece, kMaxSquares>;
using Role = Rules::ChaseRole;

// A move as the difference of two boards: the square emptied and the square filled.
struct BoardMove {
  Square from = kNoSquare, to = kNoSquare;
  bool capture = false;
};

BoardMove moveBetween(const Rules& r, const Board& before, const Board& after) {
  BoardMove m;
  for (Square s = 0; s < r.nsq(); ++s) {
    if (before[s] == after[s]) continue;
    if (after[s] == kEmpty) m.from = s;
    else m.to = s, m.capture = before[s] != kEmpty;
  }
  return m;
}

// Maps the chased squares of the side that made move m back to where its pieces stood before m.
Bits undoMove(Bits b, const BoardMove& m) {
  if (m.from != kNoSquare && m.to != kNoSquare && b.test(static_cast<size_t>(m.to))) {
    b.reset(static_cast<size_t>(m.to));
    b.set(static_cast<size_t>(m.from));
  }
  return b;
}

class ChaseBoard {
 public:
  ChaseBoard(const Rules& r, const Board& b) : r_(r), b_(b) {
    for (Square s = 0; s < r.nsq(); ++s)
      if (isPiece(b[s])) occ_.set(static_cast<size_t>(s));
  }

  const Bits& occ() const { return occ_; }
  bool owns(int seat, Square s) const { return isPiece(b_[s]) && seatOf(b_[s]) == seat; }
  Role role(Square s) const { return r_.chaseRole[static_cast<size_t>(typeOf(b_[s]))]; }

  Bits pieces(int seat) const {
    Bits out;
    for (Square s = 0; s < r_.nsq(); ++s)
      if (owns(seat, s)) out.set(static_cast<size_t>(s));
    return out;
  }
  Bits pieces(int seat, Role a, Role b = Role::kKing, Role c = Role::kKing) const {
    Bits out;
    for (Square s = 0; s < r_.nsq(); ++s)
      if (owns(seat, s) && (role(s) == a || role(s) == b || role(s) == c)) out.set(static_cast<size_t>(s));
    return out;
  }
  Square king(int seat) const {
    for (Square s = 0; s < r_.nsq(); ++s)
      if (owns(seat, s) && role(s) == Role::kKing) return s;
    return kNoSquare;
  }
  // A soldier on s has crossed the river: it stands where it gains moves (zone-moves).
  bool crossed(Square s) const {
    const Piece p = b_[s];
    for (const ZoneMoves& z : r_.zoneMoves)
      if (z.type == typeOf(p) && r_.inZone(z.zone, s, dirOf(p))) return true;
    return false;
  }
  // Soldiers on s that may be chased: those across the river.
  Bits chaseableOf(int seat) const {
    Bits out;
    for (Square s = 0; s < r_.nsq(); ++s)
      if (owns(seat, s) && role(s) != Role::kKing && (role(s) != Role::kSoldier || crossed(s)))
        out.set(static_cast<size_t>(s));
    return out;
  }

  // The squares the piece on s attacks with occupancy occ. asMoves (Fairy-
  // Stockfish's attacks_from): only squares of its region, a soldier
  // sideways only across the river; else (attacks_bb) the whole board and
  // a soldier always sideways.
  Bits attacks(Square s, const Bits& occ, bool asMoves = true) const {
    Bits out;
    const Piece p = b_[s];
    const int f = r_.fileOf(s), k = r_.rankOf(s);
    auto add = [&](int df, int dk) {
      if (r_.onBoard(f + df, k + dk)) out.set(static_cast<size_t>(r_.square(f + df, k + dk)));
    };
    auto empty = [&](int df, int dk) {
      return r_.onBoard(f + df, k + dk) && !occ.test(static_cast<size_t>(r_.square(f + df, k + dk)));
    };
    static constexpr int kOrth[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    static constexpr int kDiag[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
    switch (role(s)) {
      case Role::kKing:
        for (const auto& d : kOrth) add(d[0], d[1]);
        break;
      case Role::kAdvisor:
        for (const auto& d : kDiag) add(d[0], d[1]);
        break;
      case Role::kElephant:
        for (const auto& d : kDiag)
          if (empty(d[0], d[1])) add(2 * d[0], 2 * d[1]);
        break;
      case Role::kHorse:
        for (const auto& d : kOrth)  // the leg d, then one step to either side of it
          if (empty(d[0], d[1])) {
            add(2 * d[0] + d[1], 2 * d[1] + d[0]);
            add(2 * d[0] - d[1], 2 * d[1] - d[0]);
          }
        break;
      case Role::kRook:
      case Role::kCannon: {
        const bool cannon = role(s) == Role::kCannon;
        for (const auto& d : kOrth) {
          bool screened = false;
          for (int i = 1; r_.onBoard(f + i * d[0], k + i * d[1]); ++i) {
            const Square t = r_.square(f + i * d[0], k + i * d[1]);
            if (!occ.test(static_cast<size_t>(t))) continue;
            if (!cannon || screened) {
              out.set(static_cast<size_t>(t));
              break;
            }
            screened = true;
          }
        }
        break;
      }
      case Role::kSoldier: {
        const int fwd = dirOf(p) == kNorth ? 1 : -1;
        add(0, fwd);
        if (!asMoves || crossed(s)) add(1, 0), add(-1, 0);
        break;
      }
    }
    if (asMoves && r_.hasRegion)
      for (Square t = 0; t < r_.nsq(); ++t)
        if (out.test(static_cast<size_t>(t)) && !r_.allowedOn(typeOf(p), dirOf(p), t)) out.reset(static_cast<size_t>(t));
    return out;
  }

  // The pieces of `seat` that attack t with occupancy occ, each only onto a
  // square of its region (Fairy-Stockfish's attackers_to).
  Bits attackersTo(Square t, const Bits& occ, int seat) const {
    Bits out;
    for (Square s = 0; s < r_.nsq(); ++s)
      if (owns(seat, s) && attacks(s, occ).test(static_cast<size_t>(t)))
        out.set(static_cast<size_t>(s));
    return out;
  }

  // The pieces (of either seat) whose leaving would open an attack on the
  // king of `seat` by a chariot, cannon, horse or elephant of the other
  // (Fairy-Stockfish's blockers_for_king): the one piece between a chariot
  // and the king, a horse's leg, an elephant's eye, either of two pieces
  // between a cannon and the king.
  Bits blockers(int seat) const {
    Bits out;
    const Square ksq = king(seat);
    if (ksq == kNoSquare) return out;
    const int kf = r_.fileOf(ksq), kk = r_.rankOf(ksq);
    Bits snipers, sliding;
    std::array<Bits, kMaxSquares> between{};
    for (Square s = 0; s < r_.nsq(); ++s) {
      if (!isPiece(b_[s]) || seatOf(b_[s]) == seat) continue;
      const int df = kf - r_.fileOf(s), dk = kk - r_.rankOf(s);
      Bits path;
      switch (role(s)) {
        case Role::kRook:
        case Role::kCannon: {
          if ((df != 0) == (dk != 0)) continue;
          const int n = std::abs(df + dk), sf = df / std::max(1, std::abs(df)), sk = dk / std::max(1, std::abs(dk));
          for (int i = 1; i < n; ++i) path.set(static_cast<size_t>(r_.square(r_.fileOf(s) + i * sf, r_.rankOf(s) + i * sk)));
          break;
        }
        case Role::kHorse:
          if (!((std::abs(df) == 1 && std::abs(dk) == 2) || (std::abs(df) == 2 && std::abs(dk) == 1))) continue;
          path.set(static_cast<size_t>(std::abs(df) == 2 ? r_.square(r_.fileOf(s) + df / 2, r_.rankOf(s))
                                                         : r_.square(r_.fileOf(s), r_.rankOf(s) + dk / 2)));
          break;
        case Role::kElephant:
          if (std::abs(df) != 2 || std::abs(dk) != 2) continue;
          path.set(static_cast<size_t>(r_.square(r_.fileOf(s) + df / 2, r_.rankOf(s) + dk / 2)));
          break;
        default:
          continue;
      }
      if (attacks(s, occ_, false).test(static_cast<size_t>(ksq))) continue;
      snipers.set(static_cast<size_t>(s));
      if (role(s) != Role::kCannon) sliding.set(static_cast<size_t>(s));
      between[static_cast<size_t>(s)] = path;
    }
    const Bits occupancy = occ_ & ~sliding;
    for (Square s = 0; s < r_.nsq(); ++s) {
      if (!snipers.test(static_cast<size_t>(s))) continue;
      const bool hopper = role(s) == Role::kCannon;
      Bits occS = occ_;
      occS.reset(static_cast<size_t>(s));
      const Bits b = between[static_cast<size_t>(s)] & (hopper ? occS : occupancy);
      const size_t n = b.count();
      if (n == 1 || (hopper && n == 2)) out |= b;
    }
    return out;
  }

 private:
  const Rules& r_;
  const Board& b_;
  Bits occ_;
};

template <class F>
void forEach(Bits b, int nsq, F&& f) {
  for (Square s = 0; s < nsq && b.any(); ++s)
    if (b.test(static_cast<size_t>(s))) {
      b.reset(static_cast<size_t>(s));
      f(s);
    }
}

// The pieces of seat `them` (to move on `after`) that the move from
// `before` to `after` chased (Fairy-Stockfish's Position::chased()).
Bits chasedBy(const Rules& r, const Board& before, const Board& after, int them) {
  Bits b;
  const BoardMove mv = moveBetween(r, before, after);
  if (mv.from == kNoSquare || mv.to == kNoSquare) return b;  // a pass or a null move
  const int us = seatOf(after[mv.to]);
  const ChaseBoard pos(r, after), prev(r, before);
  const int nsq = r.nsq();
  const Bits theirs = pos.pieces(them);
  const Bits chaseable = pos.chaseableOf(them);

  Bits pins = pos.blockers(them);
  // With the flying general, their only piece on the file of our general
  // that also holds their general is pinned (it may not leave the file).
  if (r.flyingGeneral) {
    const Square ourKing = pos.king(us);
    if (ourKing != kNoSquare) {
      Bits onFile;
      for (int k = 0; k < r.height; ++k) {
        const Square s = r.square(r.fileOf(ourKing), k);
        if (pos.owns(them, s)) onFile.set(static_cast<size_t>(s));
      }
      const Bits kings = pos.pieces(them, Role::kKing);
      const Bits others = onFile & ~kings;
      if ((onFile & kings).any() && others.count() == 1) pins |= others;
    }
  }

  auto addChased = [&](Square from, Bits attacks) {
    if ((attacks & ~b).none()) return;
    const Role role = pos.role(from);
    attacks &= chaseable;
    // Attacks on stronger pieces count whether protected or not.
    if (role == Role::kHorse || role == Role::kCannon) b |= attacks & pos.pieces(them, Role::kRook);
    if (role == Role::kElephant || role == Role::kAdvisor)
      b |= attacks & pos.pieces(them, Role::kRook, Role::kCannon, Role::kHorse);
    // Mutual attacks by the same kind of piece do not count, except by a
    // horse that the other cannot take back (its leg blocked) or a pinned one.
    const int f = r.fileOf(from), k = r.rankOf(from);
    bool diagonalNeighbour = false;
    for (int df : {-1, 1})
      for (int dk : {-1, 1})
        if (r.onBoard(f + df, k + dk) && pos.occ().test(static_cast<size_t>(r.square(f + df, k + dk))))
          diagonalNeighbour = true;
    if (role == Role::kHorse && diagonalNeighbour) {
      forEach(attacks & pos.pieces(them, Role::kHorse), nsq, [&](Square s) {
        if (pos.attacks(s, pos.occ(), false).test(static_cast<size_t>(from))) attacks.reset(static_cast<size_t>(s));
      });
    } else {
      attacks &= ~pos.pieces(them, role) | pins;
    }
    // Attacks on pieces without a real protector.
    Bits occ = pos.occ();
    occ.reset(static_cast<size_t>(from));
    forEach(attacks, nsq, [&](Square s) {
      const Bits roots = pos.attackersTo(s, occ, them) & ~pins;
      bool chased = roots.none();
      // Protected by their general alone, which may not take on a square our general sees.
      if (!chased && r.flyingGeneral && roots == pos.pieces(them, Role::kKing)) {
        const Square ourKing = pos.king(us);
        if (ourKing != kNoSquare && r.fileOf(ourKing) == r.fileOf(s)) {
          bool open = true;
          const int step = r.rankOf(s) > r.rankOf(ourKing) ? 1 : -1;
          for (int kk = r.rankOf(ourKing) + step; kk != r.rankOf(s); kk += step)
            if (occ.test(static_cast<size_t>(r.square(r.fileOf(s), kk)))) open = false;
          chased = open;
        }
      }
      if (chased) b.set(static_cast<size_t>(s));
    });
  };

  // Direct attacks: the moved piece's new attacks (a chariot's or cannon's
  // along its own line are not new).
  const Role moved = pos.role(mv.to);
  if (moved != Role::kKing && moved != Role::kSoldier) {
    Bits direct = pos.attacks(mv.to, pos.occ()) & theirs;
    if (moved == Role::kRook || moved == Role::kCannon) {
      const bool sameRank = r.rankOf(mv.from) == r.rankOf(mv.to);
      for (Square s = 0; s < nsq; ++s)
        if (sameRank ? r.rankOf(s) == r.rankOf(mv.to) : r.fileOf(s) == r.fileOf(mv.to)) direct.reset(static_cast<size_t>(s));
    }
    addChased(mv.to, direct);
  }

  // Discovered attacks: our horses whose leg the move freed, elephants whose
  // eye it freed, chariots and cannons on the lines of its squares.
  {
    Bits candidates;
    const int ff = r.fileOf(mv.from), fk = r.rankOf(mv.from);
    for (Square s = 0; s < nsq; ++s) {
      if (!pos.owns(us, s)) continue;
      const int df = std::abs(r.fileOf(s) - ff), dk = std::abs(r.rankOf(s) - fk);
      const Role role = pos.role(s);
      const bool onFromLine = (df == 0) != (dk == 0);
      const bool onToLine = (r.fileOf(s) == r.fileOf(mv.to)) != (r.rankOf(s) == r.rankOf(mv.to));
      if ((role == Role::kHorse && df + dk == 1) || (role == Role::kElephant && df == 1 && dk == 1) ||
          ((role == Role::kRook || role == Role::kCannon) && onFromLine) || (role == Role::kCannon && onToLine))
        candidates.set(static_cast<size_t>(s));
    }
    forEach(candidates, nsq, [&](Square s) {
      const Bits discoveries = theirs & pos.attacks(s, pos.occ(), false) & ~pos.attacks(s, prev.occ(), false);
      addChased(s, discoveries);
    });
  }

  // New pins: a piece of theirs newly pinned protects nothing (its
  // protégés attacked by our unpinned pieces are chased); our pieces that
  // newly screen their general: what they attack is chased unless their
  // general can take it safely.
  const Bits pinsNow = pos.blockers(them), pinsBefore = prev.blockers(them);
  const Bits ourBlockers = pos.blockers(us);
  forEach(pinsNow & ~pinsBefore & theirs, nsq, [&](Square s) {
    const Bits fakeRooted = chaseable & pos.attacks(s, pos.occ(), false);
    forEach(fakeRooted, nsq, [&](Square s2) {
      if ((pos.attackersTo(s2, pos.occ(), us) & ~ourBlockers).any()) b.set(static_cast<size_t>(s2));
    });
  });
  const Square theirKing = pos.king(them);
  forEach(pinsNow & ~pinsBefore & pos.pieces(us), nsq, [&](Square s) {
    Bits hits = pos.attacks(s, pos.occ()) & theirs;
    Bits kingReach;
    if (theirKing != kNoSquare) kingReach = pos.attacks(theirKing, pos.occ());
    b |= hits & ~kingReach;
    hits &= kingReach;
    Bits occ = pos.occ();
    occ.reset(static_cast<size_t>(s));
    if (theirKing != kNoSquare) occ.reset(static_cast<size_t>(theirKing));
    forEach(hits, nsq, [&](Square s2) {
      Bits guards = pos.attackersTo(s2, occ, us);
      guards.reset(static_cast<size_t>(s));
      if (guards.any()) b.set(static_cast<size_t>(s2));
    });
  });
  return b;
}

// The pieces of the side to move `back` plies ago that the move into that
// position chased; empty at the start of the history.
Bits chasedAgo(const Position& pos, int back) {
  if (back >= pos.undoDepth()) return Bits();
  return chasedBy(pos.rules(), pos.boardAgo(back + 1), pos.boardAgo(back), pos.toMoveAgo(back));
}

// Whether the side to move `back` plies ago was in check then.
bool inCheckAgo(const Position& pos, int back) {
  const Board& board = pos.boardAgo(back);
  const ChaseBoard b(pos.rules(), board);
  const int seat = pos.toMoveAgo(back);
  const Square k = b.king(seat);
  return k != kNoSquare && b.attackersTo(k, b.occ(), 1 - seat).any();
}

BoardMove moveInto(const Position& pos, int back) {
  return moveBetween(pos.rules(), pos.boardAgo(back + 1), pos.boardAgo(back));
}

}  // namespace

std::vector<Square> chasedByLastMove(const Position& pos) {
  std::vector<Square> out;
  const Bits b = chasedAgo(pos, 0);
  for (Square s = 0; s < pos.rules().nsq(); ++s)
    if (b.test(static_cast<size_t>(s))) out.push_back(s);
  return out;
}

int moveRuleExtension(const Position& pos) {
  const int plies = pos.undoDepth();
  if (plies < 20) return 0;
  const int end = std::min(pos.fifty(), plies);
  // Checks of the side to move's enemy: its positions 0, 2, ... before `end`;
  // of the side to move: the positions 1, 3, ... up to `end`.
  int theirs = 0, ours = 0;
  for (int i = 0; i <= end; ++i) {
    const bool counted = i % 2 == 0 ? (i == 0 || i < end) : (i == 1 || i <= end);
    if (counted && inCheckAgo(pos, i)) ++(i % 2 == 0 ? theirs : ours);
  }
  return 2 * std::max(std::max(theirs, ours) - 10, 0);
}

RepetitionVerdict judgeRepetition(const Position& pos, int span) {
  RepetitionVerdict v;
  if (span < 4 || span > pos.undoDepth() || (span & 1)) return v;
  const int us = pos.toMove(), them = 1 - us;
  // A null move in the cycle (the search's): no verdict.
  for (int i = 0; i < span; ++i) {
    const BoardMove m = moveInto(pos, i);
    if (m.from == kNoSquare || m.to == kNoSquare) return v;
  }
  // Perpetual check: the side to move was in check at every one of its turns
  // (they checked), or we gave check with every move.
  bool theyCheck = pos.rules().perpetualCheckLoses, weCheck = theyCheck;
  for (int i = 0; i <= span && (theyCheck || weCheck); ++i)
    if (!inCheckAgo(pos, i)) (i % 2 == 0 ? theyCheck : weCheck) = false;
  if (theyCheck || weCheck) {
    if (theyCheck != weCheck) v.loser = theyCheck ? them : us, v.byCheck = true;
    return v;
  }
  // Perpetual chase: one piece chased by every move of the cycle, followed
  // through its own moves (the move into the first occurrence counts for the
  // side that moved into it, as in Fairy-Stockfish).
  Bits theyChase = chasedAgo(pos, 0), weChase = chasedAgo(pos, 1);
  for (int i = 2; i <= span && (theyChase.any() || weChase.any()); ++i) {
    Bits& chase = i % 2 == 0 ? theyChase : weChase;
    if (chase.none()) continue;
    if (i == pos.undoDepth()) break;     // no move into the start of the history
    chase = undoMove(chase, moveInto(pos, i - 1)) & chasedAgo(pos, i);
  }
  if (theyChase.any() != weChase.any()) v.loser = theyChase.any() ? them : us;
  return v;
}

}  // namespace acedrex
