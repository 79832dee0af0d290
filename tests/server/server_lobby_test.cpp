// The lobby as a catalogue and a place to find opponents: GET /api/variants
// (groups, descriptions, start pieces), games listed with free seats, taking
// a seat (one winner of a race, in one process or through a shared store),
// and no seat token in anything a stranger can read.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <set>
#include <thread>

#include "pg_cluster.h"
#include "server/app/api.h"
#include "server/app/lobby.h"
#include "server/app/pg_store.h"
#include "test_support.h"

namespace acedrex::server {
namespace {

using testing::FakeTime;
using testing::parsed;

struct LobbyApi {
  explicit LobbyApi(Store& s, VariantRegistry reg = VariantRegistry::withEmbedded()) : registry(std::move(reg)), store(s) {}
  VariantRegistry registry;
  Store& store;
  FakeTime time;
  LobbyConfig config = [] {
    LobbyConfig c;
    c.startThreads = false;  // bots and clocks are driven by the test
    c.limits.gamesPerClientPerMinute = 0;
    return c;
  }();
  Lobby lobby{registry, store, testing::fakeBots(), config, &time};
  Api api{lobby, [](int l) { return "level " + std::to_string(l); }};

  ApiResponse call(const std::string& method, const std::string& target, const std::string& body = "",
                   const std::string& token = "") {
    return testing::callApi(api, method, target, body, token);
  }
  Json create(const std::string& body) {
    auto r = call("POST", "/api/game", body);
    EXPECT_EQ(r.status, 201) << body << " -> " << r.body;
    return parsed(r.body);
  }
  Json open() { return parsed(call("GET", "/api/games?status=open").body); }
  void runBots() {
    while (lobby.runOneBotJob()) {
    }
  }
};

struct StoreHolder {
  MemoryStore memory;
};
struct MemoryLobby : StoreHolder, LobbyApi {  // the store is made first and goes last
  MemoryLobby() : LobbyApi(memory) {}
};

const Json* variantNamed(const Json& list, const std::string& name) {
  for (const auto& v : list.items())
    if (v.get("name")->asString() == name) return &v;
  return nullptr;
}

TEST(ServerLobby, TheCatalogueGroupsEveryEmbeddedGameWithItsStartPieces) {
  MemoryLobby f;
  const Json v = parsed(f.call("GET", "/api/variants").body);
  ASSERT_TRUE(v.isArray());
  EXPECT_EQ(v.items().size(), VariantRegistry::withEmbedded().all().size());
  const std::vector<std::string> groups = {"alfonso", "chess", "family", "more-players", "other"};
  size_t lastGroup = 0;
  for (const auto& g : v.items()) {
    const std::string name = g.get("name")->asString();
    const auto at = std::find(groups.begin(), groups.end(), g.get("group")->asString());
    ASSERT_NE(at, groups.end()) << name;
    EXPECT_GE(static_cast<size_t>(at - groups.begin()), lastGroup) << name << ": the list goes group by group";
    lastGroup = static_cast<size_t>(at - groups.begin());
    EXPECT_FALSE(g.get("description")->asString().empty()) << name;
    EXPECT_EQ(g.get("players")->asNumber(), static_cast<double>(g.get("seats")->items().size())) << name;
    // The start pieces stand on the board, on open squares, one to a square.
    const int width = static_cast<int>(g.get("board")->get("width")->asNumber());
    const int height = static_cast<int>(g.get("board")->get("height")->asNumber());
    std::set<std::string> blocked, seen, seats;
    for (const auto& b : g.get("board")->get("blocked")->items()) blocked.insert(b.asString());
    for (const auto& s : g.get("seats")->items()) seats.insert(s.get("seat")->asString());
    for (const auto& p : g.get("startPieces")->items()) {
      const std::string sq = p.get("square")->asString();
      const int file = sq[0] - 'a', rank = std::stoi(sq.substr(1)) - 1;
      EXPECT_TRUE(file >= 0 && file < width && rank >= 0 && rank < height) << name << " " << sq;
      EXPECT_EQ(blocked.count(sq), 0u) << name << " " << sq;
      EXPECT_TRUE(seen.insert(sq).second) << name << " " << sq;
      EXPECT_EQ(seats.count(p.get("seat")->asString()), 1u) << name;
    }
    EXPECT_FALSE(seen.empty()) << name;
  }
  struct Known {
    const char* name;
    const char* group;
    size_t pieces;
  } known[] = {{"four-seasons", "alfonso", 32}, {"grant-acedrex", "alfonso", 48}, {"chess", "chess", 32},
               {"crazyhouse", "chess", 32},     {"xiangqi", "family", 32},        {"janggi", "family", 32},
               {"shogi", "family", 40},         {"minishogi", "family", 12}};
  for (const auto& k : known) {
    const Json* g = variantNamed(v, k.name);
    ASSERT_TRUE(g) << k.name;
    EXPECT_EQ(g->get("group")->asString(), k.group) << k.name;
    EXPECT_EQ(g->get("startPieces")->items().size(), k.pieces) << k.name;
  }
  EXPECT_EQ(variantNamed(v, "four-seasons")->get("players")->asNumber(), 4);
}

// What the lobby's "Play the computer" sends, for every game in the catalogue.
TEST(ServerLobby, EveryCatalogueGameStartsAgainstTheComputer) {
  MemoryLobby f;
  const Json v = parsed(f.call("GET", "/api/variants").body);
  for (const auto& g : v.items()) {
    std::string seats;
    for (size_t s = 0; s < g.get("seats")->items().size(); ++s)
      seats += std::string(s ? "," : "") + (s ? R"({"kind":"bot","level":3})" : R"({"kind":"human"})");
    const std::string name = g.get("name")->asString();
    auto c = f.create(R"({"variant":")" + name + R"(","seats":[)" + seats + "]}");
    const std::string id = c.get("id")->asString();
    const Json st = parsed(f.call("GET", "/api/game/" + id + "?token=" + c.get("seats")->items()[0].get("token")->asString()).body);
    EXPECT_EQ(st.get("variant")->asString(), name);
    EXPECT_EQ(st.get("you")->items().size(), 1u) << name;
    // Fog of war: the seat's view holds the start pieces on the squares it sees.
    const Json* visible = st.get("visible");
    size_t expected = 0;
    for (const auto& p : g.get("startPieces")->items()) {
      bool seen = !visible || visible->isNull();
      if (!seen)
        for (const auto& sq : visible->items()) seen = seen || sq.asString() == p.get("square")->asString();
      expected += seen ? 1 : 0;
    }
    EXPECT_EQ(st.get("pieces")->items().size(), expected) << name;
    if (name == "fog-of-war") {
      EXPECT_EQ(expected, 16u);
    }
  }
}

TEST(ServerLobby, AGameTheTableDoesNotKnowIsListedUnderOther) {
  VariantRegistry reg = VariantRegistry::withEmbedded();
  std::string text = "name = test-chess\ntitle = Test Chess\nboard = 8x8\nseat = white w n\nseat = black b s\n"
                     "piece = king K K royal\npiece = rook R R\nending = checkmate\nstalemate = draw\n"
                     "start = 4k3/8/8/8/8/8/8/R3K3 w - - 0 1\n";
  ASSERT_TRUE(reg.add(text, "test").ok());
  MemoryStore store;
  LobbyApi f(store, std::move(reg));
  const Json v = parsed(f.call("GET", "/api/variants").body);
  const Json* g = variantNamed(v, "test-chess");
  ASSERT_TRUE(g);
  EXPECT_EQ(g->get("group")->asString(), "other");
  EXPECT_EQ(g->get("description")->asString(), "");
  EXPECT_EQ(g->get("startPieces")->items().size(), 3u);
  EXPECT_EQ(v.items().back().get("name")->asString(), "test-chess");  // after the known games
}

TEST(ServerLobby, OpenSeatsAreListedAndTakenOnce) {
  MemoryLobby f;
  auto c = f.create(R"({"variant":"shatranj","seats":[{"kind":"human"},{"kind":"human","open":true}],
                        "clock":{"initialMs":300000,"incrementMs":2000}})");
  const std::string id = c.get("id")->asString();
  const std::string white = c.get("seats")->items()[0].get("token")->asString();
  EXPECT_EQ(c.get("seats")->items()[1].get("token"), nullptr);
  EXPECT_TRUE(c.get("seats")->items()[1].get("open")->asBool());
  f.create(R"({"variant":"chess","seats":[{"kind":"human"},{"kind":"bot"}]})");  // not listed: no free seat

  Json open = f.open();
  ASSERT_EQ(open.items().size(), 1u);
  const Json& listed = open.items()[0];
  EXPECT_EQ(listed.get("id")->asString(), id);
  EXPECT_EQ(listed.get("clock")->get("initialMs")->asNumber(), 300000);
  EXPECT_FALSE(listed.get("seats")->items()[0].get("open")->asBool());
  EXPECT_TRUE(listed.get("seats")->items()[1].get("open")->asBool());
  EXPECT_TRUE(f.call("GET", "/api/game/" + id).body.find("\"open\":true") != std::string::npos);

  // Nobody moves before every seat is taken.
  auto early = f.call("POST", "/api/game/" + id + "/move/e2e3", "", white);
  EXPECT_EQ(early.status, 409);
  EXPECT_EQ(parsed(early.body).get("code")->asString(), "waiting");

  EXPECT_EQ(f.call("GET", "/api/game/" + id + "/join").status, 405);
  EXPECT_EQ(f.call("POST", "/api/game/nosuchgame/join").status, 404);
  EXPECT_EQ(f.call("POST", "/api/game/" + id + "/join?seat=white").status, 409);  // not free
  auto took = f.call("POST", "/api/game/" + id + "/join");
  ASSERT_EQ(took.status, 200) << took.body;
  const Json t = parsed(took.body);
  EXPECT_EQ(t.get("seat")->asString(), "black");
  const std::string black = t.get("token")->asString();
  EXPECT_EQ(black.size(), 24u);
  EXPECT_NE(black, white);
  auto again = f.call("POST", "/api/game/" + id + "/join");
  EXPECT_EQ(again.status, 409);
  EXPECT_EQ(parsed(again.body).get("code")->asString(), "seat-taken");
  EXPECT_TRUE(f.open().items().empty());

  // The new token holds black, and the game is on.
  EXPECT_EQ(parsed(f.call("GET", "/api/game/" + id + "?token=" + black).body).get("you")->items()[0].asString(), "black");
  EXPECT_EQ(f.call("POST", "/api/game/" + id + "/move/e2e3", "", white).status, 200);
  EXPECT_EQ(f.call("POST", "/api/game/" + id + "/move/e7e6", "", black).status, 200);
  EXPECT_EQ(f.call("POST", "/api/game/" + id + "/move/d2d3", "", black).status, 403);
}

TEST(ServerLobby, OnlyHumanSeatsOfGamesThatAreNotHotSeatCanBeOpen) {
  MemoryLobby f;
  EXPECT_EQ(f.call("POST", "/api/game", R"({"variant":"chess","seats":[{"kind":"human"},{"kind":"bot","open":true}]})").status, 400);
  EXPECT_EQ(f.call("POST", "/api/game", R"({"variant":"chess","seats":[{"kind":"human"},{"kind":"human","open":true}],"hotSeat":true})").status, 400);
  EXPECT_EQ(f.call("POST", "/api/game", R"({"variant":"chess","seats":[{"kind":"human"},{"kind":"human","open":"yes"}]})").status, 400);
  EXPECT_EQ(f.call("GET", "/api/games?status=waiting").status, 400);
}

TEST(ServerLobby, BotsWaitUntilEverySeatIsTaken) {
  MemoryLobby f;
  auto c = f.create(R"({"variant":"xiangqi","seats":[{"kind":"bot","level":1},{"kind":"human","open":true}]})");
  const std::string id = c.get("id")->asString();
  f.runBots();
  EXPECT_EQ(parsed(f.call("GET", "/api/game/" + id).body).get("moves")->items().size(), 0u);
  ASSERT_EQ(f.call("POST", "/api/game/" + id + "/join").status, 200);
  f.runBots();
  EXPECT_EQ(parsed(f.call("GET", "/api/game/" + id).body).get("moves")->items().size(), 1u);
}

TEST(ServerLobby, OfTwoTakersOfTheLastSeatOneWins) {
  MemoryLobby f;
  for (int round = 0; round < 40; ++round) {
    auto c = f.create(R"({"variant":"chess","seats":[{"kind":"human"},{"kind":"human","open":true}]})");
    const std::string id = c.get("id")->asString();
    ApiResponse a, b;
    std::thread other([&] { a = f.call("POST", "/api/game/" + id + "/join"); });
    b = f.call("POST", "/api/game/" + id + "/join");
    other.join();
    std::multiset<int> statuses = {a.status, b.status};
    ASSERT_EQ(statuses, (std::multiset<int>{200, 409})) << a.body << " / " << b.body;
    const ApiResponse& winner = a.status == 200 ? a : b;
    const ApiResponse& loser = a.status == 200 ? b : a;
    EXPECT_EQ(loser.body.find(parsed(winner.body).get("token")->asString()), std::string::npos);
    const std::string token = parsed(winner.body).get("token")->asString();
    EXPECT_EQ(parsed(f.call("GET", "/api/game/" + id + "?token=" + token).body).get("you")->items().size(), 1u);
  }
}

// Two processes on one store: each holds the game in memory; the one that
// comes second learns from the store that the seat is gone.
TEST(ServerLobby, TheStoreDecidesARaceBetweenTwoLobbies) {
  MemoryStore store;
  LobbyApi a(store), b(store);
  auto c = a.create(R"({"variant":"chess","seats":[{"kind":"human"},{"kind":"human","open":true}]})");
  const std::string id = c.get("id")->asString();
  EXPECT_EQ(parsed(b.call("GET", "/api/game/" + id).body).get("seats")->items()[1].get("open")->asBool(), true);
  auto first = a.call("POST", "/api/game/" + id + "/join");
  ASSERT_EQ(first.status, 200);
  auto second = b.call("POST", "/api/game/" + id + "/join");
  EXPECT_EQ(second.status, 409);
  EXPECT_EQ(parsed(second.body).get("code")->asString(), "seat-taken");
  // b caught up: the seat is taken there too, and its token holds it.
  const std::string token = parsed(first.body).get("token")->asString();
  const Json state = parsed(b.call("GET", "/api/game/" + id + "?token=" + token).body);
  EXPECT_FALSE(state.get("seats")->items()[1].get("open")->asBool());
  EXPECT_EQ(state.get("you")->items().size(), 1u);
}

TEST(ServerLobby, NoTokenReachesTheListingsOrTheState) {
  MemoryLobby f;
  std::vector<std::string> tokens;
  std::vector<std::string> ids;
  for (const char* body : {R"({"variant":"chess","seats":[{"kind":"human"},{"kind":"human","open":true}]})",
                           R"({"variant":"four-seasons","seats":[{"kind":"human"},{"kind":"human","open":true},{"kind":"human"},{"kind":"human","open":true}]})",
                           R"({"variant":"shako","hotSeat":true})"}) {
    auto c = f.create(body);
    ids.push_back(c.get("id")->asString());
    for (const auto& s : c.get("seats")->items())
      if (const Json* t = s.get("token")) tokens.push_back(t->asString());
  }
  auto took = f.call("POST", "/api/game/" + ids[1] + "/join?seat=white");
  ASSERT_EQ(took.status, 200) << took.body;
  tokens.push_back(parsed(took.body).get("token")->asString());
  ASSERT_EQ(f.call("POST", "/api/game/" + ids[0] + "/join").status, 200);
  EXPECT_EQ(tokens.size(), 6u);

  std::vector<std::string> readable = {"/api/variants", "/api/games", "/api/games?status=open", "/api/games?status=ongoing",
                                       "/api/games?status=all&limit=500"};
  for (const auto& id : ids)
    for (const char* what : {"", "/pgn", "/replay"}) readable.push_back("/api/game/" + id + what);
  for (const auto& path : readable) {
    const std::string body = f.call("GET", path).body;
    for (const auto& t : tokens) EXPECT_EQ(body.find(t), std::string::npos) << path << " shows a seat token";
  }
  // A seat's holder does not see the other seats' tokens either.
  const std::string own = f.call("GET", "/api/game/" + ids[1], "", tokens[2]).body;
  for (size_t i = 0; i < tokens.size(); ++i)
    EXPECT_EQ(own.find(tokens[i]), std::string::npos) << "token " << i;
}

TEST(ServerLobby, TheFirstMoveRuleCountsFromTheTakenSeat) {
  MemoryLobby f;
  auto c = f.create(R"({"variant":"chess","seats":[{"kind":"human"},{"kind":"human","open":true}]})");
  const std::string id = c.get("id")->asString();
  f.time.advance(9 * 60000);
  ASSERT_EQ(f.call("POST", "/api/game/" + id + "/join").status, 200);
  f.time.advance(2 * 60000);
  EXPECT_EQ(f.lobby.abortAbandoned(), 0);
  f.time.advance(9 * 60000);
  EXPECT_EQ(f.lobby.abortAbandoned(), 1);
  // A listed game nobody takes is aborted like any game whose first move never comes.
  auto lonely = f.create(R"({"variant":"chess","seats":[{"kind":"human"},{"kind":"human","open":true}]})");
  f.time.advance(11 * 60000);
  EXPECT_EQ(f.lobby.abortAbandoned(), 1);
  EXPECT_TRUE(f.open().items().empty());
}

TEST(ServerLobby, SqliteKeepsFreeSeatsAndComparesBeforeItReplaces) {
  const auto path = (std::filesystem::temp_directory_path() / ("acedrex-lobby-" + std::to_string(getpid()) + ".db")).string();
  for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path + suffix);
  {
    auto opened = openSqliteStore(path);
    ASSERT_TRUE(opened.ok());
    Store& store = **opened;
    StoredGame g;
    g.id = "g1";
    g.variant = "chess";
    g.seats = {SeatPlan{false, 0, "tok", false}, SeatPlan{false, 0, "", true}};
    g.createdMs = 5;
    ASSERT_TRUE(store.createGame(g).ok());
    StoredGame closed = g;
    closed.id = "g2";
    closed.seats[1].open = false;
    closed.seats[1].token = "t2";
    ASSERT_TRUE(store.createGame(closed).ok());
    auto open = store.recent(10, "open");
    ASSERT_TRUE(open.ok());
    ASSERT_EQ(open->size(), 1u);
    EXPECT_EQ((*open)[0].id, "g1");
    EXPECT_TRUE((*open)[0].seats[1].open);
    std::vector<SeatPlan> taken = g.seats;
    taken[1].open = false;
    taken[1].token = "new";
    ASSERT_TRUE(store.replaceSeats("g1", g.seats, taken).ok());
    auto late = store.replaceSeats("g1", g.seats, taken);  // the seats are no longer what the caller saw
    ASSERT_FALSE(late.ok());
    EXPECT_EQ(late.error().code, kStoreConflict);
    auto loaded = store.load("g1");
    ASSERT_TRUE(loaded.ok() && *loaded);
    EXPECT_EQ((**loaded).seats[1].token, "new");
    EXPECT_FALSE((**loaded).seats[1].open);
    EXPECT_TRUE(store.recent(10, "open")->empty());
  }
  for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path + suffix);
}

// Two processes' connections to one PostgreSQL database: the second to
// replace the seats it saw loses, and the list of open games follows.
TEST(ServerLobby, PostgresComparesBeforeItReplacesTheSeats) {
  testing::TempPostgres pg;
  ACEDREX_NEED_POSTGRES(pg);
  auto a = openPgStore(pg.uri());
  auto b = openPgStore(pg.uri());
  ASSERT_TRUE(a.ok() && b.ok());
  StoredGame g;
  g.id = "g1";
  g.variant = "chess";
  g.seats = {SeatPlan{false, 0, "tok", false}, SeatPlan{false, 0, "", true}};
  g.createdMs = 5;
  ASSERT_TRUE((*a)->createGame(g).ok());
  ASSERT_EQ((*b)->recent(10, "open")->size(), 1u);
  std::vector<SeatPlan> mine = g.seats, theirs = g.seats;
  mine[1] = SeatPlan{false, 0, "first", false};
  theirs[1] = SeatPlan{false, 0, "second", false};
  ASSERT_TRUE((*a)->replaceSeats("g1", g.seats, mine).ok());
  auto late = (*b)->replaceSeats("g1", g.seats, theirs);
  ASSERT_FALSE(late.ok());
  EXPECT_EQ(late.error().code, kStoreConflict);
  EXPECT_EQ((*(*b)->load("g1"))->seats[1].token, "first");
  EXPECT_TRUE((*b)->recent(10, "open")->empty());
  EXPECT_EQ((*b)->recent(10, "ongoing")->size(), 1u);
}

}  // namespace
}  // namespace acedrex::server
