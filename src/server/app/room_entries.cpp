#include "server/app/room_entries.h"

#include "core/records/pgn.h"
#include "server/app/json.h"

namespace acedrex::server {
namespace {

// Why seats went out during one entry: replays the entry on a Position made
// from the text before it, collecting the events of every ply it caused.
std::vector<PlyEvents::Out> outsOf(const std::shared_ptr<const Rules>& rules, const std::string& before,
                                   const std::string& text, int seat) {
  std::vector<PlyEvents::Out> outs;
  Position p(rules);
  if (!p.set(before).ok()) return outs;
  auto collect = [&]() {
    if (p.undoDepth() == 0) return;
    const PlyEvents& ev = p.lastEvents();
    for (int i = 0; i < ev.nOuts; ++i) outs.push_back(ev.outs[i]);
  };
  const EntryKind kind = entryKindOf(text);
  if (kind == EntryKind::kResign || kind == EntryKind::kTimeout) {
    p.removeSeat(seat, kind == EntryKind::kResign ? OutReason::kResigned : OutReason::kTimeout);
  } else if (text == "0000") {
    p.make(Move::null());
  } else {
    auto m = p.parseMove(text);
    if (!m.ok()) return outs;
    p.make(*m);
  }
  collect();
  while (!p.finished()) {
    MoveList list;
    p.legalMoves(list);
    if (!list.empty()) break;
    p.applyTurnStart();
    collect();
  }
  return outs;
}

}  // namespace

bool applyEntryToGame(Game& game, const std::string& text, int seat, std::vector<std::string>& outReasons) {
  const Position& pos = game.position();
  const uint8_t inBefore = pos.inMask();
  const std::string before = pos.text();
  const int n = game.rules().nseats();
  const EntryKind kind = entryKindOf(text);
  const bool exit = kind == EntryKind::kResign || kind == EntryKind::kTimeout;
  if (exit) {
    if (seat < 0 || seat >= n || !pos.isIn(seat) || game.finished()) return false;
    if (kind == EntryKind::kResign) game.resign(seat);
    else game.timeout(seat);
  } else if (kind == EntryKind::kDraw) {
    if (game.finished()) return false;
    game.agreeDraw();
  } else {
    if (!game.play(text).ok()) return false;
  }
  const uint8_t gone = inBefore & ~game.position().inMask();
  if (gone) {
    const auto outs = outsOf(game.position().rulesPtr(), before, text, seat);
    for (int s = 0; s < n; ++s) {
      if (!((gone >> s) & 1)) continue;
      std::string reason = exit && s == seat ? text : "";
      if (reason.empty())
        for (const auto& o : outs)
          if (o.seat == s) reason = std::string(nameOf(o.reason));
      outReasons[static_cast<size_t>(s)] = reason.empty() ? "checkmate" : reason;
    }
  }
  return true;
}

EntryNote entryNoteOf(const Game& before, const Game& after, const std::string& text) {
  EntryNote note;
  const Rules& r = before.rules();
  if (before.currentThrow() && before.currentThrowType() >= 0)
    note.dieKind = r.types[static_cast<size_t>(before.currentThrowType())].name;
  if (r.nseats() != 2 || entryKindOf(text) != EntryKind::kMove || text == "0000") return note;
  Game copy(before);
  for (Move m : copy.legalMoves())
    if (copy.position().moveText(m) == text) {
      note.san = sanNotation().write(copy, m) + sanNotation().suffix(after);
      break;
    }
  return note;
}

std::string resultJsonOf(const Game& game, const std::vector<std::string>& outReasons) {
  const Position& p = game.position();
  const Rules& r = game.rules();
  JsonWriter w;
  w.beginObject().key("places").beginObject();
  const auto places = p.places();
  for (int s = 0; s < r.nseats(); ++s) w.key(r.seats[static_cast<size_t>(s)].name).value(places[static_cast<size_t>(s)]);
  w.endObject();
  std::string reason;
  if (game.drawReasonKind() != DrawReason::kNone) {
    reason = std::string(nameOf(game.drawReasonKind()));
  } else if (p.result() == ResultKind::kOthersDraw) {
    reason = "stalemate";
  } else if (p.outCount() > 0) {
    reason = outReasons[static_cast<size_t>(p.outSeat(p.outCount() - 1))];
    // Joko: the decisive mate may not be the last seat out of the record.
    if (p.result() == ResultKind::kFirstMate) {
      for (int i = p.outCount() - 1; i >= 0; --i) {
        const std::string& rr = outReasons[static_cast<size_t>(p.outSeat(i))];
        if (rr == "checkmate" || rr == "king-captured") {
          reason = rr;
          break;
        }
      }
    }
  }
  if (reason.empty()) reason = std::string(nameOf(game.decision()));  // janggi's material count
  if (reason.empty()) reason = "unknown";
  w.key("reason").value(reason);
  int winner = -1, firsts = 0;
  for (int s = 0; s < r.nseats(); ++s)
    if (places[static_cast<size_t>(s)] == 1) {
      winner = s;
      ++firsts;
    }
  w.key("winner");
  if (firsts == 1) w.value(r.seats[static_cast<size_t>(winner)].name);
  else w.null();
  w.endObject();
  return w.take();
}

}  // namespace acedrex::server
