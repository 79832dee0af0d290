#include "core/variant/chess960.h"

#include <algorithm>
#include <cctype>

namespace acedrex {

std::string chess960StartFen(int n) {
  if (n < 0 || n > 959) return "";
  std::string rank(8, ' ');
  rank[2 * (n % 4) + 1] = 'B';  // the bishop on a light square (b, d, f, h)
  n /= 4;
  rank[2 * (n % 4)] = 'B';      // the one on a dark square (a, c, e, g)
  n /= 4;
  // The queen on the (n % 6)-th empty square, then the knights by the
  // number left (0-9: the pairs of the five empty squares in order), then
  // rook, king, rook on the three squares left.
  auto placeOnEmpty = [&](int k, char piece) {
    for (int f = 0; f < 8; ++f)
      if (rank[f] == ' ' && k-- == 0) {
        rank[f] = piece;
        return;
      }
  };
  placeOnEmpty(n % 6, 'Q');
  n /= 6;
  static constexpr int kKnights[10][2] = {{0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 2}, {1, 3}, {1, 4}, {2, 3}, {2, 4}, {3, 4}};
  placeOnEmpty(kKnights[n][1], 'N');  // the later one first, so the earlier index still counts
  placeOnEmpty(kKnights[n][0], 'N');
  placeOnEmpty(0, 'R');
  placeOnEmpty(0, 'K');
  placeOnEmpty(0, 'R');
  std::string black = rank;
  std::transform(black.begin(), black.end(), black.begin(), [](char c) { return static_cast<char>(std::tolower(c)); });
  const char kingSide = static_cast<char>('A' + static_cast<int>(rank.rfind('R')));
  const char queenSide = static_cast<char>('A' + static_cast<int>(rank.find('R')));
  std::string rights{kingSide, queenSide, static_cast<char>(std::tolower(kingSide)), static_cast<char>(std::tolower(queenSide))};
  return black + "/pppppppp/8/8/8/8/PPPPPPPP/" + rank + " w " + rights + " - 0 1";
}

}  // namespace acedrex
