// The board of the many-seat position lines (the engine's FEN4-like line,
// position/text.cpp, and chess.com's FEN4, records/fen4.cpp): ranks from the
// top separated by '/', each a list of cells separated by commas: a run of
// empty squares, x for a hole, or a piece (seat letter, piece letter, ...).
// For the core's readers only.
#pragma once

#include <string>

#include "core/base/result.h"
#include "core/base/text_util.h"
#include "core/variant/variant.h"

namespace acedrex {

// The seat whose letter is c, or -1.
inline int seatByLetter(const Rules& r, char c) {
  for (int s = 0; s < r.nseats(); ++s)
    if (r.seats[s].letter == c) return s;
  return -1;
}

inline Error cellError(std::string why) { return makeError("fen", std::move(why)); }

// The board part: as many ranks as the board has, top first, separated by
// '/'. readRank(rank, text, file) reads one, counting the squares in file;
// each rank must fill the board's width.
template <class ReadRank>
Status readRanks(const std::string& board, const Rules& r, ReadRank&& readRank) {
  const auto ranks = split(board, '/');
  if (static_cast<int>(ranks.size()) != r.height)
    return cellError("expected " + std::to_string(r.height) + " ranks, found " + std::to_string(ranks.size()));
  for (int i = 0; i < r.height; ++i) {
    const int rank = r.height - 1 - i;
    int file = 0;
    if (Status s = readRank(rank, ranks[i], file); !s.ok()) return s;
    if (file != r.width)
      return cellError("rank " + std::to_string(rank + 1) + " has " + std::to_string(file) + " squares, not " +
                       std::to_string(r.width));
  }
  return okStatus();
}

// The cells of one rank, counting the squares in file. A run of empty
// squares may count holes when runsCountHoles (chess.com counts its cut
// corners as empty), else it may not cross one; x must stand on a hole. A
// piece cell goes to readPiece(square, cell, where), where is " in rank N"
// for its errors.
template <class ReadPiece>
Status readCells(const Rules& r, int rank, const std::string& row, int& file, bool runsCountHoles, ReadPiece&& readPiece) {
  const std::string where = " in rank " + std::to_string(rank + 1);
  for (const std::string& cell : split(row, ',')) {
    if (!cell.empty() && cell.size() <= 6 && std::all_of(cell.begin(), cell.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      const int n = std::stoi(cell);
      if (runsCountHoles) {
        file += n;
        if (file > r.width) return cellError("too many squares" + where);
        continue;
      }
      for (int k = 0; k < n; ++k, ++file)
        if (file >= r.width || r.blocked[r.square(file, rank)])
          return cellError("empty run crosses a blocked square or the edge" + where);
      continue;
    }
    if (file >= r.width) return cellError("too many squares" + where);
    const Square s = r.square(file, rank);
    if (cell == "x") {
      if (!r.blocked[s]) return cellError("x on a square that is not blocked" + where);
      ++file;
      continue;
    }
    if (r.blocked[s]) return cellError("a piece on the blocked square " + r.squareName(s) + " (write x)");
    if (Status st = readPiece(s, cell, where); !st.ok()) return st;
    ++file;
  }
  return okStatus();
}

}  // namespace acedrex
