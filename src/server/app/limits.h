// Limits that keep one client (or all of them) from exhausting the server:
// the operator's settings, a per-key token bucket and a per-key counter of
// open connections. Pure and thread-safe; time comes from a TimeSource so the
// tests move it by hand. Both the app layer (games created per client) and
// the net layer (requests, connections) use them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>

#include "server/app/common.h"

namespace acedrex::server {

// ServerLimits (the settings) is in common.h.

// A token bucket per key (a client address): `rate` tokens a second up to
// `burst`. allow() takes one token if there is one. The map of keys is
// bounded: when it is full, buckets that are full again are dropped first,
// and a key that cannot get a bucket is refused.
class RateLimiter {
 public:
  RateLimiter(double ratePerSecond, double burst, const TimeSource& time, size_t maxKeys = 100000);
  bool allow(const std::string& key);
  // The same; when refused, *retryAfterMs says when the next token comes.
  bool allow(const std::string& key, int64_t* retryAfterMs);
  size_t keys();

 private:
  struct Bucket {
    double tokens = 0;
    int64_t atMs = 0;
  };
  void prune(int64_t now);
  double rate_, burst_;
  const TimeSource& time_;
  size_t maxKeys_;
  std::mutex m_;
  std::map<std::string, Bucket> buckets_;
};

// Counts what is open per key and in all; acquire() refuses above either cap
// (0: no cap). Each successful acquire() is matched by one release().
class ConnectionCounter {
 public:
  ConnectionCounter(int perKey, int total) : perKey_(perKey), total_(total) {}
  bool acquire(const std::string& key);
  void release(const std::string& key);
  int total();
  int of(const std::string& key);

 private:
  int perKey_, total_;
  std::mutex m_;
  std::map<std::string, int> open_;
  int sum_ = 0;
};

}  // namespace acedrex::server
