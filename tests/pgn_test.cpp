// The PGN module (core/records/pgn.h): what the writer writes, round trips of seeded
// random games of every variant through writePgn, readPgn and replayPgn, the
// reader on hand-written records, and bad input that must give errors.
#include <random>

#include "core/records/pgn.h"
#include "core/base/text_util.h"
#include "test_util.h"

namespace acedrex::test {
namespace {

const VariantRegistry& registry() {
  static const VariantRegistry reg = VariantRegistry::withEmbedded();
  return reg;
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < text.size()) {
    const size_t j = std::min(text.find('\n', i), text.size());
    out.push_back(text.substr(i, j - i));
    i = j + 1;
  }
  return out;
}

std::vector<std::string> moveTexts(const PgnGame& g) {
  std::vector<std::string> out;
  for (const auto& m : g.moves) out.push_back(m.text);
  return out;
}

// ---- Writing --------------------------------------------------------------

TEST(Pgn, WritesTheRosterThenVariantStartAndCallerTags) {
  auto r = rules("shako");
  Game g(r, 1);
  ASSERT_TRUE(g.setStart("4k5/10/10/10/10/10/10/10/10/R3K5 w - - 0 1").ok());
  ASSERT_TRUE(g.playAll("a1a9 e10f10 e1e2").ok());
  PgnWriteOptions o;
  o.tags = {{"White", "me"}, {"Annotator", "a \"quoted\" \\ name"}};
  EXPECT_EQ(writePgn(g, o),
            "[Event \"Acedrex game\"]\n"
            "[Site \"Acedrex\"]\n"
            "[Date \"????.??.??\"]\n"
            "[Round \"-\"]\n"
            "[White \"me\"]\n"
            "[Black \"?\"]\n"
            "[Result \"*\"]\n"
            "[Variant \"Shako\"]\n"
            "[VariantName \"shako\"]\n"
            "[FEN \"4k5/10/10/10/10/10/10/10/10/R3K5 w - - 0 1\"]\n"
            "[SetUp \"1\"]\n"
            "[Annotator \"a \\\"quoted\\\" \\\\ name\"]\n"
            "\n"
            "1. a1a9 e10f10 2. e1e2 *\n");
}

TEST(Pgn, StartTagOnlyAwayFromTheStartWhenAsked) {
  Game g(rules("shako"), 1);
  PgnWriteOptions o;
  EXPECT_NE(writePgn(g, o).find("[FEN \""), std::string::npos);
  o.startTag = false;
  EXPECT_EQ(writePgn(g, o).find("[FEN \""), std::string::npos);
  EXPECT_EQ(writePgn(g, o).find("[SetUp"), std::string::npos);
  ASSERT_TRUE(g.setStart("4k5/10/10/10/10/10/10/10/10/R3K5 w - - 0 1").ok());
  EXPECT_NE(writePgn(g, o).find("[FEN \"4k5/"), std::string::npos);
}

TEST(Pgn, BlackFirstStartsWithThreeDotsAndSanMarksCheckAndMate) {
  Game g(rules("shako"), 1);
  ASSERT_TRUE(g.setStart("4k5/10/10/10/10/10/10/10/1R8/R3K5 b - - 0 1").ok());
  ASSERT_TRUE(g.playAll("e10f10 b2b9 f10g10 a1a10").ok());
  ASSERT_TRUE(g.finished());
  PgnWriteOptions o;
  o.notation = &sanNotation();
  const std::string pgn = writePgn(g, o);
  EXPECT_NE(pgn.find("\n1... Kf10 2. Rb9 Kg10 3. Ra10# 1-0\n"), std::string::npos) << pgn;
  EXPECT_NE(pgn.find("[Result \"1-0\"]"), std::string::npos) << pgn;
}

// The SAN of each move, as Fairy-Stockfish writes it for the variant (and
// pychess in its records): tools/reference/san.mjs compares whole random
// games; these are the cases each rule is about.
std::vector<std::string> sanOf(const std::string& variant, const std::string& fen, const std::string& moves) {
  Game g(rules(variant), 1);
  if (!fen.empty()) {
    EXPECT_TRUE(g.setStart(fen).ok()) << fen;
  }
  std::vector<std::string> out;
  for (const auto& text : words(moves)) {
    auto m = g.positionForSearch().parseMove(text);
    EXPECT_TRUE(m.ok()) << text;
    if (!m.ok()) break;
    out.push_back(moveWithSuffix(g, *m, sanNotation()));
    EXPECT_TRUE(g.play(*m).ok()) << text;
  }
  return out;
}

TEST(Pgn, SanAsFairyStockfishWritesEachVariant) {
  using V = std::vector<std::string>;
  // Shogi: Western notation with numbers; "=" when a promotion is declined, no check marks.
  EXPECT_EQ(sanOf("shogi", "", "c3c4 g7g6 b2h8"), (V{"P-76", "P-34", "Bx22="}));
  EXPECT_EQ(sanOf("shogi", "", "c3c4 g7g6 b2h8+ g9h8 B@e5"), (V{"P-76", "P-34", "Bx22+", "Sx22", "B*55"}));
  // Friendly chess: a king may be left to be united; a move that does so
  // gives no check (only the mover's opponent's king counts), and one that
  // attacks the king does.
  EXPECT_EQ(sanOf("friendly-chess", "", "e2e4 f7f6 d1h5 a7a6 g1f3"), (V{"e4", "f6", "Qh5+", "a6", "Nf3+"}));
  // Xiangqi and janggi: the horse is H and the elephant E; janggi's pass names the king's square.
  EXPECT_EQ(sanOf("xiangqi", "", "b1c3 c10e8"), (V{"Hc3", "Ece8"}));  // both elephants reach e8
  EXPECT_EQ(sanOf("janggi", "", "e2e2"), (V{"Ke2"}));
  // Bikjang is no check in the records.
  EXPECT_EQ(sanOf("janggi", "3a2b2/1b6r/n3Nk1c1/2B5p/1c5R1/1P2P3P/1C5p1/1R3A3/9/5K3 w - - 15 67", "f3e2"), (V{"Ae2"}));
  // Atomic and antichess mark no checks (no royal king in Fairy-Stockfish's sense).
  EXPECT_EQ(sanOf("atomic", "rn1qkb1r/pbpp1p1p/8/1p1NpP2/3P3P/1P3Np1/PBP3P1/R2QKBR1 b Qkq - 1 11", "f8b4"), (V{"Bb4"}));
  EXPECT_EQ(sanOf("chess", "rn1qkb1r/pbpp1p1p/8/1p1NpP2/3P3P/1P3Np1/PBP3P1/R2QKBR1 b Qkq - 1 11", "f8b4"), (V{"Bb4+"}));
}

TEST(Pgn, LinesStayShorterThanEightyCharacters) {
  auto r = rules("grant-acedrex", {"die=on"});
  Game g(r, 7);
  std::mt19937_64 rng(11);
  for (int i = 0; i < 200 && !g.finished(); ++i) {
    const auto moves = g.legalMoves();
    ASSERT_TRUE(g.play(moves[rng() % moves.size()]).ok());
  }
  const std::string pgn = writePgn(g);
  const auto ls = lines(pgn);
  size_t longest = 0;
  for (const auto& l : ls) {
    if (!l.empty() && l[0] == '[') continue;
    EXPECT_LT(l.size(), 80u) << l;
    longest = std::max(longest, l.size());
  }
  EXPECT_GT(longest, 70u);  // the lines are filled, not broken early
  EXPECT_NE(pgn.find("{die "), std::string::npos);
  EXPECT_NE(pgn.find("[Seed \"7\"]"), std::string::npos);
  PgnWriteOptions secret;
  secret.seed = false;
  EXPECT_EQ(writePgn(g, secret).find("[Seed"), std::string::npos);
}

TEST(Pgn, Pgn4NumbersRoundsAndNamesTheSeatThatResigns) {
  auto r = rules("four-seasons");
  Game g(r, 1);
  ASSERT_TRUE(g.playAll("a6a5 a3a4 h3h4 h6h5").ok());
  g.resign(0);  // green out: the next round starts with red
  ASSERT_TRUE(g.playAll("a4a5 g3g4 g6g5 a5a6").ok());
  g.timeout(3);  // white, out of turn
  const std::string pgn = writePgn(g);
  EXPECT_NE(pgn.find("[RuleVariants \"Takeover\"]"), std::string::npos) << pgn;
  EXPECT_NE(pgn.find("[StartFen4 \""), std::string::npos) << pgn;
  std::string flat = pgn;
  std::replace(flat.begin(), flat.end(), '\n', ' ');
  EXPECT_NE(flat.find(" 1. a6a5 .. a3a4 .. h3h4 .. h6h5 2. R {green resigns} .. a4a5 .. g3g4 .. g6g5 3. a5a6 .. T "
                      "{white times out}"),
            std::string::npos)
      << pgn;
  // Long algebraic for the server's records.
  PgnWriteOptions o;
  o.notation = &longNotation();
  EXPECT_NE(writePgn(g, o).find("1. a6-a5 .. a3-a4"), std::string::npos);
}

// ---- Round trips ----------------------------------------------------------

struct TripCase {
  std::string variant;
  std::vector<std::string> options;
};

// A random game: legal moves from a seeded generator, sometimes a
// resignation or timeout of a random seat, sometimes an agreed draw.
Game randomGame(const std::shared_ptr<const Rules>& r, uint64_t seed) {
  Game g(r, seed);
  std::mt19937_64 rng(seed);
  const int plies = static_cast<int>(rng() % 140);
  for (int i = 0; i < plies && !g.finished(); ++i) {
    const int roll = static_cast<int>(rng() % 200);
    if (roll == 0) {
      g.resign(static_cast<int>(rng() % static_cast<uint64_t>(r->nseats())));
      continue;
    }
    if (roll == 1) {
      g.timeout(static_cast<int>(rng() % static_cast<uint64_t>(r->nseats())));
      continue;
    }
    if (roll == 2 && r->nseats() == 2) {
      g.agreeDraw();
      break;
    }
    const auto moves = g.legalMoves();
    EXPECT_TRUE(g.play(moves[rng() % moves.size()]).ok());
  }
  return g;
}

void expectRoundTrip(const Game& g, const MoveNotation& notation, const std::string& what) {
  PgnWriteOptions o;
  o.notation = &notation;
  o.tags = {{"Event", "trip \"" + what + "\""}, {"Annotator", "back\\slash"}};
  const std::string text = writePgn(g, o);
  auto read = readPgn(text + "\n" + text, what);  // two games in one text
  ASSERT_TRUE(read.ok()) << read.error().text() << "\n" << text;
  ASSERT_EQ(read->size(), 2u) << text;
  const PgnGame& rec = (*read)[1];
  EXPECT_EQ(rec.tag("Event"), "trip \"" + what + "\"");
  EXPECT_EQ(rec.tag("Annotator"), "back\\slash");
  EXPECT_EQ(rec.result, resultText(g));
  auto replayed = replayPgn(rec, registry(), notation, what);
  ASSERT_TRUE(replayed.ok()) << replayed.error().text() << "\n" << text;
  const Game& back = **replayed;
  ASSERT_EQ(back.record().size(), g.record().size()) << text;
  for (size_t i = 0; i < g.record().size(); ++i) {
    EXPECT_EQ(back.record()[i].move, g.record()[i].move) << what << " ply " << i;
    EXPECT_EQ(back.record()[i].seat, g.record()[i].seat) << what << " ply " << i;
    EXPECT_EQ(back.record()[i].dieFace, g.record()[i].dieFace) << what << " ply " << i;
  }
  EXPECT_EQ(back.position().text(), g.position().text()) << text;
  EXPECT_EQ(back.finished(), g.finished()) << text;
  EXPECT_EQ(resultText(back), resultText(g)) << text;
  // Written again: the same text, tags and all.
  EXPECT_EQ(writePgn(back, o), text);
}

TEST(Pgn, RoundTripsRandomGamesOfEveryVariant) {
  const std::vector<TripCase> cases = {
      {"shako", {}},
      {"grant-acedrex", {}},
      {"grant-acedrex", {"die=on", "king-leap=no"}},
      {"four-seasons", {}},
      {"four-seasons", {"die=on", "takeover=no"}},
      {"joko-urtaroak", {}},
  };
  int finished = 0, exits = 0;
  for (const auto& c : cases) {
    auto r = rules(c.variant, c.options);
    ASSERT_TRUE(r);
    const MoveNotation& written = r->nseats() == 2 ? sanNotation() : longNotation();
    for (uint64_t seed = 1; seed <= 4; ++seed) {
      const Game g = randomGame(r, seed * 7919 + c.options.size());
      finished += g.finished();
      for (const auto& p : g.record()) exits += p.move == "resign" || p.move == "timeout";
      const std::string what = c.variant + " seed " + std::to_string(seed);
      expectRoundTrip(g, engineNotation(), what + " engine");
      expectRoundTrip(g, written, what + " server");
    }
  }
  EXPECT_GT(finished, 0);  // some games end (mates, resignations, draws)
  EXPECT_GT(exits, 0);
}

TEST(Pgn, RoundTripsFromAnotherStart) {
  Game s(rules("shako"), 1);
  ASSERT_TRUE(s.setStart("4k5/10/10/10/10/10/10/10/R9/R3K5 b - - 0 1").ok());
  ASSERT_TRUE(s.playAll("e10f10 a2a9").ok());
  expectRoundTrip(s, engineNotation(), "shako from a FEN");
  expectRoundTrip(s, sanNotation(), "shako from a FEN, SAN");
}

// ---- Reading --------------------------------------------------------------

TEST(Pgn, ReadsCommentsNagsVariationsEscapesAndNumbers) {
  const std::string text =
      "% an escape line, ignored\n"
      "[Event \"a \\\"quoted\\\" \\\\ event\"]\n"
      "[VariantName \"shako\"]\n"
      "[Result \"1-0\"]\n"
      "\n"
      "1. e3e4 {a comment\nover two lines} e8e7 2.f3f4!? (2. a3a4 {a (paren} (2. b3b4 ; nested\n"
      ") a8a7) 2... f8f6 $1 $14 ; to the end of the line\n"
      "3. 0000 {die 4} 3... f6f5? 1-0\n"
      "\n"
      "e3e4 *\n"
      "[Variant \"Grant Acedrex\"]\n"
      "1.a3a4";
  auto games = readPgn(text, "g.pgn");
  ASSERT_TRUE(games.ok()) << games.error().text();
  ASSERT_EQ(games->size(), 3u);
  const PgnGame& a = (*games)[0];
  EXPECT_EQ(a.tag("Event"), "a \"quoted\" \\ event");
  EXPECT_EQ(a.tag("Result"), "1-0");
  EXPECT_EQ(a.result, "1-0");
  EXPECT_EQ(a.line, 2);
  EXPECT_EQ(moveTexts(a), (std::vector<std::string>{"e3e4", "e8e7", "f3f4!?", "f8f6", "0000", "f6f5?"}));
  EXPECT_EQ(a.moves[0].comment, "a comment\nover two lines");
  EXPECT_EQ(a.moves[1].comment, "");
  EXPECT_EQ(a.moves[3].comment, "to the end of the line");  // after the NAGs
  EXPECT_EQ(a.moves[4].comment, "die 4");
  EXPECT_EQ(a.moves[2].line, 7);
  EXPECT_EQ(a.moves[2].column, 24);  // after "2."
  EXPECT_EQ(a.moves[5].line, 9);
  EXPECT_EQ(a.moves[5].column, 22);
  const PgnGame& b = (*games)[1];  // no tags
  EXPECT_TRUE(b.tags.empty());
  EXPECT_EQ(moveTexts(b), (std::vector<std::string>{"e3e4"}));
  EXPECT_EQ(b.result, "*");
  const PgnGame& c = (*games)[2];  // no result
  EXPECT_EQ(c.result, "");
  EXPECT_EQ(moveTexts(c), (std::vector<std::string>{"a3a4"}));
  EXPECT_EQ(pgnVariant(a, registry()), "shako");
  EXPECT_EQ(pgnVariant(c, registry()), "grant-acedrex");  // by its title
}

TEST(Pgn, ReadsFourPlayerResultsAndSeparators) {
  auto games = readPgn("[VariantName \"four-seasons\"]\n1. a6a5 .. a3a4 .. h3h4 .. h6h5 2. R {green resigns} 2-1-3-4\n");
  ASSERT_TRUE(games.ok()) << games.error().text();
  ASSERT_EQ(games->size(), 1u);
  EXPECT_EQ(moveTexts((*games)[0]), (std::vector<std::string>{"a6a5", "a3a4", "h3h4", "h6h5", "R"}));
  EXPECT_EQ((*games)[0].result, "2-1-3-4");
  auto g = replayPgn((*games)[0], registry());
  ASSERT_TRUE(g.ok()) << g.error().text();
  EXPECT_FALSE((*g)->position().isIn(0));
}

TEST(Pgn, BadInputGivesItsLineAndColumn) {
  struct Bad {
    std::string text, where, says;
  };
  const std::vector<Bad> bad = {
      {"[Event \"x\"]\n\n1. e3e4 {never closed\n", "line 3, column 9", "not closed"},
      {"[Event \"x]\n", "line 1, column 1", "not closed"},
      {"[Event x]\n", "line 1, column 1", "[Name \"value\"]"},
      {"[ \"x\"]\n", "line 1, column 1", "[Name \"value\"]"},
      {"[Event \"x\"\n", "line 1, column 1", "[Name \"value\"]"},
      {"[A \"1\"]\n[A \"2\"]\n", "line 2, column 1", "twice"},
      {"1. e3e4 )\n", "line 1, column 9", "closes no variation"},
      {"1. e3e4 (e8e7\n2. f3f4\n", "line 1, column 9", "not closed"},
      {"1. e3e4 (e8e7 [A \"b\"])\n", "line 1, column 9", "not closed"},
      {"1. e3e4 $x\n", "line 1, column 9", "NAG"},
      {"1. e3e4 }\n", "line 1, column 9", "unexpected '}'"},
  };
  for (const auto& b : bad) {
    auto r = readPgn(b.text, "b.pgn");
    ASSERT_FALSE(r.ok()) << b.text;
    EXPECT_NE(r.error().text().find("b.pgn " + b.where), std::string::npos) << b.text << " -> " << r.error().text();
    EXPECT_NE(r.error().text().find(b.says), std::string::npos) << b.text << " -> " << r.error().text();
  }
}

TEST(Pgn, ReplayErrorsNameTheMove) {
  auto replay = [](const std::string& text) {
    auto games = readPgn(text, "r.pgn");
    EXPECT_TRUE(games.ok());
    EXPECT_EQ(games->size(), 1u);
    return replayPgn(games->front(), registry(), engineNotation(), "r.pgn");
  };
  auto illegal = replay("[VariantName \"shako\"]\n\n1. e3e4 e8e7\n2. e4e9 *\n");
  ASSERT_FALSE(illegal.ok());
  EXPECT_EQ(illegal.error().location, "r.pgn line 4, column 4");
  EXPECT_NE(illegal.error().message.find("\"e4e9\" is not a legal move"), std::string::npos);

  auto unknown = replay("[Variant \"Checkers\"]\n\n1. e3e4 *\n");
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.error().text().find("unknown variant \"Checkers\""), std::string::npos);

  auto badFen = replay("[VariantName \"shako\"]\n[FEN \"nonsense\"]\n\n*\n");
  ASSERT_FALSE(badFen.ok());
  EXPECT_NE(badFen.error().text().find("the start"), std::string::npos);

  auto badOption = replay("[VariantName \"shako\"]\n[VariantOptions \"die=on\"]\n\n*\n");
  ASSERT_FALSE(badOption.ok());

  auto badSeed = replay("[VariantName \"grant-acedrex\"]\n[Seed \"12x\"]\n\n*\n");
  ASSERT_FALSE(badSeed.ok());
  EXPECT_NE(badSeed.error().text().find("[Seed]"), std::string::npos);

  // The die's throw in the record must be the one the seed gives.
  Game g(rules("grant-acedrex", {"die=on"}), 5);
  const int face = g.currentThrow();
  auto die = replay("[VariantName \"grant-acedrex\"]\n[VariantOptions \"die=on\"]\n[Seed \"5\"]\n\n1. " +
                    g.position().moveText(g.legalMoves().front()) + " {die " + std::to_string(face % 6 + 1) + "} *\n");
  ASSERT_FALSE(die.ok());
  EXPECT_NE(die.error().text().find("the die shows " + std::to_string(face)), std::string::npos) << die.error().text();

  auto after = replay("[VariantName \"four-seasons\"]\n\n1. R {purple resigns} *\n");
  ASSERT_FALSE(after.ok());
  EXPECT_NE(after.error().text().find("purple resigns"), std::string::npos);

  // SAN that names two moves is refused, not guessed.
  auto games = readPgn("[VariantName \"shako\"]\n\n1. Nd4 *\n");
  ASSERT_TRUE(games.ok());
  EXPECT_TRUE(replayPgn(games->front(), registry(), sanNotation()).ok());
  auto wrongNotation = replayPgn(games->front(), registry(), engineNotation());
  EXPECT_FALSE(wrongNotation.ok());
}

// Mutations of real records: the reader and the replay give a value or an
// error, never a crash (fuzz/pgn_fuzz.cpp does this at length).
TEST(Pgn, MangledRecordsGiveErrorsNotCrashes) {
  Game g = randomGame(rules("four-seasons", {"die=on"}), 17);
  PgnWriteOptions o;
  o.notation = &longNotation();
  const std::string base = writePgn(g, o) + "\n" + writePgn(randomGame(rules("shako"), 5));
  const std::string alphabet = "[]{}()\";%$.\\ \n01-/*abcRT!?+#=x";
  std::mt19937_64 rng(99);
  int errors = 0;
  for (int i = 0; i < 160; ++i) {
    std::string t = base;
    const int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits && !t.empty(); ++e) {
      const size_t at = rng() % t.size();
      switch (rng() % 3) {
        case 0: t[at] = alphabet[rng() % alphabet.size()]; break;
        case 1: t.erase(at, 1 + rng() % 8); break;
        default: t.insert(at, 1, alphabet[rng() % alphabet.size()]);
      }
    }
    auto games = readPgn(t);
    if (!games.ok()) {
      ++errors;
      EXPECT_FALSE(games.error().message.empty());
      EXPECT_NE(games.error().location.find("line "), std::string::npos);
      continue;
    }
    for (const auto& rec : *games) {
      const MoveNotation& n = pgnVariant(rec, registry()) == "shako" ? engineNotation() : longNotation();
      auto r = replayPgn(rec, registry(), n);
      if (!r.ok()) {
        ++errors;
        EXPECT_FALSE(r.error().message.empty());
      }
    }
  }
  EXPECT_GT(errors, 30);
}

}  // namespace
}  // namespace acedrex::test
