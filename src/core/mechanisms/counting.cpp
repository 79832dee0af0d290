// The counting rules of Makruk, Ouk Chatrang and Sittuyin, as Fairy-Stockfish
// plays them (its countingRule MAKRUK_COUNTING, CAMBODIAN_COUNTING and
// ASEAN_COUNTING): once a
// side is short of material, the other must mate within a number of moves
// or the game is drawn. The count lives in the position (and its FEN: the
// limit in place of the en-passant square, the plies counted in place of
// the half-move clock); Game draws when it has run out.
#include "core/position/position.h"

namespace acedrex {

namespace {
int countType(const Rules& r, const std::array<Piece, kMaxSquares>& board, int seat, char letter) {
  int n = 0;
  for (Square s = 0; s < r.nsq(); ++s)
    if (isPiece(board[s]) && seatOf(board[s]) == seat && r.types[typeOf(board[s])].letter == letter) ++n;
  return n;
}
}  // namespace

// The limit in moves for `seat` counting (the weaker side counts), 0 when it
// may not count: the board's honour while it has more than its king, the
// pieces' honour by the other side's strongest pieces once it is bare.
int Position::countLimitFor(int seat) const {
  const Rules& r = *rules_;
  const int other = 1 - seat;
  if (r.counting == Counting::kAsean && st_.count[seat] > 1) return 0;  // below: only a bare king counts
  int pawns = 0;
  for (int s = 0; s < 2; ++s)
    for (int i = 0; i < st_.count[s]; ++i)
      if (r.types[typeOf(st_.board[st_.seat[s].list[i]])].pawn) ++pawns;
  // The ASEAN rules: only a bare king counts, once the pawns are gone, and
  // only against a rook (16 moves), a khon (44) or a knight (64).
  if (r.counting == Counting::kAsean) {
    if (pawns || st_.count[seat] > 1) return 0;
    if (countType(r, st_.board, other, 'R')) return 16;
    if (countType(r, st_.board, other, 'S')) return 44;
    if (countType(r, st_.board, other, 'N')) return 64;
    return 0;
  }
  const bool ouk = r.counting == Counting::kCambodian;
  const int full = ouk ? 63 : 64;
  if (ouk ? (st_.count[seat] > 3 || st_.count[other] == 1) : (pawns || st_.count[other] == 1)) return 0;
  if (st_.count[seat] > 1) return full;
  if (ouk && pawns) return 0;
  const int rooks = countType(r, st_.board, other, 'R');
  const int khons = countType(r, st_.board, other, 'S');
  const int knights = countType(r, st_.board, other, 'N');
  const int less = ouk ? 1 : 0;
  if (rooks > 1) return 8 - less;
  if (rooks == 1) return 16 - less;
  if (khons > 1) return 22 - less;
  if (knights > 1) return 32 - less;
  if (khons == 1) return 44 - less;
  return full;
}

// After a move (the side to move already switched): the count goes on, and
// starts or starts again as Fairy-Stockfish's do_move does.
void Position::updateCounting(int capturedType, bool promotion) {
  const Rules& r = *rules_;
  if (st_.countLimit) ++st_.countPly;
  const int us = st_.toMove, mover = 1 - us;
  auto pawnsLeft = [&] {
    for (int s = 0; s < 2; ++s)
      for (int i = 0; i < st_.count[s]; ++i)
        if (r.types[typeOf(st_.board[st_.seat[s].list[i]])].pawn) return true;
    return false;
  };
  const int all = st_.count[0] + st_.count[1];
  if (r.counting != Counting::kAsean && capturedType >= 0 && r.types[capturedType].pawn && st_.count[mover] == 1 &&
      !pawnsLeft()) {
    if (const int limit = countLimitFor(mover)) {
      st_.countLimit = 2 * limit;
      st_.countPly = 2 * all - 1;
    }
  }
  if (!st_.countLimit || ((capturedType >= 0 || promotion) && st_.count[us] == 1)) {
    if (const int limit = countLimitFor(us)) {
      st_.countLimit = 2 * limit;
      st_.countPly = r.counting == Counting::kAsean || st_.count[us] > 1 ? 0 : 2 * all;
    }
  }
}

// As lichess and Fairy-Stockfish judge chess: a side can mate with a pawn or
// any piece but a bishop (B) or knight (N); with bishops only if bishops
// stand on both colours or a knight is on the board; with a knight only if
// another piece besides the kings is on the board. Both sides unable: a draw.
bool Position::insufficientMaterial() const {
  const Rules& r = *rules_;
  if (r.insufficient == Rules::Insufficient::kMatingPieces) return cannotMate(0) && cannotMate(1);
  int bishopColours = 0, knights = 0, others = 0;
  std::array<int, 2> bishops{}, ownKnights{};
  for (int s = 0; s < 2; ++s)
    for (int i = 0; i < st_.count[s]; ++i) {
      const Square sq = st_.seat[s].list[i];
      const int t = typeOf(st_.board[sq]);
      if (t == r.royalType) continue;
      const char letter = r.types[t].letter;
      if (letter == 'B' && !r.types[t].pawn) {
        ++bishops[s];
        bishopColours |= 1 << ((r.fileOf(sq) + r.rankOf(sq)) & 1);
      } else if (letter == 'N' && !r.types[t].pawn) {
        ++knights;
        ++ownKnights[s];
      } else {
        ++others;
      }
    }
  if (others) return false;
  const int minors = bishops[0] + bishops[1] + knights;
  for (int s = 0; s < 2; ++s) {
    if (bishops[s] && (bishopColours == 3 || knights)) return false;
    if (ownKnights[s] && minors >= 2) return false;
  }
  return true;
}

// Fairy-Stockfish's general test (its has_insufficient_material, by which
// ffish and pychess end a game), in three classes of pieces: a seat's pieces
// are confined when they can never stand where the enemy king may (and the
// kings are), colour-bound when every move keeps a piece on its square's
// colour, free otherwise. The seat can mate when:
//  - another way to win makes material moot: a piece in its hand, captures
//    that go to a hand, a bare-king rule, king capture, forced captures,
//    explosions, or a repetition that does not draw;
//  - it has a mating piece, or a pawn that may promote to one;
//  - it has a colour-bound piece, and colour-bound pieces stand on both
//    colours, or a free piece stands anywhere, or stalemate is not a draw;
//  - it has a free piece, and two pieces or more stand besides the kings and
//    its confined pieces, or stalemate is not a draw.
// As there, a type the seat holds confined is free on the other side, and a
// mating type is free. Without that rule (no mating pieces named): false.
bool Position::cannotMate(int seat) const {
  const Rules& r = *rules_;
  if (r.insufficient != Rules::Insufficient::kMatingPieces) return false;
  if ((r.drops && r.capturesToHand) || !handEmpty(seat) || r.bareKingLoses || r.bareKingReply || r.kingCapture ||
      r.mustCapture || r.blastOnCapture || r.unions || r.repetitionEnd != Rules::RepetitionEnd::kDraw)
    return false;
  const int ntypes = static_cast<int>(r.types.size());
  bool promotingPawn = false;
  for (int i = 0; i < st_.count[seat]; ++i) promotingPawn |= r.types[typeOf(st_.board[st_.seat[seat].list[i]])].pawn;
  if (promotingPawn) {
    const auto mating = [&](int t) { return t >= 0 && r.matingPieces[t] && !r.confinedAway[seat * ntypes + t]; };
    bool toMating = mating(r.promoMoveType);
    for (int t : r.promoChoices) toMating |= mating(t);
    for (int t : r.promoByFile) toMating |= mating(t);
    for (int t = 0; t < ntypes && t < static_cast<int>(r.zonePromo.size()); ++t)
      toMating |= r.types[t].pawn && mating(r.zonePromo[t]);
    if (toMating) return false;
  }
  int colours = 0, freeAnywhere = 0, notConfined = 0;
  bool ownColourBound = false, ownFree = false;
  for (int s = 0; s < 2; ++s)
    for (int i = 0; i < st_.count[s]; ++i) {
      const Square sq = st_.seat[s].list[i];
      const int t = typeOf(st_.board[sq]);
      if (t == r.royalType || (s == seat && r.confinedAway[seat * ntypes + t])) continue;
      if (s == seat && r.matingPieces[t]) return false;
      ++notConfined;
      const bool colourBound = r.colourBound[t] && !r.matingPieces[t] && !r.confinedAway[seat * ntypes + t];
      if (colourBound) {
        colours |= 1 << ((r.fileOf(sq) + r.rankOf(sq)) & 1);
        ownColourBound |= s == seat;
      } else {
        ++freeAnywhere;
        ownFree |= s == seat;
      }
    }
  const bool stalemateDraws = r.stalemate == StalemateEffect::kDraw;
  if (ownColourBound && (colours == 3 || freeAnywhere || !stalemateDraws)) return false;
  if (ownFree && (notConfined >= 2 || !stalemateDraws)) return false;
  return true;
}

void Rules::buildMaterialClasses() {
  const int ntypes = static_cast<int>(types.size());
  colourBound.assign(ntypes, false);
  confinedAway.assign(2 * ntypes, false);
  if (insufficient != Insufficient::kMatingPieces) return;
  for (int t = 0; t < ntypes; ++t) {
    bool even = !types[t].atoms.empty();
    for (const MoveAtom& a : types[t].atoms) {
      for (const Offset& o : a.offsets) even = even && (o.dx + o.dy) % 2 == 0;
      for (const BentPath& b : a.bents) {
        even = even && (b.first.dx + b.first.dy) % 2 == 0;
        for (const Offset& o : b.slides) even = even && (o.dx + o.dy) % 2 == 0;
      }
    }
    colourBound[t] = even && !types[t].pawn;
  }
  for (int seat = 0; seat < 2; ++seat)
    for (int t = 0; t < ntypes; ++t) {
      bool meets = false;
      for (Square s = 0; s < nsq() && !meets; ++s)
        meets = !blocked[s] && allowedOn(t, seats[seat].dir, s) && allowedOn(royalType, seats[1 - seat].dir, s);
      confinedAway[seat * ntypes + t] = !meets && t != royalType;
    }
}

}  // namespace acedrex
