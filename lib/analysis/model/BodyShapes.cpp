#include "model/BodyShapes.h"
#include "Containers.h"
#include "ExprHelpers.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "clang/AST/ExprCXX.h"

namespace gpuautopar {

using namespace clang;

bool isElementAccessor(const CXXMethodDecl *M) {
  if (M->isConst())
    return true;
  if (M->getOverloadedOperator() == OO_Subscript)
    return !M->getParent()->isInStdNamespace() ||
           subscriptNamesOwnElement(M->getASTContext().getCanonicalTagType(M->getParent()));
  if (!M->getDeclName().isIdentifier())
    return false;
  StringRef N = M->getName();
  return N == "data" || N == "at" || N == "front" || N == "back" || N == "begin" || N == "end";
}

bool insertsKey(const CXXOperatorCallExpr *E) {
  const auto *M = dyn_cast_or_null<CXXMethodDecl>(E->getDirectCallee());
  return M && E->getOperator() == OO_Subscript && !M->isConst() && !isElementAccessor(M);
}

bool isInputOutput(const FunctionDecl *F) {
  if (!F->getDeclName().isIdentifier()) {
    // std::cout << x, std::cin >> x
    if (F->getOverloadedOperator() != OO_LessLess && F->getOverloadedOperator() != OO_GreaterGreater)
      return false;
    for (const ParmVarDecl *P : F->parameters())
      if (const CXXRecordDecl *RD = P->getType().getNonReferenceType()->getAsCXXRecordDecl())
        if (RD->isInStdNamespace() && (RD->getName().starts_with("basic_ostream") ||
                                       RD->getName().starts_with("basic_istream")))
          return true;
    if (const auto *M = dyn_cast<CXXMethodDecl>(F))
      if (M->getParent()->isInStdNamespace() && (M->getParent()->getName().starts_with("basic_ostream") ||
                                                 M->getParent()->getName().starts_with("basic_istream")))
        return true;
    return false;
  }
  static const char *const Names[] = {"printf", "fprintf", "vprintf", "vfprintf", "puts",  "fputs",  "putchar",
                                      "fputc",  "putc",    "fwrite",  "fflush",   "scanf", "fscanf", "getchar",
                                      "fgets",  "fgetc",   "getc",    "fread",    "perror", "write", "read"};
  StringRef N = F->getName();
  for (const char *IO : Names)
    if (N == IO)
      return F->isExternC() || F->getBuiltinID() != 0 || F->isInStdNamespace();
  return false;
}

namespace {

// A type narrower than int: `++j` converts back, wrapping without
// undefined behaviour.
bool promotes(QualType T, const ASTContext &Ctx) { return Ctx.getTypeSize(T) < Ctx.getTypeSize(Ctx.IntTy); }

// Whether a loop from `Lower` by `Step` (1 or -1) reaches `Bound` without
// wrapping: both numbers on the right side, or counting up from 0.
bool startsBefore(const Expr *Lower, const Expr *Bound, int64_t Step, const ASTContext &Ctx) {
  Expr::EvalResult Lo, Hi;
  if (Lower->isValueDependent() || !Lower->EvaluateAsInt(Lo, Ctx))
    return false;
  if (Step > 0 && Lo.Val.getInt().isZero())
    return true;
  if (Bound->isValueDependent() || !Bound->EvaluateAsInt(Hi, Ctx))
    return false;
  const llvm::APSInt &A = Lo.Val.getInt(), &B = Hi.Val.getInt();
  return Step > 0 ? llvm::APSInt::compareValues(A, B) <= 0 : llvm::APSInt::compareValues(A, B) >= 0;
}

} // namespace

std::optional<InnerLoop> countedLoop(const ForStmt *S, const VarDecl *Induction, const ASTContext &Ctx) {
  InnerLoop L;
  L.Stmt = S;
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(S->getInit()); DS && DS->isSingleDecl()) {
    L.Var = dyn_cast<VarDecl>(DS->getSingleDecl());
    L.Lower = L.Var ? L.Var->getInit() : nullptr;
  } else if (const auto *B = dyn_cast_or_null<BinaryOperator>(S->getInit()); B && B->getOpcode() == BO_Assign) {
    L.Var = asVariable(B->getLHS());
    L.Lower = B->getRHS();
  }
  if (!L.Var || !L.Lower || !L.Var->getType()->isIntegerType() || L.Var == Induction)
    return std::nullopt;
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(S->getCond() ? S->getCond()->IgnoreParenImpCasts() : nullptr);
  if (!Cond || !Cond->isComparisonOp() || Cond->getOpcode() == BO_EQ)
    return std::nullopt;
  std::optional<LoopCompare> Cmp = comparison(Cond, L.Var, L.Bound);
  if (!Cmp)
    return std::nullopt;
  L.Compare = *Cmp;
  const Expr *Inc = S->getInc() ? S->getInc()->IgnoreParens() : nullptr;
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(Inc); U && U->isIncrementDecrementOp() &&
                                                           asVariable(U->getSubExpr()) == L.Var) {
    L.Step = U->isIncrementOp() ? 1 : -1;
  } else if (const auto *CA = dyn_cast_or_null<CompoundAssignOperator>(Inc);
             CA && asVariable(CA->getLHS()) == L.Var &&
             (CA->getOpcode() == BO_AddAssign || CA->getOpcode() == BO_SubAssign)) {
    Expr::EvalResult R;
    if (CA->getRHS()->isValueDependent() || !CA->getRHS()->EvaluateAsInt(R, Ctx) ||
        R.Val.getInt().getSignificantBits() > 32 || R.Val.getInt().isZero())
      return std::nullopt;
    L.Step = R.Val.getInt().getExtValue() * (CA->getOpcode() == BO_SubAssign ? -1 : 1);
  } else {
    return std::nullopt;
  }
  if (L.Compare == LoopCompare::NotEqual) {
    // `j != n` by ones is `j < n` (or `j > n` counting down) wherever it
    // ends: a signed `j` that starts past `n` overflows, which C++ leaves
    // undefined. An unsigned one wraps around instead, so it counts only
    // when it starts on the right side of `n`.
    if ((L.Step != 1 && L.Step != -1) || !(L.Var->getType()->isSignedIntegerType()
                                               ? !promotes(L.Var->getType(), Ctx)
                                               : startsBefore(L.Lower, L.Bound, L.Step, Ctx)))
      return std::nullopt;
    L.Compare = L.Step > 0 ? LoopCompare::Less : LoopCompare::Greater;
  }
  const bool Up = L.Compare == LoopCompare::Less || L.Compare == LoopCompare::LessEqual;
  if (Up != (L.Step > 0))
    return std::nullopt;
  return L;
}

namespace {

// `root + t1 - t2 ...` taken apart: the pointer it starts from and the
// integers added to it, each with its sign (`*(a + i - 1)`, `(p + 1)[k]`).
struct PointerSum {
  const Expr *Root = nullptr;
  std::vector<std::pair<const Expr *, bool>> Terms; // (term, negated)
};

void addTerms(const Expr *P, PointerSum &Out) {
  P = P->IgnoreParenImpCasts();
  if (const auto *B = dyn_cast<BinaryOperator>(P); B && B->getType()->isPointerType()) {
    const bool PtrLeft = B->getLHS()->getType()->isPointerType();
    if (B->getOpcode() == BO_Add) {
      addTerms(PtrLeft ? B->getLHS() : B->getRHS(), Out);
      Out.Terms.push_back({PtrLeft ? B->getRHS() : B->getLHS(), false});
      return;
    }
    if (B->getOpcode() == BO_Sub && PtrLeft && B->getRHS()->getType()->isIntegerType()) {
      addTerms(B->getLHS(), Out);
      Out.Terms.push_back({B->getRHS(), true});
      return;
    }
  }
  Out.Root = P;
}

// The integer `First + (+/-)terms` as an expression the linearizer reads: an
// expression of the program where there is one, else one made in the AST
// context from the program's own terms (never printed as code; messages
// quote the source the terms span).
const Expr *sumOf(const Expr *First, const std::vector<std::pair<const Expr *, bool>> &Terms, ASTContext &Ctx) {
  const QualType T = Ctx.getPointerDiffType();
  auto AsDiff = [&](const Expr *E) -> Expr * {
    return ImplicitCastExpr::Create(Ctx, T, CK_IntegralCast, const_cast<Expr *>(E), nullptr, VK_PRValue,
                                    FPOptionsOverride());
  };
  if (Terms.empty())
    return First;
  if (!First && Terms.size() == 1 && !Terms.front().second)
    return Terms.front().first;
  Expr *Sum = nullptr;
  if (First)
    Sum = AsDiff(First);
  for (const auto &[Term, Negated] : Terms) {
    Expr *E = AsDiff(Term);
    if (!Sum)
      Sum = Negated ? UnaryOperator::Create(Ctx, E, UO_Minus, T, VK_PRValue, OK_Ordinary, Term->getBeginLoc(), false,
                                            FPOptionsOverride())
                    : E;
    else
      Sum = BinaryOperator::Create(Ctx, Sum, E, Negated ? BO_Sub : BO_Add, T, VK_PRValue, OK_Ordinary,
                                   Term->getBeginLoc(), FPOptionsOverride());
  }
  return Sum;
}

} // namespace

ElementChain elementChain(const Expr *E, ASTContext &Ctx) {
  ElementChain Out;
  std::vector<const Expr *> &Subscripts = Out.Subscripts;
  std::vector<const Expr *> &Chain = Out.Chain;
  Chain.push_back(E);
  const Expr *&Base = Out.Base;
  if (const auto *U = dyn_cast<UnaryOperator>(E)) {
    // `*p`, `*(p + k)`, `*(a + i - 1)`: the pointer arithmetic is the subscript.
    PointerSum Sum;
    addTerms(U->getSubExpr(), Sum);
    Base = Sum.Root;
    Subscripts.push_back(sumOf(nullptr, Sum.Terms, Ctx));
  } else {
    const Expr *Cur = E;
    while (true) {
      if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(Cur)) {
        Subscripts.insert(Subscripts.begin(), ASE->getIdx());
        Cur = ASE->getBase()->IgnoreParenImpCasts();
      } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Cur);
                 Op && Op->getOperator() == OO_Subscript && subscriptNamesOwnElement(Op->getArg(0)->getType())) {
        Subscripts.insert(Subscripts.begin(), Op->getArg(1));
        Cur = Op->getArg(0)->IgnoreParenImpCasts();
      } else if (const auto *At = dyn_cast<CXXMemberCallExpr>(Cur);
                 At && At->getMethodDecl() && At->getMethodDecl()->getDeclName().isIdentifier() &&
                 At->getMethodDecl()->getName() == "at" && At->getNumArgs() == 1 &&
                 subscriptNamesOwnElement(At->getImplicitObjectArgument()->getType())) {
        Subscripts.insert(Subscripts.begin(), At->getArg(0));
        Cur = At->getImplicitObjectArgument()->IgnoreParenImpCasts();
      } else {
        break;
      }
      Chain.push_back(Cur);
    }
    // `(p + 1)[k]`: the offset adds to the outermost subscript.
    PointerSum Sum;
    addTerms(Cur, Sum);
    if (!Sum.Terms.empty())
      Subscripts.front() = sumOf(Subscripts.front(), Sum.Terms, Ctx);
    Base = Sum.Root;
  }
  return Out;
}

} // namespace gpuautopar
