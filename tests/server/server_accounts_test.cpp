// Accounts: the stores' accounts and sessions (memory, SQLite with its
// migration from schema 1, PostgreSQL), the rules of Accounts (names,
// passwords, rate limits, sessions, cookies, cross-site requests) and the
// /api/account endpoints through Api::handle.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>

#include "pg_cluster.h"
#include "server/app/accounts.h"
#include "server/app/api.h"
#include "server/app/json.h"
#include "server/app/pg_store.h"
#include "server/app/store.h"
#include "account_support.h"
#include "test_support.h"

namespace acedrex::server {
namespace {

using testing::DrivenLobby;
using testing::FakeTime;
using testing::TempPostgres;

std::string tempDb(const char* name) {
  const auto p = std::filesystem::temp_directory_path() /
                 (std::string("acedrex-") + name + "-" + std::to_string(getpid()) + ".db");
  for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(p.string() + suffix);
  return p.string();
}

// What every store does with accounts and sessions.
void checkAccountsAndSessions(Store& s) {
  StoredAccount a{"alice", "Alice", "$argon2id$hash", 1700000000000};
  ASSERT_TRUE(s.createAccount(a).ok());
  auto taken = s.createAccount(StoredAccount{"alice", "ALICE", "x", 1});
  ASSERT_FALSE(taken.ok());
  EXPECT_EQ(taken.error().code, kStoreConflict);
  auto found = s.findAccount("alice");
  ASSERT_TRUE(found.ok() && *found);
  EXPECT_EQ((*found)->name, "Alice");
  EXPECT_EQ((*found)->passwordHash, "$argon2id$hash");
  EXPECT_EQ((*found)->createdMs, 1700000000000);
  auto none = s.findAccount("bob");
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(*none);

  ASSERT_TRUE(s.createSession("h1", "alice", 5000).ok());
  auto who = s.sessionAccount("h1", 5000);
  ASSERT_TRUE(who.ok() && *who);
  EXPECT_EQ((*who)->key, "alice");
  auto expired = s.sessionAccount("h1", 5001);
  ASSERT_TRUE(expired.ok());
  EXPECT_FALSE(*expired) << "a session older than the bound is not honoured";
  EXPECT_FALSE(s.createSession("h2", "nobody", 5000).ok()) << "a session of no account";
  ASSERT_TRUE(s.deleteSession("h1").ok());
  auto gone = s.sessionAccount("h1", 0);
  ASSERT_TRUE(gone.ok());
  EXPECT_FALSE(*gone);
  EXPECT_TRUE(s.deleteSession("h1").ok()) << "ending an ended session is no error";
}

TEST(AccountStore, MemoryAndSqlite) {
  testing::onMemoryAndSqlite("accounts", checkAccountsAndSessions, [](Store& s) {
    auto kept = s.findAccount("alice");
    ASSERT_TRUE(kept.ok() && *kept) << "accounts outlive a restart";
  });
}

TEST(AccountStore, SqliteMigratesASchemaOneFileAndRefusesANewerOne) {
  const std::string path = tempDb("accounts-v1");
  {
    // A file as the first schema left it: games and entries, user_version 1.
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    const char* v1 =
        "CREATE TABLE games (id TEXT PRIMARY KEY, variant TEXT NOT NULL, options TEXT NOT NULL, seats TEXT NOT NULL,"
        " clock_enabled INTEGER NOT NULL, clock_initial_ms INTEGER NOT NULL, clock_increment_ms INTEGER NOT NULL,"
        " seed TEXT NOT NULL, hot_seat INTEGER NOT NULL, start_fen TEXT NOT NULL, created_ms INTEGER NOT NULL,"
        " finished INTEGER NOT NULL DEFAULT 0, result TEXT NOT NULL DEFAULT '');"
        "CREATE TABLE entries (game_id TEXT NOT NULL, ply INTEGER NOT NULL, text TEXT NOT NULL, seat INTEGER NOT NULL,"
        " die INTEGER NOT NULL, clocks TEXT NOT NULL, at_ms INTEGER NOT NULL, PRIMARY KEY (game_id, ply)) WITHOUT ROWID;"
        "INSERT INTO games VALUES ('old','chess','{}','[]',0,0,0,'1',0,'',5,0,'');"
        "PRAGMA user_version = 1;";
    ASSERT_EQ(sqlite3_exec(db, v1, nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);
  }
  {
    auto store = openSqliteStore(path);
    ASSERT_TRUE(store.ok()) << store.error().text();
    auto old = (*store)->load("old");
    ASSERT_TRUE(old.ok() && *old) << "the games of schema 1 stay";
    checkAccountsAndSessions(**store);
  }
  {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db, "PRAGMA user_version = 99", nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);
  }
  auto newer = openSqliteStore(path);
  ASSERT_FALSE(newer.ok());
  EXPECT_EQ(newer.error().code, "schema");
  std::filesystem::remove(path);
}

TEST(AccountStore, Postgres) {
  TempPostgres pg;
  ACEDREX_NEED_POSTGRES(pg);
  testing::onPostgres(pg.uri(), checkAccountsAndSessions);
  EXPECT_EQ(pg.psql("SELECT max(version) FROM acedrex_schema"), "2");
  // A database of schema 1 gains the accounts' tables and keeps its games.
  pg.psql("DROP TABLE chat; DROP TABLE ratings; DROP TABLE sessions; DROP TABLE accounts; "
          "DELETE FROM acedrex_schema WHERE version = 2");
  auto again = openPgStore(pg.uri());
  ASSERT_TRUE(again.ok()) << again.error().text();
  EXPECT_EQ(pg.psql("SELECT max(version) FROM acedrex_schema"), "2");
  checkAccountsAndSessions(**again);
}

// ---------------------------------------------------------------------------
// Accounts

struct AccountsFixture {
  MemoryStore store;
  FakeTime time;
  AccountsConfig config;
  std::unique_ptr<Accounts> accounts;
  explicit AccountsFixture(AccountsConfig c = {}) : config(std::move(c)) {
    accounts = std::make_unique<Accounts>(store, config, &time);
  }
};

TEST(Accounts, NameRules) {
  for (const char* good : {"al", "Alice", "bob_2", "x-y-z", "A2345678901234567890"})
    EXPECT_EQ(Accounts::nameProblem(good), "") << good;
  for (const char* bad : {"", "a", "A23456789012345678901", "2bob", "_bob", "-bob", "bo b", "bob!", "bøb", "bob\n",
                          "<script>", "a\"b"})
    EXPECT_NE(Accounts::nameProblem(bad), "") << bad;
  EXPECT_EQ(Accounts::keyOf("AlIcE"), "alice");
}

TEST(Accounts, SignUpSignInSignOut) {
  AccountsFixture f;
  Accounts::SignedIn in;
  ASSERT_TRUE(f.accounts->signUp("Alice", "correct horse", "1.2.3.4", &in).ok());
  EXPECT_EQ(in.account.name, "Alice");
  EXPECT_EQ(in.token.size(), Accounts::kTokenLength);
  auto stored = f.store.findAccount("alice");
  ASSERT_TRUE(stored.ok() && *stored);
  EXPECT_EQ((*stored)->passwordHash.rfind("$argon2id$", 0), 0u) << "an Argon2id hash, never the password";
  EXPECT_EQ((*stored)->passwordHash.find("correct horse"), std::string::npos);
  auto who = f.accounts->whoIs(in.token);
  ASSERT_TRUE(who);
  EXPECT_EQ(who->name, "Alice");

  Accounts::SignedIn dup;
  auto taken = f.accounts->signUp("ALICE", "another one", "1.2.3.4", &dup);
  ASSERT_FALSE(taken.ok());
  EXPECT_EQ(taken.error().status, 409);
  EXPECT_EQ(taken.error().code, "name-taken");

  Accounts::SignedIn again;
  ASSERT_TRUE(f.accounts->signIn("alice", "correct horse", "1.2.3.4", &again).ok()) << "names without regard to case";
  EXPECT_NE(again.token, in.token);
  ASSERT_TRUE(f.accounts->signOut(in.token).ok());
  EXPECT_FALSE(f.accounts->whoIs(in.token)) << "signed out";
  EXPECT_TRUE(f.accounts->whoIs(again.token)) << "the other session stays";
}

TEST(Accounts, RefusesBadNamesAndPasswordsBeforeHashing) {
  AccountsFixture f;
  Accounts::SignedIn in;
  auto name = f.accounts->signUp("a b", "long enough", "", &in);
  ASSERT_FALSE(name.ok());
  EXPECT_EQ(name.error().code, "bad-name");
  auto shortPw = f.accounts->signUp("alice", "short", "", &in);
  ASSERT_FALSE(shortPw.ok());
  EXPECT_EQ(shortPw.error().code, "bad-password");
  const std::string huge(Accounts::kMaxPassword + 1, 'p');
  const auto t0 = std::chrono::steady_clock::now();
  auto longPw = f.accounts->signUp("alice", huge, "", &in);
  auto longIn = f.accounts->signIn("alice", std::string(1 << 20, 'p'), "", &in);
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_FALSE(longPw.ok());
  EXPECT_EQ(longPw.error().code, "bad-password");
  ASSERT_FALSE(longIn.ok());
  EXPECT_EQ(longIn.error().code, "bad-password");
  EXPECT_LT(ms, 50) << "refused without hashing";
  auto none = f.store.findAccount("alice");
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(*none);
  EXPECT_TRUE(f.accounts->signUp("alice", std::string(Accounts::kMaxPassword, 'p'), "", &in).ok())
      << "the longest password allowed";
}

TEST(Accounts, UnknownNameAndWrongPasswordLookAlike) {
  AccountsFixture f;
  Accounts::SignedIn in;
  ASSERT_TRUE(f.accounts->signUp("alice", "correct horse", "", &in).ok());
  auto wrong = f.accounts->signIn("alice", "wrong horse", "a", &in);
  auto unknown = f.accounts->signIn("nobody", "wrong horse", "b", &in);
  auto invalid = f.accounts->signIn("no body!", "wrong horse", "c", &in);
  for (const Outcome* o : {&wrong, &unknown, &invalid}) {
    ASSERT_FALSE(o->ok());
    EXPECT_EQ(o->error().status, 401);
    EXPECT_EQ(o->error().code, "bad-credentials");
    EXPECT_EQ(o->error().message, wrong.error().message);
  }
  // The same work: an unknown name is verified against a dummy hash (timed
  // loosely, the second of each pair after the dummy hash exists).
  auto timed = [&](const std::string& name, const std::string& client) {
    const auto t0 = std::chrono::steady_clock::now();
    (void)f.accounts->signIn(name, "wrong horse", client, &in);
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  };
  const double known = timed("alice", "d"), unknownMs = timed("nobody", "e");
  EXPECT_GT(unknownMs, known / 4) << "known " << known << " ms, unknown " << unknownMs << " ms";
}

TEST(Accounts, LimitsSignInsPerClientAndPerName) {
  AccountsConfig c;
  c.signInsPerClientPerMinute = 3;
  c.signInsPerNamePerMinute = 2;
  AccountsFixture f(c);
  Accounts::SignedIn in;
  ASSERT_TRUE(f.accounts->signUp("alice", "correct horse", "x", &in).ok());
  // Per name: two tries from two addresses, the third refused even with the right password.
  EXPECT_EQ(f.accounts->signIn("alice", "wrong horse", "1", &in).error().code, "bad-credentials");
  EXPECT_EQ(f.accounts->signIn("Alice", "wrong horse", "2", &in).error().code, "bad-credentials");
  auto limited = f.accounts->signIn("alice", "correct horse", "3", &in);
  ASSERT_FALSE(limited.ok());
  EXPECT_EQ(limited.error().status, 429);
  EXPECT_GT(limited.error().retryAfterMs, 0);
  // Per client: three tries on three names, the fourth refused.
  for (const char* name : {"n1", "n2", "n3"})
    EXPECT_EQ(f.accounts->signIn(name, "whatever1", "9", &in).error().code, "bad-credentials");
  EXPECT_EQ(f.accounts->signIn("n4", "whatever1", "9", &in).error().code, "rate-limited");
  f.time.advance(60000);
  EXPECT_TRUE(f.accounts->signIn("alice", "correct horse", "9", &in).ok()) << "a minute later";
}

TEST(Accounts, LimitsSignUpsPerClient) {
  AccountsConfig c;
  c.signUpsPerClientPerHour = 1;
  AccountsFixture f(c);
  Accounts::SignedIn in;
  ASSERT_TRUE(f.accounts->signUp("alice", "correct horse", "x", &in).ok());
  EXPECT_EQ(f.accounts->signUp("bob", "correct horse", "x", &in).error().code, "rate-limited");
  EXPECT_TRUE(f.accounts->signUp("bob", "correct horse", "y", &in).ok());
}

TEST(Accounts, RefusesForgedMalformedAndExpiredSessions) {
  AccountsFixture f;
  Accounts::SignedIn in;
  ASSERT_TRUE(f.accounts->signUp("alice", "correct horse", "", &in).ok());
  std::string forged = in.token;
  forged[0] = forged[0] == 'A' ? 'B' : 'A';
  EXPECT_FALSE(f.accounts->whoIs(forged));
  EXPECT_FALSE(f.accounts->whoIs(""));
  EXPECT_FALSE(f.accounts->whoIs(in.token + "x"));
  EXPECT_FALSE(f.accounts->whoIs(std::string(Accounts::kTokenLength, '%')));
  auto stored = f.store.findAccount("alice");
  EXPECT_FALSE(f.accounts->whoIs((*stored)->passwordHash)) << "the stored hash is no token";
  EXPECT_TRUE(f.accounts->whoIs(in.token));
  f.time.advance(int64_t{31} * 24 * 3600 * 1000);
  EXPECT_FALSE(f.accounts->whoIs(in.token)) << "a session lives 30 days";
}

TEST(Accounts, CookiesAndCrossSiteRequests) {
  AccountsFixture plain;
  const std::string c = plain.accounts->cookie("TOKEN");
  EXPECT_EQ(c.rfind("acedrex_session=TOKEN;", 0), 0u) << c;
  EXPECT_NE(c.find("HttpOnly"), std::string::npos);
  EXPECT_NE(c.find("SameSite=Lax"), std::string::npos);
  EXPECT_NE(c.find("Path=/"), std::string::npos);
  EXPECT_EQ(c.find("Secure"), std::string::npos) << "plain http: a Secure cookie would never come back";
  EXPECT_NE(plain.accounts->clearCookie().find("Max-Age=0"), std::string::npos);
  AccountsConfig https;
  https.publicOrigin = "https://acedrex.example";
  AccountsFixture tls(https);
  EXPECT_NE(tls.accounts->cookie("T").find("; Secure"), std::string::npos);
  EXPECT_NE(tls.accounts->clearCookie().find("; Secure"), std::string::npos);

  EXPECT_EQ(Accounts::tokenFromCookies("a=b; acedrex_session=XYZ; c=d"), "XYZ");
  EXPECT_EQ(Accounts::tokenFromCookies("acedrex_session=XYZ"), "XYZ");
  EXPECT_EQ(Accounts::tokenFromCookies("xacedrex_session=XYZ"), "");
  EXPECT_EQ(Accounts::tokenFromCookies(""), "");

  Accounts& a = *plain.accounts;
  EXPECT_FALSE(a.crossSite({}));
  EXPECT_FALSE(a.crossSite({"http://localhost:8080", "same-origin", "localhost:8080"}));
  EXPECT_FALSE(a.crossSite({"", "none", "localhost:8080"}));
  EXPECT_FALSE(a.crossSite({"http://LocalHost:8080", "", "localhost:8080"}));
  EXPECT_TRUE(a.crossSite({"", "cross-site", "localhost:8080"}));
  EXPECT_TRUE(a.crossSite({"", "same-site", "localhost:8080"}));
  EXPECT_TRUE(a.crossSite({"https://evil.example", "", "localhost:8080"}));
  EXPECT_TRUE(a.crossSite({"http://localhost:8081", "", "localhost:8080"}));
  EXPECT_TRUE(a.crossSite({"null", "", "localhost:8080"}));
  EXPECT_FALSE(tls.accounts->crossSite({"https://acedrex.example", "", "10.0.0.5:8080"})) << "behind a proxy";
}

// ---------------------------------------------------------------------------
// The endpoints

struct ApiFixture : testing::AccountApi {
  static std::string cookieOf(const ApiResponse& r) { return r.setCookie.substr(0, r.setCookie.find(';')); }
};

using testing::codeOf;

TEST(AccountApi, SignUpSignInWhoAmISignOut) {
  ApiFixture f;
  auto anon = f.call("GET", "/api/account");
  EXPECT_EQ(anon.status, 200);
  EXPECT_EQ(anon.body, "{\"signedIn\":false}");
  auto up = f.call("POST", "/api/account/signup", R"({"name":"Alice","password":"correct horse"})");
  ASSERT_EQ(up.status, 201) << up.body;
  EXPECT_NE(up.body.find("\"name\":\"Alice\""), std::string::npos);
  EXPECT_EQ(up.body.find("password"), std::string::npos);
  const std::string alice = ApiFixture::cookieOf(up);
  auto me = f.call("GET", "/api/account", "", "theme=dark; " + alice);
  EXPECT_NE(me.body.find("\"signedIn\":true"), std::string::npos) << me.body;
  EXPECT_NE(me.body.find("\"name\":\"Alice\""), std::string::npos);

  auto in = f.call("POST", "/api/account/signin", R"({"name":"alice","password":"correct horse"})");
  ASSERT_EQ(in.status, 200) << in.body;
  auto out = f.call("POST", "/api/account/signout", "", alice);
  ASSERT_EQ(out.status, 200);
  EXPECT_NE(out.setCookie.find("Max-Age=0"), std::string::npos);
  EXPECT_EQ(f.call("GET", "/api/account", "", alice).body, "{\"signedIn\":false}");
  EXPECT_NE(f.call("GET", "/api/account", "", ApiFixture::cookieOf(in)).body.find("Alice"), std::string::npos)
      << "signing out one browser leaves the other signed in";
}

TEST(AccountApi, RefusesHostileInput) {
  ApiFixture f;
  auto up = f.call("POST", "/api/account/signup", R"({"name":"Alice","password":"correct horse"})");
  ASSERT_EQ(up.status, 201);
  const std::string alice = ApiFixture::cookieOf(up);
  struct Case {
    const char* method;
    const char* target;
    std::string body;
    int status;
    const char* code;
  };
  const std::vector<Case> cases = {
      {"POST", "/api/account/signup", R"({"name":"a b","password":"correct horse"})", 400, "bad-name"},
      {"POST", "/api/account/signup", R"({"name":"<img src=x>","password":"correct horse"})", 400, "bad-name"},
      {"POST", "/api/account/signup", R"({"name":"bob","password":"short"})", 400, "bad-password"},
      {"POST", "/api/account/signup", R"({"name":"bob","password":")" + std::string(300, 'p') + "\"}", 400,
       "bad-password"},
      {"POST", "/api/account/signin", R"({"name":"alice","password":")" + std::string(5000, 'p') + "\"}", 400,
       "bad-password"},
      {"POST", "/api/account/signup", R"({"name":"ALICE","password":"correct horse"})", 409, "name-taken"},
      {"POST", "/api/account/signup", R"({"name":5,"password":"correct horse"})", 400, "bad-json"},
      {"POST", "/api/account/signup", R"({"name":"bob"})", 400, "bad-json"},
      {"POST", "/api/account/signup", R"(["bob","pw"])", 400, "bad-json"},
      {"POST", "/api/account/signup", R"({"name":)", 400, "bad-json"},
      {"POST", "/api/account/signin", R"({"name":"alice","password":"wrong horse"})", 401, "bad-credentials"},
      {"POST", "/api/account/signin", R"({"name":"nobody","password":"wrong horse"})", 401, "bad-credentials"},
      {"GET", "/api/account/signin", "", 405, "method"},
      {"POST", "/api/account", "", 405, "method"},
      {"POST", "/api/account/delete", "", 404, "not-found"},
      {"POST", "/api/account/signin/x", "", 404, "not-found"},
  };
  for (const auto& c : cases) {
    auto r = f.call(c.method, c.target, c.body);
    EXPECT_EQ(r.status, c.status) << c.target << " " << c.body.substr(0, 80) << " -> " << r.body;
    EXPECT_EQ(codeOf(r), c.code) << c.target << " " << c.body.substr(0, 80);
    EXPECT_TRUE(r.setCookie.empty()) << "no session for a refused request";
  }
  // Forged and foreign cookies sign nobody in.
  for (const std::string& cookie :
       {std::string("acedrex_session=") + std::string(32, 'A'), std::string("acedrex_session=../../etc/passwd"),
        std::string("acedrex_session=") + std::string(4000, 'x'), std::string("acedrex_session="),
        std::string("other=") + alice.substr(alice.find('=') + 1)})
    EXPECT_EQ(f.call("GET", "/api/account", "", cookie).body, "{\"signedIn\":false}") << cookie.substr(0, 60);
}

TEST(AccountApi, RefusesCrossSiteRequests) {
  ApiFixture f;
  auto up = f.call("POST", "/api/account/signup", R"({"name":"Alice","password":"correct horse"})");
  const std::string alice = ApiFixture::cookieOf(up);
  const RequestOrigin evil{"https://evil.example", "cross-site", "localhost:8080"};
  for (const char* what : {"signup", "signin", "signout"}) {
    auto r = f.call("POST", std::string("/api/account/") + what, R"({"name":"Bob","password":"correct horse"})",
                    alice, "", evil);
    EXPECT_EQ(r.status, 403) << what;
    EXPECT_EQ(codeOf(r), "cross-site") << what;
  }
  auto origin = f.call("POST", "/api/account/signup", R"({"name":"Bob","password":"correct horse"})", "", "",
                       RequestOrigin{"https://evil.example", "", "localhost:8080"});
  EXPECT_EQ(origin.status, 403);
  EXPECT_NE(f.call("GET", "/api/account", "", alice).body.find("Alice"), std::string::npos)
      << "the cross-site sign-out ended nothing";
  EXPECT_EQ(f.call("GET", "/api/account", "", alice, "", evil).body, "{\"signedIn\":false}")
      << "a cross-site request is not signed in";
  auto same = f.call("POST", "/api/account/signup", R"({"name":"Bob","password":"correct horse"})", "", "",
                     RequestOrigin{"http://localhost:8080", "same-origin", "localhost:8080"});
  EXPECT_EQ(same.status, 201) << same.body;
}

TEST(AccountApi, WithoutAccountsTheEndpointsSayso) {
  DrivenLobby d;
  Api api(d.lobby, [](int) { return std::string(); });
  ApiRequest r;
  r.method = "GET";
  r.target = "/api/account";
  EXPECT_EQ(api.handle(r).status, 503);
}

}  // namespace
}  // namespace acedrex::server
