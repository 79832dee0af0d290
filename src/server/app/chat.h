// Chat in a game (docs/api.md, "Chat"): two rooms, as lichess has them: the
// players' room (read and written by the holders of the game's seats) and
// the watchers' room (read by anyone, written by signed-in accounts that hold
// no seat). Lines are plain text, kept with the game in the store.
//
// A line is 1 to kMaxChars characters (Unicode code points) after trimming,
// without control characters; an author may post kBurst lines at once and
// one every kRefillMs after that (429 "rate-limited"); a game keeps at most
// kMaxLines lines (409 "chat-full").
//
// Threading contract: every method may be called from any thread.
#pragma once

#include <string>
#include <vector>

#include "server/app/common.h"
#include "server/app/limits.h"
#include "server/app/store.h"

namespace acedrex::server {

class Chat {
 public:
  static constexpr size_t kMaxChars = 140;
  static constexpr int kBurst = 5;
  static constexpr int kRefillMs = 2000;
  static constexpr size_t kMaxLines = 1000;

  Chat(Store& store, const TimeSource& time);

  // Why a text cannot be a line ("" when it can), and the text as stored (trimmed).
  static std::string textProblem(const std::string& text, std::string* cleaned);

  // Posts `text` to `room` ("players" or "watchers") of game `gameId` as
  // `author` (at `seat`, "" for watchers); `rateKey` names the author for the rate limit.
  Outcome post(const std::string& gameId, const std::string& room, const std::string& author, const std::string& seat,
               const std::string& text, const std::string& rateKey, ChatLine* out);
  // The lines of `room` numbered over `after`, oldest first.
  Result<std::vector<ChatLine>> lines(const std::string& gameId, const std::string& room, int64_t after);

 private:
  Store& store_;
  const TimeSource& time_;
  RateLimiter authors_;
};

}  // namespace acedrex::server
