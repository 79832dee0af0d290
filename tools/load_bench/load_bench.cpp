// load_bench: how many games and moves per second an `acedrex serve`
// sustains over loopback, and the latency of a move's acknowledgement.
//
//   load_bench --server build/acedrex [--games 200] [--plies 40] [--clients 16] [--durable]
//   load_bench --port 8080 ...        (a server that is already running)
//
// Each client thread owns games (hot-seat, so one token moves every seat)
// and plays random legal moves taken from the previous reply: the time of
// one POST /api/game/{id}/move/{m} from sending to the full reply is one
// acknowledgement (the move is committed to SQLite before the reply).
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
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
};

pid_t startServer(const Options& o, const std::string& db, int& port) {
  int out[2];
  if (pipe(out) != 0) return -1;
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(out[1], STDOUT_FILENO);
    ::close(out[0]);
    ::close(out[1]);
    std::vector<std::string> args{o.server, "serve", "--port", "0", "--address", "127.0.0.1", "--db", db, "--web",
                                  "/nonexistent"};
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
    else {
      std::fprintf(stderr, "usage: load_bench (--server PATH | --port N) [--games N] [--plies N] [--clients N] "
                           "[--variant V] [--durable]\n");
      return 2;
    }
  }
  pid_t pid = -1;
  std::string db;
  if (!o.server.empty()) {
    db = (std::filesystem::temp_directory_path() / ("acedrex-bench-" + std::to_string(getpid()) + ".db")).string();
    std::filesystem::remove(db);
    pid = startServer(o, db, o.port);
  }
  if (o.port <= 0) {
    std::fprintf(stderr, "load_bench: no server (give --server PATH or --port N)\n");
    return 2;
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
      threads.emplace_back([&] {
        HttpClient http(o.port);
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
        HttpClient http(o.port);
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
  std::printf("server load benchmark: %s, %d games x %d plies, %d client threads, store %s\n", o.variant.c_str(),
              o.games, o.plies, o.clients, o.durable ? "SQLite synchronous=FULL (--durable)" : "SQLite WAL synchronous=NORMAL");
  std::printf("games created     %8.0f /s   (%d in %.3f s)\n", o.games / createSec, o.games, createSec);
  std::printf("moves acknowledged %7.0f /s   (%ld in %.3f s)\n", static_cast<double>(moves) / playSec, moves.load(), playSec);
  std::printf("games played      %8.1f /s   (%ld games of up to %d plies)\n", static_cast<double>(finishedGames) / playSec,
              finishedGames.load(), o.plies);
  std::printf("move ack latency  p50 %.2f ms   p99 %.2f ms   max %.2f ms\n", percentile(lat, 0.5), percentile(lat, 0.99),
              percentile(lat, 1.0));
  std::printf("errors            %d\n", errors.load());
  if (pid > 0) {
    kill(pid, SIGTERM);
    waitpid(pid, nullptr, 0);
    std::filesystem::remove(db);
    std::filesystem::remove(db + "-wal");
    std::filesystem::remove(db + "-shm");
  }
  return errors.load() == 0 ? 0 : 1;
}
