// Api: the HTTP JSON API as a pure function from a request to a reply, and
// the handling of WebSocket messages. The net layer parses HTTP and frames;
// everything it means is decided here, so it is tested without sockets.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>

#include "server/app/accounts.h"
#include "server/app/chat.h"
#include "server/app/json.h"
#include "server/app/lobby.h"
#include "server/app/route_table.h"

namespace acedrex::server {

constexpr size_t kMaxBodyBytes = 64 * 1024;

// A stream or WebSocket target resolved to its game and token.
struct Subscription {
  std::shared_ptr<GameRoom> room;
  std::string token;
  bool deltas = true;  // ?deltas=0: full states only (docs/api.md, "Deltas")
};

class Api {
 public:
  // describeLevel: what a bot level means (engine::describeLevel in the server).
  // accounts: nullptr for a server without accounts (/api/account answers 503).
  Api(Lobby& lobby, std::function<std::string(int)> describeLevel, Accounts* accounts = nullptr);

  // Whether a target belongs to the API (starts with /api/).
  static bool isApi(const std::string& target);
  // Answers one request through the route table (404, 405 and 413 included).
  ApiResponse handle(const ApiRequest& request);
  // The route table: other modules add their routes to it (registerXRoutes(api.routes(), ...))
  // before the server starts.
  RouteTable& routes() { return routes_; }

  // "/api/game/{id}/stream" or "/ws/game/{id}": the game, the token (from
  // the Authorization header or ?token=) and ?deltas=; an error reply when
  // unknown or malformed.
  enum class Kind { kStream, kWebSocket };
  bool matches(const std::string& target, Kind kind) const;
  Subscription resolve(const std::string& target, const std::string& authorization, ApiResponse* error);

  // One WebSocket message from a client holding `token` (maybe empty). Returns
  // the message to send back to this client only ("" for none); changes reach
  // every client through the room's listeners.
  std::string onSocketMessage(GameRoom& room, const std::string& token, const std::string& message);

  static ApiResponse error(int status, const std::string& code, const std::string& message);
  // The same for an ApiError; "retryAfterMs" is in the body when it is set.
  static ApiResponse error(const ApiError& e);

 private:
  ApiResponse createGame(const ApiRequest& r);
  ApiResponse variants();
  ApiResponse pieceReachReply(const std::string& variant, const std::string& letter,
                              const std::map<std::string, std::string>& query);
  ApiResponse analyse(const ApiRequest& r);  // POST /api/analyse (analyse.cpp)
  ApiResponse position(const ApiRequest& r);  // POST /api/position (analyse.cpp)
  // A request body's "options" (strings; true/false as yes/no) into *out; refused when malformed.
  static Outcome optionsOf(const Json& body, std::map<std::string, std::string>* out);
  // An analysis body (analyse, position): the JSON, its variant, options and fen; refused when malformed.
  static Outcome analysisBody(const ApiRequest& req, Json* j, std::string* variant,
                              std::map<std::string, std::string>* options, std::string* fen);
  // /api/account/... (account_api.cpp).
  ApiResponse accountRoute(const ApiRequest& r, const std::vector<std::string>& segments);
  // The signed-in account of a request: its session cookie, honoured only
  // when the request does not come from another site.
  std::optional<StoredAccount> accountOf(const ApiRequest& r);
  // The player of a request in `variant` (account_api.cpp): the signed-in account with its rating, else a guest
  // named `guestName` (checked), else nobody named (*out untouched). A refusal as the reply.
  std::optional<ApiResponse> playerOf(const ApiRequest& r, const std::string& guestName, const std::string& variant,
                                      SeatPlan* out);
  // POST /api/game's "name" and "rated" into the creator's seat and the rated seats (account_api.cpp).
  std::optional<ApiResponse> seatCreator(const ApiRequest& r, const Json& body, CreateRequest* c);
  // /api/game/{id}/chat/{players|watchers} (chat_api.cpp).
  ApiResponse chatRoute(const ApiRequest& r, GameRoom& room, const std::string& which, const std::string& token,
                        const std::map<std::string, std::string>& query);
  // GET /api/player/{name} (account_api.cpp).
  ApiResponse player(const std::string& name);
  ApiResponse gameAction(const std::shared_ptr<GameRoom>& room, const std::string& token, const Outcome& outcome);
  ApiResponse listGames(const RouteContext& c);
  ApiResponse joinGame(const RouteContext& c);
  // The API's own routes: the catalogue and analysis, and the games (api.cpp).
  void registerCatalogueRoutes();
  void registerGameRoutes();

  Lobby& lobby_;
  std::function<std::string(int)> describeLevel_;
  Accounts* accounts_;
  std::unique_ptr<Chat> chat_;  // with accounts only (it lives in their store)
  std::string variantsJson_;
  RouteTable routes_;
};

}  // namespace acedrex::server
