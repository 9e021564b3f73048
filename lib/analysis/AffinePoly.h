// Subscript expressions as integer polynomials over loop variables and
// loop-invariant symbols, for the dependence test (internal).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gpuautopar {

// A product of symbols, sorted; the empty monomial is the constant term.
// Symbols of loop variables start with 'L', invariant ones with 'V' or 'M'.
using Monomial = std::vector<std::string>;

struct Poly {
  std::map<Monomial, int64_t> Terms; // no zero coefficients

  static Poly constant(int64_t C);
  static Poly symbol(std::string S);
  bool isConstant() const;
  int64_t constantTerm() const;
  bool operator==(const Poly &O) const { return Terms == O.Terms; }
  bool operator!=(const Poly &O) const { return Terms != O.Terms; }
};

std::optional<Poly> add(const Poly &A, const Poly &B);
std::optional<Poly> scale(const Poly &A, int64_t K);
std::optional<Poly> multiply(const Poly &A, const Poly &B);

bool isLoopSymbol(const std::string &S);

// `P` as `Σ coef(v) * v + Rest` over the loop symbols v; nothing if a
// monomial holds two loop symbols (then P is not affine in the loop variables).
struct AffineSplit {
  std::map<std::string, Poly> Coef; // loop symbol -> invariant coefficient
  Poly Rest;                        // the loop-invariant part
};
std::optional<AffineSplit> splitAffine(const Poly &P);

} // namespace gpuautopar
