#include "model/BodyModel.h"
#include "model/BodyShapes.h"
#include "model/CallEffects.h"
#include "ExprHelpers.h"
#include "FunctionKinds.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <algorithm>
#include <cassert>

namespace gpuautopar {
namespace {

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

  void run(const Stmt *Body) {
    TraverseStmt(const_cast<Stmt *>(Body));
    // A counted loop whose variable is also written in its body is not counted.
    for (InnerLoop &L : M.InnerLoops)
      for (const auto &[E, V] : VarWrites)
        if (V == L.Var && inside(SM, L.Stmt->getBody()->getSourceRange(), E->getExprLoc()))
          L.Irregular = true;
    if (RangeVar)
      rangeElement();
    for (ReductionMatcher &R : Reductions)
      M.Reductions[R.variable()] = std::move(R.Uses);
  }

  // Nested loops and switches own their `break`s; lambdas own their `return`s.
  bool TraverseForStmt(ForStmt *S) override {
    TraverseStmt(S->getInit());
    const InnerLoop *L = Lambdas == 0 ? counted(S) : nullptr;
    Around.push_back(L ? Enclosing{Enclosing::Counted, L} : Enclosing{});
    Scopes.push_back({S, L});
    bool R = TraverseStmt(S->getCond()) && TraverseStmt(S->getInc()) && TraverseStmt(S->getBody());
    Scopes.pop_back();
    Around.pop_back();
    return R;
  }
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
  bool TraverseIfStmt(IfStmt *S) override {
    for (ReductionMatcher &R : Reductions)
      R.ifStmt(S);
    if (!TraverseStmt(S->getInit()) || !TraverseStmt(S->getConditionVariableDeclStmt()) ||
        !TraverseStmt(S->getCond()))
      return false;
    const Expr *Cond = S->getConditionVariable() || S->isConsteval() ? nullptr : S->getCond();
    Around.push_back(Cond ? Enclosing{Enclosing::Guard, nullptr, Cond, true} : Enclosing{});
    bool R = TraverseStmt(S->getThen());
    Around.back().Holds = false;
    R = R && TraverseStmt(S->getElse());
    Around.pop_back();
    return R;
  }
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
  bool VisitContinueStmt(ContinueStmt *S) override {
    auto Loop = std::find_if(Scopes.rbegin(), Scopes.rend(), [](const Scope &X) { return X.Loop; });
    const Stmt *Target = Loop != Scopes.rend() ? Loop->Loop : nullptr;
    if (Target)
      leaves(*Loop);
    else if (Lambdas == 0)
      Exited = true; // later accesses of this iteration may not run
    if (Lambdas == 0)
      M.Continues.push_back({S, Target});
    return true;
  }
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
  // An exception the body catches itself does not leave the iteration.
  bool TraverseCXXTryStmt(CXXTryStmt *S) override {
    if (!WalkUpFromCXXTryStmt(S))
      return false;
    ++Tries;
    bool R = TraverseStmt(S->getTryBlock());
    --Tries;
    for (unsigned I = 0; R && I < S->getNumHandlers(); ++I)
      R = TraverseStmt(S->getHandler(I));
    return R;
  }
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

  // `float *row = &a[i * n];` or `float &r = a[k];` in the body: writes
  // through `row` / `r` reach `a`, which the subscript test cannot follow.
  bool VisitVarDecl(VarDecl *V) override {
    if (V->isStaticLocal())
      M.Constructs.push_back({BodyModel::Construct::StaticLocal, nullptr, nullptr, V});
    QualType T = V->getType();
    if (!V->hasInit() || !(T->isPointerType() || T->isReferenceType()))
      return true;
    // Reads through a pointer to const reach the object too (a reference
    // to const is the element it binds, read where it is bound).
    const bool Const = T->getPointeeType().isConstQualified() || T.getNonReferenceType().isConstQualified();
    if (const VarDecl *Target = outsideObjectIn(V->getInit()); Target && !(Const && T->isReferenceType()))
      LocalAliases[V] = Target;
    if (Const)
      return true;
    // `float &r = a[i];`, `auto &p = pts[i];`: r is that element (visited
    // below, after this declaration), and writing r writes it.
    if (T->isLValueReferenceType() && !T.getNonReferenceType()->isArrayType() && Lambdas == 0)
      BoundTo[V->getInit()->IgnoreParens()] = V;
    return true;
  }

  bool VisitBinaryOperator(BinaryOperator *B) override {
    for (ReductionMatcher &R : Reductions)
      R.binary(B);
    if (B->isAssignmentOp())
      written(B->getLHS(), B->isCompoundAssignmentOp(), false);
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *U) override {
    for (ReductionMatcher &R : Reductions)
      R.unary(U);
    if (U->isIncrementDecrementOp())
      written(U->getSubExpr(), true, false);
    else if (U->getOpcode() == UO_Deref)
      element(U);
    else if (U->getOpcode() == UO_AddrOf)
      AddressOf.insert(U->getSubExpr()->IgnoreParens()); // visited before the element below it
    return true;
  }
  bool VisitArraySubscriptExpr(ArraySubscriptExpr *E) override {
    element(E);
    return true;
  }
  // Visited before the row it converts: `f(m[i])`, `double *r = m[i];`
  // (a conversion to a pointer to const comes first, around the decay).
  bool VisitImplicitCastExpr(ImplicitCastExpr *E) override {
    const Expr *Sub = E->getSubExpr()->IgnoreParens();
    if (E->getCastKind() == CK_LValueToRValue)
      Loaded.insert(Sub); // visited before the element below it
    if (E->getCastKind() == CK_NoOp && E->getType()->isPointerType() &&
        E->getType()->getPointeeType().isConstQualified())
      if (const auto *Decay = dyn_cast<ImplicitCastExpr>(Sub); Decay && Decay->getCastKind() == CK_ArrayToPointerDecay)
        ConstRows.insert(Decay->getSubExpr()->IgnoreParens());
    if (E->getCastKind() == CK_ArrayToPointerDecay && !E->getType()->getPointeeType().isConstQualified() &&
        !ConstRows.count(Sub))
      RowsWritten.insert(Sub);
    return true;
  }
  // `v.at(k)` is `v[k]`.
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *E) override {
    const CXXMethodDecl *Method = E->getMethodDecl();
    if (Method && Method->getDeclName().isIdentifier() && Method->getName() == "at" && E->getNumArgs() == 1)
      element(E);
    // `v.size()`, `v.empty()`: visited before the `v` below it.
    if (Method && Method->getDeclName().isIdentifier() && E->getNumArgs() == 0 &&
        (Method->getName() == "size" || Method->getName() == "empty"))
      SizeOf.insert(E->getImplicitObjectArgument()->IgnoreParenImpCasts());
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *E) override {
    if (E->isAssignmentOp())
      written(E->getArg(0), E->getOperator() != OO_Equal, false);
    else if (E->getOperator() == OO_PlusPlus || E->getOperator() == OO_MinusMinus)
      written(E->getArg(0), true, false);
    else if (E->getOperator() == OO_Subscript)
      element(E);
    return true;
  }
  bool VisitCallExpr(CallExpr *E) override {
    M.Constructs.push_back({isa<CUDAKernelCallExpr>(E) ? BodyModel::Construct::KernelLaunch
                                                       : BodyModel::Construct::Call,
                            E});
    if (const auto *K = dyn_cast<CUDAKernelCallExpr>(E)) {
      if (Lambdas == 0)
        M.KernelLaunches.push_back(K);
      return true;
    }
    const FunctionDecl *F = E->getDirectCallee();
    if (!F) {
      if (Lambdas == 0 && !isLambdaCall(E))
        M.UnseenCalls.push_back({E, "", "is made through a pointer or std::function"});
      return true;
    }
    const auto *Method = dyn_cast<CXXMethodDecl>(F);
    if (isa<CXXOperatorCallExpr>(E)) {
      if (Lambdas == 0 && isInputOutput(F))
        M.InputOutput.push_back({E, "operator" + std::string(getOperatorSpelling(F->getOverloadedOperator()))});
      if (Method && Method->getOverloadedOperator() == OO_Call && Method->getParent()->isInStdNamespace() &&
          Lambdas == 0)
        M.UnseenCalls.push_back({E, sourceText(E->getArg(0), Ctx), "is made through a std::function"});
    } else {
      // An argument bound to a non-const reference may be written.
      for (unsigned K = 0; K < E->getNumArgs() && K < F->getNumParams(); ++K) {
        QualType T = F->getParamDecl(K)->getType();
        if (T->isLValueReferenceType() && !T.getNonReferenceType().isConstQualified())
          written(E->getArg(K), true, true);
      }
      if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E))
        if (Method && !isElementAccessor(Method))
          written(MC->getImplicitObjectArgument()->IgnoreParenImpCasts(), true, true);
    }
    if (Lambdas != 0)
      return true;
    if (isInputOutput(F)) {
      if (!isa<CXXOperatorCallExpr>(E))
        M.InputOutput.push_back({E, F->getNameAsString()});
      return true;
    }
    if (const char *X = exitKind(F)) {
      M.JumpsOut.push_back({E->getBeginLoc(), X});
      return true;
    }
    returnedReference(E, F);
    if (Method && Method->isVirtual() && !Method->hasAttr<FinalAttr>() && !Method->getParent()->hasAttr<FinalAttr>() &&
        isa<CXXMemberCallExpr>(E)) {
      M.UnseenCalls.push_back({E, F->getNameAsString(), "is virtual; an override may have effects the analysis "
                                                        "cannot see"});
      return true;
    }
    // An unseen function is reported as such; what it is given adds nothing.
    if (F->isDefined() || !unseenWhy(F))
      escapes(E, F);
    if (isScanned(F))
      calleeEffects(E, F);
    else if (const char *Why = unseenWhy(F))
      M.UnseenCalls.push_back({E, F->getNameAsString(), Why});
    return true;
  }

  // A function given the address of outside data (`f(a)`, `f(&a[k])`,
  // `f(a + k)`, `f(m[i])` for a row, `memcpy(&a[i], ...)`) may write any
  // element of it; the analysis does not follow the pointer. Passing an
  // element's value (`process(channels[c])`) is the iteration's own object.
  void escapes(const CallExpr *E, const FunctionDecl *F) {
    if (isCudaApi(F))
      return;
    for (unsigned K = 0; K < E->getNumArgs() && K < F->getNumParams(); ++K) {
      QualType T = F->getParamDecl(K)->getType();
      if (!T->isPointerType() || T->getPointeeType().isConstQualified())
        continue;
      const Expr *Arg = E->getArg(K)->IgnoreParenImpCasts();
      // An element's value (a pointer held in the array) is not its
      // address; a row is modelled as an access to all of its elements.
      if (isa<ArraySubscriptExpr>(Arg) || isa<CXXOperatorCallExpr>(Arg))
        continue;
      if (const VarDecl *Target = outsideObjectIn(Arg))
        M.Escapes.push_back({F->getNameAsString(), Target, E->getArg(K)});
    }
    // An iterator into an outside container (`std::fill(v.begin(), v.end(), 0)`).
    for (const Expr *Arg : E->arguments()) {
      const auto *It = dyn_cast<CXXMemberCallExpr>(Arg->IgnoreParenImpCasts()->IgnoreImplicit());
      const CXXMethodDecl *Method = It ? It->getMethodDecl() : nullptr;
      if (!Method || Method->isConst() || !Method->getDeclName().isIdentifier() ||
          !(Method->getName() == "begin" || Method->getName() == "end" || Method->getName() == "rbegin"))
        continue;
      if (const VarDecl *Target = outsideObjectIn(It->getImplicitObjectArgument()))
        M.Escapes.push_back({F->getNameAsString(), Target, Arg});
    }
  }

  // What a visible callee does that the body does not show (CallEffects.h).
  void calleeEffects(const CallExpr *E, const FunctionDecl *F) {
    const CallEffects &C = Effects.of(F);
    const auto *Method = dyn_cast<CXXMethodDecl>(F);
    const bool Lambda = Method && Method->getParent()->isLambda();
    // A lambda the body defines is walked with the body; one defined before
    // the loop reaches outside data through its captures.
    const bool OuterLambda = Lambda && !inside(SM, BodyRange, Method->getParent()->getLocation());
    const std::string Name = Lambda && isa<CXXOperatorCallExpr>(E) ? sourceText(E->getArg(0), Ctx)
                                                                    : F->getNameAsString();
    for (const VarDecl *G : C.GlobalsWritten)
      M.GlobalWrites.push_back({E, Name, G});
    for (const VarDecl *G : C.GlobalsRead)
      M.HiddenReads.push_back({E, Name, G});
    if (OuterLambda) {
      for (const VarDecl *V : C.CapturesWritten)
        M.GlobalWrites.push_back({E, Name, V});
      for (const VarDecl *V : C.CaptureElementsWritten)
        M.Escapes.push_back({Name, V, E, "written by"});
      for (const VarDecl *V : C.CapturesRead)
        M.HiddenReads.push_back({E, Name, V});
    }
    // A const member function that writes its object (a mutable member).
    if (C.WritesObject && Method && Method->isConst() && !Lambda) {
      if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E))
        written(MC->getImplicitObjectArgument()->IgnoreParenImpCasts(), true, true);
      else if (isa<CXXOperatorCallExpr>(E) && E->getNumArgs())
        written(E->getArg(0)->IgnoreParenImpCasts(), true, true);
    }
    if (!C.Exit.empty())
      M.JumpsOut.push_back({E->getBeginLoc(), C.Exit + "', called by '" + Name}); // "'exit', called by 'f' leaves"
    if (C.Throws && Tries == 0)
      M.Throws.push_back(E);
    if (!C.InputOutput.empty())
      M.InputOutput.push_back({E, C.InputOutput});
    if (!C.Unseen.empty())
      M.UnseenCalls.push_back({E, Name, unseenThrough(C)});
  }
  // "calls 'g', which may have ...".
  static std::string unseenThrough(const CallEffects &C) {
    return "calls '" + C.Unseen + "', which " + C.UnseenWhy;
  }

  // A call whose result is a non-const reference or pointer used as an
  // element (`v(i) = x`, `v.front() = x`, `y = v(i)`): the element it
  // reaches is the callee's to say. Element accessors of the standard
  // containers (`operator[]`, `at`) are modelled as subscripts.
  void returnedReference(const CallExpr *E, const FunctionDecl *F) {
    const QualType R = F->getReturnType();
    if (!(R->isLValueReferenceType() || R->isPointerType()) || R->getPointeeType().isConstQualified())
      return;
    // A free function returning a pointer (`memcpy`, `std::copy`) returns
    // one of its arguments, which the call already passed on.
    if (R->isPointerType() && !isa<CXXMethodDecl>(F))
      return;
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E); Op && (Op->getOperator() == OO_Subscript ||
                                                                  Op->isAssignmentOp() ||
                                                                  Op->getOperator() == OO_PlusPlus ||
                                                                  Op->getOperator() == OO_MinusMinus))
      return;
    if (F->getDeclName().isIdentifier() && (F->getName() == "at" || F->getName() == "data" ||
                                            F->getName() == "begin" || F->getName() == "end"))
      return;
    const Expr *Object = nullptr;
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E))
      Object = MC->getImplicitObjectArgument();
    else if (isa<CXXOperatorCallExpr>(E) && E->getNumArgs())
      Object = E->getArg(0);
    const VarDecl *V = Object ? outsideObjectIn(Object) : nullptr;
    if (Object && !V && !isa<CXXThisExpr>(Object->IgnoreParenImpCasts()))
      return; // called on an object of the body's own
    // A returned pointer may be written through wherever it goes.
    const bool Write = WriteTargets.count(E) || AddressOf.count(E) || R->isPointerType();
    M.ReturnedReferences.push_back({E, isa<CXXOperatorCallExpr>(E) && V ? V->getNameAsString() + "(...)"
                                                                        : F->getNameAsString(),
                                    V, Write});
  }

  bool VisitDeclRefExpr(DeclRefExpr *E) override {
    for (ReductionMatcher &R : Reductions)
      R.declRef(E);
    const auto *V = dyn_cast<VarDecl>(E->getDecl());
    if (V && V->hasGlobalStorage() && !V->isStaticLocal())
      M.Constructs.push_back({BodyModel::Construct::Global, E, nullptr, V});
    if (Consumed.count(E) || !V)
      return true;
    auto W = WriteTargets.find(E);
    if (W != WriteTargets.end())
      VarWrites.push_back({E, V});
    if (V == M.Induction) {
      if (W != WriteTargets.end())
        M.InductionWrites.push_back(E);
      return true;
    }
    if (V == RangeVar) {
      if (W != WriteTargets.end()) {
        RangeVarWritten = true;
        RangeVarMayWrite &= W->second.second;
      }
      return true;
    }
    if (!M.isOutside(V, SM)) {
      if (W != WriteTargets.end()) {
        M.WrittenLocals.insert(V);
        if (auto Bound = ElementOf.find(V); Bound != ElementOf.end()) {
          // Where and whether the write happens is not the binding's: a may-write.
          Access &X = M.Accesses[Bound->second];
          X.MayWrite = X.MayWrite || !X.Write;
          X.Write = X.Read = true;
        } else if (V->getType()->isReferenceType()) {
          throughAlias(V, E);
        }
      }
      return true;
    }
    Access A = access(E);
    A.Var = V;
    A.Name = V->getNameAsString();
    A.Key = V;
    A.ObjectType = V->getType();
    A.NameLoc = E->getLocation();
    A.SizeOnly = !A.Write && SizeOf.count(E);
    if (A.Write)
      M.WrittenOutside.insert(V);
    M.Accesses.push_back(std::move(A));
    return true;
  }

  void rangeElement() {
    // The element `x` of `for (auto &x : c)` is `c[k]`: read, and written
    // where the body assigns a non-const reference to it.
    const QualType T = RangeVar->getType();
    Access A;
    A.Var = RangeContainer;
    A.Name = RangeContainer->getNameAsString();
    A.Key = RangeContainer;
    A.ObjectType = RangeContainer->getType();
    A.E = RangeInit;
    A.NameLoc = RangeInit->getBeginLoc();
    A.Element = true;
    A.Subscripts.push_back(nullptr);
    A.Read = true;
    A.Write = RangeVarWritten && T->isReferenceType() && !T.getNonReferenceType().isConstQualified();
    A.MayWrite = A.Write && RangeVarMayWrite;
    RangeElementIndex = M.Accesses.size();
    M.Accesses.push_back(std::move(A));
  }
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

  Access access(const Expr *E) const {
    Access A;
    A.E = E;
    auto W = WriteTargets.find(E);
    A.Write = W != WriteTargets.end();
    A.Read = !A.Write || W->second.first;
    A.MayWrite = A.Write && W->second.second;
    A.Around = Around;
    A.AfterExit = Exited || M.HasJumps;
    return A;
  }

  // A write to `T`; a write to a member of an object (`s.n = 0`, `p[i].x = 0`)
  // writes the object too, and a member of `*this` is shared by all iterations.
  void written(const Expr *T, bool AlsoRead, bool Maybe) {
    // Through the temporary a proxy reference is (`bits[i] = b` on a
    // std::vector<bool> assigns to a _Bit_reference): the element is written.
    T = T->IgnoreParens();
    if (const auto *Temp = dyn_cast<MaterializeTemporaryExpr>(T))
      T = Temp->getSubExpr()->IgnoreImplicit()->IgnoreParens();
    note(T, AlsoRead, Maybe);
    while (const auto *Mem = dyn_cast<MemberExpr>(T)) {
      const Expr *Base = Mem->getBase()->IgnoreParenImpCasts();
      if (isa<CXXThisExpr>(Base)) {
        if (Lambdas == 0)
          M.MemberWrites.push_back(Mem);
        return;
      }
      if (Mem->isArrow())
        return; // through a pointer: another object, not tracked
      T = Base;
      note(T, true, Maybe);
    }
  }
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

  // The array-like variable declared outside whose element or address `E`
  // takes (`&a[k]`, `a + k`, `a`, `v[k]`, `v.data()`, `m[i]` for a row), if any.
  const VarDecl *outsideObjectIn(const Expr *E) const {
    if (!E)
      return nullptr;
    E = E->IgnoreParenImpCasts();
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
      const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
      if (V && V != M.Induction && M.isOutside(V, SM) && !V->getType()->isArithmeticType())
        return V;
      return V && !M.isOutside(V, SM) ? LocalAliases.lookup(V) : nullptr;
    }
    if (isa<CXXNewExpr>(E)) // a new object, whatever initialises it
      return nullptr;
    for (const Stmt *C : E->children())
      if (const auto *CE = dyn_cast_or_null<Expr>(C))
        if (const VarDecl *V = outsideObjectIn(CE))
          return V;
    return nullptr;
  }

  // `a[i][j]`, `v[k]`, `*p`, `*(p + k)`, `s.data[i]` on a variable declared outside.
  void element(const Expr *E) {
    if (Consumed.count(E))
      return;
    ElementChain EC = elementChain(E, Ctx);
    std::vector<const Expr *> &Subscripts = EC.Subscripts, &Chain = EC.Chain;
    const Expr *Base = EC.Base;
    // `s.data[i]`, `p->data[i]`, `data[i]` in a method: the member path names the object.
    std::string Path;
    const ValueDecl *Member = nullptr;
    QualType ObjectType = Base->getType();
    while (const auto *Mem = dyn_cast<MemberExpr>(Base)) {
      Path = (Mem->isArrow() && !isa<CXXThisExpr>(Mem->getBase()->IgnoreParenImpCasts()) ? "->" : ".") +
             Mem->getMemberDecl()->getNameAsString() + Path;
      if (!Member)
        Member = Mem->getMemberDecl();
      Chain.push_back(Mem);
      Base = Mem->getBase()->IgnoreParenImpCasts();
    }
    const auto *Ref = dyn_cast<DeclRefExpr>(Base);
    const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    const bool OfThis = isa<CXXThisExpr>(Base) && Member && Lambdas == 0;
    if (!OfThis && V && V != M.Induction && !M.isOutside(V, SM)) {
      if (WriteTargets.count(E))
        throughAlias(V, E);
      else if (const VarDecl *Target = LocalAliases.lookup(V); Target && Lambdas == 0)
        M.AliasReads.push_back({V, Target, E});
    }
    if (!OfThis && (!V || V == M.Induction || !M.isOutside(V, SM)))
      return;
    Consumed.insert(Chain.begin(), Chain.end());
    Consumed.insert(Base);
    Access A = access(E);
    A.Var = OfThis ? nullptr : V;
    A.Name = OfThis ? Path.substr(1) : V->getNameAsString() + Path;
    A.Key = OfThis ? Member : static_cast<const ValueDecl *>(V);
    A.ObjectType = Member ? ObjectType : V->getType();
    A.ThroughMember = Member != nullptr;
    A.NameLoc = Base->getBeginLoc();
    A.Element = true;
    A.AddressTaken = AddressOf.count(E);
    A.LoadedByValue = Loaded.count(E);
    A.Subscripts = std::move(Subscripts);
    // A row passed on (`f(m[i])`) is read and maybe written as a whole.
    if (A.Read && !A.Write && RowsWritten.count(E)) {
      A.Write = true;
      A.MayWrite = true;
    }
    if (const VarDecl *Ref = BoundTo.lookup(E))
      ElementOf[Ref] = M.Accesses.size();
    M.Accesses.push_back(std::move(A));
  }

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
  llvm::DenseSet<const Expr *> AddressOf, SizeOf;      // operands of `&`, objects of `.size()`/`.empty()`
  llvm::DenseSet<const Expr *> Loaded;                 // operands of lvalue-to-rvalue conversions
};

} // namespace

bool BodyModel::isOutside(const VarDecl *V, const SourceManager &SM) const {
  return V->isStaticLocal() || !inside(SM, LoopRange, V->getLocation());
}

BodyModel collectBody(const LoopAnalysis &A, ASTContext &Ctx) {
  assert(A.Loop && "only a recognised loop has a body to model");
  BodyModel M;
  Collector C(A, Ctx, M);
  C.run(A.Loop->body());
  return M;
}

} // namespace gpuautopar
