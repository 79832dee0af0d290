// POST /api/analyse: the bot's evaluation of one position, for the game
// page's analysis board (docs/api.md "Analysis"). Bounded in time and depth,
// counted with the bot searches, limited per client.
#include <algorithm>
#include <atomic>
#include <exception>

#include "core/game/game.h"
#include "server/app/api.h"
#include "server/app/json.h"
#include "server/app/lobby.h"
#include "server/app/records.h"

namespace acedrex::server {

namespace {

// The rules and the position of an analysis request; the refusals both
// endpoints share (400 bad-variant / bad-fen, 403 hidden for fog of war).
Outcome analysedGame(Result<std::shared_ptr<const Rules>> rules, const std::string& fen, bool die,
                     std::unique_ptr<Game>* out) {
  if (!rules.ok()) return apiError(400, "bad-variant", rules.error().text());
  if ((*rules)->fog) return apiError(403, "hidden", "fog of war: positions are not analysed");
  if (fen.empty() || fen.size() > 2000) return apiError(400, "bad-fen", "\"fen\" (a position text) is required");
  auto game = std::make_unique<Game>(*rules, 1);
  if (!die) game->throwNoDie();
  if (auto set = game->setStart(fen); !set.ok()) return apiError(400, "bad-fen", "the position: " + set.error().text());
  *out = std::move(game);
  return done();
}

}  // namespace

Outcome Lobby::analyse(const AnalyseRequest& req, Analysis* out) {
  std::unique_ptr<Game> owned;
  if (auto made = analysedGame(rulesFor(req.variant, req.options), req.fen, true, &owned); !made.ok()) return made;
  Game& game = *owned;
  const auto rules = game.position().rulesPtr();
  if (game.finished()) return done();  // nothing to search: no best move, nobody to move
  out->toMove = rules->seats[static_cast<size_t>(game.position().toMove())].name;

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
  if (pool_.searching().fetch_add(1) >= std::max(1, config_.botThreads)) {
    --pool_.searching();
    analysing_.release(req.client);
    ApiError e = apiError(503, "full", "the bots are busy; try again in a moment");
    e.retryAfterMs = kAnalyseMs;
    return e;
  }
  Outcome result = done();
  // The bound counts from here: making a bot at full strength (its 32 MB
  // table) takes 100 ms and more on a busy machine, and the search gets the rest.
  const int64_t started = time_.steadyMs();
  try {
    std::unique_ptr<engine::Bot> bot = botFactory_ ? botFactory_(rules, engine::kFullStrength, 1) : nullptr;
    if (bot) {
      engine::SearchLimits limits;
      limits.moveTimeMs = analyseSearchMs(time_.steadyMs() - started);
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
  --pool_.searching();
  analysing_.release(req.client);
  return result;
}

Outcome Api::analysisBody(const ApiRequest& req, Json* j, std::string* variant,
                          std::map<std::string, std::string>* options, std::string* fen) {
  if (req.body.size() > kMaxBodyBytes) return apiError(413, "too-large", "the body is over 64 KiB");
  auto parsed = parseJson(req.body);
  if (!parsed.ok()) return apiError(400, "bad-json", "malformed JSON: " + parsed.error().text());
  *j = *parsed;
  if (!j->isObject()) return apiError(400, "bad-json", "the body must be a JSON object");
  const Json* v = j->get("variant");
  if (!v || !v->isString() || v->asString().empty()) return apiError(400, "bad-variant", "\"variant\" (a string) is required");
  *variant = v->asString();
  if (auto given = optionsOf(*j, options); !given.ok()) return given;
  const Json* f = j->get("fen");
  if (!f || !f->isString()) return apiError(400, "bad-fen", "\"fen\" (a position text) is required");
  *fen = f->asString();
  return done();
}

ApiResponse Api::analyse(const ApiRequest& req) {
  Json j;
  Lobby::AnalyseRequest a;
  a.client = req.client;
  if (auto read = analysisBody(req, &j, &a.variant, &a.options, &a.fen); !read.ok()) return error(read.error());
  Lobby::Analysis out;
  if (auto analysed = lobby_.analyse(a, &out); !analysed.ok()) return error(analysed.error());
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

Outcome Lobby::position(const PositionRequest& req, std::string* json) {
  std::unique_ptr<Game> game;
  if (auto made = analysedGame(rulesFor(req.variant, req.options), req.fen, false, &game); !made.ok()) return made;
  if (int64_t wait = 0; !positionLimiter_.allow(req.client, &wait)) {
    ApiError e = apiError(429, "rate-limited", "too many positions from this address: at most " +
                                                   std::to_string(kPositionsPerMinute) + " a minute");
    e.retryAfterMs = std::max<int64_t>(wait, 1);
    return e;
  }
  if (!req.move.empty()) {
    if (req.move.size() > 64) return apiError(400, "illegal-move", "malformed move text");
    if (game->finished()) return apiError(400, "illegal-move", "the position is decided: no move is played");
    // Only the listed moves: the same texts as "legal" (Game::play also reads other spellings).
    bool listed = false;
    for (Move m : game->legalMoves())
      if (game->position().moveText(m) == req.move) listed = true;
    if (!listed) return apiError(400, "illegal-move", "not a legal move here");
    if (auto s = game->play(req.move); !s.ok()) return apiError(400, "illegal-move", s.error().text());
  }
  JsonWriter w;
  w.beginObject().key("variant").value(req.variant).key("move");
  if (req.move.empty()) w.null();
  else w.value(req.move);
  writeFrameFields(w, *game, req.move);
  w.key("legal");
  writeLegal(w, *game);
  w.endObject();
  *json = w.take();
  return done();
}

ApiResponse Api::position(const ApiRequest& req) {
  Json j;
  Lobby::PositionRequest p;
  p.client = req.client;
  if (auto read = analysisBody(req, &j, &p.variant, &p.options, &p.fen); !read.ok()) return error(read.error());
  if (const Json* move = j.get("move"); move && !move->isNull()) {
    if (!move->isString() || move->asString().empty()) return error(400, "illegal-move", "\"move\" is a move text");
    p.move = move->asString();
  }
  std::string body;
  if (auto answered = lobby_.position(p, &body); !answered.ok()) return error(answered.error());
  ApiResponse r;
  r.body = std::move(body);
  return r;
}

}  // namespace acedrex::server
