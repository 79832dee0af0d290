// PGN: the one module that writes and reads game records, for the command
// line, the match runner, the server's downloads and the tuner.
//
// Writing (writePgn). Tags first: the Seven Tag Roster (Event, Site, Date,
// Round, one tag per seat in seat order -- White, Black for two seats --,
// Result), then [Variant] (the variant's title, as pychess writes it),
// [VariantName] (our name), [VariantOptions], [RuleVariants] (more than two
// seats: the options switched on), the start ([FEN] and [SetUp "1"] for two
// seats, [StartFen4] for more), [Seed] (games with a die), [Termination],
// then the caller's other tags in the caller's order (a caller's tag of a
// name written above replaces that value in place). Then the movetext: a
// move number before each round ("1..." when two seats start with Black),
// lines shorter than 80 characters, the result last. Two seats: PGN as the
// standard has it (a resignation or timeout is in [Result] and
// [Termination], not in the moves). More seats: PGN4 in chess.com's manner,
// ".." between the plies of a round, "R" for a resignation and "T" for a
// timeout each followed by a comment naming the seat ("R {green resigns}"),
// and every move made under the die followed by its throw, "{die 3}".
//
// Reading (readPgn) takes any text: tag pairs with \" and \\ escapes,
// comments {...} and ; to the end of the line, % escape lines, NAGs ($12)
// and !? marks, variations ( ... ) skipped (nested too), move numbers ("12.",
// "12...", glued to a move or not, ".." in PGN4), results, and any number of
// games. It yields each game's tags and move tokens with their line and
// column, or an error naming the line and column of the first bad byte; it
// never crashes (fuzz/pgn_fuzz.cpp). replayPgn then plays the tokens through
// Game::play, so a record that reads is a legal game.
//
// Move text is a MoveNotation, a parameter of both directions.
// engineNotation() is the engine's move text ("e2e4", "0000"), the default;
// sanNotation() and longNotation() are the SAN and the PGN4 long algebraic
// of the server's records. The SAN is Fairy-Stockfish's for each variant,
// which is what pychess writes (Rules::sanLetters, Rules::shogiRecords for
// shogi's Western notation; tools/reference/san.mjs compares them).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/game/game.h"
#include "core/base/result.h"
#include "core/variant/variant.h"

namespace acedrex {

// ---- Move text ------------------------------------------------------------

class MoveNotation {
 public:
  virtual ~MoveNotation() = default;
  // The text of the legal move m in the game's position (before m is played).
  virtual std::string write(Game& game, Move m) const = 0;
  // What follows the text once the move is played ("+", "#"); none by default.
  virtual std::string suffix(const Game& after) const;
  // The legal move a token names. By default: the one legal move whose write()
  // equals the token without its check and annotation marks (+ # ! ?).
  virtual Result<Move> read(Game& game, const std::string& token) const;
};

const MoveNotation& engineNotation();  // Position::moveText: e2e4, a9a10q, 0000
const MoveNotation& sanNotation();     // Nf3, exd5, O-O, e8=Q, P@e4, + and #, --; shogi P-76 (two-seat records)
const MoveNotation& longNotation();    // Ng1-f3, e4xd5, c7-c8=F, -- (the server's PGN4 records)
// chess.com's PGN4 (four-player chess, position-text = chess.com): h2-h3,
// Bn6xBg13 (the captured piece's letter; read with or without it), O-O,
// e7-e8=D; also reads the engine's text. writePgn and replayPgn use it by
// default for such a variant, whose records also carry [Variant "FFA"] or
// "Teams" and chess.com's [RuleVariants]; [StartFen4 "4PC"] is its start.
const MoveNotation& chessComNotation();

// A legal move's whole text in a notation: write() and, once played (on a
// copy of the game), suffix(): "Nf3+".
std::string moveWithSuffix(const Game& game, Move m, const MoveNotation& notation);

// ---- Writing --------------------------------------------------------------

struct PgnTag {
  std::string name, value;
};

struct PgnWriteOptions {
  std::vector<PgnTag> tags;  // replace the values of tags written anyway, or add tags after them
  const MoveNotation* notation = nullptr;  // nullptr: engineNotation()
  bool seed = true;      // [Seed] for a game with a die (a server keeps it secret until the end)
  bool startTag = true;  // [FEN]/[StartFen4] even from the variant's start (pychess writes it for every
                         // variant but chess: a reader without our variant files knows the start)
};

std::string writePgn(const Game& game, const PgnWriteOptions& options = {});

// The tag of a seat's player: its name capitalised ("White", "Green").
std::string pgnSeatTag(const Rules& rules, int seat);

// "1-0", "0-1", "1/2-1/2" (from White's view), "*" for two seats; the places
// in seat order ("1-4-2-3") for more.
std::string resultText(const Game& game);

// ---- Reading --------------------------------------------------------------

struct PgnMove {
  std::string text;     // as written, marks included
  std::string comment;  // the comment right after it, trimmed ("die 3", "green resigns")
  int line = 0, column = 0;
};

struct PgnGame {
  std::vector<PgnTag> tags;    // in the order read
  std::vector<PgnMove> moves;  // the main line: no numbers, comments, NAGs, variations or result
  std::string result;          // the termination marker, empty when the text ends without one
  int line = 0;                // where the game starts
  std::string tag(const std::string& name) const;  // empty when absent
};

// Every game of the text. source names the text in error locations.
Result<std::vector<PgnGame>> readPgn(const std::string& text, const std::string& source = {});

// The variant a record names: [VariantName], else [Variant] as a name or a
// title in any case; empty when the registry knows neither.
std::string pgnVariant(const PgnGame& game, const VariantRegistry& registry);

// The game at the record's start: [FEN] or [StartFen4] if given, [Seed] for the die.
Result<std::unique_ptr<Game>> pgnStart(const PgnGame& game, std::shared_ptr<const Rules> rules,
                                       const std::string& source = {});

// The legal move a move token names (not R or T), with its line and column in the error.
Result<Move> readPgnMove(Game& game, const PgnMove& move, const MoveNotation& notation,
                         const std::string& source = {});

// Plays one token: a move (whose "{die N}" comment, if any, must match the
// throw), or R / T, the resignation or timeout of the seat its comment names
// (else of the seat to move).
Status playPgnMove(Game& game, const PgnMove& move, const MoveNotation& notation, const std::string& source = {});

// The whole record: its variant and options, start, seed and moves; for two
// seats also a resignation, timeout or agreed draw that [Result] and
// [Termination] ("resign", "timeout", "agreement") tell.
Result<std::unique_ptr<Game>> replayPgn(const PgnGame& game, const VariantRegistry& registry,
                                        const MoveNotation& notation = engineNotation(),
                                        const std::string& source = {});

}  // namespace acedrex
