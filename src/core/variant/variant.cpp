#include "core/variant/variant.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/mechanisms/drops.h"
#include "core/mechanisms/promotion_move.h"
#include "core/mechanisms/points.h"
#include "core/records/fen4.h"
#include "core/mechanisms/seat_frames.h"
#include "core/board/hex3.h"
#include "core/mechanisms/unions.h"
#include "core/variant/embedded_variants.h"
#include "core/base/text_util.h"
#include "core/position/position.h"

namespace acedrex {

Result<VariantDef> parseVariantFile(const std::string& text, const std::string& source) {
  VariantDef def;
  std::istringstream in(text);
  std::string raw;
  int lineNo = 0;
  while (std::getline(in, raw)) {
    ++lineNo;
    const std::string where = source + ":" + std::to_string(lineNo);
    std::string line = trim(raw.substr(0, raw.find('#')));
    if (line.empty()) continue;
    VariantLine vl;
    vl.lineNo = lineNo;
    if (line[0] == '[') {
      const size_t close = line.find(']');
      const size_t eq = line.find('=');
      if (close == std::string::npos || eq == std::string::npos || eq > close)
        return makeError("variant-file", "a condition is written [option=value]", where);
      vl.condOption = trim(line.substr(1, eq - 1));
      vl.condValue = trim(line.substr(eq + 1, close - eq - 1));
      line = trim(line.substr(close + 1));
    }
    const size_t eq = line.find('=');
    if (eq == std::string::npos) return makeError("variant-file", "expected key = value", where);
    vl.key = trim(line.substr(0, eq));
    vl.value = trim(line.substr(eq + 1));
    if (vl.key.empty()) return makeError("variant-file", "empty key", where);
    if (vl.key == "name") {
      def.name = vl.value;
      continue;
    }
    if (vl.key == "alias") {
      def.aliases.push_back(vl.value);
      continue;
    }
    if (vl.key == "title") {
      def.title = vl.value;
      continue;
    }
    if (vl.key == "option") {
      OptionDef opt;
      const size_t colon = vl.value.find(':');
      auto ws = words(vl.value.substr(0, colon));
      if (ws.size() < 3) return makeError("variant-file", "an option needs a name and two values", where);
      opt.name = ws[0];
      opt.values.assign(ws.begin() + 1, ws.end());
      if (colon != std::string::npos) opt.help = trim(vl.value.substr(colon + 1));
      def.options.push_back(opt);
      continue;
    }
    def.lines.push_back(vl);
  }
  if (def.name.empty()) return makeError("variant-file", "the file has no name", source);
  for (const auto& l : def.lines) {
    if (l.condOption.empty()) continue;
    auto it = std::find_if(def.options.begin(), def.options.end(),
                           [&](const OptionDef& o) { return o.name == l.condOption; });
    if (it == def.options.end() ||
        std::find(it->values.begin(), it->values.end(), l.condValue) == it->values.end())
      return makeError("variant-file", "the condition names no option value: " + l.condOption + "=" + l.condValue,
                       source + ":" + std::to_string(l.lineNo));
  }
  if (def.title.empty()) def.title = def.name;
  return def;
}

// ---------------------------------------------------------------------------
// The keys of a variant file. Each handler reads one line's value, checks it
// and stores it in the Rules; its error carries the message only (compile
// adds the variant and the line). A new key is one row of kVariantKeys plus
// its handler.

namespace {

const VariantKey* findKey(const std::string& name);

// The form of the line's key, from the table.
std::string_view formOf(const VariantLine& l) { return findKey(l.key)->form; }

// The key's form as the error: "key = form".
Error formError(const VariantLine& l, std::string_view form) { return keyError(l.key + " = " + std::string(form)); }
Error formError(const VariantLine& l) { return formError(l, formOf(l)); }

// The index of v among the words of a form "a|b|c", or -1.
int wordIndex(const std::string& v, std::string_view form) {
  int i = 0;
  for (size_t at = 0;; ++i) {
    const size_t bar = form.find('|', at);
    if (form.substr(at, bar == std::string_view::npos ? std::string_view::npos : bar - at) == v) return i;
    if (bar == std::string_view::npos) return -1;
    at = bar + 1;
  }
}

// A value that is one word of its key's form "a|b|c": store(its index), or the form as the error.
template <class Store>
Status oneWordOf(const VariantLine& l, Store&& store) {
  const int i = wordIndex(l.value, formOf(l));
  if (i < 0) return formError(l);
  store(i);
  return okStatus();
}

// A yes|no value into flag.
Status yesNo(const VariantLine& l, bool& flag) {
  return oneWordOf(l, [&](int i) { flag = i == 0; });
}

// Piece letters (any case, spaces allowed) to types.
Status typeList(const Rules& r, const std::string& value, std::vector<int>& out) {
  for (const auto& w : words(value))
    for (char c : w) {
      const int t = r.typeByLetter(static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
      if (t < 0) return keyError(std::string("no piece ") + c);
      out.push_back(t);
    }
  return okStatus();
}

Status readBoard(Rules& r, const VariantLine& l) {
  const size_t x = l.value.find('x');
  if (x == std::string::npos) return keyError("board is written WxH");
  r.width = std::atoi(l.value.substr(0, x).c_str());
  r.height = std::atoi(l.value.substr(x + 1).c_str());
  if (r.width < 2 || r.height < 2 || r.width > kMaxFiles || r.height > kMaxRanks)
    return keyError("a board is 2x2 to 16x16");
  r.blocked.assign(r.nsq(), false);
  return okStatus();
}

Status readBlocked(Rules& r, const VariantLine& l) {
  for (const auto& w : words(l.value)) {
    const size_t dash = w.find('-');
    auto a = r.parseSquare(w.substr(0, dash));
    auto b = dash == std::string::npos ? a : r.parseSquare(w.substr(dash + 1));
    if (!a.ok() || !b.ok()) return keyError("bad blocked squares \"" + w + "\"");
    for (int f = std::min(r.fileOf(*a), r.fileOf(*b)); f <= std::max(r.fileOf(*a), r.fileOf(*b)); ++f)
      for (int k = std::min(r.rankOf(*a), r.rankOf(*b)); k <= std::max(r.rankOf(*a), r.rankOf(*b)); ++k)
        r.blocked[r.square(f, k)] = true;
  }
  return okStatus();
}

Status readSeat(Rules& r, const VariantLine& l) {
  auto ws = words(l.value);
  if (ws.size() != 3 || ws[1].size() != 1 || ws[2].size() != 1 || dirByLetter(ws[2][0]) < 0)
    return formError(l);
  r.seats.push_back({ws[0], ws[1][0], dirByLetter(ws[2][0])});
  return okStatus();
}

Status readPiece(Rules& r, const VariantLine& l) {
  auto ws = words(l.value);
  // "+X": the promoted form of the piece X defined before (shogi); its letter is x.
  const bool plus = ws.size() >= 2 && ws[1].size() == 2 && ws[1][0] == '+';
  if (plus) ws[1].erase(0, 1);
  if (ws.size() < 3 || ws[1].size() != 1 || !std::isupper(static_cast<unsigned char>(ws[1][0])))
    return formError(l);
  PieceType t;
  t.name = ws[0];
  t.letter = ws[1][0];
  if (plus) {
    t.base = r.typeByLetter(t.letter);
    if (t.base < 0) return keyError("+" + ws[1] + ": no piece " + ws[1] + " defined before");
    t.letter = static_cast<char>(std::tolower(static_cast<unsigned char>(t.letter)));
  }
  t.betza = ws[2];
  for (size_t i = 3; i < ws.size(); ++i) {
    if (ws[i] == "royal") t.royal = true;
    else if (ws[i] == "pawn") t.pawn = true;
    else return keyError("unknown piece flag \"" + ws[i] + "\"");
  }
  auto atoms = parseBetza(t.betza);
  if (!atoms.ok()) return keyError(atoms.error().text());
  t.atoms = std::move(atoms.value());
  // A conditional line redefines the piece of the same letter; otherwise a letter is used once.
  int existing = r.typeByLetter(t.letter);
  if (plus)
    for (size_t i = 0; i < r.types.size(); ++i)
      if (r.types[i].letter == t.letter) existing = static_cast<int>(i);
  if (existing >= 0 && l.condOption.empty()) return keyError(std::string("piece letter used twice: ") + t.letter);
  if (existing >= 0) r.types[existing] = std::move(t);
  else r.types.push_back(std::move(t));
  return okStatus();
}

// "LO-HI" or "N" (1-based) into lo and hi; false if malformed.
bool readRange(const std::string& w, int& lo, int& hi) {
  const size_t dash = w.find('-');
  lo = smallNumber(w.substr(0, dash));
  hi = dash == std::string::npos ? lo : smallNumber(w.substr(dash + 1));
  return lo >= 1 && hi >= lo;
}

// LETTER FILES RANKS [BETZA]: the piece type and zone of a region or zone-moves line.
Status readZone(const Rules& r, const std::vector<std::string>& ws, int& type, Zone& z) {
  if (ws[0].size() != 1 || (type = r.typeByLetter(ws[0][0])) < 0) return keyError("no piece " + ws[0]);
  if (!readRange(ws[1], z.fileLo, z.fileHi) || !readRange(ws[2], z.rankLo, z.rankHi))
    return keyError("files and ranks are written LO-HI");
  for (const auto& atom : r.types[type].atoms)
    if (atom.kind != AtomKind::kLeap) return keyError("a region or zone moves are for leapers only");
  return okStatus();
}

Status readRegion(Rules& r, const VariantLine& l) {
  const auto ws = words(l.value);
  if (ws.size() != 3) return formError(l, "LETTER FILES RANKS");
  int type = -1;
  Zone z;
  if (auto st = readZone(r, ws, type, z); !st.ok()) return st;
  r.regions.resize(r.types.size());
  r.regions[type] = z;
  r.hasRegion = true;
  return okStatus();
}

Status readZoneMoves(Rules& r, const VariantLine& l) {
  const auto ws = words(l.value);
  if (ws.size() != 4) return formError(l, "LETTER FILES RANKS BETZA");
  ZoneMoves zm;
  if (auto st = readZone(r, ws, zm.type, zm.zone); !st.ok()) return st;
  auto atoms = parseBetza(ws[3]);
  if (!atoms.ok()) return keyError(atoms.error().text());
  for (const auto& atom : atoms.value())
    if (atom.kind != AtomKind::kLeap) return keyError("zone moves are leaps only");
  zm.atoms = std::move(atoms.value());
  r.zoneMoves.push_back(std::move(zm));
  return okStatus();
}

Status readLineSquares(Rules& r, const VariantLine& l) {
  r.lineSquares.assign(r.nsq(), false);
  for (const auto& w : words(l.value)) {
    auto sq = r.parseSquare(w);
    if (!sq.ok()) return keyError("bad square \"" + w + "\"");
    r.lineSquares[*sq] = true;
  }
  return okStatus();
}

Status readLineMoves(Rules& r, const VariantLine& l) {
  const auto ws = words(l.value);
  if (ws.size() != 2 || ws[0].size() != 1) return formError(l, "LETTER BETZA");
  ZoneMoves lm;
  if ((lm.type = r.typeByLetter(ws[0][0])) < 0) return keyError("no piece " + ws[0]);
  auto atoms = parseBetza(ws[1]);
  if (!atoms.ok()) return keyError(atoms.error().text());
  for (auto& atom : atoms.value()) {
    if (atom.kind == AtomKind::kBent) return keyError("line moves are leaps, slides or hops");
    atom.linesOnly = true;
  }
  lm.atoms = std::move(atoms.value());
  r.lineMoves.push_back(std::move(lm));
  return okStatus();
}

Status readHopNotSame(Rules& r, const VariantLine& l) {
  std::vector<int> types;
  if (auto st = typeList(r, l.value, types); !st.ok()) return st;
  r.hopNotSame.assign(r.types.size(), false);
  for (int t : types) r.hopNotSame[t] = true;
  return okStatus();
}

Status readPass(Rules& r, const VariantLine& l) { return yesNo(l, r.pass); }

Status readBikjang(Rules& r, const VariantLine& l) { return yesNo(l, r.bikjang); }

// none, or HANDICAP LETTER:POINTS ...
Status readMaterialCount(Rules& r, const VariantLine& l) {
  const auto ws = words(l.value);
  r.materialPoints.clear();
  if (ws.size() == 1 && ws[0] == "none") return okStatus();
  if (ws.size() < 2 || (r.countHandicap = smallNumber(ws[0])) < 0) return formError(l, "none, or HANDICAP LETTER:POINTS ...");
  r.materialPoints.assign(r.types.size(), 0);
  for (size_t i = 1; i < ws.size(); ++i) {
    const int t = ws[i].size() >= 3 && ws[i][1] == ':' ? r.typeByLetter(ws[i][0]) : -1;
    const int v = t >= 0 ? smallNumber(ws[i].substr(2)) : -1;
    if (v < 0) return keyError("bad piece points \"" + ws[i] + "\"");
    r.materialPoints[t] = v;
  }
  return okStatus();
}

// none, or LETTER:SAN-LETTER ...: the letter records write for a piece
// (Fairy-Stockfish's piece synonyms: xiangqi's horse N is written H).
Status readSanLetters(Rules& r, const VariantLine& l) {
  const auto ws = words(l.value);
  r.sanLetters.clear();
  if (ws.size() == 1 && ws[0] == "none") return okStatus();
  if (ws.empty()) return formError(l);
  r.sanLetters.assign(r.types.size(), '\0');
  for (const auto& w : ws) {
    const int t = w.size() == 3 && w[1] == ':' ? r.typeByLetter(w[0]) : -1;
    if (t < 0 || !std::isupper(static_cast<unsigned char>(w[2])))
      return keyError("bad SAN letter \"" + w + "\" (LETTER:LETTER, e.g. N:H)");
    r.sanLetters[static_cast<size_t>(t)] = w[2];
  }
  return okStatus();
}

Status readRecordNotation(Rules& r, const VariantLine& l) {
  return oneWordOf(l, [&](int i) { r.shogiRecords = i == 1; });
}

Status readPerpetualCheck(Rules& r, const VariantLine& l) {
  return oneWordOf(l, [&](int i) { r.perpetualCheckLoses = i == 1; });
}

Status readFlyingGeneral(Rules& r, const VariantLine& l) { return yesNo(l, r.flyingGeneral); }

// chasing = axf: two seats, and every type one of xiangqi's pieces by its moves.
Status readChasing(Rules& r, const VariantLine& l) {
  if (auto s = oneWordOf(l, [&](int i) { r.chasing = i == 1; }); !s.ok()) return s;
  r.chaseRole.clear();
  if (!r.chasing) return okStatus();
  if (r.nseats() != 2) return keyError("chasing = axf needs two seats");
  using Role = Rules::ChaseRole;
  static const std::pair<std::string_view, Role> kRoles[] = {
      {"F", Role::kAdvisor}, {"nA", Role::kElephant}, {"nN", Role::kHorse},
      {"R", Role::kRook},    {"mRcpR", Role::kCannon}, {"fW", Role::kSoldier},
  };
  for (const auto& t : r.types) {
    if (t.royal && t.betza == "W") {
      r.chaseRole.push_back(Role::kKing);
      continue;
    }
    const auto* it = std::find_if(std::begin(kRoles), std::end(kRoles), [&](const auto& x) { return x.first == t.betza; });
    if (t.royal || it == std::end(kRoles))
      return keyError("chasing = axf needs xiangqi's pieces (W royal, F, nA, nN, R, mRcpR, fW), not " + t.name + " " + t.betza);
    r.chaseRole.push_back(it->second);
  }
  return okStatus();
}

Status readPromotion(Rules& r, const VariantLine& l) { return typeList(r, l.value, r.promoChoices); }

Status readPromotionByFile(Rules& r, const VariantLine& l) {
  if (auto s = typeList(r, l.value, r.promoByFile); !s.ok()) return s;
  if (static_cast<int>(r.promoByFile.size()) != r.width) return keyError("one piece per file");
  return okStatus();
}

Status readDoubleStep(Rules& r, const VariantLine& l) {
  const int most = std::max(r.width, r.height);
  const int rank = smallNumber(l.value);
  if (rank < 0 || rank > most)
    return keyError("double-step = a relative rank from 0 (none) to " + std::to_string(most));
  r.doubleStepRank = rank;
  return okStatus();
}

Status readDoubleStepRights(Rules& r, const VariantLine& l) {
  return oneWordOf(l, [&](int i) {
    r.doubleRights = std::array{DoubleStepRights::kNone, DoubleStepRights::kUntilCapture}[i];
  });
}

Status readEnPassant(Rules& r, const VariantLine& l) { return yesNo(l, r.enPassant); }

Status readCastling(Rules& r, const VariantLine& l) {
  if (l.value == "none") return okStatus();
  auto ws = words(l.value);
  if (ws.size() != 5)
    return keyError(
        "castling = RANK KING-FILE-KINGSIDE KING-FILE-QUEENSIDE ROOK-FILE-KINGSIDE ROOK-FILE-QUEENSIDE, e.g. 2 h d i b");
  if (r.seats.size() == 2)
    for (const auto& seat : r.seats)
      if (seat.dir != kNorth && seat.dir != kSouth) return keyError("castling needs seats that face north or south");
  const int rank = smallNumber(ws[0]);
  if (rank < 1 || rank > r.height)
    return keyError("the castling rank must be from 1 to " + std::to_string(r.height) + ", not \"" + ws[0] + "\"");
  r.castlingRank = rank;
  const char last = static_cast<char>('a' + r.width - 1);
  for (int i = 1; i < 5; ++i)
    if (ws[i].size() != 1 || ws[i][0] < 'a' || ws[i][0] > last)
      return keyError("castling files are letters from a to " + std::string(1, last) + ", not \"" + ws[i] + "\"");
  for (int i = 0; i < 2; ++i) {
    r.castleKingFile[i] = ws[1 + i][0] - 'a';
    r.castleRookFile[i] = ws[3 + i][0] - 'a';
  }
  // The rook lands beside the king on the inner side: left of it on the king side.
  if (r.castleKingFile[0] == 0) return keyError("the king side's king file leaves no room for the rook (a)");
  if (r.castleKingFile[1] == r.width - 1)
    return keyError("the queen side's king file leaves no room for the rook (" + std::string(1, last) + ")");
  if (r.castleKingFile[0] == r.castleKingFile[1]) return keyError("the two king files must differ");
  return okStatus();
}

Status readKingLeap(Rules& r, const VariantLine& l) {
  if (l.value == "none") return okStatus();
  auto atoms = parseBetza(l.value);
  if (!atoms.ok()) return keyError(atoms.error().text());
  for (const auto& a : atoms.value())
    for (const auto& o : a.offsets) r.kingLeaps.push_back(o);
  return okStatus();
}

Status readEnding(Rules& r, const VariantLine& l) {
  return oneWordOf(l, [&](int i) {
    r.ending = std::array{Ending::kCheckmate, Ending::kLastStanding, Ending::kFirstMate}[i];
  });
}

Status readMate(Rules& r, const VariantLine& l) {
  return oneWordOf(l, [&](int i) {
    r.mateEffect = std::array{MateEffect::kNone, MateEffect::kTakeover, MateEffect::kRemove}[i];
  });
}

Status readStalemate(Rules& r, const VariantLine& l) {
  return oneWordOf(l, [&](int i) {
    r.stalemate = std::array{StalemateEffect::kDraw, StalemateEffect::kLoss, StalemateEffect::kOut,
                             StalemateEffect::kOthersDraw, StalemateEffect::kWin, StalemateEffect::kPass}[i];
  });
}

Status readBareKing(Rules& r, const VariantLine& l) {
  return oneWordOf(l, [&](int i) {
    r.bareKingLoses = i == 1;
    r.bareKingReply = i == 2;
  });
}

Status readMoveRule(Rules& r, const VariantLine& l) {
  const int n = smallNumber(l.value);
  if (n < 0) return formError(l, "a number of moves, 0 for none");
  r.moveRule = n;
  return okStatus();
}

Status readCastlingNotation(Rules& r, const VariantLine& l) {
  return oneWordOf(l, [&](int i) { r.castlingOntoRook = i == 1; });
}

Status readStartArray(Rules& r, const VariantLine& l) {
  return oneWordOf(l, [&](int i) { r.chess960Start = i == 1; });
}

Status readKingLeapPath(Rules& r, const VariantLine& l) {
  return oneWordOf(l, [&](int i) { r.kingLeapSafePath = i == 0; });
}

Status readKingLeapLost(Rules& r, const VariantLine& l) {
  return oneWordOf(l, [&](int i) { r.kingLeapLostToRook = i == 1; });
}

Status readFirstStep(Rules& r, const VariantLine& l) {
  if (l.value == "none") return okStatus();
  const int t = l.value.size() == 1 ? r.typeByLetter(l.value[0]) : -1;
  if (t < 0) return formError(l, "none, or a piece letter");
  r.firstStepType = t;
  return okStatus();
}

Status readRightsText(Rules& r, const VariantLine& l) {
  return oneWordOf(l, [&](int i) { r.rightsByFile = i == 1; });
}

Status readCounting(Rules& r, const VariantLine& l) {
  return oneWordOf(l, [&](int i) {
    r.counting = std::array{Counting::kNone, Counting::kMakruk, Counting::kCambodian, Counting::kAsean}[i];
  });
}

// none, minor-pieces, or mating-pieces LETTER ... (the types that mate alone).
Status readInsufficient(Rules& r, const VariantLine& l) {
  const auto ws = words(l.value);
  r.matingPieces.assign(r.types.size(), false);
  r.insufficient = Rules::Insufficient::kNone;
  if (ws.size() == 1 && ws[0] == "none") return okStatus();
  if (ws.size() == 1 && ws[0] == "minor-pieces") {
    r.insufficient = Rules::Insufficient::kMinorPieces;
  } else if (!ws.empty() && ws[0] == "mating-pieces") {
    std::vector<int> types;
    if (auto s = typeList(r, l.value.substr(l.value.find("mating-pieces") + 13), types); !s.ok()) return s;
    for (int t : types) {
      if (t == r.royalType) return keyError("insufficient-material: the royal piece is not a mating piece");
      r.matingPieces[t] = true;
    }
    r.insufficient = Rules::Insufficient::kMatingPieces;
  } else {
    return formError(l);
  }
  if (r.nseats() != 2 || r.royalType < 0) return keyError("insufficient-material needs two seats and a royal piece");
  return okStatus();
}

Status readOnlyKings(Rules& r, const VariantLine& l) {
  return oneWordOf(l, [&](int i) { r.onlyKingsDraw = i == 0; });
}

Status readCoins(Rules& r, const VariantLine& l) { return yesNo(l, r.coins); }

Status readDie(Rules& r, const VariantLine& l) {
  if (l.value == "none") return okStatus();
  for (const auto& w : words(l.value)) {
    const size_t colon = w.find(':');
    // FACE:LETTERS: the face lets any of the kinds move (chaturaji's 5:KP).
    const int t = colon == std::string::npos || colon + 1 >= w.size() ? -1 : r.typeByLetter(w[colon + 1]);
    if (t < 0) return formError(l, "FACE:PIECES ...");
    uint64_t kinds = 0;
    for (size_t i = colon + 1; i < w.size(); ++i) {
      const int k = r.typeByLetter(w[i]);
      if (k < 0) return formError(l, "FACE:PIECES ...");
      kinds |= uint64_t{1} << k;
    }
    if (static_cast<int>(r.die.size()) >= kMaxDieFaces)
      return keyError("a die has at most " + std::to_string(kMaxDieFaces) + " faces");
    r.die.push_back({std::atoi(w.substr(0, colon).c_str()), t, kinds});
  }
  return okStatus();
}

Status readMustCapture(Rules& r, const VariantLine& l) { return yesNo(l, r.mustCapture); }

Status readBlast(Rules& r, const VariantLine& l) {
  if (auto s = oneWordOf(l, [&](int i) { r.blastOnCapture = i == 1; }); !s.ok()) return s;
  if (r.blastOnCapture && r.royalType < 0) return keyError("blast = atomic needs a royal piece");
  return okStatus();
}

Status readKingCapture(Rules& r, const VariantLine& l) {
  if (auto s = yesNo(l, r.kingCapture); !s.ok()) return s;
  if (r.kingCapture && r.royalType < 0) return keyError("king-capture = yes needs a royal piece");
  return okStatus();
}

Status readVisibility(Rules& r, const VariantLine& l) {
  if (auto s = oneWordOf(l, [&](int i) { r.fog = i == 1; }); !s.ok()) return s;
  if (r.fog && r.nseats() != 2) return keyError("visibility = moves needs two seats");
  return okStatus();
}

Status readDuck(Rules& r, const VariantLine& l) {
  if (auto s = yesNo(l, r.duck); !s.ok()) return s;
  if (r.duck && r.nseats() != 2) return keyError("duck = yes needs two seats");
  if (r.duck && r.nsq() > 255) return keyError("duck = yes needs a board of at most 255 squares");
  return okStatus();
}

Status readUnions(Rules& r, const VariantLine& l) {
  if (auto s = yesNo(l, r.unions); !s.ok()) return s;
  if (r.unions && (r.nseats() != 2 || r.nsq() > kUnionSquares || r.royalType < 0 || r.drops))
    return keyError("unions = yes needs two seats, a royal piece, no drops and at most " +
                    std::to_string(kUnionSquares) + " squares");
  return okStatus();
}

Status readStart(Rules& r, const VariantLine& l) {
  r.start = l.value;
  return okStatus();
}

using Phase = VariantKey::Phase;

// The order within a phase is the order of the docs; rule keys are read in
// the alphabetical order of their names.
const VariantKey kVariantKeys[] = {
    {"board", "WxH, 2 to 16 each", Phase::kBoard, readBoard},
    {"blocked", "SQUARE or SQUARE-SQUARE (a rectangle), separated by spaces", Phase::kBoard, readBlocked},
    {"geometry", "rect|hex3 (three-player chess's 96 cells on a 12x12 board)", Phase::kRule, readGeometry},
    {"seat", "NAME LETTER DIRECTION(n|e|s|w)", Phase::kList, readSeat},
    {"piece", "NAME LETTER|+LETTER BETZA [royal] [pawn]", Phase::kList, readPiece},
    {"region", "LETTER FILES RANKS (relative, 1-based, LO-HI)", Phase::kList, readRegion},
    {"zone-moves", "LETTER FILES RANKS BETZA", Phase::kList, readZoneMoves},
    {"line-squares", "SQUARE ... (the points joined by the drawn diagonals)", Phase::kBoard, readLineSquares},
    {"line-moves", "LETTER BETZA", Phase::kList, readLineMoves},
    {"promotion", "piece letters", Phase::kRule, readPromotion},
    {"promotion-by-file", "one piece letter per file", Phase::kRule, readPromotionByFile},
    {"double-step", "a relative rank from 0 (none) to the board's larger side", Phase::kRule, readDoubleStep},
    {"double-step-rights", "none|until-capture", Phase::kRule, readDoubleStepRights},
    {"en-passant", "yes|no", Phase::kRule, readEnPassant},
    {"castling", "none, or RANK KING-FILE-KINGSIDE KING-FILE-QUEENSIDE ROOK-FILE-KINGSIDE ROOK-FILE-QUEENSIDE",
     Phase::kRule, readCastling},
    {"castling-notation", "standard|960", Phase::kRule, readCastlingNotation},
    {"start-array", "fixed|chess960", Phase::kRule, readStartArray},
    {"king-leap", "none, or a Betza string of leaps", Phase::kRule, readKingLeap},
    {"king-leap-path", "safe|free", Phase::kRule, readKingLeapPath},
    {"king-leap-lost", "moved|rook-line", Phase::kRule, readKingLeapLost},
    {"first-step", "none, or a piece letter", Phase::kRule, readFirstStep},
    {"rights-text", "letters|files", Phase::kRule, readRightsText},
    {"ending", "checkmate|last-standing|first-mate", Phase::kRule, readEnding},
    {"mate", "none|takeover|remove", Phase::kRule, readMate},
    {"stalemate", "draw|loss|out|others-draw|win|pass", Phase::kRule, readStalemate},
    {"bare-king", "plays|loses|reply", Phase::kRule, readBareKing},
    {"counting", "none|makruk|cambodian|asean", Phase::kRule, readCounting},
    {"insufficient-material", "none, minor-pieces, or mating-pieces LETTER ...", Phase::kRule, readInsufficient},
    {"move-rule", "a number of moves, 0 for none", Phase::kRule, readMoveRule},
    {"only-kings", "draw|plays", Phase::kRule, readOnlyKings},
    {"flying-general", "yes|no", Phase::kRule, readFlyingGeneral},
    {"bikjang", "yes|no", Phase::kRule, readBikjang},
    {"pass", "yes|no", Phase::kRule, readPass},
    {"material-count", "none, or HANDICAP LETTER:POINTS ...", Phase::kRule, readMaterialCount},
    {"perpetual-check", "draws|loses", Phase::kRule, readPerpetualCheck},
    {"chasing", "none|axf", Phase::kRule, readChasing},
    {"san-letters", "none, or LETTER:SAN-LETTER ... (e.g. N:H B:E)", Phase::kRule, readSanLetters},
    {"record-notation", "san|shogi", Phase::kRule, readRecordNotation},
    {"hop-not-same", "piece letters (hoppers that neither hop over nor capture their own type)", Phase::kRule, readHopNotSame},
    {"coins", "yes|no", Phase::kRule, readCoins},
    {"die", "none, or FACE:PIECES ...", Phase::kRule, readDie},
    {"must-capture", "yes|no", Phase::kRule, readMustCapture},
    {"blast", "none|atomic", Phase::kRule, readBlast},
    {"king-capture", "yes|no", Phase::kRule, readKingCapture},
    {"visibility", "all|moves", Phase::kRule, readVisibility},
    {"drops", "yes|no|setup", Phase::kRule, readDrops},
    {"duck", "yes|no", Phase::kRule, readDuck},
    {"unions", "yes|no", Phase::kRule, readUnions},
    {"drop-ranks", "LETTER LOW HIGH (relative ranks)", Phase::kRule, readDropRanks},
    {"drop-no-doubled", "LETTER", Phase::kRule, readDropNoDoubled},
    {"drop-mate", "none|LETTER", Phase::kRule, readDropMate},
    {"promotion-zone", "DEPTH [forced] FROM:TO ...", Phase::kRule, readPromotionZone},
    {"promotion-move", "none, or LETTER SQUARE ...", Phase::kRule, readPromotionMove},
    {"repetition", "COUNT draw|first-seat-loses", Phase::kRule, readRepetition},
    {"promotion-rank", "a relative rank from 2 to the board's larger side, or 0 (the far edge)", Phase::kRule, readPromotionRank},
    {"teams", "none, or groups of seat letters, e.g. ry bg", Phase::kRule, readTeams},
    {"dead-pieces", "yes|no", Phase::kRule, readDeadPieces},
    {"king-capture-in-check", "yes|no", Phase::kRule, readKingCaptureInCheck},
    {"stuck-pawn", "none, or LETTER (hex3 with takeover: what a pawn becomes whose way leads to its new owner's back rank)", Phase::kRule, readStuckPawn},
    {"points", "none, or LETTER:POINTS ...", Phase::kRule, readPoints},
    {"position-text", "acedrex|chess.com", Phase::kRule, readPositionText},
    {"awards", "NAME:VALUE ... (mate, stalemate, draw, resign-king, standing-king, dead-king, check2, check3, threats)", Phase::kRule, readAwards},
    {"start", "a position text", Phase::kRule, readStart},
};

const VariantKey* findKey(const std::string& name) {  // nullptr: no such key
  for (const auto& k : kVariantKeys)
    if (k.name == name) return &k;
  return nullptr;
}

// Every option with its chosen value: given ones checked, the rest defaulted.
Result<OptionValues> chooseOptions(const VariantDef& def, const OptionValues& given) {
  for (const auto& kv : given) {
    const std::string& k = kv.first;
    const std::string& v = kv.second;
    auto it = std::find_if(def.options.begin(), def.options.end(), [&](const OptionDef& o) { return o.name == k; });
    if (it == def.options.end()) return makeError("option", "unknown option \"" + k + "\" for " + def.name);
    if (std::find(it->values.begin(), it->values.end(), v) == it->values.end()) {
      std::string vals;
      for (const auto& x : it->values) vals += (vals.empty() ? "" : "|") + x;
      return makeError("option", "option " + k + " takes " + vals + ", not \"" + v + "\"");
    }
  }
  OptionValues chosen;
  for (const auto& o : def.options) {
    auto it = given.find(o.name);
    chosen[o.name] = it == given.end() ? o.values.front() : it->second;
  }
  return chosen;
}

// What the seat and piece lines must make together.
Status checkSeatsAndPieces(Rules& r) {
  if (r.seats.size() < 2 || r.seats.size() > kMaxSeats) return keyError("2 to 8 seats");
  for (size_t i = 0; i < r.seats.size(); ++i)
    for (size_t j = 0; j < i; ++j) {
      if (r.seats[i].name == r.seats[j].name) return keyError("seat name used twice: " + r.seats[i].name);
      if (r.seats[i].letter == r.seats[j].letter) return keyError(std::string("seat letter used twice: ") + r.seats[i].letter);
    }
  if (r.types.empty() || r.types.size() > kMaxPieceTypes) return keyError("1 to 14 piece types");
  for (size_t i = 0; i < r.types.size(); ++i)
    if (r.types[i].royal) {
      if (r.royalType >= 0) return keyError("only one royal piece type");
      r.royalType = static_cast<int>(i);
    }
  // No royal piece (antichess): no check, no mate; the game ends by the stalemate rule.
  return okStatus();
}

}  // namespace

std::span<const VariantKey> variantKeys() { return kVariantKeys; }

Result<std::shared_ptr<const Rules>> Rules::compile(const VariantDef& def, const OptionValues& given) {
  auto r = std::make_shared<Rules>();
  r->variant = def.name;
  r->title = def.title;
  auto options = chooseOptions(def, given);
  if (!options.ok()) return options.error();
  r->options = std::move(options.value());
  // Later lines override earlier ones; conditional lines apply when their option has that value.
  std::vector<const VariantLine*> active;
  for (const auto& l : def.lines)
    if (l.condOption.empty() || r->options[l.condOption] == l.condValue) active.push_back(&l);
  std::map<std::string, const VariantLine*> last;
  for (const auto* l : active) last[l->key] = l;
  auto apply = [&](const VariantKey& key, const VariantLine* l) -> Status {
    if (auto s = key.apply(*r, *l); !s.ok())
      return makeError("variant-file", s.error().message, def.name + ":" + std::to_string(l->lineNo));
    return okStatus();
  };

  // 1. The board and its holes.
  if (!last.count("board")) return makeError("variant-file", "no board", def.name);
  for (const auto& key : kVariantKeys)
    if (key.phase == Phase::kBoard && last.count(std::string(key.name)))
      if (auto s = apply(key, last[std::string(key.name)]); !s.ok()) return s.error();
  // 2. Seats and pieces: lists, every active line counts, in order.
  for (const auto* l : active)
    if (const VariantKey* key = findKey(l->key); key && key->phase == Phase::kList)
      if (auto s = apply(*key, l); !s.ok()) return s.error();
  if (auto s = checkSeatsAndPieces(*r); !s.ok()) return makeError("variant-file", s.error().message, def.name);
  // 3. The rules: the last line of each key.
  for (const auto& [name, l] : last) {
    const VariantKey* key = findKey(name);
    if (!key) return makeError("variant-file", "unknown key \"" + name + "\"", def.name + ":" + std::to_string(l->lineNo));
    if (key->phase == Phase::kRule)
      if (auto s = apply(*key, l); !s.ok()) return s.error();
  }
  if (r->start.empty()) return makeError("variant-file", "no start position", def.name);
  r->buildTables();
  return std::shared_ptr<const Rules>(std::move(r));
}

namespace {
// The start position must set (it may depend on the options): a Game built
// on these rules starts from it.
Status checkStart(const std::shared_ptr<const Rules>& rules) {
  Position pos(rules);
  if (auto s = pos.set(rules->start); !s.ok())
    return makeError("variant-file", "the start position is refused: " + s.error().message, rules->variant);
  return okStatus();
}
}  // namespace

VariantRegistry VariantRegistry::withEmbedded() {
  VariantRegistry reg;
  for (const auto& [name, text] : embeddedVariantFiles()) {
    auto s = reg.add(text, std::string("variants/") + name);
    (void)s;  // embedded files are tested; a broken one simply is not listed
  }
  return reg;
}

Status VariantRegistry::add(const std::string& text, const std::string& source) {
  auto def = parseVariantFile(text, source);
  if (!def.ok()) return def.error();
  // Compile once with defaults so that a broken file is refused here.
  auto compiled = Rules::compile(def.value(), {});
  if (!compiled.ok()) return compiled.error();
  if (auto s = checkStart(compiled.value()); !s.ok()) return s;
  for (auto& d : defs_)
    if (d.name == def->name) {
      d = def.value();
      return okStatus();
    }
  defs_.push_back(def.value());
  return okStatus();
}

Status VariantRegistry::loadDirectory(const std::string& dir) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return makeError("variants", "not a directory: " + dir);
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (entry.path().extension() != ".variant") continue;
    std::ifstream in(entry.path());
    std::stringstream ss;
    ss << in.rdbuf();
    if (auto s = add(ss.str(), entry.path().string()); !s.ok()) return s;
  }
  return okStatus();
}

const VariantDef* VariantRegistry::find(const std::string& name) const {
  for (const auto& d : defs_)
    if (d.name == name) return &d;
  for (const auto& d : defs_)
    if (std::find(d.aliases.begin(), d.aliases.end(), name) != d.aliases.end()) return &d;
  return nullptr;
}

std::vector<const VariantDef*> VariantRegistry::all() const {
  std::vector<const VariantDef*> out;
  for (const auto& d : defs_) out.push_back(&d);
  return out;
}

Result<std::shared_ptr<const Rules>> VariantRegistry::rules(const std::string& name,
                                                            const std::vector<std::string>& options) const {
  const VariantDef* def = find(name);
  if (!def) {
    std::string known;
    for (const auto& d : defs_) known += (known.empty() ? "" : ", ") + d.name;
    return makeError("variant", "unknown variant \"" + name + "\" (known: " + known + ")");
  }
  OptionValues values;
  for (const auto& o : options) {
    const size_t eq = o.find('=');
    if (eq == std::string::npos || eq == 0) return makeError("option", "an option is written name=value, not \"" + o + "\"");
    values[o.substr(0, eq)] = o.substr(eq + 1);
  }
  auto compiled = Rules::compile(*def, values);
  if (!compiled.ok()) return compiled;
  if (auto s = checkStart(compiled.value()); !s.ok()) return s.error();
  return compiled;
}

}  // namespace acedrex
