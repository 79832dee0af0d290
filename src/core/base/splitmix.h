// splitmix64 (Steele, Lea and Flood 2014): a small deterministic generator,
// the same on every platform. splitmix64Mix is its output function alone,
// for hashing a value made of several parts.
#pragma once

#include <cstdint>

namespace acedrex {

inline constexpr uint64_t kSplitmixGamma = 0x9E3779B97F4A7C15ULL;  // the step between states

// The output function: a 64-bit value well mixed.
constexpr uint64_t splitmix64Mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// The next value of the generator whose state is `state` (advanced here).
constexpr uint64_t splitmix64(uint64_t& state) { return splitmix64Mix(state += kSplitmixGamma); }

}  // namespace acedrex
