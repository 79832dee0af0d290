// The Triumvirate arena's position line (three-player chess, hex3), read and
// written by Position.
#include <algorithm>
#include <map>
#include <string>

#include "core/base/text_util.h"
#include "core/board/hex3.h"
#include "core/position/cells.h"
#include "core/position/position.h"

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

}  // namespace

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
  const int mover = f[1].size() == 1 ? seatByLetter(r, f[1][0]) : -1;
  if (mover < 0) return lineError("unknown seat to move \"" + f[1] + "\"");
  if (!isIn(mover)) return lineError("the seat to move is out");
  st_.toMove = static_cast<uint8_t>(mover);
  if (f[0] != "-")
    for (const std::string& tok : split(f[0], ',')) {
      // colour, piece letter, [> owner], cell
      const auto bad = [&] { return lineError("bad piece \"" + tok + "\" (e.g. wRA1 or bP>rA7)"); };
      if (tok.size() < 4) return bad();
      const int colour = seatByLetter(r, tok[0]);
      int type = r.typeByLetter(tok[1]);
      size_t at = 2;
      int owner = colour;
      if (tok[at] == '>') {
        if (tok.size() < 6) return bad();
        owner = seatByLetter(r, tok[at + 1]);
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
