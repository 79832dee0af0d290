// POST /api/analyse: the bot's evaluation of one position, for the game
// page's analysis board (docs/api.md "Analysis"). Bounded in time and depth,
// counted with the bot searches, limited per client.
#include <algorithm>
#include <atomic>
#include <exception>

#include "core/game.h"
#include "server/app/api.h"
#include "server/app/json.h"
#include "server/app/lobby.h"

namespace acedrex::server {

Outcome Lobby::analyse(const AnalyseRequest& req, Analysis* out) {
  auto rules = rulesFor(req.variant, req.options);
  if (!rules.ok()) return apiError(400, "bad-variant", rules.error().text());
  if ((*rules)->fog) return apiError(403, "hidden", "fog of war: positions are not analysed");
  if (req.fen.empty() || req.fen.size() > 2000) return apiError(400, "bad-fen", "\"fen\" (a position text) is required");
  Game game(*rules, 1);
  if (auto set = game.setStart(req.fen); !set.ok()) return apiError(400, "bad-fen", "the position: " + set.error().text());
  if (game.finished()) return std::nullopt;  // nothing to search: no best move, nobody to move
  out->toMove = (*rules)->seats[static_cast<size_t>(game.position().toMove())].name;

  if (int64_t wait = 0; !analyseLimiter_.allow(req.client, &wait)) {
    ApiError e = apiError(429, "rate-limited",
                          "too many analyses from this address: at most " + std::to_string(kAnalysesPerMinute) + " a minute");
    e.retryAfterMs = std::max<int64_t>(wait, 1);
    return e;
  }
  if (!analysing_.acquire(req.client)) {
    ApiError e = apiError(429, "rate-limited", "one analysis at a time from this address");
    e.retryAfterMs = kAnalyseMs;
    return e;
  }
  // Counted with the bot searches: beyond config.botThreads running, refused.
  if (searching_.fetch_add(1) >= std::max(1, config_.botThreads)) {
    --searching_;
    analysing_.release(req.client);
    ApiError e = apiError(503, "full", "the bots are busy; try again in a moment");
    e.retryAfterMs = kAnalyseMs;
    return e;
  }
  Outcome result;
  try {
    std::unique_ptr<engine::Bot> bot = botFactory_ ? botFactory_(*rules, engine::kFullStrength, 1) : nullptr;
    if (bot) {
      engine::SearchLimits limits;
      limits.moveTimeMs = kAnalyseMs;
      limits.depth = kAnalyseDepth;
      std::atomic<bool> stop{false};
      const engine::SearchResult r = bot->choose(game, limits, stop);
      if (r.found) {
        out->bestmove = game.position().moveText(r.best);
        out->score = r.info.score;
        out->mate = r.info.isMate;
        out->mateIn = r.info.mateIn;
        out->depth = r.info.depth;
        // the principal variation as move texts, played on a copy to name each move
        Game line(game);
        for (Move m : r.info.pv) {
          const std::string text = line.position().moveText(m);
          if (!line.play(text).ok()) break;
          out->pv.push_back(text);
          if (out->pv.size() >= 8) break;
        }
      }
    }
  } catch (const std::exception& ex) {
    result = apiError(500, "analysis", std::string("the analysis failed: ") + ex.what());
  }
  --searching_;
  analysing_.release(req.client);
  return result;
}

ApiResponse Api::analyse(const ApiRequest& req) {
  if (req.body.size() > kMaxBodyBytes) return error(413, "too-large", "the body is over 64 KiB");
  auto parsed = parseJson(req.body);
  if (!parsed.ok()) return error(400, "bad-json", "malformed JSON: " + parsed.error().text());
  const Json& j = *parsed;
  if (!j.isObject()) return error(400, "bad-json", "the body must be a JSON object");
  Lobby::AnalyseRequest a;
  a.client = req.client;
  const Json* variant = j.get("variant");
  if (!variant || !variant->isString() || variant->asString().empty())
    return error(400, "bad-variant", "\"variant\" (a string) is required");
  a.variant = variant->asString();
  if (auto bad = optionsOf(j, &a.options)) return *bad;
  const Json* fen = j.get("fen");
  if (!fen || !fen->isString()) return error(400, "bad-fen", "\"fen\" (a position text) is required");
  a.fen = fen->asString();
  Lobby::Analysis out;
  if (auto err = lobby_.analyse(a, &out)) return error(*err);
  JsonWriter w;
  w.beginObject().key("variant").value(a.variant).key("fen").value(a.fen).key("toMove");
  if (out.toMove.empty()) w.null();
  else w.value(out.toMove);
  w.key("score");
  if (out.bestmove.empty() || out.mate) w.null();
  else w.value(static_cast<int64_t>(out.score));
  w.key("mate");
  if (out.mate) w.value(static_cast<int64_t>(out.mateIn));
  else w.null();
  w.key("bestmove");
  if (out.bestmove.empty()) w.null();
  else w.value(out.bestmove);
  w.key("depth").value(static_cast<int64_t>(out.depth));
  w.key("pv").beginArray();
  for (const auto& m : out.pv) w.value(m);
  w.endArray().endObject();
  ApiResponse r;
  r.body = w.take();
  return r;
}

}  // namespace acedrex::server
