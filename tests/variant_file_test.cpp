// Variant files: values that the compiler checks (castling files against the
// board, the yes/no and named values), and the embedded variants' options.
#include <fstream>
#include <map>
#include <set>
#include <string>

#include "core/base/json_text.h"
#include "core/variant/embedded_variants.h"
#include "test_util.h"

namespace acedrex::test {
namespace {

// A small chess-like two-seat variant; `extra` lines are appended, so they
// override the defaults above them.
std::string miniChess(const std::string& extra) {
  return "name = mini\n"
         "board = 8x8\n"
         "seat = white w n\n"
         "seat = black b s\n"
         "piece = king K K royal\n"
         "piece = rook R R\n"
         "piece = pawn P fmWfcF pawn\n"
         "promotion = R\n"
         "double-step = 2\n"
         "en-passant = yes\n"
         "castling = 1 g c h a\n"
         "start = r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1\n" +
         extra;
}

Status load(const std::string& text) {
  VariantRegistry reg;
  return reg.add(text, "mini.variant");
}

// The error of loading the mini variant with `line`, or "" if it loads.
std::string errorWith(const std::string& line) {
  const Status s = load(miniChess(line + "\n"));
  return s.ok() ? std::string() : s.error().text();
}

TEST(VariantFile, TheMiniVariantLoadsAndCastles) {
  ASSERT_EQ(errorWith(""), "");
  VariantRegistry reg;
  ASSERT_TRUE(reg.add(miniChess(""), "mini.variant").ok());
  auto r = reg.rules("mini", {});
  ASSERT_TRUE(r.ok());
  Position pos(r.value());
  ASSERT_TRUE(pos.set("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").ok());
  EXPECT_TRUE(hasMove(pos, "e1g1"));
  EXPECT_TRUE(hasMove(pos, "e1c1"));
}

TEST(VariantFile, CastlingFilesAreCheckedAgainstTheBoardWidth) {
  // Files beyond the 8 files of the board, or not letters.
  for (const char* line : {"castling = 1 z c h a", "castling = 1 g c q a", "castling = 1 g c h {", "castling = 1 g C h a",
                           "castling = 1 gg c h a", "castling = 1 g c h i"}) {
    const std::string e = errorWith(line);
    EXPECT_NE(e.find("castling files are letters from a to h"), std::string::npos) << line << " -> " << e;
    EXPECT_NE(e.find("mini:13"), std::string::npos) << line << " -> " << e;  // names the line
  }
  // The rook lands beside the king: a king-side king on file a, or a
  // queen-side king on the last file, leaves it no square.
  EXPECT_NE(errorWith("castling = 1 a c h a").find("no room for the rook"), std::string::npos);
  EXPECT_NE(errorWith("castling = 1 g h h a").find("no room for the rook"), std::string::npos);
  EXPECT_NE(errorWith("castling = 1 c c h a").find("must differ"), std::string::npos);
  // The rank: from 1 to the board's height, in digits.
  for (const char* line : {"castling = 0 g c h a", "castling = 9 g c h a", "castling = x g c h a",
                           "castling = -1 g c h a", "castling = 99999 g c h a"}) {
    const std::string e = errorWith(line);
    EXPECT_NE(e.find("castling rank must be from 1 to 8"), std::string::npos) << line << " -> " << e;
  }
  EXPECT_NE(errorWith("castling = 1 g c").find("castling = RANK"), std::string::npos);
  EXPECT_EQ(errorWith("castling = none\nstart = r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w - - 0 1"), "");
  EXPECT_EQ(errorWith("castling = 8 g c h a"), "");  // any rank of the board
}

// Two seats castle along files, so they must face north or south (with more
// seats the castling files are counted in each seat's own frame).
TEST(VariantFile, CastlingNeedsSeatsFacingNorthOrSouth) {
  std::string text = miniChess("");
  const size_t at = text.find("seat = black b s");
  ASSERT_NE(at, std::string::npos) << text;
  text.replace(at, 16, "seat = black b e");
  const Status s = load(text);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().text().find("castling needs seats that face north or south"), std::string::npos) << s.error().text();
}

TEST(VariantFile, YesNoAndNamedValuesAcceptOnlyTheDocumentedWords) {
  struct Case {
    const char* key;
    std::vector<const char*> good, bad;
    const char* expected;
  };
  const std::vector<Case> cases = {
      {"en-passant", {"yes", "no"}, {"true", "Yes", "1", "", "yes please"}, "en-passant = yes|no"},
      {"coins", {"yes", "no"}, {"on", "YES", "0", ""}, "coins = yes|no"},
      {"bare-king", {"plays", "loses"}, {"lose", "loss", "yes", ""}, "bare-king = plays|loses"},
      {"double-step-rights", {"none", "until-capture"}, {"always", "until", ""}, "double-step-rights = none|until-capture"},
      {"double-step", {"0", "2", "8"}, {"x", "-1", "9", "2 3", ""}, "double-step = a relative rank from 0 (none) to 8"},
      {"chasing", {"none"}, {"aaf", "yes", ""}, "chasing = none|axf"},
  };
  for (const auto& c : cases) {
    for (const char* v : c.good) EXPECT_EQ(errorWith(std::string(c.key) + " = " + v), "") << c.key << " = " << v;
    for (const char* v : c.bad) {
      const std::string e = errorWith(std::string(c.key) + " = " + v);
      EXPECT_NE(e.find(c.expected), std::string::npos) << c.key << " = " << v << " -> " << e;
    }
  }
  // The chasing rule names xiangqi's pieces; chess's are refused.
  EXPECT_NE(errorWith("chasing = axf").find("chasing = axf needs xiangqi's pieces"), std::string::npos)
      << errorWith("chasing = axf");
}

// Every key of the compiler's table checks its value: a bad value is an error
// naming the line. A key added to the table needs a case here.
TEST(VariantFile, EveryKeyRefusesABadValue) {
  const std::map<std::string, std::string> bad = {
      {"board", "8"},
      {"blocked", "z9"},
      {"seat", "red r"},
      {"geometry", "hex6"},
      {"piece", "bishop b B"},
      {"promotion", "Z"},
      {"promotion-by-file", "RRR"},
      {"double-step", "-1"},
      {"double-step-rights", "yes"},
      {"en-passant", "true"},
      {"castling", "1 g c"},
      {"castling-notation", "shredder"},
      {"start-array", "random"},
      {"san-letters", "N:h"},
      {"record-notation", "usi"},
      {"king-leap", "Y"},
      {"king-leap-path", "safe-path"},
      {"king-leap-lost", "never"},
      {"first-step", "Z"},
      {"rights-text", "file"},
      {"ending", "mate"},
      {"mate", "keep"},
      {"stalemate", "lose"},
      {"stuck-pawn", "P"},
      {"bare-king", "lose"},
      {"move-rule", "-5"},
      {"counting", "thai"},
      {"insufficient-material", "yes"},
      {"only-kings", "yes"},
      {"coins", "on"},
      {"die", "6:Z"},
      {"region", "K 3"},
      {"zone-moves", "K 1-8 1-8 Y"},
      {"line-squares", "z99"},
      {"line-moves", "Z F"},
      {"hop-not-same", "Z"},
      {"flying-general", "true"},
      {"bikjang", "on"},
      {"pass", "always"},
      {"material-count", "R:13"},
      {"perpetual-check", "wins"},
      {"chasing", "aaf"},
      {"must-capture", "always"},
      {"blast", "nuclear"},
      {"king-capture", "sometimes"},
      {"visibility", "fog"},
      {"duck", "two"},
      {"unions", "maybe"},
      {"drops", "maybe"},
      {"drop-ranks", "P 3"},
      {"drop-no-doubled", "Z"},
      {"drop-mate", "ZZ"},
      {"promotion-zone", "3 P"},
      {"promotion-move", "F z9"},
      {"repetition", "4 win"},
      {"promotion-rank", "1"},
      {"teams", "wz"},
      {"dead-pieces", "maybe"},
      {"king-capture-in-check", "sometimes"},
      {"points", "Z:3"},
      {"awards", "mate:lots"},
      {"awards", "check2:1/x"},
      {"die", "5:KZ"},
      {"position-text", "fen"},
      {"start", "8/8/8/8/8/8/8/8 w - - 0 1"},
  };
  EXPECT_EQ(bad.size(), variantKeys().size());
  for (const VariantKey& key : variantKeys()) {
    const std::string name(key.name);
    ASSERT_TRUE(bad.count(name)) << "no bad value for the key " << name;
    EXPECT_FALSE(key.form.empty()) << name;
    const std::string e = errorWith(name + " = " + bad.at(name));
    EXPECT_NE(e, "") << name;
    // The line is named, except for the start, which is refused as a position.
    if (name != "start") {
      EXPECT_NE(e.find("mini:13"), std::string::npos) << name << " -> " << e;
    }
  }
  EXPECT_NE(errorWith("frobnicate = 1").find("mini:13: unknown key \"frobnicate\""), std::string::npos);
}

// insufficient-material = mating-pieces names pieces that mate alone: never
// the royal piece, only pieces of the variant, and only in a two-seat game.
TEST(VariantFile, MatingPiecesAreCheckedPieces) {
  EXPECT_EQ(errorWith("insufficient-material = mating-pieces R"), "");
  EXPECT_EQ(errorWith("insufficient-material = minor-pieces"), "");
  EXPECT_NE(errorWith("insufficient-material = mating-pieces K").find("the royal piece is not a mating piece"),
            std::string::npos);
  EXPECT_NE(errorWith("insufficient-material = mating-pieces Z").find("no piece Z"), std::string::npos);
  EXPECT_NE(errorWith("insufficient-material = minor-pieces R").find("mini:13"), std::string::npos);
  EXPECT_NE(errorWith("insufficient-material = R").find("mini:13"), std::string::npos);
  const Status threeSeats = load(miniChess("seat = red r e\ninsufficient-material = mating-pieces R\n"));
  ASSERT_FALSE(threeSeats.ok());
  EXPECT_NE(threeSeats.error().text().find("two seats"), std::string::npos) << threeSeats.error().text();
}

// The section "Keys" of docs/variant-files.md describes exactly the keys of
// the compiler: a table row each, or a "key = FORM" line (piece).
TEST(VariantFile, TheDocsListExactlyTheCompilersKeys) {
  std::ifstream in(std::string(ACEDREX_SOURCE_DIR) + "/docs/variant-files.md");
  ASSERT_TRUE(in.good());
  std::set<std::string> documented;
  bool inKeys = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("## ", 0) == 0) inKeys = line == "## Keys";
    if (!inKeys) continue;
    std::string key;
    if (line.rfind("| `", 0) == 0) key = line.substr(3, line.find('`', 3) - 3);
    else if (const size_t eq = line.find(" = "); eq != std::string::npos && line.find(' ') == eq) key = line.substr(0, eq);
    if (!key.empty() && key != "name" && key != "title" && key != "option" && key != "alias") documented.insert(key);
  }
  std::set<std::string> compiled;
  for (const VariantKey& key : variantKeys()) compiled.insert(std::string(key.name));
  EXPECT_EQ(documented, compiled);
}

TEST(VariantFile, EveryEmbeddedVariantCompilesWithEveryOptionValue) {
  const VariantRegistry reg = VariantRegistry::withEmbedded();
  ASSERT_EQ(reg.all().size(), embeddedVariantFiles().size());  // none refused
  for (const VariantDef* d : reg.all())
    for (const auto& o : d->options)
      for (const auto& v : o.values) {
        auto r = reg.rules(d->name, {o.name + "=" + v});
        ASSERT_TRUE(r.ok()) << d->name << " " << o.name << "=" << v << ": " << r.error().text();
        Position pos(r.value());
        EXPECT_TRUE(pos.set(r.value()->start).ok()) << d->name << " " << o.name << "=" << v;
      }
}

TEST(VariantFile, TheStartPositionMustSet) {
  const std::string e = errorWith("start = 8/8/8/8/8/8/8/8 w - - 0 1");
  EXPECT_NE(e.find("the start position is refused"), std::string::npos) << e;
  EXPECT_NE(e.find("exactly one king"), std::string::npos) << e;
  // A start that only an option value breaks is refused when that value is chosen.
  VariantRegistry reg;
  ASSERT_TRUE(reg.add(miniChess("option = broken no yes\n[broken=yes] start = 8/8/8/8/8/8/8/8 w - - 0 1\n"),
                      "mini.variant")
                  .ok());
  EXPECT_TRUE(reg.rules("mini", {"broken=no"}).ok());
  auto r = reg.rules("mini", {"broken=yes"});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().text().find("the start position is refused"), std::string::npos) << r.error().text();
}

TEST(VariantFile, SeatNamesAndLettersAreUnique) {
  EXPECT_NE(errorWith("seat = white x s").find("seat name used twice: white"), std::string::npos);
  EXPECT_NE(errorWith("seat = blue w s").find("seat letter used twice: w"), std::string::npos);
}

// ---------------------------------------------------------------------------
// Game::summaryJson with names from a variant file

TEST(JsonText, EscapesQuotesBackslashesControlsAndBadUtf8) {
  EXPECT_EQ(jsonString("plain"), "\"plain\"");
  EXPECT_EQ(jsonString("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(jsonString("t\tn\nr\rz\x01" "e\x1f"), "\"t\\tn\\nr\\rz\\u0001e\\u001f\"");
  EXPECT_EQ(jsonString(std::string("nul\0x", 5)), "\"nul\\u0000x\"");
  // Valid UTF-8 is kept; a stray byte, a truncated sequence, an overlong form
  // and a surrogate each become U+FFFD.
  EXPECT_EQ(jsonString("caf\xC3\xA9 \xE2\x99\x9E \xF0\x9F\x82\xA1"), "\"caf\xC3\xA9 \xE2\x99\x9E \xF0\x9F\x82\xA1\"");
  EXPECT_EQ(jsonString("a\xFFz"), "\"a\xEF\xBF\xBDz\"");
  EXPECT_EQ(jsonString("a\xC3"), "\"a\xEF\xBF\xBD\"");
  EXPECT_EQ(jsonString("\xC0\xAF"), "\"\xEF\xBF\xBD\xEF\xBF\xBD\"");
  EXPECT_EQ(jsonString("\xED\xA0\x80"), "\"\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\"");
}

TEST(GameSummary, EscapesVariantAndSeatNamesFromAVariantFile) {
  const std::string text =
      "name = my\"var\\iant\x01\xFF\n"
      "title = The \"quoted\" \\ title\n"
      "board = 4x4\n"
      "seat = wh\"ite w n\n"
      "seat = bl\\ack b s\n"
      "piece = king K K royal\n"
      "piece = rook R R\n"
      "start = 3k/4/3K/R3 w - - 0 1\n";
  VariantRegistry reg;
  const Status added = reg.add(text, "quotes.variant");
  ASSERT_TRUE(added.ok()) << added.error().text();
  auto r = reg.rules("my\"var\\iant\x01\xFF", {});
  ASSERT_TRUE(r.ok()) << r.error().text();
  EXPECT_EQ(r.value()->title, "The \"quoted\" \\ title");
  Game g(r.value(), 1);
  EXPECT_EQ(g.summaryJson(),
            "{\"variant\":\"my\\\"var\\\\iant\\u0001\xEF\xBF\xBD\",\"status\":\"ongoing\",\"to_move\":\"wh\\\"ite\","
            "\"in\":[\"wh\\\"ite\",\"bl\\\\ack\"],\"out_order\":[],\"places\":{},\"plies\":0,"
            "\"fen\":\"3k/4/3K/R3 w - - 0 1\"}");
  // Mate with the rook: the places name both seats, escaped.
  PLAY(g, "a1a4");
  ASSERT_TRUE(g.finished());
  const std::string json = g.summaryJson();
  EXPECT_NE(json.find("\"places\":{\"wh\\\"ite\":1,\"bl\\\\ack\":2}"), std::string::npos) << json;
  EXPECT_NE(json.find("\"out_order\":[\"bl\\\\ack\"]"), std::string::npos) << json;
  for (size_t i = 0; i < json.size();) {
    const size_t n = utf8SequenceLength(json, i);
    ASSERT_GT(n, 0u) << "invalid UTF-8 at byte " << i << " of " << json;
    ASSERT_GE(static_cast<unsigned char>(json[i]), 0x20u) << "a raw control character at byte " << i;
    i += n;
  }
}

}  // namespace
}  // namespace acedrex::test
