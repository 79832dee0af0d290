// TempPostgres (pg_cluster.h): scripts/pg_temp.sh driven from the tests.
#include "pg_cluster.h"

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>

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

}  // namespace acedrex::server::testing
