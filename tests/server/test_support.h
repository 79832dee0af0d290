// Shared helpers for the server tests: a fake Bot, a hand-moved clock, a
// small blocking HTTP / WebSocket client (POSIX sockets, no Boost), waits.
#pragma once

#include <atomic>
#include <cstdio>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/game/game.h"
#include "engine/bot.h"
#include "server/app/api.h"
#include "server/app/common.h"
#include "server/app/json.h"
#include "server/app/lobby.h"

namespace acedrex::server::testing {

// Plays the first legal move (or what `pick` says), counting its calls.
class FakeBot : public engine::Bot {
 public:
  explicit FakeBot(std::function<std::string(const Game&)> pick = {}, std::atomic<int>* calls = nullptr)
      : pick_(std::move(pick)), calls_(calls) {}
  std::string name() const override { return "fake"; }
  engine::SearchResult choose(const Game& game, const engine::SearchLimits&, std::atomic<bool>& stop,
                              const std::function<void(const engine::SearchInfo&)>&) override {
    if (calls_) ++*calls_;
    engine::SearchResult r;
    Game copy(game);
    const auto legal = copy.legalMoves();
    if (legal.empty()) return r;
    r.found = true;
    r.best = legal.front();
    if (pick_) {
      const std::string want = pick_(game);
      for (Move m : legal)
        if (copy.position().moveText(m) == want) r.best = m;
    }
    (void)stop;
    return r;
  }

 private:
  std::function<std::string(const Game&)> pick_;
  std::atomic<int>* calls_;
};

inline BotFactory fakeBots(std::atomic<int>* calls = nullptr) {
  return [calls](std::shared_ptr<const Rules>, int, uint64_t) { return std::make_unique<FakeBot>(nullptr, calls); };
}

class FakeTime : public TimeSource {
 public:
  int64_t steadyMs() const override { return now_.load(); }
  int64_t wallMs() const override { return 1700000000000 + now_.load(); }
  void advance(int64_t ms) { now_ += ms; }

 private:
  std::atomic<int64_t> now_{1000000};
};

// A lobby whose bots and clocks the test drives (runOneBotJob), on a store in memory.
struct DrivenLobby {
  VariantRegistry registry = VariantRegistry::withEmbedded();
  MemoryStore store;
  FakeTime time;
  LobbyConfig config = [] {
    LobbyConfig c;
    c.startThreads = false;
    return c;
  }();
  Lobby lobby{registry, store, fakeBots(), config, &time};
};

// Waits up to `ms` for cond().
inline bool waitFor(const std::function<bool()>& cond, int ms = 5000) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
  while (std::chrono::steady_clock::now() < end) {
    if (cond()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return cond();
}

inline Json parsed(const std::string& text) {
  auto j = parseJson(text);
  return j.ok() ? *j : Json();
}

// One request through the API without sockets; a token goes in as "Bearer".
inline ApiResponse callApi(Api& api, const std::string& method, const std::string& target, const std::string& body = "",
                           const std::string& token = "") {
  ApiRequest r;
  r.method = method;
  r.target = target;
  r.body = body;
  if (!token.empty()) r.authorization = "Bearer " + token;
  return api.handle(r);
}

// The move texts ("uci") of a state object's "moves", in order.
inline std::vector<std::string> movesOf(const Json& state) {
  std::vector<std::string> out;
  if (!state.get("moves")) return out;
  for (const auto& m : state.get("moves")->items())
    if (const Json* uci = m.get("uci"); uci && uci->isString()) out.push_back(uci->asString());
  return out;
}

// A delta (docs/api.md, "Deltas") applied to the full state of its `from`
// version: every field replaced, the entries of "append" added to "moves".
inline Json applyDelta(const Json& full, const Json& delta) {
  Json out = full;
  Json moves = full.get("moves") ? *full.get("moves") : Json::array();
  for (const auto& [k, v] : delta.members()) {
    if (k == "type" || k == "from") continue;
    if (k == "append") {
      for (const auto& e : v.items()) moves.push(e);
    } else {
      out.set(k, v);
    }
  }
  out.set("moves", moves);
  return out;
}

// A client of the stream or the WebSocket that keeps the full state as the
// page does: a full state replaces it, a delta whose `from` is its `v` is
// applied, an older one is ignored; take() returns false for a delta that
// does not fit (the client would resync).
struct StateClient {
  Json state;
  int fulls = 0, deltas = 0;
  bool take(const std::string& message) {
    const Json m = parsed(message);
    const Json* d = m.get("d") ? m.get("d") : &m;
    if (!d->isObject() || !d->get("v")) return true;  // not a state (pong, error, keep-alive)
    const Json* type = d->get("type");
    if (!type || type->asString() != "delta") {
      state = *d;
      ++fulls;
      return true;
    }
    const double v = state.get("v") ? state.get("v")->asNumber() : -1;
    if (d->get("v")->asNumber() <= v) return true;  // already held (a sync reply came first)
    if (!d->get("from") || d->get("from")->asNumber() != v) return false;
    state = applyDelta(state, *d);
    ++deltas;
    return true;
  }
};

// `acedrex serve --port 0 --address 127.0.0.1 ARGS...` (the binary under
// test) as a child process. Its stdout goes to stdoutFd and its stderr to
// stderrFd (-1: inherited); nofile > 0 sets its RLIMIT_NOFILE; hostile tests
// ask for no core file and for the child to die with the test runner; cwd
// (non-empty) is the folder it starts in; onlyArgs: `acedrex serve ARGS...`
// with nothing added. Returns the pid (-1 if fork failed). Pass descriptors
// made close-on-exec.
struct ServeChildSetup {
  int stdoutFd = -1;
  int stderrFd = -1;
  int nofile = 0;
  bool noCore = false;
  bool dieWithParent = false;
  std::string cwd;
  bool onlyArgs = false;
};
int spawnServe(const std::vector<std::string>& args, const ServeChildSetup& setup);

// `acedrex serve --db DB --threads 2 --bot-threads 2 EXTRA...` as a child,
// waited for until it prints its port (port() 0: it did not start). Killed
// with SIGKILL when the object goes.
class ServeProcess {
 public:
  // nofile > 0: the child's RLIMIT_NOFILE; errFile: where its stderr goes.
  explicit ServeProcess(const std::string& db, const std::vector<std::string>& extra = {}, int nofile = 0,
                        const std::string& errFile = "");
  ~ServeProcess();
  ServeProcess(const ServeProcess&) = delete;
  ServeProcess& operator=(const ServeProcess&) = delete;
  int port() const { return port_; }
  void kill9();
  void terminate();
  int exitCode() const { return exitCode_; }
  bool alive() const;

 private:
  int pid_ = -1;
  int port_ = 0;
  int exitCode_ = -1;
  FILE* out_ = nullptr;
};

// A TCP connection to 127.0.0.1:port (TCP_NODELAY, close-on-exec), or -1.
// source >= 0 binds the local end to 127.0.0.(2 + source % 250), so tests can
// appear as many clients; receiveBuffer > 0 sets SO_RCVBUF before connecting.
int connectLoopback(int port, int source = -1, int receiveBuffer = 0);

// ---------------------------------------------------------------------------
// A blocking HTTP/1.1 client over loopback, one connection per object.

struct HttpReply {
  int status = 0;
  std::map<std::string, std::string> headers;  // lowercase names
  std::string body;
  Json json() const { return parsed(body); }
};

class HttpClient {
 public:
  explicit HttpClient(int port);
  ~HttpClient();
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  bool connected() const { return fd_ >= 0; }
  HttpReply request(const std::string& method, const std::string& target, const std::string& body = "",
                    const std::string& token = "", const std::map<std::string, std::string>& extra = {});
  HttpReply get(const std::string& target, const std::string& token = "") { return request("GET", target, "", token); }
  HttpReply post(const std::string& target, const std::string& body = "", const std::string& token = "") {
    return request("POST", target, body, token);
  }
  // Sends raw bytes and reads one reply (for malformed requests).
  HttpReply raw(const std::string& bytes);
  // Sends a request and reads only the head; the body then comes by readChunk() (NDJSON streams).
  HttpReply openStream(const std::string& target, const std::string& token = "");
  // One chunk of a chunked body ("" on close or timeout).
  std::string readChunk(int timeoutMs = 5000);
  // WebSocket: upgrades this connection; then sendText / readText.
  bool upgrade(const std::string& target, int* status = nullptr);
  bool sendText(const std::string& text);
  std::string readText(int timeoutMs = 5000);
  void close();

 private:
  bool readMore(int timeoutMs);
  bool readHead(HttpReply& r, int timeoutMs);
  bool readBody(HttpReply& r, int timeoutMs);
  bool sendAll(const std::string& data);
  int fd_ = -1;
  std::string buf_;
};

}  // namespace acedrex::server::testing
