// Many seats (four-player chess as chess.com plays it,
// docs/rules/four-player-chess.md; three-player chess): teams and dead
// armies, and each seat's own frame: its castling, its en passant and its
// promotion rank. The free-for-all points are in points.cpp, chess.com's
// FEN4 in records/fen4.cpp.
#include "core/mechanisms/seat_frames.h"

#include <algorithm>
#include <cctype>
#include <string>

#include "core/board/hex3.h"
#include "core/position/cells.h"
#include "core/position/position.h"
#include "core/base/text_util.h"

namespace acedrex {

namespace {

Error fenError(std::string why) { return makeError("fen", std::move(why)); }

}  // namespace

// ---------------------------------------------------------------------------
// Variant-file keys

Status readPromotionRank(Rules& r, const VariantLine& l) {
  const int most = std::max(r.width, r.height);
  const int rank = smallNumber(l.value);
  if (rank != 0 && (rank < 2 || rank > most))
    return keyError("promotion-rank = a relative rank from 2 to " + std::to_string(most) + ", or 0 (the far edge)");
  r.promotionRank = rank;
  return okStatus();
}

Status readTeams(Rules& r, const VariantLine& l) {
  for (int s = 0; s < kMaxSeats; ++s) r.friends[s] = static_cast<uint8_t>(1u << s);
  r.teams = false;
  if (l.value == "none") return okStatus();
  uint8_t seen = 0;
  for (const std::string& group : words(l.value)) {
    uint8_t mask = 0;
    for (char c : group) {
      const int seat = seatByLetter(r, c);
      if (seat < 0) return keyError(std::string("teams: no seat with the letter ") + c);
      if ((seen >> seat) & 1) return keyError(std::string("teams: seat ") + c + " is in two teams");
      seen |= static_cast<uint8_t>(1u << seat);
      mask |= static_cast<uint8_t>(1u << seat);
    }
    for (int s = 0; s < r.nseats(); ++s)
      if ((mask >> s) & 1) r.friends[s] = mask;
  }
  if (seen != (1u << r.nseats()) - 1) return keyError("teams: every seat must be in a team");
  r.teams = true;
  return okStatus();
}

Status readDeadPieces(Rules& r, const VariantLine& l) {
  if (l.value != "yes" && l.value != "no") return keyError("dead-pieces = yes|no");
  r.deadPieces = l.value == "yes";
  return okStatus();
}

Status readKingCaptureInCheck(Rules& r, const VariantLine& l) {
  if (l.value != "yes" && l.value != "no") return keyError("king-capture-in-check = yes|no");
  r.kingCaptureInCheck = l.value == "yes";
  return okStatus();
}

// ---------------------------------------------------------------------------
// Castling in each seat's frame

int Rules::castleLateral(int seat, Square s) const {
  if (nseats() == 2) return fileOf(s);
  if (geometry == Geometry::kHex3) return hex3Cell(s).x;
  switch (seats[seat].dir) {
    case kNorth: return fileOf(s);
    case kEast: return height - 1 - rankOf(s);
    case kSouth: return width - 1 - fileOf(s);
    default: return rankOf(s);
  }
}

bool Rules::onCastlingRank(int seat, Square s) const {
  if (geometry == Geometry::kHex3) {
    const HexCell c = hex3Cell(s);
    return c.half == seat && c.y + 1 == castlingRank;
  }
  return relativeRank(s, seats[seat].dir) == castlingRank;
}

Square Rules::castleSquare(int seat, Square along, int x) const {
  if (nseats() == 2) return square(x, rankOf(along));
  if (geometry == Geometry::kHex3) return hex3Square({seat, x, hex3Cell(along).y});
  switch (seats[seat].dir) {
    case kNorth: return square(x, rankOf(along));
    case kEast: return square(fileOf(along), height - 1 - x);
    case kSouth: return square(width - 1 - x, rankOf(along));
    default: return square(fileOf(along), x);
  }
}

// ---------------------------------------------------------------------------
// En passant with more than two seats: every opponent whose pawn attacks the
// skipped square may take the pawn on its next turn, until the seat that
// made the double step moves again.

Square Position::seatEpVictim(Square to, int us) const {
  const Rules& r = *rules_;
  for (int s = 0; s < r.nseats(); ++s) {
    if (st_.seatEp[s] != to || ((r.friends[us] >> s) & 1)) continue;
    const Piece v = st_.board[st_.seatEpVictim[s]];
    if (isPiece(v) && seatOf(v) == s && r.types[typeOf(v)].pawn) return st_.seatEpVictim[s];
  }
  return kNoSquare;
}

Square Position::epCaptureSquare(Move m) const {
  return rules_->seatEnPassant ? seatEpVictim(m.to(), st_.toMove) : st_.epVictim;
}

// Teams: the winner's team shares first place, the other team the place after it.
std::array<int, kMaxSeats> Position::placesByTeam() const {
  std::array<int, kMaxSeats> pl{};
  const int n = rules_->nseats();
  const uint8_t won = rules_->friends[st_.winner];
  const int first = __builtin_popcount(won);
  for (int s = 0; s < n; ++s) pl[s] = ((won >> s) & 1) ? 1 : first + 1;
  return pl;
}

// Castling rights read from a many-seat text (chess.com's FEN4, the
// Triumvirate line): the king on its first rank and the rook on its file.
Status Position::setSeatCastling(const std::array<int, kMaxSeats>& kside, const std::array<int, kMaxSeats>& qside) {
  const Rules& r = *rules_;
  for (int s = 0; s < r.nseats(); ++s) {
    if (!isIn(s) || (!kside[s] && !qside[s])) continue;
    if (!r.castlingRank) return fenError("this variant has no castling");
    const Square k = st_.king[s];
    if (k == kNoSquare || !r.onCastlingRank(s, k))
      return fenError("castling rights for " + r.seats[s].name + " without its king on its first rank");
    const int rookType = r.typeByLetter('R');
    for (int side = 0; side < 2; ++side) {
      if (!(side == 0 ? kside[s] : qside[s])) continue;
      const Square rook = r.castleSquare(s, k, r.castleRookFile[side]);
      const Piece q = st_.board[rook];
      if (!isPiece(q) || seatOf(q) != s || typeOf(q) != rookType)
        return fenError("castling rights for " + r.seats[s].name + " without its rook on " + r.squareName(rook));
      st_.castleRook[s][side] = static_cast<int16_t>(rook);
      st_.rights |= castleBit(s, side);
    }
  }
  return okStatus();
}

}  // namespace acedrex
