#include "gpuautopar/CanonicalLoop.h"
#include "gpuautopar/Diagnostics.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"

namespace gpuautopar {
namespace {

using namespace clang;

const VarDecl *asVariable(const Expr *E) {
  if (!E)
    return nullptr;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
    return dyn_cast<VarDecl>(Ref->getDecl());
  return nullptr;
}

std::optional<LoopCompare> compareOf(BinaryOperatorKind Op, bool Swapped) {
  switch (Op) {
  case BO_LT: return Swapped ? LoopCompare::Greater : LoopCompare::Less;
  case BO_LE: return Swapped ? LoopCompare::GreaterEqual : LoopCompare::LessEqual;
  case BO_GT: return Swapped ? LoopCompare::Less : LoopCompare::Greater;
  case BO_GE: return Swapped ? LoopCompare::LessEqual : LoopCompare::GreaterEqual;
  case BO_NE: return LoopCompare::NotEqual;
  default: return std::nullopt;
  }
}

class Recognizer {
public:
  Recognizer(const ForStmt *Loop, ASTContext &Ctx, DiagnosticsEngine &Diags)
      : Loop(Loop), Ctx(Ctx), Diags(Diags) {
    Result.Loop = Loop;
  }

  std::optional<CanonicalLoop> run() {
    if (!init() || !condition() || !increment())
      return std::nullopt;
    return Result;
  }

private:
  bool reject(SourceLocation At, const char *What) {
    report(Diags, Diag::NonCanonical, Loop->getForLoc()) << What;
    report(Diags, Diag::NoteNonCanonicalPart, At.isValid() ? At : Loop->getForLoc()) << What;
    return false;
  }

  bool init() {
    const Stmt *Init = Loop->getInit();
    if (!Init)
      return reject(Loop->getLParenLoc(), "the loop has no initialisation of an induction variable");
    if (const auto *DS = dyn_cast<DeclStmt>(Init)) {
      if (!DS->isSingleDecl())
        return reject(DS->getBeginLoc(), "the initialisation declares more than one variable");
      const auto *V = dyn_cast<VarDecl>(DS->getSingleDecl());
      if (!V || !V->hasInit())
        return reject(DS->getBeginLoc(), "the induction variable is not initialised");
      Result.Induction = V;
      Result.DeclaredInInit = true;
      Result.Lower = V->getInit();
    } else if (const auto *Assign = dyn_cast<BinaryOperator>(Init); Assign && Assign->getOpcode() == BO_Assign) {
      Result.Induction = asVariable(Assign->getLHS());
      Result.Lower = Assign->getRHS();
      if (!Result.Induction)
        return reject(Assign->getLHS()->getExprLoc(), "the initialisation does not assign a variable");
    } else {
      return reject(Init->getBeginLoc(), "the initialisation must declare or assign one induction variable");
    }
    QualType T = Result.Induction->getType().getNonReferenceType();
    if (!T->isIntegerType() || T->isBooleanType() || T->isEnumeralType())
      return reject(Result.Induction->getLocation(), "the induction variable must have an integer type");
    return true;
  }

  bool condition() {
    const auto *Cond = dyn_cast_or_null<BinaryOperator>(
        Loop->getCond() ? Loop->getCond()->IgnoreParenImpCasts() : nullptr);
    if (!Cond)
      return reject(Loop->getCond() ? Loop->getCond()->getExprLoc() : Loop->getLParenLoc(),
                    "the condition must compare the induction variable with a bound");
    if (asVariable(Cond->getLHS()) != Result.Induction && asVariable(Cond->getRHS()) != Result.Induction)
      return reject(Cond->getExprLoc(), "the condition must compare the induction variable with a bound");
    std::optional<LoopCompare> C = comparison(Cond, Result.Induction, Result.Bound);
    if (!C)
      return reject(Cond->getOperatorLoc(), "the condition must use <, <=, >, >= or !=");
    Result.Compare = *C;
    return true;
  }

  bool increment() {
    const Expr *Inc = Loop->getInc() ? Loop->getInc()->IgnoreParens() : nullptr;
    if (!Inc)
      return reject(Loop->getRParenLoc(), "the loop has no increment");
    if (const auto *U = dyn_cast<UnaryOperator>(Inc); U && U->isIncrementDecrementOp()) {
      if (asVariable(U->getSubExpr()) != Result.Induction)
        return reject(U->getExprLoc(), "the increment must change the induction variable");
      Result.Decrements = U->isDecrementOp();
      return direction();
    }
    if (const auto *CA = dyn_cast<CompoundAssignOperator>(Inc);
        CA && (CA->getOpcode() == BO_AddAssign || CA->getOpcode() == BO_SubAssign)) {
      if (asVariable(CA->getLHS()) != Result.Induction)
        return reject(CA->getExprLoc(), "the increment must change the induction variable");
      Result.Step = CA->getRHS();
      Result.Decrements = CA->getOpcode() == BO_SubAssign;
      return stepSign();
    }
    return reject(Inc->getExprLoc(), "the increment must be ++, --, += or -= of the induction variable");
  }

  // A constant step must move towards the bound; a step that is not a
  // constant is checked by the runtime, which refuses a zero or wrong-signed step.
  bool stepSign() {
    Expr::EvalResult R;
    if (!Result.Step->isValueDependent() && Result.Step->EvaluateAsInt(R, Ctx)) {
      llvm::APSInt V = R.Val.getInt();
      if (V.isZero())
        return reject(Result.Step->getExprLoc(), "the step is zero");
      if (V.isNegative()) {
        // `i += -1` is `i -= 1`: keep the magnitude positive.
        return reject(Result.Step->getExprLoc(), "the step must be a positive amount added or subtracted");
      }
    }
    return direction();
  }

  bool direction() {
    const bool Up = !Result.Decrements;
    switch (Result.Compare) {
    case LoopCompare::Less:
    case LoopCompare::LessEqual:
      if (!Up)
        return reject(Loop->getInc()->getExprLoc(), "the variable decreases but the condition expects it to grow");
      break;
    case LoopCompare::Greater:
    case LoopCompare::GreaterEqual:
      if (Up)
        return reject(Loop->getInc()->getExprLoc(), "the variable grows but the condition expects it to decrease");
      break;
    case LoopCompare::NotEqual:
      break;
    }
    return true;
  }

  const ForStmt *Loop;
  ASTContext &Ctx;
  DiagnosticsEngine &Diags;
  CanonicalLoop Result;
};

// A class usable by index: it (or a base) declares both size() and operator[].
bool hasMember(const CXXRecordDecl *RD, DeclarationName Name) {
  if (!RD || !RD->hasDefinition())
    return false;
  RD = RD->getDefinition();
  if (!RD->lookup(Name).empty())
    return true;
  for (const CXXBaseSpecifier &B : RD->bases())
    if (hasMember(B.getType()->getAsCXXRecordDecl(), Name))
      return true;
  return false;
}

bool isRandomAccess(QualType T, ASTContext &Ctx) {
  if (isa<ConstantArrayType>(T.getCanonicalType()))
    return true;
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  return hasMember(RD, &Ctx.Idents.get("size")) &&
         hasMember(RD, Ctx.DeclarationNames.getCXXOperatorName(OO_Subscript));
}

} // namespace

std::optional<CanonicalLoop> recognizeRangeLoop(const CXXForRangeStmt *Loop, ASTContext &Ctx,
                                                DiagnosticsEngine &Diags) {
  auto reject = [&](SourceLocation At, const char *What) -> std::optional<CanonicalLoop> {
    report(Diags, Diag::NonCanonical, Loop->getForLoc()) << What;
    report(Diags, Diag::NoteNonCanonicalPart, At) << What;
    return std::nullopt;
  };
  const Expr *Range = Loop->getRangeInit();
  const VarDecl *C = asVariable(Range);
  if (!C)
    return reject(Range ? Range->getExprLoc() : Loop->getColonLoc(),
                  "the range must be a variable declared outside the loop");
  if (!isRandomAccess(C->getType().getNonReferenceType(), Ctx))
    return reject(Range->getExprLoc(),
                  "the range is not a random-access container (it needs size() and operator[])");
  CanonicalLoop L;
  L.RangeFor = Loop;
  L.RangeContainer = C;
  return L;
}

std::optional<LoopCompare> comparison(const BinaryOperator *Cond, const VarDecl *Var, const Expr *&Bound) {
  const bool Swapped = asVariable(Cond->getLHS()) != Var;
  if (Swapped && asVariable(Cond->getRHS()) != Var)
    return std::nullopt;
  Bound = Swapped ? Cond->getLHS() : Cond->getRHS();
  return compareOf(Cond->getOpcode(), Swapped);
}

const Stmt *CanonicalLoop::body() const { return Loop ? Loop->getBody() : RangeFor->getBody(); }

SourceLocation CanonicalLoop::beginLoc() const { return Loop ? Loop->getForLoc() : RangeFor->getForLoc(); }

std::optional<CanonicalLoop> recognizeCanonicalLoop(const ForStmt *Loop, ASTContext &Ctx, DiagnosticsEngine &Diags) {
  return Recognizer(Loop, Ctx, Diags).run();
}

} // namespace gpuautopar
