// Clock (server/app/clock.h) on its own: time left, increments, flag fall,
// and standing while a bot's turn waits for a thread.
#include "server/app/clock.h"

#include <gtest/gtest.h>

namespace acedrex::server {
namespace {

ClockSpec spec(int64_t initialMs, int64_t incrementMs) {
  ClockSpec s;
  s.enabled = true;
  s.initialMs = initialMs;
  s.incrementMs = incrementMs;
  return s;
}

TEST(ServerClock, OnlyTheRunningSeatsTimeGoes) {
  const Clock c(spec(60000, 0), 2, 1000);
  EXPECT_EQ(c.left(0, 0, 1000), 60000);
  EXPECT_EQ(c.left(0, 0, 11000), 50000);
  EXPECT_EQ(c.left(1, 0, 11000), 60000);  // seat 1 waits: its clock stands
  EXPECT_EQ(c.left(0, -1, 11000), 60000);  // every clock stands
}

TEST(ServerClock, AnEntryChargesTheRunningSeatAndAddsTheIncrement) {
  Clock c(spec(60000, 2000), 2, 0);
  const auto after = c.afterEntry(0, 0, Clock::Entry::kIncrement, 5000);
  EXPECT_EQ(after, (std::vector<int64_t>{57000, 60000}));
  EXPECT_EQ(c.atStart(), (std::vector<int64_t>{60000, 60000}));  // nothing changes before set()
  c.set(after, 5000);
  EXPECT_EQ(c.left(1, 1, 8000), 57000);
  EXPECT_EQ(c.left(0, 1, 8000), 57000);
  // A lost turn, a resignation or a draw: no increment.
  EXPECT_EQ(c.afterEntry(1, 1, Clock::Entry::kNoIncrement, 8000), (std::vector<int64_t>{57000, 57000}));
}

TEST(ServerClock, TheFlagFallsAtZeroAndTimeNeverGoesBelow) {
  Clock c(spec(3000, 0), 3, 0);
  EXPECT_FALSE(c.flagged(2, 2, 2999));
  EXPECT_TRUE(c.flagged(2, 2, 3000));
  EXPECT_EQ(c.left(2, 2, 9000), 0);
  EXPECT_FALSE(c.flagged(1, 2, 9000));  // a waiting seat never flags
  EXPECT_FALSE(c.flagged(2, -1, 9000));  // nor a standing clock
  EXPECT_EQ(c.afterEntry(2, 2, Clock::Entry::kFlagFall, 9000), (std::vector<int64_t>{3000, 3000, 0}));
}

TEST(ServerClock, AClockHeldWhileABotWaitsIsChargedOnlyFromItsRestart) {
  Clock c(spec(10000, 0), 2, 0);
  // The bot's turn waits in the queue from 0 to 4000: the room says no seat runs.
  EXPECT_EQ(c.left(1, -1, 4000), 10000);
  c.restart(4000);  // its search starts
  EXPECT_EQ(c.left(1, 1, 4500), 9500);
  EXPECT_EQ(c.afterEntry(1, 1, Clock::Entry::kIncrement, 5000), (std::vector<int64_t>{10000, 9000}));
}

TEST(ServerClock, ResetGivesEverySeatItsInitialTime) {
  Clock c(spec(10000, 0), 2, 0);
  c.set({100, 200}, 0);
  c.reset(50);
  EXPECT_EQ(c.atStart(), (std::vector<int64_t>{10000, 10000}));
  EXPECT_EQ(c.startMs(), 50);
  EXPECT_FALSE(Clock().enabled());
}

}  // namespace
}  // namespace acedrex::server
