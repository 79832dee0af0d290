// The account endpoints of the API (docs/api.md, "Accounts"):
//   GET  /api/account          who the session cookie belongs to
//   POST /api/account/signup   {name, password}: a new account, signed in
//   POST /api/account/signin   {name, password}: a new session
//   POST /api/account/signout  ends the session
// Every POST here is refused from another site (403 "cross-site").
// Also the players of games: the creator's and a joiner's name and rating
// (POST /api/game, /join, /name) and GET /api/player/{name}.
#include <cmath>

#include "server/app/accounts.h"
#include "server/app/api.h"
#include "server/app/catalogue.h"
#include "server/app/glicko2.h"
#include "server/app/json.h"
#include "server/app/players.h"

namespace acedrex::server {
namespace {

std::string accountJson(const std::optional<StoredAccount>& a) {
  JsonWriter w;
  w.beginObject().key("signedIn").value(a.has_value());
  if (a) w.key("name").value(a->name).key("createdMs").value(a->createdMs);
  w.endObject();
  return w.take();
}

}  // namespace

std::optional<StoredAccount> Api::accountOf(const ApiRequest& r) {
  if (!accounts_ || r.cookie.empty() || accounts_->crossSite(r.from)) return std::nullopt;
  const std::string token = Accounts::tokenFromCookies(r.cookie);
  if (token.empty()) return std::nullopt;
  return accounts_->whoIs(token);
}

std::optional<ApiResponse> Api::playerOf(const ApiRequest& r, const std::string& guestName, const std::string& variant,
                                         SeatPlan* out) {
  if (auto me = accountOf(r)) {
    out->name = me->name;
    out->account = true;
    out->rating = 1500;
    out->provisional = true;
    if (auto ratings = accounts_->store().ratingsOf(me->key); ratings.ok())
      for (const auto& x : *ratings)
        if (x.variant == variant) {
          out->rating = static_cast<int>(std::lround(x.rating));
          out->provisional = glicko2::provisional({x.rating, x.deviation, x.volatility});
        }
    return std::nullopt;
  }
  if (guestName.empty()) return std::nullopt;
  if (std::string why = Accounts::nameProblem(guestName); !why.empty()) return error(400, "bad-name", why);
  if (accounts_ && accounts_->find(guestName))
    return error(409, "name-taken", "\"" + guestName + "\" is an account's name; sign in to play under it");
  out->name = guestName;
  out->account = false;
  return std::nullopt;
}

std::optional<ApiResponse> Api::seatCreator(const ApiRequest& req, const Json& body, CreateRequest* c) {
  std::string guest;
  if (const Json* n = body.get("name"); n && !n->isNull()) {
    if (!n->isString()) return error(400, "bad-name", "\"name\" is a string");
    guest = n->asString();
  }
  bool rated = false;
  if (const Json* r = body.get("rated"); r && !r->isNull()) {
    if (!r->isBool()) return error(400, "bad-rated", "\"rated\" is true or false");
    rated = r->asBool();
  }
  SeatPlan who;
  if (auto bad = playerOf(req, guest, c->variant, &who)) return bad;
  auto rules = lobby_.rulesFor(c->variant, c->options);
  if (!rules.ok()) return std::nullopt;  // lobby_.create refuses it with its own words
  const size_t n = static_cast<size_t>((*rules)->nseats());
  if (rated) {
    if (!who.account) return error(403, "account-needed", "sign in to create a rated game");
    if (n != 2) return error(400, "bad-rated", "only two-player games are rated");
    if (c->seats.empty()) {
      c->seats = {SeatPlan{}, SeatPlan{}};
      c->seats[1].open = true;  // the opponent takes it from the lobby
    }
    if (c->seats.size() != 2 || c->seats[0].bot || c->seats[1].bot || c->seats[0].open || !c->seats[1].open)
      return error(400, "bad-rated", "a rated game has the creator's seat first and an open seat for the opponent");
    if (c->hotSeat || !c->startFen.empty())
      return error(400, "bad-rated", "hot-seat games and games from a set position are not rated");
    c->seats[0].rated = c->seats[1].rated = true;
  }
  if (who.name.empty()) return std::nullopt;
  if (c->seats.empty()) c->seats.assign(n, SeatPlan{});
  for (auto& s : c->seats)
    if (!s.bot && !s.open) {
      seatThePlayer(s, who);
      if (!c->hotSeat) break;  // the creator holds the first human seat; hot seat: all of them
    }
  return std::nullopt;
}

ApiResponse Api::player(const std::string& name) {
  if (!accounts_) return error(503, "no-accounts", "this server keeps no accounts");
  auto a = accounts_->find(name);
  if (!a) return error(404, "unknown-player", "no player \"" + name + "\"");
  JsonWriter w;
  w.beginObject().key("name").value(a->name).key("createdMs").value(a->createdMs);
  w.key("ratings").beginArray();
  if (auto ratings = accounts_->store().ratingsOf(a->key); ratings.ok())
    for (const auto& r : *ratings)
      w.beginObject().key("variant").value(r.variant).key("rating").value(static_cast<int>(std::lround(r.rating)))
          .key("deviation").value(static_cast<int>(std::lround(r.deviation)))
          .key("provisional").value(glicko2::provisional({r.rating, r.deviation, r.volatility}))
          .key("games").value(r.games).endObject();
  w.endArray();
  w.key("games").beginArray();
  if (auto games = accounts_->store().gamesOf(a->name, 50); games.ok())
    for (const auto& g : *games) {
      auto rules = lobby_.rulesFor(g.variant, g.options);
      if (!rules.ok()) continue;
      // The summary, with the result once finished.
      w.beginObject();
      writeGameSummaryFields(w, g, **rules, g.finished, -1, std::nullopt);
      w.key("result");
      if (g.finished && !g.resultJson.empty()) w.raw(g.resultJson);
      else w.null();
      w.endObject();
    }
  w.endArray().endObject();
  ApiResponse r;
  r.body = w.take();
  return r;
}

ApiResponse Api::accountRoute(const ApiRequest& req, const std::vector<std::string>& seg) {
  if (!accounts_) return error(503, "no-accounts", "this server keeps no accounts");
  const bool get = req.method == "GET" || req.method == "HEAD";
  if (seg.size() == 2) {
    if (!get) return error(405, "method", "use GET");
    ApiResponse r;
    r.body = accountJson(accountOf(req));
    return r;
  }
  if (seg.size() != 3) return error(404, "not-found", "no such API path");
  const std::string& what = seg[2];
  if (what != "signup" && what != "signin" && what != "signout") return error(404, "not-found", "no such API path");
  if (req.method != "POST") return error(405, "method", "use POST");
  if (accounts_->crossSite(req.from)) return error(403, "cross-site", "requests from another site are refused");

  if (what == "signout") {
    if (auto o = accounts_->signOut(Accounts::tokenFromCookies(req.cookie)); !o.ok()) return error(o.error());
    ApiResponse r;
    r.body = accountJson(std::nullopt);
    r.setCookie = accounts_->clearCookie();
    return r;
  }
  auto parsed = parseJson(req.body, 4);
  if (!parsed.ok()) return error(400, "bad-json", "malformed JSON: " + parsed.error().text());
  const Json* name = parsed->isObject() ? parsed->get("name") : nullptr;
  const Json* password = parsed->isObject() ? parsed->get("password") : nullptr;
  if (!name || !name->isString() || !password || !password->isString())
    return error(400, "bad-json", "the body is {\"name\": string, \"password\": string}");
  Accounts::SignedIn in;
  const Outcome o = what == "signup" ? accounts_->signUp(name->asString(), password->asString(), req.client, &in)
                                     : accounts_->signIn(name->asString(), password->asString(), req.client, &in);
  if (!o.ok()) return error(o.error());
  ApiResponse r;
  r.status = what == "signup" ? 201 : 200;
  r.body = accountJson(in.account);
  r.setCookie = accounts_->cookie(in.token);
  return r;
}

}  // namespace acedrex::server
