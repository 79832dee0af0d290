// The network layer: one port serving the web page (static files), the JSON
// API, NDJSON game streams and WebSockets, with Boost.Beast. This header
// keeps Boost out of its users; all meaning lives in server/app (Api).
#pragma once

#include <memory>
#include <string>

#include "core/base/result.h"
#include "server/app/api.h"

namespace acedrex::server::net {

struct HttpConfig {
  std::string address = "0.0.0.0";
  int port = 8080;          // 0: any free port (see start()'s result)
  std::string webDir;       // "": the front end embedded in the binary; a directory overrides it
  int threads = 4;          // I/O threads
  bool handleSignals = true;  // SIGINT / SIGTERM stop run()
  ServerLimits limits;      // requests and connections per client and in all
  bool trustProxy = false;  // the client is the last X-Forwarded-For address (behind a TLS proxy only)
  std::string logLevel = "info";  // trace, debug, info, warn, error or off
  std::string accessLog = "-";    // the access log: a file name, "-" (standard error) or "off"
};

class HttpServer {
 public:
  HttpServer(Api& api, HttpConfig config);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Binds and listens; returns the port bound.
  Result<int> start();
  // Runs the I/O threads until stop() or a signal.
  void run();
  // Runs the I/O threads in the background (tests); stop() ends them.
  void runInBackground();
  void stop();
  // Where the static files come from: "embedded" or the web folder.
  std::string webDescription() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace acedrex::server::net
