// Differential test (slow): seeded random Shako games, compared every 4 plies
// with Debian's Fairy-Stockfish 11.1 by perft divide, and by the position
// text Fairy-Stockfish writes after the same moves.
//
// The one known difference (../shared/RULINGS.md): Fairy-Stockfish 11.1 judges the
// king's castling square before the rook moves, so it allows a few castlings
// into check that we refuse. Such a move is recognised exactly: Fairy-Stockfish
// lists it, we do not, and in our engine the king stands attacked once it is
// made. Any other difference fails; a divide that differs at a move both list
// is followed down into that move until the difference is classified.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <regex>
#include <set>
#include <sstream>

#include "test_util.h"

namespace acedrex::test {
namespace {

constexpr const char* kFsf = "/usr/games/fairy-stockfish";
using Divide = std::map<std::string, uint64_t>;

// Runs Fairy-Stockfish once on a script; returns its output lines.
std::vector<std::string> runFsf(const std::string& commands) {
  char path[] = "/tmp/acedrex-diff-XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0) return {};
  const std::string script = "setoption name UCI_Variant value shako\n" + commands + "quit\n";
  const bool wrote = write(fd, script.data(), script.size()) == static_cast<ssize_t>(script.size());
  close(fd);
  std::vector<std::string> lines;
  if (wrote) {
    if (FILE* p = popen((std::string(kFsf) + " < " + path + " 2>&1").c_str(), "r")) {
      char buf[4096];
      while (std::fgets(buf, sizeof buf, p)) {
        std::string l(buf);
        while (!l.empty() && (l.back() == '\n' || l.back() == '\r')) l.pop_back();
        lines.push_back(l);
      }
      pclose(p);
    }
  }
  unlink(path);
  return lines;
}

// `position` is a UCI position command ("position fen F [moves ...]").
// Perft runs are serialised by Fairy-Stockfish (each "go" waits for the last).
std::vector<Divide> fsfDivide(const std::vector<std::string>& positions, int depth) {
  std::string cmds;
  for (const auto& p : positions) cmds += p + "\ngo perft " + std::to_string(depth) + "\n";
  static const std::regex kMove("^([a-j][0-9]+[a-j][0-9]+[qrbnec]?): ([0-9]+)$");
  std::vector<Divide> out;
  Divide cur;
  uint64_t sum = 0;
  for (const auto& l : runFsf(cmds)) {
    std::smatch m;
    if (std::regex_match(l, m, kMove)) {
      cur[m[1]] = std::stoull(m[2]);
      sum += std::stoull(m[2]);
    } else if (l.rfind("Nodes searched: ", 0) == 0) {
      EXPECT_EQ(std::stoull(l.substr(16)), sum) << "Fairy-Stockfish output not understood";
      out.push_back(cur);
      cur.clear();
      sum = 0;
    }
  }
  return out;
}

// The FEN Fairy-Stockfish reaches for each position command ("d" is answered at once).
std::vector<std::string> fsfFens(const std::vector<std::string>& positions) {
  std::string cmds;
  for (const auto& p : positions) cmds += p + "\nd\n";
  std::vector<std::string> out;
  for (const auto& l : runFsf(cmds))
    if (l.rfind("Fen: ", 0) == 0) out.push_back(l.substr(5));
  return out;
}

std::string withMove(const std::string& position, const std::string& move) {
  return position + (position.find(" moves ") == std::string::npos ? " moves " : " ") + move;
}

struct Stats {
  int positions = 0;  // positions whose divides were compared
  int fsfQueries = 0;
  int knownCastles = 0;  // castlings into check that Fairy-Stockfish 11.1 allows
  int followed = 0;      // differing moves followed one ply down
  std::vector<std::string> unexplained;
  std::vector<std::string> knownExamples;
};

// Whether `text` is a castling we generate but refuse because the king would
// stand attacked once it and its rook have moved.
bool castlesIntoCheck(Position& pos, const std::string& text) {
  MoveList pseudo;
  pos.pseudoMoves(pseudo);
  for (Move m : pseudo) {
    if (m.flag() != kCastle || pos.moveText(m) != text) continue;
    const int us = pos.toMove();
    pos.make(m);
    const bool attacked = pos.attacked(pos.kingSquare(us), pos.enemiesOf(us));
    pos.unmake();
    return attacked;
  }
  return false;
}

void compare(Position& pos, const std::string& fsfPosition, int depth, const Divide& theirs, Stats& st) {
  ++st.positions;
  Divide ours;
  for (const auto& [m, n] : perftDivide(pos, depth)) ours[m] = n;
  std::set<std::string> moves;
  for (const auto& [m, n] : ours) moves.insert(m);
  for (const auto& [m, n] : theirs) moves.insert(m);
  for (const auto& m : moves) {
    const bool inOurs = ours.count(m), inTheirs = theirs.count(m);
    if (inOurs && inTheirs && ours.at(m) == theirs.at(m)) continue;
    if (!inOurs && inTheirs && castlesIntoCheck(pos, m)) {
      ++st.knownCastles;
      if (st.knownExamples.size() < 5) st.knownExamples.push_back(pos.text() + " : " + m);
      continue;
    }
    if (inOurs && inTheirs && depth > 1) {
      ++st.followed;
      auto parsed = pos.parseMove(m);
      if (!parsed.ok()) {
        st.unexplained.push_back(pos.text() + " : " + m + " listed by both but does not parse");
        continue;
      }
      const std::string child = withMove(fsfPosition, m);
      const auto sub = fsfDivide({child}, depth - 1);
      ++st.fsfQueries;
      if (sub.size() != 1) {
        st.unexplained.push_back(child + " : Fairy-Stockfish gave no answer");
        continue;
      }
      pos.make(*parsed);
      compare(pos, child, depth - 1, sub[0], st);
      pos.unmake();
      continue;
    }
    std::ostringstream o;
    o << pos.text() << " (" << fsfPosition << ") depth " << depth << " move " << m << ": ours "
      << (inOurs ? std::to_string(ours.at(m)) : "-") << ", Fairy-Stockfish "
      << (inTheirs ? std::to_string(theirs.at(m)) : "-");
    st.unexplained.push_back(o.str());
  }
}

struct Sample {
  Position pos;         // set from the text of the game's position
  std::string command;  // "position fen TEXT": what Fairy-Stockfish is given to divide
  std::string byMoves;  // "position fen START moves ...": the same reached by moves
};

TEST(ShakoDiffSlow, RandomGamesAgainstFairyStockfish) {
  if (access(kFsf, X_OK) != 0) GTEST_SKIP() << kFsf << " not found";
  auto r = rules("shako");
  ASSERT_TRUE(r);
  const std::vector<std::string> starts = {
      r->start,
      // Minor pieces and queens gone: castling comes early and often.
      "c8c/er3k2re/pppppppppp/10/10/10/10/PPPPPPPPPP/ER3K2RE/C8C w KQkq - 0 1",
  };
  constexpr int kGames = 20, kPlies = 60, kEvery = 4, kDepth = 3;

  std::vector<Sample> samples;
  std::vector<std::string> ourFens;
  // Fixed positions first: the RULINGS example, its queen-side twin, and
  // positions where such a castling turns up a few plies down.
  for (const std::string& fen : {
           std::string("4k5/10/10/10/10/10/10/10/5K2Rr/10 w K - 0 1"),
           std::string("5k4/10/10/10/10/10/10/10/rR3K4/10 w Q - 0 1"),
           std::string("4k5/9r/10/10/10/10/10/10/5K2R1/10 b K - 0 1"),
           std::string("q3k5/10/10/10/10/10/10/10/1R3K2R1/10 b KQ - 0 1"),
           std::string("4kc3c/ernbq1b1re/ppp3p1pp/3p2pp2/4p5/5P4/2PN2P3/PP1PP2PPP/ER1BQKBNR1/5C3C w KQ - 0 9"),
       }) {
    Position pos(r);
    ASSERT_TRUE(pos.set(fen).ok()) << fen;
    samples.push_back({pos, "position fen " + pos.text(), "position fen " + fen});
    ourFens.push_back(pos.text());
  }
  const size_t fixedCount = samples.size();

  for (int g = 0; g < kGames; ++g) {
    std::mt19937 rng(1000 + g);
    const std::string& start = starts[g % starts.size()];
    Position pos(r);
    ASSERT_TRUE(pos.set(start).ok());
    std::string command = "position fen " + start;
    for (int ply = 0; ply <= kPlies; ++ply) {
      if (ply % kEvery == 0 && (ply > 0 || g < static_cast<int>(starts.size()))) {
        Position fresh(r);
        EXPECT_TRUE(fresh.set(pos.text()).ok()) << pos.text();
        EXPECT_EQ(fresh.text(), pos.text());
        samples.push_back({fresh, "position fen " + pos.text(), command});
        ourFens.push_back(pos.text());
      }
      MoveList list;
      pos.legalMoves(list);
      if (list.empty()) break;
      const Move m = list[static_cast<int>(rng() % static_cast<uint32_t>(list.size()))];
      command = withMove(command, pos.moveText(m));
      pos.make(m);
    }
  }

  // The same positions as Fairy-Stockfish writes them after the same moves.
  std::vector<std::string> byMoves, commands;
  for (const auto& s : samples) {
    byMoves.push_back(s.byMoves);
    commands.push_back(s.command);
  }
  const auto fens = fsfFens(byMoves);
  ASSERT_EQ(fens.size(), samples.size());
  int fenMismatches = 0;
  for (size_t i = 0; i < samples.size(); ++i) {
    if (fens[i] == ourFens[i]) continue;
    ++fenMismatches;
    ADD_FAILURE() << "position text differs after " << samples[i].byMoves << "\n  ours: " << ourFens[i]
                  << "\n  Fairy-Stockfish: " << fens[i];
  }

  Stats st;
  const auto divides = fsfDivide(commands, kDepth);
  st.fsfQueries += 1;
  ASSERT_EQ(divides.size(), samples.size());
  uint64_t nodes = 0;
  for (size_t i = 0; i < samples.size(); ++i) {
    Position& pos = samples[i].pos;
    compare(pos, samples[i].command, kDepth, divides[i], st);
    for (const auto& [m, n] : divides[i]) nodes += n;
  }

  std::cout << "[ShakoDiff] " << samples.size() << " positions compared at depth " << kDepth << " (" << fixedCount
            << " fixed, " << samples.size() - fixedCount << " from " << kGames << " random games), " << nodes
            << " Fairy-Stockfish nodes; " << st.positions << " divides compared in all, " << st.followed
            << " differing moves followed down, " << st.knownCastles
            << " known castling discrepancies (Fairy-Stockfish 11.1 castles into check), " << st.unexplained.size()
            << " unexplained, " << fenMismatches << " position-text mismatches\n";
  for (const auto& e : st.knownExamples) std::cout << "[ShakoDiff] known: " << e << "\n";
  for (const auto& e : st.unexplained) ADD_FAILURE() << "unexplained difference: " << e;
  RecordProperty("positions", static_cast<int>(samples.size()));
  RecordProperty("known_castling_discrepancies", st.knownCastles);

  EXPECT_GE(samples.size(), 200u);
  // The fixed positions hold at least the two examples at depth 1 and the
  // deeper ones; the classifier must have seen them.
  EXPECT_GE(st.knownCastles, 3);
}

}  // namespace
}  // namespace acedrex::test
