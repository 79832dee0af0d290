// Lobby: every game the server holds, their creation, the bot workers and
// the clock thread. It is the RoomHost of its rooms. Its work is in files by
// concern:
//   lobby.cpp               the registry: creating, finding, loading and listing games
//   bot_queue.cpp           the bot pool (BotPool): the bots' turns and their threads
//   lobby_housekeeping.cpp  the clock thread: timeouts, store retries, idle games, aborts
//   lobby_cluster.cpp       several processes on one store: homes, orphans, changes
//   analyse.cpp             analysis and the analysis board's positions
//
// Threading contract: every public method may be called from any thread.
// Lock order: a room's lock may be held while the lobby's bot queue lock is
// taken (scheduleBot), never the other way round; the lobby never calls into
// a room while holding its own locks.
#pragma once

#include <algorithm>
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

#include "core/variant/variant.h"
#include "server/app/bot_queue.h"
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
  // 429 "rate-limited" (with retryAfterMs); a game of bots only when
  // request.client has limits.botGamesPerClient of them unfinished: 429
  // "too-many-bot-games"; limits.maxOpenGames unfinished games (in memory or
  // only in the store) or maxGames in memory: 503 "full".
  Outcome create(const CreateRequest& request, CreatedGame* out);
  // Takes a free seat of game `id` (GameRoom::takeSeat) with a new token:
  // `seatName`, or the first free one when empty. 404 "unknown-game" when
  // there is no such game; on success *seat is its name and *token its token.
  Outcome takeSeat(const std::string& id, const std::string& seatName, std::string* seat, std::string* token,
                   const SeatPlan* player = nullptr);
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

  // RoomHost. A bot's turn joins the BotPool (bot_queue.h): games with a
  // human seat first, creators in turn. Games of bots only run on at most
  // botThreads - 1 threads at once (1 when botThreads is 1); when a game with
  // a human seat waits and every bot thread is busy, one search of a game of
  // bots only is stopped early (its bot plays the best move it has).
  void scheduleBot(std::shared_ptr<GameRoom> room, int64_t epoch) override { pool_.schedule(room, epoch); }
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
  // strength on a position of `variant` with `options`, kAnalyseDepth plies
  // at most, within kAnalyseMs for the whole request: the search gets what is
  // left of kAnalyseMs once the bot is made (analyseSearchMs), less
  // kAnalyseMarginMs for the search's last step, the principal variation and
  // the reply. It counts with the searches of games with a human seat (not
  // those of games of bots only): refused with 503 "full" while
  // config.botThreads of them run; a client may run one at a time and
  // kAnalysesPerMinute (429 "rate-limited", retryAfterMs).
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
  static constexpr int kAnalyseMs = 400;         // the documented bound of a request
  static constexpr int kAnalyseMarginMs = 50;    // kept from it for what comes after the search
  static constexpr int kAnalyseMinSearchMs = 10; // a search even when making the bot took everything
  // The search's time limit when `spentMs` of the request are gone (making the bot).
  static int analyseSearchMs(int64_t spentMs) {
    return static_cast<int>(std::clamp<int64_t>(kAnalyseMs - kAnalyseMarginMs - spentMs, kAnalyseMinSearchMs,
                                                kAnalyseMs - kAnalyseMarginMs));
  }
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

  // For tests run without threads: runs the next bot job in queue order /
  // one clock tick (which also retries the store for rooms that wait for it).
  bool runOneBotJob() { return pool_.runOne(); }
  void tickClocks();
  size_t pendingBotJobs() { return pool_.pending(); }

 private:
  // Whether `client` may create one more game of bots only (createM_ held).
  bool mayCreateBotGame(const std::string& client);
  void pruneBotGames();
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
  // Analyses per client (they count with the bot pool's searches of games with a human seat).
  RateLimiter analyseLimiter_;
  ConnectionCounter analysing_{1, 0};
  RateLimiter positionLimiter_;
  std::mutex createM_;         // the open-games count and the insertion are one step
  // Unfinished games of bots only per creator address (createM_); finished or
  // gone ones are pruned when the creator creates again and every minute.
  std::map<std::string, std::vector<std::weak_ptr<GameRoom>>> botGames_;

  std::mutex roomsM_;
  std::map<std::string, std::shared_ptr<GameRoom>> rooms_;
  std::map<std::string, int64_t> evictedVersions_;  // unfinished games out of memory: their last state version
  std::mutex rulesM_;
  std::map<std::string, std::shared_ptr<const Rules>> rules_;

  BotPool pool_;
  std::atomic<bool> stopping_{false};

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
