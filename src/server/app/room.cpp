#include "server/app/room.h"

#include <algorithm>
#include <cstdio>

#include "core/records/pgn.h"
#include "server/app/catalogue.h"
#include "server/app/fog_view.h"
#include "server/app/json.h"
#include "server/app/records.h"

namespace acedrex::server {
namespace {

constexpr int64_t kFirstStoreRetryMs = 100;
constexpr int64_t kLastStoreRetryMs = 10000;


// Constant-time comparison of a presented token with a seat's token.
bool sameToken(const std::string& a, const std::string& b) {
  if (a.size() != b.size() || a.empty()) return false;
  unsigned char diff = 0;
  for (size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

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

// What the state's move list says about an entry besides its text: its SAN
// in two-player games (as the PGN writes it, with + and #) and the piece kind
// the die allowed.
GameRoom::EntryNote noteOf(const Game& before, const Game& after, const std::string& text) {
  GameRoom::EntryNote note;
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

std::string seatsJson(const Rules& r, const std::vector<int>& seats) {
  JsonWriter w;
  w.beginArray();
  for (int s : seats) w.value(r.seats[static_cast<size_t>(s)].name);
  w.endArray();
  return w.take();
}

}  // namespace

std::string stateWithYou(const std::string& base, const std::string& youJson) {
  std::string out;
  out.reserve(base.size() + youJson.size() + 10);
  out += base;
  out += ",\"you\":";
  out += youJson;
  out += '}';
  return out;
}

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

GameRoom::GameRoom(const StoredGame& meta, std::shared_ptr<const Rules> rules, Store& store, RoomHost* host,
                   const TimeSource& time, BotFactory botFactory, const LobbyConfig& config, std::string creator)
    : meta_(meta), rules_(std::move(rules)), creator_(std::move(creator)), store_(store), host_(host), time_(time),
      botFactory_(std::move(botFactory)), config_(config) {
  meta_.entries.clear();
  botsOnly_ = std::all_of(meta_.seats.begin(), meta_.seats.end(), [](const SeatPlan& s) { return s.bot; });
  const size_t n = static_cast<size_t>(rules_->nseats());
  outReason_.assign(n, "");
  clock_.assign(n, meta_.clock.initialMs);
  connections_.assign(n, 0);
  lastUsedMs_ = time_.steadyMs();
}

Result<std::shared_ptr<GameRoom>> GameRoom::restore(const StoredGame& stored, std::shared_ptr<const Rules> rules,
                                                    Store& store, RoomHost* host, const TimeSource& time,
                                                    BotFactory botFactory, const LobbyConfig& config,
                                                    std::string creator) {
  if (static_cast<int>(stored.seats.size()) != rules->nseats())
    return makeError("restore", "game " + stored.id + " has the wrong number of seats");
  std::shared_ptr<GameRoom> room(
      new GameRoom(stored, rules, store, host, time, std::move(botFactory), config, std::move(creator)));
  std::lock_guard lock(room->m_);
  room->game_ = std::make_unique<Game>(rules, stored.seed);
  if (!stored.startFen.empty())
    if (auto s = room->game_->setStart(stored.startFen); !s.ok()) return s.error();
  room->meta_.startFen = room->game_->startText();
  size_t applied = 0;
  for (const auto& e : stored.entries) {
    Game before(*room->game_);
    if (!applyEntryToGame(*room->game_, e.text, e.seat, room->outReason_)) {
      std::fprintf(stderr, "acedrex serve: game %s: entry %d \"%s\" no longer applies; the record ends before it\n",
                   stored.id.c_str(), e.ply, e.text.c_str());
      (void)store.truncate(stored.id, e.ply);
      break;
    }
    room->entries_.push_back(e);
    room->notes_.push_back(noteOf(before, *room->game_, e.text));
    ++applied;
  }
  if (stored.clock.enabled) {
    if (!room->entries_.empty() && room->entries_.back().clockMs.size() == room->clock_.size())
      room->clock_ = room->entries_.back().clockMs;
    room->turnStart_ = time.steadyMs();  // the time the server was down is not charged
  }
  if (room->game_->finished() && !stored.finished) (void)store.finishGame(stored.id, room->resultJson());
  // A game stored as finished that the rules do not end was aborted (abortIfAbandoned).
  if (stored.finished && !room->game_->finished()) {
    room->aborted_ = true;
    room->abortResult_ = stored.resultJson;
  }
  room->lastHumanMs_ =
      stored.entries.empty() ? stored.createdMs : std::max(stored.createdMs, stored.entries.back().atMs);
  room->epoch_ = static_cast<int64_t>(applied) + 1;
  room->publishedPlies_ = room->entries_.size();
  room->publishedFogged_ = rules->fog && !room->over();
  return room;
}

std::vector<int> GameRoom::seatsOfLocked(const std::string& token) const {
  std::vector<int> out;
  if (token.empty()) return out;
  for (size_t s = 0; s < meta_.seats.size(); ++s)
    if (!meta_.seats[s].bot && sameToken(token, meta_.seats[s].token)) out.push_back(static_cast<int>(s));
  return out;
}

std::vector<int> GameRoom::seatsOf(const std::string& token) const {
  std::lock_guard lock(m_);
  return seatsOfLocked(token);
}

bool GameRoom::clockRunning() const {
  return meta_.clock.enabled && !over() && !entries_.empty();
}

bool GameRoom::clockHeld() const {
  if (!clockRunning() || clockStartedEpoch_ == epoch_) return false;
  const SeatPlan& plan = meta_.seats[static_cast<size_t>(game_->position().toMove())];
  return plan.bot && host_ && host_->mayThink(meta_.id);
}

int64_t GameRoom::clockLeft(int seat, int64_t now) const {
  int64_t left = clock_[static_cast<size_t>(seat)];
  if (clockRunning() && seat == game_->position().toMove() && !clockHeld()) left -= now - turnStart_;
  return std::max<int64_t>(left, 0);
}

bool GameRoom::timedOut(int seat, int64_t now) const {
  if (!clockRunning() || seat != game_->position().toMove() || clockHeld()) return false;
  // Shared stores: a bot's clock is started, and flagged, by the game's home.
  if (meta_.seats[static_cast<size_t>(seat)].bot && host_ && !host_->mayThink(meta_.id)) return false;
  return clockLeft(seat, now) <= 0;
}

std::string GameRoom::resultJson() { return aborted_ ? abortResult_ : resultJsonOf(*game_, outReason_); }

uint8_t GameRoom::seatMaskOf(const std::vector<int>& seats) const {
  uint8_t mask = 0;
  for (int s : seats) mask = static_cast<uint8_t>(mask | (1u << s));
  return mask;
}

const std::string& GameRoom::stateBase(uint8_t seatMask) {
  const bool over = this->over();
  const bool fogged = rules_->fog && !over;  // else every client gets the one full state
  if (!fogged && baseV_ == v_ && !clockRunning()) return base_;
  if (fogged && viewBaseV_ != v_) {
    viewBase_.clear();
    viewBaseV_ = v_;
  }
  const GameView view = GameView::of(*game_, over, fogged ? seatMask : 0xFF);
  if (fogged && !clockRunning())
    if (auto it = viewBase_.find(view.key); it != viewBase_.end()) return it->second;
  std::string& out = fogged ? viewBase_[view.key] : base_;
  out = stateText(view, kFullState);
  if (!fogged) baseV_ = v_;
  return out;
}

std::string GameRoom::deltaBase(uint8_t seatMask, size_t appendFrom) {
  const bool over = this->over();
  return stateText(GameView::of(*game_, over, rules_->fog && !over ? seatMask : 0xFF), appendFrom);
}

std::string GameRoom::stateText(const GameView& view, size_t appendFrom) {
  const bool over = this->over();
  const bool delta = appendFrom != kFullState;
  Game& g = *game_;
  const Position& p = g.position();
  const Rules& r = *rules_;
  const int n = r.nseats();
  const int64_t now = time_.steadyMs();
  auto seatName = [&](int s) -> const std::string& { return r.seats[static_cast<size_t>(s)].name; };
  JsonWriter w;
  w.beginObject();
  if (delta) w.key("type").value("delta").key("from").value(v_ - 1);
  w.key("id").value(meta_.id).key("variant").value(r.variant).key("title").value(r.title);
  w.key("options").beginObject();
  for (const auto& [k, v] : r.options) w.key(k).value(v);
  w.endObject();
  w.key("board").beginObject().key("width").value(r.width).key("height").value(r.height).key("blocked").beginArray();
  for (int s = 0; s < r.nsq(); ++s)
    if (r.blocked[static_cast<size_t>(s)]) w.value(r.squareName(s));
  w.endArray().endObject();
  const auto places = p.places();
  w.key("seats").beginArray();
  for (int s = 0; s < n; ++s) {
    const SeatPlan& plan = meta_.seats[static_cast<size_t>(s)];
    w.beginObject().key("seat").value(seatName(s)).key("kind").value(plan.bot ? "bot" : "human");
    w.key("level");
    if (plan.bot) w.value(plan.level);
    else w.null();
    w.key("in").value(p.isIn(s));
    w.key("place");
    if (over) w.value(places[static_cast<size_t>(s)]);
    else w.null();
    w.key("clockMs");
    if (meta_.clock.enabled) w.value(clockLeft(s, now));
    else w.null();
    w.key("connected").value(plan.bot || connections_[static_cast<size_t>(s)] > 0);
    w.key("open").value(!over && !plan.bot && plan.open);
    w.key("outReason");
    if (!p.isIn(s) && !outReason_[static_cast<size_t>(s)].empty()) w.value(outReason_[static_cast<size_t>(s)]);
    else w.null();
    w.endObject();
  }
  w.endArray();
  w.key("pieces");
  writePieces(w, p, view.all ? nullptr : &view.visible);
  w.key("visible");  // fog of war: the squares this client sees (null: all)
  if (view.all) {
    w.null();
  } else {
    w.beginArray();
    for (int s = 0; s < r.nsq(); ++s)
      if (view.showsSquare(s)) w.value(r.squareName(s));
    w.endArray();
  }
  w.key("toMove");
  if (over) w.null();
  else w.value(seatName(p.toMove()));
  w.key("status").value(over ? "finished" : "ongoing");
  w.key("result");
  if (over) w.raw(resultJson());
  else w.null();
  w.key("lastMove");
  {
    const StoredEntry* last = nullptr;
    for (auto it = entries_.rbegin(); it != entries_.rend() && !last; ++it)
      if (entryKindOf(it->text) == EntryKind::kMove) last = &*it;
    if (last && view.showsMoveOf(last->seat)) w.value(last->text);
    else w.null();
  }
  w.key("check").beginArray();
  for (int s = 0; s < n && view.all; ++s)
    if (p.isIn(s) && p.inCheck(s)) w.value(seatName(s));
  w.endArray();
  w.key("legal");
  if (!over && view.showsLegalMoves(p.toMove())) writeLegal(w, g);
  else w.beginObject().endObject();
  w.key("die");
  if (g.currentThrow() && !over) w.value(g.currentThrow());
  else w.null();
  w.key("dieKind");
  if (g.currentThrow() && !over && g.currentThrowType() >= 0)
    w.value(r.types[static_cast<size_t>(g.currentThrowType())].name);
  else w.null();
  // Every kind the throw allows (chaturaji's 5: king or pawn); dieKind is the first.
  w.key("dieKinds").beginArray();
  if (const DieFace* face = g.currentFace(); face && !over)
    for (size_t t = 0; t < r.types.size(); ++t)
      if (face->allows(static_cast<int>(t))) w.value(r.types[t].name);
  w.endArray();
  w.key("coins");
  if (r.coins) {
    w.beginObject();
    for (int s = 0; s < n; ++s) w.key(seatName(s)).value(g.coins()[static_cast<size_t>(s)]);
    w.endObject();
  } else {
    w.null();
  }
  // The record: in full, or in a delta only the entries appended since the last version.
  w.key(delta ? "append" : "moves").beginArray();
  for (size_t i = delta ? appendFrom : 0; i < entries_.size(); ++i) {
    const StoredEntry& e = entries_[i];
    // Fog of war: another seat's move is written as a move without its text.
    const bool shown = entryKindOf(e.text) != EntryKind::kMove || view.showsMoveOf(e.seat);
    w.beginObject().key("uci");
    if (shown) w.value(e.text);
    else w.null();
    w.key("seat").value(e.seat >= 0 && e.seat < n ? seatName(e.seat) : "");
    w.key("san");
    if (shown && i < notes_.size() && !notes_[i].san.empty()) w.value(notes_[i].san);
    else w.null();
    w.key("die");
    if (e.die) w.value(e.die);
    else w.null();
    w.key("dieKind");
    if (i < notes_.size() && !notes_[i].dieKind.empty()) w.value(notes_[i].dieKind);
    else w.null();
    w.endObject();
  }
  w.endArray();
  w.key("fen").value(view.positionText);
  w.key("v").value(v_);
  w.key("clock");
  if (meta_.clock.enabled)
    w.beginObject().key("initialMs").value(meta_.clock.initialMs).key("incrementMs").value(meta_.clock.incrementMs).endObject();
  else w.null();
  w.key("clockRunning");
  if (clockRunning() && !clockHeld()) w.value(seatName(p.toMove()));
  else w.null();
  w.key("drawOffer");
  if (drawOffer_ >= 0) w.value(seatName(drawOffer_));
  else w.null();
  w.key("waiting");
  if (wait_.active) w.value("store");
  else w.null();
  w.key("hotSeat").value(meta_.hotSeat);
  w.key("seed");
  if (over) w.value(std::to_string(meta_.seed));
  else w.null();
  w.key("startFen").value(meta_.startFen);
  w.endObject();
  std::string out = w.take();
  out.pop_back();  // the closing brace: stateWithYou() adds "you" and closes it
  return out;
}

std::string GameRoom::stateJson(const std::string& token, int64_t* v) {
  std::lock_guard lock(m_);
  if (v) *v = v_;
  const auto seats = seatsOfLocked(token);
  return stateWithYou(stateBase(seatMaskOf(seats)), seatsJson(*rules_, seats));
}

void GameRoom::publish(const char* type) {
  ++v_;
  lastUsedMs_ = time_.steadyMs();
  // A delta is right when the record only grew since the last version and
  // each view still shows the old entries as it did (the end of a fog game
  // shows every move: not an append).
  const bool fogged = rules_->fog && !over();
  const bool append = !recordRewritten_ && fogged == publishedFogged_ && entries_.size() >= publishedPlies_;
  const size_t appendFrom = publishedPlies_;
  publishedPlies_ = entries_.size();
  publishedFogged_ = fogged;
  recordRewritten_ = false;
  if (listeners_.empty()) return;
  Update u;
  u.type = type;
  u.v = v_;
  auto shared = [](std::string text) { return std::make_shared<const std::string>(std::move(text)); };
  if (!fogged) {
    u.base = shared(stateBase(0xFF));
    if (append) u.delta = shared(deltaBase(0xFF, appendFrom));
    for (auto& [id, entry] : listeners_) entry.second(u);
    return;
  }
  // Fog of war: each listener hears the state (and the delta) of its own view.
  std::map<uint8_t, Update> views;
  for (auto& [id, entry] : listeners_) {
    const uint8_t mask = seatMaskOf(entry.first);
    auto [it, fresh] = views.try_emplace(mask, u);
    if (fresh) {
      it->second.base = shared(stateBase(mask));
      if (append) it->second.delta = shared(deltaBase(mask, appendFrom));
    }
    entry.second(it->second);
  }
}

Outcome GameRoom::commitEntry(const std::string& text, int seat) {
  const int64_t now = time_.steadyMs();
  std::vector<int64_t> clocks;
  const bool boardMove = entryKindOf(text) == EntryKind::kMove;
  if (meta_.clock.enabled) {
    clocks = clock_;
    if (clockRunning()) {
      const int tm = game_->position().toMove();
      clocks[static_cast<size_t>(tm)] = clockLeft(tm, now);
    }
    if (boardMove && text != "0000") clocks[static_cast<size_t>(seat)] += meta_.clock.incrementMs;
    if (entryKindOf(text) == EntryKind::kTimeout) clocks[static_cast<size_t>(seat)] = 0;
  }
  StoredEntry e;
  e.ply = static_cast<int>(entries_.size());
  e.text = text;
  e.seat = seat;
  e.die = game_->currentThrow();
  e.clockMs = clocks;
  e.atMs = time_.wallMs();
  // The entry is applied to a copy first: when it ends the game, the entry
  // and the result are stored in one transaction. Memory changes only once
  // the store has committed.
  auto next = std::make_unique<Game>(*game_);
  std::vector<std::string> reasons = outReason_;
  if (!applyEntryToGame(*next, text, seat, reasons)) {
    // Cannot happen: callers check legality first.
    std::fprintf(stderr, "acedrex serve: game %s: entry \"%s\" did not apply\n", meta_.id.c_str(), text.c_str());
    return apiError(500, "internal", "the entry did not apply");
  }
  const bool over = next->finished();
  const Status stored =
      over ? store_.appendFinal(meta_.id, e, resultJsonOf(*next, reasons)) : store_.appendEntry(meta_.id, e);
  if (!stored.ok() && stored.error().code == kStoreConflict) {
    // Another process stored an entry for this ply first: this one came too late.
    catchUpLocked();
    lostRace_ = true;
    return apiError(409, "too-late", "another move was stored first; the game has moved on");
  }
  if (!stored.ok()) return apiError(503, "store", "the move could not be stored: " + stored.error().text());
  notes_.push_back(noteOf(*game_, *next, text));
  game_ = std::move(next);
  outReason_ = std::move(reasons);
  entries_.push_back(std::move(e));
  if (seat >= 0 && seat < rules_->nseats() && !meta_.seats[static_cast<size_t>(seat)].bot)
    lastHumanMs_ = time_.wallMs();
  if (meta_.clock.enabled) {
    clock_ = clocks;
    turnStart_ = now;
  }
  if (boardMove || over) drawOffer_ = -1;
  ++epoch_;
  wait_ = StoreWait{};  // the record moved on: whatever waited for the store is stored or stale
  publish(over ? "end" : "move");
  return done();
}

void GameRoom::afterAction() {
  if (wait_.active) return;  // retryStore() goes on when the store takes the pending entry
  for (int guard = 0; guard < 10000 && !over(); ++guard) {
    const int tm = game_->position().toMove();
    if (timedOut(tm, time_.steadyMs())) {
      if (!commitEntry("timeout", tm).ok()) return waitForStore("timeout", tm);
      continue;
    }
    const auto legal = game_->legalMoves();
    if (legal.size() == 1 && legal[0].isNull()) {
      if (!commitEntry("0000", tm).ok()) return waitForStore("0000", tm);
      continue;
    }
    break;
  }
  maybeScheduleBot();
}

void GameRoom::maybeScheduleBot() {
  if (over() || botBusy_ || wait_.active || !host_) return;
  if (!meta_.seats[static_cast<size_t>(game_->position().toMove())].bot) return;
  if (hasOpenSeat(meta_.seats)) return;  // the game starts when every seat is taken
  if (!host_->mayThink(meta_.id)) return;  // another process is the game's home
  botBusy_ = true;
  botStop_ = false;
  host_->scheduleBot(shared_from_this(), epoch_);
}

Outcome GameRoom::move(const std::string& token, const std::string& moveText) {
  std::lock_guard lock(m_);
  const auto seats = seatsOfLocked(token);
  if (token.empty()) return apiError(401, "no-token", "a seat token is needed (Authorization: Bearer <token>)");
  if (seats.empty()) return apiError(403, "wrong-token", "this token holds no seat in this game");
  if (over()) return apiError(409, "game-over", "the game is over");
  const int tm = game_->position().toMove();
  if (std::find(seats.begin(), seats.end(), tm) == seats.end())
    return apiError(403, "not-your-turn", "it is " + rules_->seats[static_cast<size_t>(tm)].name + "'s turn");
  if (hasOpenSeat(meta_.seats)) return apiError(409, "waiting", "the game starts when every seat is taken");
  if (moveText.size() > 16) return apiError(400, "illegal-move", "malformed move text");
  if (timedOut(tm, time_.steadyMs())) {
    if (auto committed = commitEntry("timeout", tm); !committed.ok()) return committed;
    afterAction();
    return apiError(409, "time-out", "your time ran out");
  }
  bool legal = false;
  for (Move m : game_->legalMoves())
    if (game_->position().moveText(m) == moveText) legal = true;
  if (!legal) {
    // Fog of war: the engine's words could tell what stands on a hidden square.
    if (rules_->fog) return apiError(400, "illegal-move", "not a legal move here");
    // The engine's own words for why: a probe on a copy, so nothing changes here.
    Game probe(*game_);
    auto s = probe.play(moveText);
    return apiError(400, "illegal-move", s.ok() ? "not a legal move here" : s.error().text());
  }
  if (auto committed = commitEntry(moveText, tm); !committed.ok()) return committed;
  afterAction();
  return done();
}

Outcome GameRoom::resign(const std::string& token, const std::string& seatName) {
  std::lock_guard lock(m_);
  if (token.empty()) return apiError(401, "no-token", "a seat token is needed (Authorization: Bearer <token>)");
  const auto seats = seatsOfLocked(token);
  if (seats.empty()) return apiError(403, "wrong-token", "this token holds no seat in this game");
  if (over()) return apiError(409, "game-over", "the game is over");
  const Position& p = game_->position();
  int seat = -1;
  if (!seatName.empty()) {
    const int s = rules_->seatByName(seatName);
    if (s < 0) return apiError(400, "bad-seat", "no seat named \"" + seatName + "\"");
    if (std::find(seats.begin(), seats.end(), s) == seats.end())
      return apiError(403, "wrong-token", "this token does not hold " + seatName);
    seat = s;
  } else if (std::find(seats.begin(), seats.end(), p.toMove()) != seats.end()) {
    seat = p.toMove();
  } else {
    for (int s : seats)
      if (p.isIn(s)) {
        seat = s;
        break;
      }
  }
  if (seat < 0 || !p.isIn(seat)) return apiError(409, "seat-out", "that seat is already out");
  if (auto committed = commitEntry("resign", seat); !committed.ok()) return committed;
  afterAction();
  return done();
}

Outcome GameRoom::draw(const std::string& token, const std::string& action) {
  std::lock_guard lock(m_);
  if (token.empty()) return apiError(401, "no-token", "a seat token is needed (Authorization: Bearer <token>)");
  const auto seats = seatsOfLocked(token);
  if (seats.empty()) return apiError(403, "wrong-token", "this token holds no seat in this game");
  if (action != "offer" && action != "accept" && action != "decline")
    return apiError(400, "bad-action", "a draw action is offer, accept or decline");
  if (rules_->nseats() != 2) return apiError(409, "no-draws", "draw offers are for two-player games");
  if (over()) return apiError(409, "game-over", "the game is over");
  const int tm = game_->position().toMove();
  auto holds = [&](int s) { return std::find(seats.begin(), seats.end(), s) != seats.end(); };
  const int mine = holds(tm) ? tm : seats.front();
  if (action == "offer") {
    if (drawOffer_ >= 0 && drawOffer_ != mine) {  // both want it: agreed
      if (auto committed = commitEntry("draw", mine); !committed.ok()) return committed;
      return done();
    }
    const int other = 1 - mine;
    if (meta_.seats[static_cast<size_t>(other)].bot) {
      drawOffer_ = -1;  // bots decline at once
      publish("state");
      return done();
    }
    drawOffer_ = mine;
    publish("state");
    return done();
  }
  if (drawOffer_ < 0) return apiError(409, "no-offer", "there is no draw offer");
  if (action == "accept") {
    int accepter = -1;
    for (int s : seats)
      if (s != drawOffer_) accepter = s;
    if (accepter < 0) return apiError(409, "own-offer", "a seat cannot accept its own offer");
    if (auto committed = commitEntry("draw", accepter); !committed.ok()) return committed;
    return done();
  }
  drawOffer_ = -1;  // decline (or withdraw)
  publish("state");
  return done();
}

Outcome GameRoom::takeback(const std::string& token) {
  std::lock_guard lock(m_);
  if (token.empty()) return apiError(401, "no-token", "a seat token is needed (Authorization: Bearer <token>)");
  const auto seats = seatsOfLocked(token);
  if (seats.empty()) return apiError(403, "wrong-token", "this token holds no seat in this game");
  // Fog of war: a take-back would show the player a position the fog hid.
  if (rules_->fog) return apiError(403, "no-takeback", "there are no takebacks in fog of war");
  auto holds = [&](int s) { return std::find(seats.begin(), seats.end(), s) != seats.end(); };
  for (size_t s = 0; s < meta_.seats.size(); ++s)
    if (!holds(static_cast<int>(s)) && !meta_.seats[s].bot)
      return apiError(409, "no-takeback", "takebacks are for games against bots");
  int cut = -1;
  for (int i = static_cast<int>(entries_.size()) - 1; i >= 0; --i) {
    const auto& e = entries_[static_cast<size_t>(i)];
    if (entryKindOf(e.text) != EntryKind::kMove) return apiError(409, "no-takeback", "a resignation, timeout or draw cannot be taken back");
    if (e.text != "0000" && holds(e.seat)) {
      cut = i;
      break;
    }
  }
  if (cut < 0) return apiError(409, "no-takeback", "there is no move of yours to take back");
  if (aborted_) return apiError(409, "game-over", "the game was aborted");
  const bool wasOver = over();
  if (auto s = store_.truncate(meta_.id, cut); !s.ok())
    return apiError(503, "store", "the takeback could not be stored: " + s.error().text());
  auto fresh = std::make_unique<Game>(rules_, meta_.seed);
  (void)fresh->setStart(meta_.startFen);
  std::vector<std::string> reasons(outReason_.size());
  entries_.resize(static_cast<size_t>(cut));
  recordRewritten_ = true;
  notes_.resize(std::min(notes_.size(), entries_.size()));
  wait_ = StoreWait{};
  for (const auto& e : entries_) (void)applyEntryToGame(*fresh, e.text, e.seat, reasons);
  game_ = std::move(fresh);
  outReason_ = reasons;
  turnStart_ = time_.steadyMs();
  drawOffer_ = -1;
  ++epoch_;
  botStop_ = true;
  publish("state");
  if (wasOver && meta_.clock.enabled && host_) host_->clockActive(shared_from_this());
  afterAction();
  return done();
}

Outcome GameRoom::takeSeat(const std::string& seatName, const std::string& token, std::string* taken) {
  std::lock_guard lock(m_);
  if (over()) return apiError(409, "game-over", "the game is over");
  int free = -1;
  for (int s = 0; s < rules_->nseats(); ++s) {
    const SeatPlan& p = meta_.seats[static_cast<size_t>(s)];
    if (!p.bot && p.open && (seatName.empty() || seatName == rules_->seats[static_cast<size_t>(s)].name)) {
      free = s;
      break;
    }
  }
  if (free < 0) return apiError(409, "seat-taken", seatName.empty() ? "no seat is free" : seatName + " is not free");
  std::vector<SeatPlan> next = meta_.seats;
  next[static_cast<size_t>(free)].open = false;
  next[static_cast<size_t>(free)].token = token;
  const Status stored = store_.replaceSeats(meta_.id, meta_.seats, next);
  if (!stored.ok() && stored.error().code == kStoreConflict) {
    if (catchUpLocked()) afterAction();  // another process took a seat first: its seats are in the store
    return apiError(409, "seat-taken", "the seat was taken a moment ago");
  }
  if (!stored.ok()) return apiError(503, "store", "the seat could not be stored: " + stored.error().text());
  meta_.seats = std::move(next);
  lastHumanMs_ = seatTakenMs_ = time_.wallMs();
  if (taken) *taken = rules_->seats[static_cast<size_t>(free)].name;
  publish("state");
  afterAction();  // every seat taken: a bot to move starts
  return done();
}

int GameRoom::subscribe(const std::string& token, Listener listener, Update* current, std::string* youJson) {
  std::lock_guard lock(m_);
  const auto seats = seatsOfLocked(token);
  for (int s : seats) ++connections_[static_cast<size_t>(s)];
  if (!seats.empty()) lastHumanMs_ = time_.wallMs();
  if (!seats.empty()) publish("state");
  const int id = nextListener_++;
  listeners_.emplace(id, std::make_pair(seats, std::move(listener)));
  if (current) {
    current->type = "state";
    current->v = v_;
    current->base = std::make_shared<const std::string>(stateBase(seatMaskOf(seats)));
  }
  if (youJson) *youJson = seatsJson(*rules_, seats);
  return id;
}

void GameRoom::unsubscribe(int id) {
  std::lock_guard lock(m_);
  auto it = listeners_.find(id);
  if (it == listeners_.end()) return;
  const auto seats = it->second.first;
  listeners_.erase(it);
  for (int s : seats) --connections_[static_cast<size_t>(s)];
  if (!seats.empty()) lastHumanMs_ = time_.wallMs();
  if (!seats.empty()) publish("state");
}

void GameRoom::resume() {
  std::lock_guard lock(m_);
  afterAction();
}

bool GameRoom::checkClock() {
  std::lock_guard lock(m_);
  if (!meta_.clock.enabled || over()) return false;
  if (timedOut(game_->position().toMove(), time_.steadyMs())) afterAction();
  return !over();
}

namespace {
// A bot's seed for one move: the game's seed, the seat and the ply, mixed
// (splitmix64), so the same record gives the same bot whatever came before.
uint64_t botSeed(uint64_t gameSeed, int seat, int ply) {
  uint64_t z = gameSeed ^ (static_cast<uint64_t>(seat + 1) * 0x9E3779B97F4A7C15ULL) ^
               (static_cast<uint64_t>(ply + 1) * 0xD1B54A32D192ED03ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}
}  // namespace

void GameRoom::runBot(int64_t epoch) {
  std::unique_ptr<Game> copy;
  engine::SearchLimits limits;
  int seat = -1, level = 0, ply = 0;
  {
    std::lock_guard lock(m_);
    if (epoch != epoch_ || over() || !meta_.seats[static_cast<size_t>(game_->position().toMove())].bot) {
      botBusy_ = false;
      maybeScheduleBot();
      return;
    }
    seat = game_->position().toMove();
    level = meta_.seats[static_cast<size_t>(seat)].level;
    ply = static_cast<int>(entries_.size());
    copy = std::make_unique<Game>(*game_);
    // The bot's clock starts now: the time its turn waited in the queue is not charged.
    const bool held = clockHeld();
    clockStartedEpoch_ = epoch_;
    if (held) {
      turnStart_ = time_.steadyMs();
      publish("state");  // clients see its clock run
    }
    searchEpoch_ = epoch;
    if (hurryEpoch_.load() == epoch) botStop_ = true;  // hurried before it started (see stopSearch)
    if (meta_.clock.enabled) {
      const int64_t now = time_.steadyMs();
      for (int s = 0; s < rules_->nseats(); ++s) {
        limits.timeMs[static_cast<size_t>(s)] = static_cast<int>(std::min<int64_t>(clockLeft(s, now), 1 << 30));
        limits.incMs[static_cast<size_t>(s)] = static_cast<int>(meta_.clock.incrementMs);
      }
    } else if (config_.botMoveMs > 0) {
      limits.moveTimeMs = config_.botMoveMs;
    }
  }
  std::string text;
  bool hadBot = false;
  try {
    // Made outside the room's lock (its table is large) and gone before the lock is taken again.
    std::unique_ptr<engine::Bot> bot = botFactory_ ? botFactory_(rules_, level, botSeed(meta_.seed, seat, ply)) : nullptr;
    if (bot) {
      hadBot = true;
      const engine::SearchResult r = bot->choose(*copy, limits, botStop_);
      if (r.found) text = copy->position().moveText(r.best);
    }
  } catch (const std::exception& ex) {
    std::fprintf(stderr, "acedrex serve: game %s: bot failed: %s\n", meta_.id.c_str(), ex.what());
  }
  searchEpoch_ = -1;
  std::lock_guard lock(m_);
  botBusy_ = false;
  if (epoch == epoch_ && !over() && game_->position().toMove() == seat) {
    const auto legal = game_->legalMoves();
    bool ok = false;
    for (Move m : legal)
      if (game_->position().moveText(m) == text) ok = true;
    if (!ok && !legal.empty()) {
      if (hadBot)
        std::fprintf(stderr, "acedrex serve: game %s: bot gave \"%s\", not legal; playing the first legal move\n",
                     meta_.id.c_str(), text.c_str());
      text = game_->position().moveText(legal.front());
    }
    if (timedOut(seat, time_.steadyMs())) text = "timeout";
    if (auto committed = commitEntry(text, seat); !committed.ok()) {
      std::fprintf(stderr, "acedrex serve: game %s: bot move not stored: %s\n", meta_.id.c_str(),
                   committed.error().message.c_str());
      return waitForStore(text, seat);
    }
    afterAction();
    return;
  }
  maybeScheduleBot();
}

void GameRoom::waitForStore(const std::string& text, int seat) {
  if (lostRace_) {  // nothing to wait for: the record moved on elsewhere
    lostRace_ = false;
    return afterAction();
  }
  const bool was = wait_.active;
  wait_.active = true;
  wait_.text = text;
  wait_.seat = seat;
  wait_.delayMs = kFirstStoreRetryMs;
  wait_.dueMs = time_.steadyMs() + wait_.delayMs;
  if (!was) publish("state");
  if (host_ && !retryListed_) {
    retryListed_ = true;
    host_->retryStoreLater(shared_from_this());
  }
}

bool GameRoom::retryStore() {
  std::lock_guard lock(m_);
  const bool waits = retryStoreLocked();
  retryListed_ = waits;  // false: the lobby drops the room from its list (it asks again on a new wait)
  return waits;
}

bool GameRoom::retryStoreLocked() {
  if (!wait_.active) return false;
  const int64_t now = time_.steadyMs();
  if (over() || game_->position().toMove() != wait_.seat) {  // cannot happen: changes clear the wait
    wait_ = StoreWait{};
    publish("state");
    afterAction();
    return wait_.active;
  }
  if (now < wait_.dueMs) return true;
  std::string text = wait_.text;
  if (timedOut(wait_.seat, now)) text = "timeout";  // the seat's clock ran out while waiting
  if (auto committed = commitEntry(text, wait_.seat); !committed.ok()) {
    wait_.delayMs = std::min(wait_.delayMs * 2, kLastStoreRetryMs);
    wait_.dueMs = now + wait_.delayMs;
    std::fprintf(stderr, "acedrex serve: game %s: \"%s\" still not stored (next try in %lld ms): %s\n",
                 meta_.id.c_str(), text.c_str(), static_cast<long long>(wait_.delayMs), committed.error().message.c_str());
    return true;
  }
  afterAction();  // the wait is cleared; lost turns and bots go on (and may wait again)
  return wait_.active;
}

bool GameRoom::syncFromStore() {
  std::lock_guard lock(m_);
  if (!catchUpLocked()) return false;
  afterAction();
  return true;
}

void GameRoom::replayFromStartLocked(size_t keep) {
  auto game = std::make_unique<Game>(rules_, meta_.seed);
  if (!meta_.startFen.empty()) (void)game->setStart(meta_.startFen);
  outReason_.assign(outReason_.size(), "");
  entries_.resize(std::min(keep, entries_.size()));
  recordRewritten_ = true;
  notes_.clear();
  for (const auto& e : entries_) {
    Game before(*game);
    applyEntryToGame(*game, e.text, e.seat, outReason_);
    notes_.push_back(noteOf(before, *game, e.text));
  }
  game_ = std::move(game);
}

bool GameRoom::catchUpLocked() {
  auto loaded = store_.load(meta_.id);
  if (!loaded.ok() || !*loaded) return false;
  const bool seatsChanged = seatsToJson((*loaded)->seats) != seatsToJson(meta_.seats);
  if (seatsChanged) {  // a free seat taken through another process (the entries may have moved on as well)
    meta_.seats = (*loaded)->seats;
    seatTakenMs_ = time_.wallMs();
    publish("state");
  }
  const std::vector<StoredEntry>& stored = (*loaded)->entries;
  size_t same = 0;
  while (same < entries_.size() && same < stored.size() && entries_[same].text == stored[same].text &&
         entries_[same].seat == stored[same].seat)
    ++same;
  if (same == entries_.size() && same == stored.size()) {
    // No new entry, but finished: aborted elsewhere (the rules did not end it).
    if (!(*loaded)->finished || over()) return seatsChanged;
    aborted_ = true;
    abortResult_ = (*loaded)->resultJson;
    drawOffer_ = -1;
    botStop_ = true;
    ++epoch_;
    publish("end");
    return true;
  }
  const bool clockWasRunning = clockRunning();
  if (same < entries_.size()) {  // a takeback elsewhere: the record is shorter or differs
    replayFromStartLocked(same);
    publish("state");
  }
  for (size_t i = same; i < stored.size(); ++i) {
    Game before(*game_);
    if (!applyEntryToGame(*game_, stored[i].text, stored[i].seat, outReason_)) break;
    notes_.push_back(noteOf(before, *game_, stored[i].text));
    entries_.push_back(stored[i]);
    const int seat = stored[i].seat;
    if (seat >= 0 && seat < rules_->nseats() && !meta_.seats[static_cast<size_t>(seat)].bot)
      lastHumanMs_ = std::max(lastHumanMs_, stored[i].atMs);
    if (entryKindOf(stored[i].text) == EntryKind::kMove || game_->finished()) drawOffer_ = -1;
    publish(game_->finished() ? "end" : "move");
  }
  if (meta_.clock.enabled) {
    clock_.assign(clock_.size(), meta_.clock.initialMs);
    if (!entries_.empty() && entries_.back().clockMs.size() == clock_.size()) clock_ = entries_.back().clockMs;
    // The running clock started when the last entry was stored (wall time).
    const int64_t since = entries_.empty() ? 0 : std::max<int64_t>(0, time_.wallMs() - entries_.back().atMs);
    turnStart_ = time_.steadyMs() - since;
  }
  ++epoch_;
  wait_ = StoreWait{};
  if (!clockWasRunning && clockRunning() && host_) host_->clockActive(shared_from_this());
  return true;
}

bool GameRoom::idle(int64_t now, int64_t idleMs) {
  std::lock_guard lock(m_);
  if (!listeners_.empty()) return false;
  if (over()) return true;
  if (idleMs < 0 || botBusy_ || wait_.active || clockRunning() || drawOffer_ >= 0) return false;
  return now - lastUsedMs_ >= idleMs;
}

bool GameRoom::abortIfAbandoned(int64_t firstMoveMs, int64_t absentMs) {
  std::lock_guard lock(m_);
  if (over()) return false;
  const int64_t now = time_.wallMs();
  const int n = rules_->nseats();
  bool humans = false, humanHere = false;
  for (int s = 0; s < n; ++s) {
    if (meta_.seats[static_cast<size_t>(s)].bot) continue;
    humans = true;
    if (connections_[static_cast<size_t>(s)] > 0) humanHere = true;
  }
  if (!humans) return false;  // bots alone always play on
  // The first rule: the human seat to move has never moved, and its turn started long ago.
  const int tm = game_->position().toMove();
  bool firstTurnMissed = false;
  if (firstMoveMs > 0 && !meta_.seats[static_cast<size_t>(tm)].bot) {
    const bool moved =
        std::any_of(entries_.begin(), entries_.end(), [&](const StoredEntry& e) { return e.seat == tm; });
    const int64_t turnStart = std::max(entries_.empty() ? meta_.createdMs : entries_.back().atMs, seatTakenMs_);
    firstTurnMissed = !moved && now - turnStart >= firstMoveMs;
  }
  // The second: every human seat gone for long.
  const bool deserted = absentMs > 0 && !humanHere && now - lastHumanMs_ >= absentMs;
  if (!firstTurnMissed && !deserted) return false;
  JsonWriter w;
  w.beginObject().key("places").beginObject().endObject().key("reason").value("aborted").key("winner").null();
  w.key("abortedBecause").value(firstTurnMissed ? "no-first-move" : "abandoned").endObject();
  const std::string result = w.take();
  if (!store_.finishGame(meta_.id, result).ok()) return false;  // tried again at the next check
  aborted_ = true;
  abortResult_ = result;
  drawOffer_ = -1;
  botStop_ = true;
  ++epoch_;
  publish("end");
  return true;
}

void GameRoom::touch() {
  std::lock_guard lock(m_);
  lastUsedMs_ = time_.steadyMs();
}

void GameRoom::continueVersion(int64_t v) {
  std::lock_guard lock(m_);
  if (v > v_) v_ = v;
}

bool GameRoom::recordHidden() {
  std::lock_guard lock(m_);
  return rules_->fog && !over();
}

std::string GameRoom::pgn() {
  StoredGame copy;
  std::vector<std::string> reasons;
  {
    std::lock_guard lock(m_);
    copy = meta_;
    copy.entries = entries_;
    copy.finished = over();
    if (copy.finished) copy.resultJson = resultJson();
  }
  return pgnOf(copy, rules_);
}

std::string GameRoom::replayJson() {
  StoredGame copy;
  {
    std::lock_guard lock(m_);
    copy = meta_;
    copy.entries = entries_;
  }
  return replayJsonOf(copy, rules_);
}

std::string GameRoom::summaryJson() {
  std::lock_guard lock(m_);
  JsonWriter w;
  writeGameSummary(w, meta_, *rules_, over(), over() ? -1 : game_->position().toMove(),
                   static_cast<int64_t>(entries_.size()));
  return w.take();
}

bool GameRoom::finished() {
  std::lock_guard lock(m_);
  return over();
}

int GameRoom::listenerCount() {
  std::lock_guard lock(m_);
  return static_cast<int>(listeners_.size());
}

int64_t GameRoom::version() {
  std::lock_guard lock(m_);
  return v_;
}

int GameRoom::plies() {
  std::lock_guard lock(m_);
  return static_cast<int>(entries_.size());
}

bool GameRoom::botThinking() {
  std::lock_guard lock(m_);
  return botBusy_;
}

}  // namespace acedrex::server
