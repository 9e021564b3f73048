// Recognition of OpenMP-style canonical loops:
//   for (init; cond; incr) with one integer induction variable, a comparison
//   against a bound and a constant-direction step.
#pragma once

#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"

#include <optional>
#include <string>

namespace clang {
class ASTContext;
class DiagnosticsEngine;
class VarDecl;
} // namespace clang

namespace gpuautopar {

// The comparison with the induction variable on the left-hand side.
enum class LoopCompare { Less, LessEqual, Greater, GreaterEqual, NotEqual };

// `Cond` as `Var Compare Bound`, whichever side Var is on; sets `Bound`.
std::optional<LoopCompare> comparison(const clang::BinaryOperator *Cond, const clang::VarDecl *Var,
                                      const clang::Expr *&Bound);

struct CanonicalLoop {
  const clang::ForStmt *Loop = nullptr;           // null for a range-based for
  // Range-based form `for (decl : c)` over a random-access container `c`
  // declared outside the loop: iterations are the indices [0, c.size()), and
  // the rewriter declares the loop variable from `c[k]`. Induction, Lower,
  // Bound and Step are then null.
  const clang::CXXForRangeStmt *RangeFor = nullptr;
  const clang::VarDecl *RangeContainer = nullptr;
  const clang::VarDecl *Induction = nullptr;
  bool DeclaredInInit = false;       // `for (int i = ...` rather than `for (i = ...`
  const clang::Expr *Lower = nullptr; // initial value of the induction variable
  const clang::Expr *Bound = nullptr; // the side of the comparison that is not the variable
  LoopCompare Compare = LoopCompare::Less;
  const clang::Expr *Step = nullptr; // magnitude of `i += c` / `i -= c`; null for ++/--
  bool Decrements = false;           // `--i`, `i--`, `i -= c`

  const clang::Stmt *body() const;
  clang::SourceLocation beginLoc() const; // the `for` keyword
};

// Returns the canonical form of `Loop`, or reports why it is not canonical
// (an error at the loop, a note at the part that is not) and returns nothing.
std::optional<CanonicalLoop> recognizeCanonicalLoop(const clang::ForStmt *Loop, clang::ASTContext &Ctx,
                                                    clang::DiagnosticsEngine &Diags);

// The same for `for (decl : c)`: `c` must be a variable declared outside the
// loop whose type is a built-in array or a random-access container (a class
// with size() and operator[], such as std::vector or std::array).
std::optional<CanonicalLoop> recognizeRangeLoop(const clang::CXXForRangeStmt *Loop, clang::ASTContext &Ctx,
                                                clang::DiagnosticsEngine &Diags);

} // namespace gpuautopar
