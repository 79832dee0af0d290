// The Texel tuner (tools/tune): PGN reading, position extraction, the data
// file, the fit of k and the local search on small synthetic data sets.
#include <cmath>

#include "core/records/pgn.h"
#include "engine/eval.h"
#include "test_util.h"
#include "tune/tuner.h"

namespace acedrex::test {
namespace {

// Shako positions that differ only by a missing knight: the side with the
// extra knight always wins, equal material is a draw. Three pawn structures
// per side, either side to move.
std::vector<tune::Sample> knightSamples() {
  const std::vector<std::pair<std::string, std::string>> white = {
      {"10", "PPPPPPPPPP"}, {"4P5", "PPPP1PPPPP"}, {"5P4", "PPPPP1PPPP"}};
  const std::vector<std::pair<std::string, std::string>> black = {
      {"pppppppppp", "10"}, {"pppp1ppppp", "4p5"}, {"ppppp1pppp", "5p4"}};
  // Back ranks: full, or one knight missing; the result from White's view.
  struct Backs { std::string w, b; double result; };
  const std::vector<Backs> backs = {{"ERNBQKBNRE", "ernbqkbnre", 0.5},
                                    {"ER1BQKBNRE", "ernbqkbnre", 0.0},
                                    {"ERNBQKB1RE", "ernbqkbnre", 0.0},
                                    {"ERNBQKBNRE", "er1bqkbnre", 1.0},
                                    {"ERNBQKBNRE", "ernbqkb1re", 1.0}};
  std::vector<tune::Sample> out;
  for (const auto& w : white)
    for (const auto& b : black)
      for (const auto& k : backs)
        for (const char* side : {"w", "b"}) {
          const std::string fen = "c8c/" + k.b + "/" + b.first + "/" + b.second + "/10/10/" + w.first + "/" +
                                  w.second + "/" + k.w + "/C8C " + side + " KQkq - 0 1";
          out.push_back(tune::Sample{fen, k.result, 0});
        }
  return out;
}

TEST(Tune, RaisesAnUnderratedPieceAndLowersTheError) {
  auto r = rules("shako");
  auto data = tune::Dataset::build(r, knightSamples());
  ASSERT_TRUE(data.ok()) << data.error().text();
  EXPECT_EQ(data->size(), 90u);
  engine::EvalParams params = engine::defaultEvalParams(*r);
  params.pieces['N'].value = 40;  // deliberately far too low
  tune::TuneOptions opt;
  opt.maxPasses = 30;
  const auto report = tune::tune(*data, params, opt);
  EXPECT_GT(report.k, 0);
  EXPECT_LT(report.errorAfter, report.errorBefore);
  EXPECT_LT(report.errorAfter, 0.5 * report.errorBefore);
  EXPECT_GT(params.pieces['N'].value, 100);
  // The reported error is the error of the parameters returned.
  EXPECT_NEAR(data->error(params, report.k), report.errorAfter, 1e-12);
}

TEST(Tune, LeavesFrozenParametersAlone) {
  auto r = rules("shako");
  auto data = tune::Dataset::build(r, knightSamples());
  ASSERT_TRUE(data.ok());
  engine::EvalParams params = engine::defaultEvalParams(*r);
  params.pieces['N'].value = 40;
  const int tempo = params.tempo;
  tune::TuneOptions opt;
  opt.maxPasses = 5;
  opt.freeze = {"piece *:1", "tempo"};
  tune::tune(*data, params, opt);
  EXPECT_EQ(params.pieces['N'].value, 40);
  EXPECT_EQ(params.tempo, tempo);
  EXPECT_TRUE(tune::matchesPattern("piece Q:1", "piece *:1"));
  EXPECT_FALSE(tune::matchesPattern("piece Q:2", "piece *:1"));
}

TEST(Tune, IsDeterministic) {
  auto r = rules("shako");
  auto data = tune::Dataset::build(r, knightSamples());
  ASSERT_TRUE(data.ok());
  engine::EvalParams a = engine::defaultEvalParams(*r), b = a;
  a.pieces['N'].value = b.pieces['N'].value = 100;
  tune::TuneOptions opt;
  opt.maxPasses = 3;
  tune::tune(*data, a, opt);
  opt.threads = 2;  // threads split the positions; the result must not change
  tune::tune(*data, b, opt);
  EXPECT_EQ(a.toText("shako"), b.toText("shako"));
}

TEST(Tune, EvaluationsAreFromWhitesView) {
  auto r = rules("shako");
  // The same material edge for White, once with White and once with Black to move.
  auto data = tune::Dataset::build(r, {{"c8c/er1bqkbnre/pppppppppp/10/10/10/10/PPPPPPPPPP/ERNBQKBNRE/C8C w KQkq - 0 1", 1, 0},
                                       {"c8c/er1bqkbnre/pppppppppp/10/10/10/10/PPPPPPPPPP/ERNBQKBNRE/C8C b KQkq - 0 1", 1, 0}});
  ASSERT_TRUE(data.ok());
  const engine::Evaluator ev(r, engine::defaultEvalParams(*r));
  const auto e = data->whiteEvals(ev);
  EXPECT_GT(e[0], 100);
  EXPECT_GT(e[1], 100);
}

TEST(Tune, FitsAKnownScale) {
  // Results drawn so that the share of wins at eval e is sigmoid(0.006 * e) exactly (in hundredths).
  const double k0 = 0.006;
  auto r = rules("shako");
  std::vector<tune::Sample> samples;
  std::vector<int> evals;
  for (int e = -400; e <= 400; e += 50) {
    const int wins = static_cast<int>(std::lround(100 * tune::sigmoid(k0, e)));
    for (int i = 0; i < 100; ++i) {
      samples.push_back(tune::Sample{r->start, i < wins ? 1.0 : 0.0, 0});
      evals.push_back(e);
    }
  }
  auto data = tune::Dataset::build(r, samples);
  ASSERT_TRUE(data.ok());
  const double k = tune::fitK(*data, evals);
  EXPECT_NEAR(k, k0, 0.05 * k0);
  EXPECT_LT(data->error(evals, k), data->error(evals, 2 * k0));
  EXPECT_LT(data->error(evals, k), data->error(evals, k0 / 2));
}

TEST(Tune, NamesEveryTunable) {
  auto r = rules("shako");
  const auto params = engine::defaultEvalParams(*r);
  const auto names = tune::tunableNames(params, "shako");
  engine::EvalParams copy = params;
  ASSERT_EQ(names.size(), copy.tunables().size());
  EXPECT_NE(std::find(names.begin(), names.end(), "piece N:1"), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "piece N:2"), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "tempo"), names.end());
}

TEST(Tune, DataFileRoundTripAndErrors) {
  const std::vector<tune::Sample> s = {{"8/8/8/8/8/8/8/K6k w - - 0 1", 1, 0}, {"x", 0.5, 0}, {"y", 0, 0}};
  auto back = tune::parseSamples(tune::formatSamples(s, "a header\nof two lines"), "d.txt");
  ASSERT_TRUE(back.ok()) << back.error().text();
  ASSERT_EQ(back->size(), 3u);
  EXPECT_EQ((*back)[0].position, s[0].position);
  EXPECT_EQ((*back)[0].result, 1);
  EXPECT_EQ((*back)[1].result, 0.5);
  EXPECT_EQ((*back)[2].result, 0);
  EXPECT_EQ((*back)[2].line, 5);  // after the two header lines

  auto bad = tune::parseSamples("# ok\nfen w - - 0 1 ; 1\nfen w - - 0 1 ; 2\n", "d.txt");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().text().find("d.txt line 3"), std::string::npos) << bad.error().text();
  EXPECT_NE(bad.error().text().find("1, 0.5 or 0"), std::string::npos);

  // A teacher's label between 0 and 1 is read as it is; anything else is refused.
  auto labels = tune::parseSamples("fen w - - 0 1 ; 0.7316\nfen b - - 0 1 ; 1/2-1/2\n", "d.txt");
  ASSERT_TRUE(labels.ok()) << labels.error().text();
  EXPECT_DOUBLE_EQ((*labels)[0].result, 0.7316);
  EXPECT_DOUBLE_EQ((*labels)[1].result, 0.5);
  for (const char* res : {"1.5", "-0.2", ".", "0.5.1", "0x1", "nan", ""}) {
    auto refused = tune::parseSamples(std::string("fen w - - 0 1 ; ") + res + "\n", "d.txt");
    EXPECT_FALSE(refused.ok()) << res;
  }

  auto noSemi = tune::parseSamples("fen w - - 0 1 1\n", "d.txt");
  ASSERT_FALSE(noSemi.ok());
  EXPECT_NE(noSemi.error().text().find("d.txt line 1"), std::string::npos);

  // A position the variant cannot set up names its line.
  auto samples = tune::parseSamples("# x\nnot a position ; 0.5\n", "d.txt");
  ASSERT_TRUE(samples.ok());
  auto data = tune::Dataset::build(rules("shako"), *samples, "d.txt");
  ASSERT_FALSE(data.ok());
  EXPECT_NE(data.error().text().find("d.txt line 2"), std::string::npos) << data.error().text();
}

// A game of legal moves picked by a fixed rule, ended by a resignation.
Game pseudoRandomGame(const std::shared_ptr<const Rules>& r, int plies, int loser) {
  Game g(r, 1);
  uint64_t x = 12345;
  for (int i = 0; i < plies && !g.finished(); ++i) {
    const auto moves = g.legalMoves();
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    EXPECT_TRUE(g.play(moves[(x >> 33) % moves.size()]).ok());
  }
  if (!g.finished()) g.resign(loser);
  return g;
}

TEST(Tune, ExtractsFromRecordsWrittenByTheMatchRunner) {
  auto r = rules("shako");
  const Game g1 = pseudoRandomGame(r, 60, 1);
  const Game g2 = pseudoRandomGame(r, 60, 0);  // the same moves, Black wins: every position a duplicate
  const std::string pgn = writePgn(g1) + "\n" + writePgn(g2);
  auto games = readPgn(pgn, "m.pgn");
  ASSERT_TRUE(games.ok()) << games.error().text();
  ASSERT_EQ(games->size(), 2u);
  ASSERT_EQ((*games)[0].moves.size(), g1.record().size() - 1);  // the resignation is in [Result] and [Termination]

  const auto reg = VariantRegistry::withEmbedded();
  tune::ExtractOptions all;
  all.skipPlies = 4;
  all.quietOnly = false;
  tune::ExtractStats st;
  const auto samples = tune::extractSamples(reg, "shako", *games, all, st);
  EXPECT_EQ(st.gamesUsed, 2);
  EXPECT_EQ(st.positions, 120);
  EXPECT_EQ(st.early, 8);
  EXPECT_EQ(st.duplicates, 56);
  EXPECT_EQ(samples.size(), 56u);
  for (const auto& s : samples) EXPECT_EQ(s.result, 1);  // the first occurrence: g1, won by White

  tune::ExtractOptions quiet;
  tune::ExtractStats qs;
  const auto q = tune::extractSamples(reg, "shako", *games, quiet, qs);
  EXPECT_EQ(qs.early + qs.finished + qs.inCheck + qs.afterCapture + qs.winningCapture + qs.duplicates + qs.kept,
            qs.positions);
  EXPECT_LT(q.size(), 56u);
  for (const auto& s : q) {
    Position p(r);
    ASSERT_TRUE(p.set(s.position).ok());
    EXPECT_FALSE(p.inCheck(p.toMove())) << s.position;
  }

  // Other variants and unfinished games are skipped with a reason.
  auto other = readPgn("[Variant \"grant-acedrex\"]\n[Result \"1-0\"]\n\n1. a1a2 1-0\n\n"
                              "[Variant \"shako\"]\n[Result \"*\"]\n\n1. e3e4 *\n\n"
                              "[Variant \"shako\"]\n[Result \"0-1\"]\n\n1. e3e9 0-1\n",
                              "o.pgn");
  ASSERT_TRUE(other.ok());
  tune::ExtractStats os;
  EXPECT_TRUE(tune::extractSamples(reg, "shako", *other, all, os).empty());
  EXPECT_EQ(os.gamesSkipped, 3);
  ASSERT_EQ(os.warnings.size(), 3u);
  EXPECT_NE(os.warnings[2].find("\"e3e9\" is not a legal move"), std::string::npos) << os.warnings[2];
}

}  // namespace
}  // namespace acedrex::test
