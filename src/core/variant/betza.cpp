#include "core/variant/betza.h"

#include <algorithm>
#include <cstdlib>

namespace acedrex {
namespace {

struct Mods {
  bool m = false, c = false, p = false, n = false;
  std::string dirs;
};

bool isMod(char ch) { return std::string("mcpnfblrsv").find(ch) != std::string::npos; }

// The 8 (or 4) symmetric offsets of a leap (a, b).
std::vector<Offset> symmetric(int a, int b) {
  std::vector<Offset> out;
  const int xs[2][2] = {{a, b}, {b, a}};
  for (const auto& xy : xs)
    for (int sx : {1, -1})
      for (int sy : {1, -1}) {
        Offset o{xy[0] * sx, xy[1] * sy};
        if (std::find(out.begin(), out.end(), o) == out.end()) out.push_back(o);
      }
  return out;
}

bool singleDir(char d, const Offset& o, bool orth, bool diag) {
  const int ax = std::abs(o.dx), ay = std::abs(o.dy);
  switch (d) {
    case 'f': return o.dy > 0;
    case 'b': return o.dy < 0;
    case 'l': return o.dx < 0;
    case 'r': return o.dx > 0;
    case 's': return orth ? o.dy == 0 : (diag ? true : ax > ay);
    case 'v': return orth ? o.dx == 0 : (diag ? true : ay > ax);
    default: return false;
  }
}

bool pairDir(char a, char b, const Offset& o) {
  const int ax = std::abs(o.dx), ay = std::abs(o.dy);
  const bool first = a == 'f' ? o.dy > 0 : o.dy < 0;
  switch (b) {
    case 'f': case 'b': case 'v': return first && ay > ax;
    case 's': return first && ax > ay;
    case 'l': return first && o.dx < 0;
    case 'r': return first && o.dx > 0;
    default: return false;
  }
}

// Keeps the offsets the direction letters select (all when there are none).
std::vector<Offset> filterDirs(const std::vector<Offset>& all, const std::string& dirs) {
  if (dirs.empty() || all.empty()) return all;
  const Offset& s = all.front();
  const bool orth = s.dx == 0 || s.dy == 0;
  const bool diag = std::abs(s.dx) == std::abs(s.dy);
  std::vector<Offset> out;
  for (const Offset& o : all) {
    bool keep = false;
    for (size_t i = 0; i < dirs.size() && !keep; ++i) {
      const char d = dirs[i];
      const bool canPair = !orth && (d == 'f' || d == 'b') && i + 1 < dirs.size() &&
                           (diag ? (dirs[i + 1] == 'l' || dirs[i + 1] == 'r')
                                 : std::string("fbslrv").find(dirs[i + 1]) != std::string::npos);
      if (canPair) {
        keep = pairDir(d, dirs[i + 1], o);
        ++i;
      } else {
        keep = singleDir(d, o, orth, diag);
      }
    }
    if (keep) out.push_back(o);
  }
  return out;
}

class Parser {
 public:
  explicit Parser(const std::string& t) : t_(t) {}

  Result<std::vector<MoveAtom>> run() {
    std::vector<MoveAtom> atoms;
    while (i_ < t_.size()) {
      if (t_[i_] == ' ') { ++i_; continue; }
      Mods outer = mods();
      if (i_ < t_.size() && t_[i_] == '[') {
        ++i_;
        auto bent = bracket(outer);
        if (!bent.ok()) return bent.error();
        atoms.push_back(std::move(bent.value()));
        continue;
      }
      auto parsed = atom(outer);
      if (!parsed.ok()) return parsed.error();
      for (auto& a : parsed.value()) atoms.push_back(std::move(a));
    }
    if (atoms.empty()) return fail("no moves");
    return atoms;
  }

 private:
  Error fail(const std::string& why) const {
    return makeError("betza", why, "column " + std::to_string(i_ + 1) + " of \"" + t_ + "\"");
  }

  Mods mods() {
    Mods m;
    while (i_ < t_.size() && isMod(t_[i_])) {
      const char ch = t_[i_++];
      if (ch == 'm') m.m = true;
      else if (ch == 'c') m.c = true;
      else if (ch == 'p') m.p = true;
      else if (ch == 'n') m.n = true;
      else m.dirs.push_back(ch);
    }
    return m;
  }

  // Reads one atom letter (or (x,y)) and whether it is doubled (a rider).
  struct Shape { std::vector<std::pair<int, int>> leaps; bool ride = false; };

  Result<Shape> shape() {
    if (i_ >= t_.size()) return fail("an atom is missing");
    Shape s;
    const char ch = t_[i_];
    auto simple = [&](char a) -> std::pair<int, int> {
      switch (a) {
        case 'W': return {0, 1};
        case 'F': return {1, 1};
        case 'D': return {0, 2};
        case 'N': return {1, 2};
        case 'A': return {2, 2};
        case 'H': return {0, 3};
        case 'C': return {1, 3};
        case 'Z': return {2, 3};
        case 'G': return {3, 3};
        default: return {-1, -1};
      }
    };
    if (ch == '(') {
      const size_t close = t_.find(')', i_);
      const size_t comma = t_.find(',', i_);
      if (close == std::string::npos || comma == std::string::npos || comma > close)
        return fail("expected (x,y)");
      const std::string xs = t_.substr(i_ + 1, comma - i_ - 1);
      const std::string ys = t_.substr(comma + 1, close - comma - 1);
      auto num = [](const std::string& v) {
        if (v.empty() || v.size() > 2 || !std::all_of(v.begin(), v.end(), ::isdigit)) return -1;
        return std::atoi(v.c_str());
      };
      const int x = num(xs), y = num(ys);
      if (x < 0 || y < 0 || (x == 0 && y == 0) || x >= kMaxFiles || y >= kMaxFiles)
        return fail("bad leap (" + xs + "," + ys + ")");
      s.leaps.push_back({x, y});
      i_ = close + 1;
      return s;
    }
    ++i_;
    switch (ch) {
      case 'K': s.leaps = {{0, 1}, {1, 1}}; return s;
      case 'R': s.leaps = {{0, 1}}; s.ride = true; return s;
      case 'B': s.leaps = {{1, 1}}; s.ride = true; return s;
      case 'Q': s.leaps = {{0, 1}, {1, 1}}; s.ride = true; return s;
      default: break;
    }
    const auto l = simple(ch);
    if (l.first < 0) { --i_; return fail(std::string("unknown atom '") + ch + "'"); }
    s.leaps.push_back(l);
    if (i_ < t_.size() && t_[i_] == ch) { ++i_; s.ride = true; }
    return s;
  }

  Result<std::vector<MoveAtom>> atom(const Mods& m) {
    auto sh = shape();
    if (!sh.ok()) return sh.error();
    if (m.p && !sh->ride) return fail("p (hop) needs a rider");
    if (m.n && sh->ride) return fail("n (lame) needs a leaper");
    std::vector<MoveAtom> out;
    for (auto [a, b] : sh->leaps) {
      MoveAtom at;
      at.kind = sh->ride ? AtomKind::kRide : AtomKind::kLeap;
      at.canMove = m.m || !m.c;
      at.canCapture = m.c || !m.m;
      at.hop = m.p;
      at.lame = m.n;
      if (at.lame && lamePath(Offset{a, b}).size() > 2) return fail("a lame leap passes at most two squares");
      at.offsets = filterDirs(symmetric(a, b), m.dirs);
      if (at.offsets.empty()) return fail("the directions select no move");
      out.push_back(std::move(at));
    }
    return out;
  }

  Result<MoveAtom> bracket(const Mods& outer) {
    Mods m1 = mods();
    auto first = shape();
    if (!first.ok()) return first.error();
    if (first->ride || first->leaps.size() != 1) return fail("a bent move starts with one leap");
    if (i_ >= t_.size() || t_[i_] != '?') return fail("expected '?' in [..]");
    ++i_;
    Mods m2 = mods();
    auto second = shape();
    if (!second.ok()) return second.error();
    if (!second->ride) return fail("a bent move continues with a slider");
    if (i_ >= t_.size() || t_[i_] != ']') return fail("expected ']'");
    ++i_;
    MoveAtom at;
    at.kind = AtomKind::kBent;
    at.canMove = outer.m || !outer.c;
    at.canCapture = outer.c || !outer.m;
    std::vector<Offset> slides;
    for (auto [a, b] : second->leaps)
      for (const Offset& o : filterDirs(symmetric(a, b), m2.dirs)) slides.push_back(o);
    const auto [fa, fb] = first->leaps.front();
    for (const Offset& f : filterDirs(symmetric(fa, fb), m1.dirs + outer.dirs)) {
      BentPath path{f, {}};
      for (const Offset& s : slides) {
        const bool xOk = s.dx == 0 || (f.dx != 0 && (s.dx > 0) == (f.dx > 0));
        const bool yOk = s.dy == 0 || (f.dy != 0 && (s.dy > 0) == (f.dy > 0));
        if (xOk && yOk) path.slides.push_back(s);
      }
      at.bents.push_back(std::move(path));
    }
    if (at.bents.empty()) return fail("the directions select no move");
    return at;
  }

  const std::string& t_;
  size_t i_ = 0;
};

}  // namespace

Result<std::vector<MoveAtom>> parseBetza(const std::string& text) { return Parser(text).run(); }

std::vector<Offset> lamePath(const Offset& o) {
  std::vector<Offset> path;
  Offset at{0, 0};
  const int sx = o.dx > 0 ? 1 : -1, sy = o.dy > 0 ? 1 : -1;
  while (true) {
    const int rx = std::abs(o.dx - at.dx), ry = std::abs(o.dy - at.dy);
    if (rx > ry) at.dx += sx;
    else if (ry > rx) at.dy += sy;
    else at.dx += sx, at.dy += sy;
    if (at == o) return path;
    path.push_back(at);
  }
}

}  // namespace acedrex
