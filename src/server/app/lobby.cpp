// Lobby (lobby.h): the registry: creating, finding, loading and listing games,
// the compiled rules, the per-client limits on creation.
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
      positionLimiter_(kPositionsPerMinute / 60.0, kPositionsPerMinute / 10.0, time_),
      pool_(config.botThreads, config.startThreads) {}

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
  pool_.start();
  clockThread_ = std::thread([this] { clockLoop(); });
  if (store_.shared()) {
    store_.watch([this](const std::string& id) { onStoreChange(id); });
    watching_ = true;
  }
}

void Lobby::stop() {
  stopping_ = true;
  pool_.requestStop();
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
  pool_.join();
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

Outcome Lobby::takeSeat(const std::string& id, const std::string& seatName, std::string* seat, std::string* token,
                        const SeatPlan* player) {
  auto room = find(id);
  if (!room) return apiError(404, "unknown-game", "no game \"" + id + "\"");
  std::string fresh = randomToken(24);
  if (auto taken = room->takeSeat(seatName, fresh, seat, player); !taken.ok()) return taken;
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

}  // namespace acedrex::server
