// Fog of war through the server: each seat hears only its own view (the
// state over HTTP, every update a stream or WebSocket subscriber gets, the
// WebSocket's sync), a watcher only what both seats see, the records stay
// closed until the end, and then everything is shown to everyone.
#include <gtest/gtest.h>

#include <set>

#include "server/app/api.h"
#include "server/app/lobby.h"
#include "fog_support.h"
#include "test_support.h"

namespace acedrex::server {
namespace {

using testing::parsed;
using testing::Heard;
using testing::expectNothingHidden;

using Fixture = testing::DrivenLobby;

TEST(ServerFog, EachSeatHearsOnlyItsViewAndWatchersOnlyWhatBothSee) {
  Fixture f;
  auto& registry = f.registry;
  auto& lobby = f.lobby;
  Api api(lobby, [](int) { return std::string(); });
  auto call = [&](const std::string& method, const std::string& target, const std::string& token = "") {
    ApiRequest req;
    req.method = method;
    req.target = target;
    if (!token.empty()) req.authorization = "Bearer " + token;
    return api.handle(req);
  };
  auto created = api.handle(ApiRequest{"POST", "/api/game", "",
                                       R"({"variant":"fog-of-war","seats":[{"kind":"human"},{"kind":"human"}]})", ""});
  ASSERT_EQ(created.status, 201) << created.body;
  const Json c = parsed(created.body);
  const std::string id = c.get("id")->asString();
  const std::string white = c.get("seats")->items()[0].get("token")->asString();
  const std::string black = c.get("seats")->items()[1].get("token")->asString();
  auto room = lobby.find(id);
  ASSERT_TRUE(room);

  // Three subscribers, as a stream or WebSocket would have them.
  std::vector<Heard> heard;
  std::vector<int> subs;
  const std::vector<std::pair<std::string, std::string>> clients = {{"white", white}, {"black", black}, {"watcher", ""}};
  for (const auto& [who, token] : clients) {
    Update first;
    std::string you;
    const int seat = who == "white" ? 0 : who == "black" ? 1 : -1;
    subs.push_back(room->subscribe(
        token, [&heard, who, seat](const Update& u) { heard.push_back({who, seat, stateWithYou(*u.base, "[]")}); },
        &first, &you));
    heard.push_back({who, seat, stateWithYou(*first.base, you)});
  }

  Game real(registry.rules("fog-of-war", {}).value());
  size_t checked = 0;
  auto checkAll = [&]() {
    for (; checked < heard.size(); ++checked) expectNothingHidden(heard[checked], real);
    // The same through HTTP and the WebSocket's sync, for each client.
    for (const auto& [who, token] : clients) {
      const int seat = who == "white" ? 0 : who == "black" ? 1 : -1;
      expectNothingHidden({who, seat, call("GET", "/api/game/" + id, token).body}, real);
      expectNothingHidden({who, seat, api.onSocketMessage(*room, token, R"({"t":"sync"})")}, real);
    }
    EXPECT_EQ(call("GET", "/api/game/" + id + "/pgn").status, 403);
    EXPECT_EQ(call("GET", "/api/game/" + id + "/replay").status, 403);
  };
  checkAll();
  // At the start each side sees its own sixteen pieces only; the watcher sees none.
  EXPECT_EQ(parsed(call("GET", "/api/game/" + id, white).body).get("pieces")->items().size(), 16u);
  EXPECT_EQ(parsed(call("GET", "/api/game/" + id, black).body).get("pieces")->items().size(), 16u);
  EXPECT_EQ(parsed(call("GET", "/api/game/" + id).body).get("pieces")->items().size(), 0u);
  // A move onto a hidden enemy piece's square is refused without telling what stands there.
  const auto probe = call("POST", "/api/game/" + id + "/move/e7e5", white);
  EXPECT_EQ(probe.status, 400);
  EXPECT_EQ(probe.body.find("black"), std::string::npos) << probe.body;

  // Scholar's mate ignored: the white queen takes f7, Black does not see it
  // coming and plays on, the queen takes the king.
  const std::vector<std::string> moves = {"e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7", "a7a6"};
  for (size_t i = 0; i < moves.size(); ++i) {
    const std::string& token = i % 2 == 0 ? white : black;
    const auto reply = call("POST", "/api/game/" + id + "/move/" + moves[i], token);
    ASSERT_EQ(reply.status, 200) << moves[i] << " " << reply.body;
    ASSERT_TRUE(real.play(moves[i]).ok());
    expectNothingHidden({i % 2 == 0 ? "white" : "black", static_cast<int>(i % 2), reply.body}, real);
    checkAll();
  }
  // White saw the black king from f7 (it may take it); Black never saw the queen on h5.
  const Json w = parsed(call("GET", "/api/game/" + id, white).body);
  bool kingSeen = false;
  for (const auto& piece : w.get("pieces")->items())
    kingSeen |= piece.get("square")->asString() == "e8" && piece.get("letter")->asString() == "K";
  EXPECT_TRUE(kingSeen);
  EXPECT_TRUE(parsed(call("GET", "/api/game/" + id, white).body).get("legal")->get("f7") != nullptr);

  // The end: the king is taken, and everyone gets everything.
  const size_t before = heard.size();
  ASSERT_EQ(call("POST", "/api/game/" + id + "/move/f7e8", white).status, 200);
  ASSERT_TRUE(real.play("f7e8").ok());
  ASSERT_TRUE(real.finished());
  ASSERT_EQ(heard.size(), before + 3);
  for (size_t i = before; i < heard.size(); ++i) {
    const Json s = parsed(heard[i].text);
    EXPECT_EQ(s.get("status")->asString(), "finished") << heard[i].who;
    EXPECT_EQ(s.get("fen")->asString(), real.position().text()) << heard[i].who;
    EXPECT_EQ(testing::movesOf(s).size(), moves.size() + 1) << heard[i].who;
    EXPECT_EQ(s.get("pieces")->items().size(), 30u) << heard[i].who;  // 32 less the f7 pawn and the king
    EXPECT_TRUE(s.get("visible")->isNull());
    EXPECT_EQ(s.get("result")->get("reason")->asString(), "king-captured") << heard[i].text;
  }
  const auto pgn = call("GET", "/api/game/" + id + "/pgn");
  EXPECT_EQ(pgn.status, 200);
  EXPECT_NE(pgn.body.find("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7 a6 5. Qxe8 1-0"), std::string::npos) << pgn.body;
  EXPECT_EQ(call("GET", "/api/game/" + id + "/replay").status, 200);
  for (int s : subs) room->unsubscribe(s);
}

TEST(ServerFog, ABotsMovesStayHiddenFromItsOpponent) {
  Fixture f;
  auto& registry = f.registry;
  auto& store = f.store;
  auto& lobby = f.lobby;
  CreateRequest req;
  req.variant = "fog-of-war";
  req.seats = {SeatPlan{}, SeatPlan{}};
  req.seats[1].bot = true;
  req.seats[1].level = 1;
  CreatedGame g;
  ASSERT_TRUE(lobby.create(req, &g).ok());
  auto room = lobby.find(g.id);
  Game real(registry.rules("fog-of-war", {}).value());
  for (const char* m : {"a2a3", "b2b3", "c2c3"}) {
    ASSERT_TRUE(room->move(g.tokens[0], m).ok());
    ASSERT_TRUE(real.play(m).ok());
    while (lobby.runOneBotJob()) {
    }
    const Json s = parsed(room->stateJson(g.tokens[0]));
    const auto& list = s.get("moves")->items();
    ASSERT_EQ(list.size(), real.record().size() + 1);
    EXPECT_TRUE(list.back().get("uci")->isNull());  // the bot's reply
    EXPECT_TRUE(s.get("lastMove")->isNull());
    // Keep the shadow game in step from the full record the store holds.
    auto stored = store.load(g.id);
    ASSERT_TRUE(stored.ok() && *stored);
    ASSERT_TRUE(real.play((*stored)->entries.back().text).ok());
    expectNothingHidden({"white", 0, room->stateJson(g.tokens[0])}, real);
  }
}

// The page hides the button; the server refuses the take-back too, against a
// bot as between two players, and the game goes on unchanged.
TEST(ServerFog, NoTakebacks) {
  Fixture f;
  for (bool bot : {true, false}) {
    CreateRequest req;
    req.variant = "fog-of-war";
    req.seats = {SeatPlan{}, SeatPlan{}};
    req.seats[1].bot = bot;
    req.seats[1].level = 1;
    CreatedGame g;
    ASSERT_TRUE(f.lobby.create(req, &g).ok());
    auto room = f.lobby.find(g.id);
    ASSERT_TRUE(room->move(g.tokens[0], "a2a3").ok());
    if (!bot) {
      ASSERT_TRUE(room->move(g.tokens[1], "a7a6").ok());
    }
    while (f.lobby.runOneBotJob()) {
    }
    const size_t before = parsed(room->stateJson(g.tokens[0])).get("moves")->items().size();
    ASSERT_EQ(before, 2u);
    const auto refused = room->takeback(g.tokens[0]);
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().status, 403);
    EXPECT_EQ(refused.error().code, "no-takeback");
    EXPECT_EQ(parsed(room->stateJson(g.tokens[0])).get("moves")->items().size(), before);
  }
}

}  // namespace
}  // namespace acedrex::server
