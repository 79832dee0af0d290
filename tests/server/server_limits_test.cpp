// RateLimiter and ConnectionCounter: the buckets refill with time, keys are
// independent, the key map stays bounded, and counters refuse above their caps.
#include <gtest/gtest.h>

#include "server/app/limits.h"
#include "server/app/out_queue.h"
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

namespace acedrex::server {
namespace {

std::shared_ptr<const std::string> bytes(size_t n) { return std::make_shared<const std::string>(n, 'x'); }

TEST(OutQueue, AClientThatReadsGetsEveryMessage) {
  OutQueue q;
  EXPECT_EQ(q.push(bytes(100), OutQueue::Kind::kState, 1 << 20), OutQueue::Push::kWrite);  // the first is written at once
  for (int i = 0; i < 50; ++i) EXPECT_EQ(q.push(bytes(100), OutQueue::Kind::kState, 1 << 20), OutQueue::Push::kQueued);
  EXPECT_EQ(q.size(), 51u);
  int written = 0;
  do ++written;
  while (q.pop());
  EXPECT_EQ(written, 51);
  EXPECT_EQ(q.bytes(), 0u);
}

TEST(OutQueue, ASilentClientHoldsAtMostTheConflationBoundPlusOneState) {
  OutQueue q;
  const size_t state = 11 * 1024;  // the size of a 200-ply game's state
  ASSERT_EQ(q.push(bytes(state), OutQueue::Kind::kState, 1 << 20), OutQueue::Push::kWrite);  // in flight, never completes
  for (int i = 0; i < 4000; ++i) ASSERT_NE(q.push(bytes(state), OutQueue::Kind::kState, 1 << 20), OutQueue::Push::kFull);
  EXPECT_LE(q.bytes(), OutQueue::kConflateBytes + 2 * state);
  EXPECT_LE(q.size(), OutQueue::kConflateBytes / state + 2);
}

TEST(OutQueue, RepliesOverTheByteCapCutTheClient) {
  OutQueue q;
  ASSERT_EQ(q.push(bytes(1000), OutQueue::Kind::kReply, 4000), OutQueue::Push::kWrite);
  for (int i = 0; i < 3; ++i) ASSERT_EQ(q.push(bytes(1000), OutQueue::Kind::kReply, 4000), OutQueue::Push::kQueued);
  EXPECT_EQ(q.push(bytes(1000), OutQueue::Kind::kReply, 4000), OutQueue::Push::kFull);
  EXPECT_EQ(q.bytes(), 4000u);
}

}  // namespace
}  // namespace acedrex::server
