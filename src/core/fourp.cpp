// Four-player chess as chess.com plays it (docs/rules/four-player-chess.md):
// the variant-file keys, castling in every seat's own frame, the
// free-for-all points, and chess.com's FEN4.
#include "core/fourp.h"

#include <algorithm>
#include <cctype>
#include <string>

#include "core/hex3.h"
#include "core/position.h"
#include "core/text_util.h"

namespace acedrex {

namespace {

Error fenError(std::string why) { return makeError("fen", std::move(why)); }

bool allDigits(const std::string& s) {
  return !s.empty() && s.size() <= 6 && std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

// A number with an optional minus sign (the points may be negative in a text).
bool readInt(const std::string& s, int& v) {
  const bool neg = !s.empty() && s[0] == '-';
  const std::string digits = neg ? s.substr(1) : s;
  if (!allDigits(digits)) return false;
  v = std::stoi(digits) * (neg ? -1 : 1);
  return true;
}

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
      int seat = -1;
      for (int s = 0; s < r.nseats(); ++s)
        if (r.seats[s].letter == c) seat = s;
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

Status readPoints(Rules& r, const VariantLine& l) {
  r.capturePoints.clear();
  if (l.value == "none") return okStatus();
  if (r.nseats() < 3) return keyError("points need more than two seats");
  r.capturePoints.assign(r.types.size(), 0);
  for (const std::string& w : words(l.value)) {
    const int t = w.size() >= 3 && w[1] == ':' ? r.typeByLetter(w[0]) : -1;
    const int v = t >= 0 ? smallNumber(w.substr(2)) : -1;
    if (v < 0) return keyError("points = none, or LETTER:POINTS ..., not \"" + w + "\"");
    r.capturePoints[t] = v;
  }
  return okStatus();
}

Status readPositionText(Rules& r, const VariantLine& l) {
  if (l.value != "acedrex" && l.value != "chess.com" && l.value != "triumvirate")
    return keyError("position-text = acedrex|chess.com|triumvirate");
  r.fen4ChessCom = l.value == "chess.com";
  r.triumvirateText = l.value == "triumvirate";
  if (r.triumvirateText && r.geometry != Rules::Geometry::kHex3)
    return keyError("position-text = triumvirate needs geometry = hex3 (given before it)");
  if (r.fen4ChessCom && r.nseats() != 4) return keyError("position-text = chess.com needs four seats");
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

// ---------------------------------------------------------------------------
// Points (Rules::capturePoints)

void Position::scoreCapture(int capturer, Piece captured) {
  // Dead pieces (of a seat that is out) earn nothing.
  if (isIn(seatOf(captured))) st_.points[capturer] += static_cast<int16_t>(rules_->capturePoints[typeOf(captured)]);
  else if (typeOf(captured) == rules_->royalType) st_.points[capturer] += static_cast<int16_t>(rules_->awards.deadKing);
}

void Position::scoreChecks(const PlyEvents& ev, Piece moved, const KingThreats* before) {
  const int us = ev.mover;
  const auto& a = rules_->awards;
  int kings = 0;
  if (before) kings = newlyThreatenedKings(*before, us);
  else
    for (int t = 0; t < rules_->nseats(); ++t)
      if ((ev.checkStarts[t] >> us) & 1) ++kings;
  if (kings < 2) return;
  const char letter = rules_->types[typeOf(moved)].letter;
  const int queen = letter == 'Q' || letter == 'D' ? 1 : 0;
  st_.points[us] += static_cast<int16_t>(kings == 2 ? a.check2[queen] : a.check3[queen]);
}

void Position::scoreOut(int seat, OutReason reason, int by) {
  const auto& a = rules_->awards;
  if (reason == OutReason::kMated && by >= 0) st_.points[by] += static_cast<int16_t>(a.mate);
  if (reason == OutReason::kStalemated) st_.points[seat] += static_cast<int16_t>(a.stalemate);
  // A resigned or timed-out seat's king stays live on chess.com; when only
  // one seat is left in, that seat gets the king's points (the "claim win").
  if ((reason == OutReason::kResigned || reason == OutReason::kTimeout) && seatsIn() == 1)
    for (int s = 0; s < rules_->nseats(); ++s)
      if (isIn(s)) st_.points[s] += static_cast<int16_t>(a.resignKing);
}

void Position::scoreDraw() {
  for (int s = 0; s < rules_->nseats(); ++s)
    if (isIn(s)) st_.points[s] += static_cast<int16_t>(rules_->awards.draw);
}

// Places by points, the most first; equal points share a place.
std::array<int, kMaxSeats> Position::placesByPoints() const {
  std::array<int, kMaxSeats> pl{};
  const int n = rules_->nseats();
  for (int s = 0; s < n; ++s) {
    pl[s] = 1;
    for (int o = 0; o < n; ++o)
      if (st_.points[o] > st_.points[s]) ++pl[s];
  }
  return pl;
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

// ---------------------------------------------------------------------------
// chess.com's FEN4: seat to move (R, B, Y, G), seats out, king-side and
// queen-side castling rights, points, the fifty-move count, an optional
// {...} field chess.com adds for some positions (ignored), and the board
// from the top rank, cells separated by commas: a run of empty squares (the
// cut corners are counted as empty), x for a corner square, or the seat's
// letter with the piece letter. Pawns face their seat's way.

Status Position::readFen4ChessCom(const std::string& text) {
  const Rules& r = *rules_;
  auto fields = split(text, '-');
  // The points may be negative: a '-' right after a ',' or after the field separator belongs to a number.
  std::vector<std::string> merged;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (!merged.empty() && (merged.back().empty() || merged.back().back() == ',') && merged.size() == 5)
      merged.back() += "-" + fields[i];
    else
      merged.push_back(fields[i]);
  }
  fields = merged;
  if (fields.size() == 8 && !fields[6].empty() && fields[6][0] == '{') fields.erase(fields.begin() + 6);
  if (fields.size() != 7)
    return fenError("expected 7 fields separated by '-': to-move, out, king-side castling, queen-side castling, points, fifty, board");
  const int n = r.nseats();
  int mover = -1;
  for (int s = 0; s < n; ++s)
    if (fields[0].size() == 1 && std::toupper(static_cast<unsigned char>(r.seats[s].letter)) == fields[0][0]) mover = s;
  if (mover < 0) return fenError("unknown seat to move \"" + fields[0] + "\"");
  auto flags = [&](const std::string& f, const char* what, std::array<int, kMaxSeats>& out, bool binary) -> Status {
    const auto parts = split(f, ',');
    if (static_cast<int>(parts.size()) != n) return fenError(std::string(what) + ": expected 4 values separated by commas");
    for (int s = 0; s < n; ++s)
      if (!readInt(parts[s], out[s]) || (binary && out[s] != 0 && out[s] != 1))
        return fenError(std::string(what) + ": bad value \"" + parts[s] + "\"");
    return okStatus();
  };
  std::array<int, kMaxSeats> out{}, kside{}, qside{}, points{};
  if (auto s = flags(fields[1], "seats out", out, true); !s.ok()) return s;
  if (auto s = flags(fields[2], "king-side castling", kside, true); !s.ok()) return s;
  if (auto s = flags(fields[3], "queen-side castling", qside, true); !s.ok()) return s;
  if (auto s = flags(fields[4], "points", points, false); !s.ok()) return s;
  if (!allDigits(fields[5])) return fenError("the fifty-move count must be a number");
  st_.toMove = static_cast<uint8_t>(mover);
  st_.inMask = 0;
  for (int s = 0; s < n; ++s) {
    if (!out[s]) st_.inMask |= static_cast<uint8_t>(1u << s);
    st_.points[s] = static_cast<int16_t>(points[s]);
  }
  if (!isIn(mover)) return fenError("the seat to move is out");
  st_.fifty = std::stoi(fields[5]);
  // The board.
  const auto ranks = split(fields[6], '/');
  if (static_cast<int>(ranks.size()) != r.height)
    return fenError("expected " + std::to_string(r.height) + " ranks, found " + std::to_string(ranks.size()));
  for (int i = 0; i < r.height; ++i) {
    const int rank = r.height - 1 - i;
    int file = 0;
    const std::string where = " in rank " + std::to_string(rank + 1);
    for (const std::string& cell : split(ranks[i], ',')) {
      if (allDigits(cell)) {
        file += std::stoi(cell);
        if (file > r.width) return fenError("too many squares" + where);
        continue;
      }
      if (file >= r.width) return fenError("too many squares" + where);
      const Square sq = r.square(file, rank);
      if (cell == "x") {
        if (!r.blocked[sq]) return fenError("x on a square that is not blocked" + where);
        ++file;
        continue;
      }
      if (r.blocked[sq]) return fenError("a piece on the blocked square " + r.squareName(sq));
      int seat = -1;
      for (int q = 0; q < n; ++q)
        if (cell.size() == 2 && r.seats[q].letter == cell[0]) seat = q;
      const int type = cell.size() == 2 ? r.typeByLetter(cell[1]) : -1;
      if (seat < 0 || type < 0) return fenError("unknown piece \"" + cell + "\"" + where);
      if (!isIn(seat) && !r.deadPieces) return fenError("a piece of a seat that is out: \"" + cell + "\"" + where);
      if (auto placed = placeRead(sq, makePiece(type, r.seats[seat].dir, seat)); !placed.ok()) return placed;
      ++file;
    }
    if (file != r.width)
      return fenError("rank " + std::to_string(rank + 1) + " has " + std::to_string(file) + " squares, not " + std::to_string(r.width));
  }
  return setSeatCastling(kside, qside);
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

std::string Position::fen4ChessComText() const {
  const Rules& r = *rules_;
  const int n = r.nseats();
  std::string out(1, static_cast<char>(std::toupper(static_cast<unsigned char>(r.seats[st_.toMove].letter))));
  auto field = [&](auto value) {
    out += '-';
    for (int s = 0; s < n; ++s) out += (s ? "," : "") + std::to_string(value(s));
  };
  field([&](int s) { return isIn(s) ? 0 : 1; });
  field([&](int s) { return (st_.rights & castleBit(s, 0)) ? 1 : 0; });
  field([&](int s) { return (st_.rights & castleBit(s, 1)) ? 1 : 0; });
  field([&](int s) { return static_cast<int>(st_.points[s]); });
  out += "-" + std::to_string(st_.fifty) + "-";
  for (int rank = r.height - 1; rank >= 0; --rank) {
    int empty = 0;
    std::string row;
    for (int f = 0; f < r.width; ++f) {
      const Piece p = st_.board[r.square(f, rank)];
      if (!isPiece(p)) { ++empty; continue; }  // chess.com counts the cut corners as empty
      if (empty) { row += (row.empty() ? "" : ",") + std::to_string(empty); empty = 0; }
      row += (row.empty() ? "" : ",");
      row += r.seats[seatOf(p)].letter;
      row += r.types[typeOf(p)].letter;
    }
    if (empty) row += (row.empty() ? "" : ",") + std::to_string(empty);
    out += row;
    if (rank) out += '/';
  }
  return out;
}

}  // namespace acedrex
