// Variants as data: a variant file is parsed into a VariantDef; a VariantDef
// and a choice of options compile into Rules, the tables the move generator
// reads. The few rules that are not data are named hooks (takeover, coins,
// the die, the king's first leap, castling, the double step).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/variant/betza.h"
#include "core/base/result.h"
#include "core/base/types.h"

namespace acedrex {

struct OptionDef {
  std::string name;
  std::vector<std::string> values;  // the first is the default
  std::string help;
};

// One line of a variant file: `[opt=value] key = value`.
struct VariantLine {
  std::string condOption, condValue;  // empty when unconditional
  std::string key, value;
  int lineNo = 0;
};

struct VariantDef {
  std::string name;
  std::string title;
  std::vector<std::string> aliases;  // other names find() answers to (`alias = chess960`)
  std::vector<OptionDef> options;
  std::vector<VariantLine> lines;
};

Result<VariantDef> parseVariantFile(const std::string& text, const std::string& source);

using OptionValues = std::map<std::string, std::string>;

struct SeatDef {
  std::string name;  // lowercase: white, black, green, red
  char letter = '?'; // FEN4 colour letter (g r b w); 2-player FEN uses case
  int dir = kNorth;  // the default forward of the seat's pieces
};

struct PieceType {
  std::string name;
  char letter = '?';
  std::string betza;
  bool royal = false;
  bool pawn = false;
  int base = -1;  // a promoted form ("+P" in a variant file): the type it was; its letter is base's in lower case
  std::vector<MoveAtom> atoms;
};

enum class Ending { kCheckmate, kLastStanding, kFirstMate };
enum class MateEffect { kNone, kTakeover, kRemove };
enum class StalemateEffect { kDraw, kLoss, kOut, kOthersDraw, kWin, kPass };
enum class DoubleStepRights { kNone, kUntilCapture };
// Fairy-Stockfish's counting rules (countingRule): the board's honour and the pieces' honour.
enum class Counting { kNone, kMakruk, kCambodian, kAsean };

// Compiled move tables. Modes: bit 0 move, bit 1 capture, bit 2 hop-move,
// bit 3 hop-capture.
enum : uint8_t { kModeMove = 1, kModeCapture = 2, kModeHopMove = 4, kModeHopCapture = 8 };
// A lame leap that is a pawn's double step (hex3): made with kDoubleStep.
constexpr uint8_t kModeDoubleStep = 16;

struct Leap { uint8_t to; uint8_t mode; };
// skip: the first cells a second path of a fork shares with the first
// (Rules::forkRays, hex3): they block it but are not generated twice.
struct Ray { uint32_t begin; uint8_t len; uint8_t mode; uint8_t skip = 0; };
struct Bent { uint8_t first; uint8_t mode; uint32_t rayBegin; uint8_t rayCount; };
struct SquareMoves { uint32_t leapBegin, leapEnd, rayBegin, rayEnd, bentBegin, bentEnd, lameBegin, lameEnd; };

// Reverse tables for attack detection, merged over all kinds.
struct RevLeap { uint8_t from; uint64_t kinds; };
struct RevRay { uint32_t begin; uint8_t len; uint64_t sliders; uint64_t hoppers; };
struct RevBent { uint32_t begin; uint8_t len; uint64_t kinds; };  // pairs (Y, X) in revBentSq

// A face of the die and the piece kinds it lets move: `type` the first one
// (its name is shown), `kinds` every one (chaturaji's 5: king or pawn).
struct DieFace {
  int face;
  int type;
  uint64_t kinds;
  bool allows(int t) const { return (kinds >> t) & 1; }
};

// A lame leap (Betza n): blocked when a piece stands on block[0] or block[1]
// (0xFF: no square).
struct LameLeap { uint8_t to; uint8_t mode; uint8_t block[2]; };
struct RevLame { uint8_t from; uint8_t block[2]; uint64_t kinds; };

// A box of files and ranks counted in a piece's own frame (1-based: relative
// rank 1 is the rank nearest its own edge, relative file 1 its leftmost
// file), e.g. a palace or one side of a river.
struct Zone {
  int fileLo = 1, fileHi = kMaxFiles, rankLo = 1, rankHi = kMaxRanks;
};
// Moves a piece type gains while it stands in a zone (the xiangqi soldier's
// sideways step across the river).
struct ZoneMoves { int type; Zone zone; std::vector<MoveAtom> atoms; };

class Rules {
 public:
  // Compiles a variant with options; unknown or bad option values are errors.
  static Result<std::shared_ptr<const Rules>> compile(const VariantDef& def,
                                                      const OptionValues& options);

  std::string variant, title;
  OptionValues options;  // every option with its chosen value
  int width = 8, height = 8;
  std::vector<bool> blocked;  // per square
  // The board's geometry (geometry): a rectangle with holes, or hex3's cell
  // graph (core/board/hex3.cpp), whose tables buildHex3Tables fills.
  enum class Geometry { kRect, kHex3 } geometry = Geometry::kRect;
  std::vector<uint8_t> hexFarEdge;  // hex3: per square, bit d when a pawn facing d promotes there
  bool hexDoubleStep = false;       // hex3: pawns have the two-cell first step
  // hex3: the second paths of the diagonals that fork at the centre, kept out
  // of the plain rays (only Position::genHexForks reads them); per kind and
  // square, [begin, end) in forkRays.
  std::vector<Ray> forkRays;
  std::vector<std::pair<uint32_t, uint32_t>> forkRange;
  std::vector<SeatDef> seats;
  std::vector<PieceType> types;
  int royalType = -1;
  std::string start;  // position text

  // Promotion: pawns promote on the far edge in their direction.
  std::vector<int> promoChoices;   // types a pawn may become
  std::vector<int> promoByFile;    // when not empty: the type per file
  int doubleStepRank = 0;          // relative rank (1-based) of the double step; 0 none
  bool enPassant = false;
  int castlingRank = 0;            // relative rank (1-based); 0 no castling
  int castleKingFile[2] = {-1, -1};  // king destination file: [0] king side, [1] queen side
  int castleRookFile[2] = {-1, -1};  // where K and Q in a FEN start looking for the rook (inward)
  std::vector<Offset> kingLeaps;   // the king's first leap (empty: none)
  DoubleStepRights doubleRights = DoubleStepRights::kNone;
  Ending ending = Ending::kCheckmate;
  MateEffect mateEffect = MateEffect::kNone;
  StalemateEffect stalemate = StalemateEffect::kDraw;
  bool bareKingLoses = false;
  bool onlyKingsDraw = false;      // "only kings left" draws among the seats still in
  bool coins = false;
  std::vector<DieFace> die;        // empty: no die
  // Regions (docs/variant-files.md, region): per type, the zone its pieces
  // may never leave; hasRegion when any type has one.
  std::vector<Zone> regions;
  bool hasRegion = false;
  std::vector<ZoneMoves> zoneMoves;
  // The flying general: a king sees along its file, so two kings may not face
  // each other with nothing between them (it attacks the other king's square).
  bool flyingGeneral = false;
  // Line squares (line-squares): the points joined by drawn diagonals (the
  // janggi palaces); line moves: what a type gains on them, along them only.
  std::vector<bool> lineSquares;  // per square; empty: none
  std::vector<ZoneMoves> lineMoves;  // zone unused
  // Hoppers that may neither hop over nor capture a piece of their own type
  // (the janggi cannon); per type, empty: none.
  std::vector<bool> hopNotSame;
  // Passing (pass): the king moves to its own square (kPass), not in check.
  bool pass = false;
  // Bikjang: the kings may face each other on an open file; the side facing
  // it must break it or pass, and if it stands (or both sides pass in a row)
  // the game ends by material counting (materialPoints).
  bool bikjang = false;
  // Material counting (material-count): points per type; White wins when its
  // points exceed Black's by more than countHandicap, otherwise Black.
  std::vector<int> materialPoints;  // empty: none
  int countHandicap = 0;
  // Perpetual check (perpetual-check): at the repetition that ends the game, a side that
  // gave check with every move since the position first stood loses.
  bool perpetualCheckLoses = false;
  // Chasing (chasing = axf; mechanisms/chasing.cpp): xiangqi's perpetual chase as
  // Fairy-Stockfish rules it. At a repetition, perpetual check goes first;
  // then a side that chased one enemy piece with every move of the cycle
  // loses (both: the repetition draws). chaseRole: each type's part (from
  // its moves), which the rule's exceptions name.
  enum class ChaseRole : uint8_t { kKing, kAdvisor, kElephant, kHorse, kRook, kCannon, kSoldier };
  bool chasing = false;
  std::vector<ChaseRole> chaseRole;  // per type; empty without chasing
  bool onLines(const MoveAtom& atom, Square s) const { return !atom.linesOnly || lineSquares[s]; }
  // Captures with side effects (core/mechanisms/capture_effects.cpp).
  bool mustCapture = false;        // a side that can capture must (antichess)
  bool blastOnCapture = false;     // atomic: a capture explodes; touching kings cannot be checked
  // King capture (king-capture = yes; two seats, a royal piece): there is no
  // check. Every pseudo-legal move is legal (castling too: out of, through
  // and into attack), inCheck() is always false, and taking the king wins; a
  // side with no move at all follows the stalemate rule (fog of war, duck).
  // Beside blastOnCapture: isLegal tests the two with one load.
  bool kingCapture = false;
  // Unions (mechanisms/unions.cpp, 2 seats, at most 64 squares): nothing is captured;
  // a piece moving onto an enemy piece forms a union that either side may
  // move, a piece moving into a union frees the mover's piece there to move
  // on in the same turn, and uniting with the enemy king wins.
  bool unions = false;

  // Hands and drops (mechanisms/drops.cpp; 2 seats): captured pieces go to the
  // capturer's hand in their unpromoted form, and a move may drop one.
  bool drops = false;
  std::vector<int> dropLo, dropHi;  // per type: relative ranks where it may be dropped (empty: all)
  int dropNoDoubled = -1;           // a type that may not be dropped on a file where the seat has one
  int dropMate = -1;                // a type whose dropping mate loses for the dropper
  // Promotion zone: the last zoneDepth relative ranks; a move that starts or
  // ends there may promote a type to zonePromo[type] (-1: none); it must when
  // zoneForced or when the piece could not move from its target.
  int zoneDepth = 0;
  bool zoneForced = false;
  std::vector<int> zonePromo;
  bool inZone(Square s, int dir) const { return relativeRank(s, dir) > (dir == kNorth || dir == kSouth ? height : width) - zoneDepth; }
  // Whether a piece of this kind on s has no move at all (on an empty board).
  bool immobile(int kind, Square s) const { return immobile_[kind * kMaxSquares + s] != 0; }
  // The hand text's order: the types that may be in a hand, in the order of the variant file.
  std::vector<int> handTypes;
  // History rules (Game): the count of one position that ends the game and
  // how (perpetual check, above, goes first).
  enum class RepetitionEnd : uint8_t { kDraw, kFirstSeatLoses };
  int repetitionCount = 3;
  RepetitionEnd repetitionEnd = RepetitionEnd::kDraw;
  uint64_t zHand[2][kMaxPieceTypes][kMaxHand];
  uint64_t zPromoted[kMaxSquares];
  // Bare king with a reply (`bare-king = reply`, Fairy-Stockfish's shatranj):
  // at a turn start, the side that just moved loses if it has only its king
  // and the other has more; the side to move loses if it has only its king
  // and the other has two pieces or more besides its king.
  bool bareKingReply = false;
  // The n-move rule in moves (plies / seats); 0: none.
  int moveRule = 50;
  // Chess960 notation: castling written as the king's move onto its rook,
  // castling rights always as the rook's file (Shredder-FEN).
  bool castlingOntoRook = false;
  // start-array = chess960: a new game on the server starts from one of the
  // 960 arrays (chess960StartFen), drawn from its seed, unless a position is given.
  bool chess960Start = false;
  // Records (core/records/pgn.cpp): the letter SAN writes per type ('\0': its own
  // letter; empty: none differ), and shogi's notation instead of SAN.
  std::vector<char> sanLetters;
  bool shogiRecords = false;
  // The king's leap (king-leap): whether the square it passes must be
  // unattacked (the leap's midpoint), and whether the right is lost when an
  // enemy rook moves onto the king's rank or file.
  bool kingLeapSafePath = true;
  bool kingLeapLostToRook = false;
  // A piece type's first-move double step forward (a leap onto an empty
  // square), a right per seat kept while that piece stays on its square; -1 none.
  int firstStepType = -1;
  // Rights written by file letter (the king's leap, the first step) as
  // Fairy-Stockfish's gating letters (Ouk Chatrang's DEde).
  bool rightsByFile = false;
  Counting counting = Counting::kNone;
  // Insufficient material (insufficient-material; two seats): a draw when
  // neither side can mate. kMinorPieces: chess's test (B colour-bound, N
  // not). kMatingPieces: Fairy-Stockfish's general test
  // (Position::cannotMate), where matingPieces are the types that mate alone.
  enum class Insufficient : uint8_t { kNone, kMinorPieces, kMatingPieces };
  Insufficient insufficient = Insufficient::kNone;
  std::vector<bool> matingPieces;  // per type
  // Built for kMatingPieces (buildMaterialClasses): per type, whether every
  // move keeps a piece on its square's colour; per seat and type
  // (seat * types.size() + type), whether the type's region never meets the
  // squares the enemy king may stand on.
  std::vector<bool> colourBound;
  std::vector<bool> confinedAway;
  // Fog of war (visibility = moves; two seats): a seat sees only its own
  // pieces and the squares its moves reach (core/mechanisms/fog.h); the position and
  // moves are the same as without it.
  bool fog = false;
  // A setup phase (`drops = setup`, mechanisms/drops.cpp): the hands hold the start
  // position's pieces, the king among them; a captured piece leaves the game;
  // while a seat has pieces in hand it must drop one (when it can).
  bool capturesToHand = true;
  bool mustDrop = false;
  // The promotion move (`promotion-move`, mechanisms/promotion_move.cpp): a pawn on one of its
  // seat's marked squares (promoMoveSq[seat * nsq() + s]), or the seat's last
  // pawn anywhere, becomes promoMoveType where it stands or by one of that
  // type's moves onto an empty square, while the seat has no promoMoveType on
  // the board; the new piece may not attack an enemy piece, nor the move give
  // check. -1: none.
  int promoMoveType = -1;
  std::vector<uint8_t> promoMoveSq;
  // The duck (duck = yes; core/mechanisms/duck.cpp): a neutral blocker, written `*`,
  // that the side to move must move to another empty square after every
  // move; one turn is the move and the duck's square (Move::duck()).
  bool duck = false;

  // Many seats (mechanisms/seat_frames.cpp; points.cpp). promotionRank: the relative rank where
  // pawns promote instead of the far edge (0: the edge). friends: per seat,
  // the seats whose pieces it may not capture and whose attacks do not
  // count against it (itself; its partner with `teams`). deadPieces: a seat
  // that goes out leaves its pieces on the board, inert. capturePoints: per
  // type, the points a capture of a live piece earns (empty: no points).
  // fen4ChessCom: positions in chess.com's FEN4. kingCaptureInCheck: taking
  // a king is legal whatever the move leaves attacked (four-player chess's
  // teams, where it ends the game at once, as chess.com has it); otherwise a
  // king capture is judged as any move, after its consequences.
  int promotionRank = 0;
  std::array<uint8_t, kMaxSeats> friends{1, 2, 4, 8, 16, 32, 64, 128};
  bool teams = false;
  bool deadPieces = false;
  bool kingCaptureInCheck = false;
  std::vector<int> capturePoints;
  bool fen4ChessCom = false;
  // triumvirateText (hex3): positions in the Triumvirate arena's line
  // (`wRA1,wPA2,... w wKQ.bKQ.rKQ - aaa 0 1`); the engine's many-seat line is read too.
  bool triumvirateText = false;
  // hex3 with takeover (stuck-pawn): the type a taken-over pawn becomes when
  // its way leads to its new owner's own back rank (the arena's stuck pawn:
  // it only captures, forward as before); -1 none.
  int stuckPawnType = -1;
  bool seatEnPassant = false;  // en-passant with more than two seats (per seat, mechanisms/seat_frames.cpp)
  // The points' awards besides captures (awards, mechanisms/points.cpp); the
  // defaults are four-player chess's. check2/check3: a move that starts
  // threats on two or three kings, [0] otherwise and [1] by a queen;
  // threatSquares: a threat is new when a square attacks the king that did
  // not before (by any live seat; chaturaji), else when a seat does that did
  // not (four-player chess). standingKing: when one seat is left in, it gets
  // this for each king of an out seat still on the board; deadKing: the
  // capture of a dead king earns this.
  struct PointAwards {
    int mate = 20, stalemate = 20, draw = 10, resignKing = 20, standingKing = 0, deadKing = 0;
    int check2[2] = {5, 1}, check3[2] = {20, 5};
    bool threatSquares = false;
  } awards;
  // The lateral coordinate of s for the seat's castling (castling files):
  // the file with two seats, counted from the seat's left with more.
  int castleLateral(int seat, Square s) const;
  // The square with lateral coordinate x on the line of `along` (castling).
  Square castleSquare(int seat, Square along, int x) const;
  // Whether s is on the seat's castling rank (castlingRank, in its own frame).
  bool onCastlingRank(int seat, Square s) const;

  int nsq() const { return width * height; }
  int nseats() const { return static_cast<int>(seats.size()); }
  bool onBoard(int file, int rank) const { return file >= 0 && rank >= 0 && file < width && rank < height; }
  Square square(int file, int rank) const { return rank * width + file; }
  int fileOf(Square s) const { return s % width; }
  int rankOf(Square s) const { return s / width; }
  std::string squareName(Square s) const;
  Result<Square> parseSquare(const std::string& text) const;
  int typeByLetter(char upper) const;  // -1 if none
  int seatByName(const std::string& name) const;
  // Whether a pawn facing `dir` stands on its far edge at s.
  bool onFarEdge(Square s, int dir) const;
  // The relative rank (1-based) of s for a piece facing dir.
  int relativeRank(Square s, int dir) const {
    switch (dir) {
      case kNorth: return rankOf(s) + 1;
      case kSouth: return height - rankOf(s);
      case kEast: return fileOf(s) + 1;
      default: return width - fileOf(s);
    }
  }
  // The lane (file, or rank for a piece facing east or west) of s for a piece facing dir.
  int laneOf(Square s, int dir) const { return dir == kNorth || dir == kSouth ? fileOf(s) : rankOf(s); }
  Offset rotate(const Offset& o, int dir) const;  // piece frame to board frame
  // Whether s lies in zone z for a piece facing dir.
  bool inZone(const Zone& z, Square s, int dir) const;
  // Whether a piece of this type facing dir may stand on s (its region).
  bool allowedOn(int type, int dir, Square s) const { return !hasRegion || inZone(regions[type], s, dir); }
  // The piece type's moves from s when facing dir: its own atoms and those of
  // any zone it stands in.
  std::vector<MoveAtom> atomsAt(int type, int dir, Square s) const;

  // Tables.
  const SquareMoves& moves(int kind, Square s) const { return table_[kind * kMaxSquares + s]; }
  std::vector<Leap> leaps;
  std::vector<Ray> rays;
  std::vector<uint8_t> raySq;
  std::vector<Bent> bents;
  std::vector<Ray> bentRays;  // the slides that follow a bent move's first step
  std::vector<LameLeap> lameLeaps;
  std::vector<std::vector<RevLame>> revLames;  // per square
  std::vector<std::vector<RevLeap>> revLeaps;  // per square
  std::vector<std::vector<RevRay>> revRays;
  std::vector<std::vector<RevBent>> revBents;
  std::vector<uint8_t> revRaySq;
  std::vector<uint8_t> revBentSq;
  // Whether square b lies on a line along which some piece may attack square a
  // (a slide, hop or bent path through b): a move that neither leaves nor
  // enters such a square cannot open or close an attack on a.
  bool onLine(Square a, Square b) const { return lines_[a * nsq() + b] != 0; }
  // Whether a piece entering b may open an attack on a: b lies on a ray
  // that a hopper may use as its screen (entering any other line only closes it).
  bool onHopLine(Square a, Square b) const { return (lines_[a * nsq() + b] & 2) != 0; }
  // Bounds on move generation, from the tables: per piece type, the most
  // moves one piece of it can generate on any square facing any way, counting
  // each table entry (a square reached by two atoms counts twice) and, for a
  // pawn, every promotion choice and what the pieces it may become can
  // generate. specialMoveBound: castling and the king's leaps.
  std::vector<int> typeMoveBound;
  int specialMoveBound = 0;
  // The most moves a position of this variant may generate: Position::set
  // refuses a position whose pieces could make more (Position::moveBound),
  // and a variant whose start position does is refused when it is compiled
  // (VariantRegistry), naming it. The move list's capacity for every variant
  // today; it may never exceed it.
  int moveCapacity = kMoveListCapacity;

  // Zobrist keys.
  // The key of piece value p on s (s * kPieceValues + p: a board of n
  // squares has n * kPieceValues keys).
  uint64_t zPiece(Piece p, Square s) const { return zPiece_[static_cast<size_t>(s) * kPieceValues + p]; }
  uint64_t zToMove[kMaxSeats];
  uint64_t zIn[1 << kMaxSeats];  // per set of seats in
  uint64_t zRights[64];
  uint64_t zEp[kMaxSquares];

 private:
  // buildTables (board/tables.cpp) runs the steps below in order (each reads what the previous built).
  void buildTables();
  void buildHex3Tables();    // board/hex3.cpp: the move and attack tables from the cell graph
  void buildMoveTables();    // forward: leaps, rays, bent moves per kind and square
  void buildAttackTables();  // reverse: revLeaps, revRays, revBents per target square
  void buildLineAttackTables();  // reverse rays of line moves (line-moves)
  void computeMoveBounds();  // typeMoveBound, specialMoveBound
  void buildLines();         // lines_ (onLine)
  void buildZobristKeys();
  void buildDropTables();    // mechanisms/drops.cpp: immobile_, handTypes, zHand, zPromoted; zone bounds
  void buildMaterialClasses();  // mechanisms/counting.cpp: colourBound, confinedAway (insufficient-material)
  bool playable(int file, int rank) const;  // on the board and not blocked
  // A ray from (file, rank) on by step over playable squares, its squares appended to raySq.
  Ray walkRay(int file, int rank, Offset step, uint8_t mode);
  void addRevLeap(Square from, Square to, uint64_t kinds);
  void addRevLame(Square from, Square to, std::array<uint8_t, 2> block, uint64_t kinds);
  // The squares a lame leap by o (piece frame) from `from` passes (0xFF: none).
  std::array<uint8_t, 2> rotatedLamePath(Square from, const Offset& o, int dir) const;
  std::vector<SquareMoves> table_;
  std::vector<uint8_t> lines_;  // [a * nsq + b], see onLine
  std::vector<uint8_t> immobile_;  // [kind * kMaxSquares + s], see immobile
  std::vector<uint64_t> zPiece_;   // see zPiece
};

// One key of a variant file (docs/variant-files.md): its name, the form of
// its value in one line, when it is read, and the handler that checks the
// value and stores it in the Rules (an error carries the message only).
struct VariantKey {
  enum class Phase {
    kBoard,  // first: the last line counts
    kList,   // then: every line counts, in order (seats, pieces)
    kRule,   // last, once seats and pieces are known: the last line counts
  };
  std::string_view name;
  std::string_view form;
  Phase phase;
  Status (*apply)(Rules& rules, const VariantLine& line);
};

// A key handler's error: the message only (Rules::compile adds the variant
// and the line). Every file with key handlers uses this one.
inline Error keyError(std::string why) { return makeError("variant-file", std::move(why)); }

// The keys Rules::compile reads, in the order of the docs; any other is an error.
std::span<const VariantKey> variantKeys();

// The variants known to a program: the embedded ones plus any loaded.
class VariantRegistry {
 public:
  static VariantRegistry withEmbedded();
  Status add(const std::string& text, const std::string& source);
  Status loadDirectory(const std::string& dir);
  const VariantDef* find(const std::string& name) const;
  std::vector<const VariantDef*> all() const;
  // Compiles a variant by name with options given as "k=v" texts.
  Result<std::shared_ptr<const Rules>> rules(const std::string& name,
                                             const std::vector<std::string>& options) const;

 private:
  std::vector<VariantDef> defs_;
};

}  // namespace acedrex
