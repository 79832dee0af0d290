#include "engine/search.h"

#include <algorithm>
#include <cmath>

#include "engine/duck.h"
#include "engine/see.h"

namespace acedrex::engine {

Search::Search(std::shared_ptr<const Rules> rules, const Evaluator& eval, SearchConfig config)
    : SearchBase(std::move(rules), eval, config) {
  squares_ = rules_->width * rules_->height;
  pieceToCount_ = static_cast<int>(rules_->types.size()) * squares_;
  contHist_.assign(static_cast<size_t>(pieceToCount_) * pieceToCount_, 0);
  counterMoves_.assign(static_cast<size_t>(pieceToCount_), Move());
  captureHist_.assign(static_cast<size_t>(pieceToCount_) * rules_->types.size(), 0);
  std::fill(std::begin(pieceToAt_), std::end(pieceToAt_), -1);
}

void Search::clear() {
  SearchBase::clear();
  std::fill(contHist_.begin(), contHist_.end(), 0);
  std::fill(counterMoves_.begin(), counterMoves_.end(), Move());
  std::fill(captureHist_.begin(), captureHist_.end(), 0);
}

int Search::quietStat(int us, Move m, int idx, int ply) {
  int s = history(us, m);
  if (const int16_t* c = continuation(ply, 1)) s += c[idx];
  if (const int16_t* c = continuation(ply, 2)) s += c[idx];
  return s;
}

void Search::scoreNodeMoves(const MoveList& list, Move ttMove, int ply, int* scores) {
  scoreMoves(list, ttMove, ply, scores, LosingCaptures::kUntested);
  const int us = pos_.toMove();
  const int prev = ply >= 1 ? pieceToAt_[ply - 1] : -1;
  const Move counter = prev >= 0 ? counterMoves_[static_cast<size_t>(prev)] : Move();
  for (int i = 0; i < list.size(); ++i) {
    const Move m = list[i];
    if (scores[i] >= kTableMoveScore || m.promo() >= 0) continue;
    if (isCapture(m)) {
      if (m.flag() == kEnPassant || m.isDrop()) continue;
      // Within the captures' band: the victim first, then what such captures have done before.
      scores[i] = kCaptureScore + std::max(0, scores[i] - kCaptureScore + captureHistory(m) / 4);
    } else if (scores[i] < kKillerScore - 1) {
      scores[i] = m == counter ? kKillerScore - 2 : quietStat(us, m, pieceTo(m), ply);
    }
  }
}

void Search::updateStats(Move best, int depth, int ply, const Move* quiets, int nQuiets, const Move* captures,
                         int nCaptures) {
  const int us = pos_.toMove();
  const int bonus = std::min(depth * depth + 2 * depth - 2, 1200);
  auto gravity = [](auto& h, int delta) {
    h = static_cast<std::remove_reference_t<decltype(h)>>(h + delta - h * std::abs(delta) / kHistoryMax);
  };
  auto quiet = [&](Move q, int delta) {
    gravity(history(us, q), delta);
    const int idx = pieceTo(q);
    if (int16_t* c = continuation(ply, 1)) gravity(c[idx], delta);
    if (int16_t* c = continuation(ply, 2)) gravity(c[idx], delta);
  };
  if (!isCapture(best) && best.promo() < 0) {
    if (ply < kMaxPly) rememberKiller(best, ply);
    if (ply >= 1 && pieceToAt_[ply - 1] >= 0) counterMoves_[static_cast<size_t>(pieceToAt_[ply - 1])] = best;
    quiet(best, bonus);
    for (int q = 0; q < nQuiets; ++q) quiet(quiets[q], -bonus);
  } else if (isCapture(best) && best.flag() != kEnPassant) {
    gravity(captureHistory(best), bonus);
  }
  for (int c = 0; c < nCaptures; ++c) gravity(captureHistory(captures[c]), -bonus);
}

int Search::evaluate() {
  // The evaluation depends on the position alone.
  return cachedEval(pos_.hash(), [&] { return eval_.evaluate(pos_, pos_.toMove()); });
}

int Search::terminalScore(int ply) const {
  if (pos_.result() == ResultKind::kDraw || pos_.result() == ResultKind::kOngoing) return 0;
  // The node belongs to the side (the seat, or with two teams the team:
  // playsAsTwoSides) that did not make the last ply: when that ply ended the
  // game (a king blown up or taken, a king left bare), the position's seat to
  // move has already skipped to the winner. A team shares its mater's win.
  const int mover = pos_.undoDepth() > 0 ? pos_.lastEvents().mover : -1;
  const unsigned side = mover >= 0 ? ~unsigned{rules_->friends[mover]} : rules_->friends[pos_.toMove()];
  const int winner = pos_.winner();
  return winner >= 0 && ((side >> winner) & 1) ? kMate - ply : -(kMate - ply);
}

bool Search::partnerInReach(int seat) const {
  if (!rules_->teams) [[likely]] return false;
  // Only the seat that moves next can take a partner's king before the
  // partner moves; a check from a later seat the partner answers itself.
  const int next = pos_.nextSeat(seat);
  const uint8_t partners = static_cast<uint8_t>(rules_->friends[seat] & ~(1u << seat));
  for (int s = 0; s < rules_->nseats(); ++s)
    if (((partners >> s) & 1) && pos_.isIn(s) && pos_.kingSquare(s) != kNoSquare &&
        pos_.attacked(pos_.kingSquare(s), static_cast<uint8_t>(1u << next)))
      return true;
  return false;
}

bool playsAsTwoSides(const Rules& r) {
  if (r.nseats() == 2) return true;
  // Two teams whose seats alternate, and a game that ends with the first
  // mate, stalemate being a draw: every ply passes the move to the other
  // team, and no seat is ever skipped.
  if (!r.teams || r.nseats() % 2 || r.ending != Ending::kFirstMate || r.stalemate != StalemateEffect::kDraw ||
      !r.die.empty())
    return false;
  for (int s = 0; s < r.nseats(); ++s) {
    const int next = (s + 1) % r.nseats();
    if ((r.friends[s] >> next) & 1) return false;                      // the next seat is a partner
    if (r.friends[s] != r.friends[(s + 2) % r.nseats()]) return false;  // more than two teams
  }
  return true;
}

int Search::noMoveScore(bool inCheck, int ply) const {
  if (inCheck || rules_->stalemate == StalemateEffect::kLoss) return -(kMate - ply);
  return rules_->stalemate == StalemateEffect::kWin ? kMate - ply : 0;
}

void Search::orderMoves(MoveList& list, Move ttMove, int ply, int* scores) const {
  scoreMoves(list, ttMove, ply, scores, LosingCaptures::kByValues);
  sortByScore(list, scores);
}

void Search::pickMove(MoveList& list, int* scores, int k, bool& sorted) const {
  if (sorted) return;
  while (true) {
    pickBest(list, scores, k);
    const int s = scores[k];
    if (s < kCaptureScore) {
      // The best left is no capture, so none of the rest is one still to test.
      sortByScore(list, scores, k + 1);
      sorted = true;
      return;
    }
    if (s >= kTableMoveScore || !losesExchange(pos_, list[k], eval_)) return;
    scores[k] = losingCaptureScore(list[k]);
  }
}

int Search::qsearch(int alpha, int beta, int ply, int qdepth) {
  ++nodes_;
  if (ply > selDepth_) selDepth_ = ply;
  if (pos_.finished()) return terminalScore(ply);
  if (timeUp()) return 0;
  const int us = pos_.toMove();
  const bool inCheck = pos_.inCheck(us);
  const bool urgent = inCheck || partnerInReach(us);
  // Checks and evasions could go on for long: the quiescence search has a hard floor.
  if (qdepth > 16 || ply >= kMaxPly - 2) return evaluate();
  // The table: any entry is at least as deep as the quiescence search (depth 0).
  const uint64_t key = pos_.hash();
  Move ttMove;
  if (int s; probeTable(key, 0, alpha, beta, ply, ttMove, s)) return s;
  const int origAlpha = alpha;
  Move bestMove;
  int best = -kInf;
  if (!urgent) {
    best = evaluate();
    if (best >= beta || qdepth > 10 || ply >= kMaxPly - 2) return best;
    alpha = std::max(alpha, best);
  }
  MoveList list;
  quiescenceMoves(list, urgent);
  if (rules_->duck) [[unlikely]] placeDucks(pos_, eval_, list, 1);
  int scores[MoveList::kCapacity];
  scoreMoves(list, ttMove, kMaxPly, scores, LosingCaptures::kUntested);
  int legal = 0;
  bool sorted = false;
  for (int k = 0; k < list.size(); ++k) {
    pickMove(list, scores, k, sorted);
    const Move m = list[k];
    if (!urgent) {
      // The captures that lose material in the exchange on their square are left out: they come last.
      if (scores[k] < kCaptureScore && m.promo() < 0) break;
      if (scores[k] >= kTableMoveScore && losesExchange(pos_, m, eval_)) continue;
    }
    if (!pos_.isLegal(m)) continue;
    ++legal;
    if (!urgent && isCapture(m) && m.promo() < 0 && m.flag() != kEnPassant) {
      const Piece victim = pos_.at(m.to());
      const int gain = typeOf(victim) == rules_->royalType ? kMate : eval_.pieceValue(typeOf(victim));
      // Delta pruning: even the capture cannot lift the score to alpha.
      if (best + gain + 200 < alpha) continue;
    }
    pos_.make(m);
    const int score = -qsearch(-beta, -alpha, ply + 1, qdepth + 1);
    pos_.unmake();
    if (stopped_) return 0;
    if (score > best) {
      best = score;
      if (score > alpha) {
        alpha = score;
        bestMove = m;
        if (alpha >= beta) break;
      }
    }
  }
  if (inCheck && legal == 0) return pos_.dropMateLoses() ? kMate - ply : -(kMate - ply);
  if (urgent && legal == 0) return noMoveScore(false, ply);  // stalemated with a partner in check
  storeResult(key, bestMove, best, 0, origAlpha, beta, ply);
  return best;
}

// Plies from the root at which a throw is a chance node: the opponent's next
// throw only (the root's own throw is known). Chance nodes in check deeper in
// the tree were measured too: they cost a ply or two and lost (docs/strength.md).
constexpr int kChancePlies = 1;
// Pruning margins, in centipawns: ProbCut's over beta; static exchange
// losses past which a quiet move (times the square of its reduced depth) or a
// capture (times the depth) is skipped near the leaves.
constexpr int kProbCutMargin = 150;
constexpr int kSeeQuietMargin = 30;
constexpr int kSeeCaptureMargin = 100;
constexpr int kChanceMargin = 150;

bool Search::isChanceNode(int ply) const { return chanceNodesOn() && ply <= kChancePlies; }

// The enemy king stands attacked after a lost turn in check: at the horizon
// the two throws race, the mover's to show one of the attackers' kinds, the
// other side's to show one of the `evasionFaces` kinds that answered the
// check; if the check is answered first, the static score stands.
int Search::kingCaptureAtHorizon(int ply, int evasionFaces) {
  const Square king = pos_.kingSquare(pos_.toMove() == 0 ? 1 : 0);
  MoveList list;
  pos_.pseudoMoves(list);
  uint64_t kinds = 0;
  for (Move m : list)
    if (m.to() == king && pos_.isLegal(m)) kinds |= uint64_t{1} << typeOf(pos_.at(m.from()));
  const double n = static_cast<double>(rules_->die.size());
  int hits = 0;
  for (const DieFace& face : rules_->die) hits += (kinds & face.kinds) ? 1 : 0;
  const double take = hits / n, answer = evasionFaces / n;
  const double taken = hits == 0 ? 0.0 : take / (take + answer - take * answer);
  FaceAverage average;
  average.add(kMate - ply - 1, taken);
  average.add(evaluate(), 1.0 - taken);
  return average.value();
}

int Search::chance(int depth, int alpha, int beta, int ply) {
  // Every face is equally likely; each face's best move is found by its own
  // alpha-beta over the moves of that piece kind; a face with none loses the turn.
  // Each face is searched in the node's window widened by kChanceMargin: a
  // face far outside it is only bounded, which moves the average little
  // (not exact, as Star1 would be, but Star1's bounds are the mate scores here).
  const int lo = std::max(-kInf, alpha - kChanceMargin), hi = std::min(kInf, beta + kChanceMargin);
  const Rules& r = *rules_;
  evalAt_[ply] = -kInf;
  MoveList list;
  pos_.legalMoves(list);
  if (list.empty()) return noMoveScore(pos_.inCheck(pos_.toMove()), ply);
  int scores[MoveList::kCapacity];
  orderMoves(list, Move(), ply, scores);
  const int nFaces = static_cast<int>(r.die.size());
  std::array<int, kMaxDieFaces> best;  // per face (the variant file allows at most kMaxDieFaces)
  best.fill(-kInf);
  uint64_t kinds = 0;
  for (Move m : list) kinds |= uint64_t{1} << typeOf(pos_.at(m.from()));
  int evasionFaces = 0;  // in check: the faces that can answer it
  for (const DieFace& face : r.die) evasionFaces += (kinds & face.kinds) ? 1 : 0;
  int nullValue = -kInf;
  // Each face's value so far: after its first move a lower bound, so their
  // mean is one too and may already reach beta (Star2's probing phase).
  auto mean = [&] {
    FaceAverage average;
    for (int f = 0; f < nFaces; ++f) average.add(best[f]);
    return average.value();
  };
  auto search = [&](Move m, int face) {
    pieceToAt_[ply] = pieceTo(m);
    extensionsAt_[ply + 1] = extensionsAt_[ply];
    pos_.make(m);
    stack_.push_back(pos_.hash());
    int score;
    if (best[face] == -kInf) {
      score = -negamax(depth - 1, -hi, -lo, ply + 1, true);
    } else {
      const int a = std::max(lo, best[face]);
      score = -negamax(depth - 1, -a - 1, -a, ply + 1, true);
      if (score > a && score < hi) score = -negamax(depth - 1, -hi, -a, ply + 1, true);
    }
    stack_.pop_back();
    pos_.unmake();
    best[face] = std::max(best[face], score);
  };
  for (int f = 0; f < nFaces; ++f) {
    best[f] = -kInf;
    const auto first =
        std::find_if(list.begin(), list.end(), [&](Move m) { return r.die[f].allows(typeOf(pos_.at(m.from()))); });
    if (first != list.end()) {
      search(*first, f);
      if (stopped_) return 0;
      continue;
    }
    if (nullValue == -kInf) {
      // A lost turn in check leaves the king in reach: the race of the throws
      // decides whether it is taken (not searched further: see kingCaptureAtHorizon).
      const bool kingInReach = pos_.inCheck(pos_.toMove());
      pieceToAt_[ply] = -1;
      extensionsAt_[ply + 1] = extensionsAt_[ply];
      pos_.make(Move::null());
      stack_.push_back(pos_.hash());
      if (!kingInReach) nullValue = -negamax(depth - 1, -hi, -lo, ply + 1, false);
      else nullValue = -kingCaptureAtHorizon(ply + 1, evasionFaces);
      stack_.pop_back();
      pos_.unmake();
      if (stopped_) return 0;
    }
    best[f] = nullValue;
  }
  if (const int v = mean(); v >= beta) return v;
  // The faces' other moves, each face's search ending at hi, the node's at beta.
  for (int f = 0; f < nFaces; ++f) {
    bool first = true;
    for (Move m : list) {
      if (best[f] >= hi) break;
      if (!r.die[f].allows(typeOf(pos_.at(m.from())))) continue;
      if (first) {
        first = false;  // searched above
        continue;
      }
      search(m, f);
      if (stopped_) return 0;
    }
    if (const int v = mean(); v >= beta) return v;
  }
  return mean();
}

int Search::negamax(int depth, int alpha, int beta, int ply, bool allowNull, Move excluded) {
  if (pos_.finished()) return terminalScore(ply);
  if (depth <= 0) return qsearch(alpha, beta, ply, 0);
  ++nodes_;
  if (ply > selDepth_) selDepth_ = ply;
  if (timeUp()) return 0;
  if (drawnByRule()) return ruleScore(ply);
  if (ply >= kMaxPly - 4) return evaluate();
  // Mate distance pruning.
  alpha = std::max(alpha, -(kMate - ply));
  beta = std::min(beta, kMate - ply - 1);
  if (alpha >= beta) return alpha;

  const bool pvNode = beta - alpha > 1;
  const uint64_t key = pos_.hash();
  // A singular search (see below) searches this node again without the
  // table's move: it neither reads the table's verdict nor stores its own.
  const bool singularSearch = excluded != Move();
  Move ttMove;
  TTEntry entry;  // a copy: the searches below may overwrite the table's
  int ttScore = 0;
  if (!singularSearch) {
    if (int s; probeTable(key, depth, alpha, beta, ply, ttMove, s) && !pvNode) return s;
    if (const TTEntry* e = tt_.probe(key)) entry = *e;
    ttScore = scoreFromTable(entry.score, ply);
  }
  // The next throws are chance nodes; deeper ones are searched as if free, because
  // expectimax without cutoffs would cost most of the depth (see kChancePlies).
  if (isChanceNode(ply)) {
    const int v = chance(depth, alpha, beta, ply);
    if (!stopped_) tt_.store(key, Move(), v, depth, v <= alpha ? kBoundUpper : (v >= beta ? kBoundLower : kBoundExact));
    return v;
  }

  const int us = pos_.toMove();
  const bool inCheck = pos_.inCheck(us);
  // With teams, a partner's king that the next seat attacks is as urgent as
  // a check: that seat may take it, which no static score sees.
  const bool urgent = inCheck || partnerInReach(us);
  const int staticEval = urgent ? -kInf : evaluate();
  // Improving: the static score is better than at this side's previous turn.
  evalAt_[ply] = staticEval;
  const bool improving = !urgent && ply >= 2 && staticEval > evalAt_[ply - 2];
  // The table's score stands for the static one where its bound says more.
  int eval = staticEval;
  if (!urgent && std::abs(ttScore) < kMateBound && (entry.bound() & (ttScore > staticEval ? kBoundLower : kBoundUpper)))
    eval = ttScore;
  const bool mayPrune = !pvNode && !urgent && !singularSearch;
  // Reverse futility: near the leaves a static score far above beta stands.
  if (mayPrune && depth <= 6 && std::abs(beta) < kMateBound && eval - 80 * (depth - (improving ? 1 : 0)) >= beta)
    return eval;
  // Null move: if passing still fails high, the position is good enough.
  if (allowNull && mayPrune && depth >= 3 && eval >= beta) {
    bool material = false;
    for (int i = 0; i < pos_.pieceCount(us) && !material; ++i) {
      const int t = typeOf(pos_.at(pos_.pieceSquare(us, i)));
      material = t != rules_->royalType && !rules_->types[t].pawn;
    }
    if (material) {
      const int R = 3 + depth / 4 + std::min(2, (eval - beta) / 200);
      pieceToAt_[ply] = -1;
      extensionsAt_[ply + 1] = extensionsAt_[ply];
      pos_.make(Move::null());
      stack_.push_back(pos_.hash());
      const int s = -negamax(depth - 1 - R, -beta, -beta + 1, ply + 1, false);
      stack_.pop_back();
      pos_.unmake();
      if (stopped_) return 0;
      if (s >= beta && s < kMateBound) return beta;
    }
  }
  // ProbCut: a capture that wins enough by exchange, and whose reduced
  // search still beats beta by a margin, settles the node.
  if (mayPrune && !rules_->teams && depth >= 5 && std::abs(beta) < kMateBound) {
    const int rbeta = std::min(beta + kProbCutMargin - (improving ? 40 : 0), kMateBound - 1);
    MoveList caps;
    pos_.pseudoCaptures(caps);
    int tries = 0;
    for (int k = 0; k < caps.size() && tries < 3; ++k) {
      const Move m = caps[k];
      if (!isCapture(m) || m.flag() == kEnPassant || staticExchange(pos_, m, eval_) < rbeta - staticEval) continue;
      if (!pos_.isLegal(m)) continue;
      ++tries;
      pieceToAt_[ply] = pieceTo(m);
      extensionsAt_[ply + 1] = extensionsAt_[ply];
      pos_.make(m);
      stack_.push_back(pos_.hash());
      int v = -qsearch(-rbeta, -rbeta + 1, ply + 1, 0);
      if (v >= rbeta) v = -negamax(depth - 4, -rbeta, -rbeta + 1, ply + 1, true);
      stack_.pop_back();
      pos_.unmake();
      if (stopped_) return 0;
      if (v >= rbeta) {
        tt_.store(key, m, scoreToTable(v, ply), depth - 3, kBoundLower);
        return v;
      }
    }
  }

  // Without a move from the table, a deep node is searched a ply shallower (internal iterative reduction).
  if (depth >= 4 && ttMove == Move() && !urgent && !singularSearch) --depth;

  // Pseudo-legal moves, each checked for legality only when its turn comes.
  MoveList list;
  pos_.pseudoMoves(list);
  if (rules_->duck) [[unlikely]] placeDucks(pos_, eval_, list, 2);
  int scores[MoveList::kCapacity];
  scoreNodeMoves(list, ttMove, ply, scores);

  const int origAlpha = alpha;
  int best = -kInf;
  Move bestMove;
  int i = -1;
  // Futility: near the leaves, quiet moves cannot lift a hopeless static score to alpha.
  const bool futile = !pvNode && !urgent && depth <= 4 && std::abs(alpha) < kMateBound &&
                      staticEval + 100 + 100 * depth + (improving ? 50 : 0) <= alpha;
  // Late move pruning: at shallow depth, quiet moves far down the ordering are skipped.
  // Teams prune at every depth, more the deeper: four seats' moves make a wide
  // tree, and most quiet moves of a seat change little before the others move.
  const int lateMoveLimit = rules_->teams ? (improving ? 2 + 2 * depth * depth / 5 : 1 + depth * depth / 5)
                            : depth > 5   ? 1 << 30
                            : improving   ? 4 + 2 * depth * depth
                                          : 3 + depth * depth;
  // Extensions on this path so far: a path is extended by at most the root's depth.
  const bool mayExtend = extensionsAt_[ply] < rootDepth_;
  Move quietsTried[64], capturesTried[32];
  int nQuiets = 0, nCaptures = 0;
  bool sorted = false;
  for (int k = 0; k < list.size(); ++k) {
    pickMove(list, scores, k, sorted);
    const Move m = list[k];
    if (m == excluded) continue;
    if (!pos_.isLegal(m)) continue;
    ++i;
    const bool capture = isCapture(m);
    const bool quiet = !capture && m.promo() < 0;
    const int idx = pieceTo(m);
    // Late-move pruning and futility skip a quiet move unless it gives check;
    // most such moves are shown not to without making them.
    bool prunable = quiet && ((!pvNode && !urgent && i >= lateMoveLimit && best > -kMateBound) || (futile && i > 0));
    // Shallow moves that lose by exchange on their square, and quiet moves
    // that the continuation histories both call bad, are skipped too.
    if (!prunable && !urgent && !rules_->teams && best > -kMateBound && i > 0) {
      if (quiet) {
        const int lmrDepth = std::max(0, depth - 1 - static_cast<int>(std::log(depth) * std::log(i + 1) / 2.25));
        const int16_t* c1 = continuation(ply, 1);
        const int16_t* c2 = continuation(ply, 2);
        prunable = (!pvNode && lmrDepth < 3 && c1 && c2 && c1[idx] < 0 && c2[idx] < 0) ||
                   (depth <= 7 && moveExchange(pos_, m, eval_) < -kSeeQuietMargin * lmrDepth * lmrDepth);
      } else if (capture && depth <= 6 && scores[k] < kCaptureScore && m.promo() < 0) {
        prunable = staticExchange(pos_, m, eval_) < -kSeeCaptureMargin * depth;
      }
    }
    if (prunable && !pos_.mayGiveCheck(m)) continue;
    // Singular extension: the table's move, when every other move fails well
    // below its score in a shallower search, is searched a ply deeper; when
    // even that shallower search beats beta without it, the node fails high.
    int extension = 0;
    if (m == ttMove && !singularSearch && depth >= 8 && mayExtend && (entry.bound() & kBoundLower) &&
        entry.depth >= depth - 3 && std::abs(ttScore) < kMateBound) {
      const int singularBeta = ttScore - 2 * depth;
      const int v = negamax((depth - 1) / 2, singularBeta - 1, singularBeta, ply, false, m);
      if (stopped_) return 0;
      if (v < singularBeta) extension = 1;
      else if (singularBeta >= beta) return singularBeta;
    }
    pieceToAt_[ply] = idx;
    pos_.make(m);
    stack_.push_back(pos_.hash());
    // A check of the next seat is extended; with teams, a move that leaves the
    // next seat's partner in our partner's reach is kept from pruning.
    const bool checksNext = !pos_.finished() && pos_.inCheck(pos_.toMove());
    const bool givesCheck = checksNext || (!pos_.finished() && partnerInReach(pos_.toMove()));
    if (prunable && !givesCheck) {
      stack_.pop_back();
      pos_.unmake();
      continue;
    }
    // Teams: checks come every few plies, so only the first few moves' are extended.
    if (checksNext && mayExtend && (!rules_->teams || i < 6)) extension = 1;
    extensionsAt_[ply + 1] = extensionsAt_[ply] + extension;
    const int newDepth = depth - 1 + extension;
    int score;
    if (i == 0) {
      score = -negamax(newDepth, -beta, -alpha, ply + 1, true);
    } else {
      int reduction = 0;
      if (depth >= 3 && i >= 3 && quiet && !urgent && !givesCheck) {
        reduction = static_cast<int>(0.75 + std::log(depth) * std::log(i) / 2.25);
        // Less for the killers and for moves that have often refuted before, more off the principal variation.
        if (isKiller(m, ply)) --reduction;
        reduction -= quietStat(us, m, idx, ply) / kHistoryMax;
        if (!pvNode) ++reduction;
        if (!improving && !rules_->teams) ++reduction;
        // A reduced search may go straight into the quiescence search.
        reduction = std::clamp(reduction, 0, rules_->teams ? newDepth - 1 : newDepth);
      } else if (rules_->teams && depth >= 3 && i >= 2 && !capture && !checksNext && m.promo() < 0) {
        // Teams: quiet moves at urgent nodes, and those that leave the next
        // seat's partner in reach of ours, are reduced too, a ply less.
        reduction = static_cast<int>(std::log(depth) * std::log(i) / 2.25) - (pvNode ? 1 : 0);
        reduction = std::clamp(reduction, 0, newDepth - 1);
      }
      score = -negamax(newDepth - reduction, -alpha - 1, -alpha, ply + 1, true);
      if (score > alpha && reduction) score = -negamax(newDepth, -alpha - 1, -alpha, ply + 1, true);
      if (score > alpha && score < beta) score = -negamax(newDepth, -beta, -alpha, ply + 1, true);
    }
    stack_.pop_back();
    pos_.unmake();
    if (stopped_) return 0;
    if (score <= alpha) {
      if (quiet && nQuiets < 64) quietsTried[nQuiets++] = m;
      else if (capture && m.flag() != kEnPassant && nCaptures < 32) capturesTried[nCaptures++] = m;
    }
    if (score > best) {
      best = score;
      bestMove = m;
      if (score > alpha) {
        alpha = score;
        if (alpha >= beta) {
          updateStats(m, depth, ply, quietsTried, nQuiets, capturesTried, nCaptures);
          break;
        }
      }
    }
  }
  // A singular search with no other legal move: the excluded move is singular.
  if (singularSearch) return i < 0 ? alpha : best;
  if (i < 0 && inCheck && pos_.dropMateLoses()) return kMate - ply;  // shogi: a pawn-drop mate loses for the dropper
  if (i < 0) return noMoveScore(inCheck, ply);
  storeResult(key, bestMove, best, depth, origAlpha, beta, ply);
  return best;
}

std::vector<Move> Search::extractPv(Move first) {
  std::vector<Move> pv{first};
  int made = 0;
  pos_.make(first);
  ++made;
  while (pv.size() < 32 && !pos_.finished()) {
    const Move m = tableMove(pos_.hash());
    if (m == Move()) break;
    MoveList list;
    pos_.legalMoves(list);
    if (std::find(list.begin(), list.end(), m.withoutDuck()) == list.end()) break;
    if (rules_->duck) {  // a turn: its duck square must be one the duck may take
      std::vector<Move> turns;
      pos_.appendDuckTurns(m, turns);
      if (std::find(turns.begin(), turns.end(), m) == turns.end()) break;
    }
    pv.push_back(m);
    pos_.make(m);
    ++made;
  }
  while (made--) pos_.unmake();
  return pv;
}

SearchResult Search::run(const Game& game, const SearchLimits& limits, std::atomic<bool>& stop,
                         const std::function<void(const SearchInfo&)>& onInfo) {
  SearchResult result;
  RunStart start;
  if (!beginRun(game, limits, stop, 2, result, start)) return result;
  for (int16_t& h : contHist_) h = static_cast<int16_t>(h / 2);
  for (int16_t& h : captureHist_) h = static_cast<int16_t>(h / 2);
  const std::vector<Move>& root = start.root;
  const std::vector<int>& noise = start.noise;
  std::fill(std::begin(evalAt_), std::end(evalAt_), -kInf);
  std::vector<int> rootScores(root.size(), -kInf);
  std::vector<size_t> order;
  {
    // Initial order: captures first by the usual ordering.
    MoveList l;
    for (Move m : root) l.push(m);
    int sc[MoveList::kCapacity];
    orderMoves(l, Move(), 0, sc);
    order = rootOrder(root, l);
  }
  const bool exactAll = config_.noise > 0;  // weaker levels need every root move's score
  int prevScore = 0;
  extensionsAt_[0] = 0;
  for (int depth = 1; depth <= start.maxDepth; ++depth) {
    rootDepth_ = depth;
    int alpha = -kInf, beta = kInf, delta = 30;
    if (depth >= 5 && !exactAll && std::abs(prevScore) < kMateBound) {
      alpha = prevScore - delta;
      beta = prevScore + delta;
    }
    int bestScore = -kInf;
    size_t bestIdx = order[0];
    bool complete = true;
    while (true) {
      bestScore = -kInf;
      int a = alpha;
      for (size_t k = 0; k < order.size(); ++k) {
        const size_t i = order[k];
        const Move m = root[i];
        pieceToAt_[0] = pieceTo(m);
        extensionsAt_[1] = 0;
        pos_.make(m);
        stack_.push_back(pos_.hash());
        int score;
        if (k == 0 || exactAll) {
          score = -negamax(depth - 1, exactAll ? -kInf : -beta, exactAll ? kInf : -a, 1, true);
        } else {
          score = -negamax(depth - 1, -a - 1, -a, 1, true);
          if (score > a && score < beta) score = -negamax(depth - 1, -beta, -a, 1, true);
        }
        stack_.pop_back();
        pos_.unmake();
        if (stopped_) {
          complete = k > 0 && bestScore > -kInf;
          break;
        }
        rootScores[i] = score;
        if (score > bestScore) {
          bestScore = score;
          bestIdx = i;
        }
        if (score > a && !exactAll) a = score;
        if (a >= beta && !exactAll) break;
      }
      if (stopped_) break;
      if (bestScore <= alpha && alpha > -kInf) {
        alpha = std::max(-kInf, alpha - delta * 4);
        delta *= 4;
        continue;
      }
      if (bestScore >= beta && beta < kInf) {
        beta = std::min(kInf, beta + delta * 4);
        delta *= 4;
        continue;
      }
      break;
    }
    if (stopped_ && !complete) break;
    // With noise, the choice is the best score plus that move's noise.
    size_t chosen = bestIdx;
    if (exactAll) {
      int bestNoisy = -kInf * 2;
      for (size_t i = 0; i < root.size(); ++i) {
        if (rootScores[i] == -kInf) continue;
        const int noisy = std::abs(rootScores[i]) >= kMateBound ? rootScores[i] : rootScores[i] + noise[i];
        if (noisy > bestNoisy) {
          bestNoisy = noisy;
          chosen = i;
        }
      }
    }
    result.best = root[chosen];
    prevScore = bestScore;
    reorderRoot(order, rootScores, bestIdx);

    reportIteration(depth, rootScores[chosen], extractPv(result.best), result, onInfo);
    const SearchInfo& info = result.info;
    if (stopped_) break;
    if (info.isMate && info.score > 0 && depth > 2 * info.mateIn + 2) break;
    if (outOfTimeForIteration(start.budget, limits, info.timeMs)) break;
  }
  result.info.nodes = nodes_;
  return result;
}

}  // namespace acedrex::engine
