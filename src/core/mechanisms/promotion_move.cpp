// The promotion move of Sittuyin (Burmese chess, as Fairy-Stockfish's
// "sittuyin"; its setup phase is in drops.cpp).
//
// The promotion move (`promotion-move`): a pawn does not promote by its own
// moves. Instead, while its seat has no piece of the promotion type on the
// board, a pawn on one of the marked squares (any pawn, when it is the seat's
// last) may become that type as its move, where it stands or by one of the
// new piece's moves onto an empty square; from its new square the piece may
// not attack an enemy piece, and the move may not give check.
#include "core/mechanisms/promotion_move.h"

#include <cctype>

#include "core/position/position.h"
#include "core/base/text_util.h"

namespace acedrex {

Status readPromotionMove(Rules& r, const VariantLine& l) {
  constexpr const char* form = "promotion-move = none | LETTER SQUARE ... (the first seat's squares)";
  if (l.value == "none") return okStatus();
  const auto ws = words(l.value);
  if (ws.size() < 2 || ws[0].size() != 1) return makeError("variant-file", form);
  const int t = r.typeByLetter(static_cast<char>(std::toupper(static_cast<unsigned char>(ws[0][0]))));
  if (t < 0) return makeError("variant-file", "promotion-move: no piece " + ws[0]);
  if (r.types[t].royal || r.types[t].pawn) return makeError("variant-file", "promotion-move: a pawn becomes a piece that is neither royal nor a pawn");
  if (r.nseats() != 2) return makeError("variant-file", "promotion-move needs two seats");
  r.promoMoveType = t;
  r.promoMoveSq.assign(2 * r.nsq(), 0);
  for (size_t i = 1; i < ws.size(); ++i) {
    auto s = r.parseSquare(ws[i]);
    if (!s.ok()) return makeError("variant-file", "promotion-move: not a square: " + ws[i]);
    r.promoMoveSq[*s] = 1;
    // The second seat's square: the same file, the rank mirrored.
    r.promoMoveSq[r.nsq() + r.square(r.fileOf(*s), r.height - 1 - r.rankOf(*s))] = 1;
  }
  return okStatus();
}

// ---------------------------------------------------------------------------
// The promotion move

namespace {
// Whether a piece of `kind` on `to` attacks a piece of another seat than
// `seat`, with the square `vacated` empty.
bool attacksEnemy(const Rules& r, const std::array<Piece, kMaxSquares>& b, int kind, Square to, Square vacated, int seat) {
  auto enemy = [&](Square s) { return s != vacated && isPiece(b[s]) && seatOf(b[s]) != seat; };
  const SquareMoves& sm = r.moves(kind, to);
  for (uint32_t i = sm.leapBegin; i < sm.leapEnd; ++i)
    if ((r.leaps[i].mode & kModeCapture) && enemy(r.leaps[i].to)) return true;
  for (uint32_t i = sm.rayBegin; i < sm.rayEnd; ++i) {
    const Ray& ray = r.rays[i];
    if (!(ray.mode & kModeCapture)) continue;
    for (int j = 0; j < ray.len; ++j) {
      const Square s = r.raySq[ray.begin + j];
      if (s == vacated || b[s] == kEmpty) continue;
      if (enemy(s)) return true;
      break;
    }
  }
  return false;
}
}  // namespace

void Position::genPromotionMoves(MoveList& out) const {
  const Rules& r = *rules_;
  const int us = st_.toMove;
  const int pt = r.promoMoveType;
  int pawns = 0;
  for (int i = 0; i < st_.count[us]; ++i) {
    const int t = typeOf(st_.board[st_.seat[us].list[i]]);
    if (t == pt) return;  // one at a time: only a seat without one promotes
    if (r.types[t].pawn) ++pawns;
  }
  const auto& b = st_.board;
  for (int i = 0; i < st_.count[us]; ++i) {
    const Square from = st_.seat[us].list[i];
    const Piece p = b[from];
    if (!r.types[typeOf(p)].pawn || (pawns > 1 && !r.promoMoveSq[us * r.nsq() + from])) continue;
    const int kind = kindOf(pt, dirOf(p));
    auto add = [&](Square to) {
      if (!attacksEnemy(r, b, kind, to, from, us)) out.push(Move(from, to, kNormal, pt));
    };
    add(from);
    // Onto the empty squares the new piece would attack from the pawn's square.
    const SquareMoves& sm = r.moves(kind, from);
    for (uint32_t j = sm.leapBegin; j < sm.leapEnd; ++j)
      if ((r.leaps[j].mode & kModeCapture) && b[r.leaps[j].to] == kEmpty) add(r.leaps[j].to);
    for (uint32_t j = sm.rayBegin; j < sm.rayEnd; ++j) {
      const Ray& ray = r.rays[j];
      if (!(ray.mode & kModeCapture)) continue;
      for (int k = 0; k < ray.len && b[r.raySq[ray.begin + k]] == kEmpty; ++k) add(r.raySq[ray.begin + k]);
    }
  }
}

// Legal when the mover's king is safe afterwards and the other king not attacked.
bool Position::promotionMoveLegal(Move m) {
  const int us = st_.toMove;
  makeImpl(m, false);
  const Square own = st_.king[us], theirs = st_.king[1 - us];
  const bool ok = (own == kNoSquare || !attacked(own, enemiesOf(us))) &&
                  (theirs == kNoSquare || !attacked(theirs, static_cast<uint8_t>(1u << us)));
  unmake();
  return ok;
}

bool Position::onlyPromotionMovesLeft() {
  const Rules& r = *rules_;
  const int us = st_.toMove;
  if (st_.count[us] != 2 || inCheck(us)) return false;
  int pawns = 0;
  for (int i = 0; i < st_.count[us]; ++i) pawns += r.types[typeOf(st_.board[st_.seat[us].list[i]])].pawn ? 1 : 0;
  if (pawns != 1) return false;
  MoveList list;
  legalMoves(list);
  for (Move m : list)
    if (m.promo() < 0) return false;
  return !list.empty();
}

}  // namespace acedrex
