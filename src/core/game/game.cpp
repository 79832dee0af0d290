#include "core/game/game.h"

#include <algorithm>
#include <sstream>

#include "core/base/json_text.h"
#include "core/base/splitmix.h"
#include "core/mechanisms/chasing.h"

namespace acedrex {

namespace {
struct EntryKindName {
  EntryKind kind;
  std::string_view name;
};
constexpr EntryKindName kEntryKindNames[] = {
    {EntryKind::kResign, "resign"},
    {EntryKind::kTimeout, "timeout"},
    {EntryKind::kDraw, "draw"},
};

struct DrawReasonName {
  DrawReason reason;
  std::string_view name, text;
};
constexpr DrawReasonName kDrawReasonNames[] = {
    {DrawReason::kRepetition, "repetition", "repetition"}, {DrawReason::kFiftyMoves, "fifty-moves", "fifty moves"},
    {DrawReason::kStalemate, "stalemate", "stalemate"},    {DrawReason::kOnlyKings, "only-kings", "only kings"},
    {DrawReason::kAgreement, "agreement", "agreement"},     {DrawReason::kCounting, "counting", "counting"},
    {DrawReason::kInsufficient, "insufficient-material", "insufficient material"},
};
const DrawReasonName* drawReasonRow(DrawReason reason) {
  for (const auto& n : kDrawReasonNames)
    if (n.reason == reason) return &n;
  return nullptr;
}
}  // namespace

std::string_view nameOf(EntryKind kind) {
  for (const auto& n : kEntryKindNames)
    if (n.kind == kind) return n.name;
  return "";
}

EntryKind entryKindOf(std::string_view text) {
  for (const auto& n : kEntryKindNames)
    if (n.name == text) return n.kind;
  return EntryKind::kMove;
}

std::string_view nameOf(DrawReason reason) {
  const DrawReasonName* row = drawReasonRow(reason);
  return row ? row->name : "";
}

std::string_view textOf(DrawReason reason) {
  const DrawReasonName* row = drawReasonRow(reason);
  return row ? row->text : "";
}

std::string_view nameOf(Game::Decision d) {
  switch (d) {
    case Game::Decision::kPerpetualCheck: return "perpetual-check";
    case Game::Decision::kMaterialCount: return "material-count";
    case Game::Decision::kPerpetualChase: return "perpetual-chase";
    case Game::Decision::kNone: break;
  }
  return "";
}

std::optional<DrawReason> parseDrawReason(std::string_view name) {
  for (const auto& n : kDrawReasonNames)
    if (n.name == name) return n.reason;
  return std::nullopt;
}

uint64_t DieRng::next() { return splitmix64(s_); }

int DieRng::below(int n) {
  // Rejection sampling keeps every face equally likely.
  const uint64_t limit = UINT64_MAX - UINT64_MAX % static_cast<uint64_t>(n);
  uint64_t x;
  do x = next();
  while (x >= limit);
  return static_cast<int>(x % static_cast<uint64_t>(n));
}

Game::Game(std::shared_ptr<const Rules> rules, uint64_t seed) : pos_(rules), seed_(seed), rng_(seed) {
  auto s = setStart(rules->start);
  (void)s;  // the variant's own start position is tested
}

Status Game::setStart(const std::string& text) {
  Position fresh(pos_.rulesPtr());
  if (auto s = fresh.set(text); !s.ok()) return s;
  pos_ = fresh;
  start_ = pos_.text();
  rng_ = DieRng(seed_);
  record_.clear();
  hashes_.clear();
  turns_.clear();
  decision_ = Decision::kNone;
  coins_.fill(0);
  settled_ = false;
  drawReason_ = DrawReason::kNone;
  throw_ = 0;
  afterPly();
  return okStatus();
}

const DieFace* Game::currentFace() const {
  for (const auto& f : rules().die)
    if (f.face == throw_) return &f;
  return nullptr;
}

int Game::currentThrowType() const {
  const DieFace* f = currentFace();
  return f ? f->type : -1;
}

std::string Game::currentThrowKinds() const {
  const DieFace* f = currentFace();
  std::string out;
  if (!f) return out;
  for (size_t t = 0; t < rules().types.size(); ++t)
    if (f->allows(static_cast<int>(t))) out += (out.empty() ? "" : " or ") + rules().types[t].name;
  return out;
}

std::vector<Move> Game::legalMoves() {
  std::vector<Move> out;
  if (finished()) return out;
  std::vector<Move> list;
  pos_.legalTurns(list);  // with a duck, a move and the duck's square each; with unions, every chain
  const DieFace* face = currentFace();
  for (Move m : list)
    if (!face || face->allows(typeOf(pos_.at(m.from())))) out.push_back(m);
  if (out.empty() && face) out.push_back(Move::null());
  return out;
}

Status Game::play(const std::string& text) {
  if (finished()) return makeError("move", "the game is over", "move \"" + text + "\"");
  for (Move m : legalMoves())
    if (pos_.moveText(m) == text) return play(m);
  if (throw_) {
    auto parsed = pos_.parseMove(text);
    if (parsed.ok() || text == "0000")
      return makeError("move", "the die shows " + std::to_string(throw_) + " (" + currentThrowKinds() + "): " +
                                   (legalMoves().front().isNull() ? "no such piece can move; play 0000" : "move a " + currentThrowKinds()),
                       "move \"" + text + "\"");
    return parsed.error();
  }
  auto parsed = pos_.parseMove(text);
  if (!parsed.ok()) return parsed.error();
  return play(parsed.value());
}

Status Game::play(Move m) {
  const auto legal = legalMoves();
  if (std::find(legal.begin(), legal.end(), m) == legal.end())
    return makeError("move", "not a legal move here", "move \"" + pos_.moveText(m) + "\"");
  record_.push_back({pos_.moveText(m), pos_.toMove(), throw_});
  pos_.make(m);
  settleEvents(pos_.lastEvents());
  afterPly();
  return okStatus();
}

Status Game::playAll(const std::string& moves) {
  std::istringstream in(moves);
  int ply = 0;
  for (std::string t; in >> t;) {
    ++ply;
    if (auto s = play(t); !s.ok()) {
      Error e = s.error();
      e.location = "ply " + std::to_string(ply) + ", " + e.location;
      return e;
    }
  }
  return okStatus();
}

void Game::afterPly() {
  // Fairy-Stockfish's general material test ends the game before mate or
  // stalemate is looked at (ffish's result()), as it would here.
  const bool dead = rules().insufficient == Rules::Insufficient::kMatingPieces && !pos_.finished() &&
                    pos_.insufficientMaterial();
  // Turn start: a seat with no legal move is mated or stalemated now (also
  // where the caller takes the draws by rule: a position with no move left).
  while ((!dead || leaveRuleDraws_) && !pos_.finished()) {
    MoveList list;
    pos_.legalMoves(list);
    if (!list.empty()) break;
    pos_.applyTurnStart();
    settleEvents(pos_.lastEvents());
  }
  if (!pos_.finished()) {
    hashes_.push_back(pos_.hash());
    turns_.push_back({static_cast<int8_t>(pos_.toMove()), pos_.inCheck(pos_.toMove())});
    const DrawReason byRule = ruleDrawReason(dead);
    if (leaveRuleDraws_) {
      ruleDrawLeft_ = byRule != DrawReason::kNone;
    } else if (byRule == DrawReason::kRepetition) {
      settleRepetition();
    } else {
      drawReason_ = byRule;
    }
    // Where the rules count material (janggi), what would draw is decided by
    // the count; not insufficient material, a draw in Fairy-Stockfish's
    // game-over test (ffish's result()) as well.
    if (drawReason_ != DrawReason::kNone && drawReason_ != DrawReason::kInsufficient && !rules().materialPoints.empty()) {
      drawReason_ = DrawReason::kNone;
      decision_ = Decision::kMaterialCount;
      pos_.declareWinner(pos_.materialCountWinner());
    } else if (drawReason_ != DrawReason::kNone) {
      pos_.declareDraw();
    }
  } else if (pos_.result() == ResultKind::kWin && pos_.outCount() == 0 && !rules().materialPoints.empty()) {
    decision_ = Decision::kMaterialCount;  // bikjang or two passes (Position)
  } else if (pos_.result() == ResultKind::kDraw && drawReason_ == DrawReason::kNone) {
    drawReason_ = pos_.seatsIn() > 1 && pos_.outCount() == 0 && rules().nseats() == 2 ? DrawReason::kStalemate
                                                                                       : DrawReason::kOnlyKings;
  }
  settleEnd();
  throw_ = 0;
  if (!pos_.finished() && !rules().die.empty() && !throwNoDie_) throwDie();
}

// What ends the game by rule in the current position, in the order the
// rules look at them; kRepetition stands for the repetition rule, whose
// verdict (a draw, or a loss for a perpetual checker) settleRepetition gives.
DrawReason Game::ruleDrawReason(bool dead) {
  const Rules& r = rules();
  if (dead) return DrawReason::kInsufficient;
  if (std::count(hashes_.begin(), hashes_.end(), pos_.hash()) >= r.repetitionCount) return DrawReason::kRepetition;
  if (pos_.countingExpired()) return DrawReason::kCounting;
  if (r.promoMoveType >= 0 && pos_.onlyPromotionMovesLeft()) return DrawReason::kStalemate;
  if (r.insufficient == Rules::Insufficient::kMinorPieces && pos_.insufficientMaterial()) return DrawReason::kInsufficient;
  if (r.moveRule && pos_.fifty() >= r.moveRule * pos_.seatsIn() &&
      (!r.chasing || pos_.fifty() >= r.moveRule * pos_.seatsIn() + moveRuleExtension(pos_)))
    return DrawReason::kFiftyMoves;
  return DrawReason::kNone;
}

int Game::perpetualChecker() const {
  // The plies since the first time the current position stood: a seat whose
  // every move among them gave check (every position with its enemy to move
  // had that enemy in check) checked perpetually. Both: no one loses.
  const auto first = std::find(hashes_.begin(), hashes_.end(), hashes_.back()) - hashes_.begin();
  int perpetual = -1, count = 0;
  for (int seat = 0; seat < rules().nseats(); ++seat) {
    bool always = true, any = false;
    for (size_t i = static_cast<size_t>(first) + 1; i < turns_.size(); ++i)
      if (turns_[i].toMove != seat) {
        any = true;
        always = always && turns_[i].inCheck;
      }
    if (always && any) perpetual = seat, ++count;
  }
  return count == 1 ? perpetual : -1;
}

// The position stands for the repetitionCount-th time: a seat that checked
// through the repetition loses (perpetual-check = loses); else a draw, or
// (minishogi) the first seat loses.
void Game::settleRepetition() {
  const Rules& r = rules();
  if (r.chasing) {  // perpetual check, then perpetual chase (chasing.h)
    const auto first = std::find(hashes_.begin(), hashes_.end(), hashes_.back()) - hashes_.begin();
    const RepetitionVerdict v = judgeRepetition(pos_, static_cast<int>(hashes_.size()) - 1 - static_cast<int>(first));
    if (v.loser >= 0) {
      decision_ = v.byCheck ? Decision::kPerpetualCheck : Decision::kPerpetualChase;
      pos_.removeSeat(v.loser, v.byCheck ? OutReason::kPerpetualCheck : OutReason::kPerpetualChase);
      return;
    }
  } else if (r.perpetualCheckLoses) {
    if (const int checker = perpetualChecker(); checker >= 0) {
      decision_ = Decision::kPerpetualCheck;
      pos_.removeSeat(checker, OutReason::kPerpetualCheck);
      return;
    }
  }
  if (r.repetitionEnd == Rules::RepetitionEnd::kFirstSeatLoses) pos_.removeSeat(0, OutReason::kRepetition);
  else drawReason_ = DrawReason::kRepetition;
}

void Game::throwDie() {
  const auto& die = rules().die;
  throw_ = die[static_cast<size_t>(rng_.below(static_cast<int>(die.size())))].face;
}

void Game::settleEvents(const PlyEvents& ev) {
  if (!rules().coins) return;
  const int n = rules().nseats();
  if (ev.capturedOwner >= 0 && ev.mover >= 0) {
    --coins_[ev.capturedOwner];
    ++coins_[ev.mover];
  }
  for (int t = 0; t < n; ++t)
    for (int a = 0; a < n; ++a)
      if ((ev.checkStarts[t] >> a) & 1) {
        --coins_[t];
        ++coins_[a];
      }
  for (int i = 0; i < ev.nOuts; ++i) {
    const auto& o = ev.outs[i];
    if ((o.reason == OutReason::kMated || o.reason == OutReason::kKingCaptured) && o.by >= 0) {
      coins_[o.seat] -= o.pieces;
      coins_[o.by] += o.pieces;
    }
  }
}

void Game::settleEnd() {
  if (!rules().coins || settled_ || !pos_.finished()) return;
  settled_ = true;
  if (pos_.result() != ResultKind::kWin) return;
  const int winner = pos_.winner();
  if (pos_.outCount() >= 2) {
    const int second = pos_.outSeat(1);
    const int pay = std::max(coins_[second], 0) + pos_.piecesAtOut(second);
    coins_[second] -= pay;
    coins_[winner] += pay;
  }
  if (pos_.outCount() >= 3) {
    const int third = pos_.outSeat(2);
    const int pay = pos_.piecesAtOut(third);
    coins_[third] -= pay;
    coins_[winner] += pay;
  }
}

void Game::resign(int seat) {
  if (finished() || !pos_.isIn(seat)) return;
  record_.push_back({std::string(nameOf(EntryKind::kResign)), seat, 0, EntryKind::kResign});
  pos_.removeSeat(seat, OutReason::kResigned);
  settleEvents(pos_.lastEvents());
  afterPly();
}

void Game::timeout(int seat) {
  if (finished() || !pos_.isIn(seat)) return;
  record_.push_back({std::string(nameOf(EntryKind::kTimeout)), seat, 0, EntryKind::kTimeout});
  pos_.removeSeat(seat, OutReason::kTimeout);
  settleEvents(pos_.lastEvents());
  afterPly();
}

void Game::agreeDraw() {
  if (finished()) return;
  drawReason_ = DrawReason::kAgreement;
  pos_.declareDraw();
}

std::string Game::summaryJson() const {
  const Rules& r = rules();
  std::ostringstream o;
  // Names and texts come from variant files: escaped (json_text.h).
  auto name = [&](int s) { return jsonString(r.seats[s].name); };
  o << "{\"variant\":" << jsonString(r.variant) << ",\"status\":\"" << (finished() ? "finished" : "ongoing") << "\"";
  o << ",\"to_move\":" << (finished() ? std::string("null") : name(pos_.toMove()));
  o << ",\"in\":[";
  bool first = true;
  for (int i = 0; i < r.nseats(); ++i) {
    const int s = i;
    if (!pos_.isIn(s)) continue;
    o << (first ? "" : ",") << name(s);
    first = false;
  }
  o << "],\"out_order\":[";
  for (int i = 0; i < pos_.outCount(); ++i) o << (i ? "," : "") << name(pos_.outSeat(i));
  o << "],\"places\":{";
  if (finished()) {
    const auto pl = pos_.places();
    for (int s = 0; s < r.nseats(); ++s) o << (s ? "," : "") << name(s) << ":" << pl[s];
  }
  o << "}";
  if (!r.capturePoints.empty()) {
    o << ",\"points\":{";
    for (int s = 0; s < r.nseats(); ++s) o << (s ? "," : "") << name(s) << ":" << pos_.points(s);
    o << "}";
  }
  if (r.coins) {
    o << ",\"coins\":{";
    for (int s = 0; s < r.nseats(); ++s) o << (s ? "," : "") << name(s) << ":" << coins_[s];
    o << "}";
  }
  if (!r.die.empty()) o << ",\"die\":" << throw_;
  if (drawReason_ != DrawReason::kNone) o << ",\"draw_reason\":" << jsonString(textOf(drawReason_));
  if (decision_ != Decision::kNone) o << ",\"decision\":" << jsonString(nameOf(decision_));
  if (r.chasing && !finished()) {  // the pieces the last move chased (chasing.h)
    o << ",\"chased\":[";
    const auto chased = chasedByLastMove(pos_);
    for (size_t i = 0; i < chased.size(); ++i) o << (i ? "," : "") << jsonString(r.squareName(chased[i]));
    o << "]";
  }
  o << ",\"plies\":" << record_.size();
  o << ",\"fen\":" << jsonString(pos_.text()) << "}";
  return o.str();
}

}  // namespace acedrex
