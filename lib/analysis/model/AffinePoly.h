// Subscripts and bounds as integer polynomials over typed atoms: the loop
// variables, loop-invariant values (a variable or a member path, a
// container's size) and the few non-linear forms isl can still express
// (division and remainder by a constant, min and max). One linearizer turns
// the body's expressions into these; the dependence test and the data maps
// both read them (internal).
#pragma once

#include "model/BodyModel.h"
#include "gpuautopar/Polynomial.h"

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace clang {
class ASTContext;
class CallExpr;
class Expr;
class ValueDecl;
} // namespace clang

namespace gpuautopar {

// A product of atoms (ids into an AtomTable), sorted; empty: the constant term.
using Monomial = std::vector<unsigned>;

struct Poly {
  std::map<Monomial, int64_t> Terms; // no zero coefficients

  static Poly constant(int64_t C);
  static Poly atom(unsigned Id);
  bool isConstant() const;
  int64_t constantTerm() const;
  bool operator==(const Poly &O) const { return Terms == O.Terms; }
  bool operator!=(const Poly &O) const { return Terms != O.Terms; }
};

// Overflow makes the result unknown (nothing).
std::optional<Poly> add(const Poly &A, const Poly &B);
std::optional<Poly> scale(const Poly &A, int64_t K);
std::optional<Poly> multiply(const Poly &A, const Poly &B);
std::optional<Poly> minus(const Poly &A, const Poly &B);
// `A - B` when it is a number.
std::optional<int64_t> difference(const Poly &A, const Poly &B);

struct Atom {
  enum Kind {
    Induction, // the annotated loop's variable (the element index k of a range-for)
    Inner,     // the variable of a counted inner loop
    Param,     // a loop-invariant integer: variable or member path (Root null: *this)
    Size,      // Root's size(): a container declared outside and not resized
    Div,       // A / Divisor, truncating like C
    Mod,       // A % Divisor
    Min,       // min(A, B)
    Max,       // max(A, B)
    Select,    // Test <= 0 ? A : B (TestZero: Test == 0 ? A : B), as `?:`
  } K;
  const InnerLoop *Loop = nullptr;
  const clang::ValueDecl *Root = nullptr;
  std::vector<const clang::ValueDecl *> Path;
  std::string Spelling; // as the user writes it: "n", "g.offset", "v.size()"
  std::shared_ptr<const Poly> A, B;
  int64_t Divisor = 0;
  std::shared_ptr<const Poly> Test; // Select's condition, compared with 0
  bool TestZero = false;
  // Whether the value changes from one iteration to the next.
  bool Varies = false;
};

class AtomTable {
public:
  unsigned intern(Atom A);
  const Atom &operator[](unsigned Id) const { return Atoms[Id]; }
  size_t size() const { return Atoms.size(); }
  bool varies(const Monomial &M) const;
  bool varies(const Poly &P) const;

private:
  // A deque: a reference to an atom stays valid while more are interned
  // (linearizing a bound interns its symbols).
  std::deque<Atom> Atoms;
  // What makes an atom itself: its kind, the loop, the declarations it reads
  // and its operands (the spelling follows from these).
  using Key = std::tuple<int, const InnerLoop *, const clang::ValueDecl *, std::vector<const clang::ValueDecl *>,
                         std::map<Monomial, int64_t>, std::map<Monomial, int64_t>, bool, bool, int64_t,
                         std::map<Monomial, int64_t>, bool>;
  static Key keyOf(const Atom &A);
  std::map<Key, unsigned> ByKey;
};

// Expressions of one loop body as polynomials.
class Linearizer {
public:
  Linearizer(clang::ASTContext &Ctx, const BodyModel &M, AtomTable &T) : Ctx(Ctx), M(M), T(T) {}

  // `E` as seen at its place in the body, inside the statements `Around`;
  // nothing if it is not representable (then `Why` names the sub-expression).
  std::optional<Poly> of(const clang::Expr *E, const std::vector<Enclosing> &Around);
  std::optional<Poly> ofInduction() { return Poly::atom(T.intern(Atom{Atom::Induction})); }

  // [least, greatest] of the values the counted loop `Loop` gives its
  // variable, by its header as seen in `Outside` (the statements around the
  // loop): a strided loop ends at its last value where the distance is a
  // number (`j += 4` below 63 ends at 60), else at the bound. The one reading
  // of an inner loop's range that the data maps and the dependence test's
  // shortcuts share; whether the ends may move is the caller's question.
  std::optional<std::pair<Poly, Poly>> range(const InnerLoop &Loop, const std::vector<Enclosing> &Outside);

private:
  std::optional<Poly> walk(const clang::Expr *E, int Depth);
  std::optional<Poly> variable(const clang::Expr *E, int Depth);
  std::optional<Poly> call(const clang::CallExpr *Call, int Depth);
  std::optional<Poly> invariantElement(const clang::ArraySubscriptExpr *E);
  std::optional<Poly> minOrMax(const clang::ConditionalOperator *C, int Depth);
  std::optional<Poly> select(const clang::ConditionalOperator *C, int Depth);

  clang::ASTContext &Ctx;
  const BodyModel &M;
  AtomTable &T;
  const std::vector<Enclosing> *Around = nullptr;
};

// `P` as a value the rewriter can spell (Polynomial.h): symbols first, in
// the order of its terms, the number last; every atom of `P` must be
// loop-invariant.
Polynomial polynomial(const Poly &P, const AtomTable &T);

// The value of `P` when each atom has the value `AtomValue` gives it.
std::optional<int64_t> evaluate(const Poly &P, const AtomTable &T,
                                const std::function<std::optional<int64_t>(unsigned)> &AtomValue);

} // namespace gpuautopar
