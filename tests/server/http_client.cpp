#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>
#include <random>

#include "test_support.h"

namespace acedrex::server::testing {

int connectLoopback(int port, int source, int receiveBuffer) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  if (source >= 0) {
    sockaddr_in local{};
    local.sin_family = AF_INET;
    local.sin_addr.s_addr = htonl(0x7F000000u | static_cast<uint32_t>(2 + source % 250));
    (void)::bind(fd, reinterpret_cast<sockaddr*>(&local), sizeof local);  // else any local address
  }
  if (receiveBuffer > 0) ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &receiveBuffer, sizeof receiveBuffer);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(fd);
    return -1;
  }
  int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  return fd;
}

HttpClient::HttpClient(int port) : fd_(connectLoopback(port)) {}

HttpClient::~HttpClient() { close(); }

void HttpClient::close() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

bool HttpClient::sendAll(const std::string& data) {
  size_t off = 0;
  while (off < data.size()) {
    const ssize_t n = ::send(fd_, data.data() + off, data.size() - off, MSG_NOSIGNAL);
    if (n <= 0) return false;
    off += static_cast<size_t>(n);
  }
  return true;
}

bool HttpClient::readMore(int timeoutMs) {
  if (fd_ < 0) return false;
  pollfd p{fd_, POLLIN, 0};
  if (::poll(&p, 1, timeoutMs) <= 0) return false;
  char tmp[16384];
  const ssize_t n = ::recv(fd_, tmp, sizeof tmp, 0);
  if (n <= 0) return false;
  buf_.append(tmp, static_cast<size_t>(n));
  return true;
}

bool HttpClient::readHead(HttpReply& r, int timeoutMs) {
  size_t end;
  while ((end = buf_.find("\r\n\r\n")) == std::string::npos)
    if (!readMore(timeoutMs)) return false;
  const std::string head = buf_.substr(0, end);
  buf_.erase(0, end + 4);
  size_t lineEnd = head.find("\r\n");
  const std::string status = head.substr(0, lineEnd);
  if (status.size() < 12) return false;
  r.status = std::atoi(status.substr(9, 3).c_str());
  while (lineEnd != std::string::npos) {
    const size_t next = head.find("\r\n", lineEnd + 2);
    const std::string line = head.substr(lineEnd + 2, next == std::string::npos ? std::string::npos : next - lineEnd - 2);
    const size_t colon = line.find(':');
    if (colon != std::string::npos) {
      std::string k = line.substr(0, colon);
      for (auto& c : k) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      std::string v = line.substr(colon + 1);
      while (!v.empty() && v.front() == ' ') v.erase(0, 1);
      r.headers[k] = v;
    }
    lineEnd = next;
  }
  return true;
}

bool HttpClient::readBody(HttpReply& r, int timeoutMs) {
  if (r.headers.count("content-length")) {
    const size_t len = std::stoul(r.headers["content-length"]);
    while (buf_.size() < len)
      if (!readMore(timeoutMs)) return false;
    r.body = buf_.substr(0, len);
    buf_.erase(0, len);
    return true;
  }
  if (r.headers["transfer-encoding"] == "chunked") {
    for (;;) {
      const std::string c = readChunk(timeoutMs);
      if (c.empty()) return true;
      r.body += c;
    }
  }
  while (readMore(timeoutMs)) {
  }
  r.body = buf_;
  buf_.clear();
  return true;
}

std::string HttpClient::readChunk(int timeoutMs) {
  size_t eol;
  while ((eol = buf_.find("\r\n")) == std::string::npos)
    if (!readMore(timeoutMs)) return {};
  const size_t len = std::strtoul(buf_.substr(0, eol).c_str(), nullptr, 16);
  while (buf_.size() < eol + 2 + len + 2)
    if (!readMore(timeoutMs)) return {};
  std::string out = buf_.substr(eol + 2, len);
  buf_.erase(0, eol + 2 + len + 2);
  return out;
}

HttpReply HttpClient::request(const std::string& method, const std::string& target, const std::string& body,
                              const std::string& token, const std::map<std::string, std::string>& extra) {
  std::string req = method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n";
  if (!token.empty()) req += "Authorization: Bearer " + token + "\r\n";
  for (const auto& [k, v] : extra) req += k + ": " + v + "\r\n";
  if (!body.empty() || method == "POST") {
    req += "Content-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) + "\r\n";
  }
  req += "\r\n" + body;
  return raw(req);
}

HttpReply HttpClient::raw(const std::string& bytes) {
  HttpReply r;
  if (fd_ < 0 || !sendAll(bytes)) return r;
  if (!readHead(r, 10000)) return r;
  readBody(r, 10000);
  return r;
}

HttpReply HttpClient::openStream(const std::string& target, const std::string& token) {
  HttpReply r;
  std::string req = "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n";
  if (!token.empty()) req += "Authorization: Bearer " + token + "\r\n";
  req += "\r\n";
  if (!sendAll(req) || !readHead(r, 10000)) return r;
  if (r.headers["transfer-encoding"] != "chunked") readBody(r, 10000);
  return r;
}

bool HttpClient::upgrade(const std::string& target, int* status) {
  const std::string req = "GET " + target +
                          " HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                          "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";
  HttpReply r;
  if (!sendAll(req) || !readHead(r, 10000)) return false;
  if (status) *status = r.status;
  if (r.status != 101) readBody(r, 1000);
  return r.status == 101;
}

bool HttpClient::sendText(const std::string& text) {
  std::string frame;
  frame += static_cast<char>(0x81);
  const size_t n = text.size();
  if (n < 126) {
    frame += static_cast<char>(0x80 | n);
  } else if (n < 65536) {
    frame += static_cast<char>(0x80 | 126);
    frame += static_cast<char>((n >> 8) & 0xFF);
    frame += static_cast<char>(n & 0xFF);
  } else {
    frame += static_cast<char>(0x80 | 127);
    for (int i = 7; i >= 0; --i) frame += static_cast<char>((static_cast<uint64_t>(n) >> (8 * i)) & 0xFF);
  }
  static std::mt19937 rng(42);
  unsigned char mask[4];
  for (auto& m : mask) m = static_cast<unsigned char>(rng());
  frame.append(reinterpret_cast<char*>(mask), 4);
  for (size_t i = 0; i < n; ++i) frame += static_cast<char>(text[i] ^ mask[i % 4]);
  return sendAll(frame);
}

std::string HttpClient::readText(int timeoutMs) {
  std::string message;  // a text message may come in fragments: a text frame, then continuations up to FIN
  for (;;) {
    while (buf_.size() < 2)
      if (!readMore(timeoutMs)) return {};
    const unsigned char b0 = static_cast<unsigned char>(buf_[0]), b1 = static_cast<unsigned char>(buf_[1]);
    size_t len = b1 & 0x7F, off = 2;
    if (len == 126) {
      while (buf_.size() < 4)
        if (!readMore(timeoutMs)) return {};
      len = (static_cast<unsigned char>(buf_[2]) << 8) | static_cast<unsigned char>(buf_[3]);
      off = 4;
    } else if (len == 127) {
      while (buf_.size() < 10)
        if (!readMore(timeoutMs)) return {};
      len = 0;
      for (int i = 0; i < 8; ++i) len = (len << 8) | static_cast<unsigned char>(buf_[2 + static_cast<size_t>(i)]);
      off = 10;
    }
    while (buf_.size() < off + len)
      if (!readMore(timeoutMs)) return {};
    std::string payload = buf_.substr(off, len);
    buf_.erase(0, off + len);
    const int opcode = b0 & 0x0F;
    const bool fin = (b0 & 0x80) != 0;
    if (opcode == 1 || opcode == 0) {
      message += payload;
      if (fin) return message;
      continue;
    }
    if (opcode == 8) return {};
    // ping / pong / binary: skip
  }
}

}  // namespace acedrex::server::testing
