#include "AffinePoly.h"

#include <algorithm>

namespace gpuautopar {

Poly Poly::constant(int64_t C) {
  Poly P;
  if (C != 0)
    P.Terms[{}] = C;
  return P;
}

Poly Poly::symbol(std::string S) {
  Poly P;
  P.Terms[{std::move(S)}] = 1;
  return P;
}

bool Poly::isConstant() const { return Terms.empty() || (Terms.size() == 1 && Terms.begin()->first.empty()); }

int64_t Poly::constantTerm() const {
  auto It = Terms.find({});
  return It == Terms.end() ? 0 : It->second;
}

// Overflow in a subscript polynomial means it is not something the test can
// reason about: the caller treats a failure as "not affine".
std::optional<Poly> add(const Poly &A, const Poly &B) {
  Poly R = A;
  for (const auto &[M, C] : B.Terms) {
    int64_t &Slot = R.Terms[M];
    if (__builtin_add_overflow(Slot, C, &Slot))
      return std::nullopt;
    if (Slot == 0)
      R.Terms.erase(M);
  }
  return R;
}

std::optional<Poly> scale(const Poly &A, int64_t K) {
  Poly R;
  if (K == 0)
    return R;
  for (const auto &[M, C] : A.Terms) {
    int64_t V;
    if (__builtin_mul_overflow(C, K, &V))
      return std::nullopt;
    R.Terms[M] = V;
  }
  return R;
}

std::optional<Poly> multiply(const Poly &A, const Poly &B) {
  Poly R;
  for (const auto &[MA, CA] : A.Terms)
    for (const auto &[MB, CB] : B.Terms) {
      Monomial M = MA;
      M.insert(M.end(), MB.begin(), MB.end());
      std::sort(M.begin(), M.end());
      int64_t V;
      if (__builtin_mul_overflow(CA, CB, &V))
        return std::nullopt;
      Poly Term;
      Term.Terms[M] = V;
      std::optional<Poly> Sum = add(R, Term);
      if (!Sum)
        return std::nullopt;
      R = std::move(*Sum);
    }
  return R;
}

bool isLoopSymbol(const std::string &S) { return !S.empty() && S[0] == 'L'; }

std::optional<AffineSplit> splitAffine(const Poly &P) {
  AffineSplit S;
  for (const auto &[M, C] : P.Terms) {
    const std::string *Loop = nullptr;
    Monomial Rest;
    for (const std::string &Sym : M) {
      if (!isLoopSymbol(Sym)) {
        Rest.push_back(Sym);
        continue;
      }
      if (Loop)
        return std::nullopt; // i*i or i*j
      Loop = &Sym;
    }
    Poly &Into = Loop ? S.Coef[*Loop] : S.Rest;
    Into.Terms[Rest] = C;
  }
  return S;
}

} // namespace gpuautopar
