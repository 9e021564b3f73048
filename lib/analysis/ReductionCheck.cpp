#include "ReductionCheck.h"
#include "model/BodyModel.h"
#include "gpuautopar/ClauseParser.h"
#include "gpuautopar/Diagnostics.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/FoldingSet.h"
#include "llvm/ADT/DenseSet.h"

#include <cassert>

namespace gpuautopar {
using namespace clang;

ReductionMatcher::ReductionMatcher(const VarDecl *R, ASTContext &Ctx) : R(R), Ctx(Ctx) {}

namespace {

// Whether the value of the update `E` is thrown away (`t++;`, the increment
// of a for, the left of a comma). `tmp[t++]` uses it: each iteration's copy
// of a reduction variable starts at the identity, so that value would be
// wrong, and the update is no reduction.
bool valueDiscarded(const Expr *E, ASTContext &Ctx) {
  const Stmt *Child = E;
  for (;;) {
    DynTypedNodeList Parents = Ctx.getParents(*Child);
    if (Parents.size() != 1)
      return false;
    const Stmt *P = Parents[0].get<Stmt>();
    if (!P)
      return false;
    if (isa<ParenExpr>(P) || isa<ExprWithCleanups>(P)) {
      Child = P;
      continue;
    }
    if (isa<CompoundStmt>(P) || isa<CaseStmt>(P) || isa<DefaultStmt>(P) || isa<LabelStmt>(P))
      return true;
    if (const auto *F = dyn_cast<ForStmt>(P))
      return F->getInc() == Child || F->getBody() == Child;
    if (const auto *F = dyn_cast<CXXForRangeStmt>(P))
      return F->getBody() == Child;
    if (const auto *I = dyn_cast<IfStmt>(P))
      return I->getThen() == Child || I->getElse() == Child;
    if (const auto *W = dyn_cast<WhileStmt>(P))
      return W->getBody() == Child;
    if (const auto *D = dyn_cast<DoStmt>(P))
      return D->getBody() == Child;
    if (const auto *B = dyn_cast<BinaryOperator>(P); B && B->getOpcode() == BO_Comma) {
      if (B->getLHS() == Child)
        return true;
      Child = P; // the comma's value is its right operand's
      continue;
    }
    if (const auto *C = dyn_cast<CastExpr>(P); C && C->getType()->isVoidType())
      return true;
    return false;
  }
}

} // namespace

void ReductionMatcher::ifStmt(const IfStmt *S) {
  // if (x > m) m = x;
  const auto *Cond = dyn_cast<BinaryOperator>(S->getCond()->IgnoreParenImpCasts());
  const Stmt *Then = S->getThen();
  if (const auto *CS = dyn_cast<CompoundStmt>(Then); CS && CS->size() == 1)
    Then = CS->body_front();
  const auto *Assign = dyn_cast_or_null<BinaryOperator>(Then);
  if (!Cond || !Cond->isRelationalOp() || S->getElse() || !Assign || Assign->getOpcode() != BO_Assign ||
      !ref(Assign->getLHS()))
    return;
  std::optional<ReductionOp> Op = pick(Cond, Assign->getRHS(), ref(Assign->getLHS()));
  if (!Op)
    return;
  Uses.Updates.push_back({Op, *Op == ReductionOp::Max ? "max" : "min", Assign->getOperatorLoc()});
  handle(Cond->getLHS());
  handle(Cond->getRHS());
  handle(Assign->getLHS());
  return;
}

void ReductionMatcher::unary(const UnaryOperator *U) {
  if (U->isIncrementDecrementOp() && ref(U->getSubExpr()) && valueDiscarded(U, Ctx) && handle(U->getSubExpr()))
    Uses.Updates.push_back({ReductionOp::Plus, U->isIncrementOp() ? "++" : "--", U->getOperatorLoc()});
  return;
}

void ReductionMatcher::binary(const BinaryOperator *B) {
  if (!B->isAssignmentOp() || !ref(B->getLHS()) || Handled.count(ref(B->getLHS())))
    return;
  if (B->isCompoundAssignmentOp()) {
    if (!valueDiscarded(B, Ctx))
      return; // `x = (s += v)`: the running value is used
    handle(B->getLHS());
    Uses.Updates.push_back({compoundOp(B->getOpcode()), B->getOpcodeStr().str(), B->getOperatorLoc()});
    return;
  }
  const Expr *RHS = B->getRHS()->IgnoreParenImpCasts();
  // `found = 1` (a flag, `TRUE` in C): `found = found || 1` whenever it held
  // 0 or 1 before; `ok = 0` likewise `ok = ok && 0`.
  if (std::optional<llvm::APSInt> C = RHS->getIntegerConstantExpr(Ctx);
      C && (*C == 0 || *C == 1) && B->getLHS()->getType()->isIntegralOrEnumerationType() && valueDiscarded(B, Ctx)) {
    handle(B->getLHS());
    Uses.Updates.push_back({*C == 1 ? ReductionOp::LogicalOr : ReductionOp::LogicalAnd, *C == 1 ? "= 1" : "= 0",
                            B->getOperatorLoc()});
    return;
  }
  if (const auto *Bin = dyn_cast<BinaryOperator>(RHS); Bin && !Bin->isAssignmentOp()) {
    const bool Left = ref(Bin->getLHS()) && !mentions(Bin->getRHS());
    const bool Right = ref(Bin->getRHS()) && !mentions(Bin->getLHS()) && Bin->getOpcode() != BO_Sub;
    if (Left || Right) {
      handle(B->getLHS());
      handle(Left ? Bin->getLHS() : Bin->getRHS());
      Uses.Updates.push_back({binaryOp(Bin->getOpcode()), Bin->getOpcodeStr().str(), Bin->getOperatorLoc()});
    }
    return;
  }
  if (const auto *Call = dyn_cast<CallExpr>(RHS); Call && Call->getNumArgs() == 2 && Call->getDirectCallee() &&
                                                  Call->getDirectCallee()->getDeclName().isIdentifier()) {
    StringRef N = Call->getDirectCallee()->getName();
    std::optional<ReductionOp> Op;
    if (N == "max" || N == "fmax" || N == "fmaxf")
      Op = ReductionOp::Max;
    else if (N == "min" || N == "fmin" || N == "fminf")
      Op = ReductionOp::Min;
    const bool First = ref(Call->getArg(0)) && !mentions(Call->getArg(1));
    const bool Second = ref(Call->getArg(1)) && !mentions(Call->getArg(0));
    if (Op && (First || Second)) {
      handle(B->getLHS());
      handle(Call->getArg(First ? 0 : 1));
      Uses.Updates.push_back({Op, N.str(), Call->getBeginLoc()});
    }
    return;
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(RHS)) {
    // m = x > m ? x : m
    const auto *Cond = dyn_cast<BinaryOperator>(CO->getCond()->IgnoreParenImpCasts());
    if (!Cond || !Cond->isRelationalOp())
      return;
    const Expr *Other = ref(CO->getTrueExpr()) ? CO->getFalseExpr() : CO->getTrueExpr();
    if (!ref(CO->getTrueExpr()) && !ref(CO->getFalseExpr()))
      return;
    std::optional<ReductionOp> Op = pick(Cond, Other, ref(B->getLHS()));
    if (!Op)
      return;
    // `pick` assumed the new value is chosen when the condition holds.
    if (ref(CO->getTrueExpr()))
      Op = *Op == ReductionOp::Max ? ReductionOp::Min : ReductionOp::Max;
    handle(B->getLHS());
    handle(Cond->getLHS());
    handle(Cond->getRHS());
    handle(CO->getTrueExpr());
    handle(CO->getFalseExpr());
    Uses.Updates.push_back({Op, *Op == ReductionOp::Max ? "max" : "min", CO->getQuestionLoc()});
  }
  return;
}

void ReductionMatcher::declRef(const DeclRefExpr *E) {
  if (E->getDecl() == R && !Handled.count(E))
    Uses.Misuses.push_back(E);
  return;
}

const DeclRefExpr *ReductionMatcher::ref(const Expr *E) const {
  const auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return D && D->getDecl() == R ? D : nullptr;
}
bool ReductionMatcher::handle(const Expr *E) {
  if (const DeclRefExpr *D = ref(E))
    return Handled.insert(D).second;
  return false;
}
bool ReductionMatcher::mentions(const Stmt *S) const {
  if (!S)
    return false;
  if (const auto *D = dyn_cast<DeclRefExpr>(S); D && D->getDecl() == R)
    return true;
  for (const Stmt *C : S->children())
    if (mentions(C))
      return true;
  return false;
}
// The same value computed the same way: one expression tree, whatever its
// spelling (Stmt::Profile, as clang compares template arguments).
bool ReductionMatcher::same(const Expr *X, const Expr *Y) const {
  llvm::FoldingSetNodeID IX, IY;
  X->IgnoreParenImpCasts()->Profile(IX, Ctx, /*Canonical=*/true);
  Y->IgnoreParenImpCasts()->Profile(IY, Ctx, /*Canonical=*/true);
  return IX == IY;
}
// For a comparison between the variable and a new value `New`, the
// operator of "take `New` when the comparison holds".
std::optional<ReductionOp> ReductionMatcher::pick(const BinaryOperator *Cond, const Expr *New,
                                                  const DeclRefExpr *Var) const {
  const bool VarLeft = ref(Cond->getLHS()) != nullptr;
  const Expr *Value = VarLeft ? Cond->getRHS() : Cond->getLHS();
  if ((!VarLeft && !ref(Cond->getRHS())) || mentions(Value) || !same(Value, New) || !Var)
    return std::nullopt;
  const bool Greater = Cond->getOpcode() == BO_GT || Cond->getOpcode() == BO_GE;
  // `new > var` picks the larger: max; `var > new` picks the smaller: min.
  return (Greater != VarLeft) ? ReductionOp::Max : ReductionOp::Min;
}
std::optional<ReductionOp> ReductionMatcher::compoundOp(BinaryOperatorKind K) {
  switch (K) {
  case BO_AddAssign:
  case BO_SubAssign:
    return ReductionOp::Plus;
  case BO_MulAssign:
    return ReductionOp::Times;
  case BO_AndAssign:
    return ReductionOp::BitAnd;
  case BO_OrAssign:
    return ReductionOp::BitOr;
  case BO_XorAssign:
    return ReductionOp::BitXor;
  default:
    return std::nullopt;
  }
}
std::optional<ReductionOp> ReductionMatcher::binaryOp(BinaryOperatorKind K) {
  switch (K) {
  case BO_Add:
  case BO_Sub:
    return ReductionOp::Plus;
  case BO_Mul:
    return ReductionOp::Times;
  case BO_And:
    return ReductionOp::BitAnd;
  case BO_Or:
    return ReductionOp::BitOr;
  case BO_Xor:
    return ReductionOp::BitXor;
  case BO_LAnd:
    return ReductionOp::LogicalAnd;
  case BO_LOr:
    return ReductionOp::LogicalOr;
  default:
    return std::nullopt;
  }
}

namespace {

// On bool, `&=` is `&&` and `|=` is `||`.
bool sameOp(ReductionOp Clause, ReductionOp Used, bool IsBool) {
  if (Clause == Used)
    return true;
  if (!IsBool)
    return false;
  auto norm = [](ReductionOp O) {
    return O == ReductionOp::BitAnd ? ReductionOp::LogicalAnd : O == ReductionOp::BitOr ? ReductionOp::LogicalOr : O;
  };
  return norm(Clause) == norm(Used);
}

} // namespace

std::optional<LegalityVerdict::Reason> checkReduction(const ReductionClause &R, const BodyModel &M) {
  auto It = M.Reductions.find(R.Var);
  assert(It != M.Reductions.end() && "the model tracks every reduction variable of the clauses");
  const ReductionUses &Scan = It->second;
  const bool IsBool = R.Var->getType().getNonReferenceType()->isBooleanType();
  const std::string Name = R.Var->getNameAsString();
  const Finding Clause{Diag::NoteReductionClause, R.Loc, {}};
  for (const ReductionUpdate &U : Scan.Updates)
    if (!U.Op || !sameOp(R.Op, *U.Op, IsBool))
      return LegalityVerdict::Reason{
          LegalityVerdict::Dependent, {Diag::ReductionOpMismatch, U.Loc, {spelling(R.Op), Name, U.Spelling}}, {Clause}};
  if (!Scan.Misuses.empty())
    return LegalityVerdict::Reason{
        LegalityVerdict::Dependent, {Diag::ReductionVarMisuse, Scan.Misuses.front()->getLocation(), {Name}}, {Clause}};
  return std::nullopt;
}

} // namespace gpuautopar
