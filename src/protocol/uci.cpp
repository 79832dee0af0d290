#include "protocol/uci.h"

#include <iostream>
#include <set>
#include <sstream>

#include "core/position/perft.h"

namespace acedrex::protocol {
namespace {

std::vector<std::string> tokens(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> out;
  for (std::string t; in >> t;) out.push_back(t);
  return out;
}

bool parseInt(const std::string& s, long long& out) {
  if (s.empty() || s.size() > 15) return false;
  size_t i = s[0] == '-' ? 1 : 0;
  if (i == s.size()) return false;
  for (size_t k = i; k < s.size(); ++k)
    if (!std::isdigit(static_cast<unsigned char>(s[k]))) return false;
  out = std::stoll(s);
  return true;
}

// The words `go` takes (a seat's clock is its letter and time or inc).
bool isGoParameter(const std::string& k) {
  for (const char* word : {"infinite", "ponder", "searchmoves", "perft", "depth", "nodes", "movetime", "movestogo"})
    if (k == word) return true;
  return (k.size() == 5 && k.substr(1) == "time") || (k.size() == 4 && k.substr(1) == "inc");
}

}  // namespace

UciSession::UciSession(const VariantRegistry& registry, std::function<void(const std::string&)> write)
    : registry_(registry), write_(std::move(write)) {
  rebuildRules();
}

UciSession::~UciSession() { stopSearch(); }

void UciSession::waitForSearch() {
  if (search_.joinable()) search_.join();
}

void UciSession::finish() {
  // At the end of the input a bounded search runs to its end; an infinite one is stopped.
  if (infinite_) stop_ = true;
  waitForSearch();
}

void UciSession::stopSearch() {
  stop_ = true;
  waitForSearch();
  stop_ = false;
}

void UciSession::error(const std::string& what) {
  std::lock_guard<std::mutex> lock(writeMutex_);
  write_("info string error " + what);
}

void UciSession::rebuildRules() {
  std::vector<std::string> opts;
  const VariantDef* def = registry_.find(variant_);
  for (const auto& [k, v] : options_) {
    if (!def) break;
    for (const auto& o : def->options)
      if (o.name == k) opts.push_back(k + "=" + v);
  }
  // With UCI_Chess960, chess is written as Chess960 (castling onto the rook, Shredder-FEN rights).
  auto r = registry_.rules(chess960_ && variant_ == "chess" ? "fischerandom" : variant_, opts);
  if (!r.ok()) {
    error(r.error().text());
    return;
  }
  rules_ = r.value();
  game_ = std::make_unique<Game>(rules_, seed_);
  game_->leaveRuleDrawsToCaller();
  bot_ = engine::makeBot(rules_, level_, seed_);
}

bool UciSession::ensureGame() {
  if (!game_) {
    error("no position");
    return false;
  }
  return true;
}

bool UciSession::handle(const std::string& line) {
  const auto t = tokens(line);
  if (t.empty()) return true;
  const std::string& cmd = t[0];
  const std::string rest = line.substr(std::min(line.size(), line.find(cmd) + cmd.size()));
  if (cmd == "quit") {
    stopSearch();
    return false;
  }
  if (cmd == "stop") {
    stopSearch();
    return true;
  }
  if (cmd == "isready") {
    std::lock_guard<std::mutex> lock(writeMutex_);
    write_("readyok");
    return true;
  }
  // Everything else waits for a running search to end (stop it first if asked to change state).
  if (cmd == "uci") cmdUci();
  else if (cmd == "setoption") { stopSearch(); cmdSetOption(rest); }
  else if (cmd == "ucinewgame") {
    stopSearch();
    rebuildRules();
    if (bot_) bot_->newGame();
  } else if (cmd == "position") { stopSearch(); cmdPosition(rest); }
  else if (cmd == "go") { stopSearch(); cmdGo(rest); }
  else if (cmd == "d") {
    if (ensureGame()) {
      std::lock_guard<std::mutex> lock(writeMutex_);
      write_("info string fen " + game_->position().text());
    }
  } else error("unknown command \"" + cmd + "\"");
  return true;
}

void UciSession::cmdUci() {
  std::lock_guard<std::mutex> lock(writeMutex_);
  write_("id name Acedrex 0.1");
  write_("id author the Acedrex developers");
  std::string vars;
  for (const VariantDef* d : registry_.all()) vars += " var " + d->name;
  write_("option name UCI_Variant type combo default shako" + vars);
  write_("option name Level type spin default 9 min 1 max 9");
  write_("option name Seed type spin default 1 min 0 max 2147483647");
  std::set<std::string> seen;
  for (const VariantDef* d : registry_.all())
    for (const auto& o : d->options) {
      if (!seen.insert(o.name).second) continue;
      std::string line = "option name " + o.name + " type combo default " + o.values.front();
      std::set<std::string> values;
      for (const VariantDef* d2 : registry_.all())
        for (const auto& o2 : d2->options)
          if (o2.name == o.name)
            for (const auto& v : o2.values) values.insert(v);
      for (const auto& v : values) line += " var " + v;
      write_(line);
    }
  write_("uciok");
}

void UciSession::cmdSetOption(const std::string& rest) {
  const auto t = tokens(rest);
  if (t.size() < 2 || t[0] != "name") return error("setoption name NAME value VALUE");
  size_t i = 1;
  std::string name, value;
  for (; i < t.size() && t[i] != "value"; ++i) name += (name.empty() ? "" : " ") + t[i];
  for (++i; i < t.size(); ++i) value += (value.empty() ? "" : " ") + t[i];
  if (name.empty()) return error("setoption needs a name");
  if (name == "UCI_Variant") {
    if (!registry_.find(value)) return error("unknown variant \"" + value + "\"");
    variant_ = value;
    rebuildRules();
    return;
  }
  if (name == "Level") {
    long long v = 0;
    if (!parseInt(value, v) || v < 1 || v > 9) return error("Level is 1 to 9");
    level_ = static_cast<int>(v);
    rebuildRules();
    return;
  }
  if (name == "Seed") {
    long long v = 0;
    if (!parseInt(value, v) || v < 0) return error("Seed is a number");
    seed_ = static_cast<uint64_t>(v);
    rebuildRules();
    return;
  }
  if (name == "UCI_Chess960") {
    if (value != "true" && value != "false") return error("UCI_Chess960 is true or false");
    chess960_ = value == "true";
    rebuildRules();
    return;
  }
  if (name == "Hash" || name == "Threads" || name == "Ponder") return;  // accepted, unused
  bool known = false;
  for (const VariantDef* d : registry_.all())
    for (const auto& o : d->options)
      if (o.name == name) {
        known = true;
        if (std::find(o.values.begin(), o.values.end(), value) == o.values.end() && d->name == variant_)
          return error("option " + name + " has no value \"" + value + "\"");
      }
  if (!known) return error("unknown option \"" + name + "\"");
  for (auto& kv : options_)
    if (kv.first == name) {
      kv.second = value;
      rebuildRules();
      return;
    }
  options_.emplace_back(name, value);
  rebuildRules();
}

void UciSession::cmdPosition(const std::string& rest) {
  if (!rules_) return error("no variant");
  const auto t = tokens(rest);
  if (t.empty()) return error("position startpos|fen F [moves ...]");
  // The GUI adjudicates draws by rule; the engine answers a legal move while one exists.
  auto game = std::make_unique<Game>(rules_, seed_);
  game->leaveRuleDrawsToCaller();
  size_t i = 1;
  if (t[0] == "fen") {
    std::string fen;
    for (; i < t.size() && t[i] != "moves"; ++i) fen += (fen.empty() ? "" : " ") + t[i];
    if (auto s = game->setStart(fen); !s.ok()) return error(s.error().text());
  } else if (t[0] != "startpos") {
    return error("position startpos|fen F [moves ...]");
  }
  if (i < t.size()) {
    if (t[i] != "moves") return error("expected \"moves\"");
    for (++i; i < t.size(); ++i)
      if (auto s = game->play(t[i]); !s.ok()) return error(s.error().text());
  }
  game_ = std::move(game);
  if (game_->currentThrow()) {
    std::lock_guard<std::mutex> lock(writeMutex_);
    write_("info string die " + std::to_string(game_->currentThrow()));
  }
}

void UciSession::cmdGo(const std::string& rest) {
  if (!ensureGame()) return;
  const auto t = tokens(rest);
  engine::SearchLimits limits;
  for (size_t i = 0; i < t.size(); ++i) {
    const std::string& k = t[i];
    if (k == "infinite") {
      limits.infinite = true;
      continue;
    }
    if (k == "ponder") continue;
    if (k == "searchmoves") {
      // Legal moves up to the next parameter or the end of the line.
      Position pos = game_->position();
      const size_t first = i + 1;
      for (; i + 1 < t.size(); ++i) {
        auto move = pos.parseMove(t[i + 1]);
        if (!move.ok()) {
          if (isGoParameter(t[i + 1])) break;
          return error("go searchmoves: " + move.error().text());
        }
        limits.searchMoves.push_back(move.value());
      }
      if (i + 1 == first) return error("go searchmoves needs legal moves");
      continue;
    }
    if (i + 1 >= t.size()) return error("go " + k + " needs a number");
    long long v = 0;
    if (!parseInt(t[i + 1], v) || v < 0) return error("go " + k + ": not a number \"" + t[i + 1] + "\"");
    ++i;
    if (k == "perft") {
      if (v > 20) return error("perft depth at most 20");
      Position pos = game_->position();
      uint64_t total = 0;
      std::lock_guard<std::mutex> lock(writeMutex_);
      for (const auto& [move, n] : perftDivide(pos, static_cast<int>(v))) {
        write_(move + ": " + std::to_string(n));
        total += n;
      }
      write_("");
      write_("Nodes searched: " + std::to_string(total));
      return;
    }
    if (k == "depth") limits.depth = static_cast<int>(std::min(v, 100LL));
    else if (k == "nodes") limits.nodes = static_cast<uint64_t>(v);
    else if (k == "movetime") limits.moveTimeMs = static_cast<int>(std::min(v, 1LL << 30));
    else if (k == "movestogo") limits.movesToGo = static_cast<int>(std::min(v, 1000LL));
    else if (k.size() == 5 && k.substr(1) == "time") {
      bool found = false;
      for (int s = 0; s < rules_->nseats(); ++s)
        if (rules_->seats[s].letter == k[0]) {
          limits.timeMs[s] = static_cast<int>(std::min(v, 1LL << 30));
          found = true;
        }
      if (!found) return error("no seat '" + k.substr(0, 1) + "' in " + rules_->variant);
    } else if (k.size() == 4 && k.substr(1) == "inc") {
      bool found = false;
      for (int s = 0; s < rules_->nseats(); ++s)
        if (rules_->seats[s].letter == k[0]) {
          limits.incMs[s] = static_cast<int>(std::min(v, 1LL << 30));
          found = true;
        }
      if (!found) return error("no seat '" + k.substr(0, 1) + "' in " + rules_->variant);
    } else {
      return error("unknown go parameter \"" + k + "\"");
    }
  }
  if (game_->finished()) {
    std::lock_guard<std::mutex> lock(writeMutex_);
    write_("info string the game is over");
    write_("bestmove (none)");
    return;
  }
  if (game_->ruleDrawLeft()) {
    std::lock_guard<std::mutex> lock(writeMutex_);
    write_("info string the position is drawn by rule (repetition, move count or material); the GUI decides");
  }
  stop_ = false;
  infinite_ = limits.infinite;
  const Game snapshot = *game_;
  search_ = std::thread([this, snapshot, limits]() {
    auto onInfo = [this, &snapshot](const engine::SearchInfo& info) {
      std::ostringstream o;
      o << "info depth " << info.depth << " seldepth " << info.selDepth << " score ";
      if (info.isMate) o << "mate " << info.mateIn;
      else o << "cp " << info.score;
      o << " nodes " << info.nodes << " nps " << (info.timeMs > 0 ? info.nodes * 1000 / info.timeMs : info.nodes)
        << " time " << info.timeMs << " pv";
      // Each move's text read in its own position (Chess960 castling names the rook's square).
      Position walk = snapshot.position();
      for (Move m : info.pv) {
        o << " " << walk.moveText(m);
        walk.make(m);
      }
      std::lock_guard<std::mutex> lock(writeMutex_);
      write_(o.str());
    };
    auto result = bot_->choose(snapshot, limits, stop_, onInfo);
    // With "go infinite" the answer waits for "stop".
    while (limits.infinite && !stop_) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    std::lock_guard<std::mutex> lock(writeMutex_);
    write_("bestmove " + (result.found ? snapshot.position().moveText(result.best) : std::string("(none)")));
  });
}

int runUci(const VariantRegistry& registry) {
  UciSession session(registry, [&](const std::string& line) {
    std::cout << line << "\n" << std::flush;
  });
  for (std::string line; std::getline(std::cin, line);) {
    if (line.size() > 1 << 16) {
      std::cout << "info string error line too long\n" << std::flush;
      continue;
    }
    if (!session.handle(line)) return 0;
  }
  session.finish();
  return 0;
}

}  // namespace acedrex::protocol
