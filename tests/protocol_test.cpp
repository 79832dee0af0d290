// The protocol layer: the UCI session (Fairy-Stockfish conventions and the
// N-player extension) and the match driver (scores, Elo, engine specs,
// forfeits of outside engines), and the child processes they run.
#include <signal.h>
#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "engine/bot.h"
#include "engine/search_base.h"
#include "protocol/child_process.h"
#include "protocol/match.h"
#include "protocol/uci.h"
#include "test_util.h"

namespace acedrex::test {
namespace {

// --- UCI ---------------------------------------------------------------------

struct UciHarness {
  VariantRegistry reg = VariantRegistry::withEmbedded();
  std::vector<std::string> out;
  std::mutex mu;
  UciHarness() : session(reg, [this](const std::string& l) {
                   std::lock_guard<std::mutex> lock(mu);
                   out.push_back(l);
                 }) {}
  protocol::UciSession session;
  bool saw(const std::string& prefix) {
    std::lock_guard<std::mutex> lock(mu);
    for (const auto& l : out)
      if (l.rfind(prefix, 0) == 0) return true;
    return false;
  }
  // Sets the variant and the position (a `position` command's arguments),
  // sends `go` and waits for its search to end.
  void run(const std::string& variant, const std::string& position, const std::string& go) {
    session.handle("setoption name UCI_Variant value " + variant);
    session.handle("position " + position);
    session.handle(go);
    session.waitForSearch();
  }
  // The deepest `info depth` and the last bestmove's move ("" if none).
  int deepest() {
    std::lock_guard<std::mutex> lock(mu);
    int d = 0;
    for (const auto& l : out)
      if (l.rfind("info depth ", 0) == 0) d = std::max(d, std::stoi(l.substr(11)));
    return d;
  }
  std::string bestmove() {
    std::lock_guard<std::mutex> lock(mu);
    std::string move;
    for (const auto& l : out)
      if (l.rfind("bestmove ", 0) == 0) move = l.substr(9, l.find(' ', 9) - 9);
    return move;
  }
};

TEST(Uci, HandshakeListsVariantsAndOptions) {
  UciHarness h;
  h.session.handle("uci");
  EXPECT_TRUE(h.saw("id name Acedrex"));
  EXPECT_TRUE(h.saw("option name UCI_Variant type combo default shako"));
  EXPECT_TRUE(h.saw("option name takeover type combo"));
  EXPECT_TRUE(h.saw("uciok"));
  h.session.handle("isready");
  EXPECT_TRUE(h.saw("readyok"));
}

TEST(Uci, GoDepthGivesBestmove) {
  UciHarness h;
  h.session.handle("position startpos moves e3e4");
  h.session.handle("go depth 3");
  h.session.waitForSearch();
  EXPECT_TRUE(h.saw("info depth 3"));
  EXPECT_TRUE(h.saw("bestmove "));
}

// Xiangqi and janggi by their Fairy-Stockfish names: `go movetime 200` gives
// a legal move (the pass `e2e2` included in janggi) after a few moves.
TEST(Uci, XiangqiAndJanggiGiveLegalMoves) {
  for (const auto& [variant, moves] : {std::pair<std::string, std::string>{"xiangqi", "h3e3 h10g8"},
                                       {"janggi", "e2e2 b10c8"}}) {
    UciHarness h;
    h.run(variant, "startpos moves " + moves, "go movetime 200");
    const std::string best = h.bestmove();
    Game g(rules(variant));
    ASSERT_TRUE(g.playAll(moves).ok()) << variant;
    EXPECT_TRUE(g.play(best).ok()) << variant << " bestmove " << best;
    EXPECT_FALSE(h.saw("info string error")) << variant;
  }
}

// The clock of the seat to move (Red, after Green's a6a5) sets the search's
// time budget, whatever the other seats' clocks say. Without measuring time:
// a clock of 0 ms gives a budget of 1 ms, and a search with a budget stops
// after the first iteration that has used half of it, so it never reports
// depth 2; a long clock lets a depth-limited search reach its depth.
TEST(Uci, FourSeatsWithPerSeatClocks) {
  auto search = [](const std::string& go) {
    UciHarness h;
    h.run("four-seasons", "startpos moves a6a5", go);
    EXPECT_TRUE(h.saw("bestmove ")) << go;
    EXPECT_FALSE(h.saw("info string error")) << go;
    return h.deepest();
  };
  // Red's clock is long, the others are out of time: Red's is the one used.
  EXPECT_EQ(search("go depth 3 gtime 0 rtime 600000 btime 0 wtime 0 ginc 0 rinc 10 binc 0 winc 0"), 3);
  // Red is out of time, the others have plenty: an immediate move.
  EXPECT_LE(search("go depth 3 gtime 600000 rtime 0 btime 600000 wtime 600000"), 1);
  // The budgets themselves, per seat.
  engine::SearchLimits limits;
  limits.timeMs = {0, 60000, 0, 0};
  limits.incMs = {0, 900, 0, 0};
  EXPECT_EQ(engine::budgetFor(limits, 1).softMs, 60000 / 30 + 900 * 3 / 4);
  EXPECT_EQ(engine::budgetFor(limits, 0).softMs, 1);
  EXPECT_EQ(engine::budgetFor(limits, 0).hardMs, 1);
}

// `position fen` with a king already on its castling square that keeps its
// right: the generator used to loop for ever (segfault) on it. The counts
// and the castling's text are Fairy-Stockfish 11.1's.
TEST(Uci, PositionFenWithTheKingOnItsCastlingSquare) {
  UciHarness h;
  const std::string fen = "c8c/ernbqkbnre/pppppppppp/10/10/10/10/PPPPPPPPPP/ERNBQ2KRE/C8C w Kkq - 0 1";
  h.session.handle("position fen " + fen);
  h.session.handle("go perft 2");
  EXPECT_TRUE(h.saw("h2h2: 58"));
  EXPECT_TRUE(h.saw("Nodes searched: 3306"));
  h.session.handle("position fen " + fen + " moves h2h2");
  h.session.handle("d");
  EXPECT_NE(h.out.back().find("ERNBQ1RK1E/C8C b kq - 1 1"), std::string::npos) << h.out.back();
  h.session.handle("go depth 2");
  h.session.waitForSearch();
  EXPECT_TRUE(h.saw("bestmove "));
}

// `go searchmoves`: the search chooses among the listed legal moves only,
// even when another move mates at once; the list ends at the next limit.
// A move that is not legal, or an empty list, is an error and starts no search.
TEST(Uci, GoSearchmovesChoosesAmongTheListedMoves) {
  auto best = [](const std::string& go) {
    UciHarness h;
    h.run("chess", "startpos moves f2f3 e7e5 g2g4", go);  // Fool's mate is one move away for Black: d8h4
    EXPECT_FALSE(h.saw("info string error")) << go;
    return std::pair{h.bestmove(), h.deepest()};
  };
  EXPECT_EQ(best("go depth 3").first, "d8h4");
  const auto [two, depth] = best("go searchmoves a7a6 h7h6 depth 3");
  EXPECT_TRUE(two == "a7a6" || two == "h7h6") << two;
  EXPECT_EQ(depth, 3);
  EXPECT_EQ(best("go depth 3 searchmoves b8c6").first, "b8c6");
  for (const char* bad :
       {"go searchmoves", "go depth 2 searchmoves e2e4", "go searchmoves a7a6 nonsense", "go searchmoves depth 2"}) {
    UciHarness h;
    h.run("chess", "startpos moves f2f3 e7e5 g2g4", bad);
    EXPECT_TRUE(h.saw("info string error")) << bad;
    EXPECT_FALSE(h.saw("bestmove")) << bad;
  }
}

// A position the rules draw (threefold repetition, insufficient material,
// the fifty-move count) still has legal moves: the engine names one, as a
// UCI engine must, and says in an info line that the GUI may end the game.
// A mate or stalemate has none: `bestmove (none)`.
TEST(Uci, DrawnByRuleStillAnswersALegalMove) {
  const std::vector<std::pair<std::string, std::string>> drawn = {
      {"startpos moves g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8", "repetition"},
      {"fen 8/8/8/4k3/8/8/8/4KN2 w - - 0 1", "knight against king"},
      {"fen 8/8/8/4k3/8/8/8/R3K3 w - - 100 80", "fifty moves"},
  };
  for (const auto& [position, why] : drawn) {
    UciHarness h;
    h.run("chess", position, "go depth 2");
    EXPECT_TRUE(h.saw("info string the position is drawn by rule")) << why;
    const std::string best = h.bestmove();
    Game g(rules("chess"));
    g.leaveRuleDrawsToCaller();
    const auto space = position.find(' ');
    if (position.rfind("fen ", 0) == 0) ASSERT_TRUE(g.setStart(position.substr(4)).ok()) << why;
    else ASSERT_TRUE(g.playAll(position.substr(space + 7)).ok()) << why;
    EXPECT_TRUE(g.play(best).ok()) << why << ": " << best;
  }
  UciHarness mated;
  mated.run("chess", "startpos moves f2f3 e7e5 g2g4 d8h4", "go depth 2");
  EXPECT_EQ(mated.bestmove(), "(none)");
  EXPECT_FALSE(mated.saw("info string the position is drawn"));
}

TEST(Uci, PerftMatchesTheReference) {
  UciHarness h;
  h.session.handle("position startpos");
  h.session.handle("go perft 2");
  EXPECT_TRUE(h.saw("Nodes searched: 3364"));
}

TEST(Uci, MalformedInputIsAnsweredAndChangesNothing) {
  UciHarness h;
  h.session.handle("position startpos moves e3e4");
  for (const char* bad : {"position fen nonsense", "position startpos moves e3e4 e3e4", "go depth x",
                          "go wtime", "setoption name UCI_Variant value nosuchgame", "setoption name Level value 12",
                          "frobnicate", "position", "go ztime 100", "setoption"}) {
    const size_t before = h.out.size();
    EXPECT_TRUE(h.session.handle(bad));
    ASSERT_GT(h.out.size(), before) << bad;
    EXPECT_EQ(h.out.back().rfind("info string error", 0), 0u) << bad << " -> " << h.out.back();
  }
  h.session.handle("d");
  EXPECT_NE(h.out.back().find("PPPP1PPPPP"), std::string::npos) << h.out.back();  // still after e3e4
}

TEST(Match, EloIntervalFromScores) {
  const auto games = [](int wins, int draws, int losses) {
    std::vector<double> v(wins, 1.0);
    v.insert(v.end(), draws, 0.5);
    v.insert(v.end(), losses, 0.0);
    return v;
  };
  // Even: 0 Elo, symmetric interval (Wilson: 0.299 to 0.701).
  auto even = protocol::estimateElo(games(10, 0, 10), 0.5);
  EXPECT_NEAR(even.elo, 0, 1e-9);
  EXPECT_NEAR(even.high, 147.3, 0.5);
  EXPECT_NEAR(even.low, -even.high, 1e-9);
  // 60%: +70 Elo; draws narrow the interval against the same score without them.
  auto sixty = protocol::estimateElo(games(12, 0, 8), 0.5);
  EXPECT_NEAR(sixty.elo, 70.4, 0.1);
  auto sixtyDrawn = protocol::estimateElo(games(8, 8, 4), 0.5);
  EXPECT_NEAR(sixtyDrawn.elo, 70.4, 0.1);
  EXPECT_LT(sixtyDrawn.high - sixtyDrawn.low, sixty.high - sixty.low);
  // A perfect score has no upper bound but a finite lower one, and the reverse.
  auto perfect = protocol::estimateElo(games(20, 0, 0), 0.5);
  EXPECT_TRUE(std::isinf(perfect.elo) && perfect.elo > 0);
  EXPECT_TRUE(std::isinf(perfect.high) && perfect.high > 0);
  EXPECT_NEAR(perfect.low, 286.6, 0.5);
  auto zero = protocol::estimateElo(games(0, 0, 20), 0.5);
  EXPECT_TRUE(std::isinf(zero.low) && zero.low < 0);
  EXPECT_NEAR(zero.high, -286.6, 0.5);
  // Four seats, four engines: a sole win a quarter of the time is equal.
  auto four = protocol::estimateElo(games(10, 0, 30), 0.25);
  EXPECT_NEAR(four.elo, 0, 1e-9);
  EXPECT_LT(four.low, 0);
  EXPECT_GT(four.high, 0);
  EXPECT_EQ(protocol::estimateElo({}, 0.5).elo, 0);
}

TEST(Match, PairwiseScoreCountsEveryPairAndSharedPlaces) {
  // Four seats, two and two: seats 0 and 2 of the first name, 1 and 3 of the second.
  const std::vector<int> twoAndTwo = {0, 1, 0, 1};
  // Places 1, 2, 3, 4: seat 0 beats both, seat 2 beats seat 3 only: 3 of 4 pairs.
  auto p = protocol::pairwiseScore({1, 2, 3, 4}, twoAndTwo);
  EXPECT_EQ(p.pairs, 4);
  EXPECT_DOUBLE_EQ(p.points, 3.0);
  // Shared places: seats 0 and 1 share first, seats 2 and 3 share third.
  // (0,1) 1/2, (0,3) 1, (2,1) 0, (2,3) 1/2: 2 of 4.
  p = protocol::pairwiseScore({1, 1, 3, 3}, twoAndTwo);
  EXPECT_EQ(p.pairs, 4);
  EXPECT_DOUBLE_EQ(p.points, 2.0);
  // Seat 0 shares first with seat 3, seat 2 is last, seat 1 third: (0,1) 1,
  // (0,3) 1/2, (2,1) 0, (2,3) 0.
  p = protocol::pairwiseScore({1, 3, 4, 1}, twoAndTwo);
  EXPECT_DOUBLE_EQ(p.points, 1.5);
  // Three seats, one against two and two against one; a seat of neither name is left out.
  p = protocol::pairwiseScore({2, 1, 3}, {0, 1, 1});
  EXPECT_EQ(p.pairs, 2);
  EXPECT_DOUBLE_EQ(p.points, 1.0);
  p = protocol::pairwiseScore({2, 2, 1}, {0, 0, 1});
  EXPECT_EQ(p.pairs, 2);
  EXPECT_DOUBLE_EQ(p.points, 0.0);
  p = protocol::pairwiseScore({3, 1, 2, 4}, {0, 1, -1, 1});
  EXPECT_EQ(p.pairs, 2);
  EXPECT_DOUBLE_EQ(p.points, 1.0);
  // A draw between everyone: every pair 1/2.
  p = protocol::pairwiseScore({1, 1, 1}, {0, 1, 1});
  EXPECT_DOUBLE_EQ(p.points, 1.0);

  // The interval over games: mean 0.625 of 0.75, 0.5, 1, 0.25 (sample sd 0.3227);
  // half width 1.96 * 0.3227 / 2.
  const auto m = protocol::meanInterval({0.75, 0.5, 1.0, 0.25});
  EXPECT_NEAR(m.mean, 0.625, 1e-12);
  EXPECT_NEAR(m.sd, 0.322749, 1e-6);
  EXPECT_NEAR(m.low, 0.625 - 0.316294, 1e-6);
  EXPECT_NEAR(m.high, 0.625 + 0.316294, 1e-6);
  // Clamped to [0, 1]; one game says nothing: 0 to 1.
  const auto high = protocol::meanInterval({1.0, 1.0, 1.0, 0.0});
  EXPECT_NEAR(high.mean, 0.75, 1e-12);
  EXPECT_DOUBLE_EQ(high.high, 1.0);
  const auto one = protocol::meanInterval({0.75});
  EXPECT_DOUBLE_EQ(one.mean, 0.75);
  EXPECT_DOUBLE_EQ(one.low, 0.0);
  EXPECT_DOUBLE_EQ(one.high, 1.0);
}

TEST(Match, EngineSpecLoadsEvaluationParameters) {
  const std::string path = ::testing::TempDir() + "acedrex_spec.params";
  {
    std::ofstream f(path);
    f << "piece Q 1000 1\npiece C 333 2\nhanging 7\n";
  }
  auto spec = protocol::parseEngineSpec("level=9,params=" + path + ",name=t");
  ASSERT_TRUE(spec.ok()) << spec.error().text();
  ASSERT_TRUE(spec->params);
  EXPECT_EQ(spec->params->pieces.at('Q').value, 1000);
  EXPECT_EQ(spec->params->pieces.at('C').value, 333);
  EXPECT_EQ(spec->params->hanging, 7);
  EXPECT_FALSE(protocol::parseEngineSpec("level=9").value().params);

  auto missing = protocol::parseEngineSpec("params=/nonexistent/x.params");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().text().find("cannot read"), std::string::npos) << missing.error().text();
  {
    std::ofstream f(path);
    f << "piece Q lots\n";
  }
  auto bad = protocol::parseEngineSpec("params=" + path);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().text().find("params line 1"), std::string::npos) << bad.error().text();
  std::remove(path.c_str());
}

// An outside engine that gives no move, or a move the rules refuse, forfeits,
// and the record says which.
TEST(Match, ForfeitSaysWhyTheEngineGaveNoMove) {
  const VariantRegistry reg = VariantRegistry::withEmbedded();
  const auto termination = [&](const std::string& onGo) {
    const std::string script = ::testing::TempDir() + "acedrex_fake_uci.sh";
    {
      std::ofstream f(script);
      f << "#!/bin/sh\nwhile read line; do\n  case \"$line\" in\n    uci) echo uciok;;\n"
           "    isready) echo readyok;;\n    go*) " << onGo << ";;\n    quit) exit 0;;\n  esac\ndone\n";
    }
    chmod(script.c_str(), 0755);
    const std::string pgn = ::testing::TempDir() + "acedrex_forfeit.pgn";
    protocol::MatchConfig c;
    c.variant = "chess";
    c.engines = {protocol::parseEngineSpec("uci=" + script + ",name=fake").value(),
                 protocol::parseEngineSpec("level=1,name=bot").value()};
    c.games = 1;  // game 0: the first engine has white and moves first
    c.moveTimeMs = 10;
    c.pgnPath = pgn;
    std::ostringstream log;
    auto report = protocol::runMatch(reg, c, log);
    EXPECT_TRUE(report.ok()) << (report.ok() ? "" : report.error().text());
    std::ifstream in(pgn);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::remove(pgn.c_str());
    std::remove(script.c_str());
    EXPECT_NE(text.find("[Result \"0-1\"]"), std::string::npos) << text;
    const size_t at = text.find("[Termination \"");  // the tag's value, with PGN's escapes (\")
    return at == std::string::npos ? std::string() : text.substr(at + 14, text.find("\"]", at + 14) - at - 14);
  };
  EXPECT_EQ(termination("exit 0"),
            "forfeit: fake gave no move: its output closed before bestmove (the engine exited?)");
  EXPECT_EQ(termination("echo bestmove"), "forfeit: fake gave no move: it answered \\\"bestmove\\\"");
  EXPECT_EQ(termination("echo bestmove e2e5"), "forfeit: fake played \\\"e2e5\\\"");
}

// --- child processes -----------------------------------------------------------

TEST(ChildProcess, WritesALineAndReadsItBack) {
  protocol::ChildProcess cat;
  ASSERT_TRUE(cat.start("/bin/cat").ok());
  ASSERT_TRUE(cat.writeLine("hello there"));
  std::string line;
  ASSERT_EQ(cat.readLine(&line, 5000), protocol::ChildProcess::Read::kLine);
  EXPECT_EQ(line, "hello there");
  cat.closeInput();  // cat sees the end of its input and exits
  EXPECT_EQ(cat.readLine(&line, 5000), protocol::ChildProcess::Read::kEnd);
  EXPECT_EQ(cat.wait(), 0);
}

TEST(ChildProcess, AReadTimesOutWhenNothingComes) {
  protocol::ChildProcess cat;
  ASSERT_TRUE(cat.start("/bin/cat").ok());
  std::string line;
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_EQ(cat.readLine(&line, 100), protocol::ChildProcess::Read::kTimeout);
  EXPECT_GE(std::chrono::steady_clock::now() - t0, std::chrono::milliseconds(90));
  EXPECT_EQ(cat.readUntil("bestmove", 50), "");
  EXPECT_EQ(cat.why(), "no bestmove within 50 ms");
}

TEST(ChildProcess, ReadUntilPassesTheLinesBeforeIt) {
  protocol::ChildProcess sh;
  ASSERT_TRUE(sh.start("/bin/sh", {"-c", "echo info one; printf 'info two\\r\\n'; echo bestmove e2e4; echo tail"}).ok());
  std::vector<std::string> seen;
  EXPECT_EQ(sh.readUntil("bestmove", 5000, [&](const std::string& l) { seen.push_back(l); }), "bestmove e2e4");
  EXPECT_EQ(seen, (std::vector<std::string>{"info one", "info two"}));
  EXPECT_EQ(sh.readUntil("bestmove", 5000), "");
  EXPECT_EQ(sh.why(), "its output closed before bestmove (the engine exited?)");
}

TEST(ChildProcess, ExitStatusAndAProgramThatCannotRun) {
  protocol::ChildProcess three;
  ASSERT_TRUE(three.start("/bin/sh", {"-c", "exit 3"}).ok());
  EXPECT_EQ(three.wait(), 3);
  protocol::ChildProcess missing;
  ASSERT_TRUE(missing.start("/nonexistent/engine").ok());
  EXPECT_EQ(missing.wait(), 127);
}

TEST(ChildProcess, StopKillsAChildThatDoesNotExit) {
  protocol::ChildProcess stubborn;
  // It ignores its input's end and "quit": stop() kills it after the grace time.
  ASSERT_TRUE(stubborn.start("/bin/sh", {"-c", "trap '' TERM; while :; do sleep 1; done"}).ok());
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_EQ(stubborn.stop("quit", 100), 128 + 9);  // SIGKILL
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(5));
  EXPECT_FALSE(stubborn.started());
}

TEST(ChildProcess, TheDestructorEndsTheChild) {
  pid_t pid = -1;
  {
    protocol::ChildProcess sh;
    ASSERT_TRUE(sh.start("/bin/sh", {"-c", "echo $$; while :; do sleep 1; done"}).ok());
    std::string line;
    ASSERT_EQ(sh.readLine(&line, 5000), protocol::ChildProcess::Read::kLine);
    pid = static_cast<pid_t>(std::stol(line));
    ASSERT_GT(pid, 0);
    EXPECT_EQ(kill(pid, 0), 0);  // it runs
  }
  EXPECT_NE(kill(pid, 0), 0);  // reaped: no such process
}

}  // namespace
}  // namespace acedrex::test
