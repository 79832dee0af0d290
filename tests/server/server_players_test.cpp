// Players of games: guests' display names and accounts' names in the state,
// the lists and the records; rated games and their ratings (stored with the
// result, in every store); the player page; takebacks between people.
#include <gtest/gtest.h>
#include <cmath>

#include "account_support.h"
#include "pg_cluster.h"
#include "server/app/pg_store.h"
#include "server/app/ratings.h"
#include "test_support.h"

namespace acedrex::server {
namespace {

using testing::AccountApi;
using testing::codeOf;
using testing::parsed;
using testing::TempPostgres;

const char* kFoolsMate[] = {"f2f3", "e7e5", "g2g4", "d8h4"};

std::string field(const std::string& body, const char* key) {
  const Json j = parsed(body);
  const Json* v = j.get(key);
  return v && v->isString() ? v->asString() : "";
}

const Json* seatOf(const Json& state, int i) { return &state.get("seats")->items()[static_cast<size_t>(i)]; }

TEST(Players, GuestsPlayUnderTheirNames) {
  AccountApi f;
  auto made = f.call("POST", "/api/game",
                     R"({"variant":"chess","name":"Guest_1","seats":[{"kind":"human"},{"kind":"human","open":true}]})");
  ASSERT_EQ(made.status, 201) << made.body;
  const Json created = parsed(made.body);
  const std::string id = created.get("id")->asString();
  const std::string white = created.get("seats")->items()[0].get("token")->asString();
  auto joined = f.call("POST", "/api/game/" + id + "/join?name=Bob-2");
  ASSERT_EQ(joined.status, 200) << joined.body;
  const Json state = parsed(f.call("GET", "/api/game/" + id).body);
  EXPECT_EQ(seatOf(state, 0)->get("name")->asString(), "Guest_1");
  EXPECT_FALSE(seatOf(state, 0)->get("account")->asBool());
  EXPECT_TRUE(seatOf(state, 0)->get("rating")->isNull());
  EXPECT_EQ(seatOf(state, 1)->get("name")->asString(), "Bob-2");
  const std::string pgn = f.call("GET", "/api/game/" + id + "/pgn").body;
  EXPECT_NE(pgn.find("[White \"Guest_1\"]"), std::string::npos) << pgn;
  EXPECT_NE(pgn.find("[Black \"Bob-2\"]"), std::string::npos) << pgn;
  const std::string list = f.call("GET", "/api/games").body;
  EXPECT_NE(list.find("\"name\":\"Guest_1\""), std::string::npos) << list;
  EXPECT_EQ(f.call("POST", "/api/game/" + id + "/name", R"({"name":"Other"})", "", white).status, 409)
      << "a seat is named once";

  // An unnamed guest is "Human" in the record, as before.
  auto plain = parsed(f.call("POST", "/api/game", R"({"variant":"chess"})").body);
  const std::string plainId = plain.get("id")->asString();
  EXPECT_NE(f.call("GET", "/api/game/" + plainId + "/pgn").body.find("[White \"Human\"]"), std::string::npos);
  EXPECT_TRUE(seatOf(parsed(f.call("GET", "/api/game/" + plainId).body), 0)->get("name")->isNull());
  // An invitation's holder names the seat it holds.
  const std::string black = plain.get("seats")->items()[1].get("token")->asString();
  auto named = f.call("POST", "/api/game/" + plainId + "/name", R"({"name":"Carol"})", "", black);
  ASSERT_EQ(named.status, 200) << named.body;
  EXPECT_EQ(seatOf(parsed(named.body), 1)->get("name")->asString(), "Carol");
  EXPECT_TRUE(seatOf(parsed(named.body), 0)->get("name")->isNull()) << "only the token's seat";
  EXPECT_NE(f.call("GET", "/api/game/" + plainId + "/pgn").body.find("[Black \"Carol\"]"), std::string::npos);
}

TEST(Players, RefusesBadAndBorrowedNames) {
  AccountApi f;
  const std::string alice = f.signUp("Alice");
  for (const char* body : {R"({"variant":"chess","name":"a b"})", R"({"variant":"chess","name":"<b>x</b>"})",
                           R"({"variant":"chess","name":"x"})", R"({"variant":"chess","name":5})",
                           R"({"variant":"chess","name":"123456789012345678901"})"}) {
    auto r = f.call("POST", "/api/game", body);
    EXPECT_EQ(r.status, 400) << body;
    EXPECT_EQ(codeOf(r), "bad-name") << body;
  }
  auto borrowed = f.call("POST", "/api/game", R"({"variant":"chess","name":"ALICE"})");
  EXPECT_EQ(borrowed.status, 409) << "a guest may not play under an account's name";
  EXPECT_EQ(codeOf(borrowed), "name-taken");
  auto game = parsed(f.call("POST", "/api/game", R"({"variant":"chess"})").body);
  const std::string id = game.get("id")->asString();
  const std::string white = game.get("seats")->items()[0].get("token")->asString();
  EXPECT_EQ(f.call("POST", "/api/game/" + id + "/name", R"({"name":"Alice"})", "", white).status, 409);
  EXPECT_EQ(f.call("POST", "/api/game/" + id + "/name", R"({"name":"Eve"})", "", "forged-token").status, 403);
  EXPECT_EQ(f.call("POST", "/api/game/" + id + "/name", R"({"name":"Eve"})").status, 401);
  EXPECT_EQ(f.call("POST", "/api/game/" + id + "/name", R"(["Eve"])", "", white).status, 400);
  EXPECT_EQ(f.call("GET", "/api/game/" + id + "/name", "", "", white).status, 405);
  // The signed-in account names it, whatever the body says.
  auto mine = f.call("POST", "/api/game/" + id + "/name", R"({"name":"Eve"})", alice, white);
  ASSERT_EQ(mine.status, 200) << mine.body;
  EXPECT_EQ(seatOf(parsed(mine.body), 0)->get("name")->asString(), "Alice");
  EXPECT_TRUE(seatOf(parsed(mine.body), 0)->get("account")->asBool());
}

// Alice (white) and Bob (black) in a rated game of chess; returns its id and the two tokens.
struct Rated {
  std::string id, white, black;
};
Rated ratedGame(AccountApi& f, const std::string& alice, const std::string& bob) {
  Rated g;
  auto made = f.call("POST", "/api/game", R"({"variant":"chess","rated":true})", alice);
  EXPECT_EQ(made.status, 201) << made.body;
  const Json created = parsed(made.body);
  g.id = created.get("id")->asString();
  g.white = created.get("seats")->items()[0].get("token")->asString();
  auto joined = f.call("POST", "/api/game/" + g.id + "/join", "", bob);
  EXPECT_EQ(joined.status, 200) << joined.body;
  g.black = field(joined.body, "token");
  return g;
}

TEST(Ratings, ARatedGameBetweenAccountsChangesBothRatings) {
  AccountApi f;
  const std::string alice = f.signUp("Alice"), bob = f.signUp("Bob");
  auto made = f.call("POST", "/api/game", R"({"variant":"chess","rated":true})", alice);
  ASSERT_EQ(made.status, 201) << made.body;
  const std::string id = field(made.body, "id");
  // Listed with the creator's name and rating.
  const std::string open = f.call("GET", "/api/games?status=open").body;
  EXPECT_NE(open.find("\"name\":\"Alice\",\"account\":true,\"rated\":true,\"rating\":1500,\"provisional\":true"),
            std::string::npos)
      << open;
  EXPECT_EQ(codeOf(f.call("POST", "/api/game/" + id + "/join")), "account-needed") << "guests do not play rated";
  EXPECT_EQ(codeOf(f.call("POST", "/api/game/" + id + "/join?name=Guest")), "account-needed");
  EXPECT_EQ(codeOf(f.call("POST", "/api/game/" + id + "/join", "", alice)), "same-player");
  auto joined = f.call("POST", "/api/game/" + id + "/join", "", bob);
  ASSERT_EQ(joined.status, 200) << joined.body;
  const std::string white = parsed(made.body).get("seats")->items()[0].get("token")->asString();
  const std::string black = field(joined.body, "token");
  const Json state = parsed(f.call("GET", "/api/game/" + id).body);
  EXPECT_EQ(seatOf(state, 1)->get("name")->asString(), "Bob");
  EXPECT_EQ(seatOf(state, 1)->get("rating")->asNumber(), 1500);
  EXPECT_TRUE(seatOf(state, 1)->get("rated")->asBool());
  for (int i = 0; i < 4; ++i)
    ASSERT_EQ(f.call("POST", "/api/game/" + id + "/move/" + kFoolsMate[i], "", "", i % 2 ? black : white).status, 200);
  auto a = f.d.store.ratingsOf("alice");
  auto b = f.d.store.ratingsOf("bob");
  ASSERT_TRUE(a.ok() && b.ok());
  ASSERT_EQ(a->size(), 1u);
  ASSERT_EQ(b->size(), 1u);
  EXPECT_EQ((*a)[0].variant, "chess");
  EXPECT_LT((*a)[0].rating, 1500);
  EXPECT_GT((*b)[0].rating, 1500);
  EXPECT_NEAR((*b)[0].rating - 1500, 1500 - (*a)[0].rating, 1e-6);
  EXPECT_EQ((*a)[0].games, 1);
  // The player page: ratings and games with their results.
  auto page = f.call("GET", "/api/player/bob");
  ASSERT_EQ(page.status, 200) << page.body;
  const Json p = parsed(page.body);
  EXPECT_EQ(p.get("name")->asString(), "Bob");
  EXPECT_EQ(p.get("ratings")->items()[0].get("variant")->asString(), "chess");
  EXPECT_EQ(p.get("ratings")->items()[0].get("rating")->asNumber(), std::lround((*b)[0].rating));
  EXPECT_TRUE(p.get("ratings")->items()[0].get("provisional")->asBool());
  EXPECT_EQ(p.get("games")->items()[0].get("id")->asString(), id);
  EXPECT_EQ(p.get("games")->items()[0].get("result")->get("winner")->asString(), "black");
  EXPECT_EQ(f.call("GET", "/api/player/nobody").status, 404);
  EXPECT_EQ(f.call("GET", "/api/player/..%2F..").status, 404);
  EXPECT_EQ(f.call("POST", "/api/player/bob").status, 405);

  // A casual game between the same accounts changes nothing.
  auto casual = parsed(f.call("POST", "/api/game", R"({"variant":"chess","seats":[{"kind":"human"},{"kind":"human","open":true}]})", alice).body);
  const std::string cid = casual.get("id")->asString();
  const std::string cw = casual.get("seats")->items()[0].get("token")->asString();
  const std::string cb = field(f.call("POST", "/api/game/" + cid + "/join", "", bob).body, "token");
  for (int i = 0; i < 4; ++i)
    ASSERT_EQ(f.call("POST", "/api/game/" + cid + "/move/" + kFoolsMate[i], "", "", i % 2 ? cb : cw).status, 200);
  EXPECT_EQ((*f.d.store.ratingsOf("alice"))[0].games, 1);
  EXPECT_EQ(parsed(f.call("GET", "/api/player/Alice").body).get("games")->items().size(), 2u);
}

TEST(Ratings, ARatedResultThatIsNotStoredChangesNoRating) {
  AccountApi f;
  const Rated g = ratedGame(f, f.signUp("Alice"), f.signUp("Bob"));
  for (int i = 0; i < 3; ++i)
    ASSERT_EQ(f.call("POST", "/api/game/" + g.id + "/move/" + kFoolsMate[i], "", "", i % 2 ? g.black : g.white).status,
              200);
  f.d.store.failNextWrites(1);
  EXPECT_EQ(f.call("POST", "/api/game/" + g.id + "/move/d8h4", "", "", g.black).status, 503);
  EXPECT_TRUE(f.d.store.ratingsOf("bob")->empty()) << "no result, no rating";
  ASSERT_EQ(f.call("POST", "/api/game/" + g.id + "/move/d8h4", "", "", g.black).status, 200);
  EXPECT_EQ((*f.d.store.ratingsOf("bob"))[0].games, 1);
}

TEST(Ratings, RefusesGamesThatCannotBeRated) {
  AccountApi f;
  const std::string alice = f.signUp("Alice");
  struct Case {
    std::string body, cookie, code;
  };
  const std::vector<Case> cases = {
      {R"({"variant":"chess","rated":true})", "", "account-needed"},
      {R"({"variant":"chess","rated":true,"name":"Guest"})", "", "account-needed"},
      {R"({"variant":"chess","rated":"yes"})", alice, "bad-rated"},
      {R"({"variant":"four-player-chess","rated":true})", alice, "bad-rated"},
      {R"({"variant":"chess","rated":true,"seats":[{"kind":"human"},{"kind":"bot","level":1}]})", alice, "bad-rated"},
      {R"({"variant":"chess","rated":true,"seats":[{"kind":"human"},{"kind":"human"}]})", alice, "bad-rated"},
      {R"({"variant":"chess","rated":true,"hotSeat":true})", alice, "bad-rated"},
      {R"({"variant":"chess","rated":true,"fen":"4k3/8/8/8/8/8/8/4K2R w K - 0 1"})", alice, "bad-rated"},
  };
  for (const auto& c : cases) {
    auto r = f.call("POST", "/api/game", c.body, c.cookie);
    EXPECT_EQ(codeOf(r), c.code) << c.body << " -> " << r.body;
  }
  // A forged or another site's cookie is no account.
  EXPECT_EQ(codeOf(f.call("POST", "/api/game", R"({"variant":"chess","rated":true})",
                          "acedrex_session=" + std::string(32, 'Q'))),
            "account-needed");
  EXPECT_EQ(codeOf(f.call("POST", "/api/game", R"({"variant":"chess","rated":true})", alice, "",
                          RequestOrigin{"https://evil.example", "cross-site", "localhost"})),
            "account-needed");
}

// What every store does with a rated result: the ratings change in the
// transaction of the result, once.
void checkRatedResult(Store& s) {
  ASSERT_TRUE(s.createAccount(StoredAccount{"alice", "Alice", "h", 1}).ok());
  ASSERT_TRUE(s.createAccount(StoredAccount{"bob", "Bob", "h", 1}).ok());
  StoredGame g;
  g.id = "rated1";
  g.variant = "chess";
  g.createdMs = 10;
  SeatPlan a{false, 0, "ta"}, b{false, 0, "tb"};
  a.name = "Alice";
  b.name = "Bob";
  a.account = b.account = a.rated = b.rated = true;
  g.seats = {a, b};
  ASSERT_TRUE(s.createGame(g).ok());
  StoredEntry e;
  e.text = "e2e4";
  ASSERT_TRUE(s.appendEntry("rated1", e).ok());
  e.ply = 1;
  e.seat = 1;
  e.text = "resign";
  const std::string result = R"({"places":{"white":2,"black":1},"reason":"resign","winner":"black"})";
  ASSERT_TRUE(s.appendFinal("rated1", e, result).ok());
  auto bob = s.ratingsOf("bob");
  ASSERT_TRUE(bob.ok());
  ASSERT_EQ(bob->size(), 1u);
  EXPECT_GT((*bob)[0].rating, 1500);
  EXPECT_EQ((*bob)[0].games, 1);
  ASSERT_TRUE(s.finishGame("rated1", result).ok());
  EXPECT_EQ((*s.ratingsOf("bob"))[0].games, 1) << "a finished game is rated once";
  auto games = s.gamesOf("Bob", 10);
  ASSERT_TRUE(games.ok());
  ASSERT_EQ(games->size(), 1u);
  EXPECT_EQ((*games)[0].id, "rated1");
  EXPECT_TRUE((*games)[0].seats[1].rated);
  EXPECT_TRUE(s.gamesOf("Bo", 10)->empty()) << "whole names only";
  EXPECT_TRUE(s.gamesOf("bob", 10)->empty()) << "the account's own spelling";
  // An aborted rated game changes nothing.
  g.id = "rated2";
  ASSERT_TRUE(s.createGame(g).ok());
  ASSERT_TRUE(s.finishGame("rated2", R"({"places":{},"reason":"aborted","winner":null})").ok());
  EXPECT_EQ((*s.ratingsOf("alice"))[0].games, 1);
}

TEST(Ratings, EveryStoreRatesWithTheResult) { testing::onMemoryAndSqlite("rated", checkRatedResult); }

TEST(Ratings, PostgresRatesWithTheResult) {
  TempPostgres pg;
  ACEDREX_NEED_POSTGRES(pg);
  testing::onPostgres(pg.uri(), checkRatedResult);
}

TEST(Ratings, WhatMakesARatedGame) {
  SeatPlan a, b;
  a.name = "Alice";
  b.name = "Bob";
  a.account = b.account = a.rated = b.rated = true;
  EXPECT_TRUE(ratedSeats({a, b}));
  SeatPlan guest = b;
  guest.account = false;
  EXPECT_FALSE(ratedSeats({a, guest}));
  SeatPlan same = b;
  same.name = "ALICE";
  EXPECT_FALSE(ratedSeats({a, same}));
  EXPECT_FALSE(ratedSeats({a, b, b}));
  EXPECT_TRUE(ratingsAfter("chess", {a, b}, "{}", 0, [](const std::string&) { return std::nullopt; }).empty());
  const auto draw = ratingsAfter("chess", {a, b}, R"({"places":{"white":1,"black":1}})", 5,
                                 [](const std::string&) { return std::nullopt; });
  ASSERT_EQ(draw.size(), 2u);
  EXPECT_NEAR(draw[0].rating, 1500, 1e-9);
  EXPECT_EQ(draw[0].account, "alice");
  EXPECT_EQ(draw[1].updatedMs, 5);
}

// ---------------------------------------------------------------------------
// Takebacks between people

TEST(Takeback, BetweenPeopleByAgreement) {
  AccountApi f;
  const Rated g = ratedGame(f, f.signUp("Alice"), f.signUp("Bob"));
  auto post = [&](const std::string& what, const std::string& token) {
    return f.call("POST", "/api/game/" + g.id + "/" + what, "", "", token);
  };
  EXPECT_EQ(codeOf(post("takeback", g.white)), "no-takeback") << "no move of white's yet";
  ASSERT_EQ(post("move/e2e4", g.white).status, 200);
  ASSERT_EQ(post("move/e7e5", g.black).status, 200);
  EXPECT_EQ(codeOf(post("takeback/accept", g.black)), "no-offer");
  auto asked = post("takeback/offer", g.white);
  ASSERT_EQ(asked.status, 200) << asked.body;
  EXPECT_EQ(field(asked.body, "takebackOffer"), "white");
  EXPECT_EQ(parsed(asked.body).get("moves")->items().size(), 2u) << "nothing taken back yet";
  EXPECT_EQ(codeOf(post("takeback/accept", g.white)), "own-offer");
  EXPECT_EQ(codeOf(post("takeback/maybe", g.black)), "bad-action");
  EXPECT_EQ(post("takeback/accept", "").status, 401);
  EXPECT_EQ(post("takeback/accept", "forged").status, 403);
  ASSERT_EQ(post("takeback/decline", g.black).status, 200);
  EXPECT_TRUE(parsed(f.call("GET", "/api/game/" + g.id).body).get("takebackOffer")->isNull());
  // Asked again and accepted: white's move and black's reply go back.
  ASSERT_EQ(post("takeback", g.white).status, 200);
  auto accepted = post("takeback/accept", g.black);
  ASSERT_EQ(accepted.status, 200) << accepted.body;
  const Json after = parsed(accepted.body);
  EXPECT_TRUE(after.get("moves")->items().empty());
  EXPECT_EQ(after.get("toMove")->asString(), "white");
  EXPECT_TRUE(after.get("takebackOffer")->isNull());
  // An offer lapses with the next move.
  ASSERT_EQ(post("move/d2d4", g.white).status, 200);
  ASSERT_EQ(post("takeback", g.white).status, 200);
  ASSERT_EQ(post("move/d7d5", g.black).status, 200);
  EXPECT_TRUE(parsed(f.call("GET", "/api/game/" + g.id).body).get("takebackOffer")->isNull());
  // Over the WebSocket too.
  auto room = f.d.lobby.find(g.id);
  EXPECT_EQ(f.api.onSocketMessage(*room, g.black, R"({"t":"takeback","d":{"action":"offer"}})"), "");
  EXPECT_EQ(f.api.onSocketMessage(*room, g.white, R"({"t":"takeback","d":{"action":"accept"}})"), "");
  EXPECT_EQ(parsed(room->stateJson("")).get("moves")->items().size(), 1u) << "black's d7d5 went back";
  // Not after the end.
  ASSERT_EQ(post("resign", g.white).status, 200);
  EXPECT_EQ(codeOf(post("takeback", g.black)), "game-over");
}

}  // namespace
}  // namespace acedrex::server
