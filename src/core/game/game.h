// Game: a Position with its history. It runs the turn start (mates and
// stalemates found there), the draws that need history (repetition, the
// fifty-move count) and those by material, resignation and timeouts, the
// coins of Four Seasons and the die with its seeded generator, so that a
// game replays exactly from its start, its seed and its moves.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/position/position.h"

namespace acedrex {

// A small deterministic generator (splitmix64), the same on every platform.
class DieRng {
 public:
  explicit DieRng(uint64_t seed) : s_(seed) {}
  uint64_t next();
  int below(int n);  // uniform in [0, n)

 private:
  uint64_t s_;
};

// What a record entry is: a move (its text; "0000" a lost turn), or a
// seat's resignation or timeout, or (in the server's records) a draw by
// agreement.
enum class EntryKind : uint8_t { kMove, kResign, kTimeout, kDraw };
// The word of an entry that is no move: "resign", "timeout", "draw" ("" for kMove).
std::string_view nameOf(EntryKind kind);
// The kind of an entry's text: one of those words, or else kMove.
EntryKind entryKindOf(std::string_view text);

// Why a game was drawn (kNone: it was not).
enum class DrawReason : uint8_t { kNone, kRepetition, kFiftyMoves, kStalemate, kOnlyKings, kAgreement, kCounting, kInsufficient };
// Its name as the API writes it ("fifty-moves"), its text in the summary's
// draw_reason and the PGN's Termination ("fifty moves"); "" for kNone.
std::string_view nameOf(DrawReason reason);
std::string_view textOf(DrawReason reason);
std::optional<DrawReason> parseDrawReason(std::string_view name);  // from the name

struct PlyRecord {
  std::string move;  // move text, "0000" for a lost turn; for other entries nameOf(kind)
  int seat = -1;
  int dieFace = 0;   // the throw this move was made under (0: no die)
  EntryKind kind = EntryKind::kMove;
};

class Game {
 public:
  Game(std::shared_ptr<const Rules> rules, uint64_t seed = 1);

  Status setStart(const std::string& positionText);  // default: the variant's start
  // A UCI engine's game, where the GUI adjudicates: the ends the rules draw
  // from history or material (repetition, the move count, counting,
  // insufficient material, and the repetition's verdicts) are not declared,
  // so the game goes on while the seat to move has a legal move;
  // ruleDrawLeft() says that one of them now applies (call before setStart).
  void leaveRuleDrawsToCaller() { leaveRuleDraws_ = true; }
  bool ruleDrawLeft() const { return ruleDrawLeft_; }
  // An analysis board's game: the die is never thrown, so every legal move of
  // the seat to move may be played whatever piece it moves (call before setStart).
  void throwNoDie() { throwNoDie_ = true; throw_ = 0; }
  // Plays one move given as text; an illegal or malformed move changes nothing.
  Status play(const std::string& moveText);
  Status play(Move m);
  Status playAll(const std::string& spaceSeparatedMoves);  // names the ply of a failure
  void resign(int seat);
  void timeout(int seat);
  void agreeDraw();

  const Position& position() const { return pos_; }
  Position& positionForSearch() { return pos_; }
  const Rules& rules() const { return pos_.rules(); }
  std::vector<Move> legalMoves();      // restricted by the current throw; {0000} if none
  int currentThrow() const { return throw_; }  // the die face for the seat to move, 0 if none
  int currentThrowType() const;        // the first piece type the throw allows, -1 if no die
  const DieFace* currentFace() const;  // the face thrown (every kind it allows), null if none
  // The kinds the current throw allows, by name: "knight", "king or pawn"; "" if none.
  std::string currentThrowKinds() const;
  bool finished() const { return pos_.finished(); }
  const std::vector<PlyRecord>& record() const { return record_; }
  // Hashes of the positions after each ply (for repetition checks in search).
  const std::vector<uint64_t>& hashes() const { return hashes_; }
  const std::array<int, kMaxSeats>& coins() const { return coins_; }
  const std::string& startText() const { return start_; }
  uint64_t seed() const { return seed_; }
  DrawReason drawReasonKind() const { return drawReason_; }
  // How a game that history decided was won without a mate: perpetual
  // check (Rules::perpetualCheckLoses), material counting (Rules::materialPoints:
  // repetition, the fifty-move count, bikjang or two passes) or perpetual
  // chase (Rules::chasing).
  enum class Decision : uint8_t { kNone, kPerpetualCheck, kMaterialCount, kPerpetualChase };
  Decision decision() const { return decision_; }
  // textOf(drawReasonKind()), "" if not drawn: for the callers that still
  // read the text (record.cpp's Termination tag, the server's result).
  std::string drawReason() const { return std::string(textOf(drawReason_)); }
  // The summary of the CLI: status, to_move, in, out_order, places, coins.
  std::string summaryJson() const;

 private:
  void afterPly();
  void settleEvents(const PlyEvents& ev);
  void settleEnd();
  void throwDie();
  int perpetualChecker() const;  // the seat that checked through the repetition, or -1
  void settleRepetition();
  DrawReason ruleDrawReason(bool dead);

  Position pos_;
  std::string start_;
  uint64_t seed_;
  DieRng rng_;
  int throw_ = 0;
  bool throwNoDie_ = false;
  bool leaveRuleDraws_ = false;
  bool ruleDrawLeft_ = false;
  std::vector<PlyRecord> record_;
  std::vector<uint64_t> hashes_;
  std::array<int, kMaxSeats> coins_{};
  bool settled_ = false;
  DrawReason drawReason_ = DrawReason::kNone;
  struct Turn { int8_t toMove; bool inCheck; };
  std::vector<Turn> turns_;  // beside hashes_: who was to move and in check
  Decision decision_ = Decision::kNone;
};

// A decision's name in the summary's "decision" and the PGN's Termination:
// "perpetual-check", "material-count", "perpetual-chase"; "" for kNone.
std::string_view nameOf(Game::Decision d);

}  // namespace acedrex
