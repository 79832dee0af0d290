// Fixed capacities: the per-seat piece lists and the move list. Position text
// that would overflow them is refused before anything is written, and a
// position that is accepted can never generate more moves than a MoveList
// holds.
#include <memory>
#include <string>

#include "test_util.h"

namespace acedrex::test {
namespace {

// A two-seat FEN of width x width: ranks given from the top; the missing ones empty.
std::string fenOf(int width, const std::vector<std::string>& ranksFromTop, const std::string& tail) {
  std::string out;
  for (int i = 0; i < width; ++i) {
    if (i) out += '/';
    out += i < static_cast<int>(ranksFromTop.size()) ? ranksFromTop[i] : std::to_string(width);
  }
  return out + " " + tail;
}

TEST(PositionLimits, TooManyPiecesOfOneSeatAreRefusedBeforeTheyAreWritten) {
  // Grant Acedrex, 12x12: the black king, then White's king and 120 rooks.
  std::vector<std::string> ranks = {"k11", "K11"};
  for (int i = 0; i < 10; ++i) ranks.push_back("RRRRRRRRRRRR");
  const std::string fen = fenOf(12, ranks, "w - - 0 1");
  Position pos = position("grant-acedrex");
  const std::string before = pos.text();
  const uint64_t hash = pos.hash();
  const Status s = pos.set(fen);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, "fen");
  EXPECT_NE(s.error().message.find("too many pieces: the white seat may have at most 96"), std::string::npos)
      << s.error().text();
  // A refused text changes nothing.
  EXPECT_EQ(pos.text(), before);
  EXPECT_EQ(pos.hash(), hash);
  std::string why;
  EXPECT_TRUE(pos.isValid(&why)) << why;
  EXPECT_EQ(perft(pos, 1), 71u);

  // Black too (its pieces come first in the text).
  std::vector<std::string> black = {"K11", "k11"};
  for (int i = 0; i < 9; ++i) black.push_back("rrrrrrrrrrrr");
  const Status b = pos.set(fenOf(12, black, "w - - 0 1"));
  ASSERT_FALSE(b.ok());
  EXPECT_NE(b.error().message.find("the black seat may have at most 96"), std::string::npos) << b.error().text();
  EXPECT_EQ(pos.text(), before);
}

TEST(PositionLimits, PiecesThatCouldMakeMoreMovesThanAMoveListHoldsAreRefused) {
  // Shako: a queen (or a pawn, which may become one) makes at most 35 moves,
  // a king 8, castling 2. 28 queens stay within Shako's move capacity (1024); 29 do not.
  // The black king hides behind its rooks from the queens on ranks 1 to 6.
  auto queens = [](int n, char side) {
    std::map<std::string, char> p = {{"j10", 'k'}, {"i10", 'r'}, {"i9", 'r'}, {"j9", 'r'}, {"a1", 'K'}};
    for (int i = 1; i <= n; ++i) p[std::string(1, static_cast<char>('a' + i % 10)) + std::to_string(i / 10 + 1)] = 'Q';
    return fenFromPieces(10, 10, p, std::string(1, side) + " - - 0 1");
  };
  Position pos = position("shako");
  EXPECT_EQ(pos.rules().moveCapacity, 1024);
  const std::string before = pos.text();
  const Status many = pos.set(queens(29, 'w'));
  ASSERT_FALSE(many.ok()) << queens(29, 'w');
  EXPECT_NE(many.error().message.find("could make up to 1025 moves, more than 1024"), std::string::npos)
      << many.error().text();
  EXPECT_EQ(pos.text(), before);
  const Status fewer = pos.set(queens(28, 'w'));
  ASSERT_TRUE(fewer.ok()) << queens(28, 'w') << ": " << fewer.error().text();
  MoveList list;
  pos.pseudoMoves(list);
  EXPECT_GT(list.size(), 90);
  EXPECT_LE(list.size(), pos.rules().moveCapacity);
  EXPECT_EQ(pos.moveBound(0), 28 * 35 + 8 + 2);
}

// Every variant's move capacity fits the move list; a variant whose start
// position alone could make more moves is refused when it is loaded, naming it.
TEST(PositionLimits, AVariantWhoseStartNeedsLongerMoveListsIsRefused) {
  const VariantRegistry embedded = VariantRegistry::withEmbedded();
  for (const VariantDef* d : embedded.all()) EXPECT_LE(rules(d->name)->moveCapacity, MoveList::kCapacity) << d->name;
  // 16x16, a king and 32 queens a side: far more than 1024 moves for White.
  std::string board = "k15/qqqqqqqqqqqqqqqq/qqqqqqqqqqqqqqqq";
  for (int i = 0; i < 10; ++i) board += "/16";
  board += "/QQQQQQQQQQQQQQQQ/QQQQQQQQQQQQQQQQ/K15";
  const std::string variant = "name = queens\nboard = 16x16\nseat = white w n\nseat = black b s\n"
                              "piece = king K K royal\npiece = queen Q Q\nstart = " + board + " w - - 0 1\n";
  VariantRegistry reg;
  const Status s = reg.add(variant, "queens.variant");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().location, "queens");
  EXPECT_NE(s.error().message.find("the start position is refused: too many pieces: the white seat's pieces could "
                                   "make up to"),
            std::string::npos)
      << s.error().text();
  EXPECT_NE(s.error().message.find("more than 1024"), std::string::npos) << s.error().text();
}

TEST(PositionLimits, TakeoverCountsAllSeatsTogether) {
  // Four seats on 12x12 with takeover: a mate hands a whole army to the
  // mater, so every seat's list must be able to hold all the pieces.
  const std::string variant =
      "name = big-four\nboard = 12x12\nseat = green g e\nseat = red r n\nseat = black b w\nseat = white w s\n"
      "piece = king K K royal\npiece = rook R R\nending = last-standing\nmate = takeover\nstalemate = out\n"
      "start = g-grbw-*-0-1-gK,11/12/12/12/12/12/12/12/12/12/12/rK,2,bK,2,wK,5\n";
  VariantRegistry reg;
  ASSERT_TRUE(reg.add(variant, "big-four.variant").ok());
  auto r = reg.rules("big-four", {});
  ASSERT_TRUE(r.ok());
  Position pos(r.value());
  ASSERT_TRUE(pos.set(r.value()->start).ok());
  // 4 x 33 pieces: each seat's own list would hold its 33, but a seat that
  // takes over two armies would hold 99 (never all 132: the game ends while
  // another seat still keeps its own).
  std::string board;
  const char seats[] = "grbw";
  for (int rank = 0; rank < 12; ++rank) {
    if (rank) board += '/';
    std::string row;
    for (int f = 0; f < 12; ++f) {
      const int i = rank * 12 + f;
      std::string cell;
      if (i < 132) cell = std::string(1, seats[i % 4]) + (i < 4 ? "K" : "R");
      else cell = "1";
      row += (row.empty() ? "" : ",") + cell;
    }
    board += row;
  }
  const Status s = pos.set("g-grbw-*-0-1-" + board);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("with takeover the green seat could come to hold 99, more than 96"), std::string::npos)
      << s.error().text();
}

// push() never writes past the capacity: it asserts in debug builds and
// drops the move in release builds.
TEST(MoveListDeathTest, PushStopsAtTheCapacity) {
  auto list = std::make_unique<MoveList>();
  constexpr int kMax = MoveList::kCapacity;
  for (int i = 0; i < kMax; ++i) list->push(Move(i % 256, (i / 256) % 256));
  EXPECT_EQ(list->size(), kMax);
  EXPECT_DEBUG_DEATH(
      {
        for (int i = 0; i < 64; ++i) list->push(Move(1, 2));
      },
      "");
  EXPECT_EQ(list->size(), kMax);
  EXPECT_EQ((*list)[kMax - 1], Move((kMax - 1) % 256, ((kMax - 1) / 256) % 256));
}

// The generation bound holds: every piece type, on every square and facing
// every way, alone with the kings on an empty board, generates no more moves
// than Rules::typeMoveBound says.
TEST(PositionLimits, TypeMoveBoundCoversEveryPieceOnEverySquare) {
  for (const std::string variant : {"shako", "grant-acedrex"}) {
    auto r = rules(variant);
    const Rules& R = *r;
    for (int type = 0; type < static_cast<int>(R.types.size()); ++type) {
      if (type == R.royalType) continue;
      int most = 0;
      for (Square s = 0; s < R.nsq(); ++s) {
        const std::string sq = R.squareName(s);
        if (s == 0 || s == R.nsq() - 1) continue;  // the kings' squares
        std::map<std::string, char> pieces = {{"a1", 'K'}, {R.squareName(R.nsq() - 1), 'k'}, {sq, R.types[type].letter}};
        Position pos(r);
        if (!pos.set(fenFromPieces(R.width, R.height, pieces, "w - - 0 1")).ok()) continue;  // e.g. a check
        MoveList list;
        pos.pseudoMoves(list);
        int n = 0;
        for (Move m : list)
          if (m.from() == s) ++n;
        EXPECT_LE(n, R.typeMoveBound[type]) << variant << " " << R.types[type].name << " on " << sq;
        most = std::max(most, n);
      }
      EXPECT_GT(most, 0) << variant << " " << R.types[type].name;
    }
  }
}

}  // namespace
}  // namespace acedrex::test
