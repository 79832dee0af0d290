// The chat endpoints (docs/api.md, "Chat"):
//   GET  /api/game/{id}/chat/{room}?after=N   the room's lines numbered over N
//   POST /api/game/{id}/chat/{room}  {text}   a new line
// The players' room takes a seat token (to read and to write); the watchers'
// room is read by anyone and written by a signed-in account holding no seat.
#include "server/app/api.h"
#include "server/app/json.h"

namespace acedrex::server {
namespace {

void writeLine(JsonWriter& w, const ChatLine& l) {
  w.beginObject().key("n").value(l.n).key("author").value(l.author);
  w.key("seat");
  if (l.seat.empty()) w.null();
  else w.value(l.seat);
  w.key("text").value(l.text).key("atMs").value(l.atMs).endObject();
}

}  // namespace

ApiResponse Api::chatRoute(const ApiRequest& req, GameRoom& room, const std::string& which, const std::string& token,
                           const std::map<std::string, std::string>& query) {
  if (!chat_) return error(503, "no-accounts", "this server keeps no chat");
  if (which != "players" && which != "watchers") return error(404, "not-found", "the rooms are players and watchers");
  const bool get = req.method == "GET" || req.method == "HEAD";
  if (!get && req.method != "POST") return error(405, "method", "use GET or POST");
  std::string seat, author;
  const bool player = room.chatAuthor(token, &seat, &author);
  if (!token.empty() && !player) return error(403, "wrong-token", "this token holds no seat in this game");
  if (which == "players" && !player)
    return error(token.empty() ? 401 : 403, token.empty() ? "no-token" : "wrong-token",
                 "the players' room is for the holders of the game's seats");
  if (get) {
    int64_t after = 0;
    if (auto it = query.find("after"); it != query.end()) {
      const std::string& a = it->second;
      if (a.empty() || a.size() > 12 || a.find_first_not_of("0123456789") != std::string::npos)
        return error(400, "bad-after", "after is a line number");
      after = std::stoll(a);
    }
    auto lines = chat_->lines(room.id(), which, after);
    if (!lines.ok()) return error(503, "store", "the chat cannot be read now");
    JsonWriter w;
    w.beginObject().key("room").value(which).key("lines").beginArray();
    for (const auto& l : *lines) writeLine(w, l);
    w.endArray().endObject();
    ApiResponse r;
    r.body = w.take();
    return r;
  }
  auto parsed = parseJson(req.body, 4);
  const Json* text = parsed.ok() && parsed->isObject() ? parsed->get("text") : nullptr;
  if (!text || !text->isString()) return error(400, "bad-json", "the body is {\"text\": string}");
  std::string rateKey;
  if (which == "watchers") {
    if (player) return error(403, "players-room", "players talk in the players' room");
    auto me = accountOf(req);
    if (!me) return error(401, "account-needed", "sign in to talk in the watchers' room");
    author = me->name;
    seat.clear();
    rateKey = "account:" + me->key;
  } else {
    rateKey = "seat:" + seat;
  }
  ChatLine line;
  if (auto posted = chat_->post(room.id(), which, author, seat, text->asString(), rateKey, &line); !posted.ok())
    return error(posted.error());
  JsonWriter w;
  writeLine(w, line);
  ApiResponse r;
  r.status = 201;
  r.body = w.take();
  return r;
}

}  // namespace acedrex::server
