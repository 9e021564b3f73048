#include "ScalarUses.h"
#include "ReductionCheck.h"
#include "gpuautopar/ClauseParser.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

namespace gpuautopar {
namespace {

using namespace clang;

// One walk of a body in evaluation order, carrying whether `V` is written
// on every path so far; stops at the first read that is not.
class FirstRead {
public:
  explicit FirstRead(const VarDecl *V) : V(V) {}
  const Expr *Found = nullptr;

  // Whether `V` is written on every path through `S` (given `W`, whether it
  // is on entry). A path that leaves (continue, break, return, throw, goto)
  // reaches nothing after it: it counts as written.
  bool stmt(const Stmt *S, bool W) {
    if (!S || Found)
      return W;
    if (const auto *E = dyn_cast<Expr>(S))
      return expr(E, W);
    if (isa<ContinueStmt, BreakStmt, ReturnStmt, GotoStmt, IndirectGotoStmt>(S))
      return true;
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      W = stmt(If->getInit(), W);
      W = stmt(If->getConditionVariableDeclStmt(), W);
      W = stmt(If->getCond(), W);
      const bool Then = stmt(If->getThen(), W);
      const bool Else = If->getElse() ? stmt(If->getElse(), W) : W;
      return Then && Else;
    }
    if (const auto *For = dyn_cast<ForStmt>(S)) {
      // An inner loop's writes count after it, as if it ran at least once:
      // an error must not rest on a loop that runs no iteration.
      W = stmt(For->getInit(), W);
      W = stmt(For->getConditionVariableDeclStmt(), W);
      W = stmt(For->getCond(), W);
      W = stmt(For->getBody(), W);
      return stmt(For->getInc(), W);
    }
    if (const auto *D = dyn_cast<DeclStmt>(S)) {
      for (const Decl *X : D->decls())
        if (const auto *Local = dyn_cast<VarDecl>(X))
          W = stmt(Local->getInit(), W);
      return W;
    }
    return children(S, W);
  }

private:
  bool children(const Stmt *S, bool W) {
    for (const Stmt *C : S->children())
      W = stmt(C, W);
    return W;
  }

  // `V`, or an element of it (`tmp[k]`, `tmp[k][l]` of a built-in array).
  bool names(const Expr *E) const;

  bool read(const Expr *E, bool W) {
    if (!W && !Found && Record)
      Found = E;
    return W;
  }

public:
  bool Record = true; // false: only whether V is written on every path

  bool expr(const Expr *E, bool W) {
    if (const auto *D = dyn_cast<DeclRefExpr>(E))
      // Neither loaded nor assigned by a parent: its address is taken, a
      // reference or a call's reference parameter is bound to it, or it is
      // assigned (`v = x`, reached after the right side). It may be
      // written from here on.
      return D->getDecl() == V ? true : W;
    if (const auto *Cast = dyn_cast<ImplicitCastExpr>(E); Cast && Cast->getCastKind() == CK_LValueToRValue &&
                                                          names(Cast->getSubExpr())) {
      W = read(Cast, W);
      // A load writes nothing: only the subscripts on the way to V are walked.
      for (const Expr *E = Cast->getSubExpr()->IgnoreParens(); const auto *AS = dyn_cast<ArraySubscriptExpr>(E);
           E = cast<ImplicitCastExpr>(AS->getBase()->IgnoreParens())->getSubExpr()->IgnoreParens())
        W = stmt(AS->getIdx(), W);
      return W;
    }
    if (const auto *B = dyn_cast<BinaryOperator>(E)) {
      if (B->isLogicalOp()) {
        W = stmt(B->getLHS(), W);
        stmt(B->getRHS(), W); // may not run
        return W;
      }
      if (B->isAssignmentOp()) {
        // The right side is evaluated first (C++17).
        W = stmt(B->getRHS(), W);
        if (B->isCompoundAssignmentOp() && names(B->getLHS()))
          W = read(B->getLHS(), W);
        W = stmt(B->getLHS(), W);
        return W || names(B->getLHS());
      }
    }
    if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->isIncrementDecrementOp() && names(U->getSubExpr())) {
      W = read(U->getSubExpr(), W);
      return stmt(U->getSubExpr(), W) || true;
    }
    if (const auto *C = dyn_cast<AbstractConditionalOperator>(E)) {
      W = stmt(C->getCond(), W);
      const bool True = stmt(C->getTrueExpr(), W);
      const bool False = stmt(C->getFalseExpr(), W);
      return True && False;
    }
    if (const auto *L = dyn_cast<LambdaExpr>(E)) {
      for (const LambdaCapture &C : L->captures())
        if (C.capturesVariable() && C.getCapturedVar() == V)
          return true;
      return W; // its body runs when it is called, which is not followed
    }
    if (isa<UnaryExprOrTypeTraitExpr>(E) || isa<CXXThrowExpr>(E))
      return isa<CXXThrowExpr>(E) ? true : W;
    return children(E, W);
  }

  const VarDecl *V;
};

const DeclRefExpr *rootOf(const Expr *E, const VarDecl *V);
bool FirstRead::names(const Expr *E) const { return rootOf(E, V) != nullptr; }

// `V` itself or an element of it, as an lvalue: the DeclRefExpr at its root.
const DeclRefExpr *rootOf(const Expr *E, const VarDecl *V) {
  E = E->IgnoreParens();
  for (;;) {
    if (const auto *D = dyn_cast<DeclRefExpr>(E))
      return D->getDecl() == V ? D : nullptr;
    const auto *AS = dyn_cast<ArraySubscriptExpr>(E);
    if (!AS)
      return nullptr;
    const auto *Decay = dyn_cast<ImplicitCastExpr>(AS->getBase()->IgnoreParens());
    if (!Decay || Decay->getCastKind() != CK_ArrayToPointerDecay)
      return nullptr;
    E = Decay->getSubExpr()->IgnoreParens();
  }
}

// Drives a ReductionMatcher over a body in the order the body model does (a
// statement before its parts).
class MatcherDriver : public DynamicRecursiveASTVisitor {
public:
  explicit MatcherDriver(ReductionMatcher &M) : M(M) {}
  bool TraverseIfStmt(IfStmt *S) override {
    M.ifStmt(S);
    return DynamicRecursiveASTVisitor::TraverseIfStmt(S);
  }
  bool VisitBinaryOperator(BinaryOperator *B) override {
    M.binary(B);
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *U) override {
    M.unary(U);
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) override {
    M.declRef(E);
    return true;
  }

private:
  ReductionMatcher &M;
};

} // namespace

bool tracksScalarUses(const VarDecl *V) {
  QualType T = V->getType();
  if (T->isReferenceType())
    return false;
  while (const ArrayType *AT = T->getAsArrayTypeUnsafe())
    T = AT->getElementType();
  return T->isScalarType();
}

bool writtenOnEveryPath(const Stmt *Body, const VarDecl *V) {
  FirstRead Walk(V);
  Walk.Record = false;
  return Walk.stmt(Body, false);
}

const Expr *readBeforeWrite(const Stmt *Body, const VarDecl *V) {
  FirstRead Walk(V);
  Walk.stmt(Body, false);
  return Walk.Found;
}

std::string sharedWriteAdvice(const Stmt *Body, const VarDecl *V, ASTContext &Ctx) {
  const std::string Name = V->getNameAsString();
  const QualType T = V->getType().getNonReferenceType();
  if (T->isArithmeticType())
    if (std::optional<ReductionOp> Op = reductionItIs(Body, V, Ctx)) {
      const std::string Clause = std::string("reduction(") + spelling(*Op) + ": " + Name + ")";
      if (storesFlag(Body, V, Ctx))
        return std::string("every write stores ") + (*Op == ReductionOp::LogicalOr ? "1" : "0") +
               ", which a '" + Clause + "' clause gives when it holds 0 or 1 before the loop: add it to one";
      return std::string("every use updates it with '") + spelling(*Op) + "': add it to a '" + Clause + "' clause";
    }
  if (V->getType()->isReferenceType())
    return "it is a reference, so every iteration writes the object it names, which a private(...) copy would "
           "not reach; write a local variable of the body instead, or a reduction(...) if it accumulates";
  if (!tracksScalarUses(V))
    return "iterations share it; a private(...) copy per iteration would leave it unchanged, so declare the "
           "object inside the loop body if each iteration needs its own";
  if (const Expr *Read = readBeforeWrite(Body, V); Read && Read->getBeginLoc().isValid())
    return "an iteration reads it before writing it, so it needs the value an earlier iteration left: neither "
           "private(...) (whose copy would start empty) nor a reduction(...) holds that; the iterations depend "
           "on each other";
  return "every iteration writes it before reading it: add it to a private(...) clause (lastprivate(...) if "
         "its value after the loop is used)";
}

std::vector<LegalityVerdict::Reason> privateReadsBeforeWrites(const LoopAnalysis &A, const Stmt *Body, bool OpenMP) {
  std::vector<LegalityVerdict::Reason> Out;
  for (const LoopClauses::PrivateName &P : A.Clauses.PrivateNames) {
    if (!P.Var || !tracksScalarUses(P.Var))
      continue;
    const bool First = llvm::is_contained(A.Clauses.FirstPrivates, P.Var);
    const Expr *Read = readBeforeWrite(Body, P.Var);
    if (!Read)
      continue;
    // A firstprivate copy is the value before the loop in every iteration
    // that no earlier one changed: where not every iteration writes it
    // (`if (i == n - 1) v = v * 2;`), the tool cannot tell which do, and
    // leaves it be.
    if (First && !writtenOnEveryPath(Body, P.Var))
      continue;
    std::string Why;
    if (OpenMP)
      Why = First ? "the program relies on OpenMP's firstprivate copy per thread, which starts from the value "
                    "before the loop once per thread and then carries what the thread's previous iteration "
                    "left; gpu-autopar gives every iteration its own copy of the value before the loop"
                  : "the program relies on OpenMP's private copy per thread, which carries what the thread's "
                    "previous iteration left; gpu-autopar gives every iteration its own uninitialised copy";
    else
      Why = First ? "every iteration's firstprivate copy starts from the value before the loop: there is no "
                    "previous iteration on a GPU whose value it could carry over"
                  : "every iteration's private copy starts uninitialised: there is no previous iteration on a "
                    "GPU whose value it could carry over";
    if (std::optional<ReductionOp> Op =
            P.Var->getType()->isArithmeticType() ? reductionItIs(Body, P.Var, P.Var->getASTContext()) : std::nullopt)
      Why += std::string("; if it accumulates over the loop, use 'reduction(") + spelling(*Op) + ": " +
             P.Var->getNameAsString() + ")'";
    Out.push_back({LegalityVerdict::Dependent,
                   Finding{Diag::PrivateReadBeforeWrite, Read->getExprLoc(), {P.Var->getNameAsString(), Why}},
                   {Finding{Diag::NoteDataSharingClause, P.Loc, {P.Clause}}}});
  }
  return Out;
}

bool storesFlag(const Stmt *Body, const VarDecl *V, ASTContext &Ctx) {
  ReductionMatcher M(V, Ctx);
  MatcherDriver(M).TraverseStmt(const_cast<Stmt *>(Body));
  return !M.Uses.Updates.empty() && llvm::all_of(M.Uses.Updates, [](const ReductionUpdate &U) {
    return U.Spelling == "= 1" || U.Spelling == "= 0";
  });
}

std::optional<ReductionOp> reductionItIs(const Stmt *Body, const VarDecl *V, ASTContext &Ctx) {
  ReductionMatcher M(V, Ctx);
  MatcherDriver(M).TraverseStmt(const_cast<Stmt *>(Body));
  if (M.Uses.Updates.empty() || !M.Uses.Misuses.empty())
    return std::nullopt;
  std::optional<ReductionOp> Op = M.Uses.Updates.front().Op;
  for (const ReductionUpdate &U : M.Uses.Updates)
    if (!U.Op || U.Op != Op)
      return std::nullopt;
  return Op;
}

} // namespace gpuautopar
