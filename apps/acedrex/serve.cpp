// `acedrex serve [--port N] [--db FILE] [--web DIR] ...`: wires the store, the
// variants, the bots, the lobby, the API and the network layer, and runs
// until SIGINT or SIGTERM.
#include "args.h"

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

namespace {
const std::vector<Flag> kServeFlags = {
    Flag::number("port", "N", "the TCP port, 0 to 65535; 0 picks a free one (default 8080)", 0, 65535, Flag::kTakes),
    {"address", Flag::kValue, "IP", "the address to listen on (default 0.0.0.0)"},
    {"db", Flag::kValue, "FILE|URI",
     "the SQLite database file (default acedrex.db), or postgresql://USER@HOST:PORT/DBNAME to share one "
     "PostgreSQL database between several processes (docs/deploy.md)"},
    {"durable", Flag::kSwitch, "", "SQLite synchronous=FULL: an fsync per move"},
    {"web", Flag::kValue, "DIR", "serve the front end from DIR instead of the copy inside the binary"},
    {"variants", Flag::kValue, "DIR", "load every *.variant file of DIR as well"},
    Flag::number("threads", "N", "I/O threads, 1 to 256 (default: the cores, at most 4)", 1, 256, Flag::kTakes),
    Flag::number("bot-threads", "N", "threads that run bot searches, 1 to 256 (default: the cores less one)", 1, 256,
                 Flag::kTakes),
    Flag::number("bot-ms", "MS", "a time limit per bot move in games without clocks, 1 to 600000", 1, 600000,
                 Flag::kTakes),
    Flag::number("max-games-per-minute", "N",
                 "games one client address may create a minute, 0 (no limit) to 100000 (default 20)", 1, 100000,
                 Flag::kTakes, true),
    Flag::number(
        "max-bot-games-per-client", "N",
        "unfinished games of bots only one client address may have created, 0 (no limit) to 100000 (default 3)", 1,
        100000, Flag::kTakes, true),
    Flag::number("max-open-games", "N", "unfinished games in all, 1 to 10000000 (default 2000)", 1, 10000000,
                 Flag::kTakes),
    Flag::number("max-requests-per-second", "N",
                 "HTTP requests a second per client address, sustained, 0 (no limit) to 1000000 (default 50)", 1,
                 1000000, Flag::kTakes, true),
    Flag::number("request-burst", "N", "requests a client address may send at once, 1 to 1000000 (default 200)", 1,
                 1000000, Flag::kTakes),
    Flag::number("max-connections-per-client", "N",
                 "open connections per client address, 0 (no limit) to 1000000 (default 64)", 1, 1000000, Flag::kTakes,
                 true),
    Flag::number("max-connections", "N", "open connections in all, 1 to 1000000 (default 4096)", 1, 1000000,
                 Flag::kTakes),
    Flag::number("max-streams-per-client", "N",
                 "WebSockets and NDJSON streams per client address, 0 (no limit) to 1000000 (default 16)", 1, 1000000,
                 Flag::kTakes, true),
    Flag::number("max-streams", "N", "WebSockets and NDJSON streams in all, 1 to 1000000 (default 2048)", 1, 1000000,
                 Flag::kTakes),
    Flag::number(
        "max-queue-bytes", "BYTES",
        "bytes queued for one slow stream before it is cut, 0 (no limit) or 1024 to 1073741824 (default 1048576)", 1024,
        1ULL << 30, Flag::kTakes, true),
    Flag::number("idle-game-minutes", "MIN",
                 "unfinished games untouched this long leave memory, 1 to 525600 (default 30)", 1, 525600,
                 Flag::kTakes),
    Flag::number("abort-first-move-minutes", "MIN",
                 "a human seat that has not made its first move this long into its turn aborts the game, 0 (never) to "
                 "525600 (default 10)",
                 1, 525600, Flag::kTakes, true),
    Flag::number("abort-absent-minutes", "MIN",
                 "no human seat connected or moving this long aborts the game, 0 (never) to 525600 (default 60)", 1,
                 525600, Flag::kTakes, true),
    {"log-level", Flag::kValue, "LEVEL", "trace, debug, info, warn, error or off (default info)"},
    {"access-log", Flag::kValue, "FILE", "the access log: a file, - for standard error, or off (default -)"},
    {"trust-proxy", Flag::kSwitch, "", "behind a TLS proxy: the client is the last X-Forwarded-For address"},
    {"public-origin", Flag::kValue, "URL",
     "the site's address as browsers see it, e.g. https://acedrex.example: requests from it are not cross-site, "
     "and https makes the session cookie Secure"},
};
}  // namespace

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

// The number flag `name` into `out` when it was given (the parser has checked its range).
template <class T>
void takeNumber(const Args& args, const std::string& name, T& out) {
  if (args.numbers.count(name)) out = static_cast<T>(args.number(name, 0));
}

}  // namespace

namespace {

int cmdServe(const Args& args) {
  server::net::HttpConfig http;
  server::LobbyConfig lobbyConfig;
  server::ServerLimits limits;
  std::string db = "acedrex.db";
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  http.threads = std::min(4, cores);
  lobbyConfig.botThreads = std::max(1, cores - 1);

  takeNumber(args, "port", http.port);
  takeNumber(args, "threads", http.threads);
  takeNumber(args, "bot-threads", lobbyConfig.botThreads);
  takeNumber(args, "bot-ms", lobbyConfig.botMoveMs);
  takeNumber(args, "max-games-per-minute", limits.gamesPerClientPerMinute);
  takeNumber(args, "max-bot-games-per-client", limits.botGamesPerClient);
  takeNumber(args, "max-open-games", limits.maxOpenGames);
  takeNumber(args, "max-requests-per-second", limits.requestsPerClientPerSecond);
  takeNumber(args, "request-burst", limits.requestBurst);
  takeNumber(args, "max-connections-per-client", limits.connectionsPerClient);
  takeNumber(args, "max-connections", limits.maxConnections);
  takeNumber(args, "max-streams-per-client", limits.streamsPerClient);
  takeNumber(args, "max-streams", limits.maxStreams);
  takeNumber(args, "max-queue-bytes", limits.queueBytesPerClient);
  takeNumber(args, "idle-game-minutes", limits.idleGameMinutes);
  takeNumber(args, "abort-first-move-minutes", limits.abortFirstMoveMinutes);
  takeNumber(args, "abort-absent-minutes", limits.abortAbsentMinutes);
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
  server::AccountsConfig accountsConfig;
  if (args.has("public-origin")) accountsConfig.publicOrigin = args.value("public-origin");
  if (!accountsConfig.publicOrigin.empty() && accountsConfig.publicOrigin.rfind("http://", 0) != 0 &&
      accountsConfig.publicOrigin.rfind("https://", 0) != 0)
    return fail("--public-origin takes http://HOST[:PORT] or https://HOST[:PORT]");
  server::Accounts accounts(**store, accountsConfig);
  accounts.prepare();
  server::Api api(lobby, [](int level) { return engine::describeLevel(level); }, &accounts);
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

}  // namespace

Command serveCommand() {
  return {"serve", "The web server: page, JSON API, WebSockets (see docs/api.md).", kServeFlags, "", "", cmdServe};
}

}  // namespace acedrex::cli
