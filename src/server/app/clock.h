// Clock: the chess clocks of one game as a value: the time each seat had
// when the running clock last started, and when that was. The room says
// whose time runs (`running`, -1 while every clock stands: no clock yet, the
// game over, or a bot's turn waiting for a bot thread); the clock does the
// arithmetic: time left, increments, flag fall, restarting after a pause.
// Times are steady milliseconds. Not thread-safe (the room's lock guards it).
#pragma once

#include <cstdint>
#include <vector>

#include "server/app/store.h"

namespace acedrex::server {

class Clock {
 public:
  // What an entry does to the clock of the seat that made it.
  enum class Entry : uint8_t {
    kNoIncrement,  // a lost turn ("0000"), a resignation or a draw
    kIncrement,    // a move: the seat gets the increment
    kFlagFall,     // a timeout: the seat's time is 0
  };

  Clock() = default;
  // Every seat starts with spec.initialMs; the running clock counts from startMs.
  Clock(const ClockSpec& spec, int seats, int64_t startMs = 0);

  bool enabled() const { return spec_.enabled; }
  const ClockSpec& spec() const { return spec_; }
  // The ms `seat` has at `now` while `running`'s time runs (never below 0).
  int64_t left(int seat, int running, int64_t now) const;
  // Whether `seat` has run out of time at `now` (only the running seat can).
  bool flagged(int seat, int running, int64_t now) const { return seat == running && left(seat, running, now) <= 0; }
  // The clocks once `seat` makes an entry at `now` while `running`'s time
  // runs: the running seat charged, then `seat`'s increment or flag fall.
  // The clock itself does not change until set() is called with them.
  std::vector<int64_t> afterEntry(int running, int seat, Entry entry, int64_t now) const;
  // Takes `ms` (one per seat) as the times at `startMs`, from which the running clock counts.
  void set(std::vector<int64_t> ms, int64_t startMs);
  // Every seat back to its initial time, counting from startMs.
  void reset(int64_t startMs);
  // The running clock counts from `now` (after a pause: the time before is not charged).
  void restart(int64_t now) { startMs_ = now; }
  // The times at the last start (what an entry stores).
  const std::vector<int64_t>& atStart() const { return ms_; }
  int64_t startMs() const { return startMs_; }

 private:
  ClockSpec spec_;
  std::vector<int64_t> ms_;  // per seat: ms left at startMs_
  int64_t startMs_ = 0;      // when the running clock last started
};

}  // namespace acedrex::server
