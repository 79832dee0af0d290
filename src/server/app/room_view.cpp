// GameRoom (room.h): the state and delta JSON per view (fog of war), subscriptions
// and publishing a change to the listeners.
#include <map>

#include "server/app/fog_view.h"
#include "server/app/json.h"
#include "server/app/players.h"
#include "server/app/records.h"
#include "server/app/room.h"

namespace acedrex::server {
namespace {

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
    writeSeatPlayer(w, plan);
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
  w.key("takebackOffer");
  if (takebackOffer_ >= 0) w.value(seatName(takebackOffer_));
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

}  // namespace acedrex::server
