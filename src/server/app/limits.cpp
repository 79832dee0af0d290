#include "server/app/limits.h"

#include <algorithm>
#include <cmath>

namespace acedrex::server {

RateLimiter::RateLimiter(double ratePerSecond, double burst, const TimeSource& time, size_t maxKeys)
    : rate_(ratePerSecond), burst_(std::max(1.0, burst)), time_(time), maxKeys_(std::max<size_t>(1, maxKeys)) {}

void RateLimiter::prune(int64_t now) {
  for (auto it = buckets_.begin(); it != buckets_.end();) {
    const double refilled = it->second.tokens + rate_ * static_cast<double>(now - it->second.atMs) / 1000.0;
    if (refilled >= burst_) it = buckets_.erase(it);
    else ++it;
  }
}

bool RateLimiter::allow(const std::string& key) { return allow(key, nullptr); }

bool RateLimiter::allow(const std::string& key, int64_t* retryAfterMs) {
  if (retryAfterMs) *retryAfterMs = 0;
  if (rate_ <= 0) return true;
  const int64_t now = time_.steadyMs();
  std::lock_guard lock(m_);
  auto it = buckets_.find(key);
  if (it == buckets_.end()) {
    if (buckets_.size() >= maxKeys_) prune(now);
    if (buckets_.size() >= maxKeys_) {
      if (retryAfterMs) *retryAfterMs = 1000;
      return false;
    }
    it = buckets_.emplace(key, Bucket{burst_, now}).first;
  }
  Bucket& b = it->second;
  b.tokens = std::min(burst_, b.tokens + rate_ * static_cast<double>(now - b.atMs) / 1000.0);
  b.atMs = now;
  if (b.tokens < 1.0) {
    if (retryAfterMs) *retryAfterMs = static_cast<int64_t>(std::ceil((1.0 - b.tokens) * 1000.0 / rate_));
    return false;
  }
  b.tokens -= 1.0;
  return true;
}

size_t RateLimiter::keys() {
  std::lock_guard lock(m_);
  return buckets_.size();
}

bool ConnectionCounter::acquire(const std::string& key) {
  std::lock_guard lock(m_);
  if (total_ > 0 && sum_ >= total_) return false;
  int& n = open_[key];
  if (perKey_ > 0 && n >= perKey_) {
    if (n == 0) open_.erase(key);
    return false;
  }
  ++n;
  ++sum_;
  return true;
}

void ConnectionCounter::release(const std::string& key) {
  std::lock_guard lock(m_);
  auto it = open_.find(key);
  if (it == open_.end()) return;
  --sum_;
  if (--it->second <= 0) open_.erase(it);
}

int ConnectionCounter::total() {
  std::lock_guard lock(m_);
  return sum_;
}

int ConnectionCounter::of(const std::string& key) {
  std::lock_guard lock(m_);
  auto it = open_.find(key);
  return it == open_.end() ? 0 : it->second;
}

}  // namespace acedrex::server
