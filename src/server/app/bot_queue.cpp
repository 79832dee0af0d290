#include "server/app/bot_queue.h"

namespace acedrex::server {

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
        if (!waiting.room.owner_before(job.room) && !job.room.owner_before(waiting.room)) {
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

}  // namespace acedrex::server
