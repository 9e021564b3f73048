#include "gpuautopar/Legality.h"
#include "Access.h"
#include "Dependence.h"
#include "FunctionKinds.h"
#include "ReductionCheck.h"
#include "gpuautopar/Diagnostics.h"

#include "clang/Basic/SourceManager.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

#include <map>

namespace gpuautopar {
namespace {

using namespace clang;

bool inside(const SourceManager &SM, SourceRange R, SourceLocation L) {
  return L.isValid() && !SM.isBeforeInTranslationUnit(L, R.getBegin()) &&
         !SM.isBeforeInTranslationUnit(R.getEnd(), L);
}

// Member functions that only read a container or give access to one element.
bool isElementAccessor(const CXXMethodDecl *M) {
  if (M->isConst() || M->getOverloadedOperator() == OO_Subscript)
    return true;
  if (!M->getDeclName().isIdentifier())
    return false;
  StringRef N = M->getName();
  return N == "data" || N == "at" || N == "front" || N == "back" || N == "begin" || N == "end";
}

// One walk over the body collects everything the checks need.
class BodyWalk : public RecursiveASTVisitor<BodyWalk> {
public:
  BodyWalk(const LoopAnalysis &A, ASTContext &Ctx)
      : Induction(A.Loop->Induction), Ctx(Ctx), SM(Ctx.getSourceManager()),
        LoopRange(A.Loop->Loop ? A.Loop->Loop->getSourceRange() : A.Loop->RangeFor->getSourceRange()),
        BodyRange(A.Loop->body()->getSourceRange()) {}

  std::vector<Access> Accesses;
  std::vector<std::pair<SourceLocation, const char *>> JumpsOut;
  std::vector<const Expr *> InductionWrites;
  std::vector<const CallExpr *> UnknownCalls;
  std::vector<const ForStmt *> InnerLoops;
  llvm::DenseSet<const VarDecl *> WrittenLocals; // variables of the body assigned after their declaration

  // Nested loops and switches own their `break`s; lambdas own their `return`s.
#define NESTED_BREAK_SCOPE(CLASS)                                                                                   \
  bool Traverse##CLASS(CLASS *S) {                                                                                  \
    ++BreakScopes;                                                                                                  \
    bool R = RecursiveASTVisitor::Traverse##CLASS(S);                                                               \
    --BreakScopes;                                                                                                  \
    return R;                                                                                                       \
  }
  NESTED_BREAK_SCOPE(ForStmt)
  NESTED_BREAK_SCOPE(WhileStmt)
  NESTED_BREAK_SCOPE(DoStmt)
  NESTED_BREAK_SCOPE(CXXForRangeStmt)
  NESTED_BREAK_SCOPE(SwitchStmt)
#undef NESTED_BREAK_SCOPE
  bool TraverseLambdaExpr(LambdaExpr *E) {
    ++Lambdas;
    bool R = RecursiveASTVisitor::TraverseLambdaExpr(E);
    --Lambdas;
    return R;
  }

  bool VisitBreakStmt(BreakStmt *S) {
    if (BreakScopes == 0 && Lambdas == 0)
      JumpsOut.push_back({S->getBeginLoc(), "break"});
    return true;
  }
  bool VisitReturnStmt(ReturnStmt *S) {
    if (Lambdas == 0)
      JumpsOut.push_back({S->getReturnLoc(), "return"});
    return true;
  }
  bool VisitGotoStmt(GotoStmt *S) {
    const LabelStmt *Target = S->getLabel()->getStmt();
    if (!Target || !inside(SM, BodyRange, Target->getBeginLoc()))
      JumpsOut.push_back({S->getGotoLoc(), "goto"});
    return true;
  }
  bool VisitForStmt(ForStmt *S) {
    if (Lambdas == 0)
      InnerLoops.push_back(S);
    return true;
  }

  // `float *row = &a[i * n];` or `float &r = a[k];` in the body: writes
  // through `row` / `r` reach `a`, which the subscript test cannot follow.
  bool VisitVarDecl(VarDecl *V) {
    QualType T = V->getType();
    if (!V->hasInit() || !(T->isPointerType() || T->isReferenceType()) || T->getPointeeType().isConstQualified() ||
        T.getNonReferenceType().isConstQualified())
      return true;
    if (const VarDecl *Target = outsideObjectIn(V->getInit()))
      LocalAliases[V] = Target;
    return true;
  }

  bool VisitBinaryOperator(BinaryOperator *B) {
    if (B->isAssignmentOp())
      written(B->getLHS(), B->isCompoundAssignmentOp());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *U) {
    if (U->isIncrementDecrementOp())
      written(U->getSubExpr(), true);
    else if (U->getOpcode() == UO_Deref)
      element(U);
    return true;
  }
  bool VisitArraySubscriptExpr(ArraySubscriptExpr *E) {
    element(E);
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *E) {
    if (E->isAssignmentOp())
      written(E->getArg(0), E->getOperator() != OO_Equal);
    else if (E->getOperator() == OO_PlusPlus || E->getOperator() == OO_MinusMinus)
      written(E->getArg(0), true);
    else if (E->getOperator() == OO_Subscript)
      element(E);
    return true;
  }
  bool VisitCallExpr(CallExpr *E) {
    const FunctionDecl *F = E->getDirectCallee();
    if (!F || isa<CXXOperatorCallExpr>(E) || isa<CUDAKernelCallExpr>(E))
      return true;
    // An argument bound to a non-const reference may be written.
    for (unsigned K = 0; K < E->getNumArgs() && K < F->getNumParams(); ++K) {
      QualType T = F->getParamDecl(K)->getType();
      if (T->isLValueReferenceType() && !T.getNonReferenceType().isConstQualified())
        written(E->getArg(K), true);
    }
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E))
      if (const CXXMethodDecl *M = MC->getMethodDecl(); M && !isElementAccessor(M))
        written(MC->getImplicitObjectArgument()->IgnoreParenImpCasts(), true);
    // A visible function given the address of outside data (`f(a)`, `f(&a[k])`,
    // `f(a + k)`) may write any element of it; the analysis does not follow
    // calls. Passing an element's value (`process(channels[c])`) is the
    // iteration's own object and is not reported.
    if (Lambdas == 0 && F->isDefined() && !isCudaApi(F) && !SM.isInSystemHeader(F->getLocation()))
      for (unsigned K = 0; K < E->getNumArgs() && K < F->getNumParams(); ++K) {
        QualType T = F->getParamDecl(K)->getType();
        if (!T->isPointerType() || T->getPointeeType().isConstQualified())
          continue;
        const Expr *Arg = E->getArg(K)->IgnoreParenImpCasts();
        if (isa<ArraySubscriptExpr>(Arg) || isa<CXXOperatorCallExpr>(Arg))
          continue;
        if (const VarDecl *Target = outsideObjectIn(Arg))
          Escapes.push_back({F, Target, E->getArg(K)});
      }
    if (Lambdas == 0 && !F->isDefined() && F->getBuiltinID() == 0 && !isCudaApi(F) &&
        !SM.isInSystemHeader(F->getLocation()) && !F->isConstexpr() &&
        !(isa<CXXMethodDecl>(F) && cast<CXXMethodDecl>(F)->isConst()) &&
        !(isa<CXXMethodDecl>(F) && cast<CXXMethodDecl>(F)->getParent()->isLambda()))
      UnknownCalls.push_back(E);
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (Consumed.count(E))
      return true;
    const auto *V = dyn_cast<VarDecl>(E->getDecl());
    if (!V)
      return true;
    auto W = WriteTargets.find(E);
    if (V == Induction) {
      if (W != WriteTargets.end())
        InductionWrites.push_back(E);
      return true;
    }
    if (!outside(V)) {
      if (W != WriteTargets.end()) {
        WrittenLocals.insert(V);
        if (V->getType()->isReferenceType())
          throughAlias(V, E);
      }
      return true;
    }
    Access A;
    A.Var = V;
    A.Name = V->getNameAsString();
    A.Key = V;
    A.E = E;
    A.Write = W != WriteTargets.end();
    A.Read = !A.Write || W->second;
    Accesses.push_back(std::move(A));
    return true;
  }

  // Members of the enclosing object (`count = 0` in a method) the body writes.
  std::vector<const MemberExpr *> MemberWrites;
  // Writes through a local pointer or reference bound to data declared outside.
  struct AliasWrite {
    const VarDecl *Local, *Target;
    const Expr *E;
  };
  std::vector<AliasWrite> AliasWrites;
  // Outside data whose address is passed to a visible function.
  struct Escape {
    const FunctionDecl *Callee;
    const VarDecl *Target;
    const Expr *Arg;
  };
  std::vector<Escape> Escapes;

private:
  // A write to `T`; a write to a member of an object (`s.n = 0`, `p[i].x = 0`)
  // writes the object too, and a member of `*this` is shared by all iterations.
  void written(const Expr *T, bool AlsoRead) {
    T = T->IgnoreParens();
    WriteTargets[T] = AlsoRead;
    while (const auto *M = dyn_cast<MemberExpr>(T)) {
      const Expr *Base = M->getBase()->IgnoreParenImpCasts();
      if (isa<CXXThisExpr>(Base)) {
        if (Lambdas == 0)
          MemberWrites.push_back(M);
        return;
      }
      if (M->isArrow())
        return; // through a pointer: another object, not tracked
      T = Base;
      WriteTargets[T] = true;
    }
  }

  void throughAlias(const VarDecl *Local, const Expr *E) {
    auto It = LocalAliases.find(Local);
    if (It != LocalAliases.end() && Lambdas == 0)
      AliasWrites.push_back({Local, It->second, E});
  }

  // The array-like variable declared outside whose element or address `E`
  // takes (`&a[k]`, `a + k`, `a`, `v[k]`, `v.data()`), if any.
  const VarDecl *outsideObjectIn(const Expr *E) const {
    if (!E)
      return nullptr;
    E = E->IgnoreParenImpCasts();
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
      const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
      if (V && V != Induction && outside(V) && !V->getType()->isArithmeticType())
        return V;
      return V && !outside(V) ? LocalAliases.lookup(V) : nullptr;
    }
    for (const Stmt *C : E->children())
      if (const auto *CE = dyn_cast_or_null<Expr>(C))
        if (const VarDecl *V = outsideObjectIn(CE))
          return V;
    return nullptr;
  }

  bool outside(const VarDecl *V) const { return V->isStaticLocal() || !inside(SM, LoopRange, V->getLocation()); }

  // `a[i][j]`, `v[k]`, `*p`, `*(p + k)` on a variable declared outside.
  void element(const Expr *E) {
    if (Consumed.count(E))
      return;
    std::vector<const Expr *> Subscripts;
    std::vector<const Expr *> Chain{E};
    const Expr *Base = nullptr;
    if (const auto *U = dyn_cast<UnaryOperator>(E)) {
      const Expr *Sub = U->getSubExpr()->IgnoreParenImpCasts();
      if (const auto *Add = dyn_cast<BinaryOperator>(Sub); Add && Add->getOpcode() == BO_Add) {
        const bool PtrLeft = Add->getLHS()->getType()->isPointerType();
        Base = (PtrLeft ? Add->getLHS() : Add->getRHS())->IgnoreParenImpCasts();
        Subscripts.push_back(PtrLeft ? Add->getRHS() : Add->getLHS());
      } else {
        Base = Sub;
        Subscripts.push_back(nullptr);
      }
    } else {
      const Expr *Cur = E;
      while (true) {
        if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(Cur)) {
          Subscripts.insert(Subscripts.begin(), ASE->getIdx());
          Cur = ASE->getBase()->IgnoreParenImpCasts();
        } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Cur); Op && Op->getOperator() == OO_Subscript) {
          Subscripts.insert(Subscripts.begin(), Op->getArg(1));
          Cur = Op->getArg(0)->IgnoreParenImpCasts();
        } else {
          break;
        }
        Chain.push_back(Cur);
      }
      Base = Cur;
    }
    // `s.data[i]`, `p->data[i]`, `data[i]` in a method: the member path names the object.
    std::string Path;
    const ValueDecl *Member = nullptr;
    while (const auto *M = dyn_cast<MemberExpr>(Base)) {
      Path = (M->isArrow() && !isa<CXXThisExpr>(M->getBase()->IgnoreParenImpCasts()) ? "->" : ".") +
             M->getMemberDecl()->getNameAsString() + Path;
      if (!Member)
        Member = M->getMemberDecl();
      Chain.push_back(M);
      Base = M->getBase()->IgnoreParenImpCasts();
    }
    const auto *Ref = dyn_cast<DeclRefExpr>(Base);
    const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    const bool OfThis = isa<CXXThisExpr>(Base) && Member && Lambdas == 0;
    if (!OfThis && V && V != Induction && !outside(V) && WriteTargets.count(E))
      throughAlias(V, E);
    if (!OfThis && (!V || V == Induction || !outside(V)))
      return;
    Consumed.insert(Chain.begin(), Chain.end());
    Consumed.insert(Base);
    Access A;
    A.Var = OfThis ? nullptr : V;
    A.Name = OfThis ? Path.substr(1) : V->getNameAsString() + Path;
    A.Key = OfThis ? Member : static_cast<const ValueDecl *>(V);
    A.E = E;
    A.Element = true;
    A.Subscripts = std::move(Subscripts);
    auto W = WriteTargets.find(E);
    A.Write = W != WriteTargets.end();
    A.Read = !A.Write || W->second;
    Accesses.push_back(std::move(A));
  }

  const VarDecl *Induction;
  ASTContext &Ctx;
  const SourceManager &SM;
  SourceRange LoopRange, BodyRange;
  int BreakScopes = 0, Lambdas = 0;
  llvm::DenseMap<const Expr *, bool> WriteTargets; // written expression -> also read
  llvm::DenseMap<const VarDecl *, const VarDecl *> LocalAliases; // body pointer/reference -> outside object
  llvm::DenseSet<const Expr *> Consumed;           // parts of an element access already recorded
};

// `for (int j = lo; j < ub; ++j)` inside the body: the values j takes.
std::optional<std::pair<const VarDecl *, InnerLoop>> innerLoop(const ForStmt *S, const DependenceContext &C) {
  const auto *DS = dyn_cast_or_null<DeclStmt>(S->getInit());
  const auto *V = DS && DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl()) : nullptr;
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(S->getCond() ? S->getCond()->IgnoreParenImpCasts() : nullptr);
  if (!V || !V->hasInit() || !V->getType()->isIntegerType() || !Cond)
    return std::nullopt;
  const auto *L = dyn_cast<DeclRefExpr>(Cond->getLHS()->IgnoreParenImpCasts());
  if (!L || L->getDecl() != V)
    return std::nullopt;
  bool UnitUp = false;
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(S->getInc()))
    UnitUp = U->isIncrementOp();
  std::optional<Poly> Lo = linearize(V->getInit(), C), Ub = linearize(Cond->getRHS(), C);
  InnerLoop R;
  const BinaryOperatorKind Op = Cond->getOpcode();
  if (Lo && Ub && Lo->isConstant() && Ub->isConstant()) {
    const int64_t A = Lo->constantTerm(), B = Ub->constantTerm();
    switch (Op) {
    case BO_LT: R.Min = A, R.Max = B - 1; break;
    case BO_LE: R.Min = A, R.Max = B; break;
    case BO_GT: R.Min = B + 1, R.Max = A; break;
    case BO_GE: R.Min = B, R.Max = A; break;
    default: break;
    }
    if (R.Min && R.Max && *R.Min > *R.Max)
      R.Max = R.Min; // an empty inner loop: no accesses at all, any range is sound
  }
  if ((Op == BO_LT || Op == BO_LE) && UnitUp && Lo && Lo->isConstant() && Ub) {
    R.Lower = Lo->constantTerm();
    R.UpperExclusive = Op == BO_LT ? *Ub : *add(*Ub, Poly::constant(1));
  }
  return std::make_pair(V, R);
}

std::string text(const Expr *E, const ASTContext &Ctx) {
  return Lexer::getSourceText(CharSourceRange::getTokenRange(E->getSourceRange()), Ctx.getSourceManager(),
                              Ctx.getLangOpts())
      .str();
}

// Under the strict aliasing rule, pointers to different (non-character)
// types never point into the same array.
bool mayPointToSameObjects(const VarDecl *A, const VarDecl *B) {
  QualType PA = A->getType()->getPointeeType().getUnqualifiedType().getCanonicalType();
  QualType PB = B->getType()->getPointeeType().getUnqualifiedType().getCanonicalType();
  return PA == PB || PA->isCharType() || PB->isCharType() || PA->isVoidType() || PB->isVoidType();
}

const char *what(const Access &A) { return A.Write ? "write" : "read"; }

class Checker {
public:
  Checker(LoopAnalysis &A, ASTContext &Ctx, DiagnosticsEngine &Diags)
      : A(A), Ctx(Ctx), Diags(Diags), Walk(A, Ctx) {}

  bool run() {
    Walk.TraverseStmt(const_cast<Stmt *>(A.Loop->body()));
    recordUses();
    bool Ok = jumps();
    Ok &= inductionWrites();
    Ok &= scalars();
    Ok &= arrays();
    aliasWrites();
    escapes();
    aliasing();
    calls();
    return Ok;
  }

private:
  void recordUses() {
    llvm::SetVector<const VarDecl *> Reads, Writes;
    for (const Access &X : Walk.Accesses) {
      if (!X.Var)
        continue;
      if (X.Read)
        Reads.insert(X.Var);
      if (X.Write)
        Writes.insert(X.Var);
    }
    A.Reads.assign(Reads.begin(), Reads.end());
    A.Writes.assign(Writes.begin(), Writes.end());
  }

  bool jumps() {
    for (const auto &[Loc, Kind] : Walk.JumpsOut)
      report(Diags, Diag::JumpOutOfLoop, Loc) << Kind;
    return Walk.JumpsOut.empty();
  }

  bool inductionWrites() {
    for (const Expr *E : Walk.InductionWrites)
      report(Diags, Diag::WriteToInduction, E->getExprLoc()) << A.Loop->Induction->getName();
    return Walk.InductionWrites.empty();
  }

  bool isPrivate(const VarDecl *V) const { return llvm::is_contained(A.Clauses.Privates, V); }
  const ReductionClause *reductionOf(const VarDecl *V) const {
    for (const ReductionClause &R : A.Clauses.Reductions)
      if (R.Var == V)
        return &R;
    return nullptr;
  }

  // The loop's trip count is computed once, before the iterations run: a
  // bound, step or range the body changes makes the loop non-canonical.
  static bool mentions(const Stmt *S, const VarDecl *V) {
    if (!S)
      return false;
    if (const auto *Ref = dyn_cast<DeclRefExpr>(S); Ref && Ref->getDecl() == V)
      return true;
    for (const Stmt *C : S->children())
      if (mentions(C, V))
        return true;
    return false;
  }
  const char *headerPartWritten(const VarDecl *V) const {
    if (A.Loop->RangeContainer == V)
      return "the range is changed in the loop body";
    if (mentions(A.Loop->Bound, V))
      return "the bound is changed in the loop body";
    if (mentions(A.Loop->Step, V))
      return "the step is changed in the loop body";
    return nullptr;
  }

  bool scalars() {
    bool Ok = true;
    llvm::DenseSet<const VarDecl *> Reported;
    for (const Access &X : Walk.Accesses) {
      if (X.Element || !X.Write || !Reported.insert(X.Var).second)
        continue;
      if (const char *Why = headerPartWritten(X.Var)) {
        report(Diags, Diag::NonCanonical, A.Loop->beginLoc()) << Why;
        report(Diags, Diag::NoteNonCanonicalPart, X.E->getExprLoc()) << Why;
        Ok = false;
        continue;
      }
      if (isPrivate(X.Var) || reductionOf(X.Var))
        continue;
      report(Diags, Diag::SharedScalarWrite, X.E->getExprLoc()) << X.Var->getName();
      report(Diags, Diag::NoteDeclaredHere, X.Var->getLocation()) << X.Var->getName();
      Ok = false;
    }
    llvm::DenseSet<const ValueDecl *> ReportedMembers;
    for (const MemberExpr *M : Walk.MemberWrites) {
      if (!ReportedMembers.insert(M->getMemberDecl()).second)
        continue;
      report(Diags, Diag::SharedMemberWrite, M->getExprLoc()) << M->getMemberDecl()->getName();
      report(Diags, Diag::NoteDeclaredHere, M->getMemberDecl()->getLocation()) << M->getMemberDecl()->getName();
      Ok = false;
    }
    for (const ReductionClause &R : A.Clauses.Reductions)
      Ok &= checkReduction(R, A.Loop->body(), Ctx, Diags);
    return Ok;
  }

  DependenceContext context() const {
    DependenceContext C(Ctx);
    C.Induction = A.Loop->Induction;
    C.Loop = A.Loop->Loop ? A.Loop->Loop->getSourceRange() : A.Loop->RangeFor->getSourceRange();
    for (const Access &X : Walk.Accesses)
      if (!X.Element && X.Write)
        C.WrittenScalars.insert(X.Var);
    C.WrittenLocals = Walk.WrittenLocals;
    if (const Expr *Step = A.Loop->Step) {
      Expr::EvalResult R;
      if (!Step->isValueDependent() && Step->EvaluateAsInt(R, Ctx) && R.Val.getInt().getSignificantBits() <= 32)
        C.Step = std::llabs(R.Val.getInt().getExtValue());
      else
        C.StepKnown = false;
    }
    Expr::EvalResult Lo, Hi;
    if (A.Loop->Lower && A.Loop->Bound && !A.Loop->Lower->isValueDependent() &&
        !A.Loop->Bound->isValueDependent() && A.Loop->Lower->EvaluateAsInt(Lo, Ctx) &&
        A.Loop->Bound->EvaluateAsInt(Hi, Ctx) && Lo.Val.getInt().getSignificantBits() <= 62 &&
        Hi.Val.getInt().getSignificantBits() <= 62 && C.StepKnown && C.Step > 0) {
      int64_t Span = std::llabs(Hi.Val.getInt().getExtValue() - Lo.Val.getInt().getExtValue());
      if (A.Loop->Compare == LoopCompare::LessEqual || A.Loop->Compare == LoopCompare::GreaterEqual)
        ++Span;
      C.TripCount = (Span + C.Step - 1) / C.Step;
    }
    for (const ForStmt *S : Walk.InnerLoops)
      if (auto L = innerLoop(S, C))
        C.Inner[L->first] = L->second;
    return C;
  }

  // Every pair (write, any access) of one array, itself included: two
  // iterations running the same write also conflict if it hits one element.
  bool arrays() {
    if (!A.Loop->Induction)
      return true; // range-for: each iteration owns its element; other accesses are checked by the rewriter's maps
    DependenceContext C = context();
    std::map<std::pair<const ValueDecl *, std::string>, std::vector<const Access *>> ByObject;
    std::vector<std::pair<const ValueDecl *, std::string>> Order; // first use first, for stable output
    for (const Access &X : Walk.Accesses)
      if (X.Element && !(X.Var && isPrivate(X.Var))) {
        auto &List = ByObject[{X.Key, X.Name}];
        if (List.empty())
          Order.push_back({X.Key, X.Name});
        List.push_back(&X);
      }
    bool Ok = true;
    for (const auto &Object : Order) {
      const std::vector<const Access *> &List = ByObject[Object];
      const std::string &Name = Object.second;
      const Access *UnknownW = nullptr, *UnknownX = nullptr;
      std::string UnknownWhy;
      bool Proven = false;
      for (size_t I = 0; I < List.size() && !Proven; ++I) {
        if (!List[I]->Write)
          continue;
        for (size_t J = 0; J < List.size() && !Proven; ++J) {
          if (List[J]->Write && J < I)
            continue; // write pairs are tested once
          PairVerdict R = testPair(*List[I], *List[J], C);
          if (R.V == Verdict::Dependent) {
            Proven = true;
            const bool Same = I == J;
            report(Diags, Diag::LoopCarriedDependence, A.Loop->beginLoc())
                << Name
                << (List[J]->Write && !Same ? "an element written in one iteration is written again in another"
                    : Same                  ? "every iteration writes the same element"
                                            : "an element written in one iteration is read in another");
            report(Diags, Diag::NoteAccess, List[I]->E->getExprLoc()) << "write" << Name;
            if (!Same)
              report(Diags, Diag::NoteAccess, List[J]->E->getExprLoc())
                  << (List[J]->Write ? "other write" : "read") << Name;
          } else if (R.V == Verdict::Unknown && !UnknownW) {
            UnknownW = List[I];
            UnknownX = List[J];
            UnknownWhy = R.Why;
          }
        }
      }
      if (Proven) {
        Ok = false;
        continue;
      }
      if (UnknownW) {
        report(Diags, Diag::UnknownDependence, UnknownW->E->getExprLoc()) << Name << UnknownWhy;
        if (UnknownX != UnknownW)
          report(Diags, Diag::NoteAccess, UnknownX->E->getExprLoc()) << what(*UnknownX) << Name;
      }
    }
    return Ok;
  }

  // A write through a local alias of outside data is a write the subscript
  // test cannot place: a warning naming both.
  void aliasWrites() {
    llvm::DenseSet<const VarDecl *> Reported;
    for (const BodyWalk::AliasWrite &W : Walk.AliasWrites)
      if (!isPrivate(W.Target) && Reported.insert(W.Local).second)
        report(Diags, Diag::UnknownDependence, W.E->getExprLoc())
            << W.Target->getName()
            << ("it is written through '" + W.Local->getNameAsString() + "', which the analysis does not follow");
  }

  void escapes() {
    llvm::DenseSet<const VarDecl *> Reported;
    for (const BodyWalk::Escape &X : Walk.Escapes)
      if (!isPrivate(X.Target) && Reported.insert(X.Target).second)
        report(Diags, Diag::UnknownDependence, X.Arg->getExprLoc())
            << X.Target->getName()
            << ("it is passed to '" + X.Callee->getNameAsString() + "', which the analysis does not follow");
  }

  // Two pointers declared outside, both used for elements, one written:
  // they may point into the same array unless declared restrict.
  void aliasing() {
    llvm::MapVector<const VarDecl *, const Access *> FirstUse, FirstWrite;
    for (const Access &X : Walk.Accesses) {
      if (!X.Element || !X.Var || X.Name != X.Var->getName() || !X.Var->getType()->isPointerType() ||
          X.Var->getType().isRestrictQualified() || isPrivate(X.Var))
        continue;
      FirstUse.insert({X.Var, &X});
      if (X.Write)
        FirstWrite.insert({X.Var, &X});
    }
    llvm::DenseSet<std::pair<const VarDecl *, const VarDecl *>> Reported;
    for (const auto &[W, WA] : FirstWrite)
      for (const auto &[O, OA] : FirstUse) {
        if (O == W || Reported.count({O, W}) || !mayPointToSameObjects(W, O))
          continue;
        Reported.insert({W, O});
        report(Diags, Diag::MayAlias, WA->E->getExprLoc()) << W->getName() << O->getName();
        report(Diags, Diag::NoteAccess, OA->E->getExprLoc()) << what(*OA) << O->getName();
      }
  }

  void calls() {
    llvm::DenseSet<const FunctionDecl *> Reported;
    for (const CallExpr *E : Walk.UnknownCalls)
      if (Reported.insert(E->getDirectCallee()).second)
        report(Diags, Diag::UnknownCall, E->getBeginLoc()) << E->getDirectCallee()->getNameAsString();
  }

  LoopAnalysis &A;
  ASTContext &Ctx;
  DiagnosticsEngine &Diags;
  BodyWalk Walk;
};

} // namespace

bool checkLegality(LoopAnalysis &A, ASTContext &Ctx, DiagnosticsEngine &Diags) {
  const unsigned ErrorsBefore = Diags.getNumErrors();
  (void)Checker(A, Ctx, Diags).run();
  // --strict turns the "cannot prove" warnings into errors: any new error,
  // whatever produced it, rejects the loop.
  return Diags.getNumErrors() == ErrorsBefore;
}

} // namespace gpuautopar
