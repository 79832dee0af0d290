// Google Benchmark: perft and move generation per variant. Speeds, never tests.
#include <benchmark/benchmark.h>

#include "core/position/perft.h"
#include "core/position/position.h"
#include "core/variant/variant.h"

namespace {

using namespace acedrex;

void perftBench(benchmark::State& state, const char* variant, std::vector<std::string> options, int depth) {
  static const VariantRegistry reg = VariantRegistry::withEmbedded();
  auto rules = reg.rules(variant, options);
  if (!rules.ok()) {
    state.SkipWithError(rules.error().text().c_str());
    return;
  }
  Position pos(rules.value());
  (void)pos.set((*rules)->start);
  uint64_t nodes = 0;
  for (auto _ : state) nodes += perft(pos, depth);
  state.counters["nps"] = benchmark::Counter(static_cast<double>(nodes), benchmark::Counter::kIsRate);
}

BENCHMARK_CAPTURE(perftBench, shako_d3, "shako", {}, 3)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(perftBench, four_seasons_d5, "four-seasons", {}, 5)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(perftBench, joko_d3, "joko-urtaroak", {}, 3)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(perftBench, grant_d2, "grant-acedrex", {"king-leap=yes", "pawn-double=always"}, 2)
    ->Unit(benchmark::kMillisecond);

void legalMovesBench(benchmark::State& state) {
  static const VariantRegistry reg = VariantRegistry::withEmbedded();
  auto rules = reg.rules("shako", {});
  Position pos(rules.value());
  (void)pos.set("4kc3c/ernbq1b1re/ppp3p1pp/3p2pp2/4p5/5P4/2PN2P3/PP1PP2PPP/ER1BQKBNR1/5C3C w KQ - 0 9");
  MoveList list;
  for (auto _ : state) {
    pos.legalMoves(list);
    benchmark::DoNotOptimize(list.size());
  }
}
BENCHMARK(legalMovesBench);

}  // namespace
