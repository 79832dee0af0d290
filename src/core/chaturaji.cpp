// Chaturaji as chess.com plays it (docs/rules/chaturaji.md): the `awards`
// key that sets what the points give besides captures, and chess.com's
// threat points: a move earns points when it leaves two or three enemy kings
// attacked from a square that did not attack them before.
#include "core/chaturaji.h"

#include <algorithm>
#include <string>

#include "core/position.h"
#include "core/text_util.h"

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

}  // namespace acedrex
