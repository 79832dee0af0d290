// Deltas on the game stream and the WebSocket (docs/api.md, "Deltas"): a
// change that only appends to the record also goes out as a delta from the
// version before; a client that holds that version is sent the delta, any
// other the full state. Here without sockets: the room's updates, and Feed
// (the per-client choice and queue) driven as a session drives it.
#include <gtest/gtest.h>

#include <random>

#include "server/app/api.h"
#include "server/app/feed.h"
#include "server/app/lobby.h"
#include "fog_support.h"
#include "test_support.h"

namespace acedrex::server {
namespace {

using testing::applyDelta;
using testing::parsed;

struct Fixture : testing::DrivenLobby {
  CreatedGame create(const std::string& variant, std::vector<SeatPlan> seats, bool hotSeat = false) {
    CreateRequest r;
    r.variant = variant;
    r.seats = std::move(seats);
    r.hotSeat = hotSeat;
    r.seed = 11;
    CreatedGame g;
    auto err = lobby.create(r, &g);
    EXPECT_TRUE(err.ok()) << (err.ok() ? "" : err.error().message);
    return g;
  }
  void runBots() {
    for (int i = 0; i < 100000 && lobby.runOneBotJob(); ++i) {
    }
  }
};

SeatPlan human() { return SeatPlan{}; }
SeatPlan bot() {
  SeatPlan s;
  s.bot = true;
  s.level = 1;
  return s;
}

// Two JSON objects hold the same fields with the same values (any order).
void expectSameState(const Json& got, const Json& want, const std::string& where) {
  SCOPED_TRACE(where);
  ASSERT_TRUE(got.isObject());
  ASSERT_TRUE(want.isObject());
  EXPECT_EQ(got.members().size(), want.members().size());
  for (const auto& [k, v] : want.members()) {
    const Json* g = got.get(k);
    ASSERT_NE(g, nullptr) << "missing " << k;
    EXPECT_EQ(writeJson(*g), writeJson(v)) << "field " << k;
  }
}

// Every update one subscriber heard, from its first full state on.
struct Recorder {
  std::shared_ptr<GameRoom> room;
  Update first;
  std::string you;
  std::vector<Update> updates;
  int id = 0;
  Recorder(std::shared_ptr<GameRoom> r, const std::string& token) : room(std::move(r)) {
    id = room->subscribe(token, [this](const Update& u) { updates.push_back(u); }, &first, &you);
  }
  ~Recorder() { room->unsubscribe(id); }
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  Json full(const Update& u) const { return parsed(stateWithYou(*u.base, you)); }
  Json delta(const Update& u) const { return parsed(stateWithYou(*u.delta, you)); }

  // Applies every delta in order to the first full state (a full state where
  // the change had no delta) and checks the result against the full state of
  // every version. Returns the number of deltas applied.
  int replay(const std::string& who) const {
    Json state = full(first);
    int deltas = 0;
    for (const Update& u : updates) {
      const Json want = full(u);
      if (!u.delta) {
        state = want;
        continue;
      }
      const Json d = delta(u);
      EXPECT_EQ(d.get("type")->asString(), "delta");
      EXPECT_EQ(d.get("from")->asNumber(), state.get("v")->asNumber()) << "a delta from the version before";
      EXPECT_EQ(d.get("v")->asNumber(), static_cast<double>(u.v));
      EXPECT_EQ(d.get("moves"), nullptr) << "no move list in a delta";
      state = applyDelta(state, d);
      expectSameState(state, want, who + " at v" + std::to_string(u.v) + " (" + u.type + ")");
      ++deltas;
    }
    return deltas;
  }
};

TEST(ServerDelta, DeltasRebuildEveryStateOfATwoPlayerGame) {
  Fixture f;
  auto g = f.create("chess", {human(), human()});
  auto room = f.lobby.find(g.id);
  Recorder watcher(room, "");
  auto white = std::make_unique<Recorder>(room, g.tokens[0]);  // a connection: a change that appends nothing
  for (const char* m : {"e2e4", "e7e5", "g1f3"}) {
    ASSERT_TRUE(room->move(g.tokens[room->plies() % 2], m).ok()) << m;
  }
  ASSERT_TRUE(room->draw(g.tokens[1], "offer").ok());
  ASSERT_TRUE(room->draw(g.tokens[0], "decline").ok());
  ASSERT_TRUE(room->move(g.tokens[1], "b8c6").ok());
  ASSERT_TRUE(room->draw(g.tokens[0], "offer").ok());
  ASSERT_TRUE(room->move(g.tokens[0], "f1c4").ok());  // a move clears the offer
  {
    Recorder black(room, g.tokens[1]);
    ASSERT_TRUE(room->move(g.tokens[1], "g8f6").ok());
    EXPECT_GT(black.replay("black"), 0);
  }
  ASSERT_TRUE(room->resign(g.tokens[1], "").ok());
  ASSERT_TRUE(room->finished());
  // Every change of this game is an append (a move, an offer, a connection, the resignation).
  for (const Update& u : watcher.updates) EXPECT_TRUE(u.delta) << u.type << " v" << u.v;
  EXPECT_EQ(std::string(watcher.updates.back().type), "end");
  EXPECT_EQ(watcher.replay("watcher"), static_cast<int>(watcher.updates.size()));
  EXPECT_EQ(white->replay("white"), static_cast<int>(white->updates.size()));
  const Json last = watcher.full(watcher.updates.back());
  EXPECT_EQ(last.get("status")->asString(), "finished");
  EXPECT_EQ(last.get("moves")->items().size(), 7u);
}

TEST(ServerDelta, ATakebackIsAFullStateAndDeltasGoOnAfterIt) {
  Fixture f;
  auto g = f.create("chess", {human(), bot()});
  auto room = f.lobby.find(g.id);
  Recorder watcher(room, "");
  ASSERT_TRUE(room->move(g.tokens[0], "e2e4").ok());
  f.runBots();
  ASSERT_TRUE(room->move(g.tokens[0], "d2d4").ok());
  f.runBots();
  const size_t before = watcher.updates.size();
  ASSERT_TRUE(room->takeback(g.tokens[0]).ok());
  ASSERT_GT(watcher.updates.size(), before);
  EXPECT_FALSE(watcher.updates[before].delta) << "a takeback shortens the record: no delta";
  ASSERT_TRUE(room->move(g.tokens[0], "g1f3").ok());
  f.runBots();
  EXPECT_TRUE(watcher.updates.back().delta);
  ASSERT_TRUE(room->draw(g.tokens[0], "offer").ok());  // the bot declines at once: a change without entries
  EXPECT_TRUE(watcher.updates.back().delta);
  EXPECT_EQ(watcher.replay("watcher"), static_cast<int>(watcher.updates.size()) - 1);
  EXPECT_EQ(watcher.full(watcher.updates.back()).get("moves")->items().size(), 4u);
}

TEST(ServerDelta, DeltasRebuildEveryStateOfFourPlayerGames) {
  for (const char* variant : {"four-seasons", "chaturaji"}) {
    SCOPED_TRACE(variant);
    Fixture f;
    auto g = f.create(variant, {human(), bot(), bot(), bot()});
    auto room = f.lobby.find(g.id);
    Recorder watcher(room, "");
    Recorder green(room, g.tokens[0]);
    for (int turn = 0; turn < 40 && !room->finished(); ++turn) {
      const Json s = parsed(room->stateJson(g.tokens[0]));
      const Json* legal = s.get("legal");
      if (!s.get("toMove")->isString() || s.get("toMove")->asString() != s.get("you")->items()[0].asString()) break;
      if (legal && !legal->members().empty()) {
        ASSERT_TRUE(room->move(g.tokens[0], legal->members().front().second.items().front().asString()).ok());
      }
      f.runBots();
    }
    if (!room->finished()) {
      ASSERT_TRUE(room->resign(g.tokens[0], "").ok());
    }
    f.runBots();
    EXPECT_GT(room->plies(), 20);
    const int deltas = watcher.replay("watcher");
    EXPECT_EQ(deltas, static_cast<int>(watcher.updates.size()));
    EXPECT_EQ(green.replay("green"), static_cast<int>(green.updates.size()));
  }
}

TEST(ServerDelta, FogOfWarDeltasShowEachSeatOnlyItsViewAndTheEndIsAFullState) {
  Fixture f;
  auto g = f.create("fog-of-war", {human(), human()});
  auto room = f.lobby.find(g.id);
  std::vector<std::unique_ptr<Recorder>> recorders;
  const std::vector<std::pair<std::string, int>> who = {{"white", 0}, {"black", 1}, {"watcher", -1}};
  for (const auto& [name, seat] : who)
    recorders.push_back(std::make_unique<Recorder>(room, seat < 0 ? "" : g.tokens[static_cast<size_t>(seat)]));
  Game real(f.registry.rules("fog-of-war", {}).value());
  const std::vector<std::string> moves = {"e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7", "a7a6", "f7e8"};
  for (size_t i = 0; i < moves.size(); ++i) {
    ASSERT_TRUE(room->move(g.tokens[i % 2], moves[i]).ok()) << moves[i];
    ASSERT_TRUE(real.play(moves[i]).ok());
    for (size_t r = 0; r < recorders.size(); ++r) {
      const Update& u = recorders[r]->updates.back();
      if (real.finished()) {
        EXPECT_FALSE(u.delta) << "the end shows every move: a full state";
        continue;
      }
      ASSERT_TRUE(u.delta);
      // The delta as the net layer sends it holds nothing the client may not see.
      testing::expectNothingHidden({who[r].first, who[r].second, stateWithYou(*u.delta, recorders[r]->you)}, real);
    }
  }
  for (size_t r = 0; r < recorders.size(); ++r) EXPECT_GT(recorders[r]->replay(who[r].first), 0);
  // The three views differ: each has its own delta.
  const auto& w = recorders[0]->updates[2];
  const auto& b = recorders[1]->updates[2];
  EXPECT_NE(*w.delta, *b.delta);
}

// A game of random legal moves through the room, hot seat.
std::vector<std::string> randomGame(Fixture& f, const CreatedGame& g, int plies, unsigned seed) {
  auto room = f.lobby.find(g.id);
  Game real(f.registry.rules("chess", {}).value());
  std::mt19937 rng(seed);
  std::vector<std::string> played;
  for (int i = 0; i < plies && !real.finished(); ++i) {
    const auto legal = real.legalMoves();
    const std::string text = real.position().moveText(legal[rng() % legal.size()]);
    EXPECT_TRUE(room->move(g.tokens[0], text).ok()) << text;
    EXPECT_TRUE(real.play(text).ok());
    played.push_back(text);
  }
  return played;
}

TEST(ServerDelta, ACurrentClientsMessagesDoNotGrowWithTheGame) {
  Fixture f;
  auto g = f.create("chess", {human(), human()}, true);
  auto room = f.lobby.find(g.id);
  Recorder watcher(room, "");
  const auto played = randomGame(f, g, 200, 5);
  ASSERT_EQ(played.size(), 200u) << "the random game ended early; pick another seed";
  ASSERT_EQ(watcher.updates.size(), 200u);
  auto sizes = [&](size_t ply) {
    const Update& u = watcher.updates[ply - 1];
    EXPECT_TRUE(u.delta);
    return std::pair{SharedMessages::compose(u, false, "[]", SharedMessages::kWebSocket).size(),
                     SharedMessages::compose(u, true, "[]", SharedMessages::kWebSocket).size()};
  };
  const auto [full2, delta2] = sizes(2);
  const auto [full200, delta200] = sizes(200);
  size_t fullSum = 0, deltaSum = 0;
  for (size_t ply = 1; ply <= 200; ++ply) {
    const auto [full, delta] = sizes(ply);
    fullSum += full;
    deltaSum += delta;
  }
  std::printf("WebSocket message at ply 2: full %zu bytes, delta %zu; at ply 200: full %zu, delta %zu; "
              "all 200 plies: full %zu, deltas %zu\n",
              full2, delta2, full200, delta200, fullSum, deltaSum);
  EXPECT_GT(full200, full2 + 200 * 40) << "the full state grows with the record";
  EXPECT_LE(delta200, delta2 + 512) << "the delta does not";
  // What the delta leaves out is exactly the record: its size is the full
  // state's less the move list, plus its one new entry.
  const Json full = watcher.full(watcher.updates[199]);
  const size_t record = writeJson(*full.get("moves")).size();
  EXPECT_LE(delta200, full200 - record + 200);
  EXPECT_EQ(watcher.replay("watcher"), 200);
}

// A session's queue, driven as the net layer drives it: every update pushed,
// and the client reading (popping) or not.
struct Session {
  SharedMessages messages;
  Feed feed;
  testing::StateClient client;
  std::vector<std::string> sent;  // what the client read, in order
  Session(bool deltas, SharedMessages::Format format = SharedMessages::kWebSocket) : feed(format, deltas) {}
  void push(const Update& u) { ASSERT_NE(feed.pushUpdate(u, messages, 1 << 20), OutQueue::Push::kFull); }
  // Each update pushed and read at once (a client that keeps up).
  void follow(const Recorder& r) {
    push(r.first);
    read();
    for (const Update& u : r.updates) {
      push(u);
      read();
    }
  }
  // The client reads everything waiting.
  void read() {
    while (feed.queue().size() > 0) {
      sent.push_back(feed.queue().front());
      EXPECT_TRUE(client.take(sent.back())) << "a delta whose from the client lacks: " << sent.back().substr(0, 200);
      feed.queue().pop();
    }
  }
};

TEST(ServerDelta, AClientThatReadsGetsDeltasAndAClientThatSkippedGetsAFullState) {
  Fixture f;
  auto g = f.create("chess", {human(), human()}, true);
  auto room = f.lobby.find(g.id);
  Recorder watcher(room, "");
  randomGame(f, g, 60, 5);
  ASSERT_EQ(watcher.updates.size(), 60u);
  // Reading as it goes: the first message is the full state, every other one a delta.
  Session reader(true);
  reader.follow(watcher);
  EXPECT_EQ(reader.client.fulls, 1);
  EXPECT_EQ(reader.client.deltas, 60);
  expectSameState(reader.client.state, watcher.full(watcher.updates.back()), "reader");
  // A version gap (an update this client never queued): the next goes in full.
  Session gap(true);
  gap.push(watcher.updates[10]);
  gap.read();
  gap.push(watcher.updates[12]);
  gap.read();
  gap.push(watcher.updates[13]);
  gap.read();
  ASSERT_EQ(gap.sent.size(), 3u);
  EXPECT_EQ(parsed(gap.sent[1]).get("t")->asString(), "move") << "v" << watcher.updates[12].v << " after v"
                                                               << watcher.updates[10].v << ": the full state";
  EXPECT_EQ(parsed(gap.sent[2]).get("t")->asString(), "delta");
  // ?deltas=0: full states only, the stream's lines the state objects themselves.
  Session simple(false, SharedMessages::kNdjson);
  simple.follow(watcher);
  EXPECT_EQ(simple.client.fulls, 61);
  EXPECT_EQ(simple.client.deltas, 0);
  for (const auto& line : simple.sent) EXPECT_EQ(parsed(line).get("type"), nullptr);
}

TEST(ServerDelta, ASilentClientIsConflatedToFullStatesAndNeverSeesAGap) {
  Fixture f;
  auto g = f.create("chess", {human(), human()});
  auto room = f.lobby.find(g.id);
  Recorder watcher(room, "");
  // A long game, then thousands of changes that append nothing.
  Game real(f.registry.rules("chess", {}).value());
  std::mt19937 rng(5);
  for (int i = 0; i < 200; ++i) {
    const auto legal = real.legalMoves();
    const std::string text = real.position().moveText(legal[rng() % legal.size()]);
    ASSERT_TRUE(room->move(g.tokens[static_cast<size_t>(i % 2)], text).ok());
    ASSERT_TRUE(real.play(text).ok());
  }
  for (int i = 0; i < 800; ++i) {
    ASSERT_TRUE(room->draw(g.tokens[0], "offer").ok());
    ASSERT_TRUE(room->draw(g.tokens[1], "decline").ok());
  }
  Session silent(true);
  silent.push(watcher.first);  // in flight: the client never reads it until the end
  size_t most = 0;
  for (const Update& u : watcher.updates) {
    silent.push(u);
    most = std::max(most, silent.feed.queue().bytes());
  }
  const size_t fullSize = SharedMessages::compose(watcher.updates.back(), false, "[]", SharedMessages::kWebSocket).size();
  EXPECT_LE(most, OutQueue::kConflateBytes + 3 * fullSize) << "what a silent client holds is bounded";
  silent.read();  // now it reads: every message applies, and it ends at the newest state
  expectSameState(silent.client.state, watcher.full(watcher.updates.back()), "silent client");
  EXPECT_GT(silent.client.fulls, 1) << "its queue was conflated into full states";
  EXPECT_GT(silent.client.deltas, 0) << "before that it was sent deltas";
  EXPECT_LT(silent.sent.size(), watcher.updates.size() / 2);
}

}  // namespace
}  // namespace acedrex::server
