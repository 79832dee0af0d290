// Boost.Beast sessions, after the chat-multi example: the app knows nothing
// about sockets; each socket has its own strand; a WebSocket or a stream
// writes one message at a time from a queue.
#include "server/net/server.h"

#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

#include "server/app/http_util.h"

namespace acedrex::server::net {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace asio = boost::asio;
using tcp = asio::ip::tcp;

namespace {

constexpr size_t kMaxQueued = 4096;  // messages waiting for a slow client before it is dropped

std::string mimeType(const std::string& path) {
  const auto dot = path.rfind('.');
  const std::string ext = dot == std::string::npos ? "" : path.substr(dot + 1);
  if (ext == "html" || ext == "htm") return "text/html; charset=utf-8";
  if (ext == "js" || ext == "mjs") return "text/javascript; charset=utf-8";
  if (ext == "css") return "text/css; charset=utf-8";
  if (ext == "json") return "application/json";
  if (ext == "svg") return "image/svg+xml";
  if (ext == "png") return "image/png";
  if (ext == "jpg" || ext == "jpeg") return "image/jpeg";
  if (ext == "ico") return "image/x-icon";
  if (ext == "woff2") return "font/woff2";
  if (ext == "txt" || ext == "md") return "text/plain; charset=utf-8";
  if (ext == "map") return "application/json";
  return "application/octet-stream";
}

template <class Body>
void commonHeaders(http::response<Body>& res) {
  res.set(http::field::server, "acedrex");
  res.set(http::field::access_control_allow_origin, "*");
}

http::response<http::string_body> makeResponse(unsigned version, bool keepAlive, const ApiResponse& r) {
  http::response<http::string_body> res{static_cast<http::status>(r.status), version};
  commonHeaders(res);
  res.set(http::field::content_type, r.contentType);
  res.set(http::field::cache_control, "no-store");
  res.keep_alive(keepAlive);
  res.body() = r.body;
  res.prepare_payload();
  return res;
}

// ---------------------------------------------------------------------------
// WebSocket session: /ws/game/{id}

class WsSession : public std::enable_shared_from_this<WsSession> {
 public:
  WsSession(tcp::socket&& socket, Api& api, Subscription sub)
      : ws_(std::move(socket)), api_(api), sub_(std::move(sub)) {}

  void run(http::request<http::string_body> req) {
    ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
    ws_.set_option(websocket::stream_base::decorator(
        [](websocket::response_type& res) { res.set(http::field::server, "acedrex"); }));
    ws_.read_message_max(kMaxBodyBytes);
    ws_.async_accept(req, beast::bind_front_handler(&WsSession::onAccept, shared_from_this()));
  }

 private:
  void onAccept(beast::error_code ec) {
    if (ec) return;
    // The listener holds only a weak pointer: it may outlive the session and the
    // io_context (it is destroyed with the room).
    std::weak_ptr<WsSession> weak = shared_from_this();
    Update current;
    listenerId_ = sub_.room->subscribe(
        sub_.token,
        [weak](const Update& u) {
          if (auto self = weak.lock())
            asio::post(self->ws_.get_executor(), [self, u]() { self->send(self->compose(u)); });
        },
        &current, &you_);
    subscribed_ = true;
    send(compose(current));
    doRead();
  }

  std::shared_ptr<const std::string> compose(const Update& u) const {
    auto msg = std::make_shared<std::string>();
    msg->reserve(u.base->size() + 64);
    *msg += "{\"t\":\"";
    *msg += u.type;
    *msg += "\",\"d\":";
    *msg += stateWithYou(*u.base, you_);
    *msg += ",\"v\":" + std::to_string(u.v) + "}";
    return msg;
  }

  void doRead() { ws_.async_read(buffer_, beast::bind_front_handler(&WsSession::onRead, shared_from_this())); }

  void onRead(beast::error_code ec, std::size_t) {
    if (ec) {
      closeDown();
      return;
    }
    const std::string message = beast::buffers_to_string(buffer_.data());
    buffer_.consume(buffer_.size());
    std::string reply;
    if (!ws_.got_text()) {
      reply = "{\"t\":\"error\",\"d\":{\"error\":\"messages are JSON text\",\"code\":\"bad-message\"}}";
    } else {
      reply = api_.onSocketMessage(*sub_.room, sub_.token, message);
    }
    if (!reply.empty()) send(std::make_shared<const std::string>(std::move(reply)));
    doRead();
  }

  void send(std::shared_ptr<const std::string> msg) {
    if (closed_) return;
    if (queue_.size() >= kMaxQueued) {
      closeDown();
      beast::get_lowest_layer(ws_).socket().close();
      return;
    }
    queue_.push_back(std::move(msg));
    if (queue_.size() > 1) return;
    doWrite();
  }

  void doWrite() {
    ws_.text(true);
    ws_.async_write(asio::buffer(*queue_.front()), beast::bind_front_handler(&WsSession::onWrite, shared_from_this()));
  }

  void onWrite(beast::error_code ec, std::size_t) {
    if (ec) {
      closeDown();
      return;
    }
    queue_.pop_front();
    if (!queue_.empty()) doWrite();
  }

  void closeDown() {
    closed_ = true;
    queue_.clear();
    if (subscribed_) {
      subscribed_ = false;
      sub_.room->unsubscribe(listenerId_);
    }
  }

  websocket::stream<beast::tcp_stream> ws_;
  Api& api_;
  Subscription sub_;
  beast::flat_buffer buffer_;
  std::deque<std::shared_ptr<const std::string>> queue_;
  std::string you_ = "[]";
  int listenerId_ = 0;
  bool subscribed_ = false;
  bool closed_ = false;
};

// ---------------------------------------------------------------------------
// NDJSON stream: /api/game/{id}/stream

class StreamSession : public std::enable_shared_from_this<StreamSession> {
 public:
  StreamSession(beast::tcp_stream&& stream, Subscription sub, unsigned version)
      : stream_(std::move(stream)), sub_(std::move(sub)), timer_(stream_.get_executor()),
        res_(http::status::ok, version), sr_(res_) {}

  void run() {
    commonHeaders(res_);
    res_.set(http::field::content_type, "application/x-ndjson");
    res_.set(http::field::cache_control, "no-store");
    res_.chunked(true);
    stream_.expires_never();
    http::async_write_header(stream_, sr_, beast::bind_front_handler(&StreamSession::onHeader, shared_from_this()));
  }

 private:
  void onHeader(beast::error_code ec, std::size_t) {
    if (ec) return;
    std::weak_ptr<StreamSession> weak = shared_from_this();
    Update current;
    listenerId_ = sub_.room->subscribe(
        sub_.token,
        [weak](const Update& u) {
          if (auto self = weak.lock())
            asio::post(self->stream_.get_executor(), [self, u]() { self->send(self->line(u)); });
        },
        &current, &you_);
    subscribed_ = true;
    send(line(current));
    watchClose();
    armKeepAlive();
  }

  std::shared_ptr<const std::string> line(const Update& u) const {
    return std::make_shared<const std::string>(stateWithYou(*u.base, you_) + "\n");
  }

  // The client sends nothing; a read ends when it goes away.
  void watchClose() {
    stream_.socket().async_read_some(asio::buffer(scratch_),
                                     beast::bind_front_handler(&StreamSession::onClientData, shared_from_this()));
  }
  void onClientData(beast::error_code ec, std::size_t) {
    if (ec) {
      closeDown();
      return;
    }
    watchClose();
  }

  void armKeepAlive() {
    timer_.expires_after(std::chrono::seconds(20));
    timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
      if (ec || self->closed_) return;
      if (self->idle_) self->send(std::make_shared<const std::string>("\n"));
      self->idle_ = true;
      self->armKeepAlive();
    });
  }

  void send(std::shared_ptr<const std::string> msg) {
    if (closed_) return;
    idle_ = false;
    if (queue_.size() >= kMaxQueued) {
      closeDown();
      return;
    }
    queue_.push_back(std::move(msg));
    if (queue_.size() > 1) return;
    doWrite();
  }

  void doWrite() {
    asio::async_write(stream_.socket(), http::make_chunk(asio::buffer(*queue_.front())),
                      beast::bind_front_handler(&StreamSession::onWrite, shared_from_this()));
  }

  void onWrite(beast::error_code ec, std::size_t) {
    if (ec) {
      closeDown();
      return;
    }
    queue_.pop_front();
    if (!queue_.empty()) doWrite();
  }

  void closeDown() {
    if (closed_) return;
    closed_ = true;
    queue_.clear();
    timer_.cancel();
    if (subscribed_) {
      subscribed_ = false;
      sub_.room->unsubscribe(listenerId_);
    }
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
    stream_.socket().close(ignored);
  }

  beast::tcp_stream stream_;
  Subscription sub_;
  asio::steady_timer timer_;
  http::response<http::empty_body> res_;
  http::response_serializer<http::empty_body> sr_;
  std::deque<std::shared_ptr<const std::string>> queue_;
  std::array<char, 512> scratch_{};
  std::string you_ = "[]";
  int listenerId_ = 0;
  bool subscribed_ = false;
  bool closed_ = false;
  bool idle_ = true;
};

// ---------------------------------------------------------------------------
// HTTP session: requests one after another on a keep-alive connection.

class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  HttpSession(tcp::socket&& socket, Api& api, const std::filesystem::path& webDir)
      : stream_(std::move(socket)), api_(api), webDir_(webDir) {}

  void run() {
    asio::dispatch(stream_.get_executor(), beast::bind_front_handler(&HttpSession::doRead, shared_from_this()));
  }

 private:
  void doRead() {
    parser_.emplace();
    parser_->body_limit(kMaxBodyBytes);
    parser_->header_limit(16 * 1024);
    stream_.expires_after(std::chrono::seconds(60));
    http::async_read(stream_, buffer_, *parser_, beast::bind_front_handler(&HttpSession::onRead, shared_from_this()));
  }

  void onRead(beast::error_code ec, std::size_t) {
    if (ec == http::error::end_of_stream) return doClose();
    if (ec == http::error::body_limit) {
      return sendError(413, "too-large", "the body is over 64 KiB", false);
    }
    if (ec == http::error::header_limit) return sendError(431, "too-large", "the headers are too large", false);
    if (ec) {
      if (ec.category() == http::make_error_code(http::error::bad_target).category() &&
          ec != http::error::partial_message)
        return sendError(400, "bad-request", "malformed HTTP request", false);
      return doClose();
    }
    auto req = parser_->release();
    const std::string target(req.target());
    if (websocket::is_upgrade(req)) {
      if (!api_.matches(target, Api::Kind::kWebSocket))
        return sendError(404, "not-found", "WebSockets are at /ws/game/{id}", false);
      ApiResponse err;
      Subscription sub = api_.resolve(target, std::string(req[http::field::authorization]), &err);
      if (!sub.room) return send(makeResponse(req.version(), false, err));
      stream_.expires_never();
      std::make_shared<WsSession>(stream_.release_socket(), api_, std::move(sub))->run(std::move(req));
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
    if (api_.matches(target, Api::Kind::kStream)) {
      if (req.method() != http::verb::get) return sendError(405, "method", "use GET", req.keep_alive());
      ApiResponse err;
      Subscription sub = api_.resolve(target, std::string(req[http::field::authorization]), &err);
      if (!sub.room) return send(makeResponse(req.version(), req.keep_alive(), err));
      std::make_shared<StreamSession>(std::move(stream_), std::move(sub), req.version())->run();
      return;
    }
    if (Api::isApi(target)) {
      ApiRequest ar;
      ar.method = std::string(req.method_string());
      ar.target = target;
      ar.authorization = std::string(req[http::field::authorization]);
      ar.body = std::move(req.body());
      ApiResponse r = api_.handle(ar);
      auto res = makeResponse(req.version(), req.keep_alive(), r);
      if (req.method() == http::verb::head) res.body().clear();
      return send(std::move(res));
    }
    return serveFile(req);
  }

  void serveFile(const http::request<http::string_body>& req) {
    if (req.method() != http::verb::get && req.method() != http::verb::head)
      return sendError(405, "method", "use GET", req.keep_alive());
    const Target t = parseTarget(std::string(req.target()));
    if (!t.ok) return sendError(400, "bad-target", "malformed %-escape in the URL", req.keep_alive());
    for (const auto& s : t.segments)
      if (s == ".." || s.find('\0') != std::string::npos || s.find('\\') != std::string::npos)
        return sendError(400, "bad-target", "bad path", req.keep_alive());
    if (t.segments.size() > 0 && t.segments[0] == "ws")
      return sendError(426, "upgrade", "this is a WebSocket address", req.keep_alive());
    std::filesystem::path file = webDir_;
    for (const auto& s : t.segments) file /= s;
    std::error_code fec;
    if (t.segments.empty() || std::filesystem::is_directory(file, fec)) file /= "index.html";
    bool exists = std::filesystem::is_regular_file(file, fec);
    if (!exists) {
      // Pages of the front end: /game/abc is served by game.html (if there is
      // one, else index.html), which reads the rest of the path itself.
      const std::string last = t.segments.empty() ? "" : t.segments.back();
      if (last.find('.') == std::string::npos) {
        file = webDir_ / (t.segments.front() + ".html");
        exists = std::filesystem::is_regular_file(file, fec);
        if (!exists) {
          file = webDir_ / "index.html";
          exists = std::filesystem::is_regular_file(file, fec);
        }
      }
    }
    if (!exists) {
      if (file.filename() == "index.html") {
        ApiResponse r;
        r.status = 200;
        r.contentType = "text/html; charset=utf-8";
        r.body = "<!doctype html><title>Acedrex</title><p>The Acedrex server is running, but its web page was not "
                 "found (start it with --web DIR). The API is at <a href=\"/api/variants\">/api/variants</a>.";
        return send(makeResponse(req.version(), req.keep_alive(), r));
      }
      return sendError(404, "not-found", "no such file", req.keep_alive());
    }
    std::ifstream in(file, std::ios::binary);
    std::ostringstream buf;
    buf << in.rdbuf();
    http::response<http::string_body> res{http::status::ok, req.version()};
    commonHeaders(res);
    res.set(http::field::content_type, mimeType(file.string()));
    res.set(http::field::cache_control, "no-cache");
    res.keep_alive(req.keep_alive());
    res.body() = req.method() == http::verb::head ? std::string() : buf.str();
    res.prepare_payload();
    if (req.method() == http::verb::head) res.content_length(buf.str().size());
    send(std::move(res));
  }

  void sendError(int status, const std::string& code, const std::string& message, bool keepAlive) {
    send(makeResponse(11, keepAlive, Api::error(status, code, message)));
  }

  void send(http::response<http::string_body>&& res) {
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
  Api& api_;
  const std::filesystem::path& webDir_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
};

}  // namespace

struct HttpServer::Impl {
  Impl(Api& a, HttpConfig c) : api(a), config(std::move(c)), ioc(std::max(1, config.threads)), acceptor(ioc),
                               signals(ioc) {}

  void accept() {
    acceptor.async_accept(asio::make_strand(ioc), [this](beast::error_code ec, tcp::socket socket) {
      if (!acceptor.is_open()) return;
      if (!ec) {
        beast::error_code ignored;
        socket.set_option(tcp::no_delay(true), ignored);
        std::make_shared<HttpSession>(std::move(socket), api, webDir)->run();
      }
      accept();
    });
  }

  Api& api;
  HttpConfig config;
  std::filesystem::path webDir;
  asio::io_context ioc;
  tcp::acceptor acceptor;
  asio::signal_set signals;
  std::vector<std::thread> threads;
};

HttpServer::HttpServer(Api& api, HttpConfig config) : impl_(std::make_unique<Impl>(api, std::move(config))) {}

HttpServer::~HttpServer() { stop(); }

Result<int> HttpServer::start() {
  Impl& im = *impl_;
  im.webDir = im.config.webDir;
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
  });
  im.ioc.stop();
  for (auto& t : im.threads)
    if (t.joinable() && t.get_id() != std::this_thread::get_id()) t.join();
  im.threads.clear();
}

}  // namespace acedrex::server::net
