#include "server/app/records.h"

#include <algorithm>
#include <ctime>
#include <vector>

#include "core/records/pgn.h"
#include "server/app/players.h"
#include "server/app/room.h"

namespace acedrex::server {
namespace {

const char* dirName(int d) {
  static const char* names[] = {"n", "e", "s", "w"};
  return names[d & 3];
}

std::string dateOf(int64_t ms) {
  const std::time_t t = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[16];
  std::strftime(buf, sizeof buf, "%Y.%m.%d", &tm);
  return buf;
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

}  // namespace

void writePieces(JsonWriter& w, const Position& p, const std::vector<bool>* visible) {
  const Rules& r = p.rules();
  w.beginArray();
  for (int s = 0; s < r.nsq(); ++s) {
    if (visible && !(*visible)[static_cast<size_t>(s)]) continue;
    if (s == p.duckSquare()) {
      // The duck (Rules::duck) is a blocker of no seat, not a piece of the
      // board's array (duck.cpp): listed so that a client draws it.
      w.beginObject().key("square").value(r.squareName(s)).key("seat").null().key("letter").value("*");
      w.key("name").value("duck").key("dir").null().endObject();
      continue;
    }
    const Piece pc = p.at(s);
    if (!isPiece(pc)) continue;
    const PieceType& t = r.types[static_cast<size_t>(typeOf(pc))];
    w.beginObject().key("square").value(r.squareName(s)).key("seat").value(r.seats[static_cast<size_t>(seatOf(pc))].name);
    w.key("letter").value(std::string(1, t.letter)).key("name").value(t.name).key("dir").value(dirName(dirOf(pc)));
    w.endObject();
  }
  w.endArray();
}

void writeLegal(JsonWriter& w, Game& game) {
  const Position& p = game.position();
  const Rules& r = p.rules();
  std::vector<std::pair<std::string, std::vector<std::string>>> groups;
  for (Move m : game.legalMoves()) {
    const std::string text = p.moveText(m);
    const std::string from = m.isNull() ? std::string("0000") : r.squareName(m.from());
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& gr) { return gr.first == from; });
    if (it == groups.end()) groups.push_back({from, {text}});
    else it->second.push_back(text);
  }
  w.beginObject();
  for (const auto& [from, list] : groups) {
    w.key(from).beginArray();
    for (const auto& t : list) w.value(t);
    w.endArray();
  }
  w.endObject();
}

void writeFrameFields(JsonWriter& w, const Game& game, const std::string& lastMove) {
  const Position& p = game.position();
  const Rules& r = p.rules();
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
}

std::string pgnOf(const StoredGame& g, const std::shared_ptr<const Rules>& rules) {
  const Rules& r = *rules;
  Replayed rp = startOf(g, rules);
  Game& game = *rp.game;
  for (const auto& e : g.entries)
    if (!applyEntryToGame(game, e.text, e.seat, rp.reasons)) break;
  PgnWriteOptions o;
  o.notation = r.nseats() == 2 ? &sanNotation() : &longNotation();
  o.seed = game.finished();  // the seed foretells the throws: kept until the end
  o.tags = {{"Site", "acedrex /game/" + g.id}, {"Date", dateOf(g.createdMs)}};
  for (int s = 0; s < r.nseats(); ++s) o.tags.push_back({pgnSeatTag(r, s), playerName(g.seats[static_cast<size_t>(s)])});
  if (game.finished())
    if (auto j = parseJson(resultJsonOf(game, rp.reasons)); j.ok())
      if (const Json* reason = j->get("reason"); reason && reason->isString() && !reason->asString().empty())
        o.tags.push_back({"Termination", reason->asString()});
  if (g.clock.enabled)
    o.tags.push_back(
        {"TimeControl", std::to_string(g.clock.initialMs / 1000) + "+" + std::to_string(g.clock.incrementMs / 1000)});
  return writePgn(game, o);
}

std::string replayJsonOf(const StoredGame& g, const std::shared_ptr<const Rules>& rules) {
  Replayed rp = startOf(g, rules);
  Game& game = *rp.game;
  JsonWriter w;
  w.beginObject().key("id").value(g.id).key("frames").beginArray();
  std::string lastMove;
  auto frame = [&](size_t ply) {
    w.beginObject().key("ply").value(static_cast<int64_t>(ply));
    writeFrameFields(w, game, lastMove);
    w.endObject();
  };
  frame(0);
  for (size_t i = 0; i < g.entries.size(); ++i) {
    const auto& e = g.entries[i];
    if (!applyEntryToGame(game, e.text, e.seat, rp.reasons)) break;
    if (entryKindOf(e.text) == EntryKind::kMove) lastMove = e.text;
    frame(i + 1);
  }
  w.endArray().endObject();
  return w.take();
}

}  // namespace acedrex::server
