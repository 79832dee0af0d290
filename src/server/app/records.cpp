#include "server/app/records.h"

#include <ctime>
#include <vector>

#include "server/app/room.h"

namespace acedrex::server {
namespace {

const char* dirName(int d) {
  static const char* names[] = {"n", "e", "s", "w"};
  return names[d & 3];
}

std::string fileOf(const std::string& square) {
  size_t i = 0;
  while (i < square.size() && std::isalpha(static_cast<unsigned char>(square[i]))) ++i;
  return square.substr(0, i);
}
std::string rankOf(const std::string& square) { return square.substr(fileOf(square).size()); }

std::string dateOf(int64_t ms) {
  const std::time_t t = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[16];
  std::strftime(buf, sizeof buf, "%Y.%m.%d", &tm);
  return buf;
}

std::string playerName(const SeatPlan& s) {
  return s.bot ? "Acedrex level " + std::to_string(s.level) : std::string("Human");
}

std::string escapeTag(const std::string& v) {
  std::string out;
  for (char c : v) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

std::string tag(const std::string& name, const std::string& value) {
  return "[" + name + " \"" + escapeTag(value) + "\"]\n";
}

bool isBoardMove(const std::string& t) { return t != "resign" && t != "timeout" && t != "draw"; }

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

struct Replayed {
  std::unique_ptr<Game> game;
  std::vector<std::string> reasons;
};

Replayed startOf(const StoredGame& g, const std::shared_ptr<const Rules>& rules) {
  Replayed r;
  r.game = std::make_unique<Game>(rules, g.seed);
  if (!g.startFen.empty()) (void)r.game->setStart(g.startFen);
  r.reasons.assign(static_cast<size_t>(rules->nseats()), "");
  return r;
}

// Long algebraic for PGN4: Ka8-b8, a6xb5, c7-c8=F.
std::string longMove(Game& game, const std::string& text) {
  const Position& p = game.position();
  const Rules& r = p.rules();
  for (Move m : game.legalMoves()) {
    if (p.moveText(m) != text) continue;
    if (m.isNull()) return "--";
    const PieceType& t = r.types[static_cast<size_t>(typeOf(p.at(m.from())))];
    std::string s = t.pawn ? "" : std::string(1, t.letter);
    const bool capture = isPiece(p.at(m.to())) || m.flag() == kEnPassant;
    s += r.squareName(m.from()) + (capture ? "x" : "-") + r.squareName(m.to());
    if (m.promo() >= 0) s += std::string("=") + r.types[static_cast<size_t>(m.promo())].letter;
    return s;
  }
  return text;
}

}  // namespace

void writePieces(JsonWriter& w, const Position& p) {
  const Rules& r = p.rules();
  w.beginArray();
  for (int s = 0; s < r.nsq(); ++s) {
    const Piece pc = p.at(s);
    if (!isPiece(pc)) continue;
    const PieceType& t = r.types[static_cast<size_t>(typeOf(pc))];
    w.beginObject().key("square").value(r.squareName(s)).key("seat").value(r.seats[static_cast<size_t>(seatOf(pc))].name);
    w.key("letter").value(std::string(1, t.letter)).key("name").value(t.name).key("dir").value(dirName(dirOf(pc)));
    w.endObject();
  }
  w.endArray();
}

std::string sanOf(Game& game, const std::string& text) {
  const Position& p = game.position();
  const Rules& r = p.rules();
  const auto legal = game.legalMoves();
  Move m;
  bool found = false;
  for (Move x : legal)
    if (p.moveText(x) == text) {
      m = x;
      found = true;
    }
  if (!found) return text;
  if (m.isNull()) return "--";
  const Piece pc = p.at(m.from());
  const PieceType& t = r.types[static_cast<size_t>(typeOf(pc))];
  if (m.flag() == kCastle) return r.fileOf(m.to()) > r.fileOf(m.from()) ? "O-O" : "O-O-O";
  const bool capture = isPiece(p.at(m.to())) || m.flag() == kEnPassant;
  const std::string from = r.squareName(m.from());
  std::string s;
  if (t.pawn) {
    if (capture) s += fileOf(from);
  } else {
    s += t.letter;
    bool clash = false, sameFile = false, sameRank = false;
    for (Move x : legal) {
      if (x.isNull() || x.to() != m.to() || x.from() == m.from()) continue;
      if (typeOf(p.at(x.from())) != typeOf(pc)) continue;
      clash = true;
      if (r.fileOf(x.from()) == r.fileOf(m.from())) sameFile = true;
      if (r.rankOf(x.from()) == r.rankOf(m.from())) sameRank = true;
    }
    if (clash) {
      if (!sameFile) s += fileOf(from);
      else if (!sameRank) s += rankOf(from);
      else s += from;
    }
  }
  if (capture) s += 'x';
  s += r.squareName(m.to());
  if (m.promo() >= 0) s += std::string("=") + r.types[static_cast<size_t>(m.promo())].letter;
  return s;
}

std::string pgnOf(const StoredGame& g, const std::shared_ptr<const Rules>& rules) {
  const Rules& r = *rules;
  Replayed rp = startOf(g, rules);
  Game& game = *rp.game;
  const int n = r.nseats();
  std::string head, body;
  std::string ruleVariants, variantOptions;
  for (const auto& [k, v] : r.options) {
    variantOptions += (variantOptions.empty() ? "" : " ") + k + "=" + v;
    if (n > 2 && (v == "yes" || v == "on")) ruleVariants += (ruleVariants.empty() ? "" : " ") + capitalised(k);
  }
  // Moves.
  int lastSeat = n;  // forces a round number on the first move
  int round = 0;
  for (const auto& e : g.entries) {
    if (!isBoardMove(e.text) && (n == 2 || e.text == "draw")) {
      (void)applyEntryToGame(game, e.text, e.seat, rp.reasons);
      continue;
    }
    std::string mv = !isBoardMove(e.text) ? (e.text == "resign" ? "R" : "T")
                     : n == 2             ? sanOf(game, e.text)
                                          : longMove(game, e.text);
    const int seat = e.seat;
    if (!applyEntryToGame(game, e.text, e.seat, rp.reasons)) break;
    if (n == 2) {
      const Position& p = game.position();
      if (game.finished() && p.result() == ResultKind::kWin && p.outCount() > 0) {
        if (rp.reasons[static_cast<size_t>(p.outSeat(p.outCount() - 1))] == "checkmate") mv += '#';
      } else {
        for (int s = 0; s < n; ++s)
          if (p.isIn(s) && p.inCheck(s)) {
            mv += '+';
            break;
          }
      }
    }
    if (seat <= lastSeat) {
      ++round;
      body += " " + std::to_string(round) + (n == 2 && seat == 1 ? "..." : ".");
    } else if (n > 2) {
      body += " ..";
    }
    body += " " + mv;
    if (e.die && isBoardMove(e.text)) body += " {die " + std::to_string(e.die) + "}";
    lastSeat = seat;
  }
  // Result.
  std::string result = "*";
  std::string termination;
  if (game.finished()) {
    const auto places = game.position().places();
    if (n == 2) {
      const int white = r.seatByName("white") >= 0 ? r.seatByName("white") : 0;
      const int black = 1 - white;
      if (places[static_cast<size_t>(white)] == places[static_cast<size_t>(black)]) result = "1/2-1/2";
      else result = places[static_cast<size_t>(white)] == 1 ? "1-0" : "0-1";
    } else {
      result.clear();
      for (int s = 0; s < n; ++s) result += (s ? "-" : "") + std::to_string(places[static_cast<size_t>(s)]);
    }
    const std::string rj = resultJsonOf(game, rp.reasons);
    if (auto j = parseJson(rj); j.ok())
      if (const Json* reason = j->get("reason"); reason && reason->isString()) termination = reason->asString();
  }
  head += tag("Event", "Acedrex game");
  head += tag("Site", "acedrex /game/" + g.id);
  head += tag("Date", dateOf(g.createdMs));
  head += tag("Round", "-");
  for (int s = 0; s < n; ++s)
    head += tag(capitalised(r.seats[static_cast<size_t>(s)].name), playerName(g.seats[static_cast<size_t>(s)]));
  head += tag("Result", result);
  head += tag("Variant", r.title);
  head += tag("VariantName", r.variant);
  if (!variantOptions.empty()) head += tag("VariantOptions", variantOptions);
  if (!ruleVariants.empty()) head += tag("RuleVariants", ruleVariants);
  if (n == 2) {
    head += tag("SetUp", "1");
    head += tag("FEN", game.startText());
  } else {
    head += tag("StartFen4", game.startText());
  }
  if (!termination.empty()) head += tag("Termination", termination);
  if (g.clock.enabled)
    head += tag("TimeControl", std::to_string(g.clock.initialMs / 1000) + "+" + std::to_string(g.clock.incrementMs / 1000));
  if (game.finished() && !r.die.empty()) head += tag("Seed", std::to_string(g.seed));
  if (!body.empty() && body.front() == ' ') body.erase(0, 1);
  // Wrap the move text at 80 columns.
  std::string wrapped, line;
  size_t i = 0;
  auto flush = [&]() {
    if (!line.empty()) wrapped += line + "\n";
    line.clear();
  };
  while (i < body.size()) {
    size_t j = body.find(' ', i);
    if (j == std::string::npos) j = body.size();
    // Keep comments in one piece.
    if (body[i] == '{') {
      const size_t close = body.find('}', i);
      if (close != std::string::npos) j = close + 1;
    }
    const std::string word = body.substr(i, j - i);
    if (!line.empty() && line.size() + 1 + word.size() > 80) flush();
    line += (line.empty() ? "" : " ") + word;
    i = j + 1;
  }
  line += (line.empty() ? "" : " ") + result;
  flush();
  return head + "\n" + wrapped;
}

std::string replayJsonOf(const StoredGame& g, const std::shared_ptr<const Rules>& rules) {
  const Rules& r = *rules;
  Replayed rp = startOf(g, rules);
  Game& game = *rp.game;
  JsonWriter w;
  w.beginObject().key("id").value(g.id).key("frames").beginArray();
  std::string lastMove;
  auto frame = [&](size_t ply) {
    const Position& p = game.position();
    w.beginObject().key("ply").value(static_cast<int64_t>(ply));
    w.key("pieces");
    writePieces(w, p);
    w.key("toMove");
    if (game.finished()) w.null();
    else w.value(r.seats[static_cast<size_t>(p.toMove())].name);
    w.key("lastMove");
    if (lastMove.empty()) w.null();
    else w.value(lastMove);
    w.key("check").beginArray();
    for (int s = 0; s < r.nseats(); ++s)
      if (p.isIn(s) && p.inCheck(s)) w.value(r.seats[static_cast<size_t>(s)].name);
    w.endArray();
    w.key("die");
    if (game.currentThrow() && !game.finished()) w.value(game.currentThrow());
    else w.null();
    w.key("coins");
    if (r.coins) {
      w.beginObject();
      for (int s = 0; s < r.nseats(); ++s) w.key(r.seats[static_cast<size_t>(s)].name).value(game.coins()[static_cast<size_t>(s)]);
      w.endObject();
    } else {
      w.null();
    }
    w.key("fen").value(p.text());
    w.key("in").beginArray();
    for (int s = 0; s < r.nseats(); ++s)
      if (p.isIn(s)) w.value(r.seats[static_cast<size_t>(s)].name);
    w.endArray();
    w.endObject();
  };
  frame(0);
  for (size_t i = 0; i < g.entries.size(); ++i) {
    const auto& e = g.entries[i];
    if (!applyEntryToGame(game, e.text, e.seat, rp.reasons)) break;
    if (isBoardMove(e.text)) lastMove = e.text;
    frame(i + 1);
  }
  w.endArray().endObject();
  return w.take();
}

}  // namespace acedrex::server
