// The HTTP API, the NDJSON stream, WebSockets and static files over
// loopback, with the real network layer and a fake bot.
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>

#include "server/app/api.h"
#include "server/app/lobby.h"
#include "server/net/server.h"
#include "fog_support.h"
#include "test_support.h"

namespace acedrex::server {
namespace {

using testing::HttpClient;
using testing::parsed;

class LiveServer {
 public:
  explicit LiveServer(bool sqlite = false, std::optional<ServerLimits> limits = std::nullopt, bool trustProxy = false) {
    web_ = std::filesystem::temp_directory_path() / ("acedrex-web-" + std::to_string(getpid()));
    std::filesystem::create_directories(web_ / "js");
    std::ofstream(web_ / "index.html") << "<!doctype html><title>Acedrex test page</title>";
    std::ofstream(web_ / "js" / "app.js") << "export const x = 1;";
    std::ofstream(web_ / "game.html") << "<!doctype html><title>Acedrex game page</title>";
    if (sqlite) {
      dbPath_ = (std::filesystem::temp_directory_path() / ("acedrex-http-" + std::to_string(getpid()) + ".db")).string();
      std::filesystem::remove(dbPath_);
      auto s = openSqliteStore(dbPath_);
      sqlite_ = std::move(*s);
    }
    LobbyConfig config;
    config.botThreads = 2;
    config.limits.gamesPerClientPerMinute = 0;  // these tests create many games from one address
    lobby_ = std::make_unique<Lobby>(registry_, sqlite_ ? *sqlite_ : static_cast<Store&>(memory_), testing::fakeBots(),
                                     config);
    lobby_->start();
    api_ = std::make_unique<Api>(*lobby_, [](int l) { return "level " + std::to_string(l); });
    net::HttpConfig http;
    http.address = "127.0.0.1";
    http.port = 0;
    http.webDir = web_.string();
    http.threads = 4;
    http.handleSignals = false;
    http.limits.requestsPerClientPerSecond = 0;  // every client here is 127.0.0.1; the limits have their own tests
    if (limits) http.limits = *limits;
    http.trustProxy = trustProxy;
    server_ = std::make_unique<net::HttpServer>(*api_, http);
    auto port = server_->start();
    EXPECT_TRUE(port.ok());
    port_ = port.ok() ? *port : 0;
    server_->runInBackground();
  }
  ~LiveServer() {
    lobby_->stop();  // no bot thread publishes while the network layer goes away
    server_->stop();
    server_.reset();
    std::filesystem::remove_all(web_);
    if (!dbPath_.empty()) {
      sqlite_.reset();
      std::filesystem::remove(dbPath_);
      std::filesystem::remove(dbPath_ + "-wal");
      std::filesystem::remove(dbPath_ + "-shm");
    }
  }
  int port() const { return port_; }
  Lobby& lobby() { return *lobby_; }

 private:
  VariantRegistry registry_ = VariantRegistry::withEmbedded();
  MemoryStore memory_;
  std::unique_ptr<Store> sqlite_;
  std::string dbPath_;
  std::unique_ptr<Lobby> lobby_;
  std::unique_ptr<Api> api_;
  std::unique_ptr<net::HttpServer> server_;
  std::filesystem::path web_;
  int port_ = 0;
};

struct Created {
  std::string id;
  std::vector<std::string> tokens;
};

Created create(HttpClient& c, const std::string& body) {
  auto r = c.post("/api/game", body);
  EXPECT_EQ(r.status, 201) << r.body;
  Created out;
  auto j = r.json();
  if (!j.get("id")) return out;
  out.id = j.get("id")->asString();
  for (const auto& s : j.get("seats")->items()) out.tokens.push_back(s.get("token") ? s.get("token")->asString() : "");
  return out;
}

TEST(ServerHttp, PlaysAGameAndRefusesBadRequests) {
  LiveServer srv;
  HttpClient c(srv.port());
  ASSERT_TRUE(c.connected());
  auto g = create(c, R"({"variant":"shako","seats":[{"kind":"human"},{"kind":"human"}]})");
  ASSERT_EQ(g.tokens.size(), 2u);
  // Several requests on one keep-alive connection.
  auto s = c.get("/api/game/" + g.id);
  EXPECT_EQ(s.status, 200);
  EXPECT_EQ(s.headers["content-type"], "application/json");
  auto wrong = c.post("/api/game/" + g.id + "/move/e3e4", "", "not-a-token");
  EXPECT_EQ(wrong.status, 403);
  EXPECT_TRUE(wrong.json().get("error"));
  EXPECT_EQ(c.post("/api/game/" + g.id + "/move/e3e4", "", g.tokens[1]).status, 403);
  EXPECT_EQ(c.post("/api/game/" + g.id + "/move/e3e4").status, 401);
  auto illegal = c.post("/api/game/" + g.id + "/move/e3e7", "", g.tokens[0]);
  EXPECT_EQ(illegal.status, 400);
  EXPECT_FALSE(illegal.json().get("error")->asString().empty());
  auto ok = c.post("/api/game/" + g.id + "/move/e3e4", "", g.tokens[0]);
  EXPECT_EQ(ok.status, 200);
  EXPECT_EQ(ok.json().get("lastMove")->asString(), "e3e4");
  EXPECT_EQ(c.get("/api/game/nosuchgame").status, 404);
  EXPECT_EQ(c.post("/api/game", "{\"variant\":").status, 400);
  EXPECT_EQ(c.post("/api/game", "{\"variant\":\"nope\"}").status, 404);
  EXPECT_EQ(c.get("/api/game/" + g.id).json().get("moves")->items().size(), 1u) << "nothing else changed";
  // An oversized body: refused, the connection closed, the server fine.
  HttpClient big(srv.port());
  auto r = big.post("/api/game", std::string(70 * 1024, 'x'));
  EXPECT_EQ(r.status, 413);
  // Malformed HTTP.
  HttpClient junk(srv.port());
  auto j = junk.raw("THIS IS NOT HTTP\r\n\r\n");
  EXPECT_EQ(j.status, 400);
  HttpClient junk2(srv.port());
  auto j2 = junk2.raw("GET /api/variants HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n");
  EXPECT_EQ(j2.status, 400);
  HttpClient huge(srv.port());
  auto h = huge.raw("GET /api/variants HTTP/1.1\r\nHost: x\r\nX-Big: " + std::string(20000, 'a') + "\r\n\r\n");
  EXPECT_EQ(h.status, 431);
  HttpClient after(srv.port());
  EXPECT_EQ(after.get("/api/variants").status, 200) << "still serving";
  auto options = after.request("OPTIONS", "/api/game");
  EXPECT_EQ(options.status, 204);
  EXPECT_EQ(options.headers["access-control-allow-origin"], "*");
}

TEST(ServerHttp, ServesTheStaticPage) {
  LiveServer srv;
  HttpClient c(srv.port());
  auto index = c.get("/");
  EXPECT_EQ(index.status, 200);
  EXPECT_NE(index.body.find("Acedrex test page"), std::string::npos);
  EXPECT_EQ(index.headers["content-type"], "text/html; charset=utf-8");
  auto js = c.get("/js/app.js");
  EXPECT_EQ(js.status, 200);
  EXPECT_EQ(js.headers["content-type"], "text/javascript; charset=utf-8");
  auto page = c.get("/game/abcdefgh?token=x");
  EXPECT_EQ(page.status, 200) << "/game/{id} is served by game.html";
  EXPECT_NE(page.body.find("Acedrex game page"), std::string::npos);
  EXPECT_EQ(c.get("/lobby/x").status, 404) << "a path that is neither a file nor a page is not found";
  for (const char* t : {"/%2Fetc%2Fpasswd", "/..%2Fsecret", "/%2e%2e%2f%2e%2e%2fetc%2fpasswd"}) {
    auto r = c.get(t);
    EXPECT_TRUE(r.status == 400 || r.status == 404) << t;
    EXPECT_EQ(r.body.find("root:"), std::string::npos) << t;
  }

  EXPECT_EQ(c.get("/js/missing.js").status, 404);
  auto up = c.get("/../../../../etc/passwd");
  EXPECT_NE(up.status, 200);
  EXPECT_EQ(up.body.find("root:"), std::string::npos);
  auto up2 = c.get("/js/%2e%2e/%2e%2e/%2e%2e/etc/passwd");
  EXPECT_NE(up2.status, 200);
  EXPECT_EQ(up2.body.find("root:"), std::string::npos);
  EXPECT_EQ(c.post("/index.html").status, 405);
}

TEST(ServerHttp, StreamsAGameAsNdjson) {
  LiveServer srv;
  HttpClient c(srv.port());
  auto g = create(c, R"({"variant":"shako","seats":[{"kind":"human"},{"kind":"bot","level":1}]})");
  HttpClient stream(srv.port());
  auto head = stream.openStream("/api/game/" + g.id + "/stream", g.tokens[0]);
  ASSERT_EQ(head.status, 200);
  EXPECT_EQ(head.headers["content-type"], "application/x-ndjson");
  auto first = parsed(stream.readChunk());
  ASSERT_TRUE(first.get("v")) << "the first line is the full state";
  EXPECT_TRUE(first.get("seats")->items()[0].get("connected")->asBool());
  const double v0 = first.get("v")->asNumber();
  // A watcher that asked for full states only.
  HttpClient full(srv.port());
  ASSERT_EQ(full.openStream("/api/game/" + g.id + "/stream?deltas=0").status, 200);
  const double fullV0 = parsed(full.readChunk()).get("v")->asNumber();
  ASSERT_EQ(c.post("/api/game/" + g.id + "/move/e3e4", "", g.tokens[0]).status, 200);
  // Our move, then the bot's answer: each line a delta on the one before.
  auto readLines = [](HttpClient& from, size_t n) {
    std::vector<Json> lines;
    while (lines.size() < n) {
      std::string line = from.readChunk();
      EXPECT_FALSE(line.empty());
      if (line.empty()) break;
      if (line == "\n") continue;
      lines.push_back(parsed(line));
    }
    return lines;
  };
  const auto lines = readLines(stream, 2);
  ASSERT_EQ(lines.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    ASSERT_TRUE(lines[i].get("type")) << writeJson(lines[i]);
    EXPECT_EQ(lines[i].get("type")->asString(), "delta");
    EXPECT_EQ(lines[i].get("from")->asNumber(), v0 + static_cast<double>(i));
    EXPECT_EQ(lines[i].get("v")->asNumber(), v0 + static_cast<double>(i) + 1);
    EXPECT_EQ(lines[i].get("moves"), nullptr);
    EXPECT_EQ(lines[i].get("append")->items().size(), 1u);
  }
  const Json after = testing::applyDelta(testing::applyDelta(first, lines[0]), lines[1]);
  EXPECT_EQ(testing::movesOf(after), testing::movesOf(c.get("/api/game/" + g.id).json()));
  EXPECT_EQ(after.get("you")->items()[0].asString(), "white");
  // ?deltas=0: the same changes as full states.
  const auto fullLines = readLines(full, 2);
  ASSERT_EQ(fullLines.size(), 2u);
  EXPECT_EQ(fullLines[0].get("type"), nullptr);
  EXPECT_EQ(fullLines[0].get("v")->asNumber(), fullV0 + 1);
  EXPECT_EQ(fullLines[0].get("moves")->items().size(), 1u);
  EXPECT_EQ(fullLines[1].get("moves")->items().size(), 2u);
  EXPECT_EQ(writeJson(*fullLines[1].get("moves")), writeJson(*after.get("moves")));
  HttpClient badDeltas(srv.port());
  EXPECT_EQ(badDeltas.openStream("/api/game/" + g.id + "/stream?deltas=yes").status, 400);
  HttpClient bad(srv.port());
  EXPECT_EQ(bad.openStream("/api/game/nosuchgame/stream").status, 404);
  HttpClient bad2(srv.port());
  EXPECT_EQ(bad2.openStream("/api/game/" + g.id + "/stream", "wrong").status, 403);
  stream.close();
  EXPECT_TRUE(testing::waitFor([&] {
    return !c.get("/api/game/" + g.id).json().get("seats")->items()[0].get("connected")->asBool();
  })) << "closing the stream disconnects the seat";
}

TEST(ServerHttp, PlaysOverAWebSocket) {
  LiveServer srv;
  HttpClient c(srv.port());
  auto g = create(c, R"({"variant":"four-seasons","seats":[{"kind":"human"},{"kind":"bot"},{"kind":"bot"},{"kind":"bot"}]})");
  HttpClient ws(srv.port());
  ASSERT_TRUE(ws.upgrade("/ws/game/" + g.id + "?token=" + g.tokens[0]));
  auto hello = parsed(ws.readText());
  EXPECT_EQ(hello.get("t")->asString(), "state");
  EXPECT_EQ(hello.get("d")->get("you")->items()[0].asString(), "green");
  EXPECT_EQ(hello.get("v")->asNumber(), hello.get("d")->get("v")->asNumber());
  ASSERT_TRUE(ws.sendText(R"({"t":"ping"})"));
  EXPECT_EQ(ws.readText(), R"({"t":"pong"})");
  ASSERT_TRUE(ws.sendText("{not json"));
  EXPECT_EQ(parsed(ws.readText()).get("t")->asString(), "error");
  ASSERT_TRUE(ws.sendText(R"({"t":"move","d":{"uci":"a6a4"}})"));
  EXPECT_EQ(parsed(ws.readText()).get("t")->asString(), "error");
  // A second socket that asked for full states only.
  HttpClient fullWs(srv.port());
  ASSERT_TRUE(fullWs.upgrade("/ws/game/" + g.id + "?deltas=0&token=" + g.tokens[0]));
  EXPECT_EQ(parsed(fullWs.readText()).get("t")->asString(), "state");
  ASSERT_TRUE(ws.sendText(R"({"t":"move","d":{"uci":"a6a5"}})"));
  // Our move and the three bots' answers, in order, versions one apart; each
  // a delta on the one before (the second socket's arrival came as a delta too).
  testing::StateClient client;
  ASSERT_TRUE(client.take(writeJson(hello)));
  double lastV = hello.get("v")->asNumber();
  while (client.state.get("moves")->items().size() < 4) {
    const std::string text = ws.readText();
    auto m = parsed(text);
    ASSERT_TRUE(m.get("t")) << "no message";
    EXPECT_EQ(m.get("t")->asString(), "delta");
    EXPECT_EQ(m.get("v")->asNumber(), lastV + 1);
    EXPECT_EQ(m.get("d")->get("v")->asNumber(), m.get("v")->asNumber());
    lastV = m.get("v")->asNumber();
    ASSERT_TRUE(client.take(text)) << text;
  }
  auto state = c.get("/api/game/" + g.id).json();
  EXPECT_EQ(state.get("moves")->items().size(), 4u);
  EXPECT_EQ(state.get("toMove")->asString(), "green");
  EXPECT_EQ(writeJson(*client.state.get("moves")), writeJson(*state.get("moves")));
  EXPECT_EQ(writeJson(*client.state.get("pieces")), writeJson(*state.get("pieces")));
  // The full-state socket heard the same changes in full.
  int fullMoves = 0;
  while (fullMoves < 4) {
    auto m = parsed(fullWs.readText());
    ASSERT_TRUE(m.get("t")) << "no message";
    EXPECT_NE(m.get("t")->asString(), "delta");
    ASSERT_TRUE(m.get("d")->get("moves"));
    fullMoves = static_cast<int>(m.get("d")->get("moves")->items().size());
  }
  // sync: a full state, after which the deltas go on.
  ASSERT_TRUE(ws.sendText(R"({"t":"sync"})"));
  const auto synced = parsed(ws.readText());
  EXPECT_EQ(synced.get("t")->asString(), "state");
  EXPECT_EQ(writeJson(*synced.get("d")->get("moves")), writeJson(*state.get("moves")));
  // Watchers and refusals.
  HttpClient watcher(srv.port());
  ASSERT_TRUE(watcher.upgrade("/ws/game/" + g.id));
  EXPECT_TRUE(parsed(watcher.readText()).get("d")->get("you")->items().empty());
  ASSERT_TRUE(watcher.sendText(R"({"t":"move","d":{"uci":"a5a4"}})"));
  EXPECT_EQ(parsed(watcher.readText()).get("d")->get("code")->asString(), "no-token");
  HttpClient wrong(srv.port());
  int status = 0;
  EXPECT_FALSE(wrong.upgrade("/ws/game/" + g.id + "?token=wrong", &status));
  EXPECT_EQ(status, 403);
  HttpClient unknown(srv.port());
  EXPECT_FALSE(unknown.upgrade("/ws/game/nosuchgame", &status));
  EXPECT_EQ(status, 404);
  // An oversized message closes that socket only.
  ASSERT_TRUE(watcher.sendText(std::string(70 * 1024, ' ')));
  EXPECT_EQ(watcher.readText(), "");
  ASSERT_TRUE(ws.sendText(R"({"t":"resign"})"));
  const auto resigned = parsed(ws.readText());
  EXPECT_EQ(resigned.get("t")->asString(), "delta");
  EXPECT_EQ(resigned.get("d")->get("moves"), nullptr);
  ASSERT_EQ(resigned.get("d")->get("append")->items().size(), 1u);
  EXPECT_EQ(resigned.get("d")->get("append")->items()[0].get("uci")->asString(), "resign");
  int badStatus = 0;
  HttpClient badDeltas(srv.port());
  EXPECT_FALSE(badDeltas.upgrade("/ws/game/" + g.id + "?deltas=2", &badStatus));
  EXPECT_EQ(badStatus, 400);
}

TEST(ServerHttp, ManyConcurrentGamesThroughTheApi) {
  LiveServer srv(true);
  constexpr int kGames = 24;
  constexpr int kPlies = 30;
  std::vector<std::thread> players;
  std::atomic<int> failures{0};
  std::vector<std::string> ids(kGames);
  for (int i = 0; i < kGames; ++i) {
    players.emplace_back([&, i] {
      HttpClient c(srv.port());
      const bool four = i % 2 == 1;
      auto g = create(c, four ? R"({"variant":"four-seasons","hotSeat":true})"
                              : R"({"variant":"shako","seats":[{"kind":"human"},{"kind":"bot","level":2}]})");
      ids[static_cast<size_t>(i)] = g.id;
      std::mt19937 rng(static_cast<unsigned>(i));
      for (int ply = 0; ply < kPlies; ++ply) {
        Json s;
        // Wait for our turn (the bot answers on its own thread).
        for (int tries = 0; tries < 500; ++tries) {
          s = c.get("/api/game/" + g.id, g.tokens[0]).json();
          if (!s.get("toMove") || s.get("toMove")->isNull()) break;
          if (!s.get("you")->items().empty() && s.get("toMove")->asString() == (four ? s.get("toMove")->asString() : "white"))
            break;
          std::this_thread::sleep_for(std::chrono::milliseconds(2));
        }
        if (s.get("status")->asString() == "finished") break;
        std::vector<std::string> moves;
        for (const auto& [from, list] : s.get("legal")->members())
          for (const auto& m : list.items()) moves.push_back(m.asString());
        if (moves.empty()) {
          ++failures;
          break;
        }
        const std::string mv = moves[rng() % moves.size()];
        auto r = c.post("/api/game/" + g.id + "/move/" + mv, "", g.tokens[0]);
        if (r.status != 200) {
          ++failures;
          ADD_FAILURE() << mv << " -> " << r.status << " " << r.body;
          break;
        }
      }
    });
  }
  for (auto& t : players) t.join();
  EXPECT_EQ(failures.load(), 0);
  // Every acknowledged move is in the store, in order.
  HttpClient c(srv.port());
  for (const auto& id : ids) {
    auto s = c.get("/api/game/" + id).json();
    EXPECT_GE(s.get("moves")->items().size(), 10u) << id;
  }
  EXPECT_EQ(srv.lobby().size(), static_cast<size_t>(kGames));
}

}  // namespace
}  // namespace acedrex::server

namespace acedrex::server {
namespace {

// A client that opens the public stream, half-closes its socket, reads to
// the end and closes, thousands of times (the server crashed after about a
// thousand rounds when it cleared a queue under a write in flight). Run under
// ASan in CI.
TEST(ServerHttp, HalfClosedStreamsNeverCrashTheServer) {
  LiveServer srv;
  HttpClient c(srv.port());
  auto g = create(c, R"({"variant":"shako","hotSeat":true})");
  const std::string request = "GET /api/game/" + g.id + "/stream HTTP/1.1\r\nHost: x\r\n\r\n";
  for (int round = 0; round < 3000; ++round) {
    const int fd = testing::connectLoopback(srv.port());
    ASSERT_GE(fd, 0) << "round " << round;
    ASSERT_EQ(::send(fd, request.data(), request.size(), MSG_NOSIGNAL), static_cast<ssize_t>(request.size()));
    ::shutdown(fd, SHUT_WR);
    timeval tv{5, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    char buf[4096];
    while (::recv(fd, buf, sizeof buf, 0) > 0) {
    }
    ::close(fd);
  }
  // Still serving, and every stream was let go.
  EXPECT_EQ(c.get("/api/variants").status, 200);
  auto room = srv.lobby().find(g.id);
  ASSERT_TRUE(room);
  EXPECT_TRUE(testing::waitFor([&] { return room->listenerCount() == 0; }));
}

// Fog of war over real sockets: White on a WebSocket, Black on an NDJSON
// stream, a watcher on each: every message each one gets holds only its view
// of the position it describes, until the king is taken; then everything.
TEST(ServerHttp, FogOfWarSocketsAndStreamsCarryOnlyEachView) {
  LiveServer srv;
  HttpClient c(srv.port());
  auto g = create(c, R"({"variant":"fog-of-war","seats":[{"kind":"human"},{"kind":"human"}]})");
  ASSERT_EQ(g.tokens.size(), 2u);
  struct Client {
    std::string who;
    int seat;
    bool socket;
    std::unique_ptr<HttpClient> conn;
    testing::StateClient view;  // the full state rebuilt from the deltas
  };
  std::vector<Client> clients;
  for (auto [who, seat, socket] : {std::tuple{"white", 0, true}, {"black", 1, false}, {"watcher", -1, true},
                                   {"watcher", -1, false}}) {
    Client cl{who, seat, socket, std::make_unique<HttpClient>(srv.port()), {}};
    const std::string token = seat >= 0 ? g.tokens[static_cast<size_t>(seat)] : "";
    if (socket) {
      ASSERT_TRUE(cl.conn->upgrade("/ws/game/" + g.id + (token.empty() ? "" : "?token=" + token)));
    } else {
      ASSERT_EQ(cl.conn->openStream("/api/game/" + g.id + "/stream", token).status, 200);
    }
    clients.push_back(std::move(cl));
  }
  // The game after each ply, to check a message against the position it describes.
  std::vector<Game> after{Game(VariantRegistry::withEmbedded().rules("fog-of-war", {}).value())};
  // Reads each client's messages until one describes `plies` plies, checking every one.
  auto readUpTo = [&](size_t plies) {
    for (auto& cl : clients) {
      for (int guard = 0; guard < 20; ++guard) {
        const std::string text = cl.socket ? cl.conn->readText() : cl.conn->readChunk();
        ASSERT_FALSE(text.empty()) << cl.who << " heard nothing";
        if (text == "\n") continue;
        ASSERT_TRUE(cl.view.take(text)) << cl.who << ": a delta that does not fit: " << text;
        const Json* state = &cl.view.state;
        ASSERT_TRUE(state->get("moves")) << text;
        const size_t n = state->get("moves")->items().size();
        ASSERT_LT(n, after.size());
        if (after[n].finished()) {
          EXPECT_EQ(state->get("fen")->asString(), after[n].position().text()) << cl.who;
          EXPECT_EQ(testing::movesOf(*state).size(), n) << cl.who;
        } else {
          testing::expectNothingHidden({cl.who, cl.seat, text}, after[n]);  // the message itself, maybe a delta
          testing::expectNothingHidden({cl.who, cl.seat, writeJson(*state)}, after[n]);
        }
        if (n == plies) break;
      }
    }
  };
  readUpTo(0);
  const std::vector<std::string> moves = {"e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7", "a7a6", "f7e8"};
  for (size_t i = 0; i < moves.size(); ++i) {
    ASSERT_EQ(c.post("/api/game/" + g.id + "/move/" + moves[i], "", g.tokens[i % 2]).status, 200) << moves[i];
    after.push_back(after.back());
    ASSERT_TRUE(after.back().play(moves[i]).ok());
    readUpTo(i + 1);
  }
  ASSERT_TRUE(after.back().finished());
  EXPECT_EQ(c.get("/api/game/" + g.id).json().get("pieces")->items().size(), 30u);
  for (const auto& cl : clients) EXPECT_GT(cl.view.deltas, 0) << cl.who << " was sent full states only";
}

// The resident memory of this process (the server runs in it), in bytes.
size_t residentBytes() {
  std::ifstream in("/proc/self/status");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("VmRSS:", 0) == 0) return static_cast<size_t>(std::stoull(line.substr(6))) * 1024;
  return 0;
}

// Ten spectators that never read, while the game changes thousands of
// times: the game and the other clients go on, and the server's memory does
// not grow with what the silent clients were sent (OutQueue's test shows
// what each may hold). Each silent client once queued its own copy of every
// state: 10 clients x 4,000 changes x 5 KB, about 200 MB here.
TEST(ServerHttp, SilentSpectatorsDoNotStopTheGame) {
  LiveServer srv;
  HttpClient c(srv.port());
  auto g = create(c, R"({"variant":"grant-acedrex","seats":[{"kind":"human"},{"kind":"human"}]})");
  std::vector<int> fds;
  for (int i = 0; i < 10; ++i) {
    const int fd = testing::connectLoopback(srv.port(), -1, 4096);
    ASSERT_GE(fd, 0);
    const std::string request = "GET /api/game/" + g.id + "/stream HTTP/1.1\r\nHost: x\r\n\r\n";
    ASSERT_GT(::send(fd, request.data(), request.size(), MSG_NOSIGNAL), 0);
    fds.push_back(fd);
  }
  auto room = srv.lobby().find(g.id);
  ASSERT_TRUE(testing::waitFor([&] { return room->listenerCount() == 10; }));
  const size_t stateBytes = c.get("/api/game/" + g.id).body.size();
  const size_t before = residentBytes();
  for (int i = 0; i < 2000; ++i) {
    ASSERT_EQ(c.post("/api/game/" + g.id + "/draw/offer", "", g.tokens[0]).status, 200);
    ASSERT_EQ(c.post("/api/game/" + g.id + "/draw/decline", "", g.tokens[1]).status, 200);
  }
  // The silent clients were either kept (with their queues bounded) or cut
  // for not reading; the server answers and nobody else was harmed.
  EXPECT_EQ(c.get("/api/game/" + g.id).status, 200);
  const size_t after = residentBytes();
  const size_t grown = after > before ? after - before : 0;
  std::printf("10 silent spectators, 4000 changes of a %zu-byte state: resident memory grew by %.1f MiB\n", stateBytes,
              static_cast<double>(grown) / (1 << 20));
#if !defined(__SANITIZE_ADDRESS__)  // ASan's quarantine keeps freed memory resident
  EXPECT_LT(grown, size_t{64} << 20) << "what was queued for the silent clients stays in memory";
#endif
  for (int fd : fds) ::close(fd);
  EXPECT_TRUE(testing::waitFor([&] { return room->listenerCount() == 0; }));
}

}  // namespace
}  // namespace acedrex::server

namespace acedrex::server {
namespace {

TEST(ServerHttp, OverTheRequestRateIs429WithAJsonError) {
  ServerLimits limits;
  limits.requestsPerClientPerSecond = 1;
  limits.requestBurst = 5;
  LiveServer srv(false, limits);
  HttpClient c(srv.port());
  int ok = 0, limited = 0;
  for (int i = 0; i < 20; ++i) {
    auto r = c.get("/api/variants");
    if (r.status == 200) ++ok;
    if (r.status == 429) {
      ++limited;
      EXPECT_EQ(r.json().get("code")->asString(), "rate-limited");
      EXPECT_EQ(r.headers["retry-after"], "1");
    }
  }
  EXPECT_GE(ok, 5);
  EXPECT_LE(ok, 7);  // the burst, and what refilled meanwhile at one a second
  EXPECT_EQ(ok + limited, 20);
}

TEST(ServerHttp, BehindAProxyTheForwardedAddressIsTheClient) {
  ServerLimits limits;
  limits.requestsPerClientPerSecond = 1;
  limits.requestBurst = 2;
  LiveServer srv(false, limits, true);
  HttpClient c(srv.port());
  auto from = [&](const std::string& who) {
    return c.request("GET", "/api/variants", "", "", {{"X-Forwarded-For", "203.0.113.9, " + who}}).status;
  };
  EXPECT_EQ(from("198.51.100.1"), 200);
  EXPECT_EQ(from("198.51.100.1"), 200);
  EXPECT_EQ(from("198.51.100.1"), 429);
  EXPECT_EQ(from("198.51.100.2"), 200) << "another client behind the same proxy has its own budget";
}

TEST(ServerHttp, ConnectionsAndStreamsOverTheirLimitsAre503) {
  ServerLimits limits;
  limits.connectionsPerClient = 3;
  limits.streamsPerClient = 1;
  LiveServer srv(false, limits);
  HttpClient c(srv.port());
  auto g = create(c, R"({"variant":"shako","hotSeat":true})");
  HttpClient s1(srv.port());
  EXPECT_EQ(s1.openStream("/api/game/" + g.id + "/stream").status, 200);
  HttpClient s2(srv.port());
  auto refused = s2.openStream("/api/game/" + g.id + "/stream");
  EXPECT_EQ(refused.status, 503);
  HttpClient fourth(srv.port());  // c, s1, s2 hold three connections (s2 may be closing)
  HttpClient fifth(srv.port());
  auto r4 = fourth.get("/api/variants"), r5 = fifth.get("/api/variants");
  EXPECT_TRUE(r4.status == 503 || r5.status == 503) << r4.status << " " << r5.status;
  s1.close();
  s2.close();
  fourth.close();
  fifth.close();
  EXPECT_TRUE(testing::waitFor([&] {
    HttpClient again(srv.port());
    return again.get("/api/variants").status == 200;
  })) << "connections are counted back when they close";
}

}  // namespace
}  // namespace acedrex::server

namespace acedrex::server {
namespace {

// HTTP/1.0 has no chunked encoding: its stream is the lines as they are,
// ended by closing the connection.
TEST(ServerHttp, AnHttp10StreamIsNotChunked) {
  LiveServer srv;
  HttpClient c(srv.port());
  auto g = create(c, R"({"variant":"shako","hotSeat":true})");
  const int fd = testing::connectLoopback(srv.port());
  ASSERT_GE(fd, 0);
  const std::string request = "GET /api/game/" + g.id + "/stream HTTP/1.0\r\n\r\n";
  ASSERT_GT(::send(fd, request.data(), request.size(), MSG_NOSIGNAL), 0);
  timeval tv{5, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  std::string got;
  char buf[4096];
  while (true) {
    const size_t head = got.find("\r\n\r\n");
    if (head != std::string::npos && got.find('\n', head + 4) != std::string::npos) break;
    const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) break;
    got.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  const size_t head = got.find("\r\n\r\n");
  ASSERT_NE(head, std::string::npos) << got;
  std::string lower = got.substr(0, head);
  for (auto& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  EXPECT_EQ(lower.rfind("http/1.0 200", 0), 0u) << lower;
  EXPECT_EQ(lower.find("chunked"), std::string::npos) << lower;
  const std::string firstLine = got.substr(head + 4, got.find('\n', head + 4) - head - 4);
  EXPECT_TRUE(parsed(firstLine).isObject()) << firstLine;
}

}  // namespace
}  // namespace acedrex::server
