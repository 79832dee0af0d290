// Helpers shared by the tests.
#pragma once

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "core/game/game.h"
#include "core/position/perft.h"
#include "core/position/position.h"
#include "core/variant/variant.h"
#include "protocol/uci.h"

namespace acedrex::test {

inline std::shared_ptr<const Rules> rules(const std::string& variant, const std::vector<std::string>& options = {}) {
  static const VariantRegistry reg = VariantRegistry::withEmbedded();
  auto r = reg.rules(variant, options);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().text());
  return r.ok() ? r.value() : nullptr;
}

inline Position position(const std::string& variant, const std::string& fen = "",
                         const std::vector<std::string>& options = {}) {
  auto r = rules(variant, options);
  Position pos(r);
  auto s = pos.set(fen.empty() ? r->start : fen);
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().text());
  return pos;
}

// FEN<TAB>depth<TAB>nodes lines of a file under tests/data/perft ('#' starts a comment line).
inline std::vector<std::tuple<std::string, int, uint64_t>> perftFile(const std::string& name) {
  std::ifstream in(std::string(ACEDREX_SOURCE_DIR) + "/tests/data/perft/" + name);
  std::vector<std::tuple<std::string, int, uint64_t>> out;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream f(line);
    std::string fen, depth, nodes;
    std::getline(f, fen, '\t');
    std::getline(f, depth, '\t');
    std::getline(f, nodes, '\t');
    out.emplace_back(fen, std::stoi(depth), std::stoull(nodes));
  }
  return out;
}

inline std::vector<std::string> legalTexts(Position& pos) {
  std::vector<Move> turns;  // the legal moves; with a duck, each with every duck square
  pos.legalTurns(turns);
  std::vector<std::string> out;
  for (Move m : turns) out.push_back(pos.moveText(m));
  std::sort(out.begin(), out.end());
  return out;
}

// The legal moves (sorted text) that start on the square `from`.
inline std::vector<std::string> movesFrom(Position& p, const std::string& from) {
  std::vector<std::string> out;
  for (const auto& t : legalTexts(p))
    if (t.rfind(from, 0) == 0 && std::isalpha(static_cast<unsigned char>(t[from.size()]))) out.push_back(t);
  return out;
}

inline bool hasMove(Position& pos, const std::string& text) {
  auto v = legalTexts(pos);
  return std::find(v.begin(), v.end(), text) != v.end();
}

// A two-seat FEN board of width x height from square name -> FEN letter, then the rest.
inline std::string fenFromPieces(int width, int height, const std::map<std::string, char>& pieces,
                                 const std::string& tail) {
  std::vector<std::string> board(height, std::string(width, '\0'));
  for (const auto& [sq, c] : pieces) board[std::stoi(sq.substr(1)) - 1][sq[0] - 'a'] = c;
  std::string out;
  for (int rank = height - 1; rank >= 0; --rank) {
    int empty = 0;
    for (int f = 0; f < width; ++f) {
      if (!board[rank][f]) {
        ++empty;
        continue;
      }
      if (empty) out += std::to_string(empty);
      empty = 0;
      out += board[rank][f];
    }
    if (empty) out += std::to_string(empty);
    if (rank) out += '/';
  }
  return out + " " + tail;
}

// Plays a move on a Game and fails the test (with the engine's reason) if it is refused.
#define PLAY(g, m)                                                                           \
  do {                                                                                       \
    auto play_status_ = (g).play(m);                                                         \
    ASSERT_TRUE(play_status_.ok()) << "move " << (m) << ": " << play_status_.error().text(); \
  } while (0)

// Plays a line of moves (text separated by spaces); a failure stops the test.
inline void play(Game& g, const std::string& moves) {
  auto s = g.playAll(moves);
  ASSERT_TRUE(s.ok()) << s.error().text();
}

// The four seats' free-for-all points (four-player chess, chaturaji).
inline std::array<int, 4> points(const Game& g) {
  std::array<int, 4> p{};
  for (int s = 0; s < 4; ++s) p[s] = g.position().points(s);
  return p;
}

// chess.com's FEN4 (four-player chess, chaturaji) from a map square -> cell
// ("rK"); blocked squares are written as empty ones, as chess.com does.
inline std::string fen4ChessCom(const Rules& r, char toMove, const std::map<std::string, std::string>& cells,
                                const std::string& out = "0,0,0,0", const std::string& points = "0,0,0,0",
                                const std::string& ks = "0,0,0,0", const std::string& qs = "0,0,0,0", int fifty = 0) {
  std::string board;
  for (int rank = r.height; rank >= 1; --rank) {
    std::string row;
    int empty = 0;
    for (int f = 0; f < r.width; ++f) {
      auto it = cells.find(std::string(1, static_cast<char>('a' + f)) + std::to_string(rank));
      if (it == cells.end() || it->second.empty()) { ++empty; continue; }
      if (empty) row += (row.empty() ? "" : ",") + std::to_string(empty);
      empty = 0;
      row += (row.empty() ? "" : ",") + it->second;
    }
    if (empty) row += (row.empty() ? "" : ",") + std::to_string(empty);
    board += row + (rank > 1 ? "/" : "");
  }
  return std::string(1, toMove) + "-" + out + "-" + ks + "-" + qs + "-" + points + "-" + std::to_string(fifty) + "-" + board;
}

// The FEN4-like line from a map square -> cell ("gK", "rPn", ...); holes are written x.
inline std::string fen4(const Rules& r, char toMove, const std::string& in,
                        const std::map<std::string, std::string>& cells, int fifty = 0, int ply = 1) {
  std::map<Square, std::string> at;
  for (const auto& [sq, c] : cells) {
    auto s = r.parseSquare(sq);
    EXPECT_TRUE(s.ok()) << sq;
    if (s.ok()) at[*s] = c;
  }
  std::string out = std::string(1, toMove) + "-" + in + "-*-" + std::to_string(fifty) + "-" + std::to_string(ply) + "-";
  for (int rank = r.height - 1; rank >= 0; --rank) {
    std::string row;
    int empty = 0;
    auto push = [&](const std::string& c) {
      if (empty) row += (row.empty() ? "" : ",") + std::to_string(empty);
      empty = 0;
      row += (row.empty() ? "" : ",") + c;
    };
    for (int f = 0; f < r.width; ++f) {
      const Square s = r.square(f, rank);
      if (r.blocked[s]) push("x");
      else if (at.count(s)) push(at[s]);
      else ++empty;
    }
    if (empty) row += (row.empty() ? "" : ",") + std::to_string(empty);
    out += row;
    if (rank) out += '/';
  }
  return out;
}

// The move `acedrex uci` answers for a variant after `position POSITION`
// ("startpos ...", "fen ..."): the bestmove line's move, "" if none.
inline std::string uciBestMove(const std::string& variant, const std::string& position,
                               const std::string& go = "go movetime 200") {
  static const VariantRegistry reg = VariantRegistry::withEmbedded();
  std::vector<std::string> out;
  std::mutex mu;
  protocol::UciSession session(reg, [&](const std::string& l) {
    std::lock_guard<std::mutex> lock(mu);
    out.push_back(l);
  });
  session.handle("setoption name UCI_Variant value " + variant);
  session.handle("position " + position);
  session.handle(go);
  session.waitForSearch();
  std::lock_guard<std::mutex> lock(mu);
  for (const auto& l : out)
    if (l.rfind("bestmove ", 0) == 0) return l.substr(9, l.find(' ', 9) - 9);
  return "";
}

}  // namespace acedrex::test
