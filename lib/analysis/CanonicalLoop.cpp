#include "gpuautopar/CanonicalLoop.h"
#include "gpuautopar/Diagnostics.h"
#include "ExprHelpers.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"

namespace gpuautopar {
namespace {

using namespace clang;

// The source text of `S`, quoted in notes so that they say what the
// offending part is rather than repeat the error.
std::string quoted(const Stmt *S, const ASTContext &Ctx) {
  std::string T = sourceText(S, Ctx);
  if (T.size() > 60)
    T = T.substr(0, 57) + "...";
  return "'" + T + "'";
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
  // The error says which rule the loop breaks; the note, at the offending
  // part, says what is there instead (or how to write it).
  bool reject(SourceLocation At, const char *What, const std::string &Instead) {
    report(Diags, Diag::NonCanonical, Loop->getForLoc()) << What;
    report(Diags, Diag::NoteNonCanonicalPart, At.isValid() ? At : Loop->getForLoc()) << Instead;
    return false;
  }
  std::string q(const Stmt *S) const { return quoted(S, Ctx); }
  std::string induction() const { return "'" + Result.Induction->getName().str() + "'"; }

  bool init() {
    const Stmt *Init = Loop->getInit();
    if (!Init)
      return reject(Loop->getLParenLoc(), "the loop has no initialisation of an induction variable",
                    "declare or assign the induction variable here, as in 'for (int i = 0; ...'");
    if (const auto *DS = dyn_cast<DeclStmt>(Init)) {
      if (!DS->isSingleDecl())
        return reject(DS->getBeginLoc(), "the initialisation declares more than one variable",
                      q(DS) + " declares " + std::to_string(std::distance(DS->decl_begin(), DS->decl_end())) +
                          "; declare the others before the loop");
      const auto *V = dyn_cast<VarDecl>(DS->getSingleDecl());
      if (!V || !V->hasInit())
        return reject(DS->getBeginLoc(), "the induction variable is not initialised",
                      q(DS) + " gives it no initial value");
      Result.Induction = V;
      Result.DeclaredInInit = true;
      Result.Lower = V->getInit();
    } else if (const auto *Assign = dyn_cast<BinaryOperator>(Init); Assign && Assign->getOpcode() == BO_Assign) {
      Result.Induction = asVariable(Assign->getLHS());
      Result.Lower = Assign->getRHS();
      if (!Result.Induction)
        return reject(Assign->getLHS()->getExprLoc(), "the initialisation does not assign a variable",
                      q(Assign->getLHS()) + " is not a local variable or parameter");
    } else {
      return reject(Init->getBeginLoc(), "the initialisation must declare or assign one induction variable",
                    "the initialisation is " + q(Init));
    }
    QualType T = Result.Induction->getType().getNonReferenceType();
    if (!T->isIntegerType() || T->isBooleanType() || T->isEnumeralType())
      return reject(Result.Induction->getLocation(), "the induction variable must have an integer type",
                    induction() + " has type '" + T.getAsString(Ctx.getPrintingPolicy()) + "'");
    return true;
  }

  bool condition() {
    const auto *Cond = dyn_cast_or_null<BinaryOperator>(
        Loop->getCond() ? Loop->getCond()->IgnoreParenImpCasts() : nullptr);
    if (!Cond)
      return reject(Loop->getCond() ? Loop->getCond()->getExprLoc() : Loop->getLParenLoc(),
                    "the condition must compare the induction variable with a bound",
                    Loop->getCond() ? "the condition is " + q(Loop->getCond())
                                    : "the loop has no condition; it would need one such as " + induction() +
                                          " < n");
    if (asVariable(Cond->getLHS()) != Result.Induction && asVariable(Cond->getRHS()) != Result.Induction)
      return reject(Cond->getExprLoc(), "the condition must compare the induction variable with a bound",
                    q(Cond) + " does not compare " + induction() + " itself");
    std::optional<LoopCompare> C = comparison(Cond, Result.Induction, Result.Bound);
    if (!C)
      return reject(Cond->getOperatorLoc(), "the condition must use <, <=, >, >= or !=",
                    "the comparison is '" + Cond->getOpcodeStr().str() + "'");
    Result.Compare = *C;
    return true;
  }

  bool increment() {
    const Expr *Inc = Loop->getInc() ? Loop->getInc()->IgnoreParens() : nullptr;
    if (!Inc)
      return reject(Loop->getRParenLoc(), "the loop has no increment",
                    "nothing after the condition changes " + induction());
    if (const auto *U = dyn_cast<UnaryOperator>(Inc); U && U->isIncrementDecrementOp()) {
      if (asVariable(U->getSubExpr()) != Result.Induction)
        return reject(U->getExprLoc(), "the increment must change the induction variable",
                      q(U) + " changes " + q(U->getSubExpr()) + ", not " + induction());
      Result.Decrements = U->isDecrementOp();
      return direction();
    }
    if (const auto *CA = dyn_cast<CompoundAssignOperator>(Inc);
        CA && (CA->getOpcode() == BO_AddAssign || CA->getOpcode() == BO_SubAssign)) {
      if (asVariable(CA->getLHS()) != Result.Induction)
        return reject(CA->getExprLoc(), "the increment must change the induction variable",
                      q(CA) + " changes " + q(CA->getLHS()) + ", not " + induction());
      Result.Step = CA->getRHS();
      Result.Decrements = CA->getOpcode() == BO_SubAssign;
      return stepSign();
    }
    return reject(Inc->getExprLoc(), "the increment must be ++, --, += or -= of the induction variable",
                  "the increment is " + q(Inc));
  }

  // A constant step must move towards the bound; a step that is not a
  // constant is checked by the runtime, which refuses a zero or wrong-signed step.
  bool stepSign() {
    Expr::EvalResult R;
    if (!Result.Step->isValueDependent() && Result.Step->EvaluateAsInt(R, Ctx)) {
      llvm::APSInt V = R.Val.getInt();
      if (V.isZero())
        return reject(Result.Step->getExprLoc(), "the step is zero", q(Result.Step) + " evaluates to 0");
      if (V.isNegative()) {
        // `i += -1` is `i -= 1`: keep the magnitude positive.
        return reject(Result.Step->getExprLoc(), "the step must be a positive amount added or subtracted",
                      q(Result.Step) + " evaluates to " + llvm::toString(V, 10) + "; write '" +
                          Result.Induction->getName().str() + (Result.Decrements ? " += " : " -= ") +
                          llvm::toString(-V, 10) + "' instead");
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
        return reject(Loop->getInc()->getExprLoc(), "the variable decreases but the condition expects it to grow",
                      q(Loop->getInc()) + " decreases " + induction() + ", but " + q(Loop->getCond()) +
                          " ends the loop only once it has grown");
      break;
    case LoopCompare::Greater:
    case LoopCompare::GreaterEqual:
      if (Up)
        return reject(Loop->getInc()->getExprLoc(), "the variable grows but the condition expects it to decrease",
                      q(Loop->getInc()) + " increases " + induction() + ", but " + q(Loop->getCond()) +
                          " ends the loop only once it has shrunk");
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
  auto reject = [&](SourceLocation At, const char *What, const std::string &Instead) -> std::optional<CanonicalLoop> {
    report(Diags, Diag::NonCanonical, Loop->getForLoc()) << What;
    report(Diags, Diag::NoteNonCanonicalPart, At) << Instead;
    return std::nullopt;
  };
  const Expr *Range = Loop->getRangeInit();
  const VarDecl *C = asVariable(Range);
  if (!C)
    return reject(Range ? Range->getExprLoc() : Loop->getColonLoc(),
                  "the range must be a variable declared outside the loop",
                  Range ? "the range is " + quoted(Range, Ctx) + "; store it in a variable before the loop"
                        : std::string("the range is not an expression"));
  if (!isRandomAccess(C->getType().getNonReferenceType(), Ctx))
    return reject(Range->getExprLoc(),
                  "the range is not a random-access container (it needs size() and operator[])",
                  "'" + C->getName().str() + "' has type '" +
                      C->getType().getNonReferenceType().getAsString(Ctx.getPrintingPolicy()) + "'");
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
