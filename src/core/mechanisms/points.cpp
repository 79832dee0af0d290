// Free-for-all points (Rules::capturePoints; four-player chess and Chaturaji
// as chess.com plays them, docs/rules/four-player-chess.md and
// docs/rules/chaturaji.md): the `points` and `awards` keys, the points of
// captures, checks, mates, stalemates and draws, and chess.com's threat
// points: a move earns points when it leaves two or three enemy kings
// attacked from a square that did not attack them before.
#include "core/mechanisms/points.h"

#include <algorithm>
#include <string>

#include "core/position/position.h"
#include "core/base/text_util.h"

namespace acedrex {

namespace {

// N, or N/Q: the award otherwise and with a queen (check2, check3).
bool readPair(const std::string& v, int out[2]) {
  const size_t slash = v.find('/');
  out[0] = smallNumber(v.substr(0, slash));
  out[1] = slash == std::string::npos ? out[0] : smallNumber(v.substr(slash + 1));
  return out[0] >= 0 && out[1] >= 0;
}

}  // namespace

Status readAwards(Rules& r, const VariantLine& l) {
  Rules::PointAwards a;
  for (const std::string& w : words(l.value)) {
    const size_t colon = w.find(':');
    const std::string name = w.substr(0, colon), v = colon == std::string::npos ? "" : w.substr(colon + 1);
    const int n = smallNumber(v);
    bool ok = n >= 0;
    if (name == "mate") a.mate = n;
    else if (name == "stalemate") a.stalemate = n;
    else if (name == "draw") a.draw = n;
    else if (name == "resign-king") a.resignKing = n;
    else if (name == "standing-king") a.standingKing = n;
    else if (name == "dead-king") a.deadKing = n;
    else if (name == "check2") ok = readPair(v, a.check2);
    else if (name == "check3") ok = readPair(v, a.check3);
    else if (name == "threats") {
      ok = v == "seats" || v == "squares";
      a.threatSquares = v == "squares";
    } else ok = false;
    if (!ok)
      return keyError("awards = NAME:VALUE ... (mate, stalemate, draw, resign-king, standing-king, dead-king: points; "
                      "check2, check3: N or N/QUEEN; threats: seats|squares), not \"" + w + "\"");
  }
  r.awards = a;
  return okStatus();
}

// The leapers' and sliders' attacks on each live king (the pieces chaturaji
// has; hoppers and bent riders are not counted).
KingThreats Position::kingThreats() const {
  const Rules& r = *rules_;
  const auto& b = st_.board;
  KingThreats out;
  for (int t = 0; t < r.nseats(); ++t) {
    const Square k = st_.king[t];
    if (!isIn(t) || k == kNoSquare) continue;
    const uint8_t seats = enemiesOf(t);
    auto hit = [&](Square from, uint64_t kinds) {
      const Piece q = b[from];
      if (isPiece(q) && ((kinds >> kindOf(q)) & 1) && ((seats >> seatOf(q)) & 1) && out.n[t] < KingThreats::kMax)
        out.from[t][out.n[t]++] = static_cast<uint16_t>(from * kMaxSeats + seatOf(q));
    };
    for (const RevLeap& rl : r.revLeaps[k]) hit(rl.from, rl.kinds);
    for (const RevRay& rr : r.revRays[k]) {
      const uint8_t* sq = &r.revRaySq[rr.begin];
      int i = 0;
      while (i < rr.len && b[sq[i]] == kEmpty) ++i;
      if (i < rr.len) hit(sq[i], rr.sliders);
    }
  }
  return out;
}

int Position::newlyThreatenedKings(const KingThreats& before, int mover) const {
  const KingThreats after = kingThreats();
  int kings = 0;
  for (int t = 0; t < rules_->nseats(); ++t) {
    if (t == mover) continue;
    const auto* b0 = before.from[t].data();
    const auto* b1 = b0 + before.n[t];
    for (int i = 0; i < after.n[t]; ++i)
      if (std::find(b0, b1, after.from[t][i]) == b1) {
        ++kings;
        break;
      }
  }
  return kings;
}

void Position::scoreStandingKings() {
  const Rules& r = *rules_;
  int kings = 0;
  for (int s = 0; s < r.nseats(); ++s)
    if (!isIn(s) && st_.king[s] != kNoSquare) ++kings;
  for (int s = 0; s < r.nseats(); ++s)
    if (isIn(s)) st_.points[s] += static_cast<int16_t>(kings * r.awards.standingKing);
}

Status readPoints(Rules& r, const VariantLine& l) {
  r.capturePoints.clear();
  if (l.value == "none") return okStatus();
  if (r.nseats() < 3) return keyError("points need more than two seats");
  r.capturePoints.assign(r.types.size(), 0);
  for (const std::string& w : words(l.value)) {
    const int t = w.size() >= 3 && w[1] == ':' ? r.typeByLetter(w[0]) : -1;
    const int v = t >= 0 ? smallNumber(w.substr(2)) : -1;
    if (v < 0) return keyError("points = none, or LETTER:POINTS ..., not \"" + w + "\"");
    r.capturePoints[t] = v;
  }
  return okStatus();
}

// ---------------------------------------------------------------------------
// Points (Rules::capturePoints)

void Position::scoreCapture(int capturer, Piece captured) {
  // Dead pieces (of a seat that is out) earn nothing.
  if (isIn(seatOf(captured))) st_.points[capturer] += static_cast<int16_t>(rules_->capturePoints[typeOf(captured)]);
  else if (typeOf(captured) == rules_->royalType) st_.points[capturer] += static_cast<int16_t>(rules_->awards.deadKing);
}

void Position::scoreChecks(const PlyEvents& ev, Piece moved, const KingThreats* before) {
  const int us = ev.mover;
  const auto& a = rules_->awards;
  int kings = 0;
  if (before) kings = newlyThreatenedKings(*before, us);
  else
    for (int t = 0; t < rules_->nseats(); ++t)
      if ((ev.checkStarts[t] >> us) & 1) ++kings;
  if (kings < 2) return;
  const char letter = rules_->types[typeOf(moved)].letter;
  const int queen = letter == 'Q' || letter == 'D' ? 1 : 0;
  st_.points[us] += static_cast<int16_t>(kings == 2 ? a.check2[queen] : a.check3[queen]);
}

void Position::scoreOut(int seat, OutReason reason, int by) {
  const auto& a = rules_->awards;
  if (reason == OutReason::kMated && by >= 0) st_.points[by] += static_cast<int16_t>(a.mate);
  if (reason == OutReason::kStalemated) st_.points[seat] += static_cast<int16_t>(a.stalemate);
  // A resigned or timed-out seat's king stays live on chess.com; when only
  // one seat is left in, that seat gets the king's points (the "claim win").
  if ((reason == OutReason::kResigned || reason == OutReason::kTimeout) && seatsIn() == 1)
    for (int s = 0; s < rules_->nseats(); ++s)
      if (isIn(s)) st_.points[s] += static_cast<int16_t>(a.resignKing);
}

void Position::scoreDraw() {
  for (int s = 0; s < rules_->nseats(); ++s)
    if (isIn(s)) st_.points[s] += static_cast<int16_t>(rules_->awards.draw);
}

// Places by points, the most first; equal points share a place.
std::array<int, kMaxSeats> Position::placesByPoints() const {
  std::array<int, kMaxSeats> pl{};
  const int n = rules_->nseats();
  for (int s = 0; s < n; ++s) {
    pl[s] = 1;
    for (int o = 0; o < n; ++o)
      if (st_.points[o] > st_.points[s]) ++pl[s];
  }
  return pl;
}

}  // namespace acedrex
