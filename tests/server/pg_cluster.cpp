// TempPostgres (pg_cluster.h): scripts/pg_temp.sh driven from the tests.
#include "pg_cluster.h"

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <csignal>
#include <cstdlib>

#include "test_support.h"

namespace acedrex::server::testing {
namespace {

const std::string kScript = std::string(ACEDREX_SOURCE_DIR) + "/scripts/pg_temp.sh";

std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Runs a shell command; returns its exit code and its standard output (stderr joined).
int run(const std::string& command, std::string* output) {
  FILE* p = popen((command + " 2>&1").c_str(), "r");
  if (!p) return -1;
  std::array<char, 4096> buf{};
  std::string out;
  size_t n;
  while ((n = std::fread(buf.data(), 1, buf.size(), p)) > 0) out.append(buf.data(), n);
  const int status = pclose(p);
  if (output) *output = out;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

}  // namespace

bool TempPostgres::available() { return run(kScript + " check", nullptr) == 0; }

TempPostgres::TempPostgres() {
  if (!available()) return;
  char tmpl[] = "/tmp/acedrex-pg-XXXXXX";
  if (!mkdtemp(tmpl)) return;
  dir_ = tmpl;
  std::string out;
  if (run(kScript + " start " + quoted(dir_), &out) != 0) {
    error_ = out;
    return;
  }
  const std::string last = trimmed(out);
  uri_ = last.substr(last.rfind('\n') == std::string::npos ? 0 : last.rfind('\n') + 1);
}

TempPostgres::~TempPostgres() {
  if (!dir_.empty()) run(kScript + " stop " + quoted(dir_), nullptr);
}

bool TempPostgres::halt() { return run(kScript + " halt " + quoted(dir_), nullptr) == 0; }
bool TempPostgres::resume() { return run(kScript + " resume " + quoted(dir_), nullptr) == 0; }

std::string TempPostgres::psql(const std::string& sql) const {
  std::string out;
  run("psql -X -q -A -t " + quoted(uri_) + " -c " + quoted(sql), &out);
  return trimmed(out);
}

bool TempHaproxy::available() { return run("command -v haproxy", nullptr) == 0; }

TempHaproxy::TempHaproxy(int server1Port, int server2Port) {
  if (!available()) return;
  std::string out;
  if (run("python3 -c 'import socket; s=socket.socket(); s.bind((\"127.0.0.1\",0)); print(s.getsockname()[1])'",
          &out) != 0)
    return;
  const int port = std::atoi(out.c_str());
  const std::string listen = "127.0.0.1:" + std::to_string(port);
  const std::string s1 = "127.0.0.1:" + std::to_string(server1Port);
  const std::string s2 = "127.0.0.1:" + std::to_string(server2Port);
  const std::string config = std::string(ACEDREX_SOURCE_DIR) + "/deploy/haproxy.cfg";
  const pid_t pid = fork();
  if (pid == 0) {
    setenv("ACEDREX_LISTEN", listen.c_str(), 1);
    setenv("ACEDREX_SERVER1", s1.c_str(), 1);
    setenv("ACEDREX_SERVER2", s2.c_str(), 1);
    const int null = ::open("/dev/null", O_WRONLY);
    if (null >= 0) {
      dup2(null, STDOUT_FILENO);
      dup2(null, STDERR_FILENO);
    }
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    execlp("haproxy", "haproxy", "-db", "-f", config.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  pid_ = pid;
  // Ready when it accepts a connection.
  for (int i = 0; i < 200 && port_ == 0; ++i) {
    const int fd = connectLoopback(port);
    if (fd >= 0) {
      ::close(fd);
      port_ = port;
    } else {
      usleep(10000);
    }
  }
}

TempHaproxy::~TempHaproxy() {
  if (pid_ > 0) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
}

}  // namespace acedrex::server::testing
