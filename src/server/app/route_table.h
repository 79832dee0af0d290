// RouteTable: the API's routes as a table of (method, path pattern, handler)
// entries. A pattern is a path of segments, "{name}" matching any one segment
// ("/api/game/{id}/move/{uci}"). dispatch() finds the routes of a path: none
// is 404 "not-found", routes of the path but none for the method is 405 with
// the route's own words ("use POST"), in one place for every route.
//
// Filters run before the method is looked at, on every path under their
// pattern ("/api/game/{id}/**": the path and anything below it): they may set
// the context up (the game a path names) or answer for the route (404
// "unknown-game"). Each module adds its routes with a function of its own,
// registerXRoutes(RouteTable&, ...), so no module edits another's table.
//
// Not thread-safe while routes are added; dispatch() only reads.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "server/app/common.h"
#include "server/app/http_util.h"

namespace acedrex::server {

struct ApiRequest {
  std::string method;         // "GET", "POST", ...
  std::string target;         // path and query, as sent
  std::string authorization;  // the Authorization header, if any
  std::string body;
  std::string client;         // the client's address (for per-client limits); "" in tests
  std::string cookie{};       // the Cookie header (a signed-in browser's session, accounts.h)
  RequestOrigin from{};       // Origin, Sec-Fetch-Site and Host (cross-site requests, accounts.h)
};

struct ApiResponse {
  int status = 200;
  std::string contentType = "application/json";
  std::string body;
  int64_t retryAfterMs = 0;  // >0 on 429 and some 503s: the net layer may send Retry-After (seconds, rounded up)
  std::string setCookie{};   // a Set-Cookie header to send, if any
};

// The JSON error reply {"error": message, "code": code}.
ApiResponse errorResponse(int status, const std::string& code, const std::string& message);
// The same for an ApiError; "retryAfterMs" is in the body when it is set.
ApiResponse errorResponse(const ApiError& e);
// A 200 reply with a JSON body.
ApiResponse jsonResponse(std::string body);

class GameRoom;

// What a handler gets: the request, its parsed target, the pattern's
// parameters by name, the seat token (Authorization or ?token=), and what
// filters set up.
struct RouteContext {
  const ApiRequest& request;
  const Target& target;
  std::string token;
  std::map<std::string, std::string> params;
  std::shared_ptr<GameRoom> room;  // set by the game filter (api.cpp)

  const std::string& param(const std::string& name) const;
  // A query parameter, "" when absent.
  std::string query(const std::string& name) const;
};

using RouteHandler = std::function<ApiResponse(RouteContext&)>;
// A filter lets the request go on (done()) or refuses it (the reply is the error's).
using RouteFilter = std::function<Outcome(RouteContext&)>;

class RouteTable {
 public:
  // method: "GET" (also serves HEAD), "POST", ... or "*" for any method.
  // refusal: the 405's message for other methods ("" for "use <method>").
  void add(std::string method, const std::string& pattern, RouteHandler handler, std::string refusal = "");
  // A filter for `pattern`; a pattern ending in "/**" also covers every path below it.
  void filter(const std::string& pattern, RouteFilter filter);
  // Runs the filters of the context's path, then its route for the method.
  ApiResponse dispatch(RouteContext& context) const;
  size_t size() const { return routes_.size(); }

 private:
  struct Pattern {
    std::vector<std::string> segments;  // "{name}" for a parameter
    bool below = false;                 // ended in "/**"
    static Pattern parse(const std::string& text);
    bool matches(const std::vector<std::string>& path, std::map<std::string, std::string>* params) const;
  };
  struct Route {
    std::string method;
    Pattern pattern;
    RouteHandler handler;
    std::string refusal;
  };
  struct Filter {
    Pattern pattern;
    RouteFilter run;
  };
  std::vector<Route> routes_;
  std::vector<Filter> filters_;
};

}  // namespace acedrex::server
