#include "protocol/match.h"

#include <signal.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <iomanip>
#include <iostream>
#include <limits>
#include <mutex>
#include <sstream>
#include <thread>

#include "core/records/pgn.h"
#include "protocol/child_process.h"
#include "engine/bot.h"
#include "engine/multi.h"

namespace acedrex::protocol {
namespace {

// An external UCI engine in a child process: ChildProcess, told "quit" when it ends.
class UciProcess : public ChildProcess {
 public:
  ~UciProcess() { stop("quit"); }
  void send(const std::string& line) {
    // When the engine died, readUntil times out or sees the end of its output, and the game is forfeited.
    (void)writeLine(line);
  }
};

// What an engine thinks of the position it moved from, for adjudication.
struct Opinion {
  bool known = false;
  int cp = 0;  // from the mover's view; a mate counts as +/-100000
};

class Player {
 public:
  virtual ~Player() = default;
  // Returns the chosen move text, or empty on failure (forfeit).
  virtual std::string choose(const Game& game, const engine::SearchLimits& limits) = 0;
  const Opinion& opinion() const { return opinion_; }
  // After an empty choose(): why there was no move.
  const std::string& failure() const { return failure_; }

 protected:
  Opinion opinion_;
  std::string failure_;
};

class BotPlayer : public Player {
 public:
  BotPlayer(std::shared_ptr<const Rules> rules, const EngineSpec& spec, uint64_t seed) {
    engine::MultiAlgorithm algo = engine::MultiAlgorithm::kBrsPlus;
    if (spec.algorithm == "paranoid") algo = engine::MultiAlgorithm::kParanoid;
    if (spec.algorithm == "maxn") algo = engine::MultiAlgorithm::kMaxN;
    bot_ = engine::makeBotWith(std::move(rules), spec.level, seed, algo, spec.chanceNodes, spec.params);
  }
  std::string choose(const Game& game, const engine::SearchLimits& limits) override {
    std::atomic<bool> stop{false};
    const auto r = bot_->choose(game, limits, stop);
    opinion_.known = r.found;
    opinion_.cp = r.info.isMate ? (r.info.mateIn > 0 ? 100000 : -100000) : r.info.score;
    failure_ = r.found ? "" : "the bot found no move";
    return r.found ? game.position().moveText(r.best) : "";
  }

 private:
  std::unique_ptr<engine::Bot> bot_;
};

class UciPlayer : public Player {
 public:
  Status init(const EngineSpec& spec, const Rules& rules) {
    if (auto s = proc_.start(spec.uciPath); !s.ok()) return s;
    proc_.send("uci");
    if (proc_.readUntil("uciok", 10000).empty()) return makeError("uci", spec.uciPath + " did not answer uci");
    proc_.send("setoption name UCI_Variant value " + rules.variant);
    for (const auto& [k, v] : spec.uciOptions) proc_.send("setoption name " + k + " value " + v);
    proc_.send("isready");
    if (proc_.readUntil("readyok", 10000).empty()) return makeError("uci", spec.uciPath + " is not ready");
    return okStatus();
  }
  std::string choose(const Game& game, const engine::SearchLimits& limits) override {
    std::string cmd = "position fen " + game.startText();
    if (!game.record().empty()) {
      cmd += " moves";
      for (const auto& p : game.record()) cmd += " " + p.move;
    }
    proc_.send(cmd);
    std::string go = "go";
    const Rules& r = game.rules();
    if (limits.moveTimeMs) go += " movetime " + std::to_string(limits.moveTimeMs);
    if (limits.depth) go += " depth " + std::to_string(limits.depth);
    if (limits.nodes) go += " nodes " + std::to_string(limits.nodes);
    for (int s = 0; s < r.nseats(); ++s)
      if (limits.timeMs[s] >= 0)
        go += std::string(" ") + r.seats[s].letter + "time " + std::to_string(limits.timeMs[s]) + " " +
              r.seats[s].letter + "inc " + std::to_string(limits.incMs[s]);
    proc_.send(go);
    int wait = 60000;
    if (limits.moveTimeMs) wait = limits.moveTimeMs * 3 + 5000;
    opinion_ = {};
    const std::string line = proc_.readUntil("bestmove", wait, [this](const std::string& info) {
      // The last "score cp N" or "score mate N" before bestmove.
      std::istringstream in(info);
      for (std::string w; in >> w;) {
        if (w != "score") continue;
        std::string kind;
        int v = 0;
        if (!(in >> kind >> v)) break;
        if (kind == "cp") opinion_ = {true, v};
        if (kind == "mate") opinion_ = {true, v > 0 ? 100000 : -100000};
        break;
      }
    });
    std::istringstream in(line);
    std::string tag, move;
    in >> tag >> move;
    failure_ = !move.empty() ? "" : line.empty() ? proc_.why() : "it answered \"" + line + "\"";
    if (move.empty()) failed_ = true;
    return move;
  }
  bool failed() const { return failed_; }

 private:
  UciProcess proc_;
  bool failed_ = false;
};

double eloFromScore(double s) {
  if (s <= 0) return -std::numeric_limits<double>::infinity();
  if (s >= 1) return std::numeric_limits<double>::infinity();
  return -400.0 * std::log10(1.0 / s - 1.0);
}
double scoreFromElo(double e) { return 1.0 / (1.0 + std::pow(10.0, -e / 400.0)); }

// Mean and (population) variance of the per-game scores.
struct Moments {
  double mean = 0, var = 0;
};
Moments moments(const std::vector<double>& xs) {
  Moments m;
  if (xs.empty()) return m;
  for (double x : xs) m.mean += x;
  m.mean /= static_cast<double>(xs.size());
  for (double x : xs) m.var += (x - m.mean) * (x - m.mean);
  m.var /= static_cast<double>(xs.size());
  return m;
}

}  // namespace

EloEstimate estimateElo(const std::vector<double>& perGame, double share) {
  EloEstimate e;
  if (perGame.empty() || share <= 0) return e;
  const double n = static_cast<double>(perGame.size());
  const double scale = 2 * share;  // score / scale: the two-player-equivalent fraction
  const Moments m = moments(perGame);
  const double var = m.var / (scale * scale);
  const double f = std::clamp(m.mean / scale, 0.0, 1.0);
  const double binomial = f * (1 - f);
  // Observed spread against a win-or-lose game's; unknown at 0% and 100%.
  const double ratio = binomial > 1e-12 ? var / binomial : 1.0;
  const double k = 1.96 * 1.96 * ratio / n;
  const double centre = (f + k / 2) / (1 + k);
  const double half = std::sqrt(k * binomial + k * k / 4) / (1 + k);
  e.elo = eloFromScore(f);
  e.low = eloFromScore(std::clamp(centre - half, 0.0, f));
  e.high = eloFromScore(std::clamp(centre + half, f, 1.0));
  return e;
}

PairScore pairwiseScore(const std::vector<int>& places, const std::vector<int>& side) {
  PairScore p;
  for (size_t a = 0; a < places.size() && a < side.size(); ++a) {
    if (side[a] != 0) continue;
    for (size_t b = 0; b < places.size() && b < side.size(); ++b) {
      if (side[b] != 1) continue;
      ++p.pairs;
      if (places[a] < places[b]) p.points += 1.0;
      else if (places[a] == places[b]) p.points += 0.5;
    }
  }
  return p;
}

MeanInterval meanInterval(const std::vector<double>& xs) {
  MeanInterval r;
  if (xs.empty()) return r;
  const Moments m = moments(xs);
  const double n = static_cast<double>(xs.size());
  r.mean = m.mean;
  if (xs.size() < 2) return r;  // one sample says nothing about the spread: 0 to 1
  r.sd = std::sqrt(m.var * n / (n - 1));
  const double half = 1.96 * r.sd / std::sqrt(n);
  r.low = std::clamp(m.mean - half, 0.0, 1.0);
  r.high = std::clamp(m.mean + half, 0.0, 1.0);
  return r;
}

Result<EngineSpec> parseEngineSpec(const std::string& text) {
  EngineSpec spec;
  spec.label = text;
  std::istringstream in(text);
  for (std::string part; std::getline(in, part, ',');) {
    const size_t eq = part.find('=');
    if (eq == std::string::npos) return makeError("engine", "engine settings are key=value, not \"" + part + "\"");
    const std::string k = part.substr(0, eq), v = part.substr(eq + 1);
    if (k == "level") {
      if (v.size() != 1 || v[0] < '1' || v[0] > '9') return makeError("engine", "level is 1 to 9");
      spec.level = v[0] - '0';
    } else if (k == "algo") {
      if (v != "brs" && v != "paranoid" && v != "maxn") return makeError("engine", "algo is brs, paranoid or maxn");
      spec.algorithm = v;
    } else if (k == "chance") {
      if (v != "on" && v != "off") return makeError("engine", "chance is on or off");
      spec.chanceNodes = v == "on";
    } else if (k == "params") {
      std::ifstream f(v);
      if (!f) return makeError("engine", "cannot read the parameter file \"" + v + "\"");
      std::ostringstream text;
      text << f.rdbuf();
      auto p = engine::parseEvalParams(text.str());
      if (!p.ok()) return makeError("engine", p.error().text(), v);
      spec.params = std::make_shared<const engine::EvalParams>(p.value());
    } else if (k == "uci") {
      spec.uciPath = v;
    } else if (k == "name") {
      spec.label = v;
    } else if (!spec.uciPath.empty()) {
      spec.uciOptions.emplace_back(k, v);
    } else {
      return makeError("engine", "unknown engine setting \"" + k + "\"");
    }
  }
  return spec;
}

Result<MatchReport> runMatch(const VariantRegistry& registry, const MatchConfig& config, std::ostream& log) {
  // An engine that dies must cost it the game, not end the match: no SIGPIPE on writes to it.
  signal(SIGPIPE, SIG_IGN);
  auto rulesR = registry.rules(config.variant, config.options);
  if (!rulesR.ok()) return rulesR.error();
  const auto rules = rulesR.value();
  const int seats = rules->nseats();
  const int nEngines = static_cast<int>(config.engines.size());
  if (nEngines < 2) return makeError("match", "a match needs at least two engines");
  if (nEngines != seats && nEngines != 2) return makeError("match", "give one engine per seat, or two");
  for (const auto& e : config.engines)
    if (!e.uciPath.empty() && seats != 2) return makeError("match", "external UCI engines play two-seat games only");
  for (const auto& o : config.openings) {
    Position p(rules);
    if (auto s = p.set(o); !s.ok()) return s.error();
  }
  MatchReport report;
  report.scores.resize(nEngines);
  for (int i = 0; i < nEngines; ++i) report.scores[i].label = config.engines[i].label;
  // More than two seats: the first engine name head to head against each other
  // name (engines given under the same name= count as one).
  if (seats > 2)
    for (const auto& e : config.engines) {
      bool known = e.label == config.engines[0].label;
      for (const auto& h : report.headToHead) known = known || h.second == e.label;
      if (!known) report.headToHead.push_back({config.engines[0].label, e.label, 0, 0, {}});
    }
  std::mutex mu;
  std::ofstream pgn;
  if (!config.pgnPath.empty()) {
    pgn.open(config.pgnPath);
    if (!pgn) return makeError("match", "cannot write " + config.pgnPath);
  }
  std::atomic<int> next{0};
  std::atomic<bool> failed{false};
  std::string failure;

  auto worker = [&]() {
    // Each worker has its own players (bots are not shared between threads).
    std::vector<std::unique_ptr<Player>> players;
    for (int i = 0; i < nEngines; ++i) {
      const auto& spec = config.engines[i];
      if (!spec.uciPath.empty()) {
        auto p = std::make_unique<UciPlayer>();
        if (auto s = p->init(spec, *rules); !s.ok()) {
          std::lock_guard<std::mutex> lock(mu);
          failed = true;
          failure = s.error().text();
          return;
        }
        players.push_back(std::move(p));
      } else {
        players.push_back(std::make_unique<BotPlayer>(rules, spec, config.seed * 7919 + i));
      }
    }
    for (int g; (g = next.fetch_add(1)) < config.games && !failed;) {
      // An external engine that failed to answer is started afresh for the next game.
      for (int i = 0; i < nEngines; ++i) {
        auto* u = dynamic_cast<UciPlayer*>(players[i].get());
        if (!u || !u->failed()) continue;
        auto p = std::make_unique<UciPlayer>();
        if (p->init(config.engines[i], *rules).ok()) players[i] = std::move(p);
      }
      // Seat s is played by engine (s + g) mod n: every engine takes every seat in turn.
      std::vector<int> seatEngine(seats);
      for (int s = 0; s < seats; ++s) seatEngine[s] = (s + g) % nEngines;
      if (nEngines == 2 && seats > 2)
        for (int s = 0; s < seats; ++s) seatEngine[s] = s == g % seats ? 0 : 1;
      Game game(rules, config.seed + static_cast<uint64_t>(g));
      if (!config.openings.empty()) {
        // Each opening is played with the seats rotated before moving on.
        const auto& o = config.openings[(g / seats) % config.openings.size()];
        (void)game.setStart(o);
      }
      std::array<int, kMaxSeats> clock{};
      for (int s = 0; s < seats; ++s) clock[s] = config.baseMs;
      std::string forfeit, adjudicated;
      // Consecutive moves each seat has scored itself winning (>= resignCp) or losing (<= -resignCp).
      std::array<int, kMaxSeats> winning{}, losing{};
      while (!game.finished() && static_cast<int>(game.record().size()) < config.maxPlies) {
        const int seat = game.position().toMove();
        engine::SearchLimits limits;
        limits.moveTimeMs = config.moveTimeMs;
        limits.depth = config.depth;
        limits.nodes = static_cast<uint64_t>(config.nodes);
        if (config.baseMs > 0)
          for (int s = 0; s < seats; ++s) {
            limits.timeMs[s] = clock[s];
            limits.incMs[s] = config.incMs;
          }
        const auto t0 = std::chrono::steady_clock::now();
        const std::string move = players[seatEngine[seat]]->choose(game, limits);
        const int used = static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                              std::chrono::steady_clock::now() - t0)
                                              .count());
        if (config.baseMs > 0) {
          clock[seat] -= used;
          if (clock[seat] < 0) {
            game.timeout(seat);
            continue;
          }
          clock[seat] += config.incMs;
        }
        if (move.empty()) {
          forfeit = config.engines[seatEngine[seat]].label + " gave no move: " + players[seatEngine[seat]]->failure();
          game.resign(seat);
        } else if (!game.play(move).ok()) {
          forfeit = config.engines[seatEngine[seat]].label + " played \"" + move + "\"";
          game.resign(seat);
        }
        if (config.resignCp > 0 && seats == 2 && !game.finished()) {
          const Opinion& o = players[seatEngine[seat]]->opinion();
          winning[seat] = o.known && o.cp >= config.resignCp ? winning[seat] + 1 : 0;
          losing[seat] = o.known && o.cp <= -config.resignCp ? losing[seat] + 1 : 0;
          const int other = 1 - seat;
          for (const auto& [w, l] : {std::pair{seat, other}, std::pair{other, seat}})
            if (winning[w] >= config.resignMoves && losing[l] >= config.resignMoves && !game.finished()) {
              adjudicated = "adjudication: both engines scored " + std::string(rules->seats[w].name) +
                            " ahead by " + std::to_string(config.resignCp) + " cp for " +
                            std::to_string(config.resignMoves) + " moves";
              game.resign(l);
            }
        }
      }
      if (!game.finished()) game.agreeDraw();  // adjudicated at the ply cap
      const auto places = game.position().places();
      std::lock_guard<std::mutex> lock(mu);
      std::vector<double> got(nEngines, 0.0);
      std::vector<int> count(nEngines, 0);
      for (int s = 0; s < seats; ++s) {
        int shared = 0;
        for (int q = 0; q < seats; ++q) shared += places[q] == places[s] ? 1 : 0;
        const double pts = places[s] == 1 ? 1.0 / shared : 0.0;
        got[seatEngine[s]] += pts;
        ++count[seatEngine[s]];
        auto& sc = report.scores[seatEngine[s]];
        sc.placeSum += places[s];
        if (places[s] == 1 && shared == 1) ++sc.wins;
        else if (places[s] == 1) ++sc.draws;
        else ++sc.losses;
      }
      for (auto& h : report.headToHead) {
        std::vector<int> place(seats), side(seats, -1);
        for (int s = 0; s < seats; ++s) {
          place[s] = places[s];
          const std::string& label = config.engines[seatEngine[s]].label;
          if (label == h.first) side[s] = 0;
          if (label == h.second) side[s] = 1;
        }
        const PairScore p = pairwiseScore(place, side);
        if (p.pairs == 0) continue;
        h.points += p.points;
        h.pairs += p.pairs;
        h.perGame.push_back(p.points / p.pairs);
      }
      for (int i = 0; i < nEngines; ++i) {
        if (!count[i]) continue;
        auto& sc = report.scores[i];
        sc.points += got[i] / count[i];
        sc.perGame.push_back(got[i] / count[i]);
        ++sc.games;
      }
      if (pgn) {
        PgnWriteOptions record;
        record.tags = {{"Event", "Acedrex match"}, {"Round", std::to_string(g + 1)}};
        for (int s = 0; s < seats; ++s) record.tags.push_back({pgnSeatTag(*rules, s), config.engines[seatEngine[s]].label});
        if (!forfeit.empty()) record.tags.push_back({"Termination", "forfeit: " + forfeit});
        if (!adjudicated.empty()) record.tags.push_back({"Termination", adjudicated});
        pgn << writePgn(game, record) << "\n";
        pgn.flush();
      }
      log << "game " << g + 1 << ": " << resultText(game) << " (" << game.record().size() << " plies";
      if (!forfeit.empty()) log << ", forfeit: " << forfeit;
      log << ")\n" << std::flush;
    }
  };
  std::vector<std::thread> threads;
  const int workers = std::max(1, std::min(config.concurrency, config.games));
  for (int i = 0; i < workers; ++i) threads.emplace_back(worker);
  for (auto& t : threads) t.join();
  if (failed) return makeError("match", failure);

  // Engine 0 against the rest: Elo with a 95% interval from the per-game scores.
  const auto& s0 = report.scores[0];
  if (s0.games > 0) {
    const double n = s0.games;
    // Against the field: a game's expected score for engine 0 is its share of seats.
    const double share = nEngines == 2 && seats > 2 ? 1.0 / seats : 1.0 / nEngines;
    const EloEstimate elo = estimateElo(s0.perGame, share);
    report.elo = elo.elo;
    report.eloLow = elo.low;
    report.eloHigh = elo.high;
    if (config.sprt) {
      const double p0 = scoreFromElo(config.elo0) * 2 * share, p1 = scoreFromElo(config.elo1) * 2 * share;
      const Moments m = moments(s0.perGame);
      const double v = std::max(m.var, 1e-9);
      report.llr = n / (2 * v) * (p1 - p0) * (2 * m.mean - p0 - p1);
      const double lower = std::log(0.05 / 0.95), upper = std::log(0.95 / 0.05);
      report.sprtVerdict = report.llr >= upper ? "H1 accepted" : (report.llr <= lower ? "H0 accepted" : "continue");
    }
  }
  return report;
}

void printReport(const MatchReport& report, const MatchConfig& config, std::ostream& out) {
  out << "\nScores after " << (report.scores.empty() ? 0 : report.scores[0].games) << " games (" << config.variant
      << "):\n";
  for (const auto& s : report.scores) {
    out << "  " << std::left << std::setw(40) << s.label << " points " << std::fixed << std::setprecision(1)
        << s.points << "/" << s.games << "  (" << std::setprecision(1) << (s.games ? 100.0 * s.points / s.games : 0)
        << "%)  first " << s.wins << ", shared first " << s.draws << ", other " << s.losses << ", mean place "
        << std::setprecision(2) << (s.games ? s.placeSum / (s.wins + s.draws + s.losses) : 0) << "\n";
  }
  auto elo = [](double x) {
    if (std::isinf(x)) return std::string(x > 0 ? "+inf" : "-inf");
    std::ostringstream o;
    o << std::fixed << std::setprecision(0) << x;
    return o.str();
  };
  out << "Elo of " << report.scores[0].label << " against the rest: " << elo(report.elo) << " (95% interval "
      << elo(report.eloLow) << " to " << elo(report.eloHigh) << ")\n";
  for (const auto& h : report.headToHead) {
    const MeanInterval m = meanInterval(h.perGame);
    out << "Head to head " << h.first << " against " << h.second << ": " << std::setprecision(1) << h.points << "/"
        << h.pairs << " pairs (" << (h.pairs ? 100.0 * h.points / h.pairs : 0) << "%), 95% interval "
        << 100.0 * m.low << "% to " << 100.0 * m.high << "% over " << h.perGame.size() << " games (per-game sd "
        << std::setprecision(3) << m.sd << ")\n";
  }
  if (config.sprt)
    out << std::setprecision(2) << "SPRT elo0=" << config.elo0 << " elo1=" << config.elo1 << ": LLR " << report.llr
        << " (bounds -2.94, 2.94): " << report.sprtVerdict << "\n";
}

}  // namespace acedrex::protocol
