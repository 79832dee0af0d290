// BotQueue: the bots' turns waiting for a bot thread, in the order they are
// served (docs/server.md, "Bots and clocks"). Two classes: jobs of games with
// a human seat come first, then jobs of games of bots only; within a class the
// creators (client addresses) take turns, round robin, and each creator's
// games take turns in the order they asked. One job per room.
//
// Not thread-safe: the lobby holds its queue lock around every call.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>

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

}  // namespace acedrex::server
