#include <sstream>

#include "core/mechanisms/fog.h"
#include "engine/bot.h"
#include "engine/multi.h"
#include "engine/search.h"

namespace acedrex::engine {
namespace {

struct LevelSpec {
  int depth;        // 0: unlimited
  uint64_t nodes;   // 0: unlimited
  int noise;        // centipawns
};

// Levels 1..8 limit depth or nodes and add noise at the root; 9 is full strength.
// Levels 1-6 limit the depth (level 2 only cuts level 1's noise), levels 7 and 8
// about triple the work of the level below, so that each level beats the one
// below it clearly (measured in docs/strength.md; levels 1-8 ignore a generous clock).
const LevelSpec kLevels[] = {
    {0, 0, 0},          // unused
    {1, 0, 700},        // 1: looks one move ahead and often blunders
    {1, 0, 200},        // 2
    {2, 0, 80},         // 3
    {3, 0, 30},         // 4
    {4, 0, 10},         // 5
    {5, 0, 0},          // 6
    {0, 40000, 0},      // 7
    {0, 120000, 0},     // 8
    {0, 0, 0},          // 9: full strength
};

class EngineBot final : public Bot {
 public:
  EngineBot(std::shared_ptr<const Rules> rules, int level, uint64_t seed, MultiAlgorithm algo, bool chance,
            const EvalParams* params)
      : rules_(rules), level_(std::clamp(level, 1, kFullStrength)),
        eval_(rules, params ? *params : defaultEvalParams(*rules)) {
    const LevelSpec& spec = kLevels[level_];
    SearchConfig config;
    if (spec.depth) config.maxDepth = spec.depth;
    config.maxNodes = spec.nodes;
    config.noise = spec.noise;
    config.seed = seed;
    config.chanceNodes = chance;
    config.ttMegabytes = level_ >= 7 ? 32 : 4;
    // Two teams whose seats alternate (four-player chess's teams) play as two
    // sides: the two-seat search, its pruning and all, with partners
    // cooperating as one side (algo=paranoid asks for the many-seat search
    // instead). Other teams: the paranoid search (the root seat's team
    // maximising, the other team minimising); best-reply does not model
    // partners.
    if (rules->nseats() == 2 || (playsAsTwoSides(*rules) && algo != MultiAlgorithm::kParanoid))
      two_ = std::make_unique<Search>(rules, eval_, config);
    else multi_ = std::make_unique<MultiSearch>(rules, eval_, config, rules->teams ? MultiAlgorithm::kParanoid : algo);
  }

  std::string name() const override { return "acedrex level " + std::to_string(level_); }

  SearchResult choose(const Game& game, const SearchLimits& limits, std::atomic<bool>& stop,
                      const std::function<void(const SearchInfo&)>& onInfo) override {
    SearchLimits l = limits;
    const int seat = game.position().toMove();
    const bool bounded = l.infinite || l.depth > 0 || l.nodes > 0 || l.moveTimeMs > 0 || l.timeMs[seat] >= 0;
    if (!bounded) l.moveTimeMs = 1000;  // never search forever without being asked to
    if (rules_->fog && !game.finished()) {
      // Fog of war: the bot searches a position built from its own view
      // (core/mechanisms/fog.h) and never the real one; its legal moves are the same.
      Game view(rules_, game.seed());
      if (view.setStart(viewSampleText(game.position(), seat)).ok() && !view.finished())
        return two_->run(view, l, stop, onInfo);
      // Never the real position: without a sample, the first legal move.
      SearchResult first;
      Game copy(game);
      for (Move m : copy.legalMoves())
        if (isSearchMove(l, m)) {
          first.found = true;
          first.best = m;
          break;
        }
      return first;
    }
    return two_ ? two_->run(game, l, stop, onInfo) : multi_->run(game, l, stop, onInfo);
  }

  void newGame() override {
    if (two_) two_->clear();
  }

 private:
  std::shared_ptr<const Rules> rules_;
  int level_;
  Evaluator eval_;
  std::unique_ptr<Search> two_;
  std::unique_ptr<MultiSearch> multi_;
};

}  // namespace

std::unique_ptr<Bot> makeBot(std::shared_ptr<const Rules> rules, int level, uint64_t seed) {
  return std::make_unique<EngineBot>(std::move(rules), level, seed, MultiAlgorithm::kBrsPlus, true, nullptr);
}

std::unique_ptr<Bot> makeBotWith(std::shared_ptr<const Rules> rules, int level, uint64_t seed,
                                 MultiAlgorithm algorithm, bool chanceNodes,
                                 std::shared_ptr<const EvalParams> params) {
  return std::make_unique<EngineBot>(std::move(rules), level, seed, algorithm, chanceNodes, params.get());
}

std::string describeLevel(int level) {
  level = std::clamp(level, 1, kFullStrength);
  const LevelSpec& s = kLevels[level];
  std::ostringstream o;
  o << "level " << level << ": ";
  if (level == kFullStrength) {
    o << "full strength (limited only by the clock)";
    return o.str();
  }
  if (s.depth) o << "depth " << s.depth;
  if (s.nodes) o << (s.depth ? ", " : "") << s.nodes << " nodes";
  if (s.noise) o << ", root noise +/-" << s.noise << " cp";
  return o.str();
}

}  // namespace acedrex::engine
