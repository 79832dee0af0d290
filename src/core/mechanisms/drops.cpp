// Hands and drops (crazyhouse, shogi, minishogi) and the promotion zone.
//
// A captured piece goes to the capturer's hand in its unpromoted form: a
// promoted type ("+P") becomes its base, and a piece that promoted from a
// pawn (marked per square, "Q~" in the FEN) becomes a pawn again. A drop
// puts a piece from the hand on an empty square, except where it could never
// move, outside its drop ranks, or on a file where the seat already has a
// piece of the drop-no-doubled type. A mate by dropping the drop-mate type
// loses for the dropper (as Fairy-Stockfish plays shogi's uchifuzume).
#include "core/mechanisms/drops.h"

#include <algorithm>
#include <cctype>
#include <sstream>

#include "core/base/splitmix.h"
#include "core/base/text_util.h"
#include "core/position/position.h"

namespace acedrex {

namespace {

// A piece letter, or "+X" for the promoted form of X: its type or -1.
int typeOfWord(const Rules& r, const std::string& w) {
  if (w.size() == 1) return r.typeByLetter(static_cast<char>(std::toupper(static_cast<unsigned char>(w[0]))));
  if (w.size() != 2 || w[0] != '+') return -1;
  const int base = r.typeByLetter(static_cast<char>(std::toupper(static_cast<unsigned char>(w[1]))));
  for (size_t t = 0; t < r.types.size() && base >= 0; ++t)
    if (r.types[t].base == base) return static_cast<int>(t);
  return -1;
}

}  // namespace

Status readDrops(Rules& r, const VariantLine& l) {
  if (l.value != "yes" && l.value != "no" && l.value != "setup") return keyError("drops = yes|no|setup");
  r.drops = l.value != "no";
  // setup: the hands only hold what the start position puts there (the setup phase, below).
  r.capturesToHand = l.value != "setup";
  r.mustDrop = l.value == "setup";
  if (r.drops && r.nseats() != 2) return keyError("drops need two seats");
  return okStatus();
}

Status readDropRanks(Rules& r, const VariantLine& l) {
  const auto ws = words(l.value);
  if (ws.empty() || ws.size() % 3 != 0) return keyError("drop-ranks = LETTER LOW HIGH [LETTER LOW HIGH ...]");
  r.dropLo.assign(r.types.size(), 1);
  r.dropHi.assign(r.types.size(), kMaxRanks);
  for (size_t i = 0; i < ws.size(); i += 3) {
    const int t = typeOfWord(r, ws[i]);
    const int lo = smallNumber(ws[i + 1], 2), hi = smallNumber(ws[i + 2], 2);
    if (t < 0) return keyError("drop-ranks: no piece " + ws[i]);
    if (lo < 1 || hi < lo) return keyError("drop-ranks: LOW and HIGH are relative ranks, LOW <= HIGH");
    r.dropLo[t] = lo;
    r.dropHi[t] = hi;
  }
  return okStatus();
}

Status readDropNoDoubled(Rules& r, const VariantLine& l) {
  r.dropNoDoubled = typeOfWord(r, l.value);
  if (r.dropNoDoubled < 0) return keyError("drop-no-doubled = LETTER, a piece letter");
  return okStatus();
}

Status readDropMate(Rules& r, const VariantLine& l) {
  if (l.value == "none") {
    r.dropMate = -1;
    return okStatus();
  }
  r.dropMate = typeOfWord(r, l.value);
  if (r.dropMate < 0) return keyError("drop-mate = none|LETTER");
  return okStatus();
}

Status readPromotionZone(Rules& r, const VariantLine& l) {
  const auto ws = words(l.value);
  constexpr const char* form = "promotion-zone = DEPTH [forced] FROM:TO ..., e.g. 3 P:+P S:+S";
  if (ws.size() < 2) return keyError(form);
  r.zoneDepth = smallNumber(ws[0], 2);
  if (r.zoneDepth < 1 || r.zoneDepth > std::max(r.width, r.height)) return keyError(form);
  r.zonePromo.assign(r.types.size(), -1);
  size_t i = 1;
  r.zoneForced = ws[1] == "forced";
  if (r.zoneForced) ++i;
  if (i == ws.size()) return keyError(form);
  for (; i < ws.size(); ++i) {
    const size_t colon = ws[i].find(':');
    if (colon == std::string::npos) return keyError(form);
    const int from = typeOfWord(r, ws[i].substr(0, colon)), to = typeOfWord(r, ws[i].substr(colon + 1));
    if (from < 0 || to < 0) return keyError("promotion-zone: unknown piece in \"" + ws[i] + "\"");
    if (r.types[from].royal) return keyError("promotion-zone: the royal piece does not promote");
    r.zonePromo[from] = to;
  }
  return okStatus();
}

Status readRepetition(Rules& r, const VariantLine& l) {
  const auto ws = words(l.value);
  constexpr const char* form = "repetition = COUNT draw|first-seat-loses";
  if (ws.size() != 2) return keyError(form);
  r.repetitionCount = smallNumber(ws[0], 2);
  if (r.repetitionCount < 2) return keyError(form);
  if (ws[1] == "draw") r.repetitionEnd = Rules::RepetitionEnd::kDraw;
  else if (ws[1] == "first-seat-loses") r.repetitionEnd = Rules::RepetitionEnd::kFirstSeatLoses;
  else return keyError(form);
  return okStatus();
}


// ---------------------------------------------------------------------------
// Tables

void Rules::buildDropTables() {
  // A pawn with the promotion move makes its own moves and one more than the
  // new piece's, or becomes it.
  if (promoMoveType >= 0)
    for (int t = 0; t < static_cast<int>(types.size()); ++t)
      if (types[t].pawn)
        typeMoveBound[t] = std::max(typeMoveBound[t] + 1 + typeMoveBound[promoMoveType], typeMoveBound[promoMoveType]);
  if (!drops && zoneDepth == 0) return;
  immobile_.assign(kMaxKinds * kMaxSquares, 0);
  for (int t = 0; t < static_cast<int>(types.size()); ++t)
    for (int dir = 0; dir < 4; ++dir)
      for (Square s = 0; s < nsq(); ++s) {
        const SquareMoves& sm = moves(kindOf(t, dir), s);
        bool any = sm.leapEnd > sm.leapBegin || sm.bentEnd > sm.bentBegin;
        for (uint32_t i = sm.rayBegin; i < sm.rayEnd && !any; ++i) any = rays[i].len > 0;
        immobile_[kindOf(t, dir) * kMaxSquares + s] = !any;
      }
  // A piece that may promote in the zone makes twice its moves, or what it becomes.
  for (int t = 0; t < static_cast<int>(zonePromo.size()); ++t)
    if (zonePromo[t] >= 0) typeMoveBound[t] = std::max(2 * typeMoveBound[t], typeMoveBound[zonePromo[t]]);
  if (!drops) return;
  handTypes.clear();
  for (int t = 0; t < static_cast<int>(types.size()); ++t)
    if ((!types[t].royal || !capturesToHand) && types[t].base < 0) handTypes.push_back(t);
  if (dropLo.empty()) {
    dropLo.assign(types.size(), 1);
    dropHi.assign(types.size(), kMaxRanks);
  }
  uint64_t seed = 0xD12095EEDULL;
  auto next = [&seed]() { return splitmix64(seed); };
  for (auto& seat : zHand)
    for (auto& type : seat)
      for (auto& k : type) k = next();
  for (auto& k : zPromoted) k = next();
}

// ---------------------------------------------------------------------------
// Position

void Position::setPromoted(Square s, bool on) {
  if (promotedOn(s) == on) return;
  st_.promoted[s >> 6] ^= uint64_t{1} << (s & 63);
  st_.hash ^= rules_->zPromoted[s];
}

void Position::movePromoted(Square from, Square to) {
  setPromoted(to, false);
  if (promotedOn(from)) {
    setPromoted(from, false);
    setPromoted(to, true);
  }
}

void Position::captureToHand(Square s, int capturer) {
  const Rules& r = *rules_;
  int t = typeOf(st_.board[s]);
  if (promotedOn(s)) {
    setPromoted(s, false);
    for (int p = 0; p < static_cast<int>(r.types.size()); ++p)
      if (r.types[p].pawn) t = p;
  } else if (r.types[t].base >= 0) {
    t = r.types[t].base;
  }
  uint8_t& c = st_.hand[capturer][t];
  if (c + 1 >= kMaxHand) return;  // cannot happen with the piece limits; the hand stays valid
  st_.hash ^= r.zHand[capturer][t][c] ^ r.zHand[capturer][t][c + 1];
  ++c;
}

void Position::makeDrop(Move m) {
  const Rules& r = *rules_;
  const int us = st_.toMove;
  const int t = m.dropType();
  uint8_t& c = st_.hand[us][t];
  assert(c > 0);
  st_.hash ^= r.zHand[us][t][c] ^ r.zHand[us][t][c - 1];
  --c;
  put(m.to(), makePiece(t, r.seats[us].dir, us));
  st_.fifty = 0;
  st_.lastDrop = static_cast<int8_t>(t);
}

void Position::genDrops(MoveList& out) const {
  const Rules& r = *rules_;
  const int us = st_.toMove;
  const int dir = r.seats[us].dir;
  for (int t : r.handTypes) {
    if (!st_.hand[us][t]) continue;
    const int kind = kindOf(t, dir);
    uint32_t doubled = 0;  // lanes where the seat has a piece of the drop-no-doubled type
    if (t == r.dropNoDoubled)
      for (int i = 0; i < st_.count[us]; ++i) {
        const Square s = st_.seat[us].list[i];
        if (typeOf(st_.board[s]) == t) doubled |= 1u << r.laneOf(s, dir);
      }
    const int lo = r.dropLo[t], hi = r.dropHi[t];
    for (Square s = 0; s < r.nsq(); ++s) {
      if (st_.board[s] != kEmpty || r.immobile(kind, s) || ((doubled >> r.laneOf(s, dir)) & 1)) continue;
      const int rank = r.relativeRank(s, dir);
      if (rank < lo || rank > hi) continue;
      out.push(Move::drop(t, s));
    }
  }
}

// A drop can leave the king attacked only when it stands in check (the drop
// must block) or, with hoppers, when it lands on a line to the king.
bool Position::dropLegal(Move m) {
  const Rules& r = *rules_;
  const int us = st_.toMove;
  const Square k = st_.king[us];
  // A royal piece dropped from the hand (drops = setup) may not land attacked.
  if (m.dropType() == r.royalType) return !attacked(m.to(), enemiesOf(us));
  if (k == kNoSquare || (!inCheck(us) && !r.onHopLine(k, m.to()))) return true;
  auto& b = st_.board;
  b[m.to()] = makePiece(m.dropType(), r.seats[us].dir, us);
  const bool ok = !attacked(k, enemiesOf(us));
  b[m.to()] = kEmpty;
  return ok;
}

void Position::addZoneMoves(Square from, Square to, Piece p, bool onlyPromotions, MoveList& out) const {
  const Rules& r = *rules_;
  const int dir = dirOf(p);
  if (!r.inZone(from, dir) && !r.inZone(to, dir)) {
    if (!onlyPromotions) out.push(Move(from, to));
    return;
  }
  out.push(Move(from, to, kNormal, r.zonePromo[typeOf(p)]));
  if (!onlyPromotions && !r.zoneForced && !r.immobile(kindOf(p), to)) out.push(Move(from, to));
}

bool Position::dropMateLoses() const { return rules_->dropMate >= 0 && st_.lastDrop == rules_->dropMate; }

uint64_t Position::handHash() const {
  const Rules& r = *rules_;
  uint64_t h = 0;
  for (int seat = 0; seat < 2; ++seat)
    for (int t : r.handTypes) h ^= r.zHand[seat][t][st_.hand[seat][t]];
  for (int w = 0; w < static_cast<int>(st_.promoted.size()); ++w)
    for (uint64_t b = st_.promoted[w]; b; b &= b - 1) h ^= r.zPromoted[w * 64 + __builtin_ctzll(b)];
  return h;
}

// Every piece on the board or in a hand may come into the seat's hand or
// army, as its unpromoted form (whose bound covers what it may become), and
// each type in a hand may be dropped on every square.
int Position::dropMoveBound() const {
  const Rules& r = *rules_;
  auto boundOf = [&](int t) { return r.typeMoveBound[r.types[t].base >= 0 ? r.types[t].base : t]; };
  int bound = r.specialMoveBound + static_cast<int>(r.handTypes.size()) * r.nsq();
  for (int s = 0; s < 2; ++s) {
    for (int i = 0; i < st_.count[s]; ++i) bound += boundOf(typeOf(st_.board[st_.seat[s].list[i]]));
    for (int t : r.handTypes) bound += st_.hand[s][t] * boundOf(t);
  }
  return bound;
}

// The hands in brackets after the board: "[QNPqp]", "[]" or "[-]" when empty.
// Takes them off the board text.
Status Position::readFenHands(std::string& board) {
  const Rules& r = *rules_;
  const size_t open = board.find('[');
  if (open == std::string::npos) return okStatus();
  if (board.back() != ']') return makeError("fen", "the hands end with ']'");
  const std::string hands = board.substr(open + 1, board.size() - open - 2);
  board.erase(open);
  for (char c : hands) {
    if (c == '-') continue;
    const int t = r.typeByLetter(static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
    if (t < 0 || std::find(r.handTypes.begin(), r.handTypes.end(), t) == r.handTypes.end() ||
        !std::isalpha(static_cast<unsigned char>(c)))
      return makeError("fen", std::string("no piece '") + c + "' may be in a hand");
    const int seat = std::isupper(static_cast<unsigned char>(c)) ? 0 : 1;
    if (st_.hand[seat][t] + 1 >= kMaxHand) return makeError("fen", "too many pieces in a hand");
    ++st_.hand[seat][t];
  }
  return okStatus();
}

std::string Position::handText() const {
  const Rules& r = *rules_;
  std::string out = "[";
  for (int seat = 0; seat < 2; ++seat)
    for (int t : r.handTypes) {
      const char c = r.types[t].letter;
      out.append(st_.hand[seat][t], seat == 0 ? c : static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    }
  return out + "]";
}

// ---------------------------------------------------------------------------
// The setup phase (`drops = setup`, Sittuyin): the pieces start in the
// hands, the king among them, and while the seat to move has pieces in hand
// it must drop one whenever it can (a drop that answers a check, when in
// check); captured pieces leave the game. The drop ranks (`drop-ranks`)
// limit where.

bool Position::genForcedDrops(MoveList& out) const {
  const int us = st_.toMove;
  if (handEmpty(us)) return false;
  const int begin = out.size();
  genDrops(out);
  if (out.size() == begin) return false;
  if (!inCheck(us)) return true;
  // In check, the drops are forced only if one of them answers it. dropLegal
  // puts the piece on the board and takes it off again.
  auto* self = const_cast<Position*>(this);
  for (int i = begin; i < out.size(); ++i)
    if (self->dropLegal(out[i])) return true;
  out.truncate(begin);
  return false;
}

bool Position::dropsForced() const {
  if (handEmpty(st_.toMove)) return false;
  MoveList drops;
  return genForcedDrops(drops);
}

}  // namespace acedrex
