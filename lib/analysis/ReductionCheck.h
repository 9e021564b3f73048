// Reduction variables: their updates, recognised while the body model is
// collected, and the check that each is used only in updates with its
// clause's operator (internal).
#pragma once

#include "gpuautopar/LoopAnalysis.h"

#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseSet.h"

#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class IfStmt;
} // namespace clang

namespace gpuautopar {

struct BodyModel;

struct ReductionUpdate {
  std::optional<ReductionOp> Op; // nothing: an operator no reduction has
  std::string Spelling;          // how the update is written: "+=", "*", "max"
  clang::SourceLocation Loc;
};

// What the body does with one reduction variable.
struct ReductionUses {
  std::vector<ReductionUpdate> Updates;
  std::vector<const clang::DeclRefExpr *> Misuses; // uses that are not part of an update
};

// Recognises the updates of one variable as the body's walk meets its
// statements (in pre-order: a statement before its parts): `s += x`,
// `s -= x`, `s = s + x`, `s *= x`, `s++`, `m = std::max(m, x)`,
// `m = x > m ? x : m`, `if (x > m) m = x;`, `&=`, `|=`, `^=`, `b = b && x`,
// `b = b || x` (and the min forms). Every other use is a misuse.
class ReductionMatcher {
public:
  ReductionMatcher(const clang::VarDecl *R, clang::ASTContext &Ctx);
  void ifStmt(const clang::IfStmt *S);
  void unary(const clang::UnaryOperator *U);
  void binary(const clang::BinaryOperator *B);
  void declRef(const clang::DeclRefExpr *E);
  const clang::VarDecl *variable() const { return R; }
  ReductionUses Uses;

private:
  const clang::DeclRefExpr *ref(const clang::Expr *E) const;
  bool handle(const clang::Expr *E);
  bool mentions(const clang::Stmt *S) const;
  bool same(const clang::Expr *X, const clang::Expr *Y) const;
  // For a comparison between the variable and a new value `New`, the
  // operator of "take `New` when the comparison holds".
  std::optional<ReductionOp> pick(const clang::BinaryOperator *Cond, const clang::Expr *New,
                                  const clang::DeclRefExpr *Var) const;
  static std::optional<ReductionOp> compoundOp(clang::BinaryOperatorKind K);
  static std::optional<ReductionOp> binaryOp(clang::BinaryOperatorKind K);

  const clang::VarDecl *R;
  clang::ASTContext &Ctx;
  llvm::DenseSet<const clang::DeclRefExpr *> Handled;
};

// Any use of the reduction variable other than an update with its clause's
// operator is an error: returned as a proven reason of the legality verdict,
// nothing when every use is such an update.
std::optional<LegalityVerdict::Reason> checkReduction(const ReductionClause &R, const BodyModel &M);

} // namespace gpuautopar
