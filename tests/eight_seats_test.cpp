// Eight seats (kMaxSeats): pieces keep seats 4 to 7 in their three seat
// bits, the turn passes through all eight, the seats-in mask, the rights
// and the hash hold them, and a ninth seat is refused.
#include <functional>
#include <map>

#include "engine/bot.h"
#include "test_util.h"

namespace acedrex::test {
namespace {

// Eight seats on a 16x16 board, each facing one of the four ways; kings and rooks.
std::string eightSeatVariant(int seats = 8) {
  std::string text = "name = eight\nboard = 16x16\n";
  const char* dirs = "nesw";
  for (int s = 0; s < seats; ++s)
    text += "seat = s" + std::to_string(s) + " " + std::string(1, static_cast<char>('a' + s)) + " " + dirs[s % 4] + "\n";
  text += "piece = king K K royal\npiece = rook R R\nending = last-standing\nmate = remove\nstalemate = out\n";
  return text;
}

std::shared_ptr<const Rules> eightSeatRules(const std::string& start) {
  VariantRegistry reg;
  const Status added = reg.add(eightSeatVariant() + "start = " + start + "\n", "test");
  EXPECT_TRUE(added.ok()) << (added.ok() ? "" : added.error().text());
  auto r = reg.rules("eight", {});
  EXPECT_TRUE(r.ok());
  return r.ok() ? r.value() : nullptr;
}

// A FEN4 board of 16x16 from cells keyed by (file, rank), both from 0.
std::string board16(const std::map<std::pair<int, int>, std::string>& cells) {
  std::string out;
  for (int rank = 15; rank >= 0; --rank) {
    std::string row;
    int empty = 0;
    for (int file = 0; file < 16; ++file) {
      auto it = cells.find({file, rank});
      if (it == cells.end()) {
        ++empty;
        continue;
      }
      if (empty) row += std::to_string(empty) + ",";
      empty = 0;
      row += it->second + ",";
    }
    if (empty) row += std::to_string(empty) + ",";
    row.pop_back();
    out += row + (rank ? "/" : "");
  }
  return out;
}

// Eight kings at least five squares apart: in four plies no king can come
// next to another, so every king has its eight steps at every turn.
std::map<std::pair<int, int>, std::string> eightKings() {
  const int at[8][2] = {{2, 2}, {7, 2}, {12, 2}, {12, 7}, {12, 12}, {7, 12}, {2, 12}, {2, 7}};
  std::map<std::pair<int, int>, std::string> cells;
  for (int s = 0; s < 8; ++s) cells[{at[s][0], at[s][1]}] = std::string(1, static_cast<char>('a' + s)) + "K";
  return cells;
}

TEST(EightSeats, EveryKingMovesInTurnThroughAllEightSeats) {
  const std::string start = "a-abcdefgh-*-0-1-" + board16(eightKings());
  auto r = eightSeatRules(start);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->nseats(), 8);
  Position pos(r);
  ASSERT_TRUE(pos.set(start).ok());
  EXPECT_EQ(pos.text(), start);
  EXPECT_EQ(pos.inMask(), 0xFF);
  EXPECT_EQ(seatOf(pos.at(r->square(2, 7))), 7);
  EXPECT_EQ(pos.kingSquare(7), r->square(2, 7));
  EXPECT_EQ(perft(pos, 1), 8u);
  EXPECT_EQ(perft(pos, 4), 4096u);
  // Eight plies bring the turn back to the first seat, each seat having moved once.
  for (int ply = 0; ply < 8; ++ply) {
    EXPECT_EQ(pos.toMove(), ply);
    MoveList list;
    pos.legalMoves(list);
    ASSERT_EQ(list.size(), 8);
    pos.make(list[0]);
  }
  EXPECT_EQ(pos.toMove(), 0);
  EXPECT_TRUE(pos.isValid());
}

// Make and unmake through three plies of kings and rooks of all eight
// seats: every state is consistent (pieces, lists, kings, hash) and unmake
// gives back the text and the hash exactly.
TEST(EightSeats, MakeAndUnmakeKeepEveryStateConsistent) {
  auto cells = eightKings();
  const int rooks[8][2] = {{3, 3}, {8, 3}, {13, 3}, {11, 8}, {11, 11}, {6, 11}, {3, 11}, {3, 8}};
  for (int s = 0; s < 8; ++s) cells[{rooks[s][0], rooks[s][1]}] = std::string(1, static_cast<char>('a' + s)) + "R";
  const std::string start = "a-abcdefgh-*-0-1-" + board16(cells);
  auto r = eightSeatRules(start);
  ASSERT_TRUE(r);
  Position pos(r);
  ASSERT_TRUE(pos.set(start).ok());
  uint64_t nodes = 0;
  std::function<void(int)> walk = [&](int depth) {
    MoveList list;
    pos.legalMoves(list);
    for (Move m : list) {
      const std::string before = pos.text();
      const uint64_t hash = pos.hash();
      pos.make(m);
      ++nodes;
      std::string why;
      ASSERT_TRUE(pos.isValid(&why)) << why << " after " << pos.moveText(m);
      Position fresh(r);
      ASSERT_TRUE(fresh.set(pos.text()).ok());
      EXPECT_EQ(fresh.hash(), pos.hash()) << pos.text();
      if (depth > 1) walk(depth - 1);
      pos.unmake();
      EXPECT_EQ(pos.text(), before);
      EXPECT_EQ(pos.hash(), hash);
    }
  };
  walk(2);
  EXPECT_GT(nodes, 0u);
  EXPECT_EQ(nodes, static_cast<uint64_t>(perft(pos, 1) + perft(pos, 2)));
}

// Seats 6 and 7 left: the seventh seat's king, mated by the eighth seat's
// rooks in the corner, goes out at its turn start and the eighth seat wins.
TEST(EightSeats, TheLastSeatsMateAndWin) {
  std::map<std::pair<int, int>, std::string> cells{{{0, 0}, "gK"}, {{0, 15}, "hR"}, {{1, 14}, "hR"}, {{15, 15}, "hK"}};
  const std::string text = "g-gh-*-0-1-" + board16(cells);
  auto r = eightSeatRules("a-abcdefgh-*-0-1-" + board16(eightKings()));
  ASSERT_TRUE(r);
  Position pos(r);
  ASSERT_TRUE(pos.set(text).ok());
  EXPECT_EQ(pos.inMask(), 0xC0);
  EXPECT_TRUE(pos.inCheck(6));
  EXPECT_EQ(pos.attackers(r->square(0, 0), 0x80), 0x80);
  MoveList list;
  pos.legalMoves(list);
  EXPECT_TRUE(list.empty());
  pos.applyTurnStart();
  EXPECT_TRUE(pos.finished());
  EXPECT_EQ(pos.winner(), 7);
  EXPECT_FALSE(pos.isIn(6));
}

// The many-seat search with eight seats: the eighth seat mates the seventh
// (and so wins) in one, by the only rook move that does.
TEST(EightSeats, TheSearchFindsTheEighthSeatsMate) {
  auto r = eightSeatRules("a-abcdefgh-*-0-1-" + board16(eightKings()));
  ASSERT_TRUE(r);
  std::map<std::pair<int, int>, std::string> cells{{{0, 0}, "gK"}, {{1, 15}, "hR"}, {{2, 8}, "hR"}, {{15, 15}, "hK"}};
  Game g(r, 1);
  ASSERT_TRUE(g.setStart("h-gh-*-0-1-" + board16(cells)).ok());
  auto bot = engine::makeBot(r, 9, 1);
  std::atomic<bool> stop{false};
  engine::SearchLimits limits;
  limits.depth = 2;
  const auto res = bot->choose(g, limits, stop);
  ASSERT_TRUE(res.found);
  EXPECT_EQ(g.position().moveText(res.best), "c9a9");
}

TEST(EightSeats, ANinthSeatIsRefused) {
  VariantRegistry reg;
  const Status s = reg.add(eightSeatVariant(9) + "start = a-abcdefghi-*-0-1-16/16/16/16/16/16/16/16/16/16/16/16/16/16/16/16\n", "t");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().text().find("2 to 8 seats"), std::string::npos) << s.error().text();
}

}  // namespace
}  // namespace acedrex::test
