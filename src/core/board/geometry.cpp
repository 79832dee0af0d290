// The board's geometry in Rules: square names, the frames of the four
// directions, zones and the far edge.
#include <string>
#include <vector>

#include "core/variant/variant.h"

namespace acedrex {

std::string Rules::squareName(Square s) const {
  if (s < 0 || s >= nsq()) return "-";
  return std::string(1, static_cast<char>('a' + fileOf(s))) + std::to_string(rankOf(s) + 1);
}

Result<Square> Rules::parseSquare(const std::string& t) const {
  if (t.size() < 2 || t.size() > 3 || t[0] < 'a' || t[0] >= 'a' + width)
    return makeError("square", "not a square: \"" + t + "\"");
  for (size_t i = 1; i < t.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(t[i]))) return makeError("square", "not a square: \"" + t + "\"");
  if (t[1] == '0') return makeError("square", "not a square: \"" + t + "\"");
  const int rank = std::atoi(t.c_str() + 1);
  if (rank < 1 || rank > height) return makeError("square", "not a square: \"" + t + "\"");
  return square(t[0] - 'a', rank - 1);
}

int Rules::typeByLetter(char upper) const {
  for (size_t i = 0; i < types.size(); ++i)
    if (types[i].letter == upper) return static_cast<int>(i);
  return -1;
}

int Rules::seatByName(const std::string& name) const {
  for (size_t i = 0; i < seats.size(); ++i)
    if (seats[i].name == name) return static_cast<int>(i);
  return -1;
}

Offset Rules::rotate(const Offset& o, int dir) const {
  switch (dir) {
    case kNorth: return {o.dx, o.dy};
    case kSouth: return {-o.dx, -o.dy};
    case kEast: return {o.dy, -o.dx};
    default: return {-o.dy, o.dx};
  }
}

bool Rules::inZone(const Zone& z, Square s, int dir) const {
  int file = 0;  // relative, 1-based, from the piece's left
  switch (dir) {
    case kNorth: file = fileOf(s) + 1; break;
    case kSouth: file = width - fileOf(s); break;
    case kEast: file = height - rankOf(s); break;
    default: file = rankOf(s) + 1; break;
  }
  const int rank = relativeRank(s, dir);
  return file >= z.fileLo && file <= z.fileHi && rank >= z.rankLo && rank <= z.rankHi;
}

std::vector<MoveAtom> Rules::atomsAt(int type, int dir, Square s) const {
  std::vector<MoveAtom> atoms = types[type].atoms;
  for (const ZoneMoves& zm : zoneMoves)
    if (zm.type == type && inZone(zm.zone, s, dir)) atoms.insert(atoms.end(), zm.atoms.begin(), zm.atoms.end());
  if (!lineSquares.empty() && lineSquares[s])
    for (const ZoneMoves& lm : lineMoves)
      if (lm.type == type) atoms.insert(atoms.end(), lm.atoms.begin(), lm.atoms.end());
  return atoms;
}

bool Rules::onFarEdge(Square s, int dir) const {
  if (promotionRank | static_cast<int>(geometry)) [[unlikely]]
    return geometry == Geometry::kHex3 ? (hexFarEdge[s] >> dir) & 1 : relativeRank(s, dir) == promotionRank;
  switch (dir) {
    case kNorth: return rankOf(s) == height - 1;
    case kSouth: return rankOf(s) == 0;
    case kEast: return fileOf(s) == width - 1;
    default: return fileOf(s) == 0;
  }
}

}  // namespace acedrex
