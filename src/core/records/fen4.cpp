// chess.com's FEN4 (Rules::fen4ChessCom): the position-text key and
// chess.com's four-player position line, read and written.
#include "core/records/fen4.h"

#include <algorithm>
#include <cctype>
#include <string>

#include "core/base/text_util.h"
#include "core/position/cells.h"
#include "core/position/position.h"

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
// Variant-file key

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
  if (Status s = readRanks(fields[6], r, [&](int rank, const std::string& row, int& file) -> Status {
        return readCells(r, rank, row, file, true, [&](Square sq, const std::string& cell, const std::string& where) -> Status {
          const int seat = cell.size() == 2 ? seatByLetter(r, cell[0]) : -1;
          const int type = cell.size() == 2 ? r.typeByLetter(cell[1]) : -1;
          if (seat < 0 || type < 0) return fenError("unknown piece \"" + cell + "\"" + where);
          if (!isIn(seat) && !r.deadPieces) return fenError("a piece of a seat that is out: \"" + cell + "\"" + where);
          return placeRead(sq, makePiece(type, r.seats[seat].dir, seat));
        });
      });
      !s.ok())
    return s;
  return setSeatCastling(kside, qside);
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
