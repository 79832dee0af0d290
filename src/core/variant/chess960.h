// The 960 start arrays of Chess960 by their standard (Scharnagl) number.
#pragma once

#include <string>

namespace acedrex {

// The start FEN of array n (0-959; 518 is chess's own), with Shredder-FEN
// castling rights as Fairy-Stockfish writes them; "" when n is out of range.
std::string chess960StartFen(int n);

}  // namespace acedrex
