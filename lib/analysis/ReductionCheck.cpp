#include "ReductionCheck.h"
#include "gpuautopar/ClauseParser.h"
#include "gpuautopar/Diagnostics.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseSet.h"

namespace gpuautopar {
namespace {

using namespace clang;

struct Update {
  std::optional<ReductionOp> Op; // nothing: an operator no reduction has
  std::string Spelling;          // how the update is written: "+=", "*", "max"
  SourceLocation Loc;
};

class UseScan : public DynamicRecursiveASTVisitor {
public:
  UseScan(const VarDecl *R, ASTContext &Ctx) : R(R), Ctx(Ctx) {}

  std::vector<Update> Updates;
  std::vector<const DeclRefExpr *> Misuses;

  bool VisitIfStmt(IfStmt *S) override {
    // if (x > m) m = x;
    const auto *Cond = dyn_cast<BinaryOperator>(S->getCond()->IgnoreParenImpCasts());
    const Stmt *Then = S->getThen();
    if (const auto *CS = dyn_cast<CompoundStmt>(Then); CS && CS->size() == 1)
      Then = CS->body_front();
    const auto *Assign = dyn_cast_or_null<BinaryOperator>(Then);
    if (!Cond || !Cond->isRelationalOp() || S->getElse() || !Assign || Assign->getOpcode() != BO_Assign ||
        !ref(Assign->getLHS()))
      return true;
    std::optional<ReductionOp> Op = pick(Cond, Assign->getRHS(), ref(Assign->getLHS()));
    if (!Op)
      return true;
    Updates.push_back({Op, *Op == ReductionOp::Max ? "max" : "min", Assign->getOperatorLoc()});
    handle(Cond->getLHS());
    handle(Cond->getRHS());
    handle(Assign->getLHS());
    return true;
  }

  bool VisitUnaryOperator(UnaryOperator *U) override {
    if (U->isIncrementDecrementOp() && ref(U->getSubExpr()) && handle(U->getSubExpr()))
      Updates.push_back({ReductionOp::Plus, U->isIncrementOp() ? "++" : "--", U->getOperatorLoc()});
    return true;
  }

  bool VisitBinaryOperator(BinaryOperator *B) override {
    if (!B->isAssignmentOp() || !ref(B->getLHS()) || Handled.count(ref(B->getLHS())))
      return true;
    if (B->isCompoundAssignmentOp()) {
      handle(B->getLHS());
      Updates.push_back({compoundOp(B->getOpcode()), B->getOpcodeStr().str(), B->getOperatorLoc()});
      return true;
    }
    const Expr *RHS = B->getRHS()->IgnoreParenImpCasts();
    if (const auto *Bin = dyn_cast<BinaryOperator>(RHS); Bin && !Bin->isAssignmentOp()) {
      const bool Left = ref(Bin->getLHS()) && !mentions(Bin->getRHS());
      const bool Right = ref(Bin->getRHS()) && !mentions(Bin->getLHS()) && Bin->getOpcode() != BO_Sub;
      if (Left || Right) {
        handle(B->getLHS());
        handle(Left ? Bin->getLHS() : Bin->getRHS());
        Updates.push_back({binaryOp(Bin->getOpcode()), Bin->getOpcodeStr().str(), Bin->getOperatorLoc()});
      }
      return true;
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
        Updates.push_back({Op, N.str(), Call->getBeginLoc()});
      }
      return true;
    }
    if (const auto *CO = dyn_cast<ConditionalOperator>(RHS)) {
      // m = x > m ? x : m
      const auto *Cond = dyn_cast<BinaryOperator>(CO->getCond()->IgnoreParenImpCasts());
      if (!Cond || !Cond->isRelationalOp())
        return true;
      const Expr *Other = ref(CO->getTrueExpr()) ? CO->getFalseExpr() : CO->getTrueExpr();
      if (!ref(CO->getTrueExpr()) && !ref(CO->getFalseExpr()))
        return true;
      std::optional<ReductionOp> Op = pick(Cond, Other, ref(B->getLHS()));
      if (!Op)
        return true;
      // `pick` assumed the new value is chosen when the condition holds.
      if (ref(CO->getTrueExpr()))
        Op = *Op == ReductionOp::Max ? ReductionOp::Min : ReductionOp::Max;
      handle(B->getLHS());
      handle(Cond->getLHS());
      handle(Cond->getRHS());
      handle(CO->getTrueExpr());
      handle(CO->getFalseExpr());
      Updates.push_back({Op, *Op == ReductionOp::Max ? "max" : "min", CO->getQuestionLoc()});
    }
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr *E) override {
    if (E->getDecl() == R && !Handled.count(E))
      Misuses.push_back(E);
    return true;
  }

private:
  const DeclRefExpr *ref(const Expr *E) const {
    const auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return D && D->getDecl() == R ? D : nullptr;
  }
  bool handle(const Expr *E) {
    if (const DeclRefExpr *D = ref(E))
      return Handled.insert(D).second;
    return false;
  }
  bool mentions(const Stmt *S) const {
    if (!S)
      return false;
    if (const auto *D = dyn_cast<DeclRefExpr>(S); D && D->getDecl() == R)
      return true;
    for (const Stmt *C : S->children())
      if (mentions(C))
        return true;
    return false;
  }
  std::string text(const Expr *E) const {
    return Lexer::getSourceText(CharSourceRange::getTokenRange(E->getSourceRange()), Ctx.getSourceManager(),
                                Ctx.getLangOpts())
        .str();
  }
  // For a comparison between the variable and a new value `New`, the
  // operator of "take `New` when the comparison holds".
  std::optional<ReductionOp> pick(const BinaryOperator *Cond, const Expr *New, const DeclRefExpr *Var) const {
    const bool VarLeft = ref(Cond->getLHS()) != nullptr;
    const Expr *Value = VarLeft ? Cond->getRHS() : Cond->getLHS();
    if ((!VarLeft && !ref(Cond->getRHS())) || mentions(Value) || text(Value) != text(New) || !Var)
      return std::nullopt;
    const bool Greater = Cond->getOpcode() == BO_GT || Cond->getOpcode() == BO_GE;
    // `new > var` picks the larger: max; `var > new` picks the smaller: min.
    return (Greater != VarLeft) ? ReductionOp::Max : ReductionOp::Min;
  }
  static std::optional<ReductionOp> compoundOp(BinaryOperatorKind K) {
    switch (K) {
    case BO_AddAssign:
    case BO_SubAssign: return ReductionOp::Plus;
    case BO_MulAssign: return ReductionOp::Times;
    case BO_AndAssign: return ReductionOp::BitAnd;
    case BO_OrAssign: return ReductionOp::BitOr;
    case BO_XorAssign: return ReductionOp::BitXor;
    default: return std::nullopt;
    }
  }
  static std::optional<ReductionOp> binaryOp(BinaryOperatorKind K) {
    switch (K) {
    case BO_Add:
    case BO_Sub: return ReductionOp::Plus;
    case BO_Mul: return ReductionOp::Times;
    case BO_And: return ReductionOp::BitAnd;
    case BO_Or: return ReductionOp::BitOr;
    case BO_Xor: return ReductionOp::BitXor;
    case BO_LAnd: return ReductionOp::LogicalAnd;
    case BO_LOr: return ReductionOp::LogicalOr;
    default: return std::nullopt;
    }
  }

  const VarDecl *R;
  ASTContext &Ctx;
  llvm::DenseSet<const DeclRefExpr *> Handled;
};

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

std::optional<LegalityVerdict::Reason> checkReduction(const ReductionClause &R, const Stmt *Body, ASTContext &Ctx) {
  UseScan Scan(R.Var, Ctx);
  Scan.TraverseStmt(const_cast<Stmt *>(Body));
  const bool IsBool = R.Var->getType().getNonReferenceType()->isBooleanType();
  const std::string Name = R.Var->getNameAsString();
  const Finding Clause{Diag::NoteReductionClause, R.Loc, {}};
  for (const Update &U : Scan.Updates)
    if (!U.Op || !sameOp(R.Op, *U.Op, IsBool))
      return LegalityVerdict::Reason{
          LegalityVerdict::Dependent, {Diag::ReductionOpMismatch, U.Loc, {spelling(R.Op), Name, U.Spelling}}, {Clause}};
  if (!Scan.Misuses.empty())
    return LegalityVerdict::Reason{LegalityVerdict::Dependent,
                                   {Diag::ReductionVarMisuse, Scan.Misuses.front()->getLocation(), {Name}},
                                   {Clause}};
  return std::nullopt;
}

} // namespace gpuautopar
