#include "server/app/api.h"

#include <cmath>
#include <string_view>

#include "core/records/diagram.h"
#include "server/app/catalogue.h"
#include "server/app/http_util.h"
#include "server/app/json.h"
#include "server/app/records.h"

namespace acedrex::server {
namespace {

// A pawn's direction by its letter, as the FEN4 cells write it: n, e, s, w (kNorth..kWest).
constexpr std::string_view kDirLetters = "nesw";
std::string dirName(int d) { return std::string(1, kDirLetters[static_cast<size_t>(d & 3)]); }
// The direction of a letter, -1 for none.
int dirOfName(const std::string& name) {
  const size_t i = name.size() == 1 ? kDirLetters.find(name[0]) : std::string_view::npos;
  return i == std::string_view::npos ? -1 : static_cast<int>(i);
}

std::string tokenOf(const std::string& authorization, const Target& t) {
  std::string token = bearerToken(authorization);
  if (token.empty())
    if (auto it = t.query.find("token"); it != t.query.end()) token = it->second;
  return token;
}

void writeBoard(JsonWriter& w, const Rules& r) {
  w.beginObject().key("width").value(r.width).key("height").value(r.height).key("blocked").beginArray();
  for (int s = 0; s < r.nsq(); ++s)
    if (r.blocked[static_cast<size_t>(s)]) w.value(r.squareName(s));
  w.endArray().endObject();
}

// What a board needs to draw a game beyond its squares (docs/api.md, "Variants"):
// the palaces (the squares a royal piece's region allows, as [corner, corner]
// per seat), whether a type is kept to its own half (a river), hands, and
// whether captures explode, and the board's shape (`rect`, or `hex3`: the 12x12
// grid's cells drawn as three-player chess's hexagon).
void writeGeometry(JsonWriter& w, const Rules& r) {
  w.key("geometry").value(r.geometry == Rules::Geometry::kHex3 ? "hex3" : "rect");
  w.key("palaces").beginArray();
  if (r.hasRegion && r.nseats() == 2)
    for (size_t t = 0; t < r.types.size(); ++t) {
      if (!r.types[t].royal) continue;
      for (const auto& seat : r.seats) {
        int lo = -1, hi = -1, n = 0;
        for (int s = 0; s < r.nsq(); ++s)
          if (r.allowedOn(static_cast<int>(t), seat.dir, s)) {
            if (lo < 0) lo = s;
            hi = s;
            ++n;
          }
        if (lo < 0 || n == r.nsq()) continue;
        w.beginArray().value(r.squareName(lo)).value(r.squareName(hi)).endArray();
      }
      break;
    }
  w.endArray();
  bool river = false;
  if (r.hasRegion && r.nseats() == 2 && r.height % 2 == 0)
    for (size_t t = 0; t < r.types.size() && !river; ++t) {
      int n = 0;
      bool lowerHalf = true;
      for (int s = 0; s < r.nsq(); ++s)
        if (r.allowedOn(static_cast<int>(t), r.seats[0].dir, s)) {
          ++n;
          lowerHalf = lowerHalf && r.rankOf(s) < r.height / 2;
        }
      river = lowerHalf && n == r.nsq() / 2;
    }
  w.key("river").value(river);
  w.key("drops").value(r.drops);
  w.key("blast").value(r.blastOnCapture);
  w.key("duck").value(r.duck);
  // How the records name squares: shogi's numbers (files from the right,
  // ranks from the top: "76") or the square names (san); the board's
  // coordinates follow it.
  w.key("notation").value(r.shogiRecords ? "shogi" : "san");
  // Fog of war: squares hidden until the end; its positions are never
  // analysed (POST /api/analyse and /api/position answer 403, analyse.cpp).
  w.key("fog").value(r.fog);
}

}  // namespace

Api::Api(Lobby& lobby, std::function<std::string(int)> describeLevel, Accounts* accounts)
    : lobby_(lobby), describeLevel_(std::move(describeLevel)), accounts_(accounts) {
  if (accounts_) chat_ = std::make_unique<Chat>(accounts_->store(), accounts_->time());
  // The catalogue's order: by group and place in the lobby's table, the
  // games it does not know after the others in the registry's order.
  std::vector<const VariantDef*> defs = lobby_.registry().all();
  std::stable_sort(defs.begin(), defs.end(), [](const VariantDef* a, const VariantDef* b) {
    return catalogueEntry(a->name).order < catalogueEntry(b->name).order;
  });
  JsonWriter w;
  w.beginArray();
  for (const VariantDef* def : defs) {
    auto rules = lobby_.rulesFor(def->name, {});
    if (!rules.ok()) continue;
    const Rules& r = **rules;
    const CatalogueEntry known = catalogueEntry(def->name);
    w.beginObject().key("name").value(def->name).key("title").value(def->title);
    w.key("group").value(known.group).key("description").value(known.description);
    w.key("players").value(r.nseats());
    w.key("seats").beginArray();
    for (const auto& s : r.seats) w.beginObject().key("seat").value(s.name).key("dir").value(dirName(s.dir)).endObject();
    w.endArray();
    w.key("board");
    writeBoard(w, r);
    w.key("options").beginArray();
    for (const auto& o : def->options) {
      w.beginObject().key("name").value(o.name).key("values").beginArray();
      for (const auto& v : o.values) w.value(v);
      w.endArray().key("default").value(o.values.empty() ? std::string() : o.values.front());
      w.key("help").value(o.help).endObject();
    }
    w.endArray();
    writeGeometry(w, r);
    w.key("pieces").beginArray();
    for (const auto& t : r.types) {
      w.beginObject().key("letter").value(std::string(1, t.letter)).key("name").value(t.name).key("betza").value(t.betza)
          .key("royal").value(t.royal).key("pawn").value(t.pawn);
      w.key("base");
      if (t.base >= 0) w.value(r.types[static_cast<size_t>(t.base)].name);
      else w.null();
      w.endObject();
    }
    w.endArray();
    w.key("start").value(r.start);
    w.key("startPieces");
    if (Position start(*rules); start.set(r.start).ok()) writePieces(w, start);
    else w.beginArray().endArray();
    w.key("levels").beginArray();
    for (int l = 1; l <= engine::kFullStrength; ++l)
      w.beginObject().key("level").value(l).key("description").value(describeLevel_ ? describeLevel_(l) : "").endObject();
    w.endArray();
    w.endObject();
  }
  w.endArray();
  variantsJson_ = w.take();
  registerCatalogueRoutes();
  registerGameRoutes();
}

bool Api::isApi(const std::string& target) { return target.rfind("/api/", 0) == 0 || target == "/api"; }

ApiResponse Api::error(int status, const std::string& code, const std::string& message) {
  return errorResponse(status, code, message);
}

ApiResponse Api::error(const ApiError& e) { return errorResponse(e); }

ApiResponse Api::variants() {
  ApiResponse r;
  r.body = variantsJson_;
  return r;
}

Outcome Api::optionsOf(const Json& body, std::map<std::string, std::string>* out) {
  if (const Json* o = body.get("options"); o && !o->isNull()) {
    if (!o->isObject()) return apiError(400, "bad-options", "\"options\" must be an object of strings");
    for (const auto& [k, v] : o->members()) {
      if (v.isString()) (*out)[k] = v.asString();
      else if (v.isBool()) (*out)[k] = v.asBool() ? "yes" : "no";
      else return apiError(400, "bad-options", "option \"" + k + "\" must be a string");
    }
  }
  return done();
}

ApiResponse Api::createGame(const ApiRequest& req) {
  if (req.body.size() > kMaxBodyBytes) return error(413, "too-large", "the body is over 64 KiB");
  auto parsed = parseJson(req.body);
  if (!parsed.ok()) return error(400, "bad-json", "malformed JSON: " + parsed.error().text());
  const Json& j = *parsed;
  if (!j.isObject()) return error(400, "bad-json", "the body must be a JSON object");
  CreateRequest c;
  const Json* variant = j.get("variant");
  if (!variant || !variant->isString() || variant->asString().empty())
    return error(400, "bad-variant", "\"variant\" (a string) is required");
  c.variant = variant->asString();
  if (auto given = optionsOf(j, &c.options); !given.ok()) return error(given.error());
  if (const Json* s = j.get("seats"); s && !s->isNull()) {
    if (!s->isArray() || s->items().size() > 16) return error(400, "bad-seats", "\"seats\" must be an array of seats");
    for (const auto& seat : s->items()) {
      if (!seat.isObject()) return error(400, "bad-seats", "each seat is an object {kind, level}");
      SeatPlan p;
      const Json* kind = seat.get("kind");
      if (!kind || !kind->isString() || (kind->asString() != "human" && kind->asString() != "bot"))
        return error(400, "bad-seats", "a seat's kind is \"human\" or \"bot\"");
      p.bot = kind->asString() == "bot";
      if (const Json* open = seat.get("open"); open && !open->isNull()) {
        if (!open->isBool()) return error(400, "bad-seats", "a seat's \"open\" is true or false");
        p.open = open->asBool();
      }
      if (const Json* level = seat.get("level"); level && !level->isNull()) {
        if (!level->isInteger(1, engine::kFullStrength))
          return error(400, "bad-level", "a bot's level is 1 to " + std::to_string(engine::kFullStrength));
        p.level = static_cast<int>(level->asNumber());
      }
      c.seats.push_back(p);
    }
  }
  if (const Json* clock = j.get("clock"); clock && !clock->isNull()) {
    if (!clock->isObject()) return error(400, "bad-clock", "\"clock\" must be {initialMs, incrementMs}");
    const Json* init = clock->get("initialMs");
    const Json* inc = clock->get("incrementMs");
    if (!init || !init->isInteger(1000, 86400000))
      return error(400, "bad-clock", "clock.initialMs must be an integer from 1000 to 86400000");
    if (inc && !inc->isNull() && !inc->isInteger(0, 3600000))
      return error(400, "bad-clock", "clock.incrementMs must be an integer from 0 to 3600000");
    c.clock.enabled = true;
    c.clock.initialMs = static_cast<int64_t>(init->asNumber());
    c.clock.incrementMs = inc && !inc->isNull() ? static_cast<int64_t>(inc->asNumber()) : 0;
  }
  if (const Json* seed = j.get("seed"); seed && !seed->isNull()) {
    if (seed->isInteger(0, 9007199254740992.0)) {
      c.seed = static_cast<uint64_t>(seed->asNumber());
    } else if (seed->isString() && !seed->asString().empty() && seed->asString().size() <= 20 &&
               seed->asString().find_first_not_of("0123456789") == std::string::npos) {
      errno = 0;
      const unsigned long long v = std::strtoull(seed->asString().c_str(), nullptr, 10);
      if (errno == ERANGE) return error(400, "bad-seed", "\"seed\" is too large");
      c.seed = v;
    } else {
      return error(400, "bad-seed", "\"seed\" must be an unsigned integer");
    }
  }
  if (const Json* fen = j.get("fen"); fen && !fen->isNull()) {
    if (!fen->isString() || fen->asString().size() > 512)
      return error(400, "bad-fen", "\"fen\" must be a position text of at most 512 characters");
    c.startFen = fen->asString();
  }
  if (const Json* hot = j.get("hotSeat"); hot && !hot->isNull()) {
    if (!hot->isBool()) return error(400, "bad-hot-seat", "\"hotSeat\" must be true or false");
    c.hotSeat = hot->asBool();
  }
  if (auto bad = seatCreator(req, j, &c)) return *bad;
  c.client = req.client;
  CreatedGame created;
  if (auto made = lobby_.create(c, &created); !made.ok()) return error(made.error());
  auto room = lobby_.find(created.id);
  auto rules = lobby_.rulesFor(c.variant, c.options);
  ApiResponse r;
  r.status = 201;
  JsonWriter w;
  w.beginObject().key("id").value(created.id).key("seats").beginArray();
  for (size_t s = 0; s < created.tokens.size(); ++s) {
    w.beginObject().key("seat").value(rules.ok() ? (*rules)->seats[s].name : std::to_string(s));
    if (!created.tokens[s].empty()) {
      w.key("token").value(created.tokens[s]);
      w.key("inviteUrl").value("/game/" + created.id + "?token=" + created.tokens[s]);
    } else if (c.seats.size() > s && c.seats[s].open) {
      w.key("open").value(true);
    }
    w.endObject();
  }
  w.endArray().key("url").value("/game/" + created.id).endObject();
  r.body = w.take();
  return r;
}

ApiResponse Api::pieceReachReply(const std::string& variant, const std::string& letter,
                                 const std::map<std::string, std::string>& query) {
  if (!lobby_.registry().find(variant)) return error(404, "unknown-variant", "unknown variant \"" + variant + "\"");
  std::map<std::string, std::string> options;
  for (const auto& [k, v] : query)
    if (k != "from" && k != "dir" && k != "token") options[k] = v;
  auto rules = lobby_.rulesFor(variant, options);
  if (!rules.ok()) return error(400, "bad-options", rules.error().text());
  const Rules& r = **rules;
  if (letter.size() != 1) return error(400, "bad-piece", "a piece is named by one letter");
  const int type = r.typeByLetter(static_cast<char>(std::toupper(static_cast<unsigned char>(letter[0]))));
  if (type < 0) return error(404, "unknown-piece", variant + " has no piece with the letter " + letter);
  int dir = 0;
  if (auto it = query.find("dir"); it != query.end()) {
    dir = dirOfName(it->second);
    if (dir < 0) return error(400, "bad-dir", "dir is n, e, s or w");
  }
  Square from = -1;
  if (auto it = query.find("from"); it != query.end()) {
    auto sq = r.parseSquare(it->second);
    if (!sq.ok()) return error(400, "bad-square", sq.error().text());
    from = *sq;
    if (r.blocked[static_cast<size_t>(from)]) return error(400, "bad-square", it->second + " is a blocked square");
  } else {
    // The open square nearest the centre.
    double best = 1e9;
    for (int s = 0; s < r.nsq(); ++s) {
      if (r.blocked[static_cast<size_t>(s)]) continue;
      const double df = r.fileOf(s) - (r.width - 1) / 2.0, dr = r.rankOf(s) - (r.height - 1) / 2.0;
      const double d = df * df + dr * dr - 0.01 * r.rankOf(s) - 0.001 * r.fileOf(s);
      if (d < best) {
        best = d;
        from = s;
      }
    }
  }
  const PieceReach reach = diagramReach(r, type, dir, from);
  JsonWriter w;
  w.beginObject().key("variant").value(variant).key("letter").value(std::string(1, r.types[static_cast<size_t>(type)].letter));
  w.key("name").value(r.types[static_cast<size_t>(type)].name).key("from").value(r.squareName(from)).key("dir").value(dirName(dir));
  w.key("board");
  writeBoard(w, r);
  auto list = [&](const char* key, const std::vector<Square>& squares) {
    w.key(key).beginArray();
    for (Square s : squares) w.value(r.squareName(s));
    w.endArray();
  };
  list("moves", reach.moves);
  list("captures", reach.captures);
  list("hops", reach.hops);
  w.endObject();
  ApiResponse resp;
  resp.body = w.take();
  return resp;
}

ApiResponse Api::gameAction(const std::shared_ptr<GameRoom>& room, const std::string& token, const Outcome& outcome) {
  if (!outcome.ok()) return error(outcome.error());
  ApiResponse r;
  r.body = room->stateJson(token);
  return r;
}

ApiResponse Api::listGames(const RouteContext& c) {
  int limit = 50;
  std::string filter = "all";
  if (auto it = c.target.query.find("limit"); it != c.target.query.end()) {
    const std::string& l = it->second;
    if (l.empty() || l.size() > 4 || l.find_first_not_of("0123456789") != std::string::npos)
      return error(400, "bad-limit", "limit is a number from 1 to 500");
    limit = std::clamp(std::stoi(l), 1, 500);
  }
  if (auto it = c.target.query.find("status"); it != c.target.query.end()) {
    filter = it->second;
    if (filter != "all" && filter != "ongoing" && filter != "finished" && filter != "open")
      return error(400, "bad-status", "status is open, ongoing, finished or all");
  }
  std::string body = "[";
  bool first = true;
  for (const auto& s : lobby_.recent(limit, filter)) {
    body += (first ? "" : ",") + s;
    first = false;
  }
  body += "]";
  return jsonResponse(std::move(body));
}

ApiResponse Api::joinGame(const RouteContext& c) {
  const GameRoom& room = *c.room;
  SeatPlan who;
  if (auto bad = playerOf(c.request, c.query("name"), room.variant(), &who)) return *bad;
  std::string seat, seatToken;
  if (auto taken = lobby_.takeSeat(room.id(), c.query("seat"), &seat, &seatToken, &who); !taken.ok())
    return error(taken.error());
  JsonWriter w;
  w.beginObject().key("id").value(room.id()).key("seat").value(seat);
  w.key("token").value(seatToken).key("url").value("/game/" + room.id()).endObject();
  return jsonResponse(w.take());
}

void Api::registerCatalogueRoutes() {
  RouteTable& t = routes_;
  t.add("GET", "/api/variants", [this](RouteContext&) { return variants(); });
  t.add("GET", "/api/variant/{variant}/piece/{letter}", [this](RouteContext& c) {
    return pieceReachReply(c.param("variant"), c.param("letter"), c.target.query);
  });
  t.add("GET", "/api/games", [this](RouteContext& c) { return listGames(c); });
  t.add("POST", "/api/analyse", [this](RouteContext& c) { return analyse(c.request); });
  t.add("POST", "/api/position", [this](RouteContext& c) { return position(c.request); });
  // Accounts and players (account_api.cpp): the account routes check their own methods.
  t.add("*", "/api/account/**", [this](RouteContext& c) { return accountRoute(c.request, c.target.segments); });
  t.add("GET", "/api/player/{name}", [this](RouteContext& c) { return player(c.param("name")); });
}

void Api::registerGameRoutes() {
  RouteTable& t = routes_;
  t.add("POST", "/api/game", [this](RouteContext& c) { return createGame(c.request); }, "use POST to create a game");
  // Every path below a game names one: unknown is 404 "unknown-game" whatever follows.
  t.filter("/api/game/{id}/**", [this](RouteContext& c) -> Outcome {
    c.room = lobby_.find(c.param("id"));
    if (!c.room) return apiError(404, "unknown-game", "no game \"" + c.param("id") + "\"");
    return done();
  });
  auto closedRecord = [](RouteContext& c) -> Outcome {
    if (c.room->recordHidden()) return apiError(403, "hidden", "fog of war: the record is closed until the game ends");
    return done();
  };
  t.filter("/api/game/{id}/pgn", closedRecord);
  t.filter("/api/game/{id}/replay", closedRecord);
  t.add("GET", "/api/game/{id}", [](RouteContext& c) { return jsonResponse(c.room->stateJson(c.token)); });
  t.add("GET", "/api/game/{id}/pgn", [](RouteContext& c) {
    ApiResponse r;
    r.contentType = "application/x-chess-pgn; charset=utf-8";
    r.body = c.room->pgn();
    return r;
  });
  t.add("GET", "/api/game/{id}/replay", [](RouteContext& c) { return jsonResponse(c.room->replayJson()); });
  t.add("*", "/api/game/{id}/stream",
        [](RouteContext&) { return error(400, "stream", "the stream is served by the network layer"); });
  t.add("POST", "/api/game/{id}/move/{uci}",
        [this](RouteContext& c) { return gameAction(c.room, c.token, c.room->move(c.token, c.param("uci"))); });
  t.add("POST", "/api/game/{id}/resign",
        [this](RouteContext& c) { return gameAction(c.room, c.token, c.room->resign(c.token, c.query("seat"))); });
  t.add("POST", "/api/game/{id}/draw/{action}",
        [this](RouteContext& c) { return gameAction(c.room, c.token, c.room->draw(c.token, c.param("action"))); });
  t.add("POST", "/api/game/{id}/join", [this](RouteContext& c) { return joinGame(c); });
  auto takeback = [this](RouteContext& c) {
    return gameAction(c.room, c.token, c.room->takeback(c.token, c.params.count("action") ? c.param("action") : ""));
  };
  t.add("POST", "/api/game/{id}/takeback", takeback);
  t.add("POST", "/api/game/{id}/takeback/{action}", takeback);
  // A seat's player by name: a guest's chosen name, or the signed-in account's.
  t.add("POST", "/api/game/{id}/name", [this](RouteContext& c) {
    std::string guest;
    if (!c.request.body.empty()) {
      auto body = parseJson(c.request.body, 4);
      const Json* n = body.ok() && body->isObject() ? body->get("name") : nullptr;
      if (!body.ok() || !body->isObject() || (n && !n->isString()))
        return error(400, "bad-json", "the body is {\"name\": string} (or empty for the signed-in account)");
      if (n) guest = n->asString();
    }
    SeatPlan who;
    if (auto bad = playerOf(c.request, guest, c.room->variant(), &who)) return *bad;
    return gameAction(c.room, c.token, c.room->nameSeats(c.token, who));
  });
  // The chat rooms (chat_api.cpp) check their own methods.
  t.add("*", "/api/game/{id}/chat/{room}", [this](RouteContext& c) {
    return chatRoute(c.request, *c.room, c.param("room"), c.token, c.target.query);
  });
}

ApiResponse Api::handle(const ApiRequest& req) {
  const Target t = parseTarget(req.target);
  if (!t.ok) return error(400, "bad-target", "malformed %-escape in the URL");
  const auto& seg = t.segments;
  if (seg.size() < 2 || seg[0] != "api") return error(404, "not-found", "no such API path");
  if (req.body.size() > kMaxBodyBytes) return error(413, "too-large", "the body is over 64 KiB");
  RouteContext context{req, t, tokenOf(req.authorization, t), {}, nullptr};
  return routes_.dispatch(context);
}

bool Api::matches(const std::string& target, Kind kind) const {
  const Target t = parseTarget(target);
  const auto& s = t.segments;
  if (kind == Kind::kStream) return s.size() == 4 && s[0] == "api" && s[1] == "game" && s[3] == "stream";
  return s.size() == 3 && s[0] == "ws" && s[1] == "game";
}

Subscription Api::resolve(const std::string& target, const std::string& authorization, ApiResponse* err) {
  Subscription sub;
  const Target t = parseTarget(target);
  if (!t.ok) {
    if (err) *err = error(400, "bad-target", "malformed %-escape in the URL");
    return sub;
  }
  if (auto it = t.query.find("deltas"); it != t.query.end()) {
    if (it->second != "0" && it->second != "1") {
      if (err) *err = error(400, "bad-deltas", "deltas is 0 (full states only) or 1 (the default)");
      return sub;
    }
    sub.deltas = it->second == "1";
  }
  const auto& s = t.segments;
  const std::string id = s.size() >= 3 ? s[2] : "";
  sub.room = lobby_.find(id);
  if (!sub.room) {
    if (err) *err = error(404, "unknown-game", "no game \"" + id + "\"");
    return sub;
  }
  sub.token = tokenOf(authorization, t);
  if (!sub.token.empty() && sub.room->seatsOf(sub.token).empty()) {
    sub.room.reset();
    if (err) *err = error(403, "wrong-token", "this token holds no seat in this game");
  }
  return sub;
}

std::string Api::onSocketMessage(GameRoom& room, const std::string& token, const std::string& message) {
  auto fail = [](int status, const std::string& code, const std::string& text) {
    (void)status;
    JsonWriter w;
    w.beginObject().key("t").value("error").key("d").beginObject().key("error").value(text).key("code").value(code);
    w.endObject().endObject();
    return w.take();
  };
  if (message.size() > kMaxBodyBytes) return fail(413, "too-large", "message over 64 KiB");
  auto parsed = parseJson(message, 8);
  if (!parsed.ok()) return fail(400, "bad-json", "malformed JSON: " + parsed.error().text());
  const Json& j = *parsed;
  const Json* t = j.isObject() ? j.get("t") : nullptr;
  if (!t || !t->isString()) return fail(400, "bad-message", "a message is {\"t\": type, \"d\": data}");
  const std::string& type = t->asString();
  const Json* d = j.get("d");
  auto field = [&](const char* name) -> std::string {
    if (!d || !d->isObject()) return {};
    const Json* f = d->get(name);
    return f && f->isString() ? f->asString() : std::string();
  };
  Outcome outcome = done();
  if (type == "ping") return "{\"t\":\"pong\"}";
  if (type == "sync") {
    int64_t v = 0;
    const std::string state = room.stateJson(token, &v);
    return "{\"t\":\"state\",\"d\":" + state + ",\"v\":" + std::to_string(v) + "}";
  }
  if (type == "move") {
    std::string uci = field("uci");
    if (uci.empty() && d && d->isString()) uci = d->asString();
    if (uci.empty()) return fail(400, "bad-message", "a move message is {\"t\":\"move\",\"d\":{\"uci\":\"a6a5\"}}");
    outcome = room.move(token, uci);
  } else if (type == "resign") {
    outcome = room.resign(token, field("seat"));
  } else if (type == "draw") {
    std::string action = field("action");
    if (action.empty() && d && d->isString()) action = d->asString();
    outcome = room.draw(token, action);
  } else if (type == "takeback") {
    outcome = room.takeback(token, field("action"));
  } else {
    return fail(400, "unknown-type", "unknown message type \"" + type + "\"");
  }
  if (!outcome.ok()) return fail(outcome.error().status, outcome.error().code, outcome.error().message);
  return {};
}

}  // namespace acedrex::server
