// libFuzzer target: the server's whole request path without sockets —
// target parsing, routing, the API handler (games created, moves, draws,
// takebacks, streams' resolution), WebSocket messages and static files.
//
// Input: four lines: method, target, Authorization header, then the body
// (the rest). "@G" in the target or a header stands for a real game's id and
// "@T" / "@U" for its two seat tokens, so the fuzzer reaches the paths that
// need them.
// Checks: every JSON reply parses; no reply but a game's creation carries a
// seat token; no static reply carries a byte of the file planted outside the
// web root; a game changes only through a request that holds its token.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "core/variant/variant.h"
#include "server/app/api.h"
#include "server/app/json.h"
#include "server/app/lobby.h"
#include "server/app/static_files.h"
#include "server/app/store.h"

namespace {

using namespace acedrex;
using namespace acedrex::server;

[[noreturn]] void fail(const std::string& what, const std::string& detail) {
  std::fprintf(stderr, "request_fuzz: %s\n  %s\n", what.c_str(), detail.c_str());
  std::abort();
}

struct World {
  World() : registry(VariantRegistry::withEmbedded()) {
    LobbyConfig config;
    config.startThreads = false;
    config.limits.gamesPerClientPerMinute = 0;
    config.limits.maxOpenGames = 64;
    lobby = std::make_unique<Lobby>(registry, store, [](std::shared_ptr<const Rules>, int, uint64_t) {
      return std::unique_ptr<engine::Bot>();  // the room plays the first legal move for a seat with no bot
    }, config);
    api = std::make_unique<Api>(*lobby, [](int level) { return "level " + std::to_string(level); });
    CreateRequest two;
    two.variant = "shako";
    two.seats = {SeatPlan{}, SeatPlan{}};
    CreatedGame created;
    if (lobby->create(two, &created)) fail("setup", "cannot create a game");
    id = created.id;
    tokens = created.tokens;
    top = std::filesystem::temp_directory_path() / ("acedrex-request-fuzz-" + std::to_string(getpid()));
    std::filesystem::create_directories(top / "web" / "js");
    std::ofstream(top / "web" / "index.html") << "index";
    std::ofstream(top / "web" / "js" / "a.js") << "js";
    std::ofstream(top / "secret.txt") << "PLANTED-SECRET-7f3a";
    web.emplace(*WebRoot::directory(top / "web"));
    embedded.emplace(WebRoot::embedded());
  }
  VariantRegistry registry;
  MemoryStore store;
  std::unique_ptr<Lobby> lobby;
  std::unique_ptr<Api> api;
  std::string id;
  std::vector<std::string> tokens;
  std::filesystem::path top;
  std::optional<WebRoot> web, embedded;
};

World& world() {
  static World w;
  return w;
}

std::string substitute(std::string s, const World& w) {
  auto replaceAll = [&](const std::string& from, const std::string& to) {
    for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) s.replace(at, from.size(), to);
  };
  replaceAll("@G", w.id);
  replaceAll("@T", w.tokens[0]);
  replaceAll("@U", w.tokens[1]);
  return s;
}

std::string line(std::string_view& rest) {
  const size_t nl = rest.find('\n');
  std::string out(rest.substr(0, nl));
  rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
  return out;
}

// Whether `s` is well-formed UTF-8 (no overlong forms, surrogates or values past U+10FFFF).
bool validUtf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    int n = 0;
    uint32_t cp = 0;
    if (c < 0x80) n = 0, cp = c;
    else if ((c & 0xE0) == 0xC0) n = 1, cp = c & 0x1F;
    else if ((c & 0xF0) == 0xE0) n = 2, cp = c & 0x0F;
    else if ((c & 0xF8) == 0xF0) n = 3, cp = c & 0x07;
    else return false;
    for (int k = 1; k <= n; ++k) {
      if (i + static_cast<size_t>(k) >= s.size()) return false;
      const auto d = static_cast<unsigned char>(s[i + static_cast<size_t>(k)]);
      if ((d & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (d & 0x3F);
    }
    if ((n == 1 && cp < 0x80) || (n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) || cp > 0x10FFFF ||
        (cp >= 0xD800 && cp <= 0xDFFF))
      return false;
    i += static_cast<size_t>(n) + 1;
  }
  return true;
}

void checkJson(const ApiResponse& r, const std::string& context) {
  if (r.contentType.rfind("application/json", 0) != 0) return;
  if (!parseJson(r.body, 64).ok()) fail("reply is not JSON", context + " -> " + r.body);
  if (!validUtf8(r.body)) fail("reply is not UTF-8", context + " -> " + r.body);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  World& w = world();
  std::string_view rest(reinterpret_cast<const char*>(data), size);
  ApiRequest req;
  req.method = line(rest);
  req.target = substitute(line(rest), w);
  req.authorization = substitute(line(rest), w);
  req.body = substitute(std::string(rest), w);
  req.client = "fuzz";
  const std::string context = req.method + " " + req.target;
  auto room = w.lobby->find(w.id);
  const int64_t before = room ? room->version() : -1;

  const ApiResponse r = w.api->handle(req);
  checkJson(r, context);
  const bool creates = req.method == "POST" && r.status == 201;
  // A token may come back only to whom it was sent by (an echo of the request).
  const std::string sent = req.target + "\n" + req.authorization + "\n" + req.body;
  if (!creates)
    for (const auto& t : w.tokens)
      if (r.body.find(t) != std::string::npos && sent.find(t) == std::string::npos)
        fail("a seat token left the server", context + " -> " + r.body);
  const bool holdsToken = req.target.find(w.tokens[0]) != std::string::npos ||
                          req.target.find(w.tokens[1]) != std::string::npos ||
                          req.authorization.find(w.tokens[0]) != std::string::npos ||
                          req.authorization.find(w.tokens[1]) != std::string::npos;
  if (room && !holdsToken && room->version() != before) fail("a game changed without its token", context);

  // The same target as a stream or WebSocket, and the body as a socket message.
  for (auto kind : {Api::Kind::kStream, Api::Kind::kWebSocket}) {
    if (!w.api->matches(req.target, kind)) continue;
    ApiResponse err;
    Subscription sub = w.api->resolve(req.target, req.authorization, &err);
    if (!sub.room) {
      checkJson(err, context);
      continue;
    }
    const std::string reply = w.api->onSocketMessage(*sub.room, sub.token, req.body);
    if (!reply.empty() && (!parseJson(reply, 64).ok() || !validUtf8(reply))) fail("socket reply is not JSON", reply);
  }

  // Static files, from a folder with a secret beside it and from the binary.
  for (const WebRoot* root : {&*w.web, &*w.embedded}) {
    const StaticReply s = root->get(req.target);
    if (s.body && s.body->find("PLANTED-SECRET") != std::string::npos) fail("a file outside the web root", context);
    if (s.status == 200 && !s.body) fail("200 without a body", context);
  }
  for (int i = 0; i < 4 && w.lobby->runOneBotJob(); ++i) {
  }
  return 0;
}
