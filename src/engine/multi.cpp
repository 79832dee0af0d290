#include "engine/multi.h"

#include <algorithm>

#include "engine/see.h"

namespace acedrex::engine {
namespace {

// Transposition keys differ per root seat (a score is from the root seat's view).
constexpr uint64_t kRootKey[kMaxSeats] = {0x9E3779B97F4A7C15ULL, 0xC2B2AE3D27D4EB4FULL, 0x165667B19E3779F9ULL,
                                          0x27D4EB2F165667C5ULL, 0x85EBCA77C2B2AE63ULL, 0xD6E8FEB86659FD93ULL,
                                          0xA0761D6478BD642FULL, 0xE7037ED1A0B428DBULL};

// King pressure (see kingPressure): per attacked square next to a king, and
// per escape square fewer than three.
constexpr int kPressureHit = 12;
constexpr int kPressureCramped = 15;
// The root seat's own king grip counts this many times where the first mate
// ends the game.
constexpr int kFirstMateRisk = 3;
// Per opponent out of the game: a seat fewer to outlast (a mated bare king
// hands over nothing, and the evaluation's material alone would not count it).
constexpr int kOutBonus = 400;
// Mop-up (see mopUp): the root seat's least material (pieces other than
// pawns), then per step a bare opponent's king is nearer the edge and the
// root seat's king nearer to it.
constexpr int kMopUpLead = 300;
constexpr int kMopUpEdge = 25;
constexpr int kMopUpNear = 8;
// Late move reductions in BRS (see lateReduction): the least remaining depth
// and the number of moves in the order searched in full first.
constexpr int kReduceDepth = 3;
constexpr int kReduceAfter = 3;

}  // namespace

MultiSearch::MultiSearch(std::shared_ptr<const Rules> rules, const Evaluator& eval, SearchConfig config,
                         MultiAlgorithm algorithm)
    : SearchBase(std::move(rules), eval, config), algo_(algorithm) {}

int MultiSearch::terminalScore(int ply) const {
  const auto places = pos_.places();
  const int n = rules_->nseats();
  int place = places[root_];
  // Teams: the mater's team shares the win.
  if (rules_->teams && pos_.finished() && pos_.result() == ResultKind::kFirstMate)
    return place == 1 ? kMate - ply : -(kMate - ply);
  if (rules_->ending == Ending::kFirstMate && pos_.finished() && pos_.isIn(root_) && place != 1)
    return -kThirdPartyMate;
  if (place == 0) place = pos_.seatsIn() + 1;  // out while the game goes on
  int shared = 0;
  for (int s = 0; s < n; ++s) shared += places[s] == place ? 1 : 0;
  if (place == 1 && shared <= 1) return kMate - ply;
  if (place == 1) return 0;  // a shared first place: a draw
  return -(kMate - ply) + 200 * (n - place);
}

int MultiSearch::staticScore(const Position& pos, int root) {
  pos_ = pos;
  root_ = root;
  return evaluate();
}

int MultiSearch::finishedScore(const Position& pos, int root) {
  pos_ = pos;
  root_ = root;
  return terminalScore(0);
}

int MultiSearch::evaluate() {
  // The score depends on the position and the root seat alone.
  return cachedEval(pos_.hash() ^ kRootKey[root_], [&] {
    // One pass over the board for the evaluation and the king grips.
    Evaluator::Attacks a;
    eval_.attacks(pos_, a);
    return eval_.evaluate(pos_, root_, a) + kingPressure(a) - ownKingRisk(a) + mopUp() +
           kOutBonus * (rules_->nseats() - pos_.seatsIn()) + pointsLead();
  });
}

// Free-for-all points (Rules::capturePoints), which decide the places: the
// root seat's lead over the best and the average of the others, each point
// worth kPointValue.
int MultiSearch::pointsLead() const {
  if (rules_->capturePoints.empty()) return 0;
  const int n = rules_->nseats();
  int best = -1000000, sum = 0;
  for (int s = 0; s < n; ++s) {
    if (s == root_) continue;
    best = std::max(best, pos_.points(s));
    sum += pos_.points(s);
  }
  return kPointValue * (pos_.points(root_) - (best + sum / (n - 1)) / 2);
}

MultiSearch::KingGrip MultiSearch::kingGrip(int seat, uint8_t by, const Evaluator::Attacks& a) const {
  const Rules& r = *rules_;
  KingGrip g;
  const Square k = pos_.kingSquare(seat);
  if (k < 0 || k == kNoSquare) return g;
  const uint8_t others = pos_.enemiesOf(seat);
  const int f = r.fileOf(k), rk = r.rankOf(k);
  for (int df = -1; df <= 1; ++df)
    for (int dr = -1; dr <= 1; ++dr) {
      if (!r.onBoard(f + df, rk + dr)) continue;
      const Square s = static_cast<Square>((rk + dr) * r.width + f + df);
      const Piece p = pos_.at(s);
      if (p == kBlocked) continue;
      uint8_t att = 0;
      for (int o = 0; o < r.nseats(); ++o)
        if (((others >> o) & 1) && a.count[o][s]) att |= static_cast<uint8_t>(1u << o);
      if (att & by) ++g.hits;
      if ((df || dr) && !att && !(isPiece(p) && seatOf(p) == seat)) ++g.escapes;
    }
  return g;
}

int MultiSearch::gripScore(const KingGrip& g) {
  if (!g.hits) return 0;
  return kPressureHit * g.hits + (g.escapes < 3 ? kPressureCramped * (3 - g.escapes) : 0);
}

int MultiSearch::kingPressure(const Evaluator::Attacks& a) const {
  // The root seat's grip on the opponents' kings: the squares around a king
  // that it attacks, more when that king has few squares left to go to. The
  // evaluation alone does not make a seat work towards a mate, and only mates
  // (which hand over an army) decide a game with more than two seats.
  const uint8_t rootMask = static_cast<uint8_t>(1u << root_);
  const int n = rules_->nseats();
  std::array<int, kMaxSeats> grips{};
  int next = -1;  // the next seat still in, where the first mate ends the game
  for (int i = 1; i < n; ++i) {
    const int o = (root_ + i) % n;
    if (!pos_.isIn(o)) continue;
    grips[o] = gripScore(kingGrip(o, rootMask, a));
    if (next < 0 && rules_->ending == Ending::kFirstMate) next = o;
  }
  return combinedPressure(grips, next);
}

int combinedPressure(const std::array<int, kMaxSeats>& grips, int favoured) {
  int total = 0, best = 0;
  for (int o = 0; o < kMaxSeats; ++o) {
    const int v = o == favoured ? kNextSeatPressure * grips[o] : grips[o];
    total += v;
    best = std::max(best, v);
  }
  // Mostly the best target: one king mated is worth more than three harassed.
  return (total + 2 * best) / 3;
}

int MultiSearch::ownKingRisk(const Evaluator::Attacks& a) const {
  // The same grip, of all the opponents together on the root seat's king: a
  // mate needs the seats to work together, which the best-reply layer (one
  // opponent moving) does not see.
  const int risk = gripScore(kingGrip(root_, pos_.enemiesOf(root_), a));
  // Where the first mate ends the game, the root seat's own king is all it
  // can lose (in Joko it was mated most often by the seat just before it).
  return rules_->ending == Ending::kFirstMate ? kFirstMateRisk * risk : risk;
}

int MultiSearch::mopUp() const {
  // Against an opponent left without pieces other than pawns, a root seat
  // with at least a minor piece's worth drives that king to the edge, and,
  // when no opponent has as much as the root seat, brings its own king near:
  // material alone does not show the way to a mate, and without one the game
  // is drawn.
  const Rules& r = *rules_;
  const Square ours = pos_.kingSquare(root_);
  if (ours < 0 || ours == kNoSquare) return 0;
  auto material = [&](int seat) {
    int m = 0;
    for (int i = 0; i < pos_.pieceCount(seat); ++i) {
      const int t = typeOf(pos_.at(pos_.pieceSquare(seat, i)));
      if (t != r.royalType && !r.types[t].pawn) m += eval_.pieceValue(t);
    }
    return m;
  };
  const int own = material(root_);
  if (own < kMopUpLead) return 0;
  bool strongest = true;
  for (int o = 0; o < r.nseats(); ++o)
    if (o != root_ && pos_.isIn(o) && material(o) >= own) strongest = false;
  const int maxCenter = (std::min(r.width, r.height) - 1) / 2;
  int best = 0;
  for (int o = 0; o < r.nseats(); ++o) {
    if (o == root_ || !pos_.isIn(o)) continue;
    const Square k = pos_.kingSquare(o);
    if (k < 0 || k == kNoSquare || material(o) > 0) continue;
    const int fk = r.fileOf(k), rk = r.rankOf(k);
    const int center = std::min({fk, rk, r.width - 1 - fk, r.height - 1 - rk});
    const int dist = std::max(std::abs(fk - r.fileOf(ours)), std::abs(rk - r.rankOf(ours)));
    const int near = strongest ? kMopUpNear * (std::max(r.width, r.height) - dist) : 0;
    best = std::max(best, kMopUpEdge * (maxCenter - center) + near);
  }
  return best;
}

MultiSearch::Vec MultiSearch::evalVec() const {
  Vec v{};
  for (int s = 0; s < rules_->nseats(); ++s) v[s] = pos_.isIn(s) ? eval_.evaluate(pos_, s) : -kMate / 2;
  return v;
}

MultiSearch::Vec MultiSearch::terminalVec(int ply) const {
  Vec v{};
  const int saved = root_;
  auto* self = const_cast<MultiSearch*>(this);
  for (int s = 0; s < rules_->nseats(); ++s) {
    self->root_ = s;
    v[s] = terminalScore(ply);
  }
  self->root_ = saved;
  return v;
}

int MultiSearch::settle() {
  int pushed = 0;
  MoveList list;
  while (!pos_.finished()) {
    // Stop at the first legal move: testing them all costs more than finding one.
    list.clear();
    pos_.pseudoMoves(list);
    bool any = false;
    for (int i = 0; i < list.size() && !any; ++i) any = pos_.isLegal(list[i]);
    if (any) break;
    pos_.applyTurnStart();
    ++pushed;
  }
  return pushed;
}

int MultiSearch::play(Move m) {
  pos_.make(m);
  const int records = 1 + settle();
  stack_.push_back(pos_.hash());
  return records;
}

void MultiSearch::undo(int records) {
  stack_.pop_back();
  for (int i = 0; i < records; ++i) pos_.unmake();
}

uint64_t MultiSearch::ttKey() const {
  return pos_.hash() ^ kRootKey[root_] ^ (algo_ == MultiAlgorithm::kBrsPlus ? 0x5151515151515151ULL : 0);
}

bool MultiSearch::legalOrdered(MoveList& list, int ply, Move ttMove) {
  pos_.legalMoves(list);
  if (list.empty()) return false;
  int scores[MoveList::kCapacity];
  scoreMoves(list, ttMove, ply, scores, LosingCaptures::kByOrderKey);
  sortByScore(list, scores);
  return true;
}

Move MultiSearch::firstOrdered(int ply) {
  MoveList list;
  if (!legalOrdered(list, ply, tableMove(ttKey()))) return Move();
  return list[0];
}

Move MultiSearch::idleMove(int ply) {
  // An opponent other than the one replying passes, so that the reply is
  // found in the position the root seat left (a move of its own could hide
  // or spoil the reply: a mate by the seat just before the root seat is
  // missed when the seats before it have moved first). A seat in check
  // cannot pass (its king could then be taken): it plays its first move.
  if (!pos_.inCheck(pos_.toMove())) return Move::null();
  return firstOrdered(ply);
}

void MultiSearch::rememberCutoff(Move m, int depth, int ply) {
  if (isCapture(m)) return;
  rememberKiller(m, ply);
  int& h = history(pos_.toMove(), m);
  h = std::min(h + depth * depth, 1 << 20);
}

int MultiSearch::quiesce(int alpha, int beta, int ply, int qdepth, bool quiet) {
  // Captures only. The root seat may stand pat; an opponent that does not
  // capture passes to the next seat, so that every opponent's captures are
  // seen before the root seat moves again (standing pat there would hide a
  // later opponent's capture). An opponent in check cannot pass and stands
  // pat. `quiet`: no opponent has captured since the root seat's last
  // capture; the root seat then stands pat, or it would make two captures
  // in a row.
  ++nodes_;
  if (ply > selDepth_) selDepth_ = ply;
  // A finished game, or the root seat out of it, is scored by places.
  if (pos_.finished() || !pos_.isIn(root_)) return terminalScore(ply);
  if (timeUp()) return 0;
  const int us = pos_.toMove();
  const bool maxNode = ours(us);
  if (qdepth > 8 || ply >= kMaxPly - 2) return evaluate();
  // A seat in check answers it with any legal move (it could not pass).
  const bool inCheck = pos_.inCheck(us);
  int best;
  if (inCheck) {
    best = maxNode ? -kInf : kInf;
  } else if (maxNode) {
    best = evaluate();
    if (best >= beta || quiet) return best;
    alpha = std::max(alpha, best);
  } else {
    const int records = play(Move::null());
    best = quiesce(alpha, beta, ply + 1, qdepth, quiet);
    undo(records);
    if (stopped_) return 0;
    if (best <= alpha) return best;
    beta = std::min(beta, best);
  }
  MoveList list;
  quiescenceMoves(list, inCheck);
  // Captures by most valuable victim, least valuable attacker; captures that
  // lose material in the exchange (all the opponents counted as one side) are left out.
  int scores[MoveList::kCapacity];
  int n = 0;
  for (int i = 0; i < list.size(); ++i) {
    const Move m = list[i];
    const bool capture = isCapture(m);
    if (!capture && !inCheck) continue;
    if (!inCheck && losesExchange(pos_, m, eval_)) continue;
    if (!pos_.isLegal(m)) continue;
    list.set(n, m);
    scores[n++] = capture ? captureOrder(pos_, m, eval_) : -eval_.pieceValue(typeOf(pos_.at(m.from()))) / 16;
  }
  list.truncate(n);
  sortByScore(list, scores);
  for (Move m : list) {
    const int records = play(m);
    const int s = quiesce(alpha, beta, ply + 1, qdepth + 1, maxNode);
    undo(records);
    if (stopped_) return 0;
    if (maxNode) {
      best = std::max(best, s);
      alpha = std::max(alpha, s);
    } else {
      best = std::min(best, s);
      beta = std::min(beta, s);
    }
    if (alpha >= beta) break;
  }
  return best;
}

int MultiSearch::chance(int depth, int alpha, int beta, int ply) {
  // Every face is equally likely; each face's best move is found by alpha-beta
  // over the moves of that piece kind (a face with none loses the turn), and
  // the faces are averaged as winning chances (FaceAverage), so that one face
  // that mates does not outweigh all the others.
  (void)alpha;
  (void)beta;
  const Rules& r = *rules_;
  const bool maxNode = pos_.toMove() == root_;
  MoveList list;
  legalOrdered(list, ply);
  FaceAverage average;
  int nullValue = kInf + 1;
  for (const DieFace& face : r.die) {
    int best = maxNode ? -kInf : kInf;
    bool any = false;
    for (Move m : list) {
      if (!face.allows(typeOf(pos_.at(m.from())))) continue;
      any = true;
      const int records = play(m);
      // Alpha-beta within the face: only its best move's value is needed exactly.
      const int s = maxNode ? paranoid(depth - 1, best, kInf, ply + 1) : paranoid(depth - 1, -kInf, best, ply + 1);
      undo(records);
      if (stopped_) return 0;
      best = maxNode ? std::max(best, s) : std::min(best, s);
    }
    if (!any) {
      if (nullValue == kInf + 1) {
        const int records = play(Move::null());
        nullValue = paranoid(depth - 1, -kInf, kInf, ply + 1);
        undo(records);
        if (stopped_) return 0;
      }
      best = nullValue;
    }
    average.add(best);
  }
  return average.value();
}

bool MultiSearch::isChanceNode(int ply) const {
  // The throws of the first round below the root (each opponent's next one;
  // with a seat out, the root seat's next as well) are chance nodes; later
  // throws are searched as if free: expectimax has no cutoffs between the
  // faces and would cost most of the depth.
  return chanceNodesOn() && ply < rules_->nseats();
}

bool MultiSearch::settledBeforeSearch(int depth, int alpha, int beta, int ply, int& score) {
  // A finished game, or the root seat out of it, is scored by places.
  if (pos_.finished() || !pos_.isIn(root_)) {
    score = terminalScore(ply);
    return true;
  }
  score = 0;
  // A repetition, or the fifty-round count run out: the game's draw.
  if (drawnByRule()) return true;
  if (depth <= 0) {
    score = quiesce(alpha, beta, ply, 0, !ours(pos_.toMove()));
    return true;
  }
  ++nodes_;
  if (timeUp()) return true;
  if (ply > selDepth_) selDepth_ = ply;
  if (ply >= kMaxPly - 4) {
    score = evaluate();
    return true;
  }
  return false;
}

int MultiSearch::paranoid(int depth, int alpha, int beta, int ply) {
  int early = 0;
  if (settledBeforeSearch(depth, alpha, beta, ply, early)) return early;
  if (isChanceNode(ply)) return chance(depth, alpha, beta, ply);
  const bool maxNode = ours(pos_.toMove());
  const uint64_t key = ttKey();
  Move ttMove;
  int cut = 0;
  if (probeTable(key, depth, alpha, beta, ply, ttMove, cut)) return cut;
  MoveList list;
  legalOrdered(list, ply, ttMove);
  const int a0 = alpha, b0 = beta;
  int best = maxNode ? -kInf : kInf;
  Move bestMove;
  for (Move m : list) {
    const int records = play(m);
    const int s = paranoid(depth - 1, alpha, beta, ply + 1);
    undo(records);
    if (stopped_) return 0;
    if (maxNode ? s > best : s < best) {
      best = s;
      bestMove = m;
    }
    if (maxNode) alpha = std::max(alpha, s);
    else beta = std::min(beta, s);
    if (alpha >= beta) {
      rememberCutoff(m, depth, ply);
      break;
    }
  }
  storeResult(key, bestMove, best, depth, a0, b0, ply);
  return best;
}

int MultiSearch::brs(int depth, int alpha, int beta, int ply) {
  int early = 0;
  if (settledBeforeSearch(depth, alpha, beta, ply, early)) return early;
  if (pos_.toMove() == root_) {
    // MAX layer: the root seat's own moves.
    const uint64_t key = ttKey();
    Move ttMove;
    int cut = 0;
    if (probeTable(key, depth, alpha, beta, ply, ttMove, cut)) return cut;
    MoveList list;
    legalOrdered(list, ply, ttMove);
    const int a0 = alpha;
    const bool inCheck = pos_.inCheck(root_);
    int best = -kInf;
    Move bestMove;
    for (int i = 0; i < list.size(); ++i) {
      const Move m = list[i];
      const int r = inCheck ? 0 : lateReduction(m, depth, i, ply);
      const int records = play(m);
      const int s = brsReduced(depth, r, alpha, beta, ply, true);
      undo(records);
      if (stopped_) return 0;
      if (s > best) {
        best = s;
        bestMove = m;
      }
      alpha = std::max(alpha, s);
      if (alpha >= beta) {
        rememberCutoff(m, depth, ply);
        break;
      }
    }
    storeResult(key, bestMove, best, depth, a0, beta, ply);
    return best;
  }
  // MIN layer: for each opponent in turn, its every reply while the opponents
  // before it play their first ordered move; the ones after it likewise, until
  // the root seat moves again.
  int best = kInf;
  std::vector<int> seats;
  {
    int s = pos_.toMove();
    while (s != root_ && static_cast<int>(seats.size()) < rules_->nseats()) {
      seats.push_back(s);
      int next = s;
      for (int i = 1; i <= rules_->nseats(); ++i) {
        next = (s + i) % rules_->nseats();
        if (pos_.isIn(next)) break;
      }
      s = next;
    }
  }
  for (size_t which = 0; which < seats.size() && alpha < beta; ++which) {
    // Play the earlier opponents' ordered moves.
    std::vector<int> made;
    bool ok = true;
    for (size_t k = 0; k < which; ++k) {
      if (pos_.finished() || !pos_.isIn(root_) || pos_.toMove() == root_) {
        ok = false;
        break;
      }
      const Move fm = idleMove(ply);
      if (fm == Move()) {
        ok = false;
        break;
      }
      made.push_back(play(fm));
    }
    if (ok && !pos_.finished() && pos_.toMove() != root_ && pos_.toMove() == seats[which]) {
      MoveList list;
      legalOrdered(list, ply, tableMove(ttKey()));
      Move bestMove;
      const bool inCheck = pos_.inCheck(pos_.toMove());
      for (int i = 0; i < list.size(); ++i) {
        const Move m = list[i];
        const int r = inCheck ? 0 : lateReduction(m, depth, i, ply);
        std::vector<int> inner{play(m)};
        // The later opponents play their ordered moves, for one round at most:
        // a root seat that must pass (stalemate = pass) is skipped at every
        // turn start and never gets the move back, and the loop would not end.
        for (int later = 1; later < rules_->nseats() && !pos_.finished() && pos_.isIn(root_) && pos_.toMove() != root_;
             ++later) {
          const Move fm = idleMove(ply);
          if (fm == Move()) break;
          inner.push_back(play(fm));
        }
        const int s = brsReduced(depth, r, alpha, beta, ply, false);
        for (auto it = inner.rbegin(); it != inner.rend(); ++it) undo(*it);
        if (stopped_) break;
        if (s < best) {
          best = s;
          bestMove = m;
        }
        beta = std::min(beta, s);
        if (alpha >= beta) {
          rememberCutoff(m, depth, ply);
          break;
        }
      }
      // The reply found best is this seat's ordered move next time here.
      if (bestMove != Move() && !stopped_) tt_.store(ttKey(), bestMove, 0, 0, kBoundNone);
    }
    for (auto it = made.rbegin(); it != made.rend(); ++it) undo(*it);
    if (stopped_) return 0;
  }
  if (best == kInf) return evaluate();
  return best;
}

int lateMoveReduction(int depth, int index, bool quiet) {
  return depth >= kReduceDepth && index >= kReduceAfter && quiet ? 1 : 0;
}

int MultiSearch::lateReduction(Move m, int depth, int index, int ply) const {
  return lateMoveReduction(depth, index, !isCapture(m) && m.promo() < 0 && !isKiller(m, ply));
}

int MultiSearch::brsReduced(int depth, int reduction, int alpha, int beta, int ply, bool maxLayer) {
  // The move is made. A reduced move, unless it checks the seat to move now,
  // is tried with a null window at the lower depth, and searched in full
  // only when it reaches the window (above alpha for the root seat, below
  // beta for an opponent).
  if (reduction > 0 && !pos_.finished() && !pos_.inCheck(pos_.toMove())) {
    const int s = maxLayer ? brs(depth - 1 - reduction, alpha, alpha + 1, ply + 1)
                           : brs(depth - 1 - reduction, beta - 1, beta, ply + 1);
    if (stopped_ || (maxLayer ? s <= alpha : s >= beta)) return s;
  }
  return brs(depth - 1, alpha, beta, ply + 1);
}

MultiSearch::Vec MultiSearch::maxn(int depth, int ply) {
  if (pos_.finished()) return terminalVec(ply);
  ++nodes_;
  if (depth <= 0 || timeUp()) return evalVec();
  const int us = pos_.toMove();
  MoveList list;
  legalOrdered(list, ply);
  Vec best{};
  best[us] = -kInf * 2;
  for (Move m : list) {
    const int records = play(m);
    const Vec v = maxn(depth - 1, ply + 1);
    undo(records);
    if (stopped_) break;
    if (v[us] > best[us]) best = v;
  }
  return best;
}

int MultiSearch::searchChild(int depth, int alpha, int beta, int ply) {
  if (algo_ == MultiAlgorithm::kMaxN) return maxn(depth, ply)[root_];
  if (algo_ == MultiAlgorithm::kParanoid || !rules_->die.empty()) return paranoid(depth, alpha, beta, ply);
  return brs(depth, alpha, beta, ply);
}

SearchResult MultiSearch::run(const Game& game, const SearchLimits& limits, std::atomic<bool>& stop,
                              const std::function<void(const SearchInfo&)>& onInfo) {
  SearchResult result;
  RunStart start;
  if (!beginRun(game, limits, stop, 8, result, start)) return result;
  const std::vector<Move>& root = start.root;
  const std::vector<int>& noise = start.noise;
  root_ = pos_.toMove();
  const bool exactAll = config_.noise > 0;  // the weaker levels need every root move's score
  // Initial order: captures first, as inside the tree.
  std::vector<size_t> order;
  {
    MoveList l;
    for (Move m : root) l.push(m);
    int sc[MoveList::kCapacity];
    for (int i = 0; i < l.size(); ++i) {
      const Move m = l[i];
      sc[i] = 0;
      if (isCapture(m)) sc[i] = captureOrder(pos_, m, eval_) + 1;
    }
    sortByScore(l, sc);
    order = rootOrder(root, l);
  }
  std::vector<int> scores(root.size(), -kInf);
  size_t prevChosen = order[0];
  int prevRaw = -kInf;
  for (int depth = 1; depth <= start.maxDepth; ++depth) {
    int alpha = -kInf;
    size_t searched = 0;
    std::vector<int> iter(root.size(), -kInf);
    for (size_t k = 0; k < order.size(); ++k) {
      const size_t i = order[k];
      const int records = play(root[i]);
      const int s = searchChild(depth - 1, exactAll ? -kInf : alpha, kInf, 1);
      undo(records);
      if (stopped_) break;
      iter[i] = s;
      ++searched;
      alpha = std::max(alpha, s);
    }
    // An iteration cut short counts only for the moves it searched: the first
    // of them is the previous best, so a move chosen from them has been seen
    // at the new depth (an unsearched move's older score is not comparable).
    if (searched == 0) break;
    if (searched < order.size()) {
      for (size_t i = 0; i < root.size(); ++i) scores[i] = iter[i];
    } else {
      scores = iter;
    }
    // In search order: a later move that only ties the best so far has a
    // bound (it failed low), not a score, and must not be taken.
    size_t chosen = order[0];
    int bestNoisy = -kInf * 2, bestRaw = -kInf;
    for (const size_t i : order) {
      if (scores[i] == -kInf) continue;
      const int noisy = std::abs(scores[i]) >= kMateBound ? scores[i] : scores[i] + noise[i];
      if (noisy > bestNoisy) {
        bestNoisy = noisy;
        chosen = i;
        bestRaw = scores[i];
      }
    }
    // When the deeper search finds every move lost (the opponents' best replies
    // together always mate), the shallower choice, which holds out longer
    // against opponents that do not all play against the root seat, is kept.
    if (bestRaw <= -kMateBound && prevRaw > -kMateBound) {
      chosen = prevChosen;
      bestRaw = scores[chosen] == -kInf ? bestRaw : scores[chosen];
    }
    prevChosen = chosen;
    prevRaw = bestRaw;
    result.best = root[chosen];
    // The next iteration starts with the chosen move, then by this one's scores.
    reorderRoot(order, scores, chosen);
    reportIteration(depth, bestRaw, {result.best}, result, onInfo);
    if (stopped_) break;
    // A won game found needs no deeper search.
    if (bestRaw >= kMateBound && depth > kMate - bestRaw + 1) break;
    if (outOfTimeForIteration(start.budget, limits, result.info.timeMs)) break;
  }
  result.info.nodes = nodes_;
  return result;
}

}  // namespace acedrex::engine
