// For the tests of accounts, players, ratings and chat: a driven lobby with
// accounts and the API, called without sockets with a cookie, a seat token
// and the request's origin headers.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <functional>
#include <string>

#include "server/app/accounts.h"
#include "server/app/api.h"
#include "server/app/json.h"
#include "server/app/pg_store.h"
#include "server/app/store.h"
#include "test_support.h"

namespace acedrex::server::testing {

struct AccountApi {
  DrivenLobby d;
  AccountsConfig config;
  Accounts accounts{d.store, config, &d.time};
  Api api{d.lobby, [](int) { return std::string(); }, &accounts};

  ApiResponse call(const std::string& method, const std::string& target, const std::string& body = "",
                   const std::string& cookie = "", const std::string& token = "", RequestOrigin from = {}) {
    ApiRequest r;
    r.method = method;
    r.target = target;
    r.body = body;
    r.cookie = cookie;
    if (!token.empty()) r.authorization = "Bearer " + token;
    r.from = std::move(from);
    return api.handle(r);
  }
  // Signs up `name` (password "correct horse") and returns its cookie ("acedrex_session=...").
  std::string signUp(const std::string& name) {
    auto r = call("POST", "/api/account/signup", R"({"name":")" + name + R"(","password":"correct horse"})");
    return r.setCookie.substr(0, r.setCookie.find(';'));
  }
};

// Runs `check` on a MemoryStore, then on a new SQLite file, which it opens
// again afterwards for `reopened` (if given) and then removes.
inline void onMemoryAndSqlite(const std::string& tag, const std::function<void(Store&)>& check,
                              const std::function<void(Store&)>& reopened = {}) {
  {
    MemoryStore m;
    check(m);
  }
  const auto path = std::filesystem::temp_directory_path() / ("acedrex-" + tag + "-" + std::to_string(getpid()) + ".db");
  std::filesystem::remove(path);
  {
    auto s = openSqliteStore(path.string());
    ASSERT_TRUE(s.ok()) << s.error().text();
    check(**s);
  }
  if (reopened) {
    auto s = openSqliteStore(path.string());
    ASSERT_TRUE(s.ok()) << s.error().text();
    reopened(**s);
  }
  for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path.string() + suffix);
}

// Runs `check` on the store of a PostgreSQL database (in a test that made `uri`'s cluster).
inline void onPostgres(const std::string& uri, const std::function<void(Store&)>& check) {
  auto s = openPgStore(uri);
  ASSERT_TRUE(s.ok()) << s.error().text();
  check(**s);
}

inline std::string codeOf(const ApiResponse& r) {
  auto j = parseJson(r.body);
  const Json* c = j.ok() && j->isObject() ? j->get("code") : nullptr;
  return c && c->isString() ? c->asString() : "";
}

}  // namespace acedrex::server::testing
