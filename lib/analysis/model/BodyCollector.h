// The one walk over an annotated loop's body that fills its BodyModel
// (internal to lib/analysis/model): BodyModel.cpp holds how it reads
// statements, element accesses and writes, BodyCalls.cpp how it reads calls.
#pragma once

#include "model/BodyModel.h"
#include "model/BodyShapes.h"
#include "model/CallEffects.h"
#include "ExprHelpers.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

namespace gpuautopar::bodymodel {

using namespace clang;

// A loop or switch around a statement of the body.
struct Scope {
  const Stmt *Loop;         // null: a switch
  const InnerLoop *Counted; // null: not a counted loop
};

class Collector : public DynamicRecursiveASTVisitor {
public:
  Collector(const LoopAnalysis &A, ASTContext &Ctx, BodyModel &M)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), M(M), BodyRange(A.Loop->body()->getSourceRange()) {
    M.Induction = A.Loop->Induction;
    M.LoopRange = A.Loop->Loop ? A.Loop->Loop->getSourceRange() : A.Loop->RangeFor->getSourceRange();
    if (A.Loop->RangeFor) {
      RangeVar = A.Loop->RangeFor->getLoopVariable();
      RangeContainer = A.Loop->RangeContainer;
      RangeInit = A.Loop->RangeFor->getRangeInit();
    }
    for (const ReductionClause &R : A.Clauses.Reductions)
      Reductions.emplace_back(R.Var, Ctx);
  }

  void run(const Stmt *Body);

  bool TraverseForStmt(ForStmt *S) override;
#define OPAQUE_SCOPE(CLASS, IS_SWITCH)                                                                              \
  bool Traverse##CLASS(CLASS *S) override {                                                                         \
    Around.push_back(Enclosing{});                                                                                  \
    Scopes.push_back({IS_SWITCH ? nullptr : S, nullptr});                                                           \
    bool R = DynamicRecursiveASTVisitor::Traverse##CLASS(S);                                                        \
    Scopes.pop_back();                                                                                              \
    Around.pop_back();                                                                                              \
    return R;                                                                                                       \
  }
  OPAQUE_SCOPE(WhileStmt, false)
  OPAQUE_SCOPE(DoStmt, false)
  OPAQUE_SCOPE(CXXForRangeStmt, false)
  OPAQUE_SCOPE(SwitchStmt, true)
#undef OPAQUE_SCOPE
  bool TraverseIfStmt(IfStmt *S) override;
  // The branches of ?:, and the right side of && and ||, may not run.
  bool TraverseConditionalOperator(ConditionalOperator *E) override {
    if (!TraverseStmt(E->getCond()))
      return false;
    return opaque([&] { return TraverseStmt(E->getTrueExpr()) && TraverseStmt(E->getFalseExpr()); });
  }
  bool TraverseBinaryOperator(BinaryOperator *B) override {
    if (!B->isLogicalOp())
      return DynamicRecursiveASTVisitor::TraverseBinaryOperator(B);
    if (!WalkUpFromBinaryOperator(B) || !TraverseStmt(B->getLHS()))
      return false;
    return opaque([&] { return TraverseStmt(B->getRHS()); });
  }
  bool TraverseLambdaExpr(LambdaExpr *E) override {
    ++Lambdas;
    bool R = opaque([&] { return DynamicRecursiveASTVisitor::TraverseLambdaExpr(E); });
    --Lambdas;
    return R;
  }

  // A `break` leaves the innermost loop or switch; a `continue` goes on with
  // the innermost loop, skipping switches (`case 0: continue;` ends the
  // annotated loop's iteration when no loop lies between).
  bool VisitBreakStmt(BreakStmt *S) override {
    if (Scopes.empty() && Lambdas == 0)
      M.JumpsOut.push_back({S->getBeginLoc(), "break"});
    else if (!Scopes.empty())
      leaves(Scopes.back());
    return true;
  }
  bool VisitContinueStmt(ContinueStmt *S) override;
  bool VisitReturnStmt(ReturnStmt *S) override {
    if (Lambdas == 0)
      M.JumpsOut.push_back({S->getReturnLoc(), "return"});
    return true;
  }
  bool VisitGotoStmt(GotoStmt *S) override {
    const LabelStmt *Target = S->getLabel()->getStmt();
    if (!Target || !inside(SM, BodyRange, Target->getBeginLoc()))
      M.JumpsOut.push_back({S->getGotoLoc(), "goto"});
    M.HasJumps = true;
    return true;
  }
  bool VisitCXXThrowExpr(CXXThrowExpr *E) override {
    M.HasJumps = true;
    M.Constructs.push_back({BodyModel::Construct::Throw, E});
    if (Tries == 0 && Lambdas == 0)
      M.Throws.push_back(E);
    return true;
  }
  bool TraverseCXXTryStmt(CXXTryStmt *S) override;
  bool VisitCXXConstructExpr(CXXConstructExpr *E) override {
    M.Constructs.push_back({BodyModel::Construct::Construction, E});
    return true;
  }
  bool VisitCXXNewExpr(CXXNewExpr *E) override {
    M.Constructs.push_back({BodyModel::Construct::New, E});
    return true;
  }
  bool VisitCXXDeleteExpr(CXXDeleteExpr *E) override {
    M.Constructs.push_back({BodyModel::Construct::Delete, E});
    return true;
  }
  bool VisitCXXTryStmt(CXXTryStmt *S) override {
    M.Constructs.push_back({BodyModel::Construct::Try, nullptr, S});
    return true;
  }

  bool VisitVarDecl(VarDecl *V) override;

  bool VisitBinaryOperator(BinaryOperator *B) override {
    for (ReductionMatcher &R : Reductions)
      R.binary(B);
    if (B->isAssignmentOp())
      written(B->getLHS(), B->isCompoundAssignmentOp(), false);
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *U) override;
  bool VisitArraySubscriptExpr(ArraySubscriptExpr *E) override {
    element(E);
    return true;
  }
  bool VisitImplicitCastExpr(ImplicitCastExpr *E) override;
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *E) override;
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *E) override;
  bool VisitCallExpr(CallExpr *E) override;

  void escapes(const CallExpr *E, const FunctionDecl *F);
  void handedRow(const Expr *Row, const PointerParam &P);
  bool firstWritten(const Expr *Arg, const Expr *Bare, const VarDecl *Target, const PointerParam &P);

  void calleeEffects(const CallExpr *E, const FunctionDecl *F);
  // "calls 'g', which may have ...".
  static std::string unseenThrough(const CallEffects &C) {
    return "calls '" + C.Unseen + "', which " + C.UnseenWhy;
  }

  void returnedReference(const CallExpr *E, const FunctionDecl *F);
  // `d.x(i)` with an inline accessor `T &x(Index i) { return m_x[i]; }`: the
  // element `d.m_x[i]`, recorded as such; false for any other call.
  bool accessorElement(const CXXMemberCallExpr *E, const CXXMethodDecl *Method);

  bool VisitDeclRefExpr(DeclRefExpr *E) override;

  void rangeElement();
  size_t RangeElementIndex = ~size_t(0);

private:

  template <class F> bool opaque(F Traverse) {
    Around.push_back(Enclosing{});
    bool R = Traverse();
    Around.pop_back();
    return R;
  }

  bool isLambdaCall(const CallExpr *E) const {
    const Expr *Callee = E->getCallee()->IgnoreParenImpCasts();
    return Callee->getType()->isDependentType();
  }

  // A break or continue of an inner loop: a counted one stops being counted
  // (its later iterations, or the rest of its body, may not run); an opaque
  // one or a switch is opaque already.
  void leaves(const Scope &S) {
    if (S.Counted)
      const_cast<InnerLoop *>(S.Counted)->Irregular = true;
  }

  // `for (j = lo; j < ub; ++j)` as a counted loop, or null.
  const InnerLoop *counted(const ForStmt *S) {
    std::optional<InnerLoop> L = countedLoop(S, M.Induction, Ctx);
    if (!L)
      return nullptr;
    M.InnerLoops.push_back(*L);
    return &M.InnerLoops.back();
  }

  Access access(const Expr *E) const;

  void written(const Expr *T, bool AlsoRead, bool Maybe);
  void note(const Expr *T, bool AlsoRead, bool Maybe) {
    auto [It, New] = WriteTargets.try_emplace(T, AlsoRead, Maybe);
    if (!New) {
      It->second.first |= AlsoRead;
      It->second.second &= Maybe;
    }
  }

  void throughAlias(const VarDecl *Local, const Expr *E) {
    auto It = LocalAliases.find(Local);
    if (It != LocalAliases.end() && Lambdas == 0)
      M.AliasWrites.push_back({Local, It->second, E});
  }

  const VarDecl *outsideObjectIn(const Expr *E) const;

  void element(const Expr *E);

  ASTContext &Ctx;
  const SourceManager &SM;
  BodyModel &M;
  SourceRange BodyRange;
  const VarDecl *RangeVar = nullptr, *RangeContainer = nullptr;
  const Expr *RangeInit = nullptr;
  bool RangeVarWritten = false, RangeVarMayWrite = true;
  int Lambdas = 0;
  unsigned Tries = 0; // try blocks around the statement visited
  bool Exited = false;
  CallEffectsCache Effects;
  std::vector<Enclosing> Around;
  std::vector<Scope> Scopes;                // enclosing loops and switches, innermost last
  std::vector<ReductionMatcher> Reductions; // one per variable of the reduction clauses
  // written expression -> (also read, only maybe written)
  llvm::DenseMap<const Expr *, std::pair<bool, bool>> WriteTargets;
  std::vector<std::pair<const DeclRefExpr *, const VarDecl *>> VarWrites;
  llvm::DenseMap<const VarDecl *, const VarDecl *> LocalAliases; // body pointer/reference -> outside object
  llvm::DenseMap<const Expr *, const VarDecl *> BoundTo;          // initialiser -> the reference it binds
  llvm::DenseMap<const VarDecl *, size_t> ElementOf;              // reference -> the element access it is
  llvm::DenseSet<const Expr *> Consumed;                         // parts of an element access already recorded
  llvm::DenseSet<const Expr *> RowsWritten, ConstRows; // rows that decay to pointers to non-const / const
  // Rows handed to a visible function that stays inside them (escapes()).
  llvm::DenseSet<const Expr *> RowsInside;
  llvm::DenseSet<const Expr *> AddressOf, SizeOf;      // operands of `&`, objects of `.size()`/`.empty()`
  llvm::DenseSet<const Expr *> Loaded;                 // operands of lvalue-to-rvalue conversions
};

} // namespace gpuautopar::bodymodel
