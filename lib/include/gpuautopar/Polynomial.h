// A polynomial over loop-invariant values, as a value: what the analysis
// hands the rewriter for a section's scale, offset and extent. The analysis
// makes one from its own polynomials (lib/analysis/AffinePoly.h); only
// lib/rewrite/Spelling turns it into C++ ("n - 1", "2 * n * m").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gpuautopar {

struct Polynomial {
  struct Factor;
  // Coefficient times the product of Factors (none: the number itself).
  struct Term {
    int64_t Coefficient = 0;
    std::vector<Factor> Factors;
  };
  // Symbols first, the number last; a zero polynomial is one term, 0.
  std::vector<Term> Terms;

  static Polynomial number(int64_t N) { return Polynomial{{Term{N, {}}}}; }
};

// One loop-invariant value: named as the user writes it, or one of the few
// non-linear forms of others that subscripts use.
struct Polynomial::Factor {
  enum Kind {
    Value, // Name: "n", "g.offset", "v.size()"
    Div,   // Args[0] / Divisor, truncating like C
    Mod,   // Args[0] % Divisor
    Min,   // min(Args[0], Args[1])
    Max,   // max(Args[0], Args[1])
    SelectNonPositive, // Args[0] <= 0 ? Args[1] : Args[2]
    SelectZero,        // Args[0] == 0 ? Args[1] : Args[2]
  } K = Value;
  std::string Name;
  std::vector<Polynomial> Args;
  int64_t Divisor = 0;
};

} // namespace gpuautopar
