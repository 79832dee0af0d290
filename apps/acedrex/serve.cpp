// `acedrex serve [--port N] [--db FILE] [--web DIR] ...`: wires the store, the
// variants, the bots, the lobby, the API and the network layer, and runs
// until SIGINT or SIGTERM.
#include "serve.h"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <thread>

#include "core/variant/variant.h"
#include "engine/bot.h"
#include "server/app/api.h"
#include "server/app/lobby.h"
#include "server/app/log.h"
#include "server/app/pg_store.h"
#include "server/app/store.h"
#include "server/net/server.h"

namespace acedrex::cli {

const std::vector<Flag> kServeFlags = {
    {"port", Flag::kValue, "N", "the TCP port, 0 to 65535; 0 picks a free one (default 8080)"},
    {"address", Flag::kValue, "IP", "the address to listen on (default 0.0.0.0)"},
    {"db", Flag::kValue, "FILE|URI",
     "the SQLite database file (default acedrex.db), or postgresql://USER@HOST:PORT/DBNAME to share one "
     "PostgreSQL database between several processes (docs/deploy.md)"},
    {"durable", Flag::kSwitch, "", "SQLite synchronous=FULL: an fsync per move"},
    {"web", Flag::kValue, "DIR", "serve the front end from DIR instead of the copy inside the binary"},
    {"variants", Flag::kValue, "DIR", "load every *.variant file of DIR as well"},
    {"threads", Flag::kValue, "N", "I/O threads, 1 to 256 (default: the cores, at most 4)"},
    {"bot-threads", Flag::kValue, "N", "threads that run bot searches, 1 to 256 (default: the cores less one)"},
    {"bot-ms", Flag::kValue, "MS", "a time limit per bot move in games without clocks, 1 to 600000"},
    {"max-games-per-minute", Flag::kValue, "N",
     "games one client address may create a minute, 0 (no limit) to 100000 (default 20)"},
    {"max-bot-games-per-client", Flag::kValue, "N",
     "unfinished games of bots only one client address may have created, 0 (no limit) to 100000 (default 3)"},
    {"max-open-games", Flag::kValue, "N", "unfinished games in all, 1 to 10000000 (default 2000)"},
    {"max-requests-per-second", Flag::kValue, "N",
     "HTTP requests a second per client address, sustained, 0 (no limit) to 1000000 (default 50)"},
    {"request-burst", Flag::kValue, "N", "requests a client address may send at once, 1 to 1000000 (default 200)"},
    {"max-connections-per-client", Flag::kValue, "N",
     "open connections per client address, 0 (no limit) to 1000000 (default 64)"},
    {"max-connections", Flag::kValue, "N", "open connections in all, 1 to 1000000 (default 4096)"},
    {"max-streams-per-client", Flag::kValue, "N",
     "WebSockets and NDJSON streams per client address, 0 (no limit) to 1000000 (default 16)"},
    {"max-streams", Flag::kValue, "N", "WebSockets and NDJSON streams in all, 1 to 1000000 (default 2048)"},
    {"max-queue-bytes", Flag::kValue, "BYTES",
     "bytes queued for one slow stream before it is cut, 0 (no limit) or 1024 to 1073741824 (default 1048576)"},
    {"idle-game-minutes", Flag::kValue, "MIN",
     "unfinished games untouched this long leave memory, 1 to 525600 (default 30)"},
    {"abort-first-move-minutes", Flag::kValue, "MIN",
     "a human seat that has not made its first move this long into its turn aborts the game, 0 (never) to 525600 (default 10)"},
    {"abort-absent-minutes", Flag::kValue, "MIN",
     "no human seat connected or moving this long aborts the game, 0 (never) to 525600 (default 60)"},
    {"log-level", Flag::kValue, "LEVEL", "trace, debug, info, warn, error or off (default info)"},
    {"access-log", Flag::kValue, "FILE", "the access log: a file, - for standard error, or off (default -)"},
    {"trust-proxy", Flag::kSwitch, "", "behind a TLS proxy: the client is the last X-Forwarded-For address"},
};

const char* kServeUsage =
    "  serve [--port 8080] [--address 0.0.0.0] [--db acedrex.db] [--durable] [--web DIR] [--variants DIR]\n"
    "        [--threads N] [--bot-threads N] [--bot-ms MS] [--log-level info] [--access-log -|FILE|off]\n"
    "        [--max-games-per-minute N] [--max-bot-games-per-client N] [--max-open-games N]\n"
    "        [--max-requests-per-second N] [--request-burst N]\n"
    "        [--max-connections-per-client N] [--max-connections N] [--max-streams-per-client N]\n"
    "        [--max-streams N] [--max-queue-bytes N] [--idle-game-minutes N] [--abort-first-move-minutes N]\n"
    "        [--abort-absent-minutes N] [--trust-proxy]\n"
    "                                         the web server: page, JSON API, WebSockets (see docs/api.md);\n"
    "                                         --db postgresql://USER@HOST:PORT/DBNAME shares one PostgreSQL database\n"
    "                                         between several processes (docs/deploy.md)\n"
    "  migrate --from acedrex.db --to postgresql://...\n"
    "                                         copy every game of a SQLite database into PostgreSQL, verified\n";

namespace {

// Reads the number flag `name` into `out` when it was given: a whole number
// from lo to hi, or 0 as well when `zeroIsOff` (a per-client limit turned off).
template <class T>
bool intFlag(const Args& args, const std::string& name, long long lo, long long hi, bool zeroIsOff, T& out,
             std::string& err) {
  if (!args.has(name)) return true;
  const std::string& s = args.value(name);
  long long v = -1;
  if (!s.empty() && s.size() <= 12 && s.find_first_not_of("0123456789") == std::string::npos) v = std::stoll(s);
  if ((v >= lo && v <= hi) || (zeroIsOff && v == 0)) {
    out = static_cast<T>(v);
    return true;
  }
  err = "--" + name + " takes " + (zeroIsOff ? "0 (no limit) or " : "") + "a number from " + std::to_string(lo) +
        " to " + std::to_string(hi) + ", not \"" + s + "\"";
  return false;
}

}  // namespace

int cmdServe(const Args& args) {
  server::net::HttpConfig http;
  server::LobbyConfig lobbyConfig;
  server::ServerLimits limits;
  std::string db = "acedrex.db";
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  http.threads = std::min(4, cores);
  lobbyConfig.botThreads = std::max(1, cores - 1);

  std::string err;
  const bool numbersOk =
      intFlag(args, "port", 0, 65535, false, http.port, err) &&
      intFlag(args, "threads", 1, 256, false, http.threads, err) &&
      intFlag(args, "bot-threads", 1, 256, false, lobbyConfig.botThreads, err) &&
      intFlag(args, "bot-ms", 1, 600000, false, lobbyConfig.botMoveMs, err) &&
      intFlag(args, "max-games-per-minute", 1, 100000, true, limits.gamesPerClientPerMinute, err) &&
      intFlag(args, "max-bot-games-per-client", 1, 100000, true, limits.botGamesPerClient, err) &&
      intFlag(args, "max-open-games", 1, 10000000, false, limits.maxOpenGames, err) &&
      intFlag(args, "max-requests-per-second", 1, 1000000, true, limits.requestsPerClientPerSecond, err) &&
      intFlag(args, "request-burst", 1, 1000000, false, limits.requestBurst, err) &&
      intFlag(args, "max-connections-per-client", 1, 1000000, true, limits.connectionsPerClient, err) &&
      intFlag(args, "max-connections", 1, 1000000, false, limits.maxConnections, err) &&
      intFlag(args, "max-streams-per-client", 1, 1000000, true, limits.streamsPerClient, err) &&
      intFlag(args, "max-streams", 1, 1000000, false, limits.maxStreams, err) &&
      intFlag(args, "max-queue-bytes", 1024, 1LL << 30, true, limits.queueBytesPerClient, err) &&
      intFlag(args, "idle-game-minutes", 1, 525600, false, limits.idleGameMinutes, err) &&
      intFlag(args, "abort-first-move-minutes", 1, 525600, true, limits.abortFirstMoveMinutes, err) &&
      intFlag(args, "abort-absent-minutes", 1, 525600, true, limits.abortAbsentMinutes, err);
  if (!numbersOk) return fail(err);
  if (args.has("db")) db = args.value("db");
  if (db.empty()) return fail("--db takes a file name or a postgresql:// URI");
  if (args.has("address")) http.address = args.value("address");
  if (http.address.empty()) return fail("--address takes an IP address");
  if (args.has("web")) http.webDir = args.value("web");
  if (args.has("log-level")) http.logLevel = args.value("log-level");
  const auto level = server::log::parseLevel(http.logLevel);
  if (!level.ok()) return fail("--log-level takes trace, debug, info, warn, error or off, not \"" + http.logLevel + "\"");
  if (args.has("access-log")) http.accessLog = args.value("access-log");
  if (http.accessLog.empty()) return fail("--access-log takes a file name, - (standard error) or off");
  http.trustProxy = args.on("trust-proxy");
  lobbyConfig.limits = limits;
  http.limits = limits;
  if (auto s = server::log::setup(*level, http.accessLog); !s.ok()) return fail(s.error().text());

  VariantRegistry registry = VariantRegistry::withEmbedded();
  if (args.has("variants"))
    if (auto s = registry.loadDirectory(args.value("variants")); !s.ok()) return fail(s.error().text());
  auto store = server::isPostgresUri(db) ? server::openPgStore(db) : server::openSqliteStore(db, args.on("durable"));
  if (!store.ok()) return fail(store.error().text());

  server::BotFactory bots = [](std::shared_ptr<const Rules> rules, int level, uint64_t seed) {
    return engine::makeBot(std::move(rules), level, seed);
  };
  server::Lobby lobby(registry, **store, bots, lobbyConfig);
  server::Api api(lobby, [](int level) { return engine::describeLevel(level); });
  server::net::HttpServer httpServer(api, http);
  auto port = httpServer.start();
  if (!port.ok()) return fail(port.error().text());
  auto loaded = lobby.loadFromStore();
  if (!loaded.ok()) return fail(loaded.error().text());
  lobby.start();
  std::printf("acedrex serve: listening on http://%s:%d/  (db %s, %d unfinished games resumed, web %s)\n",
              http.address == "0.0.0.0" ? "localhost" : http.address.c_str(), *port,
              server::isPostgresUri(db) ? "PostgreSQL" : db.c_str(), *loaded,
              httpServer.webDescription().c_str());
  std::printf("port %d\n", *port);
  std::fflush(stdout);
  httpServer.run();
  lobby.stop();
  std::printf("acedrex serve: stopped\n");
  return 0;
}

}  // namespace acedrex::cli
