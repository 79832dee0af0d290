// Hostile requests against the real `acedrex serve` process: path tricks
// around the web root, bad JSON, wrong methods and tokens, broken HTTP
// framing and broken WebSocket handshakes and frames, each over its own raw
// socket with a bound on time. The server runs as a child process so that a
// crash is seen as the child's death (a test failure), not the runner's.
//
// Verdicts: the server still runs and answers; no reply carries a byte of the
// secret files planted next to the web root, of /etc/passwd or of the SQLite
// file; every game is exactly as it was; every JSON reply (and WebSocket text
// message) is valid UTF-8 and parses; a 200 for a page is a file of the web
// root; a body is never read as a request of its own. Statuses are only
// counted (and printed in a summary line), not judged one by one. Timeouts
// only bound the waits: no verdict depends on how long anything took.
//
// ACEDREX_HOSTILE_VERBOSE=1 prints every exchange and what came back.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "server/app/json.h"
#include "test_support.h"

namespace acedrex::server {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr int kReadMs = 5000;               // one wait for bytes
constexpr int kExchangeMs = 8000;           // one hostile exchange in all
constexpr size_t kMaxReplyBytes = 8 << 20;  // more than any honest reply here

// ---------------------------------------------------------------------------
// A temporary folder, removed with everything in it.

class TempDir {
 public:
  explicit TempDir(const std::string& tag) {
    static int counter = 0;
    path_ = fs::temp_directory_path() /
            ("acedrex-" + tag + "-" + std::to_string(getpid()) + "-" + std::to_string(counter++));
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

void writeFile(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary);
  out << text;
}

std::string readFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// ---------------------------------------------------------------------------
// `acedrex serve` as a child process; its port comes from the "port N" line.

class ServeChild {
 public:
  ServeChild(const fs::path& db, const fs::path& web, const fs::path& log)
      : ServeChild({"--db", db.string(), "--web", web.string(), "--threads", "2", "--bot-threads", "1"}, log) {}
  // `acedrex serve --port 0 --address 127.0.0.1 ARGS...`, or with onlyArgs
  // `acedrex serve ARGS...`, started in `cwd` (empty: the runner's folder).
  ServeChild(const std::vector<std::string>& args, const fs::path& log, const fs::path& cwd = {}, bool onlyArgs = false)
      : log_(log) {
    int out[2];
    if (pipe2(out, O_CLOEXEC) != 0) return;
    const int logFd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    testing::ServeChildSetup setup;
    setup.stdoutFd = out[1];
    setup.stderrFd = logFd;
    setup.noCore = true;         // no core file from a crash on purpose
    setup.dieWithParent = true;  // and no server left behind if the test runner dies
    setup.cwd = cwd.string();
    setup.onlyArgs = onlyArgs;
    pid_ = testing::spawnServe(args, setup);
    ::close(out[1]);
    if (logFd >= 0) ::close(logFd);
    out_ = out[0];
    if (pid_ < 0) return;
    // The port line, within 20 s (a bound, not a verdict).
    std::string text;
    const auto end = Clock::now() + std::chrono::seconds(20);
    while (port_ == 0 && Clock::now() < end) {
      pollfd p{out_, POLLIN, 0};
      if (::poll(&p, 1, 200) <= 0) {
        if (!alive()) break;
        continue;
      }
      char buf[512];
      const ssize_t n = ::read(out_, buf, sizeof buf);
      if (n <= 0) break;
      text.append(buf, static_cast<size_t>(n));
      size_t eol;
      while ((eol = text.find('\n')) != std::string::npos) {
        int port = 0;
        if (std::sscanf(text.substr(0, eol).c_str(), "port %d", &port) == 1) port_ = port;
        text.erase(0, eol + 1);
      }
    }
  }

  ~ServeChild() {
    if (alive()) {
      kill(pid_, SIGTERM);
      waitForEnd(5000);
      if (alive()) {
        kill(pid_, SIGKILL);
        waitForEnd(5000);
      }
    }
    if (out_ >= 0) ::close(out_);
  }
  ServeChild(const ServeChild&) = delete;
  ServeChild& operator=(const ServeChild&) = delete;

  int port() const { return port_; }

  // Whether the child still runs (reaps it when it has ended).
  bool alive() {
    if (pid_ <= 0 || ended_) return false;
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
      ended_ = true;
      status_ = status;
      return false;
    }
    return true;
  }
  // Waits up to `ms` for the child to end; true when it has.
  bool waitForEnd(int ms) {
    const auto end = Clock::now() + std::chrono::milliseconds(ms);
    while (alive() && Clock::now() < end) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    return !alive();
  }
  std::string howItEnded() const {
    if (!ended_) return "still running";
    if (WIFSIGNALED(status_))
      return "killed by signal " + std::to_string(WTERMSIG(status_)) + " (" + strsignal(WTERMSIG(status_)) + ")";
    if (WIFEXITED(status_)) return "exited with code " + std::to_string(WEXITSTATUS(status_));
    return "ended";
  }
  std::string logTail() const {
    const std::string log = readFile(log_);
    return log.size() > 3000 ? log.substr(log.size() - 3000) : log;
  }

 private:
  fs::path log_;
  pid_t pid_ = -1;
  int out_ = -1;
  int port_ = 0;
  bool ended_ = false;
  int status_ = 0;
};

// ---------------------------------------------------------------------------
// A raw TCP connection with bounded sends and reads. `source` picks a local
// address 127.0.0.2 ... 127.0.0.251, so that per-address limits of the server
// (request rates, connections) see many clients, not one.

class RawConn {
 public:
  RawConn(int port, int source) : fd_(testing::connectLoopback(port, source)) {}
  ~RawConn() { close(); }
  RawConn(const RawConn&) = delete;
  RawConn& operator=(const RawConn&) = delete;

  bool connected() const { return fd_ >= 0; }
  void close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }
  void halfClose() {
    if (fd_ >= 0) ::shutdown(fd_, SHUT_WR);
  }

  // False when the peer stopped taking bytes (closed, reset, or the bound ran out).
  bool send(const std::string& data, Clock::time_point deadline) {
    size_t off = 0;
    while (fd_ >= 0 && off < data.size()) {
      const int left =
          static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count());
      if (left <= 0) return false;
      pollfd p{fd_, POLLOUT, 0};
      if (::poll(&p, 1, std::min(left, kReadMs)) <= 0) return false;
      const ssize_t n = ::send(fd_, data.data() + off, data.size() - off, MSG_NOSIGNAL | MSG_DONTWAIT);
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) continue;
      if (n <= 0) return false;
      off += static_cast<size_t>(n);
    }
    return off == data.size();
  }

  enum class End { kEof, kReset, kTimeout, kDone, kTooMuch };
  // Reads into `in` until `done(in)`, the end of the stream, or the bound.
  End read(std::string& in, Clock::time_point deadline, const std::function<bool(const std::string&)>& done = {}) {
    for (;;) {
      if (done && done(in)) return End::kDone;
      if (in.size() > kMaxReplyBytes) return End::kTooMuch;
      const int left =
          static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count());
      if (left <= 0 || fd_ < 0) return End::kTimeout;
      pollfd p{fd_, POLLIN, 0};
      const int ready = ::poll(&p, 1, std::min(left, kReadMs));
      if (ready == 0) return End::kTimeout;
      if (ready < 0) return End::kReset;
      char buf[16384];
      const ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
      if (n == 0) return End::kEof;
      if (n < 0) return errno == EINTR ? read(in, deadline, done) : End::kReset;
      in.append(buf, static_cast<size_t>(n));
    }
  }

 private:
  int fd_ = -1;
};

// ---------------------------------------------------------------------------
// Replies as they came over the wire.

struct WsFrame {
  int opcode = 0;
  bool fin = false;
  bool masked = false;
  std::string payload;
};

struct Reply {
  int status = 0;
  std::map<std::string, std::string> headers;  // lowercase names
  std::string body;
  bool complete = true;
  std::vector<WsFrame> frames;  // after a 101
};

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string printable(std::string_view s, size_t max = 80) {
  std::string out;
  for (size_t i = 0; i < s.size() && i < max; ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x7F) {
      out += static_cast<char>(c);
    } else {
      char b[8];
      std::snprintf(b, sizeof b, "\\x%02x", c);
      out += b;
    }
  }
  if (s.size() > max) out += "...";
  return out;
}

// Strict UTF-8: no overlong forms, no surrogates, nothing above U+10FFFF.
bool validUtf8(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      ++i;
      continue;
    }
    size_t n;
    uint32_t cp;
    if (c >= 0xC2 && c <= 0xDF) {
      n = 1;
      cp = c & 0x1Fu;
    } else if (c >= 0xE0 && c <= 0xEF) {
      n = 2;
      cp = c & 0x0Fu;
    } else if (c >= 0xF0 && c <= 0xF4) {
      n = 3;
      cp = c & 0x07u;
    } else {
      return false;
    }
    if (i + n >= s.size()) return false;
    for (size_t k = 1; k <= n; ++k) {
      const unsigned char cc = static_cast<unsigned char>(s[i + k]);
      if ((cc & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (cc & 0x3Fu);
    }
    if (n == 2 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) return false;
    if (n == 3 && (cp < 0x10000 || cp > 0x10FFFF)) return false;
    i += n + 1;
  }
  return true;
}

std::vector<WsFrame> parseFrames(const std::string& raw, size_t pos, bool* truncated) {
  std::vector<WsFrame> out;
  *truncated = false;
  while (pos < raw.size()) {
    if (raw.size() - pos < 2) {
      *truncated = true;
      break;
    }
    const auto b0 = static_cast<unsigned char>(raw[pos]), b1 = static_cast<unsigned char>(raw[pos + 1]);
    uint64_t len = b1 & 0x7Fu;
    size_t off = 2;
    if (len == 126 || len == 127) {
      const size_t bytes = len == 126 ? 2 : 8;
      if (raw.size() - pos < 2 + bytes) {
        *truncated = true;
        break;
      }
      len = 0;
      for (size_t k = 0; k < bytes; ++k) len = (len << 8) | static_cast<unsigned char>(raw[pos + 2 + k]);
      off += bytes;
    }
    WsFrame f;
    f.fin = (b0 & 0x80) != 0;
    f.opcode = b0 & 0x0F;
    f.masked = (b1 & 0x80) != 0;
    unsigned char mask[4] = {0, 0, 0, 0};
    if (f.masked) {
      if (raw.size() - pos < off + 4) {
        *truncated = true;
        break;
      }
      for (size_t k = 0; k < 4; ++k) mask[k] = static_cast<unsigned char>(raw[pos + off + k]);
      off += 4;
    }
    if (len > raw.size() - pos - off) {
      *truncated = true;
      break;
    }
    f.payload = raw.substr(pos + off, static_cast<size_t>(len));
    for (size_t k = 0; k < f.payload.size(); ++k) f.payload[k] = static_cast<char>(f.payload[k] ^ mask[k % 4]);
    pos += off + static_cast<size_t>(len);
    out.push_back(std::move(f));
  }
  return out;
}

// Every reply in a byte stream; `problem` says when the bytes are not HTTP.
std::vector<Reply> parseReplies(const std::string& raw, bool head, std::string* problem) {
  std::vector<Reply> out;
  size_t pos = 0;
  while (pos < raw.size()) {
    if (raw.compare(pos, 7, "HTTP/1.") != 0) {
      *problem = head && !out.empty()
                     ? "a reply to HEAD carries a body (a keep-alive client reads it as the next reply): " +
                           printable(std::string_view(raw).substr(pos))
                     : "bytes that are not an HTTP reply: " + printable(std::string_view(raw).substr(pos));
      break;
    }
    Reply r;
    r.status = raw.size() >= pos + 12 ? std::atoi(raw.substr(pos + 9, 3).c_str()) : -1;
    const size_t end = raw.find("\r\n\r\n", pos);
    if (end == std::string::npos) {
      r.complete = false;
      out.push_back(std::move(r));
      break;
    }
    size_t line = raw.find("\r\n", pos);
    while (line < end) {
      const size_t next = raw.find("\r\n", line + 2);
      const std::string h = raw.substr(line + 2, next - line - 2);
      const size_t colon = h.find(':');
      if (colon != std::string::npos) {
        std::string v = h.substr(colon + 1);
        while (!v.empty() && v.front() == ' ') v.erase(0, 1);
        r.headers[lower(h.substr(0, colon))] = v;
      }
      line = next;
    }
    pos = end + 4;
    if (r.status == 101) {
      bool truncated = false;
      r.frames = parseFrames(raw, pos, &truncated);
      r.complete = !truncated;
      out.push_back(std::move(r));
      break;
    }
    const std::string te = lower(r.headers.count("transfer-encoding") ? r.headers["transfer-encoding"] : "");
    if (head || r.status == 204 || r.status == 304 || r.status / 100 == 1) {
      // no body
    } else if (r.headers.count("content-length")) {
      const uint64_t len = std::strtoull(r.headers["content-length"].c_str(), nullptr, 10);
      const size_t take = static_cast<size_t>(std::min<uint64_t>(len, raw.size() - pos));
      r.body = raw.substr(pos, take);
      r.complete = take == len;
      pos += take;
    } else if (te.find("chunked") != std::string::npos) {
      for (;;) {
        const size_t eol = raw.find("\r\n", pos);
        if (eol == std::string::npos) {
          r.complete = false;
          pos = raw.size();
          break;
        }
        const size_t len = std::strtoul(raw.substr(pos, eol - pos).c_str(), nullptr, 16);
        if (len == 0) {
          const size_t trailerEnd = raw.find("\r\n\r\n", pos);
          pos = trailerEnd == std::string::npos ? raw.size() : trailerEnd + 4;
          break;
        }
        if (raw.size() < eol + 2 + len + 2) {
          r.complete = false;
          r.body += raw.substr(eol + 2, len);
          pos = raw.size();
          break;
        }
        r.body += raw.substr(eol + 2, len);
        pos = eol + 2 + len + 2;
      }
    } else {
      r.body = raw.substr(pos);
      pos = raw.size();
    }
    out.push_back(std::move(r));
  }
  return out;
}

// ---------------------------------------------------------------------------
// Building hostile bytes.

const std::string kHost = "Host: 127.0.0.1\r\n";

std::string request(const std::string& method, const std::string& target, const std::string& headers = "",
                    const std::string& body = "", bool length = true) {
  std::string r = method + " " + target + " HTTP/1.1\r\n" + kHost + headers;
  if (length && (!body.empty() || method == "POST" || method == "PUT" || method == "PATCH"))
    r += "Content-Length: " + std::to_string(body.size()) + "\r\n";
  return r + "\r\n" + body;
}

std::string get(const std::string& target, const std::string& headers = "") { return request("GET", target, headers); }

// Bytes of a literal, NULs included (without the terminating one).
template <size_t N>
std::string bin(const char (&s)[N]) {
  return std::string(s, N - 1);
}

std::string bearer(const std::string& token) { return "Authorization: Bearer " + token + "\r\n"; }

std::string postJson(const std::string& target, const std::string& body, const std::string& headers = "") {
  return request("POST", target, "Content-Type: application/json\r\n" + headers, body);
}

std::string upgradeHeaders(const std::string& key = "dGhlIHNhbXBsZSBub25jZQ==", const std::string& version = "13") {
  std::string h = "Upgrade: websocket\r\nConnection: Upgrade\r\n";
  if (!key.empty()) h += "Sec-WebSocket-Key: " + key + "\r\n";
  if (!version.empty()) h += "Sec-WebSocket-Version: " + version + "\r\n";
  return h;
}

// A client frame: b0 is FIN/RSV/opcode; masked unless told otherwise.
std::string wsFrame(unsigned char b0, const std::string& payload, bool mask = true) {
  std::string f(1, static_cast<char>(b0));
  const unsigned char m = mask ? 0x80 : 0x00;
  const size_t n = payload.size();
  if (n < 126) {
    f += static_cast<char>(m | n);
  } else if (n < 65536) {
    f += static_cast<char>(m | 126);
    f += static_cast<char>((n >> 8) & 0xFF);
    f += static_cast<char>(n & 0xFF);
  } else {
    f += static_cast<char>(m | 127);
    for (int i = 7; i >= 0; --i) f += static_cast<char>((static_cast<uint64_t>(n) >> (8 * i)) & 0xFF);
  }
  const unsigned char key[4] = {0x37, 0xFA, 0x21, 0x3D};
  if (mask) f.append(reinterpret_cast<const char*>(key), 4);
  for (size_t i = 0; i < n; ++i) f += static_cast<char>(mask ? payload[i] ^ key[i % 4] : payload[i]);
  return f;
}

// A frame header that claims `declared` bytes (64-bit length form), then `tail`.
std::string wsFrameClaiming(unsigned char b0, uint64_t declared, const std::string& tail) {
  std::string f(1, static_cast<char>(b0));
  f += static_cast<char>(0x80 | 127);
  for (int i = 7; i >= 0; --i) f += static_cast<char>((declared >> (8 * i)) & 0xFF);
  f += std::string("\x37\xFA\x21\x3D", 4);
  return f + tail;
}

std::string closePayload(int code, const std::string& reason = "") {
  std::string p;
  p += static_cast<char>((code >> 8) & 0xFF);
  p += static_cast<char>(code & 0xFF);
  return p + reason;
}

// ---------------------------------------------------------------------------
// The hostile exchanges.

struct Case {
  enum class Mode {
    kReply,      // send, half-close, read every reply up to the end of the stream
    kAbort,      // send, then close without reading
    kWebSocket,  // send the handshake, wait for its reply, send `frames`, half-close, read to the end
  };
  Case(std::string n, std::string b, Mode m = Mode::kReply, std::vector<std::string> f = {}, bool h = false, int r = 1)
      : name(std::move(n)), bytes(std::move(b)), mode(m), frames(std::move(f)), head(h), requests(r) {}
  std::string name;
  std::string bytes;
  Mode mode = Mode::kReply;
  std::vector<std::string> frames;
  bool head = false;      // a HEAD request: replies have no body
  int requests = 1;       // how many requests the bytes hold
  size_t maxReplies = 0;  // >0: more replies mean a body was read as a request (smuggling)
};

struct Secrets {
  std::vector<std::pair<std::string, std::string>> markers;  // (what, bytes that must never be sent)
  std::vector<std::string> webFiles;                         // contents a 200 page may have
};

struct Tally {
  int requests = 0;
  int frames = 0;  // WebSocket frames sent after a handshake
  int connections = 0;
  std::map<int, int> statuses;  // 0: no reply
  std::vector<std::string> issues;
  int crashes = 0;
  std::string crash;
  int timeouts = 0;  // exchanges that reached their bound with the connection still open
  int timeoutsInARow = 0;
  int leaks = 0;       // replies that carried bytes of a planted secret, /etc/passwd or the SQLite file
  int strayPages = 0;  // 200 pages that are no file of the web root
};

void inspect(const Case& c, const std::string& raw, const Secrets& secrets, Tally& tally) {
  bool leaked = false;
  for (const auto& [what, bytes] : secrets.markers)
    if (raw.find(bytes) != std::string::npos) {
      tally.issues.push_back("LEAK of " + what + ": " + c.name);
      if (!leaked) ++tally.leaks;
      leaked = true;
    }
  std::string problem;
  const auto replies = parseReplies(raw, c.head, &problem);
  if (!problem.empty()) tally.issues.push_back(c.name + ": " + problem);
  if (std::getenv("ACEDREX_HOSTILE_VERBOSE")) {
    std::string line = "  " + printable(c.name, 100) + " ->";
    for (const auto& r : replies) {
      line += " " + std::to_string(r.status);
      for (const auto& f : r.frames) {
        line += " op" + std::to_string(f.opcode);
        if (f.opcode == 8 && f.payload.size() >= 2)
          line += "(" +
                  std::to_string((static_cast<unsigned char>(f.payload[0]) << 8) |
                                 static_cast<unsigned char>(f.payload[1])) +
                  ")";
        if (f.opcode == 1 && f.payload.size() < 120) line += "(" + printable(f.payload, 60) + ")";
      }
    }
    if (replies.empty()) line += " none";
    std::printf("%s\n", line.c_str());
  }
  if (replies.empty() && c.mode != Case::Mode::kAbort) ++tally.statuses[0];
  if (c.maxReplies > 0 && replies.size() > c.maxReplies)
    tally.issues.push_back(c.name + ": " + std::to_string(replies.size()) +
                           " replies: the body was read as another request (request smuggling)");
  for (const auto& r : replies) {
    ++tally.statuses[r.status];
    const std::string type = lower(r.headers.count("content-type") ? r.headers.at("content-type") : "");
    if (type.find("json") != std::string::npos && r.complete && !(c.head && r.body.empty())) {
      std::vector<std::string> texts;
      if (type.find("ndjson") != std::string::npos) {
        std::stringstream lines(r.body);
        for (std::string l; std::getline(lines, l);)
          if (!l.empty()) texts.push_back(l);
      } else {
        texts.push_back(r.body);
      }
      for (const auto& t : texts) {
        if (!validUtf8(t))
          tally.issues.push_back(c.name + ": " + std::to_string(r.status) +
                                 " JSON reply is not valid UTF-8: " + printable(t, 120));
        else if (!parseJson(t, 64).ok())
          tally.issues.push_back(c.name + ": " + std::to_string(r.status) + " reply is not JSON: " + printable(t, 120));
      }
    } else if (r.status == 200 && r.complete && !c.head && type.find("pgn") == std::string::npos) {
      bool known = r.body.find("Acedrex server is running") != std::string::npos;
      for (const auto& f : secrets.webFiles) known = known || r.body == f;
      if (!known && !leaked) ++tally.strayPages;
      if (!known && !leaked)
        tally.issues.push_back(c.name + ": a 200 page that is no file of the web root (" +
                               std::to_string(r.body.size()) + " bytes, not shown)");
    }
    // Messages, put together from their fragments.
    std::string message;
    int messageOpcode = -1;
    for (const auto& f : r.frames) {
      if (f.masked) tally.issues.push_back(c.name + ": the server masked a frame");
      if (f.opcode == 8 && f.payload.size() > 2 && !validUtf8(f.payload.substr(2)))
        tally.issues.push_back(c.name + ": a close reason is not valid UTF-8");
      if (f.opcode >= 8) continue;
      if (f.opcode != 0) {
        messageOpcode = f.opcode;
        message.clear();
      }
      message += f.payload;
      if (!f.fin || messageOpcode != 1) continue;
      if (!validUtf8(message))
        tally.issues.push_back(c.name + ": a WebSocket text message is not valid UTF-8: " + printable(message, 120));
      else if (auto j = parseJson(message, 64); !j.ok())
        tally.issues.push_back(c.name + ": a WebSocket text message is not JSON (" + j.error().text() +
                               "): " + printable(message, 120));
    }
  }
}

// Runs one case on a fresh connection; false when the server is gone.
bool runCase(const Case& c, int port, int source, ServeChild& child, const Secrets& secrets, Tally& tally) {
  if (!child.alive()) return false;
  RawConn conn(port, source);
  ++tally.connections;
  tally.requests += c.requests;
  tally.frames += static_cast<int>(c.frames.size());
  if (!conn.connected()) {
    if (child.waitForEnd(5000)) return false;  // it died: the caller reports how
    tally.issues.push_back(c.name + ": could not connect to the running server");
    ++tally.statuses[0];
    return true;
  }
  const auto deadline = Clock::now() + std::chrono::milliseconds(kExchangeMs);
  std::string raw;
  if (c.mode == Case::Mode::kAbort) {
    conn.send(c.bytes, deadline);
    conn.close();
    return child.alive();
  }
  const bool sent = conn.send(c.bytes, deadline);
  if (c.mode == Case::Mode::kWebSocket && sent) {
    // Frames go after the handshake's reply, never in the same segment.
    conn.read(raw, deadline, [](const std::string& in) { return in.find("\r\n\r\n") != std::string::npos; });
    if (raw.compare(0, 12, "HTTP/1.1 101") == 0)
      for (const auto& f : c.frames)
        if (!conn.send(f, deadline)) break;
  }
  conn.halfClose();
  if (conn.read(raw, deadline) == RawConn::End::kTimeout) {
    ++tally.timeouts;
    ++tally.timeoutsInARow;
  } else {
    tally.timeoutsInARow = 0;
  }
  inspect(c, raw, secrets, tally);
  return true;
}

struct GameSnap {
  size_t plies = 0;
  double v = -1;
  std::string fen, status;
  bool operator==(const GameSnap&) const = default;
};

std::string describe(const GameSnap& s) {
  return std::to_string(s.plies) + " plies, v " + std::to_string(static_cast<long long>(s.v)) + ", " + s.status + ", " +
         s.fen;
}

// One request on a fresh connection, its first reply (status 0: none).
Reply ask(int port, int source, const std::string& bytes) {
  RawConn conn(port, source);
  Reply none;
  if (!conn.connected()) return none;
  const auto deadline = Clock::now() + std::chrono::milliseconds(kExchangeMs);
  std::string raw;
  conn.send(bytes, deadline);
  conn.halfClose();
  conn.read(raw, deadline);
  std::string problem;
  auto replies = parseReplies(raw, false, &problem);
  return replies.empty() ? none : replies.front();
}

// ask() for the checks' own requests: a server that limits request rates may
// answer 429 (or 503) to a client that was busy; this waits that out (at most
// 10 s). Only the final status counts, not how long it took.
Reply askPatiently(int port, int source, const std::string& bytes) {
  const auto end = Clock::now() + std::chrono::seconds(10);
  Reply r = ask(port, source, bytes);
  while ((r.status == 429 || r.status == 503) && Clock::now() < end) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    r = ask(port, source, bytes);
  }
  return r;
}

Json askJson(int port, int source, const std::string& bytes, int* status = nullptr) {
  const Reply r = askPatiently(port, source, bytes);
  if (status) *status = r.status;
  auto j = parseJson(r.body);
  return j.ok() ? *j : Json();
}

GameSnap snapshot(int port, int source, const std::string& id) {
  GameSnap s;
  const Json j = askJson(port, source, get("/api/game/" + id));
  if (j.get("moves")) s.plies = j.get("moves")->items().size();
  if (j.get("v")) s.v = j.get("v")->asNumber();
  if (j.get("fen")) s.fen = j.get("fen")->asString();
  if (j.get("status")) s.status = j.get("status")->asString();
  return s;
}

struct NewGame {
  std::string id;
  std::vector<std::string> tokens;
};

NewGame createGame(int port, int source, const std::string& body) {
  int status = 0;
  const Json j = askJson(port, source, postJson("/api/game", body), &status);
  EXPECT_EQ(status, 201) << body;
  NewGame g;
  if (!j.get("id")) return g;
  g.id = j.get("id")->asString();
  for (const auto& s : j.get("seats")->items()) g.tokens.push_back(s.get("token") ? s.get("token")->asString() : "");
  return g;
}

std::string firstLegal(const Json& state) {
  if (!state.get("legal")) return "";
  for (const auto& [from, list] : state.get("legal")->members())
    if (!list.items().empty()) return list.items()[0].asString();
  return "";
}

std::string statusLine(const Tally& t) {
  std::string s = "hostile: " + std::to_string(t.requests) + " requests (and " + std::to_string(t.frames) +
                  " WebSocket frames) on " + std::to_string(t.connections) + " connections, statuses {";
  bool first = true;
  for (const auto& [status, n] : t.statuses) {
    s += (first ? "" : ", ") + (status == 0 ? std::string("none") : std::to_string(status)) + ": " + std::to_string(n);
    first = false;
  }
  return s + "}, timeouts " + std::to_string(t.timeouts) + ", crashes " + std::to_string(t.crashes) + ", leaks " +
         std::to_string(t.leaks) + ", pages from outside the web root " + std::to_string(t.strayPages);
}

// ---------------------------------------------------------------------------

TEST(HostileServer, HostileRequestsLeakNothingChangeNoGameAndLeaveTheServerUp) {
  TempDir tmp("hostile");
  const fs::path web = tmp.path() / "web";
  fs::create_directories(web / "js");
  Secrets secrets;
  secrets.webFiles = {"<!doctype html><title>Acedrex hostile test page</title>",
                      "<!doctype html><title>Acedrex hostile game page</title>", "export const hostile = 1;"};
  // The repository's own front end may be embedded in the binary and served
  // for files the web root lacks: its files are fine too.
  std::error_code walk;
  for (fs::recursive_directory_iterator it(fs::path(ACEDREX_SOURCE_DIR) / "web", walk), end; !walk && it != end;
       it.increment(walk))
    if (it->is_regular_file()) secrets.webFiles.push_back(readFile(it->path()));
  writeFile(web / "index.html", secrets.webFiles[0]);
  writeFile(web / "game.html", secrets.webFiles[1]);
  writeFile(web / "js" / "app.js", secrets.webFiles[2]);
  // Next to the web root, never to be served: a text file, an .html file (the
  // page fallback adds ".html") and the SQLite file itself, plus a copy.
  std::mt19937_64 rng(static_cast<uint64_t>(getpid()));
  const std::string secretText = "acedrex-secret-" + std::to_string(rng()) + "-do-not-serve";
  const std::string secretHtml = "acedrex-secret-page-" + std::to_string(rng()) + "-do-not-serve";
  writeFile(tmp.path() / "secret.txt", secretText);
  writeFile(tmp.path() / "secret.html", secretHtml);
  secrets.markers = {{"secret.txt", secretText},
                     {"secret.html", secretHtml},
                     {"/etc/passwd", "root:x:0:0"},
                     {"the SQLite file", "SQLite format 3"}};
  const fs::path db = tmp.path() / "games.db";

  ServeChild child(db, web, tmp.path() / "serve.log");
  const int port = child.port();
  ASSERT_GT(port, 0) << "the server did not start: " << child.howItEnded() << "\n" << child.logTail();

  // The games, and what they look like before.
  const NewGame a = createGame(port, 300, R"({"variant":"shako","seats":[{"kind":"human"},{"kind":"human"}]})");
  const NewGame b = createGame(port, 300, R"({"variant":"four-seasons","hotSeat":true})");
  const NewGame c = createGame(port, 300, R"({"variant":"shako","seats":[{"kind":"human"},{"kind":"human"}]})");
  ASSERT_EQ(a.tokens.size(), 2u);
  ASSERT_FALSE(b.tokens.empty());
  ASSERT_EQ(c.tokens.size(), 2u);
  int status = 0;
  askJson(port, 300, postJson("/api/game/" + a.id + "/move/e3e4", "", bearer(a.tokens[0])), &status);
  ASSERT_EQ(status, 200) << "a first move in game a";
  const std::string blackMove = firstLegal(askJson(port, 300, get("/api/game/" + a.id)));
  const std::string whiteMoveC = firstLegal(askJson(port, 300, get("/api/game/" + c.id)));
  ASSERT_FALSE(blackMove.empty());
  ASSERT_FALSE(whiteMoveC.empty());
  const std::string toMoveA = a.tokens[1];  // black's, to move in game a
  const GameSnap beforeA = snapshot(port, 300, a.id), beforeB = snapshot(port, 300, b.id),
                 beforeC = snapshot(port, 300, c.id);
  ASSERT_EQ(beforeA.plies, 1u);
  std::error_code ec;
  fs::copy_file(db, tmp.path() / "copy.db", ec);
  ASSERT_NE(readFile(db).find("SQLite format 3"), std::string::npos) << "the marker is the SQLite header";

  const std::string secretAbs = (tmp.path() / "secret.txt").string();
  const std::string dbAbs = db.string();
  auto encodeSlashes = [](std::string s) {
    std::string out;
    for (char ch : s) out += ch == '/' ? std::string("%2F") : std::string(1, ch);
    return out;
  };

  std::vector<Case> cases;
  auto add = [&](std::string name, std::string bytes) { cases.push_back({std::move(name), std::move(bytes)}); };

  // 1. Paths around the web root.
  for (const std::string& t : std::vector<std::string>{"/%2Fetc%2Fpasswd",
                                                       "/%2fetc%2fpasswd",
                                                       "/js/%2Fetc%2Fpasswd",
                                                       "/..%2Fsecret.txt",
                                                       "/..%2fsecret.txt",
                                                       "/%2e%2e%2fsecret.txt",
                                                       "/%2E%2E%2Fsecret.txt",
                                                       "/%2e%2e/secret.txt",
                                                       "/.%2e/secret.txt",
                                                       "/%2e./secret.txt",
                                                       "/js/..%2f..%2fsecret.txt",
                                                       "/js%2F..%2F..%2Fsecret.txt",
                                                       "/js/..%2F..%2Fsecret.txt/",
                                                       "/%252e%252e/",
                                                       "/%252e%252e%252fsecret.txt",
                                                       "/%25%32%65%25%32%65/secret.txt",
                                                       "//etc/passwd",
                                                       "///etc/passwd",
                                                       "/./../secret.txt",
                                                       "/../secret.txt",
                                                       "/js/../../secret.txt",
                                                       "/..\\secret.txt",
                                                       "/js\\..\\..\\secret.txt",
                                                       "/..%5csecret.txt",
                                                       "/..%5Csecret.txt",
                                                       "/js/..%5c..%5csecret.txt",
                                                       "/%5c..%5csecret.txt",
                                                       "/..%2F..%2F..%2F..%2F..%2F..%2F..%2F..%2Fetc%2Fpasswd",
                                                       "/js/..%2F..%2F..%2F..%2F..%2F..%2F..%2Fetc%2Fpasswd",
                                                       "/" + encodeSlashes(secretAbs),
                                                       "/js/" + encodeSlashes(secretAbs),
                                                       "/" + encodeSlashes(dbAbs),
                                                       "/..%2Fgames.db",
                                                       "/..%2Fcopy.db",
                                                       "/js/..%2F..%2Fgames.db",
                                                       "/..%2Fsecret/page",
                                                       "/js%2F..%2F..%2Fsecret/page",
                                                       "/%2Fetc%2Fpasswd/page",
                                                       "/" + encodeSlashes((tmp.path() / "secret").string()) + "/page",
                                                       "/ws/..%2f..",
                                                       "/ws/..%2f..%2fsecret.txt",
                                                       "/ws%2F..%2F..%2Fsecret.txt",
                                                       "/game/%2F..%2F..%2Fsecret.txt",
                                                       "/game/..%2F..%2Fsecret.txt",
                                                       "/game/..%2F..%2Fsecret",
                                                       "/secret.txt%00.html",
                                                       "/index.html%00",
                                                       "/..%2Fsecret.txt%00",
                                                       "/%00/secret.txt",
                                                       "/js/app.js%00..%2F..%2Fsecret.txt",
                                                       "/%c0%ae%c0%ae/secret.txt",
                                                       "/%c0%ae%c0%ae%c0%afsecret.txt",
                                                       "/%e0%80%ae%e0%80%ae/secret.txt",
                                                       "/..%2Fsecret.txt?x=1",
                                                       "/..%2Fsecret.txt#frag",
                                                       "/..%2Fsecret.txt;x",
                                                       "/%",
                                                       "/%2",
                                                       "/%zz",
                                                       "/%%32%65",
                                                       "/%ff%fe",
                                                       "/..",
                                                       "/.",
                                                       "/js/..",
                                                       "/js/.",
                                                       "/index.html/..%2F..%2Fsecret.txt",
                                                       "/proc/self/environ",
                                                       "/%2Fproc%2Fself%2Fenviron",
                                                       "/%2Fproc%2Fself%2Fcmdline",
                                                       "/..%2F..%2F..%2F..%2F..%2Fproc%2Fself%2Fenviron",
                                                       "/api%2F..%2F..%2Fsecret.txt",
                                                       "/api/..%2F..%2Fsecret.txt",
                                                       "/api/../secret.txt",
                                                       "/?/../secret.txt",
                                                       "/" + std::string(100 * 1024, 'a'),
                                                       "/" + std::string(20 * 1024, '/') + "etc/passwd",
                                                       "/" + std::string(3000, '.') + "/secret.txt"}) {
    add("GET " + printable(t, 60), get(t));
  }
  for (const std::string& t :
       std::vector<std::string>{"index.html", "secret.txt", "../secret.txt", "..%2Fsecret.txt", "%2Fetc%2Fpasswd",
                                "etc/passwd", "api/variants", "http://x/../secret.txt", "http://x/..%2F..%2Fsecret.txt",
                                "http://x/%2Fetc%2Fpasswd", "http://127.0.0.1/js/..%2F..%2Fsecret.txt", "http://x",
                                "file:///etc/passwd", "*", "\\..\\secret.txt", "?x=1", "%2F..%2Fsecret.txt"}) {
    add("GET without a leading slash " + printable(t, 60), get(t));
  }
  add("OPTIONS *", request("OPTIONS", "*"));
  cases.push_back({"HEAD /..%2Fsecret.txt", request("HEAD", "/..%2Fsecret.txt"), Case::Mode::kReply, {}, true});
  cases.push_back({"HEAD /%2Fetc%2Fpasswd", request("HEAD", "/%2Fetc%2Fpasswd"), Case::Mode::kReply, {}, true});
  for (const std::string t : {"/%zz", "/js/missing.js", "/ws/game/x", "/..%5csecret.txt", "/api/game/nosuchgame"})
    cases.push_back({"HEAD " + t, request("HEAD", t), Case::Mode::kReply, {}, true});
  add("a raw NUL in the target", bin("GET /index.html\0../secret.txt HTTP/1.1\r\n") + kHost + "\r\n");
  add("a raw space and tab in the target", "GET /..\t/secret.txt HTTP/1.1\r\n" + kHost + "\r\n");
  add("raw bytes over 0x7f in the target", "GET /\xff\xfe/..%2Fsecret.txt HTTP/1.1\r\n" + kHost + "\r\n");
  add("two requests, the second a traversal", get("/js/app.js") + get("/..%2Fsecret.txt"));
  cases.back().requests = 2;

  // 2. The API: odd ids and queries (ids are echoed in errors).
  for (const std::string& t : std::vector<std::string>{"/api/game/%ff%fe",
                                                       "/api/game/%ED%A0%80",
                                                       "/api/game/%c0%af",
                                                       "/api/game/%00",
                                                       "/api/game/%22%5c%0a",
                                                       "/api/game/..%2F..%2Fsecret.txt",
                                                       "/api/game/%2Fetc%2Fpasswd",
                                                       "/api/game/..",
                                                       "/api/game/'%20OR%20'1'='1",
                                                       "/api/game/%27%3B%20DROP%20TABLE%20games%3B--",
                                                       "/api/game/" + std::string(10000, 'x'),
                                                       "/api/game/" + a.id + "%00",
                                                       "/api/game/" + a.id + "/..%2F..%2Fsecret.txt",
                                                       "/api/game/" + a.id + "/pgn/x",
                                                       "/api/game/%ff/pgn",
                                                       "/api/game/%ff/replay",
                                                       "/api/variant/%ff/piece/K",
                                                       "/api/variant/%ED%A0%80/piece/K",
                                                       "/api/variant/..%2F..%2Fsecret.txt/piece/K",
                                                       "/api/variant/%2Fetc%2Fpasswd/piece/K",
                                                       "/api/variant/shako/piece/%ff",
                                                       "/api/variant/shako/piece/K?from=%ff",
                                                       "/api/variant/shako/piece/K?from=zz99999999999999",
                                                       "/api/variant/shako/piece/K?dir=%00",
                                                       "/api/variant/shako/piece/K?from=e4&die=%ff",
                                                       "/api/variant/shako/piece/K?die=..%2F..%2Fsecret.txt",
                                                       "/api/games?limit=99999999999",
                                                       "/api/games?limit=-1",
                                                       "/api/games?limit=1e3",
                                                       "/api/games?status=%ff",
                                                       "/api/games?status=%00",
                                                       "/api/variants?%ff=%fe",
                                                       "/api/variants/%2e%2e",
                                                       "/api/%2e%2e/secret.txt",
                                                       "/api",
                                                       "/api/",
                                                       "/api//variants",
                                                       "/api/game/" + a.id + "?token=%ff"}) {
    add("GET " + printable(t, 60), get(t));
  }

  // 3. Bad bodies for POST /api/game (every one invalid: a lenient server must not create a game).
  const std::string nv = R"("variant":"no-such-variant")";
  std::vector<std::pair<std::string, std::string>> bodies = {
      {"empty", ""},
      {"truncated", R"({"variant":"shako")"},
      {"truncated after a key", R"({"variant":)"},
      {"a brace", "{"},
      {"deeply nested arrays", std::string(60000, '[')},
      {"deeply nested objects",
       [] {
         std::string s;
         for (int i = 0; i < 12000; ++i) s += "{\"a\":";
         return s;
       }()},
      {"deep but closed", std::string(20000, '[') + std::string(20000, ']')},
      {"nested options", "{" + nv + R"(,"options":)" +
                             [] {
                               std::string s;
                               for (int i = 0; i < 5000; ++i) s += "{\"a\":";
                               return s + "\"x\"" + std::string(5000, '}');
                             }() +
                             "}"},
      {"a huge exponent", "{" + nv + R"(,"seed":1e999999})"},
      {"a seed over 64 bits", "{" + nv + R"(,"seed":18446744073709551616})"},
      {"a negative seed", "{" + nv + R"(,"seed":-1})"},
      {"a seed of 60000 digits", "{" + nv + R"(,"seed":)" + std::string(60000, '9') + "}"},
      {"a float seed", "{" + nv + R"(,"seed":1.5})"},
      {"huge clock", "{" + nv + R"(,"clock":{"initialMs":1e308,"incrementMs":1e308}})"},
      {"negative clock", "{" + nv + R"(,"clock":{"initialMs":-1e308,"incrementMs":-5}})"},
      {"infinite levels", "{" + nv + R"(,"seats":[{"kind":"bot","level":1e400},{"kind":"bot","level":-1e400}]})"},
      {"NaN", "{" + nv + R"(,"seed":NaN})"},
      {"Infinity", "{" + nv + R"(,"seed":Infinity})"},
      {"hex", "{" + nv + R"(,"seed":0x10})"},
      {"leading zeros", "{" + nv + R"(,"seed":007})"},
      {"invalid UTF-8 variant", "{\"variant\":\"\xff\xfe\"}"},
      {"overlong UTF-8 variant", "{\"variant\":\"\xc0\xaf\xc0\xae\"}"},
      {"truncated UTF-8 variant", "{\"variant\":\"\xe2\x82\"}"},
      {"a lone surrogate escape", R"({"variant":"\ud800"})"},
      {"a reversed surrogate pair", R"({"variant":"\udc00\ud800"})"},
      {"a NUL escape", R"({"variant":"shako\u0000"})"},
      {"a raw NUL", bin("{\"variant\":\"shako\0\"}")},
      {"a raw control character", "{\"variant\":\"sh\x01ko\"}"},
      {"invalid UTF-8 option", "{" + nv + ",\"options\":{\"die\":\"\xff\"}}"},
      {"invalid UTF-8 key", "{" + nv + ",\"\xff\":1}"},
      {"variant is a number", R"({"variant":5})"},
      {"variant is null", R"({"variant":null})"},
      {"variant is an array", R"({"variant":["shako"]})"},
      {"variant is an object", R"({"variant":{"a":1}})"},
      {"an array", "[]"},
      {"a string", R"("shako")"},
      {"null", "null"},
      {"true", "true"},
      {"a number", "42"},
      {"seats is a string", "{" + nv + R"(,"seats":"x"})"},
      {"10000 seats", "{" + nv + R"(,"seats":[)" +
                          [] {
                            std::string s = "{}";
                            for (int i = 1; i < 10000; ++i) s += ",{}";
                            return s;
                          }() +
                          "]}"},
      {"seats are numbers", "{" + nv + R"(,"seats":[1,2]})"},
      {"seat kind a number", "{" + nv + R"(,"seats":[{"kind":5},{"kind":5}]})"},
      {"seat kind unknown", "{" + nv + R"(,"seats":[{"kind":"god"},{"kind":"god"}]})"},
      {"level a string", "{" + nv + R"(,"seats":[{"kind":"bot","level":"9"},{"kind":"human"}]})"},
      {"level 1e9", "{" + nv + R"(,"seats":[{"kind":"bot","level":1e9},{"kind":"human"}]})"},
      {"options an array", "{" + nv + R"(,"options":[]})"},
      {"option a number", "{" + nv + R"(,"options":{"die":5}})"},
      {"option an object", "{" + nv + R"(,"options":{"die":{"x":1}}})"},
      {"hotSeat a string", "{" + nv + R"(,"hotSeat":"yes"})"},
      {"trailing garbage", "{" + nv + "} xx"},
      {"two documents", "{" + nv + "}{" + nv + "}"},
      {"a byte order mark", "\xEF\xBB\xBF{" + nv + "}"},
      {"a trailing comma", "{" + nv + ",}"},
      {"single quotes", "{'variant':'no-such-variant'}"},
      {"a comment", "{/* x */" + nv + "}"},
      {"duplicate keys", R"({"variant":"shako","variant":"no-such-variant","seats":5})"},
      {"a 60 KB variant name", R"({"variant":")" + std::string(60000, 'a') + "\"}"},
      {"markup in the variant", R"({"variant":"\"}<script>alert(1)</script>\n"})"},
      {"variant as a path", R"({"variant":"../secret.txt"})"},
      {"variant as an absolute path", R"({"variant":"/etc/passwd"})"},
      {"variant as the db", R"({"variant":")" + dbAbs + "\"}"},
      {"unescaped quote", "{\"variant\":\"a\"b\"}"},
      {"a bad escape", R"({"variant":"\x41"})"},
      {"a short unicode escape", R"({"variant":"\u12"})"},
  };
  for (const auto& [name, body] : bodies) add("POST /api/game: " + name, postJson("/api/game", body));
  add("POST /api/game: over 64 KiB",
      postJson("/api/game", "{" + nv + ",\"x\":\"" + std::string(70 * 1024, 'x') + "\"}"));
  add("POST /api/game: 1 MiB", postJson("/api/game", std::string(1 << 20, ' ')));
  add("POST /api/game: text/plain", request("POST", "/api/game", "Content-Type: text/plain\r\n", "{" + nv + "}"));
  add("POST /api/game: no content type", request("POST", "/api/game", "", "{" + nv + "}"));

  // 4. Wrong methods on every route, with the token of the side to move.
  const std::vector<std::string> routes = {"/",
                                           "/index.html",
                                           "/js/app.js",
                                           "/game/" + a.id,
                                           "/api/variants",
                                           "/api/games",
                                           "/api/game",
                                           "/api/game/" + a.id,
                                           "/api/game/" + a.id + "/pgn",
                                           "/api/game/" + a.id + "/replay",
                                           "/api/game/" + a.id + "/stream",
                                           "/api/game/" + a.id + "/move/" + blackMove,
                                           "/api/game/" + a.id + "/resign",
                                           "/api/game/" + a.id + "/draw/offer",
                                           "/api/game/" + a.id + "/takeback",
                                           "/api/variant/shako/piece/K",
                                           "/ws/game/" + a.id};
  for (const auto& route : routes)
    for (const std::string method : {"PUT", "DELETE", "PATCH", "TRACE", "CONNECT", "post", "FOO", "M-SEARCH"})
      add(method + " " + route, request(method, route, bearer(toMoveA) + "Content-Type: application/json\r\n", "{}"));
  for (const std::string& action :
       std::vector<std::string>{"/move/" + blackMove, "/resign", "/draw/offer", "/takeback"}) {
    add("GET " + action + " with the right token", get("/api/game/" + a.id + action, bearer(toMoveA)));
    add("GET " + action + " with the token in the query", get("/api/game/" + a.id + action + "?token=" + toMoveA));
    cases.push_back({"HEAD " + action,
                     request("HEAD", "/api/game/" + a.id + action, bearer(toMoveA)),
                     Case::Mode::kReply,
                     {},
                     true});
    add("OPTIONS " + action, request("OPTIONS", "/api/game/" + a.id + action, bearer(toMoveA)));
  }

  // 5. Bad tokens (the move is legal: only the token is wrong).
  const std::string move = "/api/game/" + a.id + "/move/" + blackMove;
  std::string flippedCase = toMoveA;
  for (auto& ch : flippedCase)
    ch = std::isupper(static_cast<unsigned char>(ch)) ? static_cast<char>(std::tolower(ch))
                                                      : static_cast<char>(std::toupper(ch));
  const std::vector<std::pair<std::string, std::string>> authHeaders = {
      {"no token", ""},
      {"an empty bearer", "Authorization: Bearer \r\n"},
      {"a bare Bearer", "Authorization: Bearer\r\n"},
      {"a blank bearer", "Authorization: Bearer       \r\n"},
      {"a 10 KB token", bearer(std::string(10 * 1024, 'x'))},
      {"a 20 KB token", bearer(std::string(20 * 1024, 'x'))},
      {"another game's token", bearer(b.tokens[0])},
      {"the token with a raw NUL after it",
       std::string("Authorization: Bearer ") + toMoveA + std::string("\0x", 2) + "\r\n"},
      {"the token with a raw NUL before it",
       std::string("Authorization: Bearer ") + std::string("\0", 1) + toMoveA + "\r\n"},
      {"the token cut short", bearer(toMoveA.substr(0, toMoveA.size() - 1))},
      {"the token and one more letter", bearer(toMoveA + "x")},
      {"the token twice", bearer(toMoveA + toMoveA)},
      {"the token in other case", bearer(flippedCase)},
      {"the token after a space inside", bearer(toMoveA.substr(0, 4) + " " + toMoveA.substr(4))},
      {"a Basic scheme", "Authorization: Basic " + toMoveA + "\r\n"},
      {"a token with %00", bearer(toMoveA + "%00")},
      {"a token with invalid UTF-8", bearer("\xff\xfe" + toMoveA)},
  };
  // White's token may resign, offer a draw or ask a takeback: for moves only.
  add("move with the other seat's token", request("POST", move, bearer(a.tokens[0])));
  add("move with the other seat's token in the query", request("POST", move + "?token=" + a.tokens[0]));
  for (const auto& [name, header] : authHeaders) {
    add("move with " + name, request("POST", move, header));
    add("resign with " + name, request("POST", "/api/game/" + a.id + "/resign", header));
    add("draw offer with " + name, request("POST", "/api/game/" + a.id + "/draw/offer", header));
    add("takeback with " + name, request("POST", "/api/game/" + a.id + "/takeback", header));
  }
  for (const std::string& q : std::vector<std::string>{
           "?token=", "?token=%00", "?token=" + toMoveA + "%00", "?token=%00" + toMoveA, "?token=" + toMoveA + "%00x",
           "?token=" + toMoveA.substr(0, toMoveA.size() - 1), "?token=" + b.tokens[0], "?token=" + toMoveA + "%ff",
           "?token=" + std::string(10000, 'y'), "?token=%G" + toMoveA}) {
    add("move with query " + printable(q, 40), request("POST", move + q));
    add("resign with query " + printable(q, 40), request("POST", "/api/game/" + a.id + "/resign" + q));
  }
  add("a move in another game with game a's token",
      request("POST", "/api/game/" + b.id + "/move/a6a5", bearer(toMoveA)));
  for (const std::string& uci :
       {std::string("%ff%fe"), std::string("%ED%A0%80"), std::string("%00"), blackMove + "%00", blackMove + "%00x",
        std::string(10000, 'a'), std::string(".."), std::string("%2E%2E%2F"), blackMove.substr(0, 2),
        blackMove + blackMove, std::string("%c0%af")})
    add("a garbage move " + printable(uci, 30), request("POST", "/api/game/" + a.id + "/move/" + uci, bearer(toMoveA)));
  add("a draw action that is garbage", request("POST", "/api/game/" + a.id + "/draw/%ff", bearer(b.tokens[0])));
  add("resign a seat that is garbage", request("POST", "/api/game/" + a.id + "/resign?seat=%ff", bearer(b.tokens[0])));
  for (const auto& [name, header] :
       std::vector<std::pair<std::string, std::string>>{{"another game's token", bearer(b.tokens[0])},
                                                        {"a NUL token", bin("Authorization: Bearer x\0y\r\n")},
                                                        {"a 20 KB token", bearer(std::string(20 * 1024, 'z'))}})
    add("stream with " + name, get("/api/game/" + a.id + "/stream", header));
  add("stream with the token and %00", get("/api/game/" + a.id + "/stream?token=" + toMoveA + "%00"));
  add("a watcher's stream with junk in the query", get("/api/game/" + a.id + "/stream?x=%ff&token="));
  // The token under keys the API decodes to "token" (a state read: a stream
  // would mark the seat connected, a change): the access log must hide it too.
  for (const std::string key : {"tok%65n", "%74oken", "%74%6F%6B%65%6E"})
    add("state with the token under " + key, get("/api/game/" + a.id + "?" + key + "=" + toMoveA));

  // 5b. Accounts, players, ratings, chat and takebacks between people. Alice
  // signs up first; no reply may carry her password, its hash or her session
  // token, and her session outlives every forged, cross-site or garbage request.
  const std::string password = "hostile-password-" + std::to_string(rng());
  const Reply signedUp = askPatiently(
      port, 300, postJson("/api/account/signup", R"({"name":"Alice","password":")" + password + "\"}"));
  ASSERT_EQ(signedUp.status, 201) << signedUp.body;
  const std::string setCookie = signedUp.headers.count("set-cookie") ? signedUp.headers.at("set-cookie") : "";
  const std::string cookie = setCookie.substr(0, setCookie.find(';'));
  const std::string session = cookie.substr(cookie.find('=') + 1);
  ASSERT_EQ(session.size(), 32u) << setCookie;
  secrets.markers.push_back({"a password", password});
  secrets.markers.push_back({"a password hash", "$argon2"});
  secrets.markers.push_back({"a session token", session});
  const std::string aliceCookie = "Cookie: " + cookie + "\r\n";
  const std::string crossSite = "Origin: https://evil.example\r\nSec-Fetch-Site: cross-site\r\n";
  for (const std::string& body :
       {std::string(R"({"name":"a b","password":"long enough"})"), std::string(R"({"name":"","password":"long enough"})"),
        std::string(R"({"name":"x","password":"long enough"})"), std::string(R"({"name":"\u0000bob","password":"long enough"})"),
        std::string(R"({"name":"b\u00f6b","password":"long enough"})"), std::string(R"({"name":"<script>","password":"long enough"})"),
        std::string(R"({"name":"../../etc","password":"long enough"})"), std::string(R"({"name":"ALICE","password":"long enough"})"),
        R"({"name":"bob","password":")" + std::string(257, 'p') + "\"}",
        R"({"name":"bob","password":")" + std::string(60000, 'p') + "\"}", std::string(R"({"name":"bob","password":"short"})"),
        std::string(R"({"name":"bob","password":5})"), std::string(R"({"name":["bob"],"password":"long enough"})"),
        std::string(R"({"name":"bob"})"), std::string("[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]"),
        std::string("{\"name\":\"bob\xff\",\"password\":\"long enough\"}"), std::string("not json")}) {
    add("sign up: " + printable(body, 50), postJson("/api/account/signup", body));
    add("sign in: " + printable(body, 50), postJson("/api/account/signin", body));
  }
  add("sign up: 1 MiB", postJson("/api/account/signup", std::string(1 << 20, ' ')));
  add("sign in as Alice with a wrong password", postJson("/api/account/signin", R"({"name":"alice","password":"wrong one!"})"));
  add("sign in as Alice from another site",
      postJson("/api/account/signin", R"({"name":"Alice","password":")" + password + "\"}", crossSite));
  add("sign out Alice from another site", postJson("/api/account/signout", "", aliceCookie + crossSite));
  add("sign out Alice from a null origin", postJson("/api/account/signout", "", aliceCookie + "Origin: null\r\n"));
  add("sign out Alice from a same-site origin",
      postJson("/api/account/signout", "", aliceCookie + "Sec-Fetch-Site: same-site\r\n"));
  for (const auto& [name, header] : std::vector<std::pair<std::string, std::string>>{
           {"a forged session", "Cookie: acedrex_session=" + std::string(32, 'A') + "\r\n"},
           {"the session cut short", "Cookie: acedrex_session=" + session.substr(0, 31) + "\r\n"},
           {"the session and more", "Cookie: acedrex_session=" + session + "x\r\n"},
           {"the session in other case", "Cookie: acedrex_session=" + lower(session) + "\r\n"},
           {"a 10 KB session", "Cookie: acedrex_session=" + std::string(10000, 'x') + "\r\n"},
           {"a session with NUL", std::string("Cookie: acedrex_session=") + std::string("\0", 1) + session + "\r\n"},
           {"a session of %-escapes", "Cookie: acedrex_session=%2e%2e%2f%2e%2e\r\n"},
           {"five hundred cookies", "Cookie: " + [] {
              std::string c;
              for (int i = 0; i < 500; ++i) c += "c" + std::to_string(i) + "=x; ";
              return c;
            }() + "\r\n"},
           {"the session under another name", "Cookie: session=" + session + "\r\n"},
       }) {
    add("whoami with " + name, get("/api/account", header));
    add("sign out with " + name, postJson("/api/account/signout", "", header));
    add("a rated game with " + name, postJson("/api/game", R"({"variant":"shako","rated":true})", header));
    add("watchers' chat with " + name, postJson("/api/game/" + a.id + "/chat/watchers", R"({"text":"hi"})", header));
  }
  add("a rated game from another site", postJson("/api/game", R"({"variant":"shako","rated":true})", aliceCookie + crossSite));
  for (const std::string& body :
       {std::string(R"({"variant":"shako","rated":"yes"})"), std::string(R"({"variant":"four-seasons","rated":true})"),
        std::string(R"({"variant":"shako","rated":true,"hotSeat":true})"), std::string(R"({"variant":"shako","name":"a b"})"),
        std::string(R"({"variant":"shako","name":"Alice"})"), R"({"variant":"shako","name":")" + std::string(5000, 'n') + "\"}",
        std::string(R"({"variant":"shako","name":{"x":1}})")})
    add("create: " + printable(body, 50), postJson("/api/game", body));
  for (const std::string& who : {std::string("nobody"), std::string("..%2F..%2Fetc%2Fpasswd"), std::string("%00"),
                                 std::string(5000, 'a'), std::string("Alice%00"), std::string("%ff%fe")})
    add("player " + printable(who, 40), get("/api/player/" + who));
  const std::string chat = "/api/game/" + a.id + "/chat/";
  for (const std::string& body :
       {std::string(R"({"text":""})"), std::string(R"({"text":"a\nb"})"), R"({"text":")" + std::string(141, 'x') + "\"}",
        R"({"text":")" + std::string(60000, 'x') + "\"}", std::string(R"({"text":5})"), std::string("{\"text\":\"\xff\"}"),
        std::string(R"({"text":"\u0000"})")}) {
    add("players' chat: " + printable(body, 40), postJson(chat + "players", body, bearer(toMoveA)));
    add("watchers' chat: " + printable(body, 40), postJson(chat + "watchers", body, aliceCookie));
  }
  add("players' chat with another game's token", postJson(chat + "players", R"({"text":"hi"})", bearer(b.tokens[0])));
  add("players' chat read with another game's token", get(chat + "players", bearer(b.tokens[0])));
  add("players' chat read by a watcher", get(chat + "players", aliceCookie));
  add("players' chat with junk after", get(chat + "players?after=%ff", bearer(toMoveA)));
  add("a chat room of junk", get(chat + "..%2F..%2Fsecret.txt"));
  add("watchers' chat with a seat token", postJson(chat + "watchers", R"({"text":"hi"})", bearer(toMoveA) + aliceCookie));
  for (const auto& [name, header] : authHeaders) {
    add("takeback accept with " + name, request("POST", "/api/game/" + a.id + "/takeback/accept", header));
    add("name a seat with " + name, postJson("/api/game/" + a.id + "/name", R"({"name":"Mallory"})", header));
  }
  add("a takeback action of junk", request("POST", "/api/game/" + a.id + "/takeback/%ff", bearer(toMoveA)));
  add("accept a takeback nobody asked for", request("POST", "/api/game/" + a.id + "/takeback/accept", bearer(toMoveA)));
  add("join game a as Alice", request("POST", "/api/game/" + a.id + "/join?name=Alice", aliceCookie));
  add("join game a with a bad name", request("POST", "/api/game/" + a.id + "/join?name=%ff%00"));

  // 6. Broken HTTP framing.
  const std::string variants = "GET /api/variants HTTP/1.1\r\n" + kHost;
  add("truncated body", "POST /api/game HTTP/1.1\r\n" + kHost + "Content-Length: 1000\r\n\r\n{\"variant\":");
  add("truncated body on a move",
      "POST " + move + " HTTP/1.1\r\n" + kHost + bearer(b.tokens[0]) + "Content-Length: 5000\r\n\r\nabc");
  cases.push_back({"truncated body, closed", "POST /api/game HTTP/1.1\r\n" + kHost + "Content-Length: 100\r\n\r\n{",
                   Case::Mode::kAbort});
  add("an oversized declared body", "POST /api/game HTTP/1.1\r\n" + kHost + "Content-Length: 99999999999\r\n\r\n{}");
  add("a Content-Length over 64 bits",
      "POST /api/game HTTP/1.1\r\n" + kHost + "Content-Length: 18446744073709551617\r\n\r\n{}");
  add("a negative Content-Length", "POST /api/game HTTP/1.1\r\n" + kHost + "Content-Length: -1\r\n\r\n{}");
  add("a Content-Length in hex", "POST /api/game HTTP/1.1\r\n" + kHost + "Content-Length: 0x2\r\n\r\n{}");
  add("a Content-Length with a plus", "POST /api/game HTTP/1.1\r\n" + kHost + "Content-Length: +2\r\n\r\n{}");
  add("two different Content-Lengths",
      "POST /api/game HTTP/1.1\r\n" + kHost + "Content-Length: 2\r\nContent-Length: 20\r\n\r\n{}");
  add("two equal Content-Lengths",
      "POST /api/game HTTP/1.1\r\n" + kHost + "Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}");
  add("a Content-Length list", "POST /api/game HTTP/1.1\r\n" + kHost + "Content-Length: 2, 20\r\n\r\n{}");
  add("Content-Length and chunked", "POST /api/game HTTP/1.1\r\n" + kHost +
                                        "Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n");
  for (const auto& [name, chunks] : std::vector<std::pair<std::string, std::string>>{
           {"a chunk size that is not hex", "zz\r\n{}\r\n0\r\n\r\n"},
           {"a chunk size over 64 bits", "fffffffffffffffffff\r\n{}\r\n0\r\n\r\n"},
           {"a negative chunk size", "-2\r\n{}\r\n0\r\n\r\n"},
           {"a chunk size 0x2", "0x2\r\n{}\r\n0\r\n\r\n"},
           {"a chunk longer than said", "2\r\n{\"variant\":1}\r\n0\r\n\r\n"},
           {"a chunk shorter than said", "20\r\n{}\r\n0\r\n\r\n"},
           {"chunks over 64 KiB", "10001\r\n" + std::string(0x10001, ' ') + "\r\n0\r\n\r\n"},
           {"a 20 KB chunk extension", "2;" + std::string(20000, 'e') + "\r\n{}\r\n0\r\n\r\n"},
           {"no last chunk", "2\r\n{}\r\n"},
           {"a huge trailer", "2\r\n{}\r\n0\r\nX-T: " + std::string(20000, 't') + "\r\n\r\n"}})
    add("chunked: " + name, "POST /api/game HTTP/1.1\r\n" + kHost +
                                "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n" + chunks);
  // A body the server cannot delimit must not be read as the next request
  // (RFC 9112 6.3: a request whose last transfer coding is not chunked gets
  // a 400 and the connection closes).
  const std::string smuggled = "GET /api/variants HTTP/1.1\r\n" + kHost + "\r\n";
  for (const auto& [name, headers, body] : std::vector<std::tuple<std::string, std::string, std::string>>{
           {"gzip, chunked", "Transfer-Encoding: gzip, chunked\r\n", "2\r\n{}\r\n0\r\n\r\n"},
           {"chunked, identity", "Transfer-Encoding: chunked, identity\r\n", "2\r\n{}\r\n0\r\n\r\n"},
           {"chunked, identity with a request in the body", "Transfer-Encoding: chunked, identity\r\n", smuggled},
           {"identity with a request in the body", "Transfer-Encoding: identity\r\n", smuggled},
           {"unknown", "Transfer-Encoding: xyz\r\n", "{}"},
           {"unknown with a request in the body", "Transfer-Encoding: xyz\r\n", smuggled},
           {"chunked then identity in two headers", "Transfer-Encoding: chunked\r\nTransfer-Encoding: identity\r\n",
            smuggled},
           {"a space before the colon", "Transfer-Encoding : chunked\r\n", "0\r\n\r\n" + smuggled},
           {"chunked and a Content-Length", "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n",
            "0\r\n\r\n" + smuggled}}) {
    add("Transfer-Encoding " + name, "POST /api/game HTTP/1.1\r\n" + kHost + headers + "\r\n" + body);
    cases.back().maxReplies = 1;
  }
  add("Expect 100-continue, no body",
      "POST /api/game HTTP/1.1\r\n" + kHost + "Expect: 100-continue\r\nContent-Length: 10\r\n\r\n");
  {
    std::string flood = variants;
    for (int i = 0; i < 5000; ++i) flood += "X-H" + std::to_string(i) + ": v\r\n";
    add("5000 headers", flood + "\r\n");
    std::string same = variants;
    for (int i = 0; i < 5000; ++i) same += "Cookie: a=b\r\n";
    add("5000 equal headers", same + "\r\n");
  }
  add("one 100 KB header", variants + "X-Big: " + std::string(100 * 1024, 'h') + "\r\n\r\n");
  add("one 1 MB header", variants + "X-Big: " + std::string(1 << 20, 'h') + "\r\n\r\n");
  add("a 100 KB header name", variants + std::string(100 * 1024, 'N') + ": v\r\n\r\n");
  add("a header without a colon", variants + "NoColonHere\r\n\r\n");
  add("a header name with a space", variants + "X Bad: v\r\n\r\n");
  add("a header with a raw NUL", variants + bin("X-N: a\0b\r\n\r\n"));
  add("a folded header", variants + "X-F: a\r\n b\r\n\r\n");
  add("no Host", "GET /api/variants HTTP/1.1\r\n\r\n");
  add("two Hosts", variants + "Host: evil\r\n\r\n");
  add("a Host with a path", "GET /api/variants HTTP/1.1\r\nHost: ../../secret.txt\r\n\r\n");
  add("bare LF line ends", "GET /api/variants HTTP/1.1\nHost: x\n\n");
  add("bare CR line ends", "GET /api/variants HTTP/1.1\rHost: x\r\r");
  cases.push_back({"HTTP/1.0", "GET /api/variants HTTP/1.0\r\n\r\n"});
  cases.push_back({"HTTP/1.0 traversal", "GET /..%2Fsecret.txt HTTP/1.0\r\n\r\n"});
  cases.push_back({"HTTP/1.0 keep-alive, two requests",
                   "GET /js/app.js HTTP/1.0\r\nConnection: keep-alive\r\n\r\nGET /%2Fetc%2Fpasswd HTTP/1.0\r\n\r\n",
                   Case::Mode::kReply,
                   {},
                   false,
                   2});
  add("HTTP/0.9", "GET /\r\n");
  add("HTTP/0.9 traversal", "GET /..%2Fsecret.txt\r\n\r\n");
  add("HTTP/2.0", "GET /api/variants HTTP/2.0\r\n" + kHost + "\r\n");
  add("HTTP/1.9", "GET /api/variants HTTP/1.9\r\n" + kHost + "\r\n");
  add("HTTP/9.9", "GET /api/variants HTTP/9.9\r\n" + kHost + "\r\n");
  add("lowercase http/1.1", "GET /api/variants http/1.1\r\n" + kHost + "\r\n");
  add("an HTTP/2 preface", std::string("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n") + std::string("\0\0\0\4\0\0\0\0\0", 9));
  add("a TLS client hello", std::string("\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03", 11) + std::string(500, '\x42'));
  {
    std::mt19937 bytes(7);
    std::string junk;
    for (int i = 0; i < 4096; ++i) junk += static_cast<char>(bytes() & 0xFF);
    add("4 KB of random bytes", junk);
  }
  add("1000 NUL bytes", std::string(1000, '\0'));
  add("5000 empty lines", std::string(10000, '\n'));
  add("5000 CRLFs then a request", [&] {
    std::string s;
    for (int i = 0; i < 5000; ++i) s += "\r\n";
    return s + get("/api/variants");
  }());
  add("a request line only", "GET / HTTP/1.1\r\n");
  add("a method only", "GET");
  add("a long method", std::string(20000, 'G') + " / HTTP/1.1\r\n" + kHost + "\r\n");
  add("a space-padded request line", "GET   /api/variants   HTTP/1.1\r\n" + kHost + "\r\n");
  add("THIS IS NOT HTTP", "THIS IS NOT HTTP\r\n\r\n");
  cases.push_back(
      {"slowloris: partial headers, closed", "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-a: b", Case::Mode::kAbort});
  cases.push_back({"slowloris: half a request line, closed", "GET /api/vari", Case::Mode::kAbort});
  cases.push_back({"slowloris: partial body, closed",
                   "POST /api/game HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\n\r\n{", Case::Mode::kAbort});
  add("a good request, then garbage", get("/api/variants") + "\x01\x02\x03 garbage\r\n\r\n");
  cases.back().requests = 2;

  // 7. WebSocket handshakes.
  const std::string wsA = "/ws/game/" + a.id;
  for (const auto& [name, bytes] : std::vector<std::pair<std::string, std::string>>{
           {"no Sec-WebSocket-Key", get(wsA, upgradeHeaders(""))},
           {"a short key", get(wsA, upgradeHeaders("abc"))},
           {"a 10 KB key", get(wsA, upgradeHeaders(std::string(10000, 'k')))},
           {"a key that is not base64", get(wsA, upgradeHeaders("!!!!!!!!!!!!!!!!!!!!!!!!"))},
           {"version 12", get(wsA, upgradeHeaders("dGhlIHNhbXBsZSBub25jZQ==", "12"))},
           {"version 99999999999", get(wsA, upgradeHeaders("dGhlIHNhbXBsZSBub25jZQ==", "99999999999"))},
           {"no version", get(wsA, upgradeHeaders("dGhlIHNhbXBsZSBub25jZQ==", ""))},
           {"Connection without Upgrade",
            get(wsA,
                "Upgrade: websocket\r\nConnection: keep-alive\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                "Sec-WebSocket-Version: 13\r\n")},
           {"Upgrade to something else", get(wsA, "Upgrade: h2c\r\nConnection: Upgrade\r\n")},
           {"POST upgrade", request("POST", wsA, upgradeHeaders())},
           {"HTTP/1.0 upgrade", "GET " + wsA + " HTTP/1.0\r\n" + upgradeHeaders() + "\r\n"},
           {"upgrade with a body", request("GET", wsA, upgradeHeaders(), "{\"t\":\"ping\"}")},
           {"an odd extension", get(wsA, upgradeHeaders() + "Sec-WebSocket-Extensions: permessage-deflate; "
                                                            "client_max_window_bits=99; server_max_window_bits=0\r\n")},
           {"a 10 KB subprotocol",
            get(wsA, upgradeHeaders() + "Sec-WebSocket-Protocol: " + std::string(10000, 'p') + "\r\n")},
           {"upgrade to no game", get("/ws/game/nosuchgame", upgradeHeaders())},
           {"upgrade to an id with invalid UTF-8", get("/ws/game/%ff%fe", upgradeHeaders())},
           {"upgrade to a traversal", get("/ws/..%2f..%2fsecret.txt", upgradeHeaders())},
           {"upgrade to /ws/game/%2F..%2F..%2Fsecret.txt", get("/ws/game/%2F..%2F..%2Fsecret.txt", upgradeHeaders())},
           {"upgrade to /ws/game/{id}/..", get(wsA + "/..", upgradeHeaders())},
           {"upgrade to /", get("/", upgradeHeaders())},
           {"upgrade to the API", get("/api/variants", upgradeHeaders())},
           {"upgrade with another game's token", get(wsA + "?token=" + b.tokens[0], upgradeHeaders())},
           {"upgrade with a NUL token", get(wsA + "?token=%00", upgradeHeaders())},
           {"upgrade with the token and %00", get(wsA + "?token=" + toMoveA + "%00", upgradeHeaders())},
           {"upgrade with a bad escape", get(wsA + "?token=%zz", upgradeHeaders())},
           {"upgrade with a 20 KB token", get(wsA + "?token=" + std::string(20000, 't'), upgradeHeaders())},
           {"upgrade with a bearer of another game", get(wsA, upgradeHeaders() + bearer(b.tokens[0]))},
           {"GET /ws/game/{id} without upgrading", get(wsA)}}) {
    cases.push_back({"WebSocket handshake: " + name, bytes, Case::Mode::kWebSocket});
  }

  // 8. WebSocket frames, each on its own watcher connection to game a.
  const std::string ping = R"({"t":"ping"})";
  const std::vector<std::pair<std::string, std::vector<std::string>>> frameCases = {
      {"an unmasked text frame", {wsFrame(0x81, ping, false)}},
      {"a frame claiming 2^63 bytes", {wsFrameClaiming(0x82, 1ull << 63, "abcd")}},
      {"a frame claiming 2^64-1 bytes", {wsFrameClaiming(0x81, ~0ull, "abcd")}},
      {"a text frame claiming 1 GB", {wsFrameClaiming(0x81, 1ull << 30, std::string(1000, 'x'))}},
      {"a text frame of 70 KB", {wsFrame(0x81, std::string(70 * 1024, ' '))}},
      {"reserved opcode 3", {wsFrame(0x83, ping)}},
      {"reserved opcode 7", {wsFrame(0x87, ping)}},
      {"reserved control opcode 0xB", {wsFrame(0x8B, "")}},
      {"reserved control opcode 0xF", {wsFrame(0x8F, "x")}},
      {"a binary frame", {wsFrame(0x82, ping)}},
      {"a binary frame of invalid UTF-8", {wsFrame(0x82, "\xff\xfe\xfd")}},
      {"a fragmented ping", {wsFrame(0x09, "a"), wsFrame(0x80, "b")}},
      {"a fragmented close", {wsFrame(0x08, closePayload(1000)), wsFrame(0x80, "")}},
      {"a ping over 125 bytes", {wsFrame(0x89, std::string(200, 'p'))}},
      {"a close without payload", {wsFrame(0x88, "")}},
      {"a close with one byte", {wsFrame(0x88, "\x03")}},
      {"a close with code 999", {wsFrame(0x88, closePayload(999))}},
      {"a close with code 1005", {wsFrame(0x88, closePayload(1005))}},
      {"a close with code 5000", {wsFrame(0x88, closePayload(5000))}},
      {"a close with an invalid UTF-8 reason", {wsFrame(0x88, closePayload(1000, "\xff\xfe"))}},
      {"text after close", {wsFrame(0x88, closePayload(1000)), wsFrame(0x81, ping)}},
      {"invalid UTF-8 text", {wsFrame(0x81, "\xc3\x28")}},
      {"a surrogate in text", {wsFrame(0x81, "{\"t\":\"\xed\xa0\x80\"}")}},
      {"overlong UTF-8 text", {wsFrame(0x81, "{\"t\":\"\xc0\xaf\"}")}},
      {"code points over U+10FFFF", {wsFrame(0x81, "\xf8\x88\x80\x80\x80")}},
      {"invalid UTF-8 across fragments", {wsFrame(0x01, "{\"t\":\"\xe2\x82"), wsFrame(0x80, "(\"}")}},
      {"a continuation without a start", {wsFrame(0x80, ping)}},
      {"a new text frame inside a fragmented one", {wsFrame(0x01, "{\"t\":"), wsFrame(0x81, ping)}},
      {"RSV1 without an extension", {wsFrame(0xC1, ping)}},
      {"RSV2", {wsFrame(0xA1, ping)}},
      {"RSV3", {wsFrame(0x91, ping)}},
      {"a 16-bit length for 5 bytes", {std::string("\x81\xFE\x00\x05\x37\xFA\x21\x3D", 8) + "hello"}},
      {"1000 empty fragments",
       [] {
         std::vector<std::string> v{wsFrame(0x01, "")};
         for (int i = 0; i < 1000; ++i) v.push_back(wsFrame(0x00, ""));
         v.push_back(wsFrame(0x80, ""));
         return v;
       }()},
      {"fragments past 64 KiB",
       [] {
         std::vector<std::string> v{wsFrame(0x01, std::string(30000, ' '))};
         v.push_back(wsFrame(0x00, std::string(30000, ' ')));
         v.push_back(wsFrame(0x80, std::string(30000, ' ')));
         return v;
       }()},
      {"a watcher's move and resign",
       {wsFrame(0x81, R"({"t":"move","d":{"uci":")" + blackMove + "\"}}"), wsFrame(0x81, R"({"t":"resign"})"),
        wsFrame(0x81, R"({"t":"draw","d":{"action":"offer"}})"), wsFrame(0x81, R"({"t":"takeback"})")}},
      {"bad JSON messages",
       {wsFrame(0x81, "{not json"), wsFrame(0x81, std::string(10000, '[')), wsFrame(0x81, R"({"t":"\ud800"})"),
        wsFrame(0x81, R"({"t":5})"), wsFrame(0x81, "null"), wsFrame(0x81, ""), wsFrame(0x81, R"({"t":"nope"})")}},
  };
  for (const auto& [name, frames] : frameCases) {
    cases.push_back({"WebSocket frames: " + name, get(wsA, upgradeHeaders()), Case::Mode::kWebSocket, frames});
    cases.back().requests = 1;
  }
  // Messages with a seat's token in game c (its seats connect, so its version
  // moves; its moves must not): only refusals.
  {
    std::vector<std::string> frames;
    for (const std::string& m : std::vector<std::string>{
             R"({"t":"move","d":{"uci":"\ud800"}})", R"({"t":"move","d":{"uci":"\udfff\ud800"}})",
             R"({"t":"move","d":{"uci":")" + whiteMoveC + R"(\u0000"}})",
             R"({"t":"move","d":{"uci":")" + whiteMoveC + R"(\u0000x"}})", R"({"t":"move","d":{"uci":5}})",
             R"({"t":"move","d":{"uci":null}})", R"({"t":"move","d":null})", R"({"t":"move"})",
             R"({"t":"move","d":{"uci":")" + std::string(10000, 'u') + "\"}}",
             R"({"t":"move","d":{"uci":"\"}<script>"}})", R"({"t":"\ud800"})", R"({"t":"move","d":[]})",
             R"({"t":"draw","d":{"action":"\ud800"}})", R"({"t":"draw","d":{"action":5}})"})
      frames.push_back(wsFrame(0x81, m));
    frames.push_back(wsFrame(0x82, R"({"t":"ping"})"));
    frames.push_back(wsFrame(0x81, R"({"t":"ping"})"));
    cases.push_back({"WebSocket messages with a seat's token",
                     get("/ws/game/" + c.id + "?token=" + c.tokens[0], upgradeHeaders()), Case::Mode::kWebSocket,
                     frames});
    cases.back().requests = 1;
    cases.push_back({"WebSocket: invalid UTF-8 text with a seat's token",
                     get("/ws/game/" + c.id + "?token=" + c.tokens[0], upgradeHeaders()),
                     Case::Mode::kWebSocket,
                     {wsFrame(0x81, R"({"t":"move","d":{"uci":")" + whiteMoveC + "\"}}\xff")}});
  }

  // Run them, each from its own local address.
  Tally tally;
  int source = 0;
  std::string previous = "(none)";
  for (const auto& cs : cases) {
    if (!runCase(cs, port, source++, child, secrets, tally)) {
      child.waitForEnd(5000);
      ++tally.crashes;
      tally.crash = "the server died on \"" + printable(previous, 100) + "\" or on \"" + printable(cs.name, 100) +
                    "\": " + child.howItEnded();
      break;
    }
    previous = cs.name;
    if (tally.timeoutsInARow >= 3) {
      tally.issues.push_back("the server stopped answering: 3 exchanges in a row, the last \"" +
                             printable(cs.name, 100) + "\", neither ended nor were closed within " +
                             std::to_string(kExchangeMs) + " ms; the rest were not sent");
      break;
    }
  }

  // Slowloris: connections that hold half a request stay open while another
  // client is served; then they go away.
  if (tally.crashes == 0) {
    std::vector<std::unique_ptr<RawConn>> held;
    const auto deadline = Clock::now() + std::chrono::milliseconds(kExchangeMs);
    for (int i = 0; i < 20; ++i) {
      held.push_back(std::make_unique<RawConn>(port, source++));
      held.back()->send("GET /api/variants HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ", deadline);
      ++tally.connections;
      ++tally.requests;
      ++tally.statuses[0];
    }
    const Reply r = askPatiently(port, source++, get("/api/variants"));
    ++tally.connections;
    ++tally.requests;
    ++tally.statuses[r.status];
    EXPECT_EQ(r.status, 200) << "a client is served while 20 others hold half a request";
    held.clear();
  }

  // After it all: the server runs and answers, and no game changed.
  const bool alive = child.alive();
  const Reply after = askPatiently(port, source++, get("/api/variants"));
  if (!alive || after.status == 0) {
    child.waitForEnd(5000);
    if (tally.crashes == 0) {
      ++tally.crashes;
      tally.crash = "the server is gone after the hostile requests: " + child.howItEnded();
    }
  }
  std::printf("%s\n", statusLine(tally).c_str());
  std::fflush(stdout);
  // Every issue, one failure each (capped).
  const size_t shown = std::min<size_t>(tally.issues.size(), 150);
  for (size_t i = 0; i < shown; ++i) ADD_FAILURE() << tally.issues[i];
  EXPECT_EQ(tally.issues.size(), 0u) << "issues in all (the first " << shown << " are listed above)";
  ASSERT_EQ(tally.crashes, 0) << tally.crash << "\nlog tail:\n" << child.logTail();
  EXPECT_EQ(after.status, 200);
  EXPECT_TRUE(parseJson(after.body).ok()) << printable(after.body);
  EXPECT_EQ(after.headers.count("content-type") ? after.headers.at("content-type") : "", "application/json");

  const Json stillAlice = askJson(port, 300, get("/api/account", aliceCookie));
  EXPECT_TRUE(stillAlice.get("signedIn") && stillAlice.get("signedIn")->asBool()) << "Alice's session outlives it all";
  const GameSnap afterA = snapshot(port, 300, a.id), afterB = snapshot(port, 300, b.id),
                 afterC = snapshot(port, 300, c.id);
  EXPECT_EQ(afterA, beforeA) << "game a: before " << describe(beforeA) << "; after " << describe(afterA);
  EXPECT_EQ(afterB, beforeB) << "game b: before " << describe(beforeB) << "; after " << describe(afterB);
  EXPECT_EQ(afterC.plies, beforeC.plies) << "game c: before " << describe(beforeC) << "; after " << describe(afterC);
  EXPECT_EQ(afterC.fen, beforeC.fen);
  EXPECT_EQ(afterC.status, beforeC.status);
  // No hostile body created a game.
  const Json list = askJson(port, 300, get("/api/games?limit=500"));
  EXPECT_LE(list.items().size(), 3u) << "games in the lobby after the hostile requests";
  const int changed = (afterA != beforeA) + (afterB != beforeB) +
                      (afterC.plies != beforeC.plies || afterC.fen != beforeC.fen || afterC.status != beforeC.status);
  std::printf("hostile: games changed %d of 3, games in the lobby %zu (3 before)\n", changed, list.items().size());

  // The log (its access log goes to stderr): a line per request, never a token.
  const std::string log = readFile(tmp.path() / "serve.log");
  EXPECT_NE(log.find(" GET /api/variants 200 "), std::string::npos) << "the access log:\n" << child.logTail();
  int tokensLogged = 0;
  for (const auto* g : {&a, &b, &c})
    for (const auto& token : g->tokens)
      if (!token.empty() && log.find(token) != std::string::npos) {
        ++tokensLogged;
        ADD_FAILURE() << "a seat token is in the server's log: "
                      << log.substr(log.find(token) < 200 ? 0 : log.find(token) - 200, 300);
      }
  std::printf("hostile: the log has %zu bytes, %d seat tokens\n", log.size(), tokensLogged);
}

// Pages from a web directory with no index.html (or none at all) must not
// crash the server: an empty path once reached t.segments.front() on an
// empty vector in serveFile. Runs the pages, then asks the API.
void pagesDoNotCrash(const fs::path& web, const fs::path& tmp, bool mayRefuseToStart) {
  ServeChild child(tmp / "games.db", web, tmp / "serve.log");
  const int port = child.port();
  if (port == 0 && mayRefuseToStart && child.waitForEnd(5000) && child.howItEnded().rfind("exited", 0) == 0) {
    std::printf("the server refuses a web directory that does not exist (%s): nothing to serve\n",
                child.howItEnded().c_str());
    return;
  }
  ASSERT_GT(port, 0) << "the server did not start: " << child.howItEnded() << "\n" << child.logTail();
  int source = 0;
  for (const std::string target :
       {"/", "/?x=1", "//", "/./", "/%2F", "/index.html", "/game/abc", "/lobby", "/js/app.js", "/rules", "/.."}) {
    const Reply r = ask(port, source++, get(target));
    if (!child.alive() || r.status == 0) {
      child.waitForEnd(5000);
      FAIL() << "GET " << target << " with " << web.filename()
             << " as the web directory: " << (r.status == 0 ? "no reply; " : "") << "the server " << child.howItEnded()
             << "\nlog tail:\n"
             << child.logTail();
    }
    EXPECT_LT(r.status, 500) << target;
  }
  const Reply head = ask(port, source++, request("HEAD", "/"));
  EXPECT_TRUE(child.alive()) << "HEAD /: the server " << child.howItEnded();
  EXPECT_NE(head.status, 0);
  const Reply after = askPatiently(port, source++, get("/api/variants"));
  EXPECT_EQ(after.status, 200) << "the server " << child.howItEnded();
  EXPECT_TRUE(parseJson(after.body).ok());
}

TEST(HostileServer, MissingWebDirectoryDoesNotCrashTheServer) {
  TempDir tmp("hostile-noweb");
  pagesDoNotCrash(tmp.path() / "no-such-web-dir", tmp.path(), true);
}

TEST(HostileServer, EmptyWebDirectoryDoesNotCrashTheServer) {
  TempDir tmp("hostile-emptyweb");
  fs::create_directories(tmp.path() / "web");
  pagesDoNotCrash(tmp.path() / "web", tmp.path(), false);
}

// Issue 21's "done when": `acedrex serve` started in an empty folder with no
// flag but --port serves the lobby at / (the front end inside the binary), and
// the API, and no traversal attempt reaches the database it made there or any
// other file.
TEST(HostileServer, StartedInAnEmptyFolderWithOnlyAPortItServesTheLobbyTheApiAndNoTraversal) {
  TempDir tmp("hostile-bare");
  const fs::path folder = tmp.path() / "empty";
  fs::create_directories(folder);
  ServeChild child({"--port", "0"}, tmp.path() / "serve.log", folder, true);
  const int port = child.port();
  ASSERT_GT(port, 0) << "the server did not start: " << child.howItEnded() << "\n" << child.logTail();
  int source = 0;

  const Reply lobby = askPatiently(port, source++, get("/"));
  EXPECT_EQ(lobby.status, 200);
  EXPECT_EQ(lobby.body, readFile(fs::path(ACEDREX_SOURCE_DIR) / "web" / "index.html")) << "the lobby page";
  const Reply variants = askPatiently(port, source++, get("/api/variants"));
  EXPECT_EQ(variants.status, 200);
  EXPECT_TRUE(parseJson(variants.body).ok());
  int status = 0;
  const Json created = askJson(port, source++, postJson("/api/game", R"({"variant":"shako"})"), &status);
  ASSERT_EQ(status, 201);
  const std::string id = created.get("id") ? created.get("id")->asString() : "";
  EXPECT_EQ(askPatiently(port, source++, get("/api/game/" + id)).status, 200);
  const fs::path db = folder / "acedrex.db";
  ASSERT_TRUE(fs::exists(db)) << "the default database is made in the folder the server started in";
  ASSERT_NE(readFile(db).find("SQLite format 3"), std::string::npos);

  std::vector<std::string> pages;  // what a 200 page may be: a file of the front end
  std::error_code walk;
  for (fs::recursive_directory_iterator it(fs::path(ACEDREX_SOURCE_DIR) / "web", walk), end; !walk && it != end;
       it.increment(walk))
    if (it->is_regular_file()) pages.push_back(readFile(it->path()));
  std::string dbAbs;
  for (char ch : fs::absolute(db).string()) dbAbs += ch == '/' ? std::string("%2F") : std::string(1, ch);
  const std::vector<std::string> attempts = {
      "/%2Fetc%2Fpasswd", "/%2fetc%2fpasswd", "//etc/passwd", "/etc/passwd", "/..%2Facedrex.db", "/..%2facedrex.db",
      "/../acedrex.db", "/%2e%2e/acedrex.db", "/%2E%2E%2Facedrex.db", "/.%2e/acedrex.db", "/%2e./acedrex.db",
      "/js/..%2F..%2Facedrex.db", "/js/../../acedrex.db", "/game/..%2F..%2Facedrex.db", "/rules/%2e%2e%2facedrex.db",
      "/%252e%252e%252facedrex.db", "/..%5cacedrex.db", "/..\\acedrex.db", "/acedrex.db", "/acedrex.db-wal",
      "/./acedrex.db", "/%00/../acedrex.db", "/index.html%00/../../acedrex.db", "/" + dbAbs, "/%2F" + dbAbs,
      "/..%2F..%2F..%2F..%2F..%2F..%2F..%2F..%2Fetc%2Fpasswd", "/%c0%ae%c0%ae/acedrex.db", "/..;/acedrex.db"};
  int refused = 0;
  for (const auto& target : attempts) {
    const Reply r = askPatiently(port, source++, get(target));
    ASSERT_TRUE(child.alive()) << "GET " << target << ": the server " << child.howItEnded();
    EXPECT_NE(r.status, 0) << "GET " << target << ": no reply";
    EXPECT_EQ(r.body.find("SQLite format 3"), std::string::npos) << "GET " << target << " served the database";
    EXPECT_EQ(r.body.find("root:x:0:0"), std::string::npos) << "GET " << target << " served /etc/passwd";
    if (r.status == 200) {
      bool known = false;
      for (const auto& p : pages) known = known || r.body == p;
      EXPECT_TRUE(known) << "GET " << target << ": a 200 that is no file of the front end";
    } else {
      EXPECT_TRUE(r.status == 400 || r.status == 404) << "GET " << target << ": " << r.status;
      ++refused;
    }
  }
  std::printf("empty folder, --port only: lobby %d, API %d, %d of %zu traversal attempts refused (400/404)\n",
              lobby.status, variants.status, refused, attempts.size());
}

}  // namespace
}  // namespace acedrex::server
