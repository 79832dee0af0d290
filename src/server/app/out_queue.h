// OutQueue: the messages waiting for one stream or WebSocket client. Pure
// (no sockets), so its bounds are tested directly. Not thread-safe: a
// session uses it on its own strand.
#pragma once

#include <cstddef>
#include <deque>
#include <memory>
#include <string>

namespace acedrex::server {

// A queue of outgoing messages for one stream or WebSocket, bounded in bytes.
// A client that keeps up gets every message. Once more than kConflateBytes
// wait behind the one being written, a new state replaces the last waiting
// state instead of queueing behind it: every state is complete (a client
// resyncs from any), so a slow client skips to the newest one and what it
// holds stays bounded. Other messages (replies) over capBytes cut the client.
class OutQueue {
 public:
  static constexpr size_t kConflateBytes = 64 * 1024;
  enum class Push { kWrite, kQueued, kFull };
  Push push(std::shared_ptr<const std::string> msg, bool state, size_t capBytes) {
    const size_t waiting = items_.empty() ? 0 : bytes_ - items_.front().msg->size();
    if (state && items_.size() > 1 && items_.back().state && waiting >= kConflateBytes) {
      bytes_ -= items_.back().msg->size();
      items_.back().msg = std::move(msg);
      bytes_ += items_.back().msg->size();
      return Push::kQueued;
    }
    if (capBytes > 0 && !items_.empty() && bytes_ + msg->size() > capBytes) return Push::kFull;
    bytes_ += msg->size();
    items_.push_back(Item{std::move(msg), state});
    return items_.size() == 1 ? Push::kWrite : Push::kQueued;
  }
  size_t bytes() const { return bytes_; }
  size_t size() const { return items_.size(); }
  const std::string& front() const { return *items_.front().msg; }
  // After the front was written: whether another waits.
  bool pop() {
    bytes_ -= items_.front().msg->size();
    items_.pop_front();
    return !items_.empty();
  }

 private:
  struct Item {
    std::shared_ptr<const std::string> msg;
    bool state = false;
  };
  std::deque<Item> items_;
  size_t bytes_ = 0;
};

}  // namespace acedrex::server
