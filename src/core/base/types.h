// Basic value types shared by the rules library: squares, pieces, moves.
#pragma once

#include <cstdint>
#include <string>

namespace acedrex {

constexpr int kMaxFiles = 16;
constexpr int kMaxRanks = 16;
constexpr int kMaxSquares = kMaxFiles * kMaxRanks;
constexpr int kMaxSeats = 8;
constexpr int kMaxPieceTypes = 14;  // type 14 with dir 3 / seat 7 would collide with kBlocked
constexpr int kMaxKinds = 64;       // a kind is (type + 1) * 4 + direction
constexpr int kMaxDieFaces = 32;
constexpr int kMaxHand = 64;        // the most pieces of one type in one hand
constexpr int kNoSquare = -1;
// How many moves a MoveList holds. A list lives on the stack at every ply of
// a search: 2048 measured 8% slower perft in Four Seasons (7% in Joko) than
// 1024. Each variant's Rules::moveCapacity must fit in it; a game that needs
// longer lists raises this one number.
constexpr int kMoveListCapacity = 1024;

// A square is rank * width + file, rank 0 at the bottom, file 0 on the left.
using Square = int;

// The four ways a piece can face. A piece's "forward" is its direction; a
// pawn's direction belongs to the piece, not to its owner.
enum Dir : uint8_t { kNorth = 0, kEast = 1, kSouth = 2, kWest = 3 };

// A piece on the board: bits 5-8 type + 1, bits 3-4 direction, bits 0-2 seat.
// 0 is an empty square; kBlocked is a hole in the board. Every piece value
// is below kPieceValues (the Zobrist keys are indexed by it).
using Piece = uint16_t;
constexpr Piece kEmpty = 0;
constexpr Piece kBlocked = 0x1FF;
constexpr int kPieceValues = 512;

constexpr Piece makePiece(int type, int dir, int seat) {
  return static_cast<Piece>(((type + 1) << 5) | (dir << 3) | seat);
}
constexpr int typeOf(Piece p) { return (p >> 5) - 1; }
constexpr int dirOf(Piece p) { return (p >> 3) & 3; }
constexpr int seatOf(Piece p) { return p & 7; }
constexpr int kindOf(Piece p) { return static_cast<int>(static_cast<unsigned>(p) >> 3); }
constexpr int kindOf(int type, int dir) { return ((type + 1) << 2) | dir; }
// One unsigned comparison (kEmpty wraps round to the top).
constexpr bool isPiece(Piece p) { return static_cast<Piece>(p - 1) < static_cast<Piece>(kBlocked - 1); }
// No piece's kind is that of an empty square or a hole, so a test of a
// kinds mask (a bit per kind) is false for both without asking isPiece.
static_assert(kindOf(kEmpty) == 0 && kindOf(kBlocked) == kMaxKinds - 1);
static_assert(kindOf(0, 0) > 0 && kindOf(kMaxPieceTypes - 1, 3) < kMaxKinds - 1);
constexpr Piece withSeat(Piece p, int seat) { return static_cast<Piece>((p & ~7) | seat); }

// A move packs from, to, a promotion type and a flag into 24 bits; the top 8
// bits hold the duck's square + 1 in a game with a duck (Rules::duck: one
// turn is the move and the duck's placement), 0 otherwise.
enum MoveFlag : uint8_t {
  kNormal = 0,
  kDoubleStep = 1,  // a pawn's two-square step (sets the en-passant square where allowed)
  kEnPassant = 2,
  kCastle = 3,      // the king's two-square move; the rook follows
  kKingLeap = 4,    // the Grant Acedrex king's first leap
  kNullMove = 5,    // a lost turn ("0000")
  kPass = 6,        // a pass where the rules allow it: the king "moves" to its own square
  kDrop = 7,        // a piece from the hand onto to(); promo() is its type, from() == to()
};

class Move {
 public:
  constexpr Move() = default;
  constexpr Move(Square from, Square to, MoveFlag flag = kNormal, int promo = -1)
      : v_(static_cast<uint32_t>(from) | (static_cast<uint32_t>(to) << 8) |
           (static_cast<uint32_t>(promo + 1) << 16) | (static_cast<uint32_t>(flag) << 20)) {}
  static constexpr Move null() { return Move(0, 0, kNullMove); }
  static constexpr Move drop(int type, Square to) { return Move(to, to, kDrop, type); }
  static constexpr Move fromRaw(uint32_t v) {
    Move m;
    m.v_ = v;
    return m;
  }

  constexpr Square from() const { return static_cast<Square>(v_ & 0xFF); }
  constexpr Square to() const { return static_cast<Square>((v_ >> 8) & 0xFF); }
  // The promotion type, or -1 (a drop has none: its type is dropType()).
  constexpr int promo() const { return flag() == kDrop ? -1 : static_cast<int>((v_ >> 16) & 0xF) - 1; }
  constexpr int dropType() const { return static_cast<int>((v_ >> 16) & 0xF) - 1; }
  constexpr MoveFlag flag() const { return static_cast<MoveFlag>((v_ >> 20) & 0xF); }
  constexpr bool isNull() const { return flag() == kNullMove; }
  constexpr bool isDrop() const { return flag() == kDrop; }
  // The duck's square of a duck turn, or kNoSquare (a move alone).
  constexpr Square duck() const { return static_cast<Square>(v_ >> 24) - 1; }
  constexpr Move withDuck(Square s) const { return fromRaw((v_ & 0xFFFFFFu) | (static_cast<uint32_t>(s + 1) << 24)); }
  constexpr Move withoutDuck() const { return fromRaw(v_ & 0xFFFFFFu); }
  constexpr uint32_t raw() const { return v_; }
  constexpr bool operator==(const Move& o) const { return v_ == o.v_; }
  constexpr bool operator!=(const Move& o) const { return v_ != o.v_; }

 private:
  uint32_t v_ = 0;
};

}  // namespace acedrex
