// RouteTable (server/app/route_table.h) on its own: patterns and their
// parameters, 404 and 405 in one place, HEAD as GET, filters, and routes
// added by a module's own function.
#include "server/app/route_table.h"

#include <gtest/gtest.h>

namespace acedrex::server {
namespace {

ApiResponse call(const RouteTable& table, const std::string& method, const std::string& target) {
  ApiRequest req;
  req.method = method;
  req.target = target;
  const Target t = parseTarget(target);
  RouteContext c{req, t, "", {}, nullptr};
  return table.dispatch(c);
}

// What a module adds: its routes, from a function of its own.
void registerThingRoutes(RouteTable& t) {
  t.add("GET", "/api/thing/{name}", [](RouteContext& c) { return jsonResponse("\"" + c.param("name") + "\""); });
  t.add("POST", "/api/thing/{name}/poke/{times}",
        [](RouteContext& c) { return jsonResponse(c.param("name") + "x" + c.param("times") + c.query("why")); });
}

TEST(ServerRouteTable, PatternsGiveTheirParameters) {
  RouteTable t;
  registerThingRoutes(t);
  EXPECT_EQ(t.size(), 2u);
  EXPECT_EQ(call(t, "GET", "/api/thing/abc").body, "\"abc\"");
  EXPECT_EQ(call(t, "HEAD", "/api/thing/abc").body, "\"abc\"");  // HEAD is served as GET
  EXPECT_EQ(call(t, "POST", "/api/thing/abc/poke/3?why=now").body, "abcx3now");
}

TEST(ServerRouteTable, NoRouteIs404AndAnotherMethodIs405) {
  RouteTable t;
  registerThingRoutes(t);
  t.add("POST", "/api/make", [](RouteContext&) { return jsonResponse("{}"); }, "use POST to make one");
  const ApiResponse missing = call(t, "GET", "/api/thing/abc/more");
  EXPECT_EQ(missing.status, 404);
  EXPECT_EQ(missing.body, R"({"error":"no such API path","code":"not-found"})");
  const ApiResponse wrong = call(t, "POST", "/api/thing/abc");
  EXPECT_EQ(wrong.status, 405);
  EXPECT_EQ(wrong.body, R"({"error":"use GET","code":"method"})");
  EXPECT_EQ(call(t, "GET", "/api/make").body, R"({"error":"use POST to make one","code":"method"})");
}

TEST(ServerRouteTable, AnyMethodRoute) {
  RouteTable t;
  t.add("*", "/api/x", [](RouteContext& c) { return jsonResponse(c.request.method); });
  EXPECT_EQ(call(t, "DELETE", "/api/x").body, "DELETE");
}

TEST(ServerRouteTable, FiltersRunBeforeTheMethodIsLookedAt) {
  RouteTable t;
  registerThingRoutes(t);
  int runs = 0;
  t.filter("/api/thing/{name}/**", [&runs](RouteContext& c) -> Outcome {
    ++runs;
    if (c.param("name") == "secret") return apiError(403, "hidden", "not yours");
    return done();
  });
  const ApiResponse refused = call(t, "DELETE", "/api/thing/secret/nowhere");
  EXPECT_EQ(refused.status, 403);  // before the 404 of an unknown path and the 405 of a method
  EXPECT_EQ(refused.body, R"({"error":"not yours","code":"hidden"})");
  EXPECT_EQ(call(t, "GET", "/api/thing/open").status, 200);  // "/**" covers the path itself
  EXPECT_EQ(runs, 2);
  EXPECT_EQ(call(t, "GET", "/api/other").status, 404);
  EXPECT_EQ(runs, 2);
}

TEST(ServerRouteTable, ErrorsCarryRetryAfter) {
  ApiError e = apiError(429, "rate-limited", "slow down");
  e.retryAfterMs = 1500;
  const ApiResponse r = errorResponse(e);
  EXPECT_EQ(r.status, 429);
  EXPECT_EQ(r.retryAfterMs, 1500);
  EXPECT_EQ(r.body, R"({"error":"slow down","code":"rate-limited","retryAfterMs":1500})");
}

}  // namespace
}  // namespace acedrex::server
