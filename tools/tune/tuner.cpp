#include "tune/tuner.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <iomanip>
#include <ostream>
#include <sstream>
#include <thread>
#include <unordered_set>

#include "core/game/game.h"

namespace acedrex::tune {

// ---- Extraction -----------------------------------------------------------

namespace {

std::vector<std::string> splitWords(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

bool isCapture(const Position& pos, Move m) {
  if (m.isNull()) return false;
  if (m.flag() == kEnPassant) return true;
  const Piece q = pos.at(m.to());
  return isPiece(q) && seatOf(q) != pos.toMove();
}

// Whether the side to move has a capture or promotion that wins material by
// a one-move exchange: the victim (and the promotion's gain) against the
// mover, lost again when the opponent can take on the square afterwards.
bool hasWinningCapture(Position& pos, const engine::Evaluator& ev) {
  MoveList list;
  pos.legalMoves(list);
  const int us = pos.toMove();
  for (Move m : list) {
    if (m.isNull()) continue;
    const bool capture = isCapture(pos, m);
    if (!capture && m.promo() < 0) continue;
    const int moverType = typeOf(pos.at(m.from()));
    int gain = 0;
    if (capture) {
      const Piece victim = m.flag() == kEnPassant ? kEmpty : pos.at(m.to());
      gain += victim == kEmpty ? ev.pieceValue(moverType) : ev.pieceValue(typeOf(victim));
    }
    const int after = m.promo() >= 0 ? m.promo() : moverType;
    gain += ev.pieceValue(after) - ev.pieceValue(moverType);
    pos.make(m);
    const bool recapture = !pos.finished() && pos.attacked(m.to(), pos.enemiesOf(us) & pos.inMask());
    pos.unmake();
    if (recapture) gain -= ev.pieceValue(after);
    if (gain > 0) return true;
  }
  return false;
}

}  // namespace

std::vector<Sample> extractSamples(const VariantRegistry& registry, const std::string& variant,
                                   const std::vector<PgnGame>& games, const ExtractOptions& options,
                                   ExtractStats& stats) {
  std::vector<Sample> out;
  std::unordered_set<uint64_t> seen;
  struct Compiled {
    std::shared_ptr<const Rules> rules;
    std::unique_ptr<engine::Evaluator> evaluator;
  };
  std::map<std::string, Compiled> cache;  // by option text
  auto skip = [&](const PgnGame& g, const std::string& why) {
    ++stats.gamesSkipped;
    if (stats.warnings.size() < 20)
      stats.warnings.push_back("game at line " + std::to_string(g.line) + ": " + why);
  };
  for (const PgnGame& g : games) {
    ++stats.games;
    const auto tag = [&](const std::string& k) { return g.tag(k); };
    if (pgnVariant(g, registry) != variant) {
      skip(g, "variant \"" + tag("Variant") + "\"");
      continue;
    }
    const std::string res = tag("Result").empty() ? g.result : tag("Result");
    double result = 0;
    if (res == "1-0") result = 1;
    else if (res == "0-1") result = 0;
    else if (res == "1/2-1/2") result = 0.5;
    else {
      skip(g, "no two-seat result (\"" + res + "\")");
      continue;
    }
    const std::string optText = tag("VariantOptions");
    auto it = cache.find(optText);
    if (it == cache.end()) {
      auto r = registry.rules(variant, splitWords(optText));
      if (!r.ok()) {
        skip(g, r.error().text());
        continue;
      }
      Compiled c;
      c.rules = r.value();
      c.evaluator = std::make_unique<engine::Evaluator>(c.rules, engine::defaultEvalParams(*c.rules));
      it = cache.emplace(optText, std::move(c)).first;
    }
    const auto& rules = it->second.rules;
    const engine::Evaluator& ev = *it->second.evaluator;
    if (rules->nseats() != 2) {
      skip(g, "not a two-seat variant");
      continue;
    }
    auto started = pgnStart(g, rules);
    if (!started.ok()) {
      skip(g, started.error().text());
      continue;
    }
    Game& game = **started;
    std::vector<Sample> mine;
    std::vector<uint64_t> hashes;
    int early = 0, finished = 0, inCheck = 0, afterCapture = 0, winning = 0, positions = 0;
    bool noisyBefore = false, bad = false;
    for (size_t ply = 0; ply < g.moves.size(); ++ply) {
      Position& pos = game.positionForSearch();
      ++positions;
      // 1. The filters, on the position before this move.
      if (static_cast<int>(ply) < options.skipPlies) ++early;
      else if (pos.finished()) ++finished;
      else if (options.quietOnly && pos.inCheck(pos.toMove())) ++inCheck;
      else if (options.quietOnly && noisyBefore) ++afterCapture;
      else if (options.quietOnly && hasWinningCapture(pos, ev)) ++winning;
      else {
        mine.push_back(Sample{pos.text(), result, 0});
        hashes.push_back(pos.hash());
      }
      // 2. The move itself.
      auto read = readPgnMove(game, g.moves[ply], engineNotation());
      if (!read.ok()) {
        skip(g, "move " + std::to_string(ply + 1) + ": " + read.error().text());
        bad = true;
        break;
      }
      const Move move = *read;
      noisyBefore = isCapture(pos, move) || move.promo() >= 0;
      if (auto s = game.play(move); !s.ok()) {
        skip(g, "move " + std::to_string(ply + 1) + ": " + s.error().text());
        bad = true;
        break;
      }
    }
    if (bad) continue;
    ++stats.gamesUsed;
    stats.positions += positions;
    stats.early += early;
    stats.finished += finished;
    stats.inCheck += inCheck;
    stats.afterCapture += afterCapture;
    stats.winningCapture += winning;
    for (size_t k = 0; k < mine.size(); ++k) {
      if (!seen.insert(hashes[k]).second) {
        ++stats.duplicates;
        continue;
      }
      out.push_back(std::move(mine[k]));
      ++stats.kept;
    }
  }
  return out;
}

std::string formatSamples(const std::vector<Sample>& samples, const std::string& header) {
  std::ostringstream o;
  std::istringstream h(header);
  for (std::string line; std::getline(h, line);) o << "# " << line << "\n";
  for (const Sample& s : samples) o << s.position << " ; " << s.result << "\n";
  return o.str();
}

Result<std::vector<Sample>> parseSamples(const std::string& text, const std::string& source) {
  std::vector<Sample> out;
  std::istringstream in(text);
  int lineNo = 0;
  auto trim = [](std::string s) {
    const size_t a = s.find_first_not_of(" \t\r");
    if (a == std::string::npos) return std::string();
    return s.substr(a, s.find_last_not_of(" \t\r") - a + 1);
  };
  for (std::string line; std::getline(in, line);) {
    ++lineNo;
    const std::string t = trim(line);
    if (t.empty() || t[0] == '#') continue;
    const std::string where = source + " line " + std::to_string(lineNo);
    const size_t semi = t.rfind(';');
    if (semi == std::string::npos)
      return makeError("data", "expected \"POSITION ; RESULT\" (RESULT 1, 0.5 or 0 from White's view)", where);
    const std::string pos = trim(t.substr(0, semi)), res = trim(t.substr(semi + 1));
    if (pos.empty()) return makeError("data", "no position before ';'", where);
    // A game's result, or a label between 0 and 1 (a teacher's expected score, tools/tune/teacher.py).
    double r = -1;
    if (res == "1-0") r = 1;
    else if (res == "0-1") r = 0;
    else if (res == "1/2-1/2") r = 0.5;
    else if (!res.empty() && res.find_first_not_of("0123456789.") == std::string::npos &&
             std::count(res.begin(), res.end(), '.') <= 1 && res != ".")
      r = std::stod(res);
    if (r < 0 || r > 1)
      return makeError("data", "the result must be 1, 0.5 or 0 (White's view), or a label from 0 to 1, not \"" + res + "\"",
                       where);
    out.push_back(Sample{pos, r, lineNo});
  }
  return out;
}

// ---- Tuning ---------------------------------------------------------------

Result<Dataset> Dataset::build(std::shared_ptr<const Rules> rules, const std::vector<Sample>& samples,
                               const std::string& source) {
  if (rules->nseats() != 2) return makeError("tune", "the tuner handles two-seat variants only");
  Dataset d;
  d.rules_ = rules;
  d.positions_.reserve(samples.size());
  d.results_.reserve(samples.size());
  Position scratch(rules);
  for (const Sample& s : samples) {
    if (auto st = scratch.set(s.position); !st.ok())
      return makeError("data", st.error().text(), source + (s.line ? " line " + std::to_string(s.line) : ""));
    d.positions_.push_back(scratch);  // a copy: it does not keep the scratch's undo capacity
    d.results_.push_back(s.result);
  }
  return d;
}

std::vector<int> Dataset::whiteEvals(const engine::Evaluator& evaluator, int threads) const {
  std::vector<int> out(positions_.size());
  auto work = [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      const Position& p = positions_[i];
      const int e = evaluator.evaluate(p, 0);  // two seats: from the side to move
      out[i] = p.toMove() == 0 ? e : -e;
    }
  };
  threads = std::max(1, threads);
  if (threads == 1 || positions_.size() < 1000) {
    work(0, positions_.size());
    return out;
  }
  std::vector<std::thread> pool;
  const size_t chunk = (positions_.size() + threads - 1) / threads;
  for (int t = 1; t < threads; ++t)
    pool.emplace_back(work, std::min(positions_.size(), t * chunk), std::min(positions_.size(), (t + 1) * chunk));
  work(0, std::min(positions_.size(), chunk));
  for (auto& th : pool) th.join();
  return out;
}

double sigmoid(double k, double eval) { return 1.0 / (1.0 + std::exp(-k * eval)); }

double Dataset::error(const std::vector<int>& evals, double k) const {
  if (evals.empty()) return 0;
  double sum = 0;
  for (size_t i = 0; i < evals.size(); ++i) {
    const double d = results_[i] - sigmoid(k, evals[i]);
    sum += d * d;
  }
  return sum / static_cast<double>(evals.size());
}

double Dataset::error(const engine::EvalParams& params, double k, int threads) const {
  const engine::Evaluator ev(rules_, params);
  return error(whiteEvals(ev, threads), k);
}

double fitK(const Dataset& data, const std::vector<int>& evals) {
  // A scan over k on a log scale, then golden-section search around the best point.
  const double lo = std::log(1e-5), hi = std::log(1e-1);
  const int steps = 64;
  int best = 0;
  double bestErr = 1e300;
  for (int i = 0; i <= steps; ++i) {
    const double e = data.error(evals, std::exp(lo + (hi - lo) * i / steps));
    if (e < bestErr) {
      bestErr = e;
      best = i;
    }
  }
  double a = lo + (hi - lo) * std::max(0, best - 1) / steps;
  double b = lo + (hi - lo) * std::min(steps, best + 1) / steps;
  const double g = (std::sqrt(5.0) - 1) / 2;
  double c = b - g * (b - a), d = a + g * (b - a);
  double fc = data.error(evals, std::exp(c)), fd = data.error(evals, std::exp(d));
  for (int i = 0; i < 60; ++i) {
    if (fc < fd) {
      b = d;
      d = c;
      fd = fc;
      c = b - g * (b - a);
      fc = data.error(evals, std::exp(c));
    } else {
      a = c;
      c = d;
      fc = fd;
      d = a + g * (b - a);
      fd = data.error(evals, std::exp(d));
    }
  }
  return std::exp((a + b) / 2);
}

std::vector<std::string> tunableNames(const engine::EvalParams& params, const std::string& variant) {
  auto lines = [](const std::string& text) {
    std::vector<std::string> v;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) v.push_back(l);
    return v;
  };
  auto isNumber = [](const std::string& w) {
    char* end = nullptr;
    std::strtol(w.c_str(), &end, 10);
    return !w.empty() && *end == '\0';
  };
  engine::EvalParams copy = params;
  const auto ptrs = copy.tunables();
  const auto base = lines(copy.toText(variant));
  std::vector<std::string> names;
  for (size_t i = 0; i < ptrs.size(); ++i) {
    const int old = *ptrs[i];
    *ptrs[i] = old + 7777;
    const auto changed = lines(copy.toText(variant));
    *ptrs[i] = old;
    std::string name = "#" + std::to_string(i);
    for (size_t l = 0; l < base.size() && l < changed.size(); ++l) {
      if (base[l] == changed[l]) continue;
      const auto a = splitWords(base[l]), b = splitWords(changed[l]);
      std::string key;
      int numbers = 0, which = 0;
      for (size_t w = 0; w < a.size(); ++w) {
        if (!isNumber(a[w])) {
          if (!numbers) key += (key.empty() ? "" : " ") + a[w];
          continue;
        }
        ++numbers;
        if (w < b.size() && a[w] != b[w]) which = numbers;
      }
      name = numbers > 1 ? key + ":" + std::to_string(which) : key;
      break;
    }
    names.push_back(name);
  }
  return names;
}

bool matchesPattern(const std::string& name, const std::string& pattern) {
  if (pattern.empty()) return name.empty();
  if (pattern[0] == '*') {
    for (size_t i = 0; i <= name.size(); ++i)
      if (matchesPattern(name.substr(i), pattern.substr(1))) return true;
    return false;
  }
  return !name.empty() && name[0] == pattern[0] && matchesPattern(name.substr(1), pattern.substr(1));
}

TuneReport tune(const Dataset& data, engine::EvalParams& params, const TuneOptions& options) {
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  TuneReport report;
  const auto ptrs = params.tunables();
  const size_t n = ptrs.size();
  {
    const engine::Evaluator ev(data.rules(), params);
    const auto evals = data.whiteEvals(ev, options.threads);
    report.k = options.k > 0 ? options.k : fitK(data, evals);
    report.errorBefore = data.error(evals, report.k);
  }
  double best = report.errorBefore;
  if (options.log)
    *options.log << "k " << std::setprecision(6) << report.k << ", error " << std::setprecision(8) << best << ", "
                 << n << " parameters, " << data.size() << " positions\n";
  std::vector<int> step(n);
  for (size_t i = 0; i < n; ++i) step[i] = std::clamp(std::abs(*ptrs[i]) / 8, 1, std::max(1, options.maxStep));
  std::vector<bool> frozen(n, false);
  const auto names = tunableNames(params, data.rules()->variant);
  for (size_t i = 0; i < n; ++i)
    for (const auto& pat : options.freeze) frozen[i] = frozen[i] || matchesPattern(names[i], pat);
  auto trial = [&]() {
    ++report.trials;
    return data.error(params, report.k, options.threads);
  };
  for (int pass = 1; pass <= options.maxPasses; ++pass) {
    int moved = 0;
    for (size_t i = 0; i < n; ++i) {
      if (frozen[i]) {
        step[i] = 1;
        continue;
      }
      bool improved = false;
      for (int dir : {+1, -1}) {
        // Keep moving in one direction while the error goes down, doubling the
        // stride after each success and going back to the step after a failure.
        for (int stride = step[i];;) {
          *ptrs[i] += dir * stride;
          const double e = trial();
          if (e < best) {
            best = e;
            improved = true;
            stride *= 2;
            continue;
          }
          *ptrs[i] -= dir * stride;
          if (stride == step[i]) break;
          stride = step[i];
        }
        if (improved) break;
      }
      if (improved) ++moved;
      else if (step[i] > 1) step[i] = std::max(1, step[i] / 2);
    }
    report.passes = pass;
    const int maxStep = *std::max_element(step.begin(), step.end());
    if (options.log)
      *options.log << "pass " << pass << ": error " << std::setprecision(8) << best << ", " << moved
                   << " parameters moved, largest step " << maxStep << ", " << report.trials << " trials, "
                   << std::fixed << std::setprecision(1)
                   << std::chrono::duration<double>(Clock::now() - t0).count() << " s\n"
                   << std::defaultfloat;
    if (moved == 0 && maxStep == 1) {
      report.converged = true;
      break;
    }
  }
  report.errorAfter = best;
  return report;
}

}  // namespace acedrex::tune
