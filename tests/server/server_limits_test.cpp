// RateLimiter and ConnectionCounter: the buckets refill with time, keys are
// independent, the key map stays bounded, and counters refuse above their caps.
#include <gtest/gtest.h>

#include "server/app/limits.h"
#include "test_support.h"

namespace acedrex::server {
namespace {

using testing::FakeTime;

TEST(RateLimiter, BurstThenRefillPerKey) {
  FakeTime time;
  RateLimiter limiter(2.0, 3.0, time);
  EXPECT_TRUE(limiter.allow("a"));
  EXPECT_TRUE(limiter.allow("a"));
  EXPECT_TRUE(limiter.allow("a"));
  EXPECT_FALSE(limiter.allow("a"));  // the burst is spent
  EXPECT_TRUE(limiter.allow("b"));   // another client has its own bucket
  time.advance(499);
  EXPECT_FALSE(limiter.allow("a"));  // 0.998 of a token
  time.advance(1);
  EXPECT_TRUE(limiter.allow("a"));   // 2 a second: one token after 500 ms
  EXPECT_FALSE(limiter.allow("a"));
  time.advance(60000);
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(limiter.allow("a"));  // never more than the burst
  EXPECT_FALSE(limiter.allow("a"));
}

TEST(RateLimiter, ZeroRateIsOff) {
  FakeTime time;
  RateLimiter limiter(0, 1, time);
  for (int i = 0; i < 1000; ++i) ASSERT_TRUE(limiter.allow("a"));
  EXPECT_EQ(limiter.keys(), 0u);
}

TEST(RateLimiter, KeyMapIsBounded) {
  FakeTime time;
  RateLimiter limiter(1.0, 2.0, time, 4);
  for (int i = 0; i < 4; ++i) EXPECT_TRUE(limiter.allow("k" + std::to_string(i)));
  EXPECT_FALSE(limiter.allow("new"));  // full of buckets still in use: refused
  EXPECT_EQ(limiter.keys(), 4u);
  time.advance(1000);                  // the buckets are full again and can go
  EXPECT_TRUE(limiter.allow("new"));
  EXPECT_LE(limiter.keys(), 4u);
}

TEST(ConnectionCounter, PerKeyAndTotalCaps) {
  ConnectionCounter c(2, 3);
  EXPECT_TRUE(c.acquire("a"));
  EXPECT_TRUE(c.acquire("a"));
  EXPECT_FALSE(c.acquire("a"));  // two per key
  EXPECT_TRUE(c.acquire("b"));
  EXPECT_FALSE(c.acquire("c"));  // three in all
  EXPECT_EQ(c.of("c"), 0);
  EXPECT_EQ(c.total(), 3);
  c.release("a");
  EXPECT_TRUE(c.acquire("c"));
  c.release("zzz");  // unknown: ignored
  EXPECT_EQ(c.total(), 3);
  EXPECT_EQ(c.of("a"), 1);
}

}  // namespace
}  // namespace acedrex::server
