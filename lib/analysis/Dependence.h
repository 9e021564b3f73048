// The dependence test between two accesses of the same array in different
// iterations of the annotated loop (internal).
#pragma once

#include "Access.h"
#include "AffinePoly.h"

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <optional>
#include <string>

namespace gpuautopar {

// A counted loop nested in the body: `for (int j = lo; j < ub; ...)`.
struct InnerLoop {
  std::optional<int64_t> Min, Max; // the values j takes, when constant
  // For `j = lo; j < ub; ++j` with a constant lo: lo, and ub as an
  // invariant polynomial (so j + c stays in [0, n) can be checked).
  std::optional<int64_t> Lower;
  std::optional<Poly> UpperExclusive;
};

struct DependenceContext {
  explicit DependenceContext(clang::ASTContext &Ctx) : Ctx(Ctx) {}
  clang::ASTContext &Ctx;
  const clang::VarDecl *Induction = nullptr;
  int64_t Step = 1;                      // |step|, 1 when not a constant
  bool StepKnown = true;
  std::optional<int64_t> TripCount;      // when the bounds are constants
  llvm::DenseMap<const clang::VarDecl *, InnerLoop> Inner;
  llvm::DenseSet<const clang::VarDecl *> WrittenScalars; // outside variables the body writes
  llvm::DenseSet<const clang::VarDecl *> WrittenLocals;  // body variables assigned after their declaration
  clang::SourceRange Loop;               // the whole annotated loop statement
};

enum class Verdict { Independent, Dependent, Unknown };

struct PairVerdict {
  Verdict V = Verdict::Unknown;
  std::string Why; // for Unknown: what the analysis could not see through
};

// Can iteration i's access `A` and iteration i' != i's access `B` (same
// variable, at least one a write) touch the same element?
PairVerdict testPair(const Access &A, const Access &B, const DependenceContext &C);

// The subscript as a polynomial, or nothing if it is not affine-representable.
std::optional<Poly> linearize(const clang::Expr *E, const DependenceContext &C, int Depth = 0);

} // namespace gpuautopar
