#include "model/ReachingValue.h"

#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>

namespace gpuautopar {

using namespace clang;

// Named, not anonymous: a unity build batches this file with others.
namespace reaching {

using Path = llvm::SmallVector<const Stmt *, 16>;

// The statements from `From` down to `Target`, both included. A lambda's
// body runs where the lambda is called, not where it stands: reads inside
// one have no reaching assignment here.
bool pathTo(const Stmt *From, const Stmt *Target, Path &P) {
  if (!From)
    return false;
  P.push_back(From);
  if (From == Target)
    return true;
  if (!isa<LambdaExpr>(From))
    for (const Stmt *Child : From->children())
      if (pathTo(Child, Target, P))
        return true;
  P.pop_back();
  return false;
}

// Whether `S` may change `V`: any use of it but reading its value (an
// assignment, an increment, its address, a reference bound to it, a lambda
// capturing it by reference).
bool mayChange(const Stmt *S, const VarDecl *V) {
  if (!S)
    return false;
  if (const auto *Cast = dyn_cast<ImplicitCastExpr>(S); Cast && Cast->getCastKind() == CK_LValueToRValue)
    if (const auto *Ref = dyn_cast<DeclRefExpr>(Cast->getSubExpr()->IgnoreParens()); Ref && Ref->getDecl() == V)
      return false;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
    return Ref->getDecl() == V;
  if (const auto *L = dyn_cast<LambdaExpr>(S)) {
    for (const LambdaCapture &C : L->captures())
      if (C.capturesVariable() && C.getCapturedVar() == V && C.getCaptureKind() == LCK_ByRef)
        return true;
    return llvm::any_of(L->capture_inits(), [&](const Expr *Init) { return mayChange(Init, V); });
  }
  return llvm::any_of(S->children(), [&](const Stmt *Child) { return mayChange(Child, V); });
}

// Whether every use of `V` in `S` reads it or assigns it as a whole (`v =`,
// `v +=`, `++v`): then nothing but those statements can change it (no
// pointer or reference to it exists).
bool onlyReadOrAssigned(const Stmt *S, const VarDecl *V) {
  if (!S)
    return true;
  auto names = [&](const Expr *E) {
    const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParens());
    return Ref && Ref->getDecl() == V;
  };
  if (const auto *Cast = dyn_cast<ImplicitCastExpr>(S); Cast && Cast->getCastKind() == CK_LValueToRValue && names(Cast->getSubExpr()))
    return true;
  if (const auto *B = dyn_cast<BinaryOperator>(S); B && B->isAssignmentOp() && names(B->getLHS()))
    return onlyReadOrAssigned(B->getRHS(), V);
  if (const auto *U = dyn_cast<UnaryOperator>(S); U && U->isIncrementDecrementOp() && names(U->getSubExpr()))
    return true;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
    return Ref->getDecl() != V;
  if (const auto *L = dyn_cast<LambdaExpr>(S)) {
    for (const LambdaCapture &C : L->captures())
      if (C.capturesVariable() && C.getCapturedVar() == V && C.getCaptureKind() == LCK_ByRef)
        return false;
    return llvm::all_of(L->capture_inits(), [&](const Expr *Init) { return onlyReadOrAssigned(Init, V); });
  }
  return llvm::all_of(S->children(), [&](const Stmt *Child) { return onlyReadOrAssigned(Child, V); });
}

// The value `S` gives `V` when it is `v = e;` or the declaration `T v = e;`.
const Expr *assignedValue(const Stmt *S, const VarDecl *V) {
  if (const auto *Cleanups = dyn_cast<ExprWithCleanups>(S))
    S = Cleanups->getSubExpr();
  if (const auto *B = dyn_cast<BinaryOperator>(S); B && B->getOpcode() == BO_Assign) {
    const auto *Ref = dyn_cast<DeclRefExpr>(B->getLHS()->IgnoreParens());
    return Ref && Ref->getDecl() == V ? B->getRHS() : nullptr;
  }
  if (const auto *D = dyn_cast<DeclStmt>(S); D && D->isSingleDecl() && D->getSingleDecl() == V)
    return V->getInit();
  return nullptr;
}

bool isLoop(const Stmt *S) { return isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S); }

// Whether nothing on the way from level `From` of `P` (a compound statement
// holding the assignment at `After`, or the start of an iteration when
// After is null) down to the read at the end of `P` may change `V`: the
// statements between, every loop around the read below that level (a later
// round may follow a change anywhere in it), and the statement that holds
// the read.
bool unchangedOnTheWay(const Path &P, size_t From, const Stmt *After, const VarDecl *V) {
  for (size_t L = From; L + 1 < P.size(); ++L) {
    const Stmt *Parent = P[L], *Child = P[L + 1];
    if (const auto *Block = dyn_cast<CompoundStmt>(Parent)) {
      bool Between = L != From || After == nullptr;
      for (const Stmt *S : Block->body()) {
        if (S == Child)
          break;
        if (Between && mayChange(S, V))
          return false;
        if (S == After)
          Between = true;
      }
      continue;
    }
    if (L == From)
      continue;
    if (isLoop(Parent)) {
      // A later round of this loop may follow a change anywhere in it.
      if (mayChange(Parent, V))
        return false;
      continue;
    }
    if (const auto *If = dyn_cast<IfStmt>(Parent)) {
      if (Child != If->getThen() && Child != If->getElse())
        return !mayChange(Parent, V);
      if (mayChange(If->getInit(), V) || mayChange(If->getCond(), V) ||
          (If->getConditionVariableDeclStmt() && mayChange(If->getConditionVariableDeclStmt(), V)))
        return false;
      continue;
    }
    // `v = v + 1`: the right side is read before the assignment writes.
    if (const auto *B = dyn_cast<BinaryOperator>(Parent); B && B->getOpcode() == BO_Assign && Child == B->getRHS()) {
      const auto *Target = dyn_cast<DeclRefExpr>(B->getLHS()->IgnoreParens());
      if (Target && Target->getDecl() == V)
        continue;
    }
    // The statement or expression that holds the read: nothing in it may
    // change V (`a[i] = i++` is not read as a[i]).
    return !mayChange(Parent, V);
  }
  return true;
}

// The variables `E` names.
void namedVariables(const Stmt *S, llvm::SmallVectorImpl<const VarDecl *> &Out) {
  if (!S)
    return;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
    if (const auto *V = dyn_cast<VarDecl>(Ref->getDecl()); V && !llvm::is_contained(Out, V))
      Out.push_back(V);
  for (const Stmt *Child : S->children())
    namedVariables(Child, Out);
}

} // namespace reaching

const Expr *reachingValue(const Stmt *Body, const DeclRefExpr *Use) {
  using namespace reaching;
  const auto *V = dyn_cast<VarDecl>(Use->getDecl());
  if (!V || !V->hasLocalStorage() || V->getType()->isReferenceType() || !V->getType()->isIntegerType())
    return nullptr;
  const auto *Function = dyn_cast_or_null<FunctionDecl>(V->getParentFunctionOrMethod());
  if (!Function || !onlyReadOrAssigned(Function->getBody(), V))
    return nullptr;
  Path P;
  if (!pathTo(Body, Use, P))
    return nullptr;
  // From the read up to the loop's body: the last assignment before it in
  // each block around it, crossing only `if`s and loops that leave V alone.
  for (size_t L = P.size() - 1; L-- > 0;) {
    const Stmt *Parent = P[L], *Child = P[L + 1];
    if (const auto *Block = dyn_cast<CompoundStmt>(Parent)) {
      auto At = llvm::find(Block->body(), Child);
      for (auto It = std::make_reverse_iterator(At); It != Block->body_rend(); ++It) {
        if (const Expr *Value = assignedValue(*It, V)) {
          if (!unchangedOnTheWay(P, L, *It, V))
            return nullptr;
          llvm::SmallVector<const VarDecl *, 4> Named;
          namedVariables(Value, Named);
          // Integers the value reads must keep their values up to the read.
          // An array's elements (`grid_points[0]`) are the linearizer's to
          // judge: it reads one as a value only where the body writes none.
          for (const VarDecl *W : Named)
            if (W != V && W->getType()->isIntegerType() && !unchangedOnTheWay(P, L, *It, W))
              return nullptr;
          return Value;
        }
        if (mayChange(*It, V))
          return nullptr;
      }
      continue;
    }
    if (isLoop(Parent) || isa<IfStmt>(Parent) || isa<Expr>(Parent) || isa<DeclStmt>(Parent) ||
        isa<ReturnStmt>(Parent))
      continue; // checked on the way down from the assignment
    return nullptr; // a switch, a label, a try: not followed
  }
  return nullptr; // assigned in an earlier iteration or before the loop
}

} // namespace gpuautopar
