// Position: a board and the state the rules need, with make/unmake.
//
// It knows every rule that decides which moves are legal and what a move or
// a turn start does: captures, promotion, castling, the king's first leap,
// king capture with its takeover or removal, the bare king, mate and
// stalemate at a turn start, who gets the credit for a mate, and when the
// game is over. History rules (repetition, the fifty-move count's draw),
// coins and the die live in Game.
#pragma once

#include <array>
#include <cassert>
#include <cstdint>
#include <cstddef>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/mechanisms/unions.h"
#include "core/base/result.h"
#include "core/base/types.h"
#include "core/variant/variant.h"

namespace acedrex {


// The moves of one position. Position::set refuses a position whose pieces
// could ever generate more than Rules::moveCapacity (Position::moveBound),
// and every variant's capacity fits in kCapacity, so a list cannot fill up;
// push() still checks, and asserts in debug builds. The array is left
// unfilled when a list is made (a Move's own initializer would zero all of
// it on every make of a list, once per node); only pushed entries are read.
class MoveList {
 public:
  static constexpr int kCapacity = kMoveListCapacity;
  MoveList() {}  // user-provided, so that even MoveList{} does not fill moves_
  void push(Move m) {
    assert(n_ < kCapacity);
    if (n_ < kCapacity) [[likely]] moves_[n_++] = m;
  }
  int size() const { return n_; }
  bool empty() const { return n_ == 0; }
  Move operator[](int i) const { return moves_[i]; }
  void clear() { n_ = 0; }
  void truncate(int n) {
    assert(n >= 0 && n <= n_);
    n_ = n;
  }
  void set(int i, Move m) { moves_[i] = m; }
  const Move* begin() const { return moves_; }
  const Move* end() const { return moves_ + n_; }

 private:
  union {
    Move moves_[kCapacity];
  };
  int n_ = 0;
};

// How a seat went out.
// kOpponentNoMoves: stalemate=win, the other seat had no move (antichess).
enum class OutReason : uint8_t {
  kMated, kStalemated, kKingCaptured, kBareKing, kResigned, kTimeout, kOpponentNoMoves, kRepetition, kPerpetualCheck,
  kPerpetualChase  // chasing.h
};
// Its name, as the API writes it: "checkmate", "stalemate", "king-captured",
// "bare-king", "resign", "timeout", "opponent-no-moves"; and back (nullopt for any other text).
std::string_view nameOf(OutReason reason);
std::optional<OutReason> parseOutReason(std::string_view name);

enum class ResultKind : uint8_t {
  kOngoing,
  kWin,         // one winner; the others are placed by the order they went out
  kDraw,        // the seats still in share the first place
  kFirstMate,   // Joko: the winner is first, all others share second
  kOthersDraw,  // Joko: a stalemated seat is last, the others share first
};

// What one ply (a move or a turn-start elimination) did; Game reads it for coins.
struct PlyEvents {
  int mover = -1;
  int capturedOwner = -1;       // owner of a captured non-royal piece
  struct Out { int seat; OutReason reason; int by; int pieces; };
  std::array<Out, kMaxSeats> outs{};
  int nOuts = 0;
  std::array<uint8_t, kMaxSeats> checkStarts{};  // per king owner: seats that started a check
};

constexpr int kMaxPiecesPerSeat = 96;

// Per seat, the squares (square * kMaxSeats + attacking seat) from which
// live enemy pieces attack its king (chaturaji's threat points, mechanisms/points.cpp).
struct KingThreats {
  static constexpr int kMax = 48;
  std::array<uint8_t, kMaxSeats> n{};
  std::array<std::array<uint16_t, kMax>, kMaxSeats> from{};
};

class Position {
 public:
  explicit Position(std::shared_ptr<const Rules> rules);

  // Sets up from position text (FEN for 2 seats, FEN4-like for more).
  Status set(const std::string& text);
  std::string text() const;  // the position text, the inverse of set()

  const Rules& rules() const { return *rules_; }
  const std::shared_ptr<const Rules>& rulesPtr() const { return rules_; }
  Piece at(Square s) const { return st_.board[s]; }
  // Unions (Rules::unions): the second seat's piece of a union on s (at(s)
  // is the first seat's), or kEmpty.
  Piece partnerAt(Square s) const;
  int toMove() const { return st_.toMove; }
  uint8_t inMask() const { return st_.inMask; }
  bool isIn(int seat) const { return (st_.inMask >> seat) & 1; }
  int seatsIn() const { return __builtin_popcount(st_.inMask); }
  Square kingSquare(int seat) const { return st_.king[seat]; }
  int pieceCount(int seat) const { return st_.count[seat]; }
  Square pieceSquare(int seat, int i) const { return st_.seat[seat].list[i]; }  // i < pieceCount(seat)
  uint64_t hash() const { return st_.hash; }
  int handCount(int seat, int type) const { return st_.hand[seat][type]; }
  bool handEmpty(int seat) const {  // (two seats) no piece of any type in the seat's hand
    static_assert(kMaxPieceTypes >= 8 && kMaxPieceTypes <= 16);
    uint64_t lo = 0, hi = 0;
    std::memcpy(&lo, st_.hand[seat].data(), 8);
    std::memcpy(&hi, st_.hand[seat].data() + 8, kMaxPieceTypes - 8);
    return (lo | hi) == 0;
  }
  bool promotedOn(Square s) const { return (st_.promoted[s >> 6] >> (s & 63)) & 1; }
  int fifty() const { return st_.fifty; }
  // The counting rules: whether the count has run out (a draw; Game applies it).
  bool countingExpired() const { return st_.countLimit && st_.countPly > shownCountLimit(); }
  int countLimit() const { return st_.countLimit; }
  // insufficient-material (two seats): neither side can mate.
  bool insufficientMaterial() const;
  // insufficient-material = mating-pieces: whether the seat cannot mate (counting.cpp).
  bool cannotMate(int seat) const;
  int countPly() const { return st_.countPly; }
  // The limit as the FEN writes it (Ouk Chatrang's board's honour caps it at 126).
  int shownCountLimit() const {
    return rules_->counting == Counting::kCambodian && st_.countLimit > 126 ? 126 : st_.countLimit;
  }
  int ply() const { return st_.ply; }
  uint64_t rights() const { return st_.rights; }
  Square epSquare() const { return st_.ep; }
  bool bikjang() const { return st_.bikjang; }  // kings facing (Rules::bikjang)
  bool lastWasPass() const { return st_.passed; }
  bool finished() const { return st_.result != ResultKind::kOngoing; }
  ResultKind result() const { return st_.result; }
  int winner() const { return st_.winner; }  // kWin / kFirstMate: the winner; kOthersDraw: the last
  // The seat that moves after `seat`: the next one in turn order still in.
  int nextSeat(int seat) const;
  int outCount() const { return st_.outCount; }
  int outSeat(int i) const { return st_.outOrder[i]; }
  int piecesAtOut(int seat) const { return st_.piecesAtOut[seat]; }
  uint8_t checkersOf(int seat) const { return st_.attackedBy[seat]; }
  const PlyEvents& lastEvents() const { return undo_.back().events; }
  int undoDepth() const { return static_cast<int>(undo_.size()); }
  // The duck's square (Rules::duck), or kNoSquare before its first placement.
  Square duckSquare() const { return st_.duck; }
  // The history a repetition rule reads (chasing.cpp): the board `back`
  // plies ago and who was to move then (0: now; back <= undoDepth()).
  const std::array<Piece, kMaxSquares>& boardAgo(int back) const {
    return back == 0 ? st_.board : undo_[undo_.size() - static_cast<size_t>(back)].saved.board;
  }
  int toMoveAgo(int back) const { return back == 0 ? st_.toMove : undo_[undo_.size() - static_cast<size_t>(back)].saved.toMove; }

  // Places (1 = first) when finished; shared places share a number; 0 if none.
  std::array<int, kMaxSeats> places() const;

  // Move generation.
  void pseudoMoves(MoveList& out) const;
  // For quiescence: exactly the moves of pseudoMoves that capture (en passant
  // included) or promote, quiet promotions included, in the same order,
  // without generating the quiet moves.
  void pseudoCaptures(MoveList& out) const;
  // Whether the pseudo-legal m is one that pseudoCaptures generates.
  bool isCaptureOrPromotion(Move m) const;
  void legalMoves(MoveList& out);
  // Every legal turn: legalMoves, and with a duck (core/mechanisms/duck.cpp) each legal
  // move once per square the duck may go to after it (duck turns are too many
  // for a MoveList: moves times empty squares); with unions, every turn
  // (a turn's chains can end in thousands of ways; legalMoves keeps the
  // shortest turns that fit).
  void legalTurns(std::vector<Move>& out);
  // Duck games: appends m (a legal move, its duck square ignored) once per
  // square the duck may go to after it: every empty square but the duck's own.
  void appendDuckTurns(Move m, std::vector<Move>& out);
  // Duck games: how many such squares, without making m.
  int duckTurnCount(Move m) const;
  // Whether `seats` would still attack s with one more blocker (the duck) on
  // the empty square `block`; for the engine's choice of the duck's square.
  bool attackedPast(Square s, uint8_t seats, Square block);
  // Unions (mechanisms/unions.cpp): appends every legal turn (legalTurns).
  void appendUnionTurns(std::vector<Move>& out);
  // m must be pseudo-legal. Most moves are judged inline (offLineLegal);
  // the rest, and every move of a game with rare legality rules, out of line.
  bool isLegal(Move m) {
    if (fastLegality_ && offLineLegal(m) && (fastLegality_ == kFastAll || st_.board[m.to()] == kEmpty)) [[likely]]
      return true;
    return judgeLegal(m);
  }
  int countLegal();
  // Seats among `seats` whose pieces attack s (could capture an enemy there).
  uint8_t attackers(Square s, uint8_t seats) const;
  // The same without the flying general (janggi's bikjang is no check).
  uint8_t pieceAttackers(Square s, uint8_t seats) const;
  bool attacked(Square s, uint8_t seats) const { return attackers(s, seats) != 0; }
  bool inCheck(int seat) const { return st_.checkSeat == seat ? st_.checkValue : computeCheck(seat); }
  // False only when the pseudo-legal move m surely leaves no other seat's king
  // attacked by a seat that did not attack it before: a plain move (no
  // castling, en passant, promotion or king leap) whose squares lie on no line
  // to such a king and whose piece cannot leap onto it from its target. A cheap
  // filter before make(); true proves nothing.
  bool mayGiveCheck(Move m) const;
  uint8_t enemiesOf(int seat) const { return st_.inMask & ~rules_->friends[seat]; }
  // Free-for-all points (Rules::capturePoints), as the position text carries them.
  int points(int seat) const { return st_.points[seat]; }

  // State changes; each pushes an undo record.
  void make(Move m) { makeImpl(m, true); }
  void unmake();
  // When the seat to move has no legal move: mate or stalemate, applied now.
  void applyTurnStart();
  // A seat resigns or runs out of time: out, its pieces leave the board.
  void removeSeat(int seat, OutReason reason);
  // Ends the game as a draw among the seats still in (repetition, fifty, agreement).
  void declareDraw();
  // Ends the game as a win for the seat (perpetual check, material counting).
  void declareWinner(int seat);
  // Material counting (Rules::materialPoints): the winning seat.
  int materialCountWinner() const;

  // Move text: from-square, to-square, promotion letter; "0000" a lost turn;
  // a duck turn adds ",", the destination and the duck's square (e2e4,e4d5).
  // A move without its duck square leaves the duck where it stands: only the
  // engine's look-ahead makes such moves; legal turns always have one.
  std::string moveText(Move m) const;
  Result<Move> parseMove(const std::string& text);  // must be legal here

  // The most moves the seat's pieces could make in this or any later
  // position (Rules::typeMoveBound per piece, plus castling and leaps; with
  // takeover, every seat's pieces but those another seat still in keeps,
  // keptByOthers): set() refuses a position where it exceeds Rules::moveCapacity.
  int moveBound(int seat) const;
  // With takeover: the least piece count or move bound (perSeat) among the
  // other seats still in, which the seat can never come to hold (position/text.cpp).
  int keptByOthers(int seat, const std::array<int, kMaxSeats>& perSeat) const;

  // Consistency of the board, piece lists, kings, rights, en passant and hash:
  // for tests and fuzzers, and asserted after every state change in debug builds.
  bool isValid(std::string* why = nullptr) const;

  // Whether a mate standing now came from a drop that may not mate (Rules::dropMate):
  // then the side that dropped loses.
  bool dropMateLoses() const;

  // Fairy-Stockfish's sittuyin stalemate (promotion-move): the seat to move,
  // not in check, has its king and one pawn, and its only legal moves are
  // promotions, which it need not make: a draw (Game applies it).
  bool onlyPromotionMovesLeft();

 private:
  struct State {
    std::array<Piece, kMaxSquares> board;
    std::array<uint8_t, kMaxSeats> count;
    std::array<uint8_t, kMaxSquares> index;
    std::array<int16_t, kMaxSeats> king;
    std::array<std::array<int16_t, 2>, kMaxSeats> castleRook;  // rook square per side, or -1
    uint64_t hash;
    uint64_t rights;  // bits: castling 2/seat (0-15), king leap (16-23), double step (24-31), first step (32-39)
    int16_t ep, epVictim;
    int fifty, ply;
    uint8_t toMove, inMask;
    std::array<uint8_t, kMaxSeats> attackedBy;
    std::array<uint8_t, kMaxSeats> outOrder;
    std::array<uint8_t, kMaxSeats> piecesAtOut;
    uint8_t outCount;
    ResultKind result;
    int8_t winner;
    int8_t lastMover;
    // Whether checkSeat's king is attacked, remembered until the board or
    // the seats in play change (-1: nothing remembered).
    mutable int8_t checkSeat;
    mutable bool checkValue;
    bool passed;   // the last ply was a pass (kPass)
    // stalemate = pass: how many seats in a row passed at their turn start
    // for want of a move (all seats still in: the game is drawn).
    uint8_t stalePasses;
    bool bikjang;  // the kings face each other on an open file (Rules::bikjang)
    // Hands and drops (drops.cpp).
    std::array<std::array<uint8_t, kMaxPieceTypes>, 2> hand;  // per seat and type
    std::array<uint64_t, kMaxSquares / 64> promoted;          // pieces that were pawns (they demote when taken)
    int8_t lastDrop;                                           // the type the last move dropped, or -1
    // The square of the piece with the first-step right, per seat (Rules::firstStepType).
    std::array<int16_t, kMaxSeats> firstStepSq;
    // The counting rules (Rules::counting): the limit in plies (0: not
    // counting) and the plies counted so far.
    int countLimit, countPly;
    // The duck's square (Rules::duck), or kNoSquare while it is off the board.
    int16_t duck;
    // Four-player chess's points per seat (Rules::capturePoints; mechanisms/points.cpp).
    std::array<int16_t, kMaxSeats> points;
    // En passant with more than two seats: per seat, the square its last
    // move's double step skipped and the pawn that made it (or kNoSquare),
    // kept until that seat moves again.
    std::array<int16_t, kMaxSeats> seatEp, seatEpVictim;
    // Last, what each seat has that is long: its piece list and, per king
    // owner, which seat's check started on which ply. A game of n seats
    // saves and restores the state only up to the end of seat[n - 1]
    // (copyBytes_), so the seats it does not have cost no copying.
    struct SeatPart {
      std::array<uint8_t, kMaxPiecesPerSeat> list;
      std::array<int, kMaxSeats> checkPly;
      std::array<int8_t, kMaxSeats> checkMover;
    };
    std::array<SeatPart, kMaxSeats> seat;
  };
  struct Undo {
    State saved;  // the state before the ply (copy-on-make), its first copyBytes_ bytes
    PlyEvents events;
    Undo() {}     // saved is left unset: pushState copies into it
  };
  // Pushes an undo record holding the state (its first copyBytes_ bytes).
  Undo& pushState() {
    Undo& u = undo_.emplace_back();
    std::memcpy(static_cast<void*>(&u.saved), &st_, copyBytes_);
    return u;
  }

  // The steps of set() (position/text.cpp): each reads one part of the text or
  // checks one rule and returns an error with its message only.
  Status readFen(const std::string& text);
  Status readFenBoard(const std::string& board);
  Status readFenRight(char letter);
  Status readFenEnPassant(const std::string& field);
  Status readFen4(const std::string& text);
  Status readFen4Board(const std::string& board);
  Status placeRead(Square s, Piece p);
  Status checkKings() const;
  Status checkMoveBound() const;
  Status checkPawns() const;
  Status startChecks();

  void clear();
  void put(Square s, Piece p);
  void remove(Square s);
  void movePiece(Square from, Square to);
  void recolour(int from, int to);
  void eliminate(int seat, OutReason reason, int by, PlyEvents& ev);
  void afterConsequences(PlyEvents& ev, bool full);
  void updateChecks(int mover, PlyEvents* ev);
  bool enemyPawnTakes(Square s, int seat) const;
  // Bikjang (Rules::bikjang): sets st_.bikjang after a ply and ends the game
  // by material counting when it stood before as well, or after two passes.
  void afterBikjang();
  bool kingsFace() const;  // the side to move's king faces an enemy king
  // Flying general: seats among `seats` whose king sees s along its file.
  template <bool kGenerals>
  uint8_t attackersOf(Square s, uint8_t seats) const;  // attackers(), with or without the flying general
  uint8_t flyingGenerals(Square s, uint8_t seats) const;  // a pawn of another seat could capture on s
  int mateCredit(int seat) const;
  void makeImpl(Move m, bool full);
  bool computeCheck(int seat) const;  // inCheck without the remembered answer
  // isLegal's fast path: a normal move or double step (a promotion too) of a
  // piece other than the king, taking no king and leaving no seat bare,
  // that leaves no square on a line to the mover's king and enters none a
  // hopper could use as a screen against it, while that king is not in
  // check, is legal (a king-less seat's moves all are). False proves nothing.
  bool offLineLegal(Move m) const {
    if (m.flag() > kDoubleStep) return false;
    const Rules& r = *rules_;
    const Square from = m.from(), to = m.to();
    if (typeOf(st_.board[from]) == r.royalType) return false;
    const Piece cap = st_.board[to];
    if (isPiece(cap) && (typeOf(cap) == r.royalType || (r.bareKingLoses && st_.count[seatOf(cap)] == 2))) return false;
    const int us = st_.toMove;
    const Square king = st_.king[us];
    return king == kNoSquare || (!r.onLine(king, from) && !r.onHopLine(king, to) && !inCheck(us));
  }
  bool judgeLegal(Move m);  // isLegal after the fast path
  enum class GenType { kAll, kCaptures };  // kCaptures: captures and promotions
  template <GenType kGen>
  void genPieces(MoveList& out) const;  // the moves of the pieces of the seat to move
  template <GenType kGen>
  void genPiece(Square s, Piece p, MoveList& out) const;
  template <GenType kGen>
  void genHexForks(MoveList& out) const;  // hex3: the fork rays of the seat to move
  void addPawnMove(Square from, Square to, int dir, MoveFlag flag, MoveList& out) const;
  void genSpecial(MoveList& out) const;
  int castleSide(Move m) const;  // 0 king side, 1 queen side
  // Hands and drops (mechanisms/drops.cpp).
  void genDrops(MoveList& out) const;
  bool dropLegal(Move m);
  void makeDrop(Move m);
  void captureToHand(Square s, int capturer);  // before the piece on s is removed
  void movePromoted(Square from, Square to);
  void setPromoted(Square s, bool on);
  void addZoneMoves(Square from, Square to, Piece p, bool onlyPromotions, MoveList& out) const;
  uint64_t handHash() const;
  int dropMoveBound() const;  // moveBound with hands: every piece may become the seat's
  Status readFenHands(std::string& board);
  std::string handText() const;
  void computeHash();
  // Captures with side effects (mechanisms/capture_effects.cpp).
  void keepCapturesOnly(MoveList& out, int begin) const;  // must-capture: drop the rest if any captures
  void explode(Square to, int us, int& kingTaken);        // blast: the capturer and non-pawns around `to`
  bool blastLegal(Move m);                                 // blast: isLegal by make and unmake
  bool legalByRule(Move m);                                // isLegal with a blast or without check
  bool kingsTouch() const;                                 // blast: the two kings stand side by side
  bool touchesKingOf(Square s, int seat) const;
  uint64_t freshHash() const;  // the hash computed from scratch
  void finishIfDecided();
  void applyBareKingReply(PlyEvents& ev);
  void updateCounting(int capturedType, bool promotion);
  int countLimitFor(int seat) const;
  void genFirstStep(MoveList& out) const;
  void updateLeapAndStepRights(Piece p, Square from, Square to);
  Status readFenFileRight(char letter);
  std::string fileRightsText(int seat) const;
  // The setup phase (mechanisms/drops.cpp).
  bool dropsForced() const;                   // must-drop: the seat to move has a drop it must make
  bool genForcedDrops(MoveList& out) const;   // the drops, when forced (else out unchanged)
  // The promotion move (mechanisms/promotion_move.cpp).
  void genPromotionMoves(MoveList& out) const;
  bool promotionMoveLegal(Move m);
  // The duck (mechanisms/duck.cpp).
  void moveDuck(Square s);  // kNoSquare: the duck stays (a move alone, for the engine's look-ahead)
  Status readDuck(Square s);
  std::string duckText(Move m, Square shownTo) const;
  Result<Move> parseDuckTurn(const std::string& text);
  Result<Move> parseMoveAlone(const std::string& text);  // parseMove without the duck
  // Per-seat frames and teams (mechanisms/seat_frames.cpp).
  Status setSeatCastling(const std::array<int, kMaxSeats>& kside, const std::array<int, kMaxSeats>& qside);
  Square seatEpVictim(Square to, int us) const;  // the pawn an en-passant capture onto `to` takes, or kNoSquare
  Square epCaptureSquare(Move m) const;         // where the en-passant move m captures
  std::array<int, kMaxSeats> placesByTeam() const;
  // chess.com's FEN4 (records/fen4.cpp).
  Status readFen4ChessCom(const std::string& text);
  std::string fen4ChessComText() const;
  // The Triumvirate arena's position line (Rules::triumvirateText; records/triumvirate.cpp).
  Status readTriumvirate(const std::string& text);
  std::string triumvirateText() const;
  // Points (mechanisms/points.cpp): captures, checks, the threats on every
  // live king, the kings threatened after a move from a square that did not
  // threaten them before, and the standing kings' award when one seat is left.
  void scoreCapture(int capturer, Piece captured);
  void scoreChecks(const PlyEvents& ev, Piece moved, const KingThreats* before);
  KingThreats kingThreats() const;
  int newlyThreatenedKings(const KingThreats& before, int mover) const;
  void scoreStandingKings();
  void scoreOut(int seat, OutReason reason, int by);
  void scoreDraw();
  std::array<int, kMaxSeats> placesByPoints() const;

  // Unions and chains (mechanisms/unions.cpp).
  const UnionTable& unionTable() const;  // the turns of this position (cached per stack depth)
  void genUnionTurns(MoveList& out, bool winsOnly) const;
  const UnionTurn* findUnionTurn(Move m) const;
  void makeUnionTurn(Move m);
  void unmakeUnionPartners();
  std::string unionMoveText(Move m) const;
  char unionLetter(Square s) const;
  bool readUnionLetter(char c, Square s);
  uint64_t partnerHash() const;
  Status checkUnions();
  uint64_t scalarKeyOf(int toMove, uint8_t inMask, uint64_t rights, int ep) const;

  std::shared_ptr<const Rules> rules_;
  State st_;
  size_t copyBytes_ = sizeof(State);  // the bytes of State that the variant's seats use
  std::vector<Undo> undo_;
  // Unions: the second seat's piece of each union (kept out of State so that
  // other games do not copy it), its undo stack, and the turn tables.
  std::array<Piece, kMaxSquares> partner_{};
  std::vector<UnionUndo> unionUndo_;
  mutable std::vector<UnionTable> unionTables_;
  // When isLegal may answer offLineLegal's true without asking the rules:
  // kFastAll with no blast, king capture, unions, forced drops or promotion
  // moves; kFastQuiet with blasts, for a move onto an empty square (it
  // explodes nothing, and touching kings stay touching); kFastNone otherwise.
  enum FastLegality : uint8_t { kFastNone, kFastAll, kFastQuiet };
  uint8_t fastLegality_ = kFastAll;

};

// Rights bits.
constexpr uint64_t castleBit(int seat, int side) { return uint64_t{1} << (seat * 2 + side); }
constexpr uint64_t leapBit(int seat) { return uint64_t{1} << (2 * kMaxSeats + seat); }
constexpr uint64_t doubleBit(int seat) { return uint64_t{1} << (3 * kMaxSeats + seat); }
constexpr uint64_t firstStepBit(int seat) { return uint64_t{1} << (4 * kMaxSeats + seat); }
constexpr int kRightsBits = 5 * kMaxSeats;

}  // namespace acedrex
