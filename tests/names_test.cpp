// The name tables of the enums that leave the core as words: out reasons,
// draw reasons and record entry kinds. The words are part of the API, the
// summary JSON and the PGN, so they are pinned here.
#include <set>

#include "test_util.h"

namespace acedrex::test {
namespace {

TEST(Names, OutReasonsReadBackAndKeepTheApiWords) {
  const std::vector<std::pair<OutReason, std::string>> names = {
      {OutReason::kMated, "checkmate"},     {OutReason::kStalemated, "stalemate"}, {OutReason::kKingCaptured, "king-captured"},
      {OutReason::kBareKing, "bare-king"}, {OutReason::kResigned, "resign"},      {OutReason::kTimeout, "timeout"}};
  for (const auto& [reason, name] : names) {
    EXPECT_EQ(nameOf(reason), name);
    EXPECT_EQ(parseOutReason(name), reason) << name;
  }
  EXPECT_EQ(parseOutReason("mated"), std::nullopt);
  EXPECT_EQ(parseOutReason(""), std::nullopt);
}

TEST(Names, DrawReasonsHaveANameAndAText) {
  struct Row {
    DrawReason reason;
    std::string name, text;
  };
  const std::vector<Row> rows = {{DrawReason::kRepetition, "repetition", "repetition"},
                                 {DrawReason::kFiftyMoves, "fifty-moves", "fifty moves"},
                                 {DrawReason::kStalemate, "stalemate", "stalemate"},
                                 {DrawReason::kOnlyKings, "only-kings", "only kings"},
                                 {DrawReason::kAgreement, "agreement", "agreement"}};
  for (const auto& row : rows) {
    EXPECT_EQ(nameOf(row.reason), row.name);
    EXPECT_EQ(textOf(row.reason), row.text);
    EXPECT_EQ(parseDrawReason(row.name), row.reason) << row.name;
  }
  EXPECT_EQ(nameOf(DrawReason::kNone), "");
  EXPECT_EQ(textOf(DrawReason::kNone), "");
  EXPECT_EQ(parseDrawReason("fifty moves"), std::nullopt);  // the text is not a name
  EXPECT_EQ(parseDrawReason(""), std::nullopt);
}

TEST(Names, EntryKindsAreTheWordsOfEntriesThatAreNoMoves) {
  EXPECT_EQ(entryKindOf("resign"), EntryKind::kResign);
  EXPECT_EQ(entryKindOf("timeout"), EntryKind::kTimeout);
  EXPECT_EQ(entryKindOf("draw"), EntryKind::kDraw);
  for (const char* move : {"e2e4", "0000", "a9a10q", "", "Resign"}) EXPECT_EQ(entryKindOf(move), EntryKind::kMove) << move;
  for (EntryKind k : {EntryKind::kResign, EntryKind::kTimeout, EntryKind::kDraw}) EXPECT_EQ(entryKindOf(nameOf(k)), k);
  EXPECT_EQ(nameOf(EntryKind::kMove), "");
}

// A game records its entries with their kind and keeps the texts it always wrote.
TEST(Names, GameRecordsKindsAndWritesTheDrawText) {
  Game g(rules("four-seasons"), 1);
  ASSERT_TRUE(g.play("a6a5").ok());
  g.resign(1);
  g.timeout(2);
  ASSERT_EQ(g.record().size(), 3u);
  EXPECT_EQ(g.record()[0].kind, EntryKind::kMove);
  EXPECT_EQ(g.record()[1].kind, EntryKind::kResign);
  EXPECT_EQ(g.record()[1].move, "resign");
  EXPECT_EQ(g.record()[2].kind, EntryKind::kTimeout);
  EXPECT_EQ(g.record()[2].move, "timeout");

  Game d(rules("shako"), 1);
  EXPECT_EQ(d.drawReasonKind(), DrawReason::kNone);
  EXPECT_EQ(d.drawReason(), "");
  ASSERT_TRUE(d.setStart("4k5/10/10/10/10/10/10/10/10/4K5 w - - 99 80").ok());
  ASSERT_TRUE(d.play("e1e2").ok());
  EXPECT_EQ(d.drawReasonKind(), DrawReason::kFiftyMoves);
  EXPECT_EQ(d.drawReason(), "fifty moves");
  EXPECT_NE(d.summaryJson().find("\"draw_reason\":\"fifty moves\""), std::string::npos) << d.summaryJson();
}

}  // namespace
}  // namespace acedrex::test
