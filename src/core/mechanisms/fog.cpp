#include "core/mechanisms/fog.h"

#include <cctype>
#include <cstdlib>
#include <utility>

#include "core/base/text_util.h"

namespace acedrex {
namespace {

// A FEN's board field as one token per square (index = rank * width + file):
// "" for an empty square, else the piece as written ("P", "q", "+p", "Q~").
std::vector<std::string> boardTokens(const Rules& r, const std::string& field) {
  std::vector<std::string> out(static_cast<size_t>(r.nsq()));
  int rank = r.height - 1, file = 0;
  for (size_t i = 0; i < field.size() && rank >= 0; ++i) {
    const char c = field[i];
    if (c == '/') {
      --rank;
      file = 0;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      int n = 0;
      while (i < field.size() && std::isdigit(static_cast<unsigned char>(field[i]))) n = n * 10 + (field[i++] - '0');
      --i;
      file += n;
    } else {
      std::string t(1, c);
      if (c == '+' && i + 1 < field.size()) t += field[++i];
      if (i + 1 < field.size() && field[i + 1] == '~') t += field[++i];
      if (r.onBoard(file, rank)) out[static_cast<size_t>(r.square(file, rank))] = t;
      ++file;
    }
  }
  return out;
}

// The seat a token's piece belongs to (two seats: upper case is the first).
int ownerOf(const std::string& t) {
  const char c = t[0] == '+' && t.size() > 1 ? t[1] : t[0];
  return std::isupper(static_cast<unsigned char>(c)) ? 0 : 1;
}

char letterOf(const std::string& t) {
  const char c = t[0] == '+' && t.size() > 1 ? t[1] : t[0];
  return static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
}

// Writes a board field from tokens; hidden squares (when given) as '?'.
std::string boardField(const Rules& r, const std::vector<std::string>& tokens, const std::vector<bool>* visible) {
  std::string out;
  for (int rank = r.height - 1; rank >= 0; --rank) {
    int empty = 0;
    for (int file = 0; file < r.width; ++file) {
      const auto s = static_cast<size_t>(r.square(file, rank));
      const bool hidden = visible && !(*visible)[s];
      if (!hidden && tokens[s].empty()) {
        ++empty;
        continue;
      }
      if (empty) out += std::to_string(empty);
      empty = 0;
      out += hidden ? std::string("?") : tokens[s];
    }
    if (empty) out += std::to_string(empty);
    if (rank) out += '/';
  }
  return out;
}

// The position's text split into its fields, the hands (if any) taken off the board.
std::vector<std::string> fenFields(const Position& pos) {
  std::vector<std::string> f = words(pos.text());
  if (!f.empty()) {
    const size_t bracket = f[0].find('[');
    if (bracket != std::string::npos) f[0].erase(bracket);
  }
  while (f.size() < 6) f.push_back(f.size() == 4 ? "0" : f.size() == 5 ? "1" : "-");
  return f;
}

// The legal moves `seat` would have if it were to move (without en passant
// when it is not: that right is the side to move's alone).
void movesAsMover(const Position& pos, int seat, MoveList& out) {
  out.clear();
  if (pos.finished()) return;
  if (seat == pos.toMove()) {
    Position copy(pos);
    copy.legalMoves(out);
    return;
  }
  auto f = fenFields(pos);
  f[1] = seat == 0 ? "w" : "b";
  f[3] = "-";
  std::string text = pos.text();
  // Keep the hands and every field after the sixth as they were.
  const auto all = words(text);
  text = all[0];
  for (size_t i = 1; i < all.size(); ++i) text += " " + (i == 1 ? f[1] : i == 3 ? f[3] : all[i]);
  Position p(pos.rulesPtr());
  if (!p.set(text).ok()) return;  // cannot happen under king capture; then only its pieces are seen
  p.legalMoves(out);
}

}  // namespace

std::vector<bool> visibleSquares(const Position& pos, int seat) {
  const Rules& r = pos.rules();
  std::vector<bool> seen(static_cast<size_t>(r.nsq()), false);
  for (int i = 0; i < pos.pieceCount(seat); ++i) seen[static_cast<size_t>(pos.pieceSquare(seat, i))] = true;
  MoveList list;
  movesAsMover(pos, seat, list);
  for (Move m : list) {
    if (m.isNull() || m.isDrop()) continue;
    seen[static_cast<size_t>(m.to())] = true;
    if (m.flag() == kCastle) {
      const int side = r.fileOf(m.to()) == r.castleKingFile[0] ? 0 : 1;
      seen[static_cast<size_t>(m.to() + (side == 0 ? -1 : 1))] = true;  // the rook's square
    } else if (m.flag() == kEnPassant) {
      seen[static_cast<size_t>(r.square(r.fileOf(m.to()), r.rankOf(m.from())))] = true;  // the pawn taken
    }
  }
  return seen;
}

namespace {
// The en passant square for the view: only when the seat is to move and one
// of its moves takes en passant.
std::string viewEnPassant(const Position& pos, int seat) {
  if (seat != pos.toMove() || pos.epSquare() == kNoSquare) return "-";
  MoveList list;
  movesAsMover(pos, seat, list);
  for (Move m : list)
    if (m.flag() == kEnPassant) return pos.rules().squareName(pos.epSquare());
  return "-";
}

// Castling rights: the seat's own letters only (upper case for the first seat).
std::string ownRights(const std::string& field, int seat) {
  std::string out;
  for (char c : field)
    if (c != '-' && (std::isupper(static_cast<unsigned char>(c)) != 0) == (seat == 0)) out += c;
  return out.empty() ? "-" : out;
}
}  // namespace

std::string maskedText(const Position& pos, const std::vector<bool>& visible, int seat) {
  const Rules& r = pos.rules();
  const auto f = fenFields(pos);
  const auto tokens = boardTokens(r, f[0]);
  return boardField(r, tokens, &visible) + " " + f[1] + " " + (seat < 0 ? "-" : ownRights(f[2], seat)) + " " +
         (seat < 0 ? "-" : viewEnPassant(pos, seat)) + " - " + f[5];
}

std::string viewText(const Position& pos, int seat) { return maskedText(pos, visibleSquares(pos, seat), seat); }

std::vector<bool> commonSquares(const Position& pos) {
  auto both = visibleSquares(pos, 0);
  const auto other = visibleSquares(pos, 1);
  for (size_t i = 0; i < both.size(); ++i) both[i] = both[i] && other[i];
  return both;
}

std::string viewSampleText(const Position& pos, int seat) {
  const Rules& r = pos.rules();
  const auto f = fenFields(pos);
  const auto seen = visibleSquares(pos, seat);
  const auto real = boardTokens(r, f[0]);
  std::vector<std::string> tokens(real.size());
  for (size_t s = 0; s < real.size(); ++s)
    if (seen[s]) tokens[s] = real[s];
  const int enemy = 1 - seat;
  const int step = r.seats[static_cast<size_t>(seat)].dir == kSouth ? -1 : 1;  // ranks forward for its pawns
  const std::string enemyPawn = enemy == 0 ? "P" : "p";
  std::vector<bool> pawnTakes(real.size(), false);  // squares a pawn of the seat would capture on
  const char royal = r.royalType >= 0 ? r.types[static_cast<size_t>(r.royalType)].letter : '?';
  bool enemyKingSeen = false;
  for (Square s = 0; s < r.nsq(); ++s) {
    const auto& t = tokens[static_cast<size_t>(s)];
    if (t.empty()) continue;
    if (ownerOf(t) == enemy && letterOf(t) == royal) enemyKingSeen = true;
    const int type = r.typeByLetter(letterOf(t));
    if (ownerOf(t) != seat || type < 0 || !r.types[static_cast<size_t>(type)].pawn) continue;
    const int file = r.fileOf(s), rank = r.rankOf(s) + step;
    for (int df = -1; df <= 1; df += 2)
      if (r.onBoard(file + df, rank)) pawnTakes[static_cast<size_t>(r.square(file + df, rank))] = true;
    // A push it cannot make: something hidden stands in the way.
    if (!r.onBoard(file, rank)) continue;
    const auto one = static_cast<size_t>(r.square(file, rank));
    if (!seen[one]) {
      tokens[one] = enemyPawn;
    } else if (tokens[one].empty() && r.doubleStepRank && r.relativeRank(s, r.seats[static_cast<size_t>(seat)].dir) == r.doubleStepRank &&
               r.onBoard(file, rank + step)) {
      const auto two = static_cast<size_t>(r.square(file, rank + step));
      if (!seen[two]) tokens[two] = enemyPawn;
    }
  }
  if (!enemyKingSeen && royal != '?') {
    // Where the enemy king starts, from the variant's start position.
    const auto start = boardTokens(r, words(r.start).empty() ? std::string() : words(r.start)[0]);
    Square home = 0;
    for (Square s = 0; s < r.nsq(); ++s)
      if (!start[static_cast<size_t>(s)].empty() && ownerOf(start[static_cast<size_t>(s)]) == enemy &&
          letterOf(start[static_cast<size_t>(s)]) == royal)
        home = s;
    // The nearest hidden square that is free and out of the seat's pawns'
    // reach; failing that (hardly ever) one holding a blocker, then any.
    Square best = kNoSquare;
    for (int pass = 0; pass < 3 && best == kNoSquare; ++pass) {
      int bestDist = 0;
      for (Square s = 0; s < r.nsq(); ++s) {
        const auto i = static_cast<size_t>(s);
        if (seen[i] || r.blocked[i] || (pass < 2 && pawnTakes[i]) || (pass == 0 && !tokens[i].empty())) continue;
        const int df = r.fileOf(s) - r.fileOf(home), dr = r.rankOf(s) - r.rankOf(home);
        const int d = df * df + dr * dr;
        if (best == kNoSquare || d < bestDist) best = s, bestDist = d;
      }
    }
    if (best != kNoSquare) tokens[static_cast<size_t>(best)] = std::string(1, enemy == 0 ? royal : static_cast<char>(std::tolower(royal)));
  }
  return boardField(r, tokens, nullptr) + " " + f[1] + " " + ownRights(f[2], seat) + " " + viewEnPassant(pos, seat) +
         " 0 " + f[5];
}

}  // namespace acedrex
