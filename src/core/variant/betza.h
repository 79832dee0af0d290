// Betza notation for piece moves, the subset Acedrex's variant files use.
//
// Atoms: W F D N A H C Z G (leapers), K = WF, R = WW, B = FF, Q = WWFF, a
// doubled atom is a rider, and (x,y) names any leaper by its offsets.
// Modifiers before an atom: m (move only), c (capture only), p (hop over
// exactly one piece, as the cannon), n (a lame leap: blocked by a piece on
// the squares it passes, as the xiangqi horse and elephant), and directions relative to the piece's
// forward: f b l r s v and pairs such as ff fs fl fr.
// Bent riders: [A?B] leaps or steps like A and, if that square is empty, may
// go on like the slider B in the directions that carry it further away
// (each non-zero component of B's step has the sign of A's), e.g. the
// Gryphon/Aanca [F?R] and the Rhinoceros [N?B].
#pragma once

#include <string>
#include <vector>

#include "core/base/result.h"
#include "core/base/types.h"

namespace acedrex {

// An offset in the piece's own frame: dx to its right, dy to its forward.
struct Offset {
  int dx = 0;
  int dy = 0;
  bool operator==(const Offset& o) const { return dx == o.dx && dy == o.dy; }
};

enum class AtomKind { kLeap, kRide, kBent };

struct BentPath {
  Offset first;                  // the first leap or step
  std::vector<Offset> slides;    // the outward slides that may follow it
};

struct MoveAtom {
  AtomKind kind = AtomKind::kLeap;
  bool canMove = true;
  bool canCapture = true;
  bool hop = false;              // rides over exactly one piece (cannon)
  bool lame = false;             // a leap blocked by a piece on its path (lamePath)
  bool linesOnly = false;        // from and to line squares only (Rules::lineMoves)
  std::vector<Offset> offsets;   // leap targets or ride directions
  std::vector<BentPath> bents;   // for kBent
};

// The squares a lame leap by o passes, in order, as offsets from its start:
// each step goes along the longer remaining component, diagonally when both
// are equal (the horse's leg for N, the elephant's eye for A, two squares for
// Z); at most two.
std::vector<Offset> lamePath(const Offset& o);

// Parses a Betza string into atoms; an error names the column.
Result<std::vector<MoveAtom>> parseBetza(const std::string& text);

}  // namespace acedrex
