#include "server/app/lobby.h"

#include <algorithm>
#include <cstdio>
#include <random>

#include "core/variant/chess960.h"
#include "server/app/catalogue.h"
#include "server/app/http_util.h"
#include "server/app/json.h"

namespace acedrex::server {

Lobby::Lobby(const VariantRegistry& registry, Store& store, BotFactory botFactory, LobbyConfig config,
             const TimeSource* time)
    : registry_(registry), store_(store), botFactory_(std::move(botFactory)), config_(config),
      time_(time ? *time : defaultTime_),
      createLimiter_(std::max(0, config.limits.gamesPerClientPerMinute) / 60.0,
                     std::max(1, config.limits.gamesPerClientPerMinute), time_),
      analyseLimiter_(kAnalysesPerMinute / 60.0, kAnalysesPerMinute / 3.0, time_),
      positionLimiter_(kPositionsPerMinute / 60.0, kPositionsPerMinute / 10.0, time_) {}

Lobby::~Lobby() { stop(); }

Result<std::shared_ptr<const Rules>> Lobby::rulesFor(const std::string& variant,
                                                      const std::map<std::string, std::string>& options) {
  std::string key = variant;
  std::vector<std::string> opts;
  for (const auto& [k, v] : options) {
    opts.push_back(k + "=" + v);
    key += "|" + k + "=" + v;
  }
  {
    std::lock_guard lock(rulesM_);
    if (auto it = rules_.find(key); it != rules_.end()) return it->second;
  }
  if (!registry_.find(variant)) return makeError("variant", "unknown variant \"" + variant + "\"");
  auto rules = registry_.rules(variant, opts);
  if (!rules.ok()) return rules.error();
  std::lock_guard lock(rulesM_);
  rules_[key] = *rules;
  return *rules;
}

Result<int> Lobby::loadFromStore() {
  if (store_.shared()) return adoptOrphans();  // the other games have their homes; they load when asked for
  auto games = store_.loadUnfinished();
  if (!games.ok()) return games.error();
  int loaded = 0;
  for (const auto& g : *games) {
    auto rules = rulesFor(g.variant, g.options);
    if (!rules.ok()) {
      std::fprintf(stderr, "acedrex serve: game %s not loaded: %s\n", g.id.c_str(), rules.error().text().c_str());
      continue;
    }
    auto room = GameRoom::restore(g, *rules, store_, this, time_, botFactory_, config_);
    if (!room.ok()) {
      std::fprintf(stderr, "acedrex serve: game %s not loaded: %s\n", g.id.c_str(), room.error().text().c_str());
      continue;
    }
    {
      std::lock_guard lock(roomsM_);
      rooms_[g.id] = *room;
    }
    if (g.clock.enabled) addClockRoom(*room);
    (*room)->resume();
    ++loaded;
  }
  return loaded;
}

void Lobby::start() {
  if (started_ || !config_.startThreads) return;
  started_ = true;
  stopping_ = false;
  const int n = std::max(1, config_.botThreads);
  for (int i = 0; i < n; ++i) workers_.emplace_back([this] { botWorker(); });
  clockThread_ = std::thread([this] { clockLoop(); });
  if (store_.shared()) {
    store_.watch([this](const std::string& id) { onStoreChange(id); });
    watching_ = true;
  }
}

void Lobby::stop() {
  {
    std::lock_guard lock(jobsM_);
    stopping_ = true;
  }
  jobsCv_.notify_all();
  if (watching_) {  // (a non-shared store may already be gone when a destructor calls stop())
    store_.watch({});
    watching_ = false;
  }
  {
    std::lock_guard lock(clockM_);  // a clock thread between its test and its wait sees the flag
  }
  clockCv_.notify_all();
  {
    std::lock_guard lock(roomsM_);
    for (auto& [id, room] : rooms_) room->stopBot();
  }
  for (auto& t : workers_)
    if (t.joinable()) t.join();
  workers_.clear();
  if (clockThread_.joinable()) clockThread_.join();
  started_ = false;
}

Outcome Lobby::create(const CreateRequest& req, CreatedGame* out) {
  auto rules = rulesFor(req.variant, req.options);
  if (!rules.ok()) {
    const bool unknown = rules.error().code == "variant" && !registry_.find(req.variant);
    return apiError(unknown ? 404 : 400, unknown ? "unknown-variant" : "bad-options", rules.error().text());
  }
  const int n = (*rules)->nseats();
  std::vector<SeatPlan> seats = req.seats;
  if (seats.empty()) seats.assign(static_cast<size_t>(n), SeatPlan{});
  if (static_cast<int>(seats.size()) != n)
    return apiError(400, "bad-seats",
                    req.variant + " has " + std::to_string(n) + " seats, not " + std::to_string(seats.size()));
  for (const auto& s : seats) {
    if (s.bot && (s.level < 1 || s.level > engine::kFullStrength))
      return apiError(400, "bad-level", "a bot's level is 1 to " + std::to_string(engine::kFullStrength));
    if (s.open && (s.bot || req.hotSeat))
      return apiError(400, "bad-seats", "only human seats of a game that is not hot seat can be open");
  }
  if (req.clock.enabled &&
      (req.clock.initialMs < 1000 || req.clock.initialMs > 86400000 || req.clock.incrementMs < 0 ||
       req.clock.incrementMs > 3600000))
    return apiError(400, "bad-clock", "clock: initialMs 1000..86400000, incrementMs 0..3600000");
  if (size() >= config_.maxGames) return apiError(503, "full", "the server holds too many games; try again later");

  StoredGame g;
  g.variant = req.variant;
  g.options = (*rules)->options;
  g.clock = req.clock;
  if (req.seed) {
    g.seed = *req.seed;
  } else {
    std::random_device rd;
    g.seed = (static_cast<uint64_t>(rd()) << 32) ^ rd();
  }
  g.hotSeat = req.hotSeat;
  g.startFen = (*rules)->start;
  if (!req.startFen.empty()) {
    Game probe(*rules, g.seed);
    if (auto set = probe.setStart(req.startFen); !set.ok())
      return apiError(400, "bad-fen", "the start position: " + set.error().text());
    if (probe.finished()) return apiError(400, "bad-fen", "the start position is already decided");
    g.startFen = probe.startText();
  } else if ((*rules)->chess960Start) {
    g.startFen = chess960StartFen(DieRng(~g.seed).below(960));  // not the seed itself: it stays secret
  }
  g.createdMs = time_.wallMs();
  const std::string shared = randomToken(24);
  for (auto s : seats) {
    s.token = s.bot || s.open ? "" : (req.hotSeat ? shared : randomToken(24));  // an open seat's comes when taken
    if (!s.bot) s.level = 0;
    g.seats.push_back(s);
  }
  const bool botsOnly = std::all_of(seats.begin(), seats.end(), [](const SeatPlan& s) { return s.bot; });

  // The per-client counts, the open-games count and the insertion are one step.
  std::unique_lock createLock(createM_);
  if (botsOnly && !mayCreateBotGame(req.client)) {
    const int most = config_.limits.botGamesPerClient;
    return apiError(429, "too-many-bot-games",
                    "this address already has " + std::to_string(most) + " unfinished game" + (most == 1 ? "" : "s") +
                        " of bots only (at most " + std::to_string(most) +
                        "); one must end before another starts");
  }
  if (int64_t wait = 0; !createLimiter_.allow(req.client, &wait)) {
    ApiError e = apiError(429, "rate-limited",
                          "too many new games from this address: at most " +
                              std::to_string(config_.limits.gamesPerClientPerMinute) + " a minute");
    e.retryAfterMs = std::max<int64_t>(wait, 1);
    return e;
  }
  if (config_.limits.maxOpenGames > 0) {
    auto open = store_.countUnfinished();
    if (!open.ok()) return apiError(503, "store", "the store cannot be read: " + open.error().text());
    if (*open >= config_.limits.maxOpenGames) {
      ApiError e = apiError(503, "full", "the server has too many unfinished games; try again later");
      e.retryAfterMs = 60000;
      return e;
    }
  }
  Status stored = makeError("store", "no id");
  for (int attempt = 0; attempt < 8; ++attempt) {
    g.id = randomToken(8);
    {
      std::lock_guard lock(roomsM_);
      if (rooms_.count(g.id)) continue;
    }
    stored = store_.createGame(g);
    if (stored.ok()) break;
  }
  if (!stored.ok()) return apiError(503, "store", "the game could not be stored: " + stored.error().text());
  auto room = GameRoom::restore(g, *rules, store_, this, time_, botFactory_, config_, req.client);
  if (!room.ok()) return apiError(500, "internal", room.error().text());
  {
    std::lock_guard lock(roomsM_);
    rooms_[g.id] = *room;
  }
  if (botsOnly && config_.limits.botGamesPerClient > 0) botGames_[req.client].push_back(*room);
  createLock.unlock();
  if (g.clock.enabled) addClockRoom(*room);
  claimHome(g.id);
  (*room)->resume();
  if (out) {
    out->id = g.id;
    out->tokens.clear();
    for (const auto& s : g.seats) out->tokens.push_back(s.token);
  }
  return done();
}

namespace {
// Drops the games that ended or left memory.
void dropEnded(std::vector<std::weak_ptr<GameRoom>>& games) {
  std::erase_if(games, [](const std::weak_ptr<GameRoom>& w) {
    auto room = w.lock();
    return !room || room->finished();
  });
}
}  // namespace

bool Lobby::mayCreateBotGame(const std::string& client) {
  const int most = config_.limits.botGamesPerClient;
  if (most <= 0) return true;
  auto it = botGames_.find(client);
  if (it == botGames_.end()) return true;
  dropEnded(it->second);
  if (it->second.empty()) {
    botGames_.erase(it);
    return true;
  }
  return static_cast<int>(it->second.size()) < most;
}

void Lobby::pruneBotGames() {
  std::lock_guard lock(createM_);
  for (auto it = botGames_.begin(); it != botGames_.end();) {
    dropEnded(it->second);
    it = it->second.empty() ? botGames_.erase(it) : std::next(it);
  }
}

std::shared_ptr<GameRoom> Lobby::find(const std::string& id) {
  if (id.empty() || id.size() > 32) return nullptr;
  for (char c : id)
    if (!std::isalnum(static_cast<unsigned char>(c))) return nullptr;
  {
    std::lock_guard lock(roomsM_);
    if (auto it = rooms_.find(id); it != rooms_.end()) {
      it->second->touch();
      return it->second;
    }
  }
  auto loaded = store_.load(id);
  if (!loaded.ok() || !*loaded) return nullptr;
  const StoredGame& g = **loaded;
  auto rules = rulesFor(g.variant, g.options);
  if (!rules.ok()) return nullptr;
  auto room = GameRoom::restore(g, *rules, store_, this, time_, botFactory_, config_);
  if (!room.ok()) return nullptr;
  std::shared_ptr<GameRoom> found;
  {
    std::lock_guard lock(roomsM_);
    auto [it, inserted] = rooms_.emplace(id, *room);
    if (!inserted) return it->second;  // another thread loaded it first
    found = it->second;
    if (auto v = evictedVersions_.find(id); v != evictedVersions_.end()) {
      found->continueVersion(v->second);
      evictedVersions_.erase(v);
    }
  }
  // An unfinished game (it left memory when idle, or was not loaded at start)
  // goes on: clocks are watched again, a lost turn or a bot's turn proceeds.
  if (!found->finished()) {
    if (g.clock.enabled) addClockRoom(found);
    found->resume();
  }
  return found;
}

Outcome Lobby::takeSeat(const std::string& id, const std::string& seatName, std::string* seat, std::string* token) {
  auto room = find(id);
  if (!room) return apiError(404, "unknown-game", "no game \"" + id + "\"");
  std::string fresh = randomToken(24);
  if (auto taken = room->takeSeat(seatName, fresh, seat); !taken.ok()) return taken;
  if (token) *token = std::move(fresh);
  return done();
}

std::vector<std::string> Lobby::recent(int limit, const std::string& filter) {
  std::vector<std::string> out;
  auto games = store_.recent(limit, filter);
  if (!games.ok()) return out;
  for (const auto& g : *games) {
    std::shared_ptr<GameRoom> room;
    {
      std::lock_guard lock(roomsM_);
      if (auto it = rooms_.find(g.id); it != rooms_.end()) room = it->second;
    }
    if (room) {
      out.push_back(room->summaryJson());
      continue;
    }
    auto rules = rulesFor(g.variant, g.options);
    if (!rules.ok()) continue;
    // recent() lists games without their entries: the count comes from the game's record.
    auto full = store_.load(g.id);
    std::optional<int64_t> plies;
    if (full.ok() && *full) plies = static_cast<int64_t>((*full)->entries.size());
    JsonWriter w;
    writeGameSummary(w, g, **rules, g.finished, -1, plies);
    out.push_back(w.take());
  }
  return out;
}

size_t Lobby::size() {
  std::lock_guard lock(roomsM_);
  return rooms_.size();
}

void Lobby::scheduleBot(std::shared_ptr<GameRoom> room, int64_t epoch) {
  std::shared_ptr<GameRoom> hurry;  // a search of a game of bots only to stop early, and its epoch
  int64_t hurryEpoch = 0;
  {
    std::lock_guard lock(jobsM_);
    BotJob job;
    job.room = room;
    job.epoch = epoch;
    job.creator = room->creator();
    job.botsOnly = room->botsOnly();
    jobs_.push(std::move(job));
    // A game with a human seat waits while every bot thread is busy: the
    // longest running search of a game of bots only ends now (the threads
    // serve the human's game next). Not in tests without threads.
    if (!room->botsOnly() && config_.startThreads && running_ >= std::max(1, config_.botThreads))
      for (const auto& r : runningBotsOnly_)
        if ((hurry = r.room.lock())) {
          hurryEpoch = r.epoch;
          break;
        }
  }
  jobsCv_.notify_all();
  if (hurry) hurry->stopSearch(hurryEpoch);  // atomics only: no lock of that room is taken
}

void Lobby::retryStoreLater(std::shared_ptr<GameRoom> room) {
  std::lock_guard lock(clockM_);
  storeWaitRooms_.push_back(room);  // the room asks once per wait (GameRoom::retryListed_)
}

std::optional<BotJob> Lobby::takeJobLocked() {
  auto job = jobs_.pop(botsOnlyMayStartLocked());
  if (!job) return job;
  ++running_;
  if (job->botsOnly) runningBotsOnly_.push_back(*job);
  return job;
}

void Lobby::runJob(const BotJob& job) {
  if (auto room = job.room.lock()) {
    // Searches of games with a human seat count with the analyses (Lobby::analyse).
    if (!job.botsOnly) ++searching_;
    room->runBot(job.epoch);
    if (!job.botsOnly) --searching_;
  }
  {
    std::lock_guard lock(jobsM_);
    --running_;
    if (job.botsOnly)
      std::erase_if(runningBotsOnly_, [&](const BotJob& r) {
        return !r.room.owner_before(job.room) && !job.room.owner_before(r.room);
      });
  }
  jobsCv_.notify_all();  // a thread for games of bots only may be free again
}

bool Lobby::runOneBotJob() {
  std::optional<BotJob> job;
  {
    std::lock_guard lock(jobsM_);
    job = takeJobLocked();
  }
  if (!job) return false;
  runJob(*job);
  return true;
}

size_t Lobby::pendingBotJobs() {
  std::lock_guard lock(jobsM_);
  return jobs_.size();
}

void Lobby::botWorker() {
  for (;;) {
    std::optional<BotJob> job;
    {
      std::unique_lock lock(jobsM_);
      jobsCv_.wait(lock, [&] {
        return stopping_ || jobs_.ready(botsOnlyMayStartLocked());
      });
      if (stopping_) return;
      job = takeJobLocked();
    }
    if (job) runJob(*job);
  }
}

void Lobby::addClockRoom(const std::shared_ptr<GameRoom>& room) {
  std::lock_guard lock(clockM_);
  clockRooms_.push_back(room);
}

namespace {
// Keeps the entries of `list` that were not in its first `done.size()`
// entries marked done; entries appended since the snapshot stay.
void prune(std::vector<std::weak_ptr<GameRoom>>& list, const std::vector<bool>& done) {
  std::vector<std::weak_ptr<GameRoom>> kept;
  kept.reserve(list.size());
  for (size_t i = 0; i < list.size(); ++i)
    if (i >= done.size() || !done[i]) kept.push_back(std::move(list[i]));
  list = std::move(kept);
}
}  // namespace

void Lobby::tickClocks() {
  std::lock_guard tick(tickM_);  // one tick at a time: prune() relies on it
  std::vector<std::weak_ptr<GameRoom>> rooms, waiting;
  {
    std::lock_guard lock(clockM_);
    rooms = clockRooms_;
    waiting = storeWaitRooms_;
  }
  std::vector<bool> doneClocks(rooms.size(), false), doneWaits(waiting.size(), false);
  bool any = false;
  for (size_t i = 0; i < rooms.size(); ++i) {
    auto room = rooms[i].lock();
    doneClocks[i] = !room || !room->checkClock();
    any = any || doneClocks[i];
  }
  for (size_t i = 0; i < waiting.size(); ++i) {
    auto room = waiting[i].lock();
    doneWaits[i] = !room || !room->retryStore();
    any = any || doneWaits[i];
  }
  if (!any) return;
  std::lock_guard lock(clockM_);
  prune(clockRooms_, doneClocks);
  prune(storeWaitRooms_, doneWaits);
}

int Lobby::evictIdle() {
  const int64_t now = time_.steadyMs();
  const int64_t idleMs =
      config_.limits.idleGameMinutes > 0 ? static_cast<int64_t>(config_.limits.idleGameMinutes) * 60000 : -1;
  std::lock_guard lock(roomsM_);
  int n = 0;
  for (auto it = rooms_.begin(); it != rooms_.end();) {
    // use_count 1: only this map holds it, and new holders come only through
    // find(), which needs roomsM_ (the bot queue and the clock thread hold
    // weak pointers, and only to rooms that idle() keeps).
    if (it->second.use_count() == 1 && it->second->idle(now, idleMs)) {
      if (!it->second->finished()) evictedVersions_[it->first] = it->second->version();
      if (it->second->finished() && isHome(it->first)) {
        store_.releaseHome(it->first);
        std::lock_guard homes(homesM_);
        homes_.erase(it->first);
      }
      it = rooms_.erase(it);
      ++n;
    } else {
      ++it;
    }
  }
  return n;
}

int Lobby::abortAbandoned() {
  const int64_t firstMs = static_cast<int64_t>(config_.limits.abortFirstMoveMinutes) * 60000;
  const int64_t absentMs = static_cast<int64_t>(config_.limits.abortAbsentMinutes) * 60000;
  if (firstMs <= 0 && absentMs <= 0) return 0;
  // Several processes: a human may be connected to another process, which
  // this one cannot see; the abort rules are left off rather than guessed.
  if (store_.shared()) return 0;
  std::vector<std::shared_ptr<GameRoom>> held;
  std::vector<std::string> evicted;
  {
    std::lock_guard lock(roomsM_);
    for (const auto& [id, room] : rooms_) held.push_back(room);  // not find(): that would keep them from idling
    for (const auto& [id, v] : evictedVersions_) evicted.push_back(id);
  }
  int n = 0;
  for (const auto& room : held)
    if (room->abortIfAbandoned(firstMs, absentMs)) ++n;
  held.clear();
  // A game out of memory has nobody connected; it comes back (find) only when
  // its record says a rule may apply: nothing for absentMs, or a human seat
  // that never moved.
  const int64_t now = time_.wallMs();
  for (const auto& id : evicted) {
    auto g = store_.load(id);
    if (!g.ok() || !*g || (*g)->finished) continue;
    const StoredGame& sg = **g;
    const int64_t last = sg.entries.empty() ? sg.createdMs : std::max(sg.createdMs, sg.entries.back().atMs);
    bool neverMoved = false;
    for (size_t s = 0; s < sg.seats.size(); ++s)
      if (!sg.seats[s].bot && std::none_of(sg.entries.begin(), sg.entries.end(),
                                           [&](const StoredEntry& e) { return e.seat == static_cast<int>(s); }))
        neverMoved = true;
    if (!(absentMs > 0 && now - last >= absentMs) && !(firstMs > 0 && neverMoved && now - last >= firstMs)) continue;
    if (auto room = find(id); room && room->abortIfAbandoned(firstMs, absentMs)) ++n;
  }
  return n;
}

void Lobby::clockLoop() {
  auto lastEviction = std::chrono::steady_clock::now();
  auto lastAdoption = lastEviction;
  for (;;) {
    {
      std::unique_lock lock(clockM_);
      clockCv_.wait_for(lock, std::chrono::milliseconds(config_.tickMs), [&] { return stopping_.load(); });
    }
    if (stopping_) return;
    tickClocks();
    if (store_.shared() && std::chrono::steady_clock::now() - lastAdoption > std::chrono::seconds(1)) {
      adoptOrphans();
      lastAdoption = std::chrono::steady_clock::now();
    }
    if (std::chrono::steady_clock::now() - lastEviction > std::chrono::seconds(60)) {
      abortAbandoned();
      evictIdle();
      pruneBotGames();
      lastEviction = std::chrono::steady_clock::now();
    }
  }
}

// ---------------------------------------------------------------------------
// Several processes on one shared store.

bool Lobby::isHome(const std::string& id) {
  std::lock_guard lock(homesM_);
  return homes_.count(id) > 0;
}

void Lobby::claimHome(const std::string& id) {
  if (!store_.shared()) return;
  auto claimed = store_.claimHome(id);
  if (claimed.ok() && *claimed) {
    std::lock_guard lock(homesM_);
    homes_.insert(id);
  }
}

bool Lobby::mayThink(const std::string& id) { return !store_.shared() || isHome(id); }

void Lobby::onStoreChange(const std::string& id) {
  if (stopping_) return;
  std::vector<std::shared_ptr<GameRoom>> rooms;
  {
    std::lock_guard lock(roomsM_);
    if (id.empty()) {
      for (auto& [key, room] : rooms_) rooms.push_back(room);
    } else if (auto it = rooms_.find(id); it != rooms_.end()) {
      rooms.push_back(it->second);
    }
  }
  if (rooms.empty() && !id.empty() && isHome(id)) {
    find(id);  // a game this process is home of, out of memory: it loads as stored and goes on
    return;
  }
  for (auto& room : rooms) room->syncFromStore();
}

int Lobby::adoptOrphans() {
  if (!store_.shared() || stopping_) return 0;
  const uint64_t epoch = store_.sessionEpoch();
  std::vector<std::string> lost;
  {
    std::lock_guard lock(homesM_);
    if (epoch != homesEpoch_) {  // the store's session was lost, and every home with it
      lost.assign(homes_.begin(), homes_.end());
      homes_.clear();
      homesEpoch_ = epoch;
    }
  }
  for (const auto& id : lost) claimHome(id);
  auto orphans = store_.orphans();
  if (!orphans.ok()) return 0;
  int adopted = 0;
  for (const auto& id : *orphans) {
    auto claimed = store_.claimHome(id);
    if (!claimed.ok() || !*claimed) continue;
    {
      std::lock_guard lock(homesM_);
      homes_.insert(id);
    }
    if (auto room = find(id)) {
      room->syncFromStore();
      room->resume();
      ++adopted;
    }
  }
  return adopted;
}

}  // namespace acedrex::server
