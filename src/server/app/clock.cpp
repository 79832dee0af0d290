#include "server/app/clock.h"

#include <algorithm>

namespace acedrex::server {

Clock::Clock(const ClockSpec& spec, int seats, int64_t startMs)
    : spec_(spec), ms_(static_cast<size_t>(std::max(seats, 0)), spec.initialMs), startMs_(startMs) {}

int64_t Clock::left(int seat, int running, int64_t now) const {
  int64_t ms = ms_[static_cast<size_t>(seat)];
  if (seat == running) ms -= now - startMs_;
  return std::max<int64_t>(ms, 0);
}

std::vector<int64_t> Clock::afterEntry(int running, int seat, Entry entry, int64_t now) const {
  std::vector<int64_t> next = ms_;
  if (running >= 0) next[static_cast<size_t>(running)] = left(running, running, now);
  if (entry == Entry::kIncrement) next[static_cast<size_t>(seat)] += spec_.incrementMs;
  if (entry == Entry::kFlagFall) next[static_cast<size_t>(seat)] = 0;
  return next;
}

void Clock::set(std::vector<int64_t> ms, int64_t startMs) {
  ms_ = std::move(ms);
  startMs_ = startMs;
}

void Clock::reset(int64_t startMs) {
  std::fill(ms_.begin(), ms_.end(), spec_.initialMs);
  startMs_ = startMs;
}

}  // namespace acedrex::server
