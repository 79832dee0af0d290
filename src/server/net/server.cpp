// Boost.Beast sessions, after the chat-multi example: the app knows nothing
// about sockets; each socket has its own strand; a WebSocket or a stream
// writes one message at a time from a queue.
//
// What a client can hold is bounded (ServerLimits): its TCP connections, its
// streams and WebSockets, its request rate, and the bytes queued for it. A
// completion handler never touches a queue entry after the session closed,
// and a queue is never cleared under a write in flight.
#include "server/net/server.h"

#include <sys/resource.h>

#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <deque>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include "server/app/limits.h"
#include "server/app/log.h"
#include "server/app/feed.h"
#include "server/app/static_files.h"

namespace acedrex::server::net {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace asio = boost::asio;
using tcp = asio::ip::tcp;

namespace {

constexpr auto kHeaderTimeout = std::chrono::seconds(30);  // a request's headers and body must arrive within this

// One counted connection or stream: released when the last holder lets go.
class Slot {
 public:
  Slot(ConnectionCounter& counter, std::string key) : counter_(counter), key_(std::move(key)) {}
  ~Slot() { counter_.release(key_); }
  Slot(const Slot&) = delete;
  Slot& operator=(const Slot&) = delete;

 private:
  ConnectionCounter& counter_;
  std::string key_;
};

// What every session reaches: the app, the static files, the limits.
struct Shared {
  Shared(Api& a, const HttpConfig& c, const TimeSource& time)
      : api(a), limits(c.limits), trustProxy(c.trustProxy),
        requests(c.limits.requestsPerClientPerSecond, c.limits.requestBurst, time),
        connections(c.limits.connectionsPerClient, c.limits.maxConnections),
        streams(c.limits.streamsPerClient, c.limits.maxStreams) {}
  Api& api;
  ServerLimits limits;
  bool trustProxy;
  std::optional<WebRoot> web;
  RateLimiter requests;
  ConnectionCounter connections;
  ConnectionCounter streams;
  SharedMessages messages;
};

template <class Body>
void commonHeaders(http::response<Body>& res) {
  res.set(http::field::server, "acedrex");
  res.set(http::field::access_control_allow_origin, "*");
  res.set("X-Content-Type-Options", "nosniff");
}

http::response<http::string_body> makeResponse(unsigned version, bool keepAlive, const ApiResponse& r) {
  http::response<http::string_body> res{static_cast<http::status>(r.status), version};
  commonHeaders(res);
  res.set(http::field::content_type, r.contentType);
  res.set(http::field::cache_control, "no-store");
  if (!r.setCookie.empty()) res.set(http::field::set_cookie, r.setCookie);
  if (r.retryAfterMs > 0) res.set(http::field::retry_after, std::to_string((r.retryAfterMs + 999) / 1000));
  else if (r.status == 429) res.set(http::field::retry_after, "1");
  res.keep_alive(keepAlive);
  res.body() = r.body;
  res.prepare_payload();
  return res;
}

// ---------------------------------------------------------------------------
// WebSocket session: /ws/game/{id}

class WsSession : public std::enable_shared_from_this<WsSession> {
 public:
  WsSession(tcp::socket&& socket, Shared& shared, Subscription sub, std::string client, std::shared_ptr<Slot> conn,
            std::shared_ptr<Slot> stream)
      : ws_(std::move(socket)), shared_(shared), sub_(std::move(sub)), client_(std::move(client)),
        conn_(std::move(conn)), stream_(std::move(stream)), feed_(SharedMessages::kWebSocket, sub_.deltas) {}

  void run(http::request<http::string_body> req) {
    ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
    ws_.set_option(websocket::stream_base::decorator(
        [](websocket::response_type& res) { res.set(http::field::server, "acedrex"); }));
    ws_.read_message_max(kMaxBodyBytes);
    ws_.async_accept(req, beast::bind_front_handler(&WsSession::onAccept, shared_from_this()));
  }

 private:
  void onAccept(beast::error_code ec) {
    if (ec) return closeDown();
    // The listener holds only a weak pointer: it may outlive the session and the
    // io_context (it is destroyed with the room).
    std::weak_ptr<WsSession> weak = shared_from_this();
    Update current;
    listenerId_ = sub_.room->subscribe(
        sub_.token,
        [weak](const Update& u) {
          if (auto self = weak.lock())
            asio::post(self->ws_.get_executor(), [self, u]() { self->sendUpdate(u); });
        },
        &current, &feed_.you());
    subscribed_ = true;
    sendUpdate(current);
    doRead();
  }

  void sendUpdate(const Update& u) {
    if (closed_) return;
    pushed(feed_.pushUpdate(u, shared_.messages, shared_.limits.queueBytesPerClient));
  }

  void doRead() { ws_.async_read(buffer_, beast::bind_front_handler(&WsSession::onRead, shared_from_this())); }

  void onRead(beast::error_code ec, std::size_t) {
    if (ec || closed_) return closeDown();
    const std::string message = beast::buffers_to_string(buffer_.data());
    buffer_.consume(buffer_.size());
    std::string reply;
    if (!ws_.got_text()) {
      reply = "{\"t\":\"error\",\"d\":{\"error\":\"messages are JSON text\",\"code\":\"bad-message\"}}";
    } else if (!shared_.requests.allow(client_)) {
      reply = "{\"t\":\"error\",\"d\":{\"error\":\"too many messages; slow down\",\"code\":\"rate-limited\"}}";
    } else {
      reply = shared_.api.onSocketMessage(*sub_.room, sub_.token, message);
    }
    if (!reply.empty()) send(std::make_shared<const std::string>(std::move(reply)));
    if (!closed_) doRead();
  }

  void send(std::shared_ptr<const std::string> msg) {
    if (closed_) return;
    pushed(feed_.pushReply(std::move(msg), shared_.limits.queueBytesPerClient));
  }

  void pushed(OutQueue::Push result) {
    switch (result) {
      case OutQueue::Push::kFull:
        log::info("websocket cut: its client does not read (queue over the byte limit)");
        return closeDown();
      case OutQueue::Push::kQueued: return;
      case OutQueue::Push::kWrite: return doWrite();
    }
  }

  void doWrite() {
    writing_ = true;
    ws_.text(true);
    ws_.async_write(asio::buffer(feed_.queue().front()), beast::bind_front_handler(&WsSession::onWrite, shared_from_this()));
  }

  void onWrite(beast::error_code ec, std::size_t) {
    writing_ = false;
    if (ec || closed_) return closeDown();
    if (feed_.queue().pop()) doWrite();
  }

  // Idempotent. The queue is left as it is: a write in flight still points
  // into it, and it goes with the session.
  void closeDown() {
    const bool first = !closed_;
    closed_ = true;
    if (subscribed_) {
      subscribed_ = false;
      sub_.room->unsubscribe(listenerId_);
    }
    if (first) {
      beast::error_code ignored;
      beast::get_lowest_layer(ws_).socket().shutdown(tcp::socket::shutdown_both, ignored);
      beast::get_lowest_layer(ws_).socket().close(ignored);
    }
  }

  websocket::stream<beast::tcp_stream> ws_;
  Shared& shared_;
  Subscription sub_;
  std::string client_;
  std::shared_ptr<Slot> conn_, stream_;
  beast::flat_buffer buffer_;
  Feed feed_;
  int listenerId_ = 0;
  bool subscribed_ = false;
  bool closed_ = false;
  bool writing_ = false;
};

// ---------------------------------------------------------------------------
// NDJSON stream: /api/game/{id}/stream. HTTP/1.1 clients get chunks;
// HTTP/1.0 clients get the lines as they are, ended by closing.

class StreamSession : public std::enable_shared_from_this<StreamSession> {
 public:
  StreamSession(beast::tcp_stream&& stream, Shared& shared, Subscription sub, unsigned version,
                std::shared_ptr<Slot> conn, std::shared_ptr<Slot> slot)
      : stream_(std::move(stream)), shared_(shared), sub_(std::move(sub)), timer_(stream_.get_executor()),
        res_(http::status::ok, version), sr_(res_), chunked_(version >= 11), conn_(std::move(conn)),
        slot_(std::move(slot)), feed_(SharedMessages::kNdjson, sub_.deltas) {}

  void run() {
    commonHeaders(res_);
    res_.set(http::field::content_type, "application/x-ndjson");
    res_.set(http::field::cache_control, "no-store");
    if (chunked_) {
      res_.chunked(true);
    } else {
      res_.keep_alive(false);
    }
    stream_.expires_never();
    http::async_write_header(stream_, sr_, beast::bind_front_handler(&StreamSession::onHeader, shared_from_this()));
  }

 private:
  void onHeader(beast::error_code ec, std::size_t) {
    if (ec) return closeDown();
    std::weak_ptr<StreamSession> weak = shared_from_this();
    Update current;
    listenerId_ = sub_.room->subscribe(
        sub_.token,
        [weak](const Update& u) {
          if (auto self = weak.lock())
            asio::post(self->stream_.get_executor(), [self, u]() { self->sendUpdate(u); });
        },
        &current, &feed_.you());
    subscribed_ = true;
    sendUpdate(current);
    watchClose();
    armKeepAlive();
  }

  void sendUpdate(const Update& u) {
    if (closed_) return;
    idle_ = false;
    pushed(feed_.pushUpdate(u, shared_.messages, shared_.limits.queueBytesPerClient));
  }

  // The client sends nothing; a read ends when it goes away (or half-closes).
  void watchClose() {
    stream_.socket().async_read_some(asio::buffer(scratch_),
                                     beast::bind_front_handler(&StreamSession::onClientData, shared_from_this()));
  }
  void onClientData(beast::error_code ec, std::size_t) {
    if (ec || closed_) return closeDown();
    watchClose();
  }

  void armKeepAlive() {
    timer_.expires_after(std::chrono::seconds(20));
    timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
      if (ec || self->closed_) return;
      if (self->idle_) self->send(std::make_shared<const std::string>("\n"));
      self->idle_ = true;
      if (!self->closed_) self->armKeepAlive();
    });
  }

  void send(std::shared_ptr<const std::string> msg) {
    if (closed_) return;
    idle_ = false;
    pushed(feed_.pushReply(std::move(msg), shared_.limits.queueBytesPerClient));
  }

  void pushed(OutQueue::Push result) {
    switch (result) {
      case OutQueue::Push::kFull:
        log::info("stream cut: its client does not read (queue over the byte limit)");
        return closeDown();
      case OutQueue::Push::kQueued: return;
      case OutQueue::Push::kWrite: return doWrite();
    }
  }

  void doWrite() {
    writing_ = true;
    auto done = beast::bind_front_handler(&StreamSession::onWrite, shared_from_this());
    if (chunked_) asio::async_write(stream_.socket(), http::make_chunk(asio::buffer(feed_.queue().front())), std::move(done));
    else asio::async_write(stream_.socket(), asio::buffer(feed_.queue().front()), std::move(done));
  }

  void onWrite(beast::error_code ec, std::size_t) {
    writing_ = false;
    if (ec || closed_) return closeDown();
    if (feed_.queue().pop()) doWrite();
  }

  // Idempotent; the queue stays (a write in flight points into it).
  void closeDown() {
    if (subscribed_) {
      subscribed_ = false;
      sub_.room->unsubscribe(listenerId_);
    }
    if (closed_) return;
    closed_ = true;
    timer_.cancel();
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
    stream_.socket().close(ignored);
  }

  beast::tcp_stream stream_;
  Shared& shared_;
  Subscription sub_;
  asio::steady_timer timer_;
  http::response<http::empty_body> res_;
  http::response_serializer<http::empty_body> sr_;
  bool chunked_;
  std::shared_ptr<Slot> conn_, slot_;
  Feed feed_;
  std::array<char, 512> scratch_{};
  int listenerId_ = 0;
  bool subscribed_ = false;
  bool closed_ = false;
  bool writing_ = false;
  bool idle_ = true;
};

// ---------------------------------------------------------------------------
// HTTP session: requests one after another on a keep-alive connection.

class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  HttpSession(tcp::socket&& socket, Shared& shared, std::string peer, std::shared_ptr<Slot> conn)
      : stream_(std::move(socket)), shared_(shared), peer_(peer), client_(std::move(peer)), conn_(std::move(conn)) {}

  void run() {
    asio::dispatch(stream_.get_executor(), beast::bind_front_handler(&HttpSession::doRead, shared_from_this()));
  }

 private:
  void doRead() {
    parser_.emplace();
    parser_->body_limit(kMaxBodyBytes);
    parser_->header_limit(16 * 1024);
    stream_.expires_after(kHeaderTimeout);
    http::async_read(stream_, buffer_, *parser_, beast::bind_front_handler(&HttpSession::onRead, shared_from_this()));
  }

  void onRead(beast::error_code ec, std::size_t) {
    started_ = std::chrono::steady_clock::now();
    head_ = false;
    method_ = "-";
    target_ = "-";
    if (ec == http::error::end_of_stream) return doClose();
    if (ec == http::error::body_limit) return sendError(413, "too-large", "the body is over 64 KiB", false);
    if (ec == http::error::header_limit) return sendError(431, "too-large", "the headers are too large", false);
    if (ec) {
      if (ec.category() == http::make_error_code(http::error::bad_target).category() &&
          ec != http::error::partial_message)
        return sendError(400, "bad-request", "malformed HTTP request", false);
      return doClose();
    }
    const bool chunked = parser_->chunked();
    auto req = parser_->release();
    head_ = req.method() == http::verb::head;
    // A Transfer-Encoding that does not end in chunked leaves the body's
    // length unknown: refuse it and close, so no body is read as a request.
    if (req.count(http::field::transfer_encoding) && !chunked)
      return sendError(400, "bad-request", "Transfer-Encoding must end with chunked", false);
    method_ = std::string(req.method_string());
    target_ = std::string(req.target());
    version_ = req.version();
    client_ = peer_;
    if (shared_.trustProxy) {
      // The proxy appends the address it saw: the last element is the one to trust.
      const std::string forwarded(req["X-Forwarded-For"]);
      const size_t comma = forwarded.rfind(',');
      std::string last = forwarded.substr(comma == std::string::npos ? 0 : comma + 1);
      last.erase(0, last.find_first_not_of(' '));
      if (const auto sp = last.find_last_not_of(' '); sp != std::string::npos) last.erase(sp + 1);
      beast::error_code bad;
      const auto address = asio::ip::make_address(last, bad);
      if (!bad) client_ = address.to_string();
    }
    if (!shared_.requests.allow(client_))
      return sendError(429, "rate-limited", "too many requests; slow down", req.keep_alive());
    if (target_.empty() || target_.front() != '/')
      return sendError(400, "bad-target", "the target must be a path starting with /", false);
    if (websocket::is_upgrade(req)) {
      if (!shared_.api.matches(target_, Api::Kind::kWebSocket))
        return sendError(404, "not-found", "WebSockets are at /ws/game/{id}", false);
      ApiResponse err;
      Subscription sub = shared_.api.resolve(target_, std::string(req[http::field::authorization]), &err);
      if (!sub.room) return send(makeResponse(req.version(), false, err));
      auto slot = streamSlot();
      if (!slot) return sendError(503, "busy", "too many open streams; try again later", false);
      logAccess(101, 0);
      stream_.expires_never();
      std::make_shared<WsSession>(stream_.release_socket(), shared_, std::move(sub), client_, conn_, std::move(slot))
          ->run(std::move(req));
      return;
    }
    if (req.method() == http::verb::options) {
      http::response<http::string_body> res{http::status::no_content, req.version()};
      commonHeaders(res);
      res.set(http::field::access_control_allow_methods, "GET, POST, OPTIONS");
      res.set(http::field::access_control_allow_headers, "Authorization, Content-Type");
      res.set(http::field::access_control_max_age, "86400");
      res.keep_alive(req.keep_alive());
      res.prepare_payload();
      return send(std::move(res));
    }
    if (shared_.api.matches(target_, Api::Kind::kStream)) {
      if (req.method() != http::verb::get) return sendError(405, "method", "use GET", req.keep_alive());
      ApiResponse err;
      Subscription sub = shared_.api.resolve(target_, std::string(req[http::field::authorization]), &err);
      if (!sub.room) return send(makeResponse(req.version(), req.keep_alive(), err));
      auto slot = streamSlot();
      if (!slot) return sendError(503, "busy", "too many open streams; try again later", false);
      logAccess(200, 0);
      std::make_shared<StreamSession>(std::move(stream_), shared_, std::move(sub), req.version(), conn_,
                                      std::move(slot))
          ->run();
      return;
    }
    if (Api::isApi(target_)) {
      ApiRequest ar;
      ar.method = method_;
      ar.target = target_;
      ar.authorization = std::string(req[http::field::authorization]);
      ar.body = std::move(req.body());
      ar.client = client_;
      ar.cookie = std::string(req[http::field::cookie]);
      ar.from.origin = std::string(req[http::field::origin]);
      ar.from.secFetchSite = std::string(req["Sec-Fetch-Site"]);
      ar.from.host = std::string(req[http::field::host]);
      ApiResponse r = shared_.api.handle(ar);
      return send(makeResponse(req.version(), req.keep_alive(), r));
    }
    return serveFile(req);
  }

  std::shared_ptr<Slot> streamSlot() {
    if (!shared_.streams.acquire(client_)) return nullptr;
    return std::make_shared<Slot>(shared_.streams, client_);
  }

  void serveFile(const http::request<http::string_body>& req) {
    if (req.method() != http::verb::get && req.method() != http::verb::head)
      return sendError(405, "method", "use GET", req.keep_alive());
    const StaticReply file = shared_.web->get(target_);
    if (file.status != 200) return sendError(file.status, file.errorCode, file.errorMessage, req.keep_alive());
    http::response<http::string_body> res{http::status::ok, req.version()};
    commonHeaders(res);
    res.set(http::field::content_type, file.contentType);
    res.set(http::field::cache_control, "no-cache");
    res.keep_alive(req.keep_alive());
    res.body() = *file.body;
    res.prepare_payload();
    send(std::move(res));
  }

  void sendError(int status, const std::string& code, const std::string& message, bool keepAlive) {
    send(makeResponse(version_, keepAlive, Api::error(status, code, message)));
  }

  void logAccess(int status, uint64_t bytes) {
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started_).count();
    log::access(client_, method_, target_, status, bytes, ms);
  }

  void send(http::response<http::string_body>&& res) {
    logAccess(static_cast<int>(res.result_int()), res.body().size());
    if (head_) {  // the head of what GET would send, and no body
      const size_t length = res.body().size();
      res.body().clear();
      res.content_length(length);
    }
    auto sp = std::make_shared<http::response<http::string_body>>(std::move(res));
    const bool close = !sp->keep_alive();
    http::async_write(stream_, *sp, [self = shared_from_this(), sp, close](beast::error_code ec, std::size_t) {
      if (ec) return;
      if (close) return self->doClose();
      self->doRead();
    });
  }

  void doClose() {
    beast::error_code ec;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
  }

  beast::tcp_stream stream_;
  Shared& shared_;
  std::string peer_;    // the TCP peer
  std::string client_;  // who the request is from: the peer, or the proxy's word for it
  std::shared_ptr<Slot> conn_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  std::string method_ = "-", target_ = "-";
  unsigned version_ = 11;
  bool head_ = false;
};

// Connections in all may not exceed what the descriptor table holds (less a
// reserve for the store, the logs and the listening socket), so the server
// sheds connections before accept() starts failing.
HttpConfig withDescriptorCap(HttpConfig c) {
  rlimit rl{};
  if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY) return c;
  constexpr rlim_t kReserve = 32;
  const int cap = static_cast<int>(std::min<rlim_t>(rl.rlim_cur > kReserve ? rl.rlim_cur - kReserve : 1, 1 << 30));
  if (c.limits.maxConnections <= 0 || c.limits.maxConnections > cap) {
    log::info("connections in all capped at " + std::to_string(cap) + " (the descriptor limit is " +
              std::to_string(rl.rlim_cur) + ")");
    c.limits.maxConnections = cap;
  }
  return c;
}

}  // namespace

struct HttpServer::Impl {
  Impl(Api& a, HttpConfig c)
      : config(withDescriptorCap(std::move(c))), shared(a, config, time), ioc(std::max(1, config.threads)), acceptor(ioc),
        acceptRetry(ioc), signals(ioc) {}

  void accept() {
    acceptor.async_accept(asio::make_strand(ioc), [this](beast::error_code ec, tcp::socket socket) {
      if (!acceptor.is_open()) return;
      if (ec) {
        // Out of file descriptors (or another transient error): wait before
        // trying again instead of spinning on accept().
        acceptBackoffMs = std::clamp(acceptBackoffMs * 2, 10, 1000);
        log::warn("accept failed: " + ec.message() + "; retrying in " + std::to_string(acceptBackoffMs) + " ms");
        acceptRetry.expires_after(std::chrono::milliseconds(acceptBackoffMs));
        acceptRetry.async_wait([this](beast::error_code e) {
          if (!e) accept();
        });
        return;
      }
      acceptBackoffMs = 5;
      onConnection(std::move(socket));
      accept();
    });
  }

  void onConnection(tcp::socket socket) {
    beast::error_code ignored;
    const auto ep = socket.remote_endpoint(ignored);
    const std::string client = ignored ? std::string("?") : ep.address().to_string();
    if (!shared.connections.acquire(client)) {
      // Shed it: a short 503 if the socket takes it at once, then close.
      static const std::string body = "{\"error\":\"too many connections; try again later\",\"code\":\"busy\"}";
      static const std::string reply =
          "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nConnection: close\r\n"
          "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
      socket.non_blocking(true, ignored);
      socket.write_some(asio::buffer(reply), ignored);
      socket.shutdown(tcp::socket::shutdown_both, ignored);
      socket.close(ignored);
      log::access(client, "-", "-", 503, 0, 0);
      return;
    }
    socket.set_option(tcp::no_delay(true), ignored);
    auto slot = std::make_shared<Slot>(shared.connections, client);
    std::make_shared<HttpSession>(std::move(socket), shared, client, std::move(slot))->run();
  }

  HttpConfig config;
  TimeSource time;
  Shared shared;
  asio::io_context ioc;
  tcp::acceptor acceptor;
  asio::steady_timer acceptRetry;
  int acceptBackoffMs = 5;
  asio::signal_set signals;
  std::vector<std::thread> threads;
};

HttpServer::HttpServer(Api& api, HttpConfig config) : impl_(std::make_unique<Impl>(api, std::move(config))) {}

HttpServer::~HttpServer() { stop(); }

Result<int> HttpServer::start() {
  Impl& im = *impl_;
  if (im.config.webDir.empty()) {
    im.shared.web = WebRoot::embedded();
  } else {
    auto web = WebRoot::directory(im.config.webDir);
    if (!web.ok()) return web.error();
    im.shared.web = std::move(*web);
  }
  beast::error_code ec;
  const auto address = asio::ip::make_address(im.config.address, ec);
  if (ec) return makeError("serve", "bad address \"" + im.config.address + "\"");
  const tcp::endpoint endpoint{address, static_cast<unsigned short>(im.config.port)};
  im.acceptor.open(endpoint.protocol(), ec);
  if (!ec) im.acceptor.set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) im.acceptor.bind(endpoint, ec);
  if (!ec) im.acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) return makeError("serve", "cannot listen on " + im.config.address + ":" + std::to_string(im.config.port) +
                                        ": " + ec.message());
  im.accept();
  if (im.config.handleSignals) {
    im.signals.add(SIGINT);
    im.signals.add(SIGTERM);
    im.signals.async_wait([this](beast::error_code, int) {
      beast::error_code ignored;
      impl_->acceptor.close(ignored);
      impl_->ioc.stop();
    });
  }
  return static_cast<int>(im.acceptor.local_endpoint().port());
}

std::string HttpServer::webDescription() const {
  return impl_->shared.web ? impl_->shared.web->describe() : "none";
}

void HttpServer::run() {
  Impl& im = *impl_;
  for (int i = 1; i < std::max(1, im.config.threads); ++i) im.threads.emplace_back([&im] { im.ioc.run(); });
  im.ioc.run();
  for (auto& t : im.threads)
    if (t.joinable()) t.join();
  im.threads.clear();
}

void HttpServer::runInBackground() {
  Impl& im = *impl_;
  for (int i = 0; i < std::max(1, im.config.threads); ++i) im.threads.emplace_back([&im] { im.ioc.run(); });
}

void HttpServer::stop() {
  if (!impl_) return;
  Impl& im = *impl_;
  asio::post(im.ioc, [&im] {
    beast::error_code ignored;
    im.acceptor.close(ignored);
    im.acceptRetry.cancel();
  });
  im.ioc.stop();
  for (auto& t : im.threads)
    if (t.joinable() && t.get_id() != std::this_thread::get_id()) t.join();
  im.threads.clear();
}

}  // namespace acedrex::server::net
