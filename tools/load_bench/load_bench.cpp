// load_bench: how many games and moves per second an `acedrex serve`
// sustains over loopback, and the latency of a move's acknowledgement.
//
//   load_bench --server build/acedrex [--games 200] [--plies 40] [--clients 16] [--durable]
//   load_bench --port 8080 ...        (a server that is already running)
//   load_bench --server build/acedrex --db postgresql://... --servers 2 --spectators 10000
//                                     (several processes on one PostgreSQL; clients alternate between them)
//
// With --spectators N, N WebSockets (spread over the servers, each from its
// own loopback address) watch one game; moves are then made through the first
// server, and the fan-out time of a move is from sending it to the last
// spectator having the new state (and each delivery's time is kept too).
// The servers' memory (VmRSS) before and after the spectators connect gives
// the memory per connection.
//
// Each client thread owns games (hot-seat, so one token moves every seat)
// and plays random legal moves taken from the previous reply: the time of
// one POST /api/game/{id}/move/{m} from sending to the full reply is one
// acknowledgement (the move is committed to SQLite before the reply).
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "test_support.h"

using acedrex::server::Json;
using acedrex::server::testing::HttpClient;

namespace {

using Clock = std::chrono::steady_clock;

struct Options {
  std::string server;
  int port = 0;
  int games = 200;
  int plies = 40;
  int clients = 16;
  bool durable = false;
  std::string variant = "shako";
  std::string db;       // --db: passed to the servers (a postgresql:// URI for several)
  int servers = 1;      // with --server: how many processes to start
  int spectators = 0;   // WebSocket spectators of one game
  int fanoutMoves = 40; // moves measured for the fan-out
};

pid_t startServer(const Options& o, const std::string& db, int& port) {
  int out[2];
  if (pipe(out) != 0) return -1;
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(out[1], STDOUT_FILENO);
    ::close(out[0]);
    ::close(out[1]);
    std::vector<std::string> args{o.server, "serve", "--port", "0", "--address", "127.0.0.1", "--db", db,
                                  "--access-log", "off", "--max-requests-per-second", "0", "--max-connections",
                                  "1000000", "--max-streams", "1000000", "--max-connections-per-client", "0",
                                  "--max-streams-per-client", "0", "--max-open-games", "10000000",
                                  "--max-games-per-minute", "0"};
    if (o.durable) args.push_back("--durable");
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(o.server.c_str(), argv.data());
    _exit(127);
  }
  ::close(out[1]);
  FILE* f = fdopen(out[0], "r");
  char line[512];
  while (f && std::fgets(line, sizeof line, f))
    if (std::sscanf(line, "port %d", &port) == 1) break;
  return pid;
}

long rssKb(pid_t pid) {
  std::ifstream f("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("VmRSS:", 0) == 0) return std::atol(line.c_str() + 6);
  return 0;
}

// A WebSocket spectator on a raw socket: the handshake is sent by
// openSpectators(), then feed() takes bytes and says when a complete text
// message ends with the version wanted.
struct Spectator {
  int fd = -1;
  std::string in;      // unparsed bytes
  std::string message; // the text message being reassembled
  int64_t lastV = 0;   // the version of the last complete message
  bool upgraded = false;
  void feed() {
    if (!upgraded) {
      const size_t end = in.find("\r\n\r\n");
      if (end == std::string::npos) return;
      upgraded = in.compare(0, 12, "HTTP/1.1 101") == 0;
      in.erase(0, end + 4);
      if (!upgraded) return;
    }
    for (;;) {
      if (in.size() < 2) return;
      const unsigned char b0 = static_cast<unsigned char>(in[0]), b1 = static_cast<unsigned char>(in[1]);
      size_t len = b1 & 0x7F, off = 2;
      if (len == 126) {
        if (in.size() < 4) return;
        len = (static_cast<unsigned char>(in[2]) << 8) | static_cast<unsigned char>(in[3]);
        off = 4;
      } else if (len == 127) {
        if (in.size() < 10) return;
        len = 0;
        for (int i = 0; i < 8; ++i) len = (len << 8) | static_cast<unsigned char>(in[2 + static_cast<size_t>(i)]);
        off = 10;
      }
      if (in.size() < off + len) return;
      const int opcode = b0 & 0x0F;
      if (opcode == 0 || opcode == 1) message.append(in, off, len);
      in.erase(0, off + len);
      if ((opcode == 0 || opcode == 1) && (b0 & 0x80)) {
        const size_t at = message.rfind(",\"v\":");
        if (at != std::string::npos) lastV = std::atoll(message.c_str() + at + 5);
        message.clear();
      }
    }
  }
};

bool readSome(Spectator& s) {
  char buf[65536];
  const ssize_t n = ::recv(s.fd, buf, sizeof buf, MSG_DONTWAIT);
  if (n <= 0) return false;
  s.in.append(buf, static_cast<size_t>(n));
  s.feed();
  return true;
}

double percentile(std::vector<double>& v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t i = std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size())));
  return v[i];
}

// The legal moves of a state reply. Only the "legal" object is parsed, so
// that the client spends little time per move and the server is measured.
std::vector<std::string> legalOf(const std::string& state) {
  std::vector<std::string> out;
  const size_t at = state.find("\"legal\":{");
  if (at == std::string::npos) return out;
  const size_t begin = at + 8;
  const size_t end = state.find('}', begin);
  if (end == std::string::npos) return out;
  auto legal = acedrex::server::parseJson(std::string_view(state).substr(begin, end - begin + 1));
  if (!legal.ok()) return out;
  for (const auto& [from, list] : legal->members())
    for (const auto& m : list.items()) out.push_back(m.asString());
  return out;
}

// Phase 3: N WebSocket spectators of one game, spread over the servers; moves
// through the first server; the time until every spectator has each new state.
void spectate(const Options& o, const std::vector<int>& ports, const std::vector<pid_t>& pids, std::atomic<int>& errors) {
  HttpClient http(ports.front());
  auto created = http.post("/api/game", "{\"variant\":\"" + o.variant + "\",\"hotSeat\":true}").json();
  if (!created.get("id")) {
    ++errors;
    return;
  }
  const std::string id = created.get("id")->asString();
  const std::string token = created.get("seats")->items()[0].get("token")->asString();
  long rssBefore = 0;
  for (pid_t p : pids) rssBefore += rssKb(p);
  std::vector<Spectator> specs(static_cast<size_t>(o.spectators));
  const std::string request = "GET /ws/game/" + id +
                              " HTTP/1.1\r\nHost: bench\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                              "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";
  const auto c0 = Clock::now();
  for (size_t i = 0; i < specs.size(); ++i) {
    specs[i].fd = acedrex::server::testing::connectLoopback(ports[i % ports.size()], static_cast<int>(i));
    if (specs[i].fd < 0 || ::send(specs[i].fd, request.data(), request.size(), MSG_NOSIGNAL) <= 0) ++errors;
  }
  std::vector<pollfd> pfds(specs.size());
  for (size_t i = 0; i < specs.size(); ++i) pfds[i] = pollfd{specs[i].fd, POLLIN, 0};
  // Waits until every spectator has a message with version >= v (or 30 s);
  // deliveries: the time each one got it, from t0.
  auto waitAll = [&](int64_t v, Clock::time_point t0, std::vector<double>* deliveries) {
    size_t have = 0;
    std::vector<char> got(specs.size(), 0);
    for (size_t i = 0; i < specs.size(); ++i)
      if (specs[i].lastV >= v) got[i] = 1, ++have;
    while (have < specs.size() && Clock::now() - t0 < std::chrono::seconds(30)) {
      if (poll(pfds.data(), pfds.size(), 100) <= 0) continue;
      for (size_t i = 0; i < specs.size(); ++i) {
        if (!(pfds[i].revents & POLLIN)) continue;
        while (readSome(specs[i])) {
        }
        if (!got[i] && specs[i].lastV >= v) {
          got[i] = 1;
          ++have;
          if (deliveries) deliveries->push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
        }
      }
    }
    return have;
  };
  const size_t connected = waitAll(1, c0, nullptr);
  const double connectSec = std::chrono::duration<double>(Clock::now() - c0).count();
  std::vector<double> fanout, deliveries;
  std::string state = http.get("/api/game/" + id).body;
  std::mt19937 rng(12345);
  for (int m = 0; m < o.fanoutMoves; ++m) {
    auto legal = legalOf(state);
    if (legal.empty()) break;
    const auto t0 = Clock::now();
    auto r = http.post("/api/game/" + id + "/move/" + legal[rng() % legal.size()], "", token);
    if (r.status != 200) {
      ++errors;
      break;
    }
    state = std::move(r.body);
    const size_t at = state.rfind("\"v\":");
    const int64_t v = at == std::string::npos ? 0 : std::atoll(state.c_str() + at + 4);
    const size_t have = waitAll(v, t0, &deliveries);
    if (have < specs.size()) ++errors;
    fanout.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
  }
  long rssAfter = 0;  // after the moves: the connections' write buffers have been used
  for (pid_t p : pids) rssAfter += rssKb(p);
  std::printf("spectators        %zu of %d connected in %.2f s (WebSockets on %zu process(es), one game)\n", connected,
              o.spectators, connectSec, ports.size());
  if (!pids.empty())
    std::printf("server memory     %.1f MB before, %.1f MB after the moves: %.1f KB per spectator\n", rssBefore / 1024.0,
                rssAfter / 1024.0, static_cast<double>(rssAfter - rssBefore) / std::max<size_t>(1, connected));
  std::printf("fan-out to all    p50 %.1f ms   p99 %.1f ms   (%zu moves; from the move's POST to the last spectator)\n",
              percentile(fanout, 0.5), percentile(fanout, 0.99), fanout.size());
  std::printf("each delivery     p50 %.1f ms   p99 %.1f ms\n", percentile(deliveries, 0.5),
              percentile(deliveries, 0.99));
  for (auto& s : specs)
    if (s.fd >= 0) ::close(s.fd);
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (a == "--server") o.server = next();
    else if (a == "--port") o.port = std::atoi(next().c_str());
    else if (a == "--games") o.games = std::max(1, std::atoi(next().c_str()));
    else if (a == "--plies") o.plies = std::max(1, std::atoi(next().c_str()));
    else if (a == "--clients") o.clients = std::max(1, std::atoi(next().c_str()));
    else if (a == "--variant") o.variant = next();
    else if (a == "--durable") o.durable = true;
    else if (a == "--db") o.db = next();
    else if (a == "--servers") o.servers = std::max(1, std::atoi(next().c_str()));
    else if (a == "--spectators") o.spectators = std::max(0, std::atoi(next().c_str()));
    else if (a == "--fanout-moves") o.fanoutMoves = std::max(1, std::atoi(next().c_str()));
    else {
      std::fprintf(stderr, "usage: load_bench (--server PATH | --port N) [--games N] [--plies N] [--clients N] "
                           "[--variant V] [--durable] [--db FILE|URI] [--servers N] [--spectators N] "
                           "[--fanout-moves N]\n");
      return 2;
    }
  }
  std::vector<pid_t> pids;
  std::vector<int> ports;
  std::string db;
  const bool ownDb = o.db.empty();
  if (!o.server.empty()) {
    db = ownDb ? (std::filesystem::temp_directory_path() / ("acedrex-bench-" + std::to_string(getpid()) + ".db")).string()
               : o.db;
    if (ownDb) std::filesystem::remove(db);
    for (int i = 0; i < o.servers; ++i) {
      int port = 0;
      pids.push_back(startServer(o, db, port));
      ports.push_back(port);
    }
    o.port = ports.front();
  } else {
    ports.push_back(o.port);
  }
  if (o.port <= 0 || std::find(ports.begin(), ports.end(), 0) != ports.end()) {
    std::fprintf(stderr, "load_bench: no server (give --server PATH or --port N)\n");
    return 2;
  }
  const rlimit files{1 << 20, 1 << 20};
  if (o.spectators > 0 && setrlimit(RLIMIT_NOFILE, &files) != 0) {
    rlimit now{};
    getrlimit(RLIMIT_NOFILE, &now);
    now.rlim_cur = now.rlim_max;
    setrlimit(RLIMIT_NOFILE, &now);
  }

  // Phase 1: create the games.
  std::vector<std::string> ids(static_cast<size_t>(o.games)), tokens(static_cast<size_t>(o.games));
  std::vector<std::string> states(static_cast<size_t>(o.games));
  std::atomic<int> next{0}, errors{0};
  const std::string body = "{\"variant\":\"" + o.variant + "\",\"hotSeat\":true}";
  auto t0 = Clock::now();
  {
    std::vector<std::thread> threads;
    for (int c = 0; c < o.clients; ++c)
      threads.emplace_back([&, c] {
        HttpClient http(ports[static_cast<size_t>(c) % ports.size()]);
        for (int g; (g = next++) < o.games;) {
          auto r = http.post("/api/game", body);
          auto j = r.json();
          if (r.status != 201 || !j.get("id")) {
            ++errors;
            continue;
          }
          ids[static_cast<size_t>(g)] = j.get("id")->asString();
          tokens[static_cast<size_t>(g)] = j.get("seats")->items()[0].get("token")->asString();
          states[static_cast<size_t>(g)] = http.get("/api/game/" + ids[static_cast<size_t>(g)]).body;
        }
      });
    for (auto& t : threads) t.join();
  }
  const double createSec = std::chrono::duration<double>(Clock::now() - t0).count();

  // Phase 2: play.
  std::mutex latM;
  std::vector<double> latencies;
  std::atomic<long> moves{0}, finishedGames{0};
  t0 = Clock::now();
  {
    std::vector<std::thread> threads;
    for (int c = 0; c < o.clients; ++c)
      threads.emplace_back([&, c] {
        HttpClient http(ports[static_cast<size_t>(c) % ports.size()]);
        std::mt19937 rng(static_cast<unsigned>(c) * 7919u + 1);
        std::vector<double> mine;
        std::vector<int> owned;
        for (int g = c; g < o.games; g += o.clients)
          if (!ids[static_cast<size_t>(g)].empty()) owned.push_back(g);
        // Round-robin over the client's games, one move each turn.
        std::vector<int> done(owned.size(), 0);
        bool any = true;
        while (any) {
          any = false;
          for (size_t k = 0; k < owned.size(); ++k) {
            const size_t g = static_cast<size_t>(owned[k]);
            if (done[k] >= o.plies) continue;
            auto legal = legalOf(states[g]);
            if (legal.empty()) {
              done[k] = o.plies;
              ++finishedGames;
              continue;
            }
            const std::string mv = legal[rng() % legal.size()];
            const auto s = Clock::now();
            auto r = http.post("/api/game/" + ids[g] + "/move/" + mv, "", tokens[g]);
            mine.push_back(std::chrono::duration<double, std::milli>(Clock::now() - s).count());
            if (r.status != 200) {
              ++errors;
              done[k] = o.plies;
              continue;
            }
            states[g] = std::move(r.body);
            ++moves;
            if (++done[k] == o.plies) ++finishedGames;
            any = true;
          }
        }
        std::lock_guard lock(latM);
        latencies.insert(latencies.end(), mine.begin(), mine.end());
      });
    for (auto& t : threads) t.join();
  }
  const double playSec = std::chrono::duration<double>(Clock::now() - t0).count();

  std::vector<double> lat = latencies;
  const std::string store = !ownDb && o.db.rfind("postgres", 0) == 0 ? "PostgreSQL"
                            : o.durable                             ? "SQLite synchronous=FULL (--durable)"
                                                                    : "SQLite WAL synchronous=NORMAL";
  std::printf("server load benchmark: %s, %d games x %d plies, %d client threads, %zu server process(es), store %s\n",
              o.variant.c_str(), o.games, o.plies, o.clients, ports.size(), store.c_str());
  std::printf("games created     %8.0f /s   (%d in %.3f s)\n", o.games / createSec, o.games, createSec);
  std::printf("moves acknowledged %7.0f /s   (%ld in %.3f s)\n", static_cast<double>(moves) / playSec, moves.load(), playSec);
  std::printf("games played      %8.1f /s   (%ld games of up to %d plies)\n", static_cast<double>(finishedGames) / playSec,
              finishedGames.load(), o.plies);
  std::printf("move ack latency  p50 %.2f ms   p99 %.2f ms   max %.2f ms\n", percentile(lat, 0.5), percentile(lat, 0.99),
              percentile(lat, 1.0));
  if (o.spectators > 0) spectate(o, ports, pids, errors);
  std::printf("errors            %d\n", errors.load());
  for (pid_t pid : pids) {
    kill(pid, SIGTERM);
    waitpid(pid, nullptr, 0);
  }
  if (!pids.empty() && ownDb) {
    std::filesystem::remove(db);
    std::filesystem::remove(db + "-wal");
    std::filesystem::remove(db + "-shm");
  }
  return errors.load() == 0 ? 0 : 1;
}
