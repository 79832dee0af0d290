// Position text: Fairy-Stockfish FEN for two seats, the FEN4-like line for
// more (grammar in docs/notation.md); move text.
#include <algorithm>
#include <cassert>
#include <cctype>
#include <sstream>

#include "core/base/text_util.h"
#include "core/position/cells.h"
#include "core/position/position.h"

namespace acedrex {
namespace {

bool allDigits(const std::string& s) {
  return !s.empty() && s.size() <= 9 && std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

}  // namespace

// ---------------------------------------------------------------------------
// Position::set, step by step. Each step reads one part of the text or checks
// one rule about the whole position and returns an error carrying only its
// message; set() adds the position text as the location and undoes every
// step when one fails.

namespace {

Error fenError(std::string why) { return makeError("fen", std::move(why)); }

std::string trimmed(const std::string& text) {
  size_t a = 0, b = text.size();
  while (a < b && std::isspace(static_cast<unsigned char>(text[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(text[b - 1]))) --b;
  return text.substr(a, b - a);
}

}  // namespace

Status Position::set(const std::string& textIn) {
  const Position backup = *this;
  clear();
  const std::string text = trimmed(textIn);
  Status s = text.empty()              ? Status(fenError("empty position"))
             : rules_->fen4ChessCom   ? readFen4ChessCom(text)
             : rules_->triumvirateText && text.find(' ') != std::string::npos ? readTriumvirate(text)
             : rules_->nseats() == 2  ? readFen(text)
                                      : readFen4(text);
  if (rules_->unions) {
    if (s.ok()) s = checkUnions();  // unions.cpp: kings, pawns, a king already united
  } else {
    if (s.ok()) s = checkKings();
    if (s.ok()) s = checkMoveBound();
    if (s.ok()) s = checkPawns();
    if (s.ok()) s = startChecks();
  }
  if (!s.ok()) {
    *this = backup;
    return makeError("fen", s.error().message, "position \"" + textIn + "\"");
  }
  if (rules_->bareKingReply && rules_->nseats() == 2) {
    PlyEvents ev;
    applyBareKingReply(ev);
  }
  computeHash();
  finishIfDecided();
  undo_.clear();
  assert(isValid());
  return okStatus();
}

// Puts a piece read from the text, unless its seat's piece list is full.
Status Position::placeRead(Square s, Piece p) {
  const int seat = seatOf(p);
  if (st_.count[seat] >= kMaxPiecesPerSeat)
    return fenError("too many pieces: the " + rules_->seats[seat].name + " seat may have at most " +
                    std::to_string(kMaxPiecesPerSeat));
  put(s, p);
  return okStatus();
}

// Two seats: Fairy-Stockfish's FEN. The fields after the side to move may be
// left out (no rights, no en passant, counters 0 1).
Status Position::readFen(const std::string& text) {
  std::istringstream in(text);
  std::string board, side, castling = "-", ep = "-", half = "0", full = "1";
  in >> board >> side;
  if (side.empty()) return fenError("expected the board and the side to move");
  in >> castling >> ep >> half >> full;
  std::string extra;
  if (in >> extra) return fenError("unexpected text \"" + extra + "\"");
  if (rules_->drops)
    if (auto s = readFenHands(board); !s.ok()) return s;
  if (auto s = readFenBoard(board); !s.ok()) return s;
  if (side != "w" && side != "b") return fenError("the side to move is w or b, not \"" + side + "\"");
  st_.toMove = side == "w" ? 0 : 1;
  if (castling != "-")
    for (char c : castling)
      if (auto s = readFenRight(c); !s.ok()) return s;
  // With counting rules, a number in place of the en-passant square is the
  // counting limit, and the half-move field then counts its plies.
  const bool countField = rules_->counting != Counting::kNone && !ep.empty() && allDigits(ep);
  if (countField) st_.countLimit = std::min(std::stoi(ep.substr(0, 6)), 9999);
  else if (ep != "-")
    if (auto s = readFenEnPassant(ep); !s.ok()) return s;
  if (!allDigits(half) || !allDigits(full)) return fenError("the move counters must be numbers");
  st_.fifty = std::stoi(half);
  if (st_.countLimit) {
    st_.countPly = st_.fifty;
    st_.fifty = 0;
  }
  st_.ply = std::max(0, (std::stoi(full) - 1) * 2 + st_.toMove);
  return okStatus();
}

// The FEN board: upper case for the first seat, lower case for the second,
// digits for runs of empty squares.
Status Position::readFenBoard(const std::string& board) {
  const Rules& r = *rules_;
  return readRanks(board, r, [&](int rank, const std::string& row, int& file) -> Status {
    for (size_t j = 0; j < row.size(); ++j) {
      char c = row[j];
      // "+P": the promoted form of P (shogi).
      const bool plus = c == '+' && j + 1 < row.size();
      if (plus) c = row[++j];
      if (std::isdigit(static_cast<unsigned char>(c))) {
        size_t k = j;
        while (k < row.size() && std::isdigit(static_cast<unsigned char>(row[k]))) ++k;
        const int n = std::stoi(row.substr(j, std::min<size_t>(k - j, 3)));
        if (n < 1) return fenError("bad empty-square count in rank " + std::to_string(rank + 1));
        file += n;
        j = k - 1;
        if (file > r.width) return fenError("rank " + std::to_string(rank + 1) + " is too long");
        continue;
      }
      if (c == '*' && !plus) {
        if (file >= r.width) return fenError("rank " + std::to_string(rank + 1) + " is too long");
        if (auto s = readDuck(r.square(file++, rank)); !s.ok()) return s;
        continue;
      }
      // Unions (Rules::unions): one letter for the two pieces of a union (friendly.cpp).
      if (r.unions && !plus && file < r.width && readUnionLetter(c, r.square(file, rank))) {
        ++file;
        continue;
      }
      int type = r.typeByLetter(static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
      if (plus) {
        const int base = type;
        type = -1;
        for (size_t t = 0; t < r.types.size() && base >= 0; ++t)
          if (r.types[t].base == base) type = static_cast<int>(t);
      }
      if (type < 0 || !std::isalpha(static_cast<unsigned char>(c)))
        return fenError(std::string("unknown piece '") + (plus ? "+" : "") + c + "'");
      if (file >= r.width) return fenError("rank " + std::to_string(rank + 1) + " is too long");
      const int seat = std::isupper(static_cast<unsigned char>(c)) ? 0 : 1;
      const Square s = r.square(file, rank);
      if (r.blocked[s]) return fenError("a piece stands on a blocked square");
      if (auto placed = placeRead(s, makePiece(type, r.seats[seat].dir, seat)); !placed.ok()) return placed;
      // "Q~": a piece that was a pawn (crazyhouse).
      if (j + 1 < row.size() && row[j + 1] == '~') {
        if (!r.drops) return fenError("a promoted mark '~' in a game without drops");
        setPromoted(s, true);
        ++j;
      }
      ++file;
    }
    return okStatus();
  });
}

// One letter of the FEN's rights field: J (the king's leap), D (the double
// step), or a castling right: K, Q, or the file letter of the castling rook
// (Shredder-FEN). Upper case for the first seat.
Status Position::readFenRight(char c) {
  const Rules& r = *rules_;
  if (r.rightsByFile) return readFenFileRight(c);
  const int seat = std::isupper(static_cast<unsigned char>(c)) ? 0 : 1;
  const char u = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (u == 'J' && !r.kingLeaps.empty()) {
    st_.rights |= leapBit(seat);
    return okStatus();
  }
  if (u == 'D' && r.doubleRights == DoubleStepRights::kUntilCapture) {
    st_.rights |= doubleBit(seat);
    return okStatus();
  }
  if (!r.castlingRank) {
    if (u == 'J' || u == 'D') return okStatus();  // rights that these options switch off
    return fenError(std::string("unknown right '") + c + "'");
  }
  const Square k = st_.king[seat];
  if (k == kNoSquare) return fenError("castling right without a king");
  const int rank = r.rankOf(k);
  if (r.unions && (u == 'K' || u == 'Q')) {
    // Unions: the right belongs to the rook's home square, whatever stands there now.
    const int side = u == 'K' ? 0 : 1;
    st_.castleRook[seat][side] = static_cast<int16_t>(r.square(r.castleRookFile[side], rank));
    st_.rights |= castleBit(seat, side);
    return okStatus();
  }
  const int rookType = r.typeByLetter('R');
  Square rook = kNoSquare;
  if (u == 'K' || u == 'Q') {
    // As Fairy-Stockfish: from the rook's home file inward, the first rook of that seat.
    const int step = u == 'K' ? -1 : 1;
    for (int f = r.castleRookFile[u == 'K' ? 0 : 1]; f >= 0 && f < r.width; f += step) {
      const Piece q = st_.board[r.square(f, rank)];
      if (isPiece(q) && seatOf(q) == seat && typeOf(q) == rookType) {
        rook = r.square(f, rank);
        break;
      }
      if (r.square(f, rank) == k) break;
    }
  } else if (u >= 'A' && u < 'A' + r.width) {
    const Piece q = st_.board[r.square(u - 'A', rank)];
    if (isPiece(q) && seatOf(q) == seat && typeOf(q) == rookType) rook = r.square(u - 'A', rank);
  } else {
    return fenError(std::string("unknown castling right '") + c + "'");
  }
  if (rook == kNoSquare) return fenError(std::string("no rook for castling right '") + c + "'");
  const int side = r.fileOf(rook) > r.fileOf(k) ? 0 : 1;
  st_.castleRook[seat][side] = static_cast<int16_t>(rook);
  st_.rights |= castleBit(seat, side);
  return okStatus();
}

// rights-text = files: a right is the file letter of the square of the piece
// that holds it, on its seat's back rank (upper case for the first seat): the
// king's leap, or the first step. A letter naming another square is ignored.
Status Position::readFenFileRight(char c) {
  const Rules& r = *rules_;
  const int seat = std::isupper(static_cast<unsigned char>(c)) ? 0 : 1;
  const int file = std::toupper(static_cast<unsigned char>(c)) - 'A';
  if (file < 0 || file >= r.width) return fenError(std::string("unknown right '") + c + "'");
  const Square s = r.square(file, r.seats[seat].dir == kNorth ? 0 : r.height - 1);
  const Piece p = st_.board[s];
  if (!isPiece(p) || seatOf(p) != seat) return okStatus();
  if (typeOf(p) == r.royalType && !r.kingLeaps.empty()) st_.rights |= leapBit(seat);
  if (typeOf(p) == r.firstStepType) {
    st_.rights |= firstStepBit(seat);
    st_.firstStepSq[seat] = static_cast<int16_t>(s);
  }
  return okStatus();
}

// The seat's rights as file letters (rights-text = files), in file order.
std::string Position::fileRightsText(int seat) const {
  const Rules& r = *rules_;
  std::string out;
  for (int f = 0; f < r.width; ++f) {
    const bool leap = (st_.rights & leapBit(seat)) && r.fileOf(st_.king[seat]) == f;
    const bool step = (st_.rights & firstStepBit(seat)) && r.fileOf(st_.firstStepSq[seat]) == f;
    if (leap || step) out += static_cast<char>((seat == 0 ? 'A' : 'a') + f);
  }
  return out;
}

// The FEN's en-passant square: must be a square; kept only where the variant
// has en passant and a pawn could take there, as after the double step itself.
Status Position::readFenEnPassant(const std::string& field) {
  const Rules& r = *rules_;
  auto sq = r.parseSquare(field);
  if (!sq.ok()) return fenError("bad en-passant square \"" + field + "\"");
  if (!r.enPassant) return okStatus();
  const int dir = r.seats[1 - st_.toMove].dir;
  if (r.unions) {
    // Unions: the square a double step passed, kept whoever could use it.
    const Offset f = r.rotate({0, 1}, dir);
    const int vf = r.fileOf(*sq) + f.dx, vk = r.rankOf(*sq) + f.dy;
    if (!r.onBoard(vf, vk) || !isPiece(st_.board[r.square(vf, vk)]))
      return fenError("bad en-passant square \"" + field + "\"");
    st_.ep = static_cast<int16_t>(*sq);
    st_.epVictim = static_cast<int16_t>(r.square(vf, vk));
    return okStatus();
  }
  const Offset f = r.rotate({0, 1}, dir);
  const int vf = r.fileOf(*sq) + f.dx, vk = r.rankOf(*sq) + f.dy;
  if (!r.onBoard(vf, vk)) return fenError("bad en-passant square \"" + field + "\"");
  const Square victim = r.square(vf, vk);
  const Piece v = st_.board[victim];
  if (isPiece(v) && r.types[typeOf(v)].pawn && seatOf(v) != st_.toMove && st_.board[*sq] == kEmpty &&
      enemyPawnTakes(*sq, seatOf(v))) {
    st_.ep = static_cast<int16_t>(*sq);
    st_.epVictim = static_cast<int16_t>(victim);
  }
  return okStatus();
}

// More than two seats: the FEN4-like line (docs/notation.md), six fields
// separated by '-': seat to move, seats in, rights (none: *), fifty-move
// count, ply, board.
Status Position::readFen4(const std::string& text) {
  const Rules& r = *rules_;
  const auto fields = split(text, '-');
  if (fields.size() != 6)
    return fenError("expected 6 fields separated by '-': to-move, seats in, rights, fifty, ply, board");
  const int mover = fields[0].size() == 1 ? seatByLetter(r, fields[0][0]) : -1;
  if (mover < 0) return fenError("unknown seat to move \"" + fields[0] + "\"");
  st_.toMove = static_cast<uint8_t>(mover);
  st_.inMask = 0;
  for (char c : fields[1]) {
    const int seat = seatByLetter(r, c);
    if (seat < 0) return fenError(std::string("unknown seat '") + c + "' among the seats in");
    st_.inMask |= static_cast<uint8_t>(1u << seat);
  }
  if (!isIn(mover)) return fenError("the seat to move is not in");
  if (fields[2] != "*" && !fields[2].empty()) return fenError("this variant has no rights; write *");
  if (!allDigits(fields[3]) || !allDigits(fields[4])) return fenError("the counters must be numbers");
  st_.fifty = std::stoi(fields[3]);
  st_.ply = std::max(0, std::stoi(fields[4]) - 1);
  return readFen4Board(fields[5]);
}

// The FEN4 board: comma-separated cells, each a run of empty squares, x for
// a hole, or seat letter + piece letter [+ direction].
Status Position::readFen4Board(const std::string& board) {
  const Rules& r = *rules_;
  return readRanks(board, r, [&](int rank, const std::string& row, int& file) -> Status {
    return readCells(r, rank, row, file, false, [&](Square s, const std::string& cell, const std::string& where) -> Status {
      if (cell.size() < 2 || cell.size() > 3) return fenError("bad square \"" + cell + "\"" + where);
      const int seat = seatByLetter(r, cell[0]);
      const int type = r.typeByLetter(cell[1]);
      if (seat < 0 || type < 0) return fenError("unknown piece \"" + cell + "\"" + where);
      int dir = r.seats[seat].dir;
      if (cell.size() == 3) {
        dir = dirByLetter(cell[2]);
        if (dir < 0) return fenError("unknown direction in \"" + cell + "\"" + where);
      } else if (r.types[type].pawn) {
        return fenError("a pawn needs its direction (n, e, s or w): \"" + cell + "\"" + where);
      }
      if (!isIn(seat)) return fenError("a piece of a seat that is out: \"" + cell + "\"" + where);
      return placeRead(s, makePiece(type, dir, seat));
    });
  });
}

// Every seat in has exactly one king; seats out have none.
Status Position::checkKings() const {
  const Rules& r = *rules_;
  if (r.royalType < 0) return okStatus();  // no royal piece (antichess)
  for (int s = 0; s < r.nseats(); ++s) {
    int kings = 0;
    for (int i = 0; i < st_.count[s]; ++i)
      if (typeOf(st_.board[st_.seat[s].list[i]]) == r.royalType) ++kings;
    if (r.drops && s < 2) kings += st_.hand[s][r.royalType];  // drops = setup: a king in hand
    if (isIn(s) && kings != 1) return fenError("the " + r.seats[s].name + " seat needs exactly one king");
    if (r.bareKingLoses && isIn(s) && st_.count[s] == 1)
      return fenError("with bare-king=loses the " + r.seats[s].name + " seat, left with only its king, would be out");
  }
  return okStatus();
}

int Position::moveBound(int seat) const {
  const Rules& r = *rules_;
  if (r.drops) return dropMoveBound();
  std::array<int, kMaxSeats> bound{};
  int all = 0;
  for (int s = 0; s < r.nseats(); ++s) {
    for (int i = 0; i < st_.count[s]; ++i) bound[s] += r.typeMoveBound[typeOf(st_.board[st_.seat[s].list[i]])];
    all += bound[s];
  }
  if (r.mateEffect != MateEffect::kTakeover) return r.specialMoveBound + bound[seat];
  return r.specialMoveBound + all - keptByOthers(seat, bound);
}

// With takeover and last-standing, a seat moves only while another seat is
// still in, and that seat keeps its own pieces (it was never mated, so none
// of them changed hands): whatever the seat holds then excludes at least one
// other live seat's pieces of now. The least of those (per seat, of count or
// move bound) may be taken off the total; 0 when no other seat is in.
int Position::keptByOthers(int seat, const std::array<int, kMaxSeats>& perSeat) const {
  if (rules_->ending != Ending::kLastStanding) return 0;
  int least = -1;
  for (int s = 0; s < rules_->nseats(); ++s)
    if (s != seat && isIn(s) && (least < 0 || perSeat[s] < least)) least = perSeat[s];
  return std::max(least, 0);
}

// The piece lists and the move list must hold whatever can follow. A seat's
// pieces become more only by a takeover, which hands it another seat's; a
// piece changes its type only by promotion, which Rules::typeMoveBound
// counts in. So moveBound holds for every position that can follow.
Status Position::checkMoveBound() const {
  const Rules& r = *rules_;
  int total = 0;
  std::array<int, kMaxSeats> counts{};
  for (int s = 0; s < r.nseats(); ++s) total += counts[s] = st_.count[s];
  if (r.mateEffect == MateEffect::kTakeover)
    for (int s = 0; s < r.nseats(); ++s)
      if (isIn(s) && total - keptByOthers(s, counts) > kMaxPiecesPerSeat)
        return fenError("too many pieces: with takeover the " + r.seats[s].name + " seat could come to hold " +
                        std::to_string(total - keptByOthers(s, counts)) + ", more than " +
                        std::to_string(kMaxPiecesPerSeat));
  for (int s = 0; s < r.nseats(); ++s) {
    const int most = moveBound(s);
    if (most > r.moveCapacity)
      return fenError("too many pieces: the " + r.seats[s].name + " seat's pieces could make up to " +
                      std::to_string(most) + " moves, more than " + std::to_string(r.moveCapacity));
  }
  return okStatus();
}

// Pawns may not stand where they would already have promoted.
Status Position::checkPawns() const {
  const Rules& r = *rules_;
  if (r.promoChoices.empty() && r.promoByFile.empty()) return okStatus();
  for (Square s = 0; s < r.nsq(); ++s) {
    const Piece p = st_.board[s];
    if (isPiece(p) && r.types[typeOf(p)].pawn && r.onFarEdge(s, dirOf(p)))
      return fenError("a pawn on its last square at " + r.squareName(s));
  }
  return okStatus();
}

// The checks standing at the start: with two seats the side not to move may
// not be in check (unless a die may have made it lose its turn); with more,
// the checks standing are recorded as started by the seat that moved last.
Status Position::startChecks() {
  const Rules& r = *rules_;
  st_.checkSeat = -1;  // the seats in play were set apart from the board
  if (r.nseats() == 2) {
    if (inCheck(1 - st_.toMove) && r.die.empty()) return fenError("the side not to move is in check");
    st_.bikjang = r.bikjang && kingsFace();
    st_.checkSeat = -1;
    return okStatus();
  }
  int prev = st_.toMove;
  for (int i = 1; i < r.nseats(); ++i) {
    const int c = (st_.toMove - i + r.nseats()) % r.nseats();
    if (isIn(c)) {
      prev = c;
      break;
    }
  }
  st_.lastMover = static_cast<int8_t>(prev);
  st_.attackedBy.fill(0);
  updateChecks(prev, nullptr);
  return okStatus();
}

std::string Position::text() const {
  const Rules& r = *rules_;
  std::string out;
  if (r.fen4ChessCom) return fen4ChessComText();
  if (r.triumvirateText) return triumvirateText();
  if (r.nseats() == 2) {
    for (int rank = r.height - 1; rank >= 0; --rank) {
      int empty = 0;
      for (int f = 0; f < r.width; ++f) {
        const Piece p = st_.board[r.square(f, rank)];
        const bool duck = r.square(f, rank) == st_.duck;
        if (!isPiece(p) && !duck) { ++empty; continue; }
        if (empty) { out += std::to_string(empty); empty = 0; }
        if (duck) { out += '*'; continue; }
        if (r.unions && partner_[r.square(f, rank)] != kEmpty) {
          out += unionLetter(r.square(f, rank));
          continue;
        }
        const PieceType& t = r.types[typeOf(p)];
        if (t.base >= 0) out += '+';
        const char c = t.base >= 0 ? r.types[t.base].letter : t.letter;
        out += seatOf(p) == 0 ? c : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (r.drops && promotedOn(r.square(f, rank))) out += '~';
      }
      if (empty) out += std::to_string(empty);
      if (rank) out += '/';
    }
    if (r.drops) out += handText();
    out += st_.toMove == 0 ? " w " : " b ";
    std::string rights;
    for (int seat = 0; seat < 2; ++seat) {
      if (r.rightsByFile) {
        rights += fileRightsText(seat);
        continue;
      }
      std::string part;
      for (int side = 0; side < 2; ++side) {
        if (!(st_.rights & castleBit(seat, side))) continue;
        // K/Q when reading that letter finds this rook (see set()), else the rook's file.
        const Square rook = st_.castleRook[seat][side];
        const int rank = r.rankOf(rook);
        const int rookType = r.typeByLetter('R');
        const int step = side == 0 ? -1 : 1;
        Square found = kNoSquare;
        for (int f = r.castleRookFile[side]; f >= 0 && f < r.width; f += step) {
          const Piece q = st_.board[r.square(f, rank)];
          if (isPiece(q) && seatOf(q) == seat && typeOf(q) == rookType) { found = r.square(f, rank); break; }
        }
        if (r.unions) found = rook;  // unions: always K and Q (see readFenRight)
        part += found == rook && !r.castlingOntoRook ? (side == 0 ? 'K' : 'Q') : static_cast<char>('A' + r.fileOf(rook));
      }
      if (st_.rights & leapBit(seat)) part += 'J';
      if (st_.rights & doubleBit(seat)) part += 'D';
      if (seat == 1)
        std::transform(part.begin(), part.end(), part.begin(), [](char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); });
      rights += part;
    }
    out += rights.empty() ? "-" : rights;
    if (st_.countLimit) {
      out += " " + std::to_string(shownCountLimit()) + " " + std::to_string(st_.countPly);
    } else {
      out += " " + (st_.ep == kNoSquare ? std::string("-") : r.squareName(st_.ep));
      out += " " + std::to_string(st_.fifty);
    }
    out += " " + std::to_string(st_.ply / 2 + 1);
    return out;
  }
  out += r.seats[st_.toMove].letter;
  out += '-';
  for (int s = 0; s < r.nseats(); ++s)
    if (isIn(s)) out += r.seats[s].letter;
  out += "-*-" + std::to_string(st_.fifty) + "-" + std::to_string(st_.ply + 1) + "-";
  for (int rank = r.height - 1; rank >= 0; --rank) {
    int empty = 0;
    std::string row;
    auto cell = [&](const std::string& c) {
      if (empty) { row += (row.empty() ? "" : ",") + std::to_string(empty); empty = 0; }
      row += (row.empty() ? "" : ",") + c;
    };
    for (int f = 0; f < r.width; ++f) {
      const Square s = r.square(f, rank);
      const Piece p = st_.board[s];
      if (p == kBlocked) { cell("x"); continue; }
      if (p == kEmpty) { ++empty; continue; }
      std::string c{r.seats[seatOf(p)].letter, r.types[typeOf(p)].letter};
      if (r.types[typeOf(p)].pawn || dirOf(p) != r.seats[seatOf(p)].dir) c += kDirLetters[dirOf(p)];
      cell(c);
    }
    if (empty) row += (row.empty() ? "" : ",") + std::to_string(empty);
    out += row;
    if (rank) out += '/';
  }
  return out;
}

std::string Position::moveText(Move m) const {
  if (m.isNull()) return "0000";
  if (m.isDrop()) return std::string(1, rules_->types[m.dropType()].letter) + "@" + rules_->squareName(m.to());
  if (rules_->unions) [[unlikely]] return unionMoveText(m);  // a turn's steps (friendly.cpp)
  // Chess960 notation: castling is the king's move onto its own rook.
  const Square to = m.flag() == kCastle && rules_->castlingOntoRook ? st_.castleRook[st_.toMove][castleSide(m)] : m.to();
  std::string t = rules_->squareName(m.from()) + rules_->squareName(to);
  if (m.promo() >= 0 && rules_->types[m.promo()].base >= 0) t += '+';
  else if (m.promo() >= 0) t += static_cast<char>(std::tolower(static_cast<unsigned char>(rules_->types[m.promo()].letter)));
  if (rules_->duck) [[unlikely]] t += duckText(m, to);
  return t;
}

Result<Move> Position::parseMove(const std::string& text) {
  if (finished()) return makeError("move", "the game is over", "move \"" + text + "\"");
  if (rules_->duck) [[unlikely]] return parseDuckTurn(text);
  return parseMoveAlone(text);
}

Result<Move> Position::parseMoveAlone(const std::string& text) {
  std::vector<Move> list;
  if (rules_->unions) [[unlikely]] {
    appendUnionTurns(list);
  } else {
    MoveList moves;
    legalMoves(moves);
    list.assign(moves.begin(), moves.end());
  }
  for (Move m : list)
    if (moveText(m) == text) return m;
  // Say why: malformed, or well-formed but not legal here.
  const Rules& r = *rules_;
  size_t i = 1;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
  auto from = r.parseSquare(text.substr(0, i));
  size_t j = i + 1;
  while (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j]))) ++j;
  auto to = i < text.size() ? r.parseSquare(text.substr(i, j - i)) : Result<Square>(makeError("square", ""));
  if (text == "0000") return makeError("move", "a lost turn (0000) is only played when the die allows no move", "move \"" + text + "\"");
  if (!from.ok() || !to.ok() || text.size() > j + 1)
    return makeError("move", "not a move: write from-square, to-square and a promotion letter (e.g. b2b4, c7c8f)", "move \"" + text + "\"");
  const Piece p = st_.board[*from];
  if (!isPiece(p)) return makeError("move", "no piece on " + r.squareName(*from), "move \"" + text + "\"");
  if (seatOf(p) != st_.toMove)
    return makeError("move", "the piece on " + r.squareName(*from) + " is not " + r.seats[st_.toMove].name + "'s", "move \"" + text + "\"");
  for (Move m : list)
    if (m.from() == *from && m.to() == *to)
      return makeError("move", m.promo() >= 0 ? "this promotion needs a valid piece letter" : "no promotion here", "move \"" + text + "\"");
  MoveList pseudo;
  pseudoMoves(pseudo);
  for (Move m : pseudo)
    if (m.from() == *from && m.to() == *to)
      return makeError("move", "it would leave the king attacked", "move \"" + text + "\"");
  return makeError("move", "that piece cannot move there", "move \"" + text + "\"");
}

}  // namespace acedrex
