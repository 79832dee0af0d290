// Feed: what one stream or WebSocket client is sent of a game's changes, and
// SharedMessages: the message texts shared by every client of one change.
// Pure (no sockets), so the choice between a delta and a full state is
// tested directly (server_delta_test). Not thread-safe: a session uses its
// Feed on its own strand; SharedMessages locks.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>

#include "server/app/common.h"
#include "server/app/out_queue.h"

namespace acedrex::server {

// The messages of the subscribers of every game, one text per change, form
// (full state or delta), "you" and format: every spectator (and every
// connection of one seat) of one change gets the same bytes, so a change
// costs one copy whatever the number of silent clients.
class SharedMessages {
 public:
  enum Format { kWebSocket, kNdjson };
  // The message for u as a full state, or as its delta (u.delta must be set).
  std::shared_ptr<const std::string> get(const Update& u, bool delta, const std::string& you, Format format);
  // The text itself: NDJSON, the state (or delta) and a newline; WebSocket,
  // {"t":type,"d":state,"v":v} with the type "delta" for a delta.
  static std::string compose(const Update& u, bool delta, const std::string& you, Format format);

 private:
  using Key = std::tuple<const void*, std::string, int>;
  struct Entry {
    std::weak_ptr<const std::string> text;
    std::weak_ptr<const std::string> msg;
  };
  void prune();
  std::mutex m_;
  std::map<Key, Entry> cache_;
};

// One client's queue and what it holds. A change goes out as its delta when
// the client is current: deltas are on (not ?deltas=0), the change has one,
// the last state this queue took is the delta's version v-1, and the queue
// does not conflate (a full state would replace a waiting one). Otherwise the
// full state goes, so a client never gets a delta whose base it lacks.
class Feed {
 public:
  Feed(SharedMessages::Format format, bool deltas) : format_(format), deltas_(deltas) {}

  OutQueue::Push pushUpdate(const Update& u, SharedMessages& messages, size_t capBytes) {
    const bool delta = deltas_ && u.delta && lastV_ == u.v - 1 && !queue_.conflates();
    lastV_ = u.v;
    return queue_.push(messages.get(u, delta, you_, format_), delta ? OutQueue::Kind::kDelta : OutQueue::Kind::kState,
                       capBytes);
  }
  OutQueue::Push pushReply(std::shared_ptr<const std::string> msg, size_t capBytes) {
    return queue_.push(std::move(msg), OutQueue::Kind::kReply, capBytes);
  }
  OutQueue& queue() { return queue_; }
  std::string& you() { return you_; }  // the token's seats as JSON ("[]" for a watcher)

 private:
  SharedMessages::Format format_;
  bool deltas_;
  int64_t lastV_ = -1;  // the version of the last state or delta this queue took
  OutQueue queue_;
  std::string you_ = "[]";
};

}  // namespace acedrex::server
