// GameRoom: one game being played: the rules Game, its seats and tokens,
// clocks, draw offers, the bots' turns and the subscribers that watch it.
// The room owns the state and its lock; its work is in files by concern:
//   room.cpp             making and restoring a room, lifecycle (idle, abort), records
//   room_actions.cpp     the players' actions (move, resign, draw, takeback, take a seat)
//                        and committing an entry
//   room_view.cpp        the state and delta JSON, subscriptions and publishing
//   room_store_sync.cpp  store retries and catching up with other processes
//   room_bot.cpp         the bot to move: scheduling and running its search
//   room_entries.cpp     record entries applied to a Game, the result object
//   clock.h              the chess clocks (a value)
//
// Threading contract: every public method may be called from any thread; a
// room serialises its work with its own mutex. Every change is appended to
// the Store before it is applied in memory and before any subscriber or
// caller hears of it. Listeners are called with the lock held, in the order
// of the changes, and must only hand the update on (see common.h).
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/game/game.h"
#include "server/app/clock.h"
#include "server/app/common.h"
#include "server/app/room_entries.h"
#include "server/app/store.h"

namespace acedrex::server {

class RoomHost;  // the lobby: schedules bot turns
struct GameView;

class GameRoom : public std::enable_shared_from_this<GameRoom> {
 public:
  // Rebuilds a room from its stored record (new games have no entries).
  // Entries that no longer replay are dropped (and truncated in the store).
  // `creator`: the client address that created the game, "" when not known
  // (games loaded from the store); it is kept in memory only.
  static Result<std::shared_ptr<GameRoom>> restore(const StoredGame& stored, std::shared_ptr<const Rules> rules,
                                                   Store& store, RoomHost* host, const TimeSource& time,
                                                   BotFactory botFactory, const LobbyConfig& config,
                                                   std::string creator = "");

  const std::string& id() const { return meta_.id; }
  const std::string& variant() const { return meta_.variant; }
  // Fixed when the room is made (no lock needed): who created it, and
  // whether every seat is a bot (an open seat is a human seat).
  const std::string& creator() const { return creator_; }
  bool botsOnly() const { return botsOnly_; }

  // The seats (indices) a token holds; empty for a wrong or empty token.
  std::vector<int> seatsOf(const std::string& token) const;

  // The full state JSON, with "you" for the token (and its version in *v).
  std::string stateJson(const std::string& token, int64_t* v = nullptr);

  Outcome move(const std::string& token, const std::string& moveText);
  Outcome resign(const std::string& token, const std::string& seatName);
  Outcome draw(const std::string& token, const std::string& action);
  // Against bots: takes back at once. Against a person (two-player games):
  // `action` "offer" (or ""), "accept" or "decline", as draw offers go; an
  // accepted offer takes back the offerer's last move and what followed.
  Outcome takeback(const std::string& token, const std::string& action = "");
  // A free seat of a game listed publicly (SeatPlan::open) is given `token`:
  // the seat named `seatName`, or the first free one when it is empty. The
  // store takes the change only if the seats are as this room knows them, so
  // of two takers of the last seat (in any process) one gets it (*taken: the
  // seat's name) and the other 409 "seat-taken". While a seat is free no move
  // is played (409 "waiting") and no bot moves.
  // `player` (optional) names the taker (SeatPlan::name, account, rating,
  // provisional); a rated seat takes only an account, and not one that holds
  // the other seat (403 "account-needed", 409 "same-player").
  Outcome takeSeat(const std::string& seatName, const std::string& token, std::string* taken,
                   const SeatPlan* player = nullptr);
  // Names the unnamed human seats `token` holds after `player` (name and
  // account; room_players.cpp). 409 "named" when they all have names.
  Outcome nameSeats(const std::string& token, const SeatPlan& player);
  // The first seat `token` holds: its name ("white") in *seat and its
  // player's name (or the seat's) in *author; false when it holds none.
  bool chatAuthor(const std::string& token, std::string* seat, std::string* author);

  // Subscribes to every change. A token's seats count as connected while
  // subscribed. Returns the id for unsubscribe(), the current update (which
  // the caller sends first) and the token's "you" array as JSON.
  int subscribe(const std::string& token, Listener listener, Update* current, std::string* youJson);
  void unsubscribe(int id);

  // After restore and insertion into the lobby: plays pending lost turns,
  // applies a timeout due, and lets the bot to move think.
  void resume();
  // Called by the lobby's clock thread: applies a timeout when the running
  // clock has run out. Returns whether the game has a running clock.
  bool checkClock();
  // Called by a bot worker: runs the bot to move, if any, for `epoch`. The
  // bot is made for this one move (seeded from the game's seed, the seat and
  // the ply, so a game replays the same) and released after it: the bots'
  // memory (their transposition tables) is bounded by the searches running,
  // not by the games held. With clocks, the bot's clock starts here: while
  // its turn waits for a bot thread, its clock stands (see clockHeld()).
  void runBot(int64_t epoch);
  // Called by the lobby's clock thread while the room waits for the store:
  // when an entry the server makes itself (a bot's move, a lost turn, a
  // timeout) could not be stored, it is tried again after 100 ms, doubling up
  // to 10 s, and the state says "waiting":"store" until it is stored. Returns
  // whether the room still waits.
  bool retryStore();
  // Whether the room may leave memory now: nobody listens, and it is finished,
  // or it has been untouched for idleMs (<0: never) with no bot thinking or
  // queued, no store retry pending, no running clock and no draw offer (all
  // of which live only in memory). The lobby also checks nobody holds it.
  bool idle(int64_t now, int64_t idleMs);
  // Marks the room as used now (the lobby calls it on every find()).
  void touch();
  // After a reload of an evicted room: versions go on from where they were.
  void continueVersion(int64_t v);
  // Shared stores: another process changed this game's record. Takes the
  // stored record (entries beyond ours are applied and published one by
  // one; a takeback made elsewhere replays from the start), then goes on as
  // after any change. Returns whether anything changed.
  bool syncFromStore();
  // Asks a running bot search to stop (shutdown).
  void stopBot() { botStop_ = true; }
  // Asks the bot search for `epoch`, if it is running now, to end early: the
  // bot plays the best move it has (the lobby hurries games of bots only).
  // A search about to start for `epoch` ends as soon as it starts.
  void stopSearch(int64_t epoch) {
    hurryEpoch_ = epoch;
    if (searchEpoch_.load() == epoch) botStop_ = true;
  }

  // Whether the records are closed: a fog-of-war game before its end (the API refuses them).
  bool recordHidden();
  // Records: PGN (2 players) or PGN4 (4 players), and the replay frames.
  std::string pgn();
  std::string replayJson();
  // A short summary for the lobby list.
  std::string summaryJson();
  bool finished();
  int64_t createdMs() const { return meta_.createdMs; }
  bool hasClock() const { return meta_.clock.enabled; }

  int listenerCount();

  // The abort rule for abandoned games (docs/api.md): an unfinished game with
  // human seats ends as "aborted" when a human seat has had its first turn for
  // firstMoveMs without moving, or when no human seat has been connected, or
  // moved, for absentMs (<=0 turns a rule off). Nothing is added to the record;
  // the game is stored as finished with the result {"reason":"aborted"}.
  // Returns whether it aborted the game now.
  bool abortIfAbandoned(int64_t firstMoveMs, int64_t absentMs);

  using EntryNote = server::EntryNote;

  // For tests.
  int64_t version();
  int plies();
  bool botThinking();

 private:
  GameRoom(const StoredGame& meta, std::shared_ptr<const Rules> rules, Store& store, RoomHost* host,
           const TimeSource& time, BotFactory botFactory, const LobbyConfig& config, std::string creator);

  // All below run with m_ held.
  // room.cpp
  std::vector<int> seatsOfLocked(const std::string& token) const;
  bool clockRunning() const;
  // Whether the clock of the seat to move stands although the clocks run: a
  // bot of this process is to move and no bot thread has started its search
  // yet (its turn waits in the queue).
  bool clockHeld() const;
  // The seat whose time runs now, -1 while every clock stands.
  int runningSeat() const;
  int64_t clockLeft(int seat, int64_t now) const { return clock_.left(seat, runningSeat(), now); }
  bool timedOut(int seat, int64_t now) const;
  std::string resultJson();
  bool over() const { return aborted_ || game_->finished(); }
  // room_actions.cpp
  // The seats `token` holds into *seats; 401 "no-token" or 403 "wrong-token" when none.
  Outcome seatsHeld(const std::string& token, std::vector<int>* seats) const;
  Outcome commitEntry(const std::string& text, int seat);  // store, apply, publish
  void afterAction();  // plays lost turns, times out a flagged seat, schedules the bot to move
  // room_bot.cpp
  void maybeScheduleBot();
  // room_store_sync.cpp
  void waitForStore(const std::string& text, int seat);
  bool retryStoreLocked();
  bool catchUpLocked();       // see syncFromStore()
  void replayFromStartLocked(size_t keep);
  // Puts `player` into seats[seat] (room_players.cpp); refuses a guest or the other seat's account in a rated seat.
  static Outcome seatPlayer(std::vector<SeatPlan>& seats, int seat, const SeatPlan* player);
  // The consent to a takeback between people (room_takeback.cpp): *offerer
  // is the seat whose move goes back once agreed, else -1 (an offer made or declined).
  Outcome negotiateTakeback(const std::vector<int>& seats, const std::string& action, int* offerer);
  // room_view.cpp
  // The state for a client holding the seats in seatMask (GameView: fog of war).
  const std::string& stateBase(uint8_t seatMask);
  // The delta from v_-1 for the same client: the entries from appendFrom on (see Update).
  std::string deltaBase(uint8_t seatMask, size_t appendFrom);
  static constexpr size_t kFullState = static_cast<size_t>(-1);
  // The state's text for one view: in full (kFullState), or the delta whose record starts at appendFrom.
  std::string stateText(const GameView& view, size_t appendFrom);
  uint8_t seatMaskOf(const std::vector<int>& seats) const;
  void publish(const char* type);

  StoredGame meta_;  // the stored header (entries kept separately)
  std::shared_ptr<const Rules> rules_;
  const std::string creator_;
  bool botsOnly_ = false;
  Store& store_;
  RoomHost* host_;
  const TimeSource& time_;
  BotFactory botFactory_;
  LobbyConfig config_;

  mutable std::mutex m_;
  std::unique_ptr<Game> game_;
  std::vector<StoredEntry> entries_;
  std::vector<EntryNote> notes_;  // one per entry
  bool aborted_ = false;          // ended by abortIfAbandoned (the rules did not end it)
  std::string abortResult_;
  int64_t lastHumanMs_ = 0;             // wall ms a human seat last moved, connected or left
  int64_t seatTakenMs_ = 0;             // wall ms a free seat was last taken (the first-move rule counts from it)
  std::vector<std::string> outReason_;  // per seat, "" while in
  Clock clock_;                         // steady ms; runs for runningSeat()
  int drawOffer_ = -1;
  int takebackOffer_ = -1;  // the seat that asks for a takeback (games between people)
  std::vector<int> connections_;
  int64_t v_ = 1;
  int64_t epoch_ = 0;                   // grows with every change of the record (bots check it)
  std::string base_;
  int64_t baseV_ = -1;
  std::map<uint8_t, std::string> viewBase_;  // fog of war: the state per view (GameView::key), for viewBaseV_
  int64_t viewBaseV_ = -1;
  size_t publishedPlies_ = 0;            // entries_ at version v_ (deltas append from here)
  bool publishedFogged_ = false;          // whether version v_ was fogged (its moves partly hidden)
  bool recordRewritten_ = false;          // entries were taken back or replaced since version v_
  std::map<int, std::pair<std::vector<int>, Listener>> listeners_;
  int nextListener_ = 1;
  bool botBusy_ = false;                // a bot job is queued or running
  std::atomic<bool> botStop_{false};
  std::atomic<int64_t> searchEpoch_{-1};  // the epoch whose bot search runs now, -1 when none
  std::atomic<int64_t> hurryEpoch_{-1};   // the epoch whose search the lobby asked to end early
  int64_t clockStartedEpoch_ = -1;      // the epoch whose bot search started (its clock runs)
  struct StoreWait {                    // an entry of the server's own that the store refused
    bool active = false;
    std::string text;
    int seat = -1;
    int64_t delayMs = 0;
    int64_t dueMs = 0;
  } wait_;
  bool lostRace_ = false;               // the last commitEntry lost a race to another process
  bool retryListed_ = false;            // the lobby calls retryStore() until it returns false
  int64_t lastUsedMs_ = 0;              // steady ms of the last change or find()
};

// What a room needs from its owner.
class RoomHost {
 public:
  virtual ~RoomHost() = default;
  virtual void scheduleBot(std::shared_ptr<GameRoom> room, int64_t epoch) = 0;
  // A game with clocks is ongoing again (after a takeback of its last move).
  virtual void clockActive(std::shared_ptr<GameRoom> room) { (void)room; }
  // The room waits for the store: call its retryStore() until it returns false.
  virtual void retryStoreLater(std::shared_ptr<GameRoom> room) { (void)room; }
  // Whether this process runs the game's bots (shared stores: only its home).
  virtual bool mayThink(const std::string& id) { (void)id; return true; }
};

// Completes an Update's base for one client: base + ",\"you\":" + youJson + "}".
std::string stateWithYou(const std::string& base, const std::string& youJson);

}  // namespace acedrex::server
