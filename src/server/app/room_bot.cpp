// GameRoom (room.h): the bot to move: asking the host for a bot thread, and running
// its search on a copy of the game outside the lock.
#include <algorithm>
#include <cstdio>

#include "core/base/splitmix.h"
#include "server/app/room.h"

namespace acedrex::server {
namespace {

// A bot's seed for one move: the game's seed, the seat and the ply, mixed
// (splitmix64), so the same record gives the same bot whatever came before.
uint64_t botSeed(uint64_t gameSeed, int seat, int ply) {
  return splitmix64Mix(gameSeed ^ (static_cast<uint64_t>(seat + 1) * kSplitmixGamma) ^
                       (static_cast<uint64_t>(ply + 1) * 0xD1B54A32D192ED03ULL));
}

}  // namespace

void GameRoom::maybeScheduleBot() {
  if (over() || botBusy_ || wait_.active || !host_) return;
  if (!meta_.seats[static_cast<size_t>(game_->position().toMove())].bot) return;
  if (hasOpenSeat(meta_.seats)) return;  // the game starts when every seat is taken
  if (!host_->mayThink(meta_.id)) return;  // another process is the game's home
  botBusy_ = true;
  botStop_ = false;
  host_->scheduleBot(shared_from_this(), epoch_);
}

void GameRoom::runBot(int64_t epoch) {
  std::unique_ptr<Game> copy;
  engine::SearchLimits limits;
  int seat = -1, level = 0, ply = 0;
  {
    std::lock_guard lock(m_);
    if (epoch != epoch_ || over() || !meta_.seats[static_cast<size_t>(game_->position().toMove())].bot) {
      botBusy_ = false;
      maybeScheduleBot();
      return;
    }
    seat = game_->position().toMove();
    level = meta_.seats[static_cast<size_t>(seat)].level;
    ply = static_cast<int>(entries_.size());
    copy = std::make_unique<Game>(*game_);
    // The bot's clock starts now: the time its turn waited in the queue is not charged.
    const bool held = clockHeld();
    clockStartedEpoch_ = epoch_;
    if (held) {
      clock_.restart(time_.steadyMs());
      publish("state");  // clients see its clock run
    }
    searchEpoch_ = epoch;
    if (hurryEpoch_.load() == epoch) botStop_ = true;  // hurried before it started (see stopSearch)
    if (meta_.clock.enabled) {
      const int64_t now = time_.steadyMs();
      for (int s = 0; s < rules_->nseats(); ++s) {
        limits.timeMs[static_cast<size_t>(s)] = static_cast<int>(std::min<int64_t>(clockLeft(s, now), 1 << 30));
        limits.incMs[static_cast<size_t>(s)] = static_cast<int>(meta_.clock.incrementMs);
      }
    } else if (config_.botMoveMs > 0) {
      limits.moveTimeMs = config_.botMoveMs;
    }
  }
  std::string text;
  bool hadBot = false;
  try {
    // Made outside the room's lock (its table is large) and gone before the lock is taken again.
    std::unique_ptr<engine::Bot> bot = botFactory_ ? botFactory_(rules_, level, botSeed(meta_.seed, seat, ply)) : nullptr;
    if (bot) {
      hadBot = true;
      const engine::SearchResult r = bot->choose(*copy, limits, botStop_);
      if (r.found) text = copy->position().moveText(r.best);
    }
  } catch (const std::exception& ex) {
    std::fprintf(stderr, "acedrex serve: game %s: bot failed: %s\n", meta_.id.c_str(), ex.what());
  }
  searchEpoch_ = -1;
  std::lock_guard lock(m_);
  botBusy_ = false;
  if (epoch == epoch_ && !over() && game_->position().toMove() == seat) {
    const auto legal = game_->legalMoves();
    bool ok = false;
    for (Move m : legal)
      if (game_->position().moveText(m) == text) ok = true;
    if (!ok && !legal.empty()) {
      if (hadBot)
        std::fprintf(stderr, "acedrex serve: game %s: bot gave \"%s\", not legal; playing the first legal move\n",
                     meta_.id.c_str(), text.c_str());
      text = game_->position().moveText(legal.front());
    }
    if (timedOut(seat, time_.steadyMs())) text = "timeout";
    if (auto committed = commitEntry(text, seat); !committed.ok()) {
      std::fprintf(stderr, "acedrex serve: game %s: bot move not stored: %s\n", meta_.id.c_str(),
                   committed.error().message.c_str());
      return waitForStore(text, seat);
    }
    afterAction();
    return;
  }
  maybeScheduleBot();
}

}  // namespace acedrex::server
