// Lobby: every game the server holds, their creation, the bot workers and
// the clock thread. It is the RoomHost of its rooms.
//
// Threading contract: every public method may be called from any thread.
// Lock order: a room's lock may be held while the lobby's bot queue lock is
// taken (scheduleBot), never the other way round; the lobby never calls into
// a room while holding its own locks.
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "core/variant.h"
#include "server/app/common.h"
#include "server/app/limits.h"
#include "server/app/room.h"
#include "server/app/store.h"

namespace acedrex::server {

struct CreateRequest {
  std::string variant;
  std::map<std::string, std::string> options;
  std::vector<SeatPlan> seats;  // empty: all human; tokens are made here
  ClockSpec clock;
  std::optional<uint64_t> seed;
  bool hotSeat = false;
  std::string startFen;  // "" for the variant's start (a Chess960 array drawn from the seed where start-array = chess960)
  std::string client;  // the creator's address, for the per-client limit ("" counts as one client)
};

struct CreatedGame {
  std::string id;
  std::vector<std::string> tokens;  // per seat; "" for bots
};

class Lobby : public RoomHost {
 public:
  Lobby(const VariantRegistry& registry, Store& store, BotFactory botFactory, LobbyConfig config,
        const TimeSource* time = nullptr);
  ~Lobby() override;
  Lobby(const Lobby&) = delete;
  Lobby& operator=(const Lobby&) = delete;

  // Loads every unfinished game from the store and lets its bots go on.
  // Returns how many games were loaded.
  Result<int> loadFromStore();
  void start();  // bot workers and the clock thread (if config.startThreads)
  void stop();

  // Creates a game. Over limits.gamesPerClientPerMinute for request.client:
  // 429 "rate-limited" (with retryAfterMs); limits.maxOpenGames unfinished
  // games (in memory or only in the store) or maxGames in memory: 503 "full".
  Outcome create(const CreateRequest& request, CreatedGame* out);
  // Takes a free seat of game `id` (GameRoom::takeSeat) with a new token:
  // `seatName`, or the first free one when empty. 404 "unknown-game" when
  // there is no such game; on success *seat is its name and *token its token.
  Outcome takeSeat(const std::string& id, const std::string& seatName, std::string* seat, std::string* token);
  // A game by id: in memory, or loaded from the store (a finished game, or an
  // unfinished one that left memory when idle). nullptr if unknown.
  std::shared_ptr<GameRoom> find(const std::string& id);
  // Summaries (JSON objects, writeGameSummary) of the most recent games,
  // newest first; filter as Store::recent ("open": with a free seat).
  std::vector<std::string> recent(int limit, const std::string& filter);
  // Compiled rules, shared between games with the same variant and options.
  Result<std::shared_ptr<const Rules>> rulesFor(const std::string& variant,
                                                 const std::map<std::string, std::string>& options);
  const VariantRegistry& registry() const { return registry_; }
  size_t size();

  // RoomHost.
  void scheduleBot(std::shared_ptr<GameRoom> room, int64_t epoch) override;
  void clockActive(std::shared_ptr<GameRoom> room) override { addClockRoom(room); }
  void retryStoreLater(std::shared_ptr<GameRoom> room) override;
  bool mayThink(const std::string& id) override;

  // Shared stores (several processes): another process changed game `id`
  // ("" for any game): rooms in memory catch up, and a game this process is
  // home of is loaded to go on. Called from the store's listening thread.
  void onStoreChange(const std::string& id);
  // Shared stores: becomes the home of every unfinished game with bots or
  // clocks that has none (its process died) and lets it go on; after a lost
  // store session, claims its homes again first. Returns how many games it
  // adopted. The clock thread calls it every second.
  int adoptOrphans();

  // Drops from memory the games nobody holds or watches that are finished, or
  // unfinished and idle for limits.idleGameMinutes (see GameRoom::idle); they
  // are loaded again from the store, as they were, when asked for. Returns how
  // many. The clock thread calls it every minute.
  int evictIdle();
  // Aborts the abandoned games (GameRoom::abortIfAbandoned with
  // limits.abortFirstMoveMinutes and abortAbsentMinutes), those in memory and
  // those that left it. Returns how many. The clock thread calls it every minute.
  int abortAbandoned();

  // Analysis (POST /api/analyse, docs/api.md "Analysis"): the bot at full
  // strength on a position of `variant` with `options`, for kAnalyseMs at
  // most and kAnalyseDepth plies. It counts with the bot searches: refused
  // with 503 "full" while config.botThreads searches run; a client may run
  // one at a time and kAnalysesPerMinute (429 "rate-limited", retryAfterMs).
  // A bad position is 400 "bad-fen"; a game with hidden pieces (fog of war)
  // is 403 "hidden" (its positions are not the analyser's to see).
  struct AnalyseRequest {
    std::string variant;
    std::map<std::string, std::string> options;
    std::string fen;
    std::string client;
  };
  struct Analysis {
    int score = 0;        // centipawns, from the view of the seat to move
    bool mate = false;    // mateIn: moves to mate (negative: being mated)
    int mateIn = 0;
    std::string bestmove; // "" when the position has no move
    int depth = 0;
    std::string toMove;   // the seat to move
    std::vector<std::string> pv;
  };
  static constexpr int kAnalyseMs = 400;
  static constexpr int kAnalyseDepth = 14;
  static constexpr int kAnalysesPerMinute = 30;
  Outcome analyse(const AnalyseRequest& request, Analysis* out);

  // The analysis board's side lines (POST /api/position, docs/api.md
  // "Analysis"): the position `fen` of `variant`, or the one after `move`
  // when given, as a replay frame with its legal moves (the state's "legal"),
  // written into *json. The die is not thrown: every legal move is listed.
  // The same refusals as analyse (400 bad-fen, 403 hidden), an illegal move
  // 400 "illegal-move", and kPositionsPerMinute a client (429).
  struct PositionRequest {
    std::string variant;
    std::map<std::string, std::string> options;
    std::string fen;
    std::string move;  // "" for the position itself
    std::string client;
  };
  static constexpr int kPositionsPerMinute = 600;
  Outcome position(const PositionRequest& request, std::string* json);

  // For tests run without threads: one pending bot job / one clock tick (which
  // also retries the store for rooms that wait for it).
  bool runOneBotJob();
  void tickClocks();
  size_t pendingBotJobs();

 private:
  void botWorker();
  void clockLoop();
  void addClockRoom(const std::shared_ptr<GameRoom>& room);
  void claimHome(const std::string& id);
  bool isHome(const std::string& id);

  const VariantRegistry& registry_;
  Store& store_;
  BotFactory botFactory_;
  LobbyConfig config_;
  TimeSource defaultTime_;
  const TimeSource& time_;
  RateLimiter createLimiter_;  // games created per client
  // Searches running (bot moves and analyses), and analyses per client.
  std::atomic<int> searching_{0};
  RateLimiter analyseLimiter_;
  ConnectionCounter analysing_{1, 0};
  RateLimiter positionLimiter_;
  std::mutex createM_;         // the open-games count and the insertion are one step

  std::mutex roomsM_;
  std::map<std::string, std::shared_ptr<GameRoom>> rooms_;
  std::map<std::string, int64_t> evictedVersions_;  // unfinished games out of memory: their last state version
  std::mutex rulesM_;
  std::map<std::string, std::shared_ptr<const Rules>> rules_;

  std::mutex jobsM_;
  std::condition_variable jobsCv_;
  std::deque<std::pair<std::weak_ptr<GameRoom>, int64_t>> jobs_;  // at most one per room
  std::atomic<bool> stopping_{false};
  std::vector<std::thread> workers_;

  std::mutex tickM_;  // taken before a room's lock and clockM_
  std::mutex clockM_;
  std::condition_variable clockCv_;
  std::vector<std::weak_ptr<GameRoom>> clockRooms_;
  std::vector<std::weak_ptr<GameRoom>> storeWaitRooms_;
  std::thread clockThread_;
  std::mutex homesM_;
  std::set<std::string> homes_;  // shared stores: games this process is home of (runs bots, decides clocks)
  bool watching_ = false;        // the store reports other processes' changes to onStoreChange
  uint64_t homesEpoch_ = 0;      // the store's session epoch when homes_ was last valid
  bool started_ = false;
};

}  // namespace acedrex::server
