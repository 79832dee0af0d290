// Small text helpers shared by the readers of the core (variant files, PGN).
#pragma once

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "core/base/types.h"

namespace acedrex {

// The letters of the four directions in position texts and variant files
// (kNorth, kEast, kSouth, kWest), and back (-1 for any other letter).
inline constexpr char kDirLetters[] = "nesw";
inline int dirByLetter(char c) {
  switch (c) {
    case 'n': return kNorth;
    case 'e': return kEast;
    case 's': return kSouth;
    case 'w': return kWest;
    default: return -1;
  }
}

// s without leading and trailing white space.
inline std::string trim(const std::string& s) {
  size_t a = 0, b = s.size();
  while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
  return s.substr(a, b - a);
}

// The words of s, split at white space.
inline std::vector<std::string> words(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// The parts of s between the separators (an empty part where two meet).
inline std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  size_t at = 0;
  for (;;) {
    const size_t next = s.find(sep, at);
    out.push_back(s.substr(at, next == std::string::npos ? std::string::npos : next - at));
    if (next == std::string::npos) return out;
    at = next + 1;
  }
}

// A non-negative number written in at most maxDigits digits, or -1.
inline int smallNumber(const std::string& s, size_t maxDigits = 4) {
  if (s.empty() || s.size() > maxDigits ||
      !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return -1;
  return std::atoi(s.c_str());
}

}  // namespace acedrex
