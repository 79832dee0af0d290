// GameRoom (room.h): making and restoring a room, seats and tokens, whose clock runs,
// lifecycle (subscribers aside: idle, abandoned games), records and summaries.
#include "server/app/room.h"

#include <algorithm>
#include <cstdio>

#include "server/app/json.h"
#include "server/app/catalogue.h"
#include "server/app/records.h"

namespace acedrex::server {
namespace {

// Constant-time comparison of a presented token with a seat's token.
bool sameToken(const std::string& a, const std::string& b) {
  if (a.size() != b.size() || a.empty()) return false;
  unsigned char diff = 0;
  for (size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

}  // namespace

GameRoom::GameRoom(const StoredGame& meta, std::shared_ptr<const Rules> rules, Store& store, RoomHost* host,
                   const TimeSource& time, BotFactory botFactory, const LobbyConfig& config, std::string creator)
    : meta_(meta), rules_(std::move(rules)), creator_(std::move(creator)), store_(store), host_(host), time_(time),
      botFactory_(std::move(botFactory)), config_(config) {
  meta_.entries.clear();
  botsOnly_ = std::all_of(meta_.seats.begin(), meta_.seats.end(), [](const SeatPlan& s) { return s.bot; });
  const size_t n = static_cast<size_t>(rules_->nseats());
  outReason_.assign(n, "");
  clock_ = Clock(meta_.clock, static_cast<int>(n), time_.steadyMs());
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
    room->notes_.push_back(entryNoteOf(before, *room->game_, e.text));
    ++applied;
  }
  if (stored.clock.enabled) {
    // The time the server was down is not charged.
    if (!room->entries_.empty() && room->entries_.back().clockMs.size() == room->clock_.atStart().size())
      room->clock_.set(room->entries_.back().clockMs, time.steadyMs());
    else
      room->clock_.restart(time.steadyMs());
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

int GameRoom::runningSeat() const { return clockRunning() && !clockHeld() ? game_->position().toMove() : -1; }

bool GameRoom::timedOut(int seat, int64_t now) const {
  if (!clockRunning() || seat != game_->position().toMove() || clockHeld()) return false;
  // Shared stores: a bot's clock is started, and flagged, by the game's home.
  if (meta_.seats[static_cast<size_t>(seat)].bot && host_ && !host_->mayThink(meta_.id)) return false;
  return clockLeft(seat, now) <= 0;
}

std::string GameRoom::resultJson() { return aborted_ ? abortResult_ : resultJsonOf(*game_, outReason_); }

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

bool GameRoom::idle(int64_t now, int64_t idleMs) {
  std::lock_guard lock(m_);
  if (!listeners_.empty()) return false;
  if (over()) return true;
  if (idleMs < 0 || botBusy_ || wait_.active || clockRunning() || drawOffer_ >= 0 || takebackOffer_ >= 0) return false;
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
  drawOffer_ = takebackOffer_ = -1;
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
