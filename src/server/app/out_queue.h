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
// wait behind the one being written, a new full state replaces the last
// waiting state or delta instead of queueing behind it: a full state is
// complete (a client resyncs from any), so a slow client skips to the newest
// one and what it holds stays bounded. A delta never replaces anything (it
// needs the version before it), and whoever pushes one checks conflates()
// first and sends the full state instead (Feed). Other messages (replies)
// over capBytes cut the client.
class OutQueue {
 public:
  static constexpr size_t kConflateBytes = 64 * 1024;
  enum class Kind { kReply, kState, kDelta };
  enum class Push { kWrite, kQueued, kFull };
  Push push(std::shared_ptr<const std::string> msg, Kind kind, size_t capBytes) {
    if (kind == Kind::kState && conflates()) {
      bytes_ -= items_.back().msg->size();
      items_.back() = Item{std::move(msg), kind};
      bytes_ += items_.back().msg->size();
      return Push::kQueued;
    }
    if (capBytes > 0 && !items_.empty() && bytes_ + msg->size() > capBytes) return Push::kFull;
    bytes_ += msg->size();
    items_.push_back(Item{std::move(msg), kind});
    return items_.size() == 1 ? Push::kWrite : Push::kQueued;
  }
  // Whether a full state pushed now would replace the last waiting state or delta.
  bool conflates() const {
    if (items_.size() < 2 || items_.back().kind == Kind::kReply) return false;
    return bytes_ - items_.front().msg->size() >= kConflateBytes;
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
    Kind kind = Kind::kReply;
  };
  std::deque<Item> items_;
  size_t bytes_ = 0;
};

}  // namespace acedrex::server
