#include "core/records/pgn.h"

#include <algorithm>
#include <cctype>
#include <string_view>

#include "core/base/text_util.h"

namespace acedrex {

// ---- Move text ------------------------------------------------------------

namespace {

bool isMark(char c) { return c == '+' || c == '#' || c == '!' || c == '?'; }

std::string withoutMarks(const std::string& token) {
  size_t n = token.size();
  while (n > 0 && isMark(token[n - 1])) --n;
  return token.substr(0, n);
}

// A piece of another seat on the target (not a pass, nor sittuyin's
// promotion in place), or en passant.
bool isCaptureMove(const Position& p, Move m) {
  if (m.isNull() || m.flag() == kPass || m.to() == m.from()) return false;
  return isPiece(p.at(m.to())) || m.flag() == kEnPassant;
}

// Whether records mark checks: only where a royal piece can be checked
// (Fairy-Stockfish marks none in antichess, whose king is no royal, nor in
// atomic, whose king is only pseudo-royal).
bool marksChecks(const Rules& r) { return r.royalType >= 0 && !r.blastOnCapture; }

// The letter SAN writes for a type: its san-letters entry, else its letter.
char sanLetter(const Rules& r, int type) {
  const char alt = r.sanLetters.empty() ? '\0' : r.sanLetters[static_cast<size_t>(type)];
  return alt ? alt : r.types[static_cast<size_t>(type)].letter;
}

// Western shogi notation with numbers (Hodges), as Fairy-Stockfish writes
// shogi for pychess: files counted from the right, ranks from the top, both
// as digits ("76"); the piece always named, "+P" for a promoted one; the
// origin square when another piece of the type could go there; "*" for a
// drop, "x" for a capture, "-" otherwise; "+" for a promotion, "=" for a
// promotion declined. No check marks.
std::string shogiSquare(const Rules& r, Square s) {
  return std::to_string(r.width - r.fileOf(s)) + std::to_string(r.height - r.rankOf(s));
}

std::string shogiText(Game& game, Move m) {
  const Position& p = game.position();
  const Rules& r = p.rules();
  if (m.isDrop()) return std::string(1, sanLetter(r, m.dropType())) + "*" + shogiSquare(r, m.to());
  const int type = typeOf(p.at(m.from()));
  const PieceType& t = r.types[static_cast<size_t>(type)];
  std::string s = t.base >= 0 ? std::string("+") + sanLetter(r, t.base) : std::string(1, sanLetter(r, type));
  bool clash = false, couldPromote = false;
  for (Move x : game.legalMoves()) {
    if (x.isNull() || x.isDrop() || x.to() != m.to()) continue;
    if (x.from() == m.from()) couldPromote = couldPromote || (m.promo() < 0 && x.promo() >= 0);
    else if (typeOf(p.at(x.from())) == type && x.promo() == m.promo()) clash = true;
  }
  if (clash) s += shogiSquare(r, m.from());
  s += isCaptureMove(p, m) ? "x" : "-";
  s += shogiSquare(r, m.to());
  if (m.promo() >= 0) s += "+";
  else if (couldPromote) s += "=";
  return s;
}

// The letters of a square's name ("a" of "a10") and its digits ("10").
std::string fileText(const std::string& square) {
  size_t i = 0;
  while (i < square.size() && std::isalpha(static_cast<unsigned char>(square[i]))) ++i;
  return square.substr(0, i);
}
std::string rankText(const std::string& square) { return square.substr(fileText(square).size()); }

std::string promoText(const Rules& r, Move m) {
  return m.promo() >= 0 ? std::string("=") + r.types[static_cast<size_t>(m.promo())].letter : std::string();
}

// "#" when the last ply mated a seat (only when that won the game, unless
// anyMate), else "+" when it leaves another seat's king in check, else
// nothing. The mover's own king does not count: where a king may be left
// attacked (friendly chess, king capture) a move that ignores a check gave
// none, and marking it made every move after a check read as one.
std::string checkMarks(const Game& after, bool anyMate) {
  const Position& p = after.position();
  if (!marksChecks(p.rules()) || p.rules().shogiRecords) return {};
  if ((anyMate || (after.finished() && p.result() == ResultKind::kWin)) && p.undoDepth() > 0) {
    const PlyEvents& ev = p.lastEvents();
    for (int i = 0; i < ev.nOuts; ++i)
      if (ev.outs[i].reason == OutReason::kMated) return "#";
  }
  const int mover = p.undoDepth() > 0 ? p.lastEvents().mover : -1;
  for (int s = 0; s < p.rules().nseats(); ++s)
    if (s != mover && p.isIn(s) && p.inCheck(s)) {
      // Kings facing each other (bikjang) are no check in the records.
      if (p.bikjang() && !p.pieceAttackers(p.kingSquare(s), static_cast<uint8_t>(~(1u << s)))) continue;
      return "+";
    }
  return {};
}

class EngineNotation final : public MoveNotation {
 public:
  std::string write(Game& game, Move m) const override { return game.position().moveText(m); }
};

// SAN as the server has written it: the piece letter (none for a pawn), the
// origin's file, rank or square when another piece of the same kind reaches
// the same square, x for a capture, the destination, =X for a promotion;
// O-O / O-O-O; -- for a lost turn; + after a check, # after a mate.
// A duck turn adds a comma and the duck's square (Fairy-Stockfish's SAN: e4,d5).
class SanNotation final : public MoveNotation {
 public:
  std::string write(Game& game, Move m) const override {
    if (m.duck() == kNoSquare) return withoutDuck(game, m);
    return withoutDuck(game, m) + "," + game.rules().squareName(m.duck());
  }

  std::string withoutDuck(Game& game, Move m) const {
    if (m.isNull()) return "--";
    const Position& p = game.position();
    const Rules& r = p.rules();
    if (r.shogiRecords) return shogiText(game, m);
    if (m.flag() == kCastle) return r.fileOf(m.to()) > r.fileOf(m.from()) ? "O-O" : "O-O-O";
    if (m.isDrop()) return p.moveText(m);  // P@e4, as in UCI
    const Piece pc = p.at(m.from());
    const PieceType& t = r.types[static_cast<size_t>(typeOf(pc))];
    const bool capture = isCaptureMove(p, m);
    const std::string from = r.squareName(m.from());
    std::string s;
    if (t.pawn) {
      // Sittuyin's promotion by a step names its square, as Fairy-Stockfish does.
      if (m.promo() >= 0 && r.promoMoveType >= 0 && m.from() != m.to()) s += from;
      else if (capture) s += fileText(from);
    } else {
      s += sanLetter(r, typeOf(pc));
      bool clash = false, sameFile = false, sameRank = false;
      for (Move x : game.legalMoves()) {
        if (x.isNull() || x.to() != m.to() || x.from() == m.from() || x.duck() != m.duck()) continue;
        if (typeOf(p.at(x.from())) != typeOf(pc)) continue;
        clash = true;
        sameFile = sameFile || r.fileOf(x.from()) == r.fileOf(m.from());
        sameRank = sameRank || r.rankOf(x.from()) == r.rankOf(m.from());
      }
      if (clash) s += !sameFile ? fileText(from) : !sameRank ? rankText(from) : from;
    }
    if (capture) s += 'x';
    return s + r.squareName(m.to()) + promoText(r, m);
  }

  std::string suffix(const Game& after) const override { return checkMarks(after, false); }
};

// PGN4's long algebraic: the piece letter (none for a pawn), origin, - or x,
// destination, =X; -- for a lost turn.
class LongNotation final : public MoveNotation {
 public:
  std::string write(Game& game, Move m) const override {
    if (m.isNull()) return "--";
    const Position& p = game.position();
    const Rules& r = p.rules();
    if (m.isDrop()) return p.moveText(m);
    const PieceType& t = r.types[static_cast<size_t>(typeOf(p.at(m.from())))];
    std::string s = t.pawn ? "" : std::string(1, t.letter);
    s += r.squareName(m.from()) + (isCaptureMove(p, m) ? "x" : "-") + r.squareName(m.to());
    return s + promoText(r, m);
  }
};

// chess.com's PGN4 moves (four-player chess, Rules::fen4ChessCom): the piece
// letter (none for a pawn), origin, - or x with the captured piece's letter
// (none for a pawn), destination, =X; O-O and O-O-O for castling. Read with
// or without the captured piece's letter, and the engine's text as well.
class ChessComNotation final : public MoveNotation {
 public:
  std::string write(Game& game, Move m) const override {
    if (m.isNull()) return "--";
    const Position& p = game.position();
    const Rules& r = p.rules();
    if (m.flag() == kCastle)
      return r.castleLateral(p.toMove(), m.to()) == r.castleKingFile[0] ? "O-O" : "O-O-O";
    const PieceType& t = r.types[static_cast<size_t>(typeOf(p.at(m.from())))];
    std::string s = t.pawn ? "" : std::string(1, t.letter);
    s += r.squareName(m.from());
    if (isCaptureMove(p, m)) {
      s += "x";
      const Piece cap = p.at(m.to());
      if (isPiece(cap) && !r.types[static_cast<size_t>(typeOf(cap))].pawn) s += r.types[static_cast<size_t>(typeOf(cap))].letter;
    } else {
      s += "-";
    }
    return s + r.squareName(m.to()) + promoText(r, m);
  }
  Result<Move> read(Game& game, const std::string& token) const override {
    auto bare = [](std::string s) {
      const size_t x = s.find('x');
      if (x != std::string::npos && x + 1 < s.size() && std::isupper(static_cast<unsigned char>(s[x + 1]))) s.erase(x + 1, 1);
      return s;
    };
    const std::string want = bare(withoutMarks(token));
    if (game.finished()) return makeError("move", "the game is over");
    for (Move m : game.legalMoves())
      if (bare(write(game, m)) == want || game.position().moveText(m) == want) return m;
    return makeError("move", "\"" + token + "\" is not a legal move here");
  }
  // # when the move mated a seat (at its turn start, the game going on or not), else + for a check.
  std::string suffix(const Game& after) const override { return checkMarks(after, true); }
};

}  // namespace

const MoveNotation& chessComNotation() {
  static const ChessComNotation n;
  return n;
}

std::string MoveNotation::suffix(const Game&) const { return {}; }

Result<Move> MoveNotation::read(Game& game, const std::string& token) const {
  const std::string want = withoutMarks(token);
  if (game.finished()) return makeError("move", "the game is over");
  Move found;
  int matches = 0;
  for (Move m : game.legalMoves())
    if (write(game, m) == want) {
      found = m;
      ++matches;
    }
  if (matches == 1) return found;
  if (matches > 1) return makeError("move", "\"" + token + "\" names more than one legal move");
  return makeError("move", "\"" + token + "\" is not a legal move here");
}

std::string moveWithSuffix(const Game& game, Move m, const MoveNotation& notation) {
  Game after = game;
  std::string text = notation.write(after, m);
  if (after.play(m).ok()) text += notation.suffix(after);
  return text;
}

const MoveNotation& engineNotation() {
  static const EngineNotation n;
  return n;
}
const MoveNotation& sanNotation() {
  static const SanNotation n;
  return n;
}
const MoveNotation& longNotation() {
  static const LongNotation n;
  return n;
}

// ---- Writing --------------------------------------------------------------

namespace {

constexpr size_t kLineWidth = 79;  // the standard: export lines of fewer than 80 characters

std::string capitalised(const std::string& s) {
  std::string out;
  bool up = true;
  for (char c : s) {
    if (c == '-') {
      up = true;
      continue;
    }
    out += up ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    up = false;
  }
  return out;
}

std::string tagLine(const PgnTag& t) {
  std::string out = "[" + t.name + " \"";
  for (char c : t.value) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"]\n";
}

bool isSeatExit(const PlyRecord& ply) { return ply.kind == EntryKind::kResign || ply.kind == EntryKind::kTimeout; }

// The tags every record carries, before the caller's.
std::vector<PgnTag> standardTags(const Game& game, const PgnWriteOptions& o) {
  const Rules& r = game.rules();
  const int n = r.nseats();
  std::vector<PgnTag> tags{{"Event", "Acedrex game"}, {"Site", "Acedrex"}, {"Date", "????.??.??"}, {"Round", "-"}};
  for (int s = 0; s < n; ++s) tags.push_back({pgnSeatTag(r, s), "?"});
  tags.push_back({"Result", resultText(game)});
  tags.push_back({"Variant", r.title.empty() ? r.variant : r.title});
  tags.push_back({"VariantName", r.variant});
  std::string options, ruleVariants;
  for (const auto& [k, v] : r.options) {
    options += (options.empty() ? "" : " ") + k + "=" + v;
    if (v == "yes" || v == "on") ruleVariants += (ruleVariants.empty() ? "" : " ") + capitalised(k);
  }
  if (!options.empty()) tags.push_back({"VariantOptions", options});
  if (r.fen4ChessCom && r.seatEnPassant) {
    // chess.com's four-player chess names: [Variant "FFA"] or "Teams", and its
    // rule switches (chaturaji, without en passant, keeps its own name).
    for (PgnTag& t : tags)
      if (t.name == "Variant") t.value = r.teams ? "Teams" : "FFA";
    ruleVariants = r.teams ? "EnPassant" : "EnPassant PromoteTo=D";
  }
  if (n > 2 && !ruleVariants.empty()) tags.push_back({"RuleVariants", ruleVariants});
  bool fromStart = false;
  if (!o.startTag) {
    Position start(game.position().rulesPtr());
    fromStart = start.set(r.start).ok() && start.text() == game.startText();
  }
  if (!fromStart) {
    if (n == 2) {
      tags.push_back({"FEN", game.startText()});
      tags.push_back({"SetUp", "1"});
    } else {
      tags.push_back({"StartFen4", game.startText()});
    }
  }
  if (!r.die.empty() && o.seed) tags.push_back({"Seed", std::to_string(game.seed())});
  std::string termination = game.drawReason();
  if (termination.empty()) termination = std::string(nameOf(game.decision()));
  if (termination.empty() && game.finished() && !game.record().empty() && isSeatExit(game.record().back()))
    termination = std::string(nameOf(game.record().back().kind));
  if (!termination.empty()) tags.push_back({"Termination", termination});
  return tags;
}

// The movetext tokens (without the result): the game replayed from its start
// so that the notation sees each position.
std::vector<std::string> moveTokens(const Game& game, const MoveNotation& notation) {
  const Rules& r = game.rules();
  const int n = r.nseats();
  std::vector<std::string> out;
  Game replay(game.position().rulesPtr(), game.seed());
  if (!replay.setStart(game.startText()).ok()) return out;
  int prevSeat = -1, round = 0;
  for (const PlyRecord& ply : game.record()) {
    const bool exit = isSeatExit(ply);
    if (exit && n == 2) {  // in [Result] and [Termination]
      if (ply.kind == EntryKind::kResign) replay.resign(ply.seat);
      else replay.timeout(ply.seat);
      continue;
    }
    std::string text;
    if (exit) {
      text = ply.kind == EntryKind::kResign ? "R" : "T";
    } else {
      Move move;
      bool found = false;
      for (Move m : replay.legalMoves())
        if (replay.position().moveText(m) == ply.move) {
          move = m;
          found = true;
          break;
        }
      if (!found) break;  // not from this game's rules: the record ends here
      text = notation.write(replay, move);
      if (!replay.play(move).ok()) break;
      text += notation.suffix(replay);
    }
    if (prevSeat < 0 || ply.seat <= prevSeat) out.push_back(std::to_string(++round) + (n == 2 && ply.seat == 1 ? "..." : "."));
    else if (n > 2) out.push_back("..");
    prevSeat = ply.seat;
    out.push_back(text);
    if (exit) {
      const std::string& seat = r.seats[static_cast<size_t>(ply.seat)].name;
      if (ply.kind == EntryKind::kResign) {
        out.push_back("{" + seat + " resigns}");
        replay.resign(ply.seat);
      } else {
        out.push_back("{" + seat + " times out}");
        replay.timeout(ply.seat);
      }
    }
    if (ply.dieFace) out.push_back("{die " + std::to_string(ply.dieFace) + "}");
  }
  return out;
}

}  // namespace

std::string pgnSeatTag(const Rules& rules, int seat) {
  return capitalised(rules.seats[static_cast<size_t>(seat)].name);
}

std::string resultText(const Game& game) {
  if (!game.finished()) return "*";
  const Rules& r = game.rules();
  const auto places = game.position().places();
  const int n = r.nseats();
  if (n == 2) {
    const int white = std::max(r.seatByName("white"), 0);
    const int black = 1 - white;
    if (places[static_cast<size_t>(white)] == places[static_cast<size_t>(black)]) return "1/2-1/2";
    return places[static_cast<size_t>(white)] < places[static_cast<size_t>(black)] ? "1-0" : "0-1";
  }
  std::string out;
  for (int s = 0; s < n; ++s) out += (s ? "-" : "") + std::to_string(places[static_cast<size_t>(s)]);
  return out;
}

std::string writePgn(const Game& game, const PgnWriteOptions& o) {
  std::vector<PgnTag> tags = standardTags(game, o);
  for (const PgnTag& t : o.tags) {
    auto it = std::find_if(tags.begin(), tags.end(), [&](const PgnTag& x) { return x.name == t.name; });
    if (it != tags.end()) it->value = t.value;
    else tags.push_back(t);
  }
  std::string out;
  for (const PgnTag& t : tags) out += tagLine(t);
  out += "\n";
  auto tokens = moveTokens(game, o.notation               ? *o.notation
                                 : game.rules().fen4ChessCom ? chessComNotation()
                                                             : engineNotation());
  tokens.push_back(resultText(game));
  std::string line;
  for (const std::string& tok : tokens) {
    if (!line.empty() && line.size() + 1 + tok.size() > kLineWidth) {
      out += line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + tok;
  }
  return out + line + "\n";
}

// ---- Reading --------------------------------------------------------------

std::string PgnGame::tag(const std::string& name) const {
  for (const PgnTag& t : tags)
    if (t.name == name) return t.value;
  return {};
}

namespace {

bool allDigits(const std::string& s, size_t from, size_t to) {
  if (from >= to) return false;
  for (size_t i = from; i < to; ++i)
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
  return true;
}

// 1-0, 0-1, 1/2-1/2, *, and the places of more seats: 2-1-4-3.
bool isResult(const std::string& t) {
  if (t == "*" || t == "1/2-1/2") return true;
  size_t start = 0, parts = 0;
  for (size_t i = 0; i <= t.size(); ++i) {
    if (i < t.size() && t[i] != '-') continue;
    if (!allDigits(t, start, i) || i - start > 2) return false;
    ++parts;
    start = i + 1;
  }
  return parts >= 2;
}

// Where a thing is: "SOURCE line L, column C".
std::string at(const std::string& source, int line, int column) {
  std::string where = "line " + std::to_string(line) + ", column " + std::to_string(column);
  return source.empty() ? where : source + " " + where;
}

class Reader {
 public:
  Reader(const std::string& text, const std::string& source) : t_(text), source_(source) {}

  Result<std::vector<PgnGame>> run() {
    while (i_ < t_.size()) {
      const char c = t_[i_];
      if (c == '%' && col_ == 1) {  // an escape line
        while (i_ < t_.size() && t_[i_] != '\n') step();
      } else if (std::isspace(static_cast<unsigned char>(c))) {
        step();
      } else if (c == '[') {
        if (depth_ > 0) return error(openLine_, openCol_, "a variation is not closed");
        if (auto s = tag(); !s.ok()) return s.error();
      } else if (c == '{') {
        if (auto s = braceComment(); !s.ok()) return s.error();
      } else if (c == ';') {
        const size_t from = i_ + 1;
        while (i_ < t_.size() && t_[i_] != '\n') step();
        attach(t_.substr(from, i_ - from));
      } else if (c == '(') {
        if (depth_ == 0) {
          openLine_ = line_;
          openCol_ = col_;
        }
        ++depth_;
        startGame();
        lastMove_ = false;
        step();
      } else if (c == ')') {
        if (depth_ == 0) return error(line_, col_, "')' closes no variation");
        --depth_;
        step();
      } else if (c == ']' || c == '}' || c == '"') {
        return error(line_, col_, std::string("unexpected '") + c + "'");
      } else if (auto s = symbol(); !s.ok()) {
        return s.error();
      }
    }
    if (depth_ > 0) return error(openLine_, openCol_, "a variation is not closed");
    finishGame();
    return std::move(games_);
  }

 private:
  void step() {
    if (t_[i_] == '\n') {
      ++line_;
      col_ = 1;
    } else {
      ++col_;
    }
    ++i_;
  }

  Error error(int line, int col, const std::string& message) const {
    return makeError("pgn", message, at(source_, line, col));
  }

  void startGame() {
    if (open_) return;
    open_ = true;
    cur_ = PgnGame{};
    cur_.line = line_;
  }
  void finishGame() {
    if (open_) games_.push_back(std::move(cur_));
    open_ = inMoves_ = lastMove_ = false;
    cur_ = PgnGame{};
  }

  // A comment right after a move belongs to it (the first one only).
  void attach(const std::string& comment) {
    if (depth_ == 0 && lastMove_ && cur_.moves.back().comment.empty()) cur_.moves.back().comment = trim(comment);
  }

  Status tag() {
    const int l = line_, c = col_;
    if (inMoves_) finishGame();  // a game whose movetext ended without a result
    startGame();
    step();  // '['
    skipBlanks();
    const size_t from = i_;
    while (i_ < t_.size() && (std::isalnum(static_cast<unsigned char>(t_[i_])) || t_[i_] == '_')) step();
    const std::string name = t_.substr(from, i_ - from);
    skipBlanks();
    if (name.empty() || i_ >= t_.size() || t_[i_] != '"') return error(l, c, "a tag is [Name \"value\"]");
    step();
    std::string value;
    while (i_ < t_.size() && t_[i_] != '"' && t_[i_] != '\n') {
      if (t_[i_] == '\\' && i_ + 1 < t_.size() && t_[i_ + 1] != '\n') step();
      value += t_[i_];
      step();
    }
    if (i_ >= t_.size() || t_[i_] != '"') return error(l, c, "the value of [" + name + "] is not closed by '\"'");
    step();
    skipBlanks();
    if (i_ >= t_.size() || t_[i_] != ']') return error(l, c, "a tag is [Name \"value\"]");
    step();
    for (const PgnTag& t : cur_.tags)
      if (t.name == name) return error(l, c, "the tag " + name + " is given twice");
    cur_.tags.push_back({name, value});
    return okStatus();
  }

  void skipBlanks() {
    while (i_ < t_.size() && (t_[i_] == ' ' || t_[i_] == '\t')) step();
  }

  Status braceComment() {
    const int l = line_, c = col_;
    const size_t from = i_ + 1;
    while (i_ < t_.size() && t_[i_] != '}') step();
    if (i_ >= t_.size()) return error(l, c, "a comment '{' is not closed by '}'");
    attach(t_.substr(from, i_ - from));
    step();  // '}'
    return okStatus();
  }

  Status symbol() {
    const int l = line_, c = col_;
    const size_t from = i_;
    while (i_ < t_.size() && !std::isspace(static_cast<unsigned char>(t_[i_])) &&
           std::string_view("{}()[];\"").find(t_[i_]) == std::string_view::npos)
      step();
    std::string tok = t_.substr(from, i_ - from);
    startGame();
    if (depth_ > 0) return okStatus();  // inside a variation: read, not used
    if (tok[0] == '$') {
      if (!allDigits(tok, 1, tok.size())) return error(l, c, "a NAG is '$' and a number: \"" + tok + "\"");
      return okStatus();
    }
    inMoves_ = true;
    if (isResult(tok)) {
      cur_.result = tok;
      finishGame();
      return okStatus();
    }
    // A move number: digits then dots ("12." "12..." "12.e4"), or digits alone
    // (never with a leading zero: 0000 is a move); dots alone ("..", "...").
    size_t k = 0;
    while (k < tok.size() && std::isdigit(static_cast<unsigned char>(tok[k]))) ++k;
    if (k == tok.size() && tok[0] != '0') {
      lastMove_ = false;
      return okStatus();
    }
    if (k < tok.size() && tok[k] == '.') {
      while (k < tok.size() && tok[k] == '.') ++k;
      if (k == tok.size()) {
        lastMove_ = false;
        return okStatus();
      }
      tok = tok.substr(k);
    } else {
      k = 0;
    }
    if (std::all_of(tok.begin(), tok.end(), [](char ch) { return ch == '!' || ch == '?'; })) return okStatus();
    cur_.moves.push_back({tok, "", l, c + static_cast<int>(k)});
    lastMove_ = true;
    return okStatus();
  }

  const std::string& t_;
  const std::string& source_;
  size_t i_ = 0;
  int line_ = 1, col_ = 1;
  int depth_ = 0, openLine_ = 0, openCol_ = 0;
  bool open_ = false, inMoves_ = false, lastMove_ = false;
  PgnGame cur_;
  std::vector<PgnGame> games_;
};

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

Result<std::vector<PgnGame>> readPgn(const std::string& text, const std::string& source) {
  return Reader(text, source).run();
}

std::string pgnVariant(const PgnGame& game, const VariantRegistry& registry) {
  if (const std::string name = game.tag("VariantName"); !name.empty() && registry.find(name)) return name;
  const std::string v = lower(game.tag("Variant"));
  if (v.empty()) return {};
  if ((v == "ffa" || v == "teams") && registry.find("four-player-chess")) return "four-player-chess";  // chess.com's PGN4
  for (const VariantDef* d : registry.all())
    if (lower(d->name) == v || lower(d->title) == v) return d->name;
  return {};
}

Result<std::unique_ptr<Game>> pgnStart(const PgnGame& g, std::shared_ptr<const Rules> rules, const std::string& source) {
  const std::string where = at(source, g.line, 1);
  uint64_t seed = 1;
  if (const std::string s = g.tag("Seed"); !s.empty()) {
    if (!allDigits(s, 0, s.size()) || s.size() > 19) return makeError("pgn", "[Seed] is not a number: \"" + s + "\"", where);
    seed = std::stoull(s);
  }
  auto game = std::make_unique<Game>(std::move(rules), seed);
  const std::string start = g.tag(game->rules().nseats() > 2 ? "StartFen4" : "FEN");
  if (!start.empty() && start != "4PC")  // chess.com's name for the four-player start
    if (auto s = game->setStart(start); !s.ok()) return makeError("pgn", "the start: " + s.error().text(), where);
  return game;
}

Result<Move> readPgnMove(Game& game, const PgnMove& mv, const MoveNotation& notation, const std::string& source) {
  auto m = notation.read(game, mv.text);
  if (!m.ok()) return makeError("pgn", m.error().message, at(source, mv.line, mv.column));
  return m;
}

Status playPgnMove(Game& game, const PgnMove& mv, const MoveNotation& notation, const std::string& source) {
  const std::string where = at(source, mv.line, mv.column);
  if (mv.text == "R" || mv.text == "T") {
    if (game.finished()) return makeError("pgn", "the game is over", where);
    int seat = game.position().toMove();
    const std::string verb = mv.text == "R" ? " resigns" : " times out";
    if (mv.comment.size() > verb.size() && mv.comment.compare(mv.comment.size() - verb.size(), verb.size(), verb) == 0) {
      seat = game.rules().seatByName(mv.comment.substr(0, mv.comment.size() - verb.size()));
      if (seat < 0 || !game.position().isIn(seat))
        return makeError("pgn", "no seat in play is named in \"" + mv.comment + "\"", where);
    }
    if (mv.text == "R") game.resign(seat);
    else game.timeout(seat);
    return okStatus();
  }
  auto m = readPgnMove(game, mv, notation, source);
  if (!m.ok()) return m.error();
  if (mv.comment.rfind("die ", 0) == 0 && mv.comment != "die " + std::to_string(game.currentThrow()))
    return makeError("pgn", "the record says \"" + mv.comment + "\" but the die shows " +
                                std::to_string(game.currentThrow()), where);
  if (auto s = game.play(*m); !s.ok()) return makeError("pgn", s.error().message, where);
  return okStatus();
}

Result<std::unique_ptr<Game>> replayPgn(const PgnGame& g, const VariantRegistry& registry,
                                        const MoveNotation& notation, const std::string& source) {
  const std::string where = at(source, g.line, 1);
  const std::string name = pgnVariant(g, registry);
  if (name.empty()) return makeError("pgn", "unknown variant \"" + g.tag("Variant") + "\"", where);
  std::vector<std::string> options;
  std::string text = g.tag("VariantOptions");
  if (text.empty() && lower(g.tag("Variant")) == "teams" && name == "four-player-chess") text = "mode=teams";
  for (size_t i = 0; i < text.size();) {
    const size_t j = std::min(text.find(' ', i), text.size());
    if (j > i) options.push_back(text.substr(i, j - i));
    i = j + 1;
  }
  auto rules = registry.rules(name, options);
  if (!rules.ok()) return makeError("pgn", rules.error().text(), where);
  auto game = pgnStart(g, rules.value(), source);
  if (!game.ok()) return game.error();
  Game& played = **game;
  const MoveNotation& used = played.rules().fen4ChessCom && &notation == &engineNotation() ? chessComNotation() : notation;
  for (const PgnMove& mv : g.moves)
    if (auto s = playPgnMove(played, mv, used, source); !s.ok()) return s.error();
  // Two seats: a resignation, a timeout or an agreed draw is not in the moves
  // but in [Result] and [Termination].
  const std::string result = g.tag("Result"), termination = g.tag("Termination");
  if (!played.finished() && played.rules().nseats() == 2) {
    const int white = std::max(played.rules().seatByName("white"), 0);
    const int loser = result == "1-0" ? 1 - white : result == "0-1" ? white : -1;
    if (loser >= 0 && termination == "resign") played.resign(loser);
    if (loser >= 0 && termination == "timeout") played.timeout(loser);
    if (result == "1/2-1/2" && termination == "agreement") played.agreeDraw();
  }
  return game;
}

}  // namespace acedrex
