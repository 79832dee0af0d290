#include "server/app/bot_queue.h"

#include "server/app/room.h"

namespace acedrex::server {

namespace {
// Whether two weak pointers share one control block (the same room, alive or not).
bool sameRoom(const std::weak_ptr<GameRoom>& a, const std::weak_ptr<GameRoom>& b) {
  return !a.owner_before(b) && !b.owner_before(a);
}
}  // namespace


void BotQueue::Rotation::push(BotJob job) {
  auto& mine = jobs[job.creator];
  if (mine.empty()) turn.push_back(job.creator);
  mine.push_back(std::move(job));
  ++size;
}

BotJob BotQueue::Rotation::pop() {
  const std::string creator = turn.front();
  turn.pop_front();
  auto it = jobs.find(creator);
  BotJob job = std::move(it->second.front());
  it->second.pop_front();
  if (it->second.empty()) jobs.erase(it);
  else turn.push_back(creator);  // its next game waits for the other creators' turns
  --size;
  return job;
}

void BotQueue::push(BotJob job) {
  if (auto q = queued_.find(job.room); q != queued_.end()) {
    Rotation& r = q->second ? botsOnly_ : human_;
    for (auto& [creator, jobs] : r.jobs)
      for (auto& waiting : jobs)
        if (sameRoom(waiting.room, job.room)) {
          waiting.epoch = job.epoch;
          return;
        }
  }
  queued_[job.room] = job.botsOnly;
  (job.botsOnly ? botsOnly_ : human_).push(std::move(job));
}

bool BotQueue::ready(bool botsOnlyAllowed) const { return human_.size > 0 || (botsOnlyAllowed && botsOnly_.size > 0); }

std::optional<BotJob> BotQueue::pop(bool botsOnlyAllowed) {
  if (!ready(botsOnlyAllowed)) return std::nullopt;
  BotJob job = human_.size > 0 ? human_.pop() : botsOnly_.pop();
  queued_.erase(job.room);
  return job;
}

void BotPool::start() {
  {
    std::lock_guard lock(m_);
    stopping_ = false;
  }
  for (int i = 0; i < threads_; ++i) workers_.emplace_back([this] { worker(); });
}

void BotPool::requestStop() {
  {
    std::lock_guard lock(m_);
    stopping_ = true;
  }
  cv_.notify_all();
}

void BotPool::join() {
  for (auto& t : workers_)
    if (t.joinable()) t.join();
  workers_.clear();
}

void BotPool::schedule(const std::shared_ptr<GameRoom>& room, int64_t epoch) {
  std::shared_ptr<GameRoom> hurry;  // a search of a game of bots only to stop early, and its epoch
  int64_t hurryEpoch = 0;
  {
    std::lock_guard lock(m_);
    BotJob job;
    job.room = room;
    job.epoch = epoch;
    job.creator = room->creator();
    job.botsOnly = room->botsOnly();
    queue_.push(std::move(job));
    // A game with a human seat waits while every bot thread is busy: the
    // longest running search of a game of bots only ends now (the threads
    // serve the human's game next).
    if (!room->botsOnly() && hurry_ && running_ >= threads_)
      for (const auto& r : runningBotsOnly_)
        if ((hurry = r.room.lock())) {
          hurryEpoch = r.epoch;
          break;
        }
  }
  cv_.notify_all();
  if (hurry) hurry->stopSearch(hurryEpoch);  // atomics only: no lock of that room is taken
}

std::optional<BotJob> BotPool::takeLocked() {
  auto job = queue_.pop(botsOnlyMayStartLocked());
  if (!job) return job;
  ++running_;
  if (job->botsOnly) runningBotsOnly_.push_back(*job);
  return job;
}

void BotPool::run(const BotJob& job) {
  if (auto room = job.room.lock()) {
    // Searches of games with a human seat count with the analyses (Lobby::analyse).
    if (!job.botsOnly) ++searching_;
    room->runBot(job.epoch);
    if (!job.botsOnly) --searching_;
  }
  {
    std::lock_guard lock(m_);
    --running_;
    if (job.botsOnly) std::erase_if(runningBotsOnly_, [&](const BotJob& r) { return sameRoom(r.room, job.room); });
  }
  cv_.notify_all();  // a thread for games of bots only may be free again
}

bool BotPool::runOne() {
  std::optional<BotJob> job;
  {
    std::lock_guard lock(m_);
    job = takeLocked();
  }
  if (!job) return false;
  run(*job);
  return true;
}

size_t BotPool::pending() {
  std::lock_guard lock(m_);
  return queue_.size();
}

void BotPool::worker() {
  for (;;) {
    std::optional<BotJob> job;
    {
      std::unique_lock lock(m_);
      cv_.wait(lock, [&] { return stopping_ || queue_.ready(botsOnlyMayStartLocked()); });
      if (stopping_) return;
      job = takeLocked();
    }
    if (job) run(*job);
  }
}

}  // namespace acedrex::server
