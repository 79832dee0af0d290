// Chat in a game: the players' and the watchers' rooms, who may read and
// write which, the text rules, the rate limit, and the lines kept with the
// game in every store.
#include <gtest/gtest.h>
#include "account_support.h"
#include "pg_cluster.h"
#include "server/app/chat.h"
#include "server/app/pg_store.h"
#include "test_support.h"

namespace acedrex::server {
namespace {

using testing::AccountApi;
using testing::codeOf;
using testing::parsed;
using testing::TempPostgres;

struct Game {
  std::string id, white, black;
};

Game twoPlayers(AccountApi& f) {
  const Json g = parsed(f.call("POST", "/api/game", R"({"variant":"chess","name":"Wanda"})").body);
  return {g.get("id")->asString(), g.get("seats")->items()[0].get("token")->asString(),
          g.get("seats")->items()[1].get("token")->asString()};
}

std::vector<std::string> texts(const ApiResponse& r) {
  std::vector<std::string> out;
  const Json j = parsed(r.body);
  if (!j.get("lines")) return out;
  for (const auto& l : j.get("lines")->items()) out.push_back(l.get("author")->asString() + ": " + l.get("text")->asString());
  return out;
}

TEST(Chat, PlayersAndWatchersHaveRoomsOfTheirOwn) {
  AccountApi f;
  const Game g = twoPlayers(f);
  const std::string carol = f.signUp("Carol");
  const std::string base = "/api/game/" + g.id + "/chat/";
  auto said = f.call("POST", base + "players", R"({"text":"  good luck  "})", "", g.white);
  ASSERT_EQ(said.status, 201) << said.body;
  EXPECT_EQ(parsed(said.body).get("text")->asString(), "good luck") << "trimmed";
  EXPECT_EQ(parsed(said.body).get("seat")->asString(), "white");
  ASSERT_EQ(f.call("POST", base + "players", R"({"text":"<script>alert(1)</script>"})", "", g.black).status, 201);
  ASSERT_EQ(f.call("POST", base + "watchers", R"({"text":"nice opening"})", carol).status, 201);

  EXPECT_EQ(texts(f.call("GET", base + "players", "", "", g.black)),
            (std::vector<std::string>{"Wanda: good luck", "black: <script>alert(1)</script>"}));
  EXPECT_EQ(texts(f.call("GET", base + "watchers")), (std::vector<std::string>{"Carol: nice opening"}));
  const auto later = f.call("GET", base + "players?after=1", "", "", g.white);
  EXPECT_EQ(texts(later).size(), 1u);
  EXPECT_EQ(parsed(later.body).get("lines")->items()[0].get("n")->asNumber(), 2);
  // Watchers do not read the players' room; players do not write the watchers' one.
  EXPECT_EQ(f.call("GET", base + "players").status, 401);
  EXPECT_EQ(f.call("GET", base + "players", "", carol).status, 401);
  EXPECT_EQ(f.call("GET", base + "players", "", "", "forged").status, 403);
  EXPECT_EQ(f.call("POST", base + "players", R"({"text":"hi"})", carol).status, 401);
  EXPECT_EQ(codeOf(f.call("POST", base + "watchers", R"({"text":"hi"})", carol, g.white)), "players-room");
  EXPECT_EQ(codeOf(f.call("POST", base + "watchers", R"({"text":"hi"})")), "account-needed");
  EXPECT_EQ(codeOf(f.call("POST", base + "watchers", R"({"text":"hi"})", "acedrex_session=" + std::string(32, 'Z'))),
            "account-needed")
      << "a forged cookie";
  EXPECT_EQ(codeOf(f.call("POST", base + "watchers", R"({"text":"hi"})", carol, "",
                          RequestOrigin{"https://evil.example", "cross-site", "localhost"})),
            "account-needed")
      << "a cross-site post is no account's";
  // Another game's token holds no seat here.
  const Game other = twoPlayers(f);
  EXPECT_EQ(f.call("GET", base + "players", "", "", other.white).status, 403);
  EXPECT_EQ(f.call("POST", base + "players", R"({"text":"hi"})", "", other.white).status, 403);
  EXPECT_EQ(f.call("GET", base + "lobby").status, 404);
  EXPECT_EQ(f.call("DELETE", base + "watchers").status, 405);
  EXPECT_EQ(f.call("GET", base + "watchers?after=x").status, 400);
}

TEST(Chat, RefusesBadTextAndTooManyLines) {
  AccountApi f;
  const Game g = twoPlayers(f);
  const std::string url = "/api/game/" + g.id + "/chat/players";
  for (const std::string& body :
       {std::string(R"({"text":""})"), std::string(R"({"text":"   "})"), std::string(R"({"text":"a\nb"})"),
        std::string(R"({"text":"bell\u0007"})"), std::string(R"({"text":"c1\u0085"})"),
        R"({"text":")" + std::string(141, 'x') + "\"}", std::string(R"({"text":5})"), std::string(R"(["hi"])")}) {
    auto r = f.call("POST", url, body, "", g.white);
    EXPECT_EQ(r.status, 400) << body.substr(0, 60) << " -> " << r.body;
  }
  std::string longest;
  for (int i = 0; i < 140; ++i) longest += "é";  // 140 characters, 280 bytes
  EXPECT_EQ(f.call("POST", url, R"({"text":")" + longest + "\"}", "", g.white).status, 201);
  for (int i = 1; i < Chat::kBurst; ++i) EXPECT_EQ(f.call("POST", url, R"({"text":"x"})", "", g.white).status, 201);
  auto limited = f.call("POST", url, R"({"text":"x"})", "", g.white);
  EXPECT_EQ(limited.status, 429);
  EXPECT_EQ(f.call("POST", url, R"({"text":"x"})", "", g.black).status, 201) << "per author";
  f.d.time.advance(Chat::kRefillMs);
  EXPECT_EQ(f.call("POST", url, R"({"text":"x"})", "", g.white).status, 201);
}

TEST(Chat, TextRules) {
  std::string out;
  EXPECT_EQ(Chat::textProblem(" hi ", &out), "");
  EXPECT_EQ(out, "hi");
  EXPECT_NE(Chat::textProblem("tab\there", &out), "");
  EXPECT_NE(Chat::textProblem(std::string("nul\0x", 5), &out), "");
  EXPECT_EQ(Chat::textProblem("日本語", &out), "");
}

void checkChatLines(Store& s) {
  StoredGame g;
  g.id = "chat1";
  g.variant = "chess";
  ASSERT_TRUE(s.createGame(g).ok());
  ASSERT_TRUE(s.appendChat("chat1", ChatLine{1, "players", "Wanda", "white", "hi \"there\"", 5}).ok());
  ASSERT_TRUE(s.appendChat("chat1", ChatLine{2, "watchers", "Carol", "", "hello", 6}).ok());
  auto dup = s.appendChat("chat1", ChatLine{2, "players", "x", "black", "late", 7});
  ASSERT_FALSE(dup.ok());
  EXPECT_EQ(dup.error().code, kStoreConflict);
  EXPECT_FALSE(s.appendChat("nogame", ChatLine{1, "players", "x", "white", "y", 1}).ok());
  auto lines = s.loadChat("chat1");
  ASSERT_TRUE(lines.ok());
  ASSERT_EQ(lines->size(), 2u);
  EXPECT_EQ((*lines)[0].text, "hi \"there\"");
  EXPECT_EQ((*lines)[0].seat, "white");
  EXPECT_EQ((*lines)[1].room, "watchers");
  EXPECT_EQ((*lines)[1].atMs, 6);
  EXPECT_TRUE(s.loadChat("other")->empty());
}

TEST(Chat, EveryStoreKeepsTheLinesWithTheGame) {
  testing::onMemoryAndSqlite("chat", checkChatLines,
                             [](Store& s) { EXPECT_EQ(s.loadChat("chat1")->size(), 2u) << "after a restart"; });
}

TEST(Chat, PostgresKeepsTheLinesWithTheGame) {
  TempPostgres pg;
  ACEDREX_NEED_POSTGRES(pg);
  testing::onPostgres(pg.uri(), checkChatLines);
}

}  // namespace
}  // namespace acedrex::server
