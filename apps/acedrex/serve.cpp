// `acedrex serve [--port N] [--db FILE] [--web DIR] ...`: wires the store, the
// variants, the bots, the lobby, the API and the network layer, and runs
// until SIGINT or SIGTERM.
#include "serve.h"

#include <cstdio>
#include <iostream>
#include <thread>

#include "core/variant.h"
#include "engine/bot.h"
#include "server/app/api.h"
#include "server/app/lobby.h"
#include "server/app/store.h"
#include "server/net/server.h"

namespace acedrex::cli {

const char* kServeUsage =
    "  serve [--port 8080] [--db acedrex.db] [--web web] [--address 0.0.0.0] [--threads N] [--bot-threads N]\n"
    "        [--bot-ms MS] [--durable] [--variants DIR]   the web server: page, JSON API, WebSockets\n";

namespace {

int serveFail(const std::string& msg) {
  std::cerr << "error: " << msg << "\n";
  return 2;
}

bool parseInt(const std::string& s, int lo, int hi, int& out) {
  if (s.empty() || s.size() > 9 || s.find_first_not_of("0123456789") != std::string::npos) return false;
  const int v = std::stoi(s);
  if (v < lo || v > hi) return false;
  out = v;
  return true;
}

}  // namespace

int cmdServe(const std::vector<std::string>& args) {
  server::net::HttpConfig http;
  server::LobbyConfig lobbyConfig;
  std::string db = "acedrex.db";
  std::string variantsDir;
  bool durable = false;
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  http.threads = std::min(4, cores);
  lobbyConfig.botThreads = std::max(1, cores - 1);
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](std::string& out) {
      if (i + 1 >= args.size()) return false;
      out = args[++i];
      return true;
    };
    std::string v;
    if (a == "--durable") {
      durable = true;
    } else if (a == "--port") {
      if (!value(v) || !parseInt(v, 0, 65535, http.port)) return serveFail("--port takes a number from 0 to 65535");
    } else if (a == "--db") {
      if (!value(db) || db.empty()) return serveFail("--db takes a file name");
    } else if (a == "--web") {
      if (!value(http.webDir)) return serveFail("--web takes a directory");
    } else if (a == "--address") {
      if (!value(http.address)) return serveFail("--address takes an IP address");
    } else if (a == "--threads") {
      if (!value(v) || !parseInt(v, 1, 256, http.threads)) return serveFail("--threads takes a number from 1 to 256");
    } else if (a == "--bot-threads") {
      if (!value(v) || !parseInt(v, 1, 256, lobbyConfig.botThreads))
        return serveFail("--bot-threads takes a number from 1 to 256");
    } else if (a == "--bot-ms") {
      if (!value(v) || !parseInt(v, 1, 600000, lobbyConfig.botMoveMs))
        return serveFail("--bot-ms takes milliseconds from 1 to 600000");
    } else if (a == "--variants") {
      if (!value(variantsDir)) return serveFail("--variants takes a directory");
    } else {
      return serveFail("unknown serve flag " + a + "\nusage:\n" + kServeUsage);
    }
  }

  VariantRegistry registry = VariantRegistry::withEmbedded();
  if (!variantsDir.empty())
    if (auto s = registry.loadDirectory(variantsDir); !s.ok()) return serveFail(s.error().text());
  auto store = server::openSqliteStore(db, durable);
  if (!store.ok()) return serveFail(store.error().text());

  server::BotFactory bots = [](std::shared_ptr<const Rules> rules, int level, uint64_t seed) {
    return engine::makeBot(std::move(rules), level, seed);
  };
  server::Lobby lobby(registry, **store, bots, lobbyConfig);
  server::Api api(lobby, [](int level) { return engine::describeLevel(level); });
  server::net::HttpServer httpServer(api, http);
  auto port = httpServer.start();
  if (!port.ok()) return serveFail(port.error().text());
  auto loaded = lobby.loadFromStore();
  if (!loaded.ok()) return serveFail(loaded.error().text());
  lobby.start();
  std::printf("acedrex serve: listening on http://%s:%d/  (db %s, %d unfinished games resumed, web %s)\n",
              http.address == "0.0.0.0" ? "localhost" : http.address.c_str(), *port, db.c_str(), *loaded,
              httpServer.webDescription().c_str());
  std::printf("port %d\n", *port);
  std::fflush(stdout);
  httpServer.run();
  lobby.stop();
  std::printf("acedrex serve: stopped\n");
  return 0;
}

}  // namespace acedrex::cli
