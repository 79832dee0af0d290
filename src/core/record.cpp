#include "core/record.h"

#include <sstream>

namespace acedrex {

std::string resultText(const Game& game) {
  const Position& pos = game.position();
  if (!game.finished()) return "*";
  const auto places = pos.places();
  const int n = game.rules().nseats();
  if (n == 2) {
    if (places[0] == places[1]) return "1/2-1/2";
    return places[0] < places[1] ? "1-0" : "0-1";
  }
  std::string out;
  for (int s = 0; s < n; ++s) out += (s ? "-" : "") + std::to_string(places[s]);
  return out;
}

std::string toPgn(const Game& game, const std::map<std::string, std::string>& extra) {
  const Rules& r = game.rules();
  std::map<std::string, std::string> tags{{"Event", "Acedrex game"}, {"Site", "Acedrex"}, {"Date", "????.??.??"},
                                          {"Round", "-"}};
  std::vector<std::string> order{"Event", "Site", "Date", "Round"};
  for (const auto& seat : r.seats) {
    std::string tag = seat.name;
    tag[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(tag[0])));
    tags[tag] = "?";
    order.push_back(tag);
  }
  tags["Result"] = resultText(game);
  order.push_back("Result");
  tags["Variant"] = r.variant;
  order.push_back("Variant");
  std::string opts;
  for (const auto& [k, v] : r.options) opts += (opts.empty() ? "" : " ") + k + "=" + v;
  if (!opts.empty()) {
    tags["VariantOptions"] = opts;
    order.push_back("VariantOptions");
  }
  if (r.nseats() > 2) {
    std::string rv;
    if (r.mateEffect == MateEffect::kTakeover) rv = "Takeover";
    if (!r.die.empty()) rv += std::string(rv.empty() ? "" : ",") + "Die";
    if (!rv.empty()) {
      tags["RuleVariants"] = rv;
      order.push_back("RuleVariants");
    }
  }
  Position startPos(game.position().rulesPtr());
  (void)startPos.set(r.start);
  if (game.startText() != startPos.text()) {
    tags[r.nseats() > 2 ? "StartFen4" : "FEN"] = game.startText();
    order.push_back(r.nseats() > 2 ? "StartFen4" : "FEN");
    if (r.nseats() == 2) {
      tags["SetUp"] = "1";
      order.push_back("SetUp");
    }
  }
  if (!r.die.empty()) {
    tags["Seed"] = std::to_string(game.seed());
    order.push_back("Seed");
  }
  if (!game.drawReason().empty()) {
    tags["Termination"] = game.drawReason();
    order.push_back("Termination");
  }
  for (const auto& [k, v] : extra) {
    if (!tags.count(k)) order.push_back(k);
    tags[k] = v;
  }
  std::ostringstream o;
  for (const auto& k : order) {
    std::string v = tags[k];
    std::string esc;
    for (char c : v) {
      if (c == '"' || c == '\\') esc += '\\';
      esc += c;
    }
    o << "[" << k << " \"" << esc << "\"]\n";
  }
  o << "\n";
  // Movetext: a move number before each round (the first seat's move); ".." between seats in PGN4 style.
  std::string line;
  int round = 1;
  auto emit = [&](const std::string& tok) {
    if (line.size() + tok.size() + 1 > 79) {
      o << line << "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + tok;
  };
  // A new round starts whenever the turn wraps around (a seat not after the previous one).
  int prevSeat = -1;
  for (const auto& ply : game.record()) {
    if (prevSeat < 0 || ply.seat <= prevSeat) {
      emit(std::to_string(round) + (prevSeat < 0 && ply.seat != 0 ? "..." : "."));
      ++round;
    } else if (r.nseats() > 2) {
      emit("..");
    }
    prevSeat = ply.seat;
    std::string tok = ply.move;
    if (ply.move == "resign" || ply.move == "timeout") tok = "{" + r.seats[ply.seat].name + " " + ply.move + "s}";
    emit(tok);
    if (ply.dieFace) emit("{die " + std::to_string(ply.dieFace) + "}");
  }
  emit(resultText(game));
  o << line << "\n";
  return o.str();
}

}  // namespace acedrex
