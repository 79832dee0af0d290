// The bot pool: the bots' turns waiting for a bot thread (BotQueue), and the
// threads that run them (BotPool).
//
// BotQueue: the order in which the turns are served (docs/server.md, "Bots
// and clocks"). Two classes: jobs of games with a human seat come first, then
// jobs of games of bots only; within a class the creators (client addresses)
// take turns, round robin, and each creator's games take turns in the order
// they asked. One job per room. Not thread-safe: the pool holds its lock
// around every call.
#pragma once

#include <atomic>
#include <condition_variable>
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace acedrex::server {

class GameRoom;

struct BotJob {
  std::weak_ptr<GameRoom> room;
  int64_t epoch = 0;
  std::string creator;  // the client address that created the game ("" when not known)
  bool botsOnly = false;
};

class BotQueue {
 public:
  // Queues `job`, or, when its room already has a job queued, gives that job
  // the newer epoch (it keeps its place).
  void push(BotJob job);
  // The next job to run, or nothing: a job of a game with a human seat if one
  // waits, else one of a game of bots only if `botsOnlyAllowed`.
  std::optional<BotJob> pop(bool botsOnlyAllowed);
  // Whether pop(botsOnlyAllowed) would return a job.
  bool ready(bool botsOnlyAllowed) const;
  bool humanWaiting() const { return human_.size > 0; }
  size_t size() const { return human_.size + botsOnly_.size; }

 private:
  // One class: the creators in their turn order, each with its jobs in order.
  struct Rotation {
    std::deque<std::string> turn;  // creators with a job waiting, the next to serve first
    std::map<std::string, std::deque<BotJob>> jobs;
    size_t size = 0;
    void push(BotJob job);
    BotJob pop();
  };
  // Rooms with a job waiting (by their control block: no address is reused
  // while a weak pointer holds it), and whether it waits in botsOnly_.
  std::map<std::weak_ptr<GameRoom>, bool, std::owner_less<>> queued_;
  Rotation human_, botsOnly_;
};

// BotPool: the bot threads. A bot's turn joins the BotQueue: games with a
// human seat first, creators in turn. Games of bots only run on at most
// threads - 1 threads at once (1 when there is one thread); when a game with
// a human seat waits and every bot thread is busy, one search of a game of
// bots only is stopped early (its bot plays the best move it has).
//
// Threading contract: every method may be called from any thread. A room's
// lock may be held while schedule() takes the pool's lock, never the other
// way round: the pool calls into a room (runBot, stopSearch) without its lock.
class BotPool {
 public:
  // threads: how many bot threads start() makes (at least 1); hurry: whether
  // a waiting game with a human seat stops a search of bots only (not in tests
  // without threads).
  BotPool(int threads, bool hurry) : threads_(std::max(1, threads)), hurry_(hurry) {}
  ~BotPool() { stop(); }
  BotPool(const BotPool&) = delete;
  BotPool& operator=(const BotPool&) = delete;

  void start();
  // Wakes the threads to end (requestStop), then waits for them (join).
  void stop() {
    requestStop();
    join();
  }
  void requestStop();
  void join();

  // Queues the bot turn of `room` for `epoch`.
  void schedule(const std::shared_ptr<GameRoom>& room, int64_t epoch);
  // For tests run without threads: runs the next job in queue order.
  bool runOne();
  size_t pending();
  // Searches running for games with a human seat, with the analyses that
  // count with them (Lobby::analyse).
  std::atomic<int>& searching() { return searching_; }

 private:
  void worker();
  // Takes the next job the queue allows now (m_ held) and counts it as running.
  std::optional<BotJob> takeLocked();
  void run(const BotJob& job);
  int botsOnlyThreads() const { return threads_ > 1 ? threads_ - 1 : 1; }
  bool botsOnlyMayStartLocked() const { return static_cast<int>(runningBotsOnly_.size()) < botsOnlyThreads(); }

  const int threads_;
  const bool hurry_;
  std::atomic<int> searching_{0};
  std::mutex m_;
  std::condition_variable cv_;
  BotQueue queue_;
  int running_ = 0;                     // jobs being run
  std::vector<BotJob> runningBotsOnly_;  // the jobs of games of bots only being run
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace acedrex::server
