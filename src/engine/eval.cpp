#include "engine/eval.h"

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <sstream>

#include "core/records/diagram.h"
#include "engine/embedded_params.h"

namespace acedrex::engine {

namespace {

// The named values besides the pieces', in the order of the files the tuner writes.
struct ScalarParam {
  const char* name;
  int EvalParams::*member;
};
constexpr ScalarParam kScalars[] = {
    {"pawn-advance", &EvalParams::pawnAdvance},
    {"king-center-opening", &EvalParams::kingCenterOpening},
    {"king-center-ending", &EvalParams::kingCenterEnding},
    {"king-shelter", &EvalParams::kingShelter},
    {"king-danger", &EvalParams::kingDanger},
    {"king-zone", &EvalParams::kingZone},
    {"king-crossfire", &EvalParams::kingCrossfire},
    {"king-swarm", &EvalParams::kingSwarm},
    {"pawn-threat", &EvalParams::pawnThreat},
    {"hanging", &EvalParams::hanging},
    {"passed-pawn", &EvalParams::passedPawn},
    {"lesser-threat", &EvalParams::lesserThreat},
    {"doubled-pawn", &EvalParams::doubledPawn},
    {"isolated-pawn", &EvalParams::isolatedPawn},
    {"open-lane", &EvalParams::openLane},
    {"clear-lane", &EvalParams::clearLane},
    {"king-open-ray", &EvalParams::kingOpenRay},
    {"leaper-king", &EvalParams::leaperKing},
    {"activation", &EvalParams::activation},
    {"activation-pair", &EvalParams::activationPair},
    {"tempo", &EvalParams::tempo},
};

}  // namespace

std::vector<int*> EvalParams::tunables() {
  std::vector<int*> out;
  for (auto& [letter, p] : pieces) {
    if (p.value > 0) out.push_back(&p.value);
    out.push_back(&p.mobility);
  }
  for (const ScalarParam& x : kScalars) out.push_back(&(this->*x.member));
  return out;
}

std::string EvalParams::toText(const std::string& variant) const {
  std::ostringstream o;
  o << "# Evaluation parameters for " << variant << ", in centipawns. Tuned by tools/tune (Texel method).\n";
  o << "# piece LETTER VALUE MOBILITY (MOBILITY: per square the piece reaches on an empty board, above its average)\n";
  if (!alsoFor.empty()) {
    o << "variants";
    for (const auto& name : alsoFor) o << " " << name;
    o << "\n";
  }
  for (const auto& [letter, p] : pieces) o << "piece " << letter << " " << p.value << " " << p.mobility << "\n";
  for (const ScalarParam& x : kScalars) o << x.name << " " << this->*x.member << "\n";
  return o.str();
}

Result<EvalParams> parseEvalParams(const std::string& text) {
  EvalParams p;
  std::istringstream in(text);
  int lineNo = 0;
  for (std::string line; std::getline(in, line);) {
    ++lineNo;
    line = line.substr(0, line.find('#'));
    std::istringstream ws(line);
    std::string key;
    if (!(ws >> key)) continue;
    const std::string where = "params line " + std::to_string(lineNo);
    if (key == "piece") {
      std::string letter;
      EvalParams::PieceParams pp;
      if (!(ws >> letter >> pp.value >> pp.mobility) || letter.size() != 1)
        return makeError("params", "piece LETTER VALUE MOBILITY", where);
      p.pieces[letter[0]] = pp;
      continue;
    }
    if (key == "variants") {
      for (std::string name; ws >> name;) p.alsoFor.push_back(name);
      if (p.alsoFor.empty()) return makeError("params", "variants NAME...", where);
      continue;
    }
    const auto it =
        std::find_if(std::begin(kScalars), std::end(kScalars), [&](const ScalarParam& x) { return key == x.name; });
    if (it == std::end(kScalars)) return makeError("params", "unknown key " + key, where);
    int v = 0;
    if (!(ws >> v)) return makeError("params", "expected a number after " + key, where);
    p.*(it->member) = v;
  }
  return p;
}

EvalParams defaultEvalParams(const Rules& rules) {
  for (const auto& [name, text] : embeddedParamFiles())
    if (name == rules.variant) {
      auto p = parseEvalParams(text);
      if (p.ok()) return p.value();
    }
  for (const auto& [name, text] : embeddedParamFiles()) {
    auto p = parseEvalParams(text);
    if (!p.ok()) continue;
    const auto& also = p.value().alsoFor;
    if (std::find(also.begin(), also.end(), rules.variant) != also.end()) return p.value();
  }
  // A variant without parameters: value each piece by its average reach.
  EvalParams p;
  const Square mid = rules.square(rules.width / 2, rules.height / 2);
  for (int t = 0; t < static_cast<int>(rules.types.size()); ++t) {
    const auto reach = pieceReach(rules, t, kNorth, mid);
    const int n = static_cast<int>(reach.moves.size() + reach.captures.size()) / 2;
    EvalParams::PieceParams pp;
    pp.value = t == rules.royalType ? 0 : (rules.types[t].pawn ? 100 : 60 + 35 * n);
    pp.mobility = 3;
    p.pieces[rules.types[t].letter] = pp;
  }
  return p;
}

Evaluator::Evaluator(std::shared_ptr<const Rules> rules, EvalParams params)
    : rules_(std::move(rules)), params_(std::move(params)) {
  build();
}

void Evaluator::build() {
  const Rules& r = *rules_;
  const int n = r.nsq();
  center_.assign(n, 0);
  dist_.assign(static_cast<size_t>(n) * n, 0);
  for (Square a = 0; a < n; ++a)
    for (Square b = 0; b < n; ++b)
      dist_[a * n + b] = static_cast<uint8_t>(
          std::max(std::abs(r.fileOf(a) - r.fileOf(b)), std::abs(r.rankOf(a) - r.rankOf(b))));
  for (Square s = 0; s < n; ++s) {
    const int f = r.fileOf(s), k = r.rankOf(s);
    center_[s] = std::min({f, k, r.width - 1 - f, r.height - 1 - k});
  }
  zone_.assign(n, {});
  for (Square a = 0; a < n; ++a)
    for (Square b = 0; b < n; ++b)
      if (!r.blocked[b] && dist_[a * n + b] <= 1) zone_[a].push_back(b);
  shield_.assign(4 * n, {});
  for (int dir = 0; dir < 4; ++dir)
    for (Square s = 0; s < n; ++s)
      for (int lane = -1; lane <= 1; ++lane)
        for (int step = 1; step <= 2; ++step) {
          const Offset o = r.rotate(Offset{lane, step}, dir);
          const int f = r.fileOf(s) + o.dx, k = r.rankOf(s) + o.dy;
          if (r.onBoard(f, k) && !r.blocked[r.square(f, k)])
            shield_[dir * n + s].push_back({r.square(f, k), lane + 1, 3 - step});
        }
  // A line that meets the edge (or a hole) within two squares is closed by
  // it and is left out.
  kingLines_.assign(4 * n, {});
  for (int dir = 0; dir < 4; ++dir)
    for (Square s = 0; s < n; ++s)
      for (int line = -1; line <= 1; ++line) {
        std::array<Square, 2> sq{};
        int have = 0;
        for (int step = 1; step <= 2; ++step) {
          const Offset o = r.rotate(Offset{line * step, step}, dir);
          const int f = r.fileOf(s) + o.dx, k = r.rankOf(s) + o.dy;
          if (!r.onBoard(f, k) || r.blocked[r.square(f, k)]) break;
          sq[have++] = r.square(f, k);
        }
        if (have == 2) kingLines_[dir * n + s].push_back(sq);
      }
  passedBonus_.assign(4 * n, 0);
  for (int dir = 0; dir < 4; ++dir)
    for (Square s = 0; s < n; ++s) {
      const int len = (dir == kNorth || dir == kSouth) ? r.height : r.width;
      const int prog = std::max(0, r.relativeRank(s, dir) - 2);
      passedBonus_[dir * n + s] = params_.passedPawn * prog * prog / std::max(1, (len - 2) * (len - 2) / 4);
    }
  pst_.assign(kMaxKinds * kMaxSquares, 0);
  for (int t = 0; t < static_cast<int>(r.types.size()); ++t) {
    const auto it = params_.pieces.find(r.types[t].letter);
    const EvalParams::PieceParams pp = it == params_.pieces.end() ? EvalParams::PieceParams{100, 2} : it->second;
    value_[t] = pp.value;
    mobility_[t] = pp.mobility;
    {
      // From the corner square a1 facing north (never a hole): reaches a3 and a4 straight ahead.
      const auto reach = pieceReach(r, t, kNorth, r.square(0, 0));
      auto has = [&](int k) {
        return std::find(reach.moves.begin(), reach.moves.end(), r.square(0, k)) != reach.moves.end();
      };
      laneSlider_[t] = !r.types[t].pawn && t != r.royalType && has(2) && has(3);
    }
    // A leaper: no slides from any square, and some leap from one.
    leaper_[t] = !r.types[t].pawn && t != r.royalType;
    bool leaps = false;
    for (Square s = 0; s < n && leaper_[t]; ++s) {
      if (r.blocked[s]) continue;
      const SquareMoves& sm = r.moves(kindOf(t, kNorth), s);
      leaps |= sm.leapEnd > sm.leapBegin;
      if (sm.rayEnd > sm.rayBegin || sm.bentEnd > sm.bentBegin) leaper_[t] = false;
    }
    leaper_[t] = leaper_[t] && leaps;
    if (leaper_[t] && params_.leaperKing) {
      // Two leaps: from s to an intermediate square m, then a capture onto the king.
      twoLeaps_.resize(kMaxKinds);
      for (int dir = 0; dir < 4; ++dir) {
        auto& table = twoLeaps_[kindOf(t, dir)];
        table.assign(n, {});
        for (Square s = 0; s < n; ++s) {
          if (r.blocked[s]) continue;
          const SquareMoves& sm = r.moves(kindOf(t, dir), s);
          for (uint32_t i = sm.leapBegin; i < sm.leapEnd; ++i) {
            const SquareMoves& next = r.moves(kindOf(t, dir), r.leaps[i].to);
            for (uint32_t j = next.leapBegin; j < next.leapEnd; ++j)
              if (r.leaps[j].mode & kModeCapture) table[r.leaps[j].to].set(s);
          }
        }
      }
    }
    if (t != r.royalType && !r.types[t].pawn) totalMaterial_ += pp.value;
    for (int dir = 0; dir < 4; ++dir) {
      std::vector<int> reach(n, 0);
      long sum = 0;
      int cnt = 0;
      for (Square s = 0; s < n; ++s) {
        if (r.blocked[s]) continue;
        const auto pr = pieceReach(r, t, dir, s);
        reach[s] = static_cast<int>(std::max(pr.moves.size(), pr.captures.size()));
        sum += reach[s];
        ++cnt;
      }
      const int avg = cnt ? static_cast<int>(sum / cnt) : 0;
      if (dir == kNorth) mobAverage_[t] = avg / 2;  // pieces about usually halve a piece's reach
      for (Square s = 0; s < n; ++s) {
        // Pieces are scored by where they may go in the position (below); pawns by their progress.
        int v = 0;
        if (r.types[t].pawn) {
          // Progress along the pawn's own way: 0 at its first rank, growing toward promotion.
          const int len = (dir == kNorth || dir == kSouth) ? r.height : r.width;
          const int prog = std::max(0, r.relativeRank(s, dir) - 2);
          v += params_.pawnAdvance * prog * prog / std::max(1, (len - 2) * (len - 2) / 4);
        }
        pst_[kindOf(t, dir) * kMaxSquares + s] = v;
      }
    }
  }
}

// Marks in `count` the squares the piece attacks and returns the squares it
// may go to that no enemy pawn guards (`unsafe`: the enemy seats' bits).
int Evaluator::walk(const Position& pos, Square s, Piece p, uint8_t unsafe, const uint8_t* pawns,
                    uint8_t* count, uint16_t* lowest) const {
  const Rules& r = *rules_;
  const SquareMoves& sm = r.moves(kindOf(p), s);
  const int seat = seatOf(p);
  // A king's attack is no threat to a defended piece: it counts as the dearest.
  const uint16_t value =
      typeOf(p) == r.royalType ? 0xFFFE : static_cast<uint16_t>(std::clamp(value_[typeOf(p)], 0, 0xFFFE));
  auto mark = [&](Square t) {
    ++count[t];
    lowest[t] = std::min(lowest[t], value);
  };
  int n = 0;
  auto reach = [&](Square t) {
    const Piece q = pos.at(t);
    if (q == kEmpty) n += (pawns[t] & unsafe) == 0;
    else if (seatOf(q) != seat) ++n;
  };
  for (uint32_t i = sm.leapBegin; i < sm.leapEnd; ++i) {
    const Leap& l = r.leaps[i];
    if (l.mode & kModeCapture) mark(l.to);
    if (l.mode & kModeMove) reach(l.to);
  }
  auto slide = [&](const Ray& ray) {
    const uint8_t* sq = &r.raySq[ray.begin];
    int j = 0;
    for (; j < ray.len; ++j) {
      const Square t = sq[j];
      if (ray.mode & kModeCapture) mark(t);
      if (ray.mode & (kModeMove | kModeCapture)) reach(t);
      if (pos.at(t) != kEmpty) break;
    }
    if (!(ray.mode & (kModeHopMove | kModeHopCapture))) return;
    for (++j; j < ray.len; ++j) {
      const Square t = sq[j];
      if (ray.mode & kModeHopCapture) mark(t);
      reach(t);
      if (pos.at(t) != kEmpty) break;
    }
  };
  for (uint32_t i = sm.rayBegin; i < sm.rayEnd; ++i) slide(r.rays[i]);
  for (uint32_t i = sm.bentBegin; i < sm.bentEnd; ++i) {
    const Bent& b = r.bents[i];
    if (b.mode & kModeCapture) mark(b.first);
    reach(b.first);
    if (pos.at(b.first) != kEmpty) continue;
    for (int c = 0; c < b.rayCount; ++c) slide(r.bentRays[b.rayBegin + c]);
  }
  return n;
}

void Evaluator::attacks(const Position& pos, Attacks& a) const {
  const Rules& r = *rules_;
  const int n = r.nsq();
  std::fill(a.pawns.begin(), a.pawns.begin() + n, 0);
  // Pawns first: the other pieces' mobility leaves out the squares enemy pawns guard.
  for (int seat = 0; seat < r.nseats(); ++seat) {
    std::fill(a.count[seat].begin(), a.count[seat].begin() + n, 0);
    std::fill(a.lowest[seat].begin(), a.lowest[seat].begin() + n, 0xFFFF);
    a.mobility[seat] = 0;
    a.active[seat] = 0;
    if (!pos.isIn(seat)) continue;
    const uint8_t bit = static_cast<uint8_t>(1u << seat);
    for (int i = 0; i < pos.pieceCount(seat); ++i) {
      const Square s = pos.pieceSquare(seat, i);
      const Piece p = pos.at(s);
      if (!r.types[typeOf(p)].pawn) continue;
      const SquareMoves& sm = r.moves(kindOf(p), s);
      for (uint32_t k = sm.leapBegin; k < sm.leapEnd; ++k)
        if (r.leaps[k].mode & kModeCapture) {
          a.pawns[r.leaps[k].to] |= bit;
          ++a.count[seat][r.leaps[k].to];
        }
    }
  }
  for (int seat = 0; seat < r.nseats(); ++seat) {
    if (!pos.isIn(seat)) continue;
    const uint8_t enemies = static_cast<uint8_t>(pos.enemiesOf(seat));
    for (int i = 0; i < pos.pieceCount(seat); ++i) {
      const Square s = pos.pieceSquare(seat, i);
      const Piece p = pos.at(s);
      const int t = typeOf(p);
      if (r.types[t].pawn) continue;
      const int mob = walk(pos, s, p, enemies, a.pawns.data(), a.count[seat].data(), a.lowest[seat].data());
      if (t == r.royalType) continue;
      a.mobility[seat] += (mob - mobAverage_[t]) * mobility_[t];
      // Activated: off its first rank, with three safe squares to go to (a
      // leaper) or five (any other piece); counted only for the terms that read it.
      if (params_.activation || params_.activationPair)
        a.active[seat] += r.relativeRank(s, dirOf(p)) > 1 && mob >= (leaper_[t] ? 3 : 5);
    }
  }
}

// A pawn is passed when no enemy pawn stands ahead of it on its lane or the
// two next to it (lanes and "ahead" follow the pawn's own direction). The
// fronts say, per lane, how far along direction `dir` the most advanced
// pawn of the other seats stands (-1: none), so that each pawn is judged by
// three lookups.
void Evaluator::pawnFronts(const Position& pos, int seat, int dir, PawnFronts& front) const {
  const Rules& r = *rules_;
  front.fill(-1);
  for (int o = 0; o < r.nseats(); ++o) {
    if (o == seat || !pos.isIn(o)) continue;
    for (int i = 0; i < pos.pieceCount(o); ++i) {
      const Square q = pos.pieceSquare(o, i);
      if (!r.types[typeOf(pos.at(q))].pawn) continue;
      const int lane = r.laneOf(q, dir);
      front[lane + 1] = std::max<int>(front[lane + 1], r.relativeRank(q, dir));
    }
  }
}

bool Evaluator::passed(Square s, int dir, const PawnFronts& front) const {
  const Rules& r = *rules_;
  const int lane = r.laneOf(s, dir);
  const int prog = r.relativeRank(s, dir);
  return front[lane] <= prog && front[lane + 1] <= prog && front[lane + 2] <= prog;
}

int Evaluator::leaperKings(const Position& pos, Square s, Piece p) const {
  const Rules& r = *rules_;
  const auto& table = twoLeaps_[kindOf(p)];
  const uint8_t enemies = static_cast<uint8_t>(pos.enemiesOf(seatOf(p)));
  int kings = 0;
  for (int o = 0; o < r.nseats(); ++o) {
    if (!((enemies >> o) & 1) || !pos.isIn(o)) continue;
    const Square king = pos.kingSquare(o);
    kings += king != kNoSquare && table[king].test(s);
  }
  return kings;
}

int Evaluator::seatScore(const Position& pos, int seat) const {
  Attacks a;
  attacks(pos, a);
  return seatScore(pos, seat, a);
}

int Evaluator::seatScore(const Position& pos, int seat, const Attacks& a) const {
  const Rules& r = *rules_;
  const int n = r.nsq();
  int score = a.mobility[seat];
  int material = 0;
  const Square king = pos.kingSquare(seat);
  const uint8_t* kd = king != kNoSquare ? &dist_[king * n] : nullptr;
  int shelter = 0, danger = 0, openRays = 0;
  const uint8_t enemies = static_cast<uint8_t>(pos.enemiesOf(seat));
  // Attacks on each square by all the enemies together.
  auto enemyAttacks = [&](Square s) {
    int c = 0;
    for (int o = 0; o < r.nseats(); ++o)
      if ((enemies >> o) & 1) c += a.count[o][s];
    return c;
  };
  auto cheapestEnemy = [&](Square s) {
    int v = 0xFFFF;
    for (int o = 0; o < r.nseats(); ++o)
      if ((enemies >> o) & 1) v = std::min<int>(v, a.lowest[o][s]);
    return v;
  };
  std::array<PawnFronts, 4> fronts;
  unsigned frontsMade = 0;  // a bit per direction
  // Pawns per lane along the seat's own direction: its own and everybody's.
  const int seatDir = r.seats[seat].dir;
  const bool laneTerms = params_.doubledPawn || params_.isolatedPawn || params_.openLane || params_.clearLane;
  std::array<uint8_t, kMaxFiles + 2> ownLane{}, anyLane{};
  if (laneTerms)
    for (int o = 0; o < r.nseats(); ++o)
      for (int i = 0; i < pos.pieceCount(o); ++i) {
        const Square q = pos.pieceSquare(o, i);
        const Piece qp = pos.at(q);
        if (!r.types[typeOf(qp)].pawn) continue;
        const int lane = r.laneOf(q, seatDir) + 1;
        ++anyLane[lane];
        if (o == seat && dirOf(qp) == seatDir) ++ownLane[lane];
      }
  for (int i = 0; i < pos.pieceCount(seat); ++i) {
    const Square s = pos.pieceSquare(seat, i);
    const Piece p = pos.at(s);
    const int t = typeOf(p);
    score += value_[t] + pst_[kindOf(p) * kMaxSquares + s];
    const bool pawn = r.types[t].pawn;
    if (t != r.royalType && !pawn) {
      material += value_[t];
      if (a.pawns[s] & enemies)
        score -= params_.pawnThreat;
      else if (params_.lesserThreat && cheapestEnemy(s) < value_[t])
        score -= params_.lesserThreat;
      else if (a.count[seat][s] == 0 && enemyAttacks(s) > 0)
        score -= params_.hanging;
    }
    if (laneTerms && (pawn || laneSlider_[t])) {
      const int lane = r.laneOf(s, seatDir) + 1;
      if (!pawn) {
        if (!ownLane[lane]) score += params_.openLane + (anyLane[lane] ? 0 : params_.clearLane);
      } else if (dirOf(p) == seatDir) {
        if (ownLane[lane] > 1) score -= params_.doubledPawn;
        if (!ownLane[lane - 1] && !ownLane[lane + 1]) score -= params_.isolatedPawn;
      }
    }
    if (pawn) {
      const int dir = dirOf(p);
      if (!((frontsMade >> dir) & 1)) {
        pawnFronts(pos, seat, dir, fronts[dir]);
        frontsMade |= 1u << dir;
      }
      if (passed(s, dir, fronts[dir])) score += passedBonus_[dir * n + s];
    }
    if (kd && kd[s] == 1) ++shelter;
    if (params_.leaperKing && leaper_[t]) score += params_.leaperKing * leaperKings(pos, s, p);
  }
  score += params_.activation * a.active[seat];
  // Pieces in hand (drop games) count at their value on the board.
  if (r.drops)
    for (int t : r.handTypes) score += pos.handCount(seat, t) * value_[t];
  // In a setup phase (drops = setup) the pieces still to come count towards the game's phase.
  if (r.mustDrop)
    for (int t : r.handTypes)
      if (t != r.royalType && !r.types[t].pawn) material += pos.handCount(seat, t) * value_[t];
  shelter = std::min(shelter, 4);
  if (kd) {
    // Own pawns in front of the king: the nearest on each of its three lanes counts.
    const Piece kp = pos.at(king);
    const auto& sh = shield_[dirOf(kp) * n + king];
    int lanes[3] = {0, 0, 0};
    for (const ShieldSquare& x : sh) {
      const Piece q = pos.at(x.square);
      if (isPiece(q) && seatOf(q) == seat && r.types[typeOf(q)].pawn) lanes[x.lane] = std::max(lanes[x.lane], x.weight);
    }
    shelter += lanes[0] + lanes[1] + lanes[2];
    if (params_.kingOpenRay) {
      // A line ahead of the king is closed by an own piece on its first two squares.
      auto own = [&](Square q) { return isPiece(pos.at(q)) && seatOf(pos.at(q)) == seat; };
      for (const auto& line : kingLines_[dirOf(kp) * n + king]) openRays += !own(line[0]) && !own(line[1]);
    }
  }
  if (kd) {
    // Enemy pieces near the king.
    for (int o = 0; o < r.nseats(); ++o) {
      if (o == seat || !pos.isIn(o)) continue;
      for (int i = 0; i < pos.pieceCount(o); ++i) danger += kd[pos.pieceSquare(o, i)] <= 2;
    }
    // Attacks on the squares at the king, each square's count capped at 3.
    int weight = 0;
    // With more than one enemy seat, the seats that attack them: two of them
    // can take turns at the king (a check, then a capture before it moves).
    uint8_t zoneSeats = 0;
    for (const Square z : zone_[king]) {
      weight += std::min(3, enemyAttacks(z));
      if (params_.kingCrossfire)
        for (int o = 0; o < r.nseats(); ++o)
          if (((enemies >> o) & 1) && a.count[o][z]) zoneSeats |= static_cast<uint8_t>(1u << o);
    }
    const int crossfire = std::popcount(zoneSeats) >= 2 ? params_.kingCrossfire : 0;
    // The swarm: per square at the king, the enemy attackers beyond what the
    // king's team defends there (its own king left out), growing faster than
    // their number; a table in centipawns, scaled by king-swarm percent.
    int swarm = 0;
    if (params_.kingSwarm) {
      static constexpr int kSwarm[8] = {0, 20, 80, 144, 240, 400, 600, 840};
      const uint8_t team = r.friends[seat];
      for (const Square z : zone_[king]) {
        const int attackers = enemyAttacks(z);
        if (!attackers) continue;
        int defenders = z == king ? 0 : -1;  // the king's attack on the squares next to it
        for (int o = 0; o < r.nseats(); ++o)
          if ((team >> o) & 1) defenders += a.count[o][z];
        swarm += std::max(0, kSwarm[std::min(attackers, 7)] - kSwarm[std::clamp(defenders, 0, 7)] / 2);
      }
      swarm = swarm * params_.kingSwarm / 100;
    }
    // The king hides while there is material about and walks out in the ending.
    const int phase = std::min(256, 256 * material / std::max(1, totalMaterial_ / r.nseats()));
    const int kc = (params_.kingCenterOpening * phase + params_.kingCenterEnding * (256 - phase)) / 256;
    score += kc * center_[king];
    score += (params_.kingShelter * shelter - params_.kingDanger * danger - params_.kingZone * weight * weight / 8 -
              crossfire - swarm - params_.kingOpenRay * openRays) *
             phase / 256;
  }
  return score;
}

int Evaluator::evaluate(const Position& pos, int view) const {
  if (rules_->unions) [[unlikely]] return unionScore(pos);
  Attacks a;
  attacks(pos, a);
  return evaluate(pos, view, a);
}

int Evaluator::evaluate(const Position& pos, int view, const Attacks& a) const {
  const Rules& r = *rules_;
  if (r.nseats() == 2) {
    const int us = pos.toMove();
    return seatScore(pos, us, a) - seatScore(pos, 1 - us, a) + params_.tempo;
  }
  // Teams (Rules::teams): the team's score against the other team's.
  if (r.teams) {
    int score = 0;
    for (int s = 0; s < r.nseats(); ++s)
      if (pos.isIn(s)) score += ((r.friends[view] >> s) & 1) ? seatScore(pos, s, a) : -seatScore(pos, s, a);
    if (params_.activationPair) {
      // Partners that have both brought their pieces out: the product of their counts.
      int product[2] = {1, 1};
      for (int s = 0; s < r.nseats(); ++s) product[(r.friends[view] >> s) & 1] *= pos.isIn(s) ? a.active[s] : 0;
      score += params_.activationPair * (product[1] - product[0]);
    }
    return score + (pos.toMove() == view ? params_.tempo : 0);
  }
  // Many seats: own score against the strongest opponent and the average of
  // all the opponents, those out of the game counting 0 (with the average
  // over the seats still in, putting out a weak opponent would raise it).
  const int own = seatScore(pos, view, a);
  int best = -1000000, sum = 0, cnt = 0;
  for (int s = 0; s < r.nseats(); ++s) {
    if (s == view || !pos.isIn(s)) continue;
    const int v = seatScore(pos, s, a);
    best = std::max(best, v);
    sum += v;
    ++cnt;
  }
  if (!cnt) return own;
  return own - (best + sum / (r.nseats() - 1)) / 2 + (pos.toMove() == view ? params_.tempo : 0);
}

}  // namespace acedrex::engine
