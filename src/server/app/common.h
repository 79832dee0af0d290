// Small types shared by the app layer: errors with an HTTP status, state
// updates for subscribers, the time source and the bot factory.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "core/variant/variant.h"
#include "engine/bot.h"

namespace acedrex::server {

// A refused request: the HTTP status, a short code and a sentence.
struct ApiError {
  int status = 400;
  std::string code;
  std::string message;
  int64_t retryAfterMs = 0;  // >0: when trying again makes sense (429, some 503s)
};
// What a request that makes no value comes to, as a result: done (ok()), or
// refused with an ApiError (error()); `return done();` or `return
// apiError(...);`. It does not convert to bool, so a success never reads as
// false nor a refusal as true: callers write `if (!r.ok())`, tests
// `ASSERT_TRUE(room->move(...).ok())`.
class Outcome {
 public:
  Outcome(Unit) {}                                            // NOLINT(google-explicit-constructor)
  Outcome(ApiError error) : error_(std::move(error)) {}       // NOLINT(google-explicit-constructor)
  bool ok() const { return !error_; }
  const ApiError& error() const { return *error_; }           // only when !ok()

 private:
  std::optional<ApiError> error_;
};
inline Outcome done() { return Unit{}; }

inline ApiError apiError(int status, std::string code, std::string message) {
  return ApiError{status, std::move(code), std::move(message)};
}

// One change of a game, for subscribers (WebSockets, NDJSON streams).
// `base` is the full state JSON without its closing brace and without "you";
// stateWithYou() completes it for one client. When the change only appended
// entries to the record, `delta` is the same state from version v-1 on
// (docs/api.md, "Deltas"): every field but the move list, plus the new
// entries as "append", again without "you" and its closing brace. A client
// that holds version v-1 may be sent the delta instead of the full state.
struct Update {
  const char* type = "state";  // "state", "move" or "end"
  int64_t v = 0;
  std::shared_ptr<const std::string> base;
  std::shared_ptr<const std::string> delta;  // null: this change is not an append (send the full state)
};
// Called with the room's lock held: it must not block and must not call back
// into the room. The net layer posts the update to the socket's strand.
using Listener = std::function<void(const Update&)>;

// Clocks read time through this, so tests can move time by hand.
class TimeSource {
 public:
  virtual ~TimeSource() = default;
  virtual int64_t steadyMs() const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }
  virtual int64_t wallMs() const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
  }
};

using BotFactory =
    std::function<std::unique_ptr<engine::Bot>(std::shared_ptr<const Rules> rules, int level, uint64_t seed)>;

// What an operator can set (`acedrex serve --limit-...`); docs/server.md
// lists each with its default. 0 turns a per-client limit off.
struct ServerLimits {
  int gamesPerClientPerMinute = 20;    // POST /api/game per client address
  int botGamesPerClient = 3;           // unfinished games of bots only per creating address (0: no limit)
  size_t maxOpenGames = 2000;          // unfinished games in all (creation beyond: 503)
  int requestsPerClientPerSecond = 50; // every HTTP request, sustained rate per address
  int requestBurst = 200;              // ... and the burst a client may send at once
  int connectionsPerClient = 64;       // open TCP connections per address (HTTP, streams, WebSockets)
  int maxConnections = 4096;           // open TCP connections in all
  int streamsPerClient = 16;           // WebSockets and NDJSON streams per address
  int maxStreams = 2048;               // WebSockets and NDJSON streams in all
  size_t queueBytesPerClient = 1 << 20;  // bytes queued for one slow stream before it is cut
  int idleGameMinutes = 30;            // unfinished games untouched this long leave memory (reload on use)
  int abortFirstMoveMinutes = 10;      // a human seat that has not moved this long into its first turn aborts the game (0: never)
  int abortAbsentMinutes = 60;         // no human seat connected or moving this long aborts the game (0: never)
};

struct LobbyConfig {
  int botThreads = 2;          // worker threads that run bot searches
  int botMoveMs = 0;           // >0: a time limit per bot move in games without clocks
  size_t maxGames = 200000;    // games held in memory at once (creation beyond: 503)
  bool startThreads = true;    // false in tests that drive bots and clocks by hand
  int tickMs = 25;             // how often the clock thread looks for timeouts
  ServerLimits limits;
};

}  // namespace acedrex::server
