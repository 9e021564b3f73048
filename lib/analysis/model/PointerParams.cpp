#include "model/PointerParams.h"
#include "model/CallEffects.h"
#include "model/RunsSometimes.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"

#include <algorithm>
#include <optional>

namespace gpuautopar {

using namespace clang;

namespace {

// The values an integer subscript takes: a constant, or a variable of a
// counted loop around it with constant bounds, plus or minus a constant.
struct Range {
  int64_t Lo, Hi;
  bool Runs = true; // a loop's: it runs at least once
};

// `for (m = 0; m < 5; m++)` (or `int m = 0`, `<=`, `++m`, `m += 1`) with
// constant bounds: m's variable and the values it takes in the body.
std::optional<std::pair<const VarDecl *, Range>> countedLoop(const ForStmt *S, const ASTContext &Ctx) {
  const VarDecl *V = nullptr;
  const Expr *Init = nullptr;
  if (const auto *D = dyn_cast_or_null<DeclStmt>(S->getInit()); D && D->isSingleDecl()) {
    V = dyn_cast<VarDecl>(D->getSingleDecl());
    Init = V ? V->getInit() : nullptr;
  } else if (const auto *B = dyn_cast_or_null<BinaryOperator>(S->getInit()); B && B->getOpcode() == BO_Assign) {
    const auto *Ref = dyn_cast<DeclRefExpr>(B->getLHS()->IgnoreParenImpCasts());
    V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    Init = B->getRHS();
  }
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(S->getCond());
  if (!V || !Init || !Cond || !V->getType()->isIntegerType())
    return std::nullopt;
  const auto *CondVar = dyn_cast<DeclRefExpr>(Cond->getLHS()->IgnoreParenImpCasts());
  if (!CondVar || CondVar->getDecl() != V || (Cond->getOpcode() != BO_LT && Cond->getOpcode() != BO_LE))
    return std::nullopt;
  const Expr *Inc = S->getInc() ? S->getInc()->IgnoreParens() : nullptr;
  bool StepOne = false;
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(Inc))
    StepOne = U->isIncrementOp();
  else if (const auto *C = dyn_cast_or_null<CompoundAssignOperator>(Inc); C && C->getOpcode() == BO_AddAssign) {
    Expr::EvalResult One;
    StepOne = C->getRHS()->EvaluateAsInt(One, Ctx) && One.Val.getInt() == 1;
  }
  const Expr *IncVar = nullptr;
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(Inc))
    IncVar = U->getSubExpr();
  else if (const auto *C = dyn_cast_or_null<CompoundAssignOperator>(Inc))
    IncVar = C->getLHS();
  const auto *IncRef = IncVar ? dyn_cast<DeclRefExpr>(IncVar->IgnoreParenImpCasts()) : nullptr;
  Expr::EvalResult Lo, Bound;
  if (!StepOne || !IncRef || IncRef->getDecl() != V || !Init->EvaluateAsInt(Lo, Ctx) ||
      !Cond->getRHS()->EvaluateAsInt(Bound, Ctx))
    return std::nullopt;
  const int64_t L = Lo.Val.getInt().getExtValue();
  const int64_t H = Bound.Val.getInt().getExtValue() - (Cond->getOpcode() == BO_LT ? 1 : 0);
  return std::make_pair(V, Range{L, std::max(L, H), H >= L});
}

// Whether `Body` assigns V (then the header alone does not say its values).
class Assigns : public DynamicRecursiveASTVisitor {
public:
  explicit Assigns(const VarDecl *V) : V(V) {}
  bool Found = false;
  bool VisitBinaryOperator(BinaryOperator *B) override {
    if (B->isAssignmentOp())
      check(B->getLHS());
    return !Found;
  }
  bool VisitUnaryOperator(UnaryOperator *U) override {
    if (U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf)
      check(U->getSubExpr());
    return !Found;
  }

private:
  void check(const Expr *E) {
    if (const auto *R = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()); R && R->getDecl() == V)
      Found = true;
  }
  const VarDecl *V;
};

class ParamScan : public DynamicRecursiveASTVisitor {
public:
  ParamScan(const FunctionDecl *Def, CallEffectsCache &Cache)
      : Ctx(Def->getASTContext()), Cache(Cache), Out(Def->getNumParams()) {
    for (unsigned K = 0; K < Def->getNumParams(); ++K)
      if (Def->getParamDecl(K)->getType()->isPointerType()) {
        Index[Def->getParamDecl(K)] = K;
        Out[K].Followed = true;
      }
  }

  std::vector<PointerParam> run(Stmt *Body) {
    TraverseStmt(Body);
    for (auto &[P, K] : Index)
      if (!Out[K].Followed || !Bounded.lookup(K))
        Out[K].Rows = 0;
    for (PointerParam &P : Out) {
      P.WritesFirstAlways &= P.Writes && !Leaves;
      if (!P.Followed)
        P = PointerParam();
    }
    return Out;
  }

  bool TraverseForStmt(ForStmt *S) override {
    std::optional<std::pair<const VarDecl *, Range>> L = countedLoop(S, Ctx);
    if (L) {
      Assigns A(L->first);
      A.TraverseStmt(S->getBody());
      if (A.Found)
        L.reset();
    }
    if (L)
      Loops.push_back(*L);
    const bool Sometimes = !L || !L->second.Runs;
    Conditional += Sometimes;
    bool R = DynamicRecursiveASTVisitor::TraverseForStmt(S);
    Conditional -= Sometimes;
    if (L)
      Loops.pop_back();
    return R;
  }

  // What runs under these may not run on every call.
  GPU_AUTOPAR_RUNS_SOMETIMES(Conditional)
  GPU_AUTOPAR_SOMETIMES_ONE(CXXTryStmt, Conditional)
  // Control that leaves the function, or a loop of it, early.
  bool VisitReturnStmt(ReturnStmt *) override { return Leaves = true; }
  bool VisitBreakStmt(BreakStmt *) override { return Leaves = true; }
  bool VisitContinueStmt(ContinueStmt *) override { return Leaves = true; }
  bool VisitGotoStmt(GotoStmt *) override { return Leaves = true; }
  bool VisitIndirectGotoStmt(IndirectGotoStmt *) override { return Leaves = true; }
  bool VisitCXXThrowExpr(CXXThrowExpr *) override { return Leaves = true; }

  bool TraverseBinaryOperator(BinaryOperator *B) override {
    if (B->isAssignmentOp() && element(B->getLHS(), /*Read=*/B->isCompoundAssignmentOp(), /*Write=*/true))
      return TraverseStmt(B->getRHS());
    if (B->isLogicalOp()) { // the right operand runs only sometimes
      bool R = TraverseStmt(B->getLHS());
      ++Conditional;
      R = R && TraverseStmt(B->getRHS());
      --Conditional;
      return R;
    }
    return DynamicRecursiveASTVisitor::TraverseBinaryOperator(B);
  }
  bool TraverseCompoundAssignOperator(CompoundAssignOperator *B) override {
    if (element(B->getLHS(), true, true))
      return TraverseStmt(B->getRHS());
    return DynamicRecursiveASTVisitor::TraverseCompoundAssignOperator(B);
  }
  bool TraverseUnaryOperator(UnaryOperator *U) override {
    if (U->isIncrementDecrementOp() && element(U->getSubExpr(), true, true))
      return true;
    return DynamicRecursiveASTVisitor::TraverseUnaryOperator(U);
  }
  bool TraverseImplicitCastExpr(ImplicitCastExpr *C) override {
    if (C->getCastKind() == CK_LValueToRValue && element(C->getSubExpr(), true, false))
      return true;
    return DynamicRecursiveASTVisitor::TraverseImplicitCastExpr(C);
  }
  // The parameter handed on whole to a function that follows its own.
  bool TraverseCallExpr(CallExpr *E) override {
    const FunctionDecl *F = E->getDirectCallee();
    const FunctionDecl *Def = nullptr;
    std::vector<bool> Handed(E->getNumArgs());
    if (F && isScanned(F) && F->isDefined(Def)) {
      const std::vector<PointerParam> &Theirs = Cache.of(Def).Params;
      for (unsigned K = 0; K < E->getNumArgs() && K < Theirs.size(); ++K) {
        const auto *Ref = dyn_cast<DeclRefExpr>(E->getArg(K)->IgnoreParenImpCasts());
        auto It = Ref ? Index.find(Ref->getDecl()) : Index.end();
        if (It == Index.end() || !Theirs[K].Followed)
          continue;
        PointerParam &Mine = Out[It->second];
        Mine.Reads |= Theirs[K].Reads;
        Mine.Writes |= Theirs[K].Writes;
        Mine.WritesFirstAlways |= Theirs[K].WritesFirstAlways && Conditional == 0;
        if (Theirs[K].Rows == 0)
          Bounded[It->second] = false;
        else
          widen(It->second, Theirs[K].Rows - 1);
        Handed[K] = true;
      }
    }
    TraverseStmt(E->getCallee());
    for (unsigned K = 0; K < E->getNumArgs(); ++K)
      if (!Handed[K])
        TraverseStmt(E->getArg(K));
    return true;
  }
  // Any other use of the parameter: its address goes where the analysis
  // does not follow it.
  bool VisitDeclRefExpr(DeclRefExpr *E) override {
    if (auto It = Index.find(E->getDecl()); It != Index.end())
      Out[It->second].Followed = false;
    return true;
  }

private:
  // `p[a][b]`, `*p` of a parameter, as deep as its type goes: recorded, and
  // its subscripts walked; false for anything else.
  bool element(const Expr *E, bool Read, bool Write) {
    std::vector<const Expr *> Subscripts; // innermost first
    E = E->IgnoreParens();
    while (true) {
      if (const auto *S = dyn_cast<ArraySubscriptExpr>(E)) {
        Subscripts.push_back(S->getIdx());
        E = S->getBase()->IgnoreParenImpCasts();
      } else if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_Deref) {
        Subscripts.push_back(nullptr);
        E = U->getSubExpr()->IgnoreParenImpCasts();
      } else {
        break;
      }
    }
    const auto *Ref = dyn_cast<DeclRefExpr>(E);
    auto It = Ref ? Index.find(Ref->getDecl()) : Index.end();
    if (It == Index.end() || Subscripts.empty())
      return false;
    std::reverse(Subscripts.begin(), Subscripts.end());
    const unsigned K = It->second;
    // The element must be a number of the pointee, not a row of it.
    std::vector<int64_t> Extents; // of the pointee's array dimensions
    QualType T = Ref->getType()->getPointeeType();
    while (const auto *A = dyn_cast_or_null<ConstantArrayType>(Ctx.getAsArrayType(T))) {
      Extents.push_back(A->getSize().getSExtValue());
      T = A->getElementType();
    }
    if (Subscripts.size() != Extents.size() + 1 || T->isArrayType()) {
      Out[K].Followed = false;
      return true;
    }
    Out[K].Reads |= Read;
    Out[K].Writes |= Write;
    bool First = Write && Conditional == 0; // this write reaches p[0]...[0] on every call
    for (size_t D = 0; D < Subscripts.size(); ++D) {
      std::optional<Range> R = Subscripts[D] ? range(Subscripts[D]) : Range{0, 0};
      // A constant 0, or a counted loop's variable taking every value from
      // Lo to Hi, 0 among them.
      const bool Exact = !Subscripts[D] || isa<IntegerLiteral>(Subscripts[D]->IgnoreParenImpCasts()) ||
                         isa<DeclRefExpr>(Subscripts[D]->IgnoreParenImpCasts());
      First &= R && Exact && R->Lo <= 0 && 0 <= R->Hi;
      if (!R || R->Lo < 0 || (D > 0 && R->Hi >= Extents[D - 1]))
        Bounded[K] = false;
      else if (D == 0)
        widen(K, R->Hi);
      if (Subscripts[D])
        TraverseStmt(const_cast<Expr *>(Subscripts[D]));
    }
    Out[K].WritesFirstAlways |= First;
    return true;
  }

  std::optional<Range> range(const Expr *E) const {
    E = E->IgnoreParenImpCasts();
    Expr::EvalResult C;
    if (E->EvaluateAsInt(C, Ctx)) {
      const int64_t V = C.Val.getInt().getExtValue();
      return Range{V, V};
    }
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
      for (auto L = Loops.rbegin(); L != Loops.rend(); ++L)
        if (L->first == Ref->getDecl())
          return L->second;
      return std::nullopt;
    }
    if (const auto *B = dyn_cast<BinaryOperator>(E); B && (B->getOpcode() == BO_Add || B->getOpcode() == BO_Sub)) {
      std::optional<Range> L = range(B->getLHS()), R = range(B->getRHS());
      if (!L || !R)
        return std::nullopt;
      if (B->getOpcode() == BO_Add)
        return Range{L->Lo + R->Lo, L->Hi + R->Hi};
      return Range{L->Lo - R->Hi, L->Hi - R->Lo};
    }
    return std::nullopt;
  }

  void widen(unsigned K, int64_t Last) {
    if (!Bounded.count(K))
      Bounded[K] = true;
    Out[K].Rows = std::max(Out[K].Rows, Last + 1);
  }

  const ASTContext &Ctx;
  CallEffectsCache &Cache;
  std::vector<PointerParam> Out;
  llvm::DenseMap<const Decl *, unsigned> Index;
  llvm::DenseMap<unsigned, bool> Bounded; // absent: no element touched yet
  std::vector<std::pair<const VarDecl *, Range>> Loops;
  unsigned Conditional = 0; // statements around that may not run on every call
  bool Leaves = false;
};

} // namespace

std::vector<PointerParam> pointerParams(const FunctionDecl *Def, CallEffectsCache &Cache) {
  return ParamScan(Def, Cache).run(Def->getBody());
}

} // namespace gpuautopar
