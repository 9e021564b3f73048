// Data-map inference for kernel-mode loops.
//
// For every array-like variable declared outside the body (raw pointer,
// built-in array, std::vector, std::array) the body subscripts, each access's
// first-dimension subscript is put in linear form over the induction
// variable and the variables of inner loops. When all of them are affine with
// the same coefficient of the induction variable, one section covers them:
// `Scale*i + Offset` plus `Extent` elements, the inner loops' ranges folded
// into Offset and Extent. Otherwise the whole object is mapped (a raw pointer
// then needs its extent from a map clause).
#include "gpuautopar/DataMap.h"
#include "Containers.h"
#include "ExprHelpers.h"
#include "gpuautopar/Diagnostics.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Lex/Lexer.h"

#include <algorithm>
#include <cassert>
#include <map>
#include <set>

namespace gpuautopar {
namespace {

using namespace clang;

// A value `Sym + Num`, where Sym is loop-invariant source text (possibly empty).
struct Term {
  std::string Sym;
  long long Num = 0;
  bool isZero() const { return Sym.empty() && Num == 0; }
  std::string str() const {
    if (Sym.empty())
      return std::to_string(Num);
    if (Num == 0)
      return Sym;
    return "(" + Sym + ")" + (Num < 0 ? " - " + std::to_string(-Num) : " + " + std::to_string(Num));
  }
};

Term add(const Term &A, const Term &B, bool Negate = false) {
  Term R;
  R.Num = Negate ? A.Num - B.Num : A.Num + B.Num;
  if (A.Sym.empty())
    R.Sym = B.Sym.empty() ? "" : (Negate ? "-(" + B.Sym + ")" : B.Sym);
  else if (B.Sym.empty())
    R.Sym = A.Sym;
  else
    R.Sym = A.Sym + (Negate ? " - (" : " + (") + B.Sym + ")";
  return R;
}

Term scale(const Term &A, const Term &Factor) {
  if (Factor.Sym.empty()) {
    Term R;
    R.Num = A.Num * Factor.Num;
    if (!A.Sym.empty() && Factor.Num != 0)
      R.Sym = Factor.Num == 1    ? A.Sym
              : Factor.Num == -1 ? "-(" + A.Sym + ")"
                                 : "(" + A.Sym + ") * " + std::to_string(Factor.Num);
    return R;
  }
  if (A.Sym.empty()) {
    if (A.Num == 0)
      return Term{};
    return Term{A.Num == 1    ? Factor.Sym
                : A.Num == -1 ? "-(" + Factor.Sym + ")"
                              : "(" + Factor.Sym + ") * " + std::to_string(A.Num),
                0};
  }
  return Term{"(" + A.str() + ") * (" + Factor.str() + ")", 0};
}

// A linear form: Const + sum of Coef[v] * v over loop variables v.
struct Linear {
  Term Const;
  std::map<const VarDecl *, Term> Coef;
};

// The range of an inner loop's variable: [Lower, Lower + Count).
struct InnerRange {
  Term Lower, Count;
};

class LinearForm {
public:
  LinearForm(const VarDecl *Induction, const std::map<const VarDecl *, InnerRange> &Inner,
             const std::set<const VarDecl *> &Invariant, const std::set<const VarDecl *> &Local,
             const ASTContext &Ctx)
      : Induction(Induction), Inner(Inner), Invariant(Invariant), Local(Local), Ctx(Ctx) {}

  std::optional<Linear> of(const Expr *E) const {
    E = E->IgnoreParenImpCasts();
    if (const auto *Lit = dyn_cast<IntegerLiteral>(E)) {
      Linear L;
      L.Const.Num = static_cast<long long>(Lit->getValue().getLimitedValue());
      return L;
    }
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
      const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
      if (!V)
        return std::nullopt;
      Linear L;
      if (V == Induction || Inner.count(V))
        L.Coef[V] = Term{"", 1};
      else if (Local.count(V))
        // A variable of the body changes from iteration to iteration and
        // cannot be named before the loop. A const one stands for its
        // initialiser (`const int row = i * n;` then `a[row + j]`).
        return V->getType().isConstQualified() && V->getInit() ? of(V->getInit()) : std::nullopt;
      else if (Invariant.count(V) || V->getType().isConstQualified())
        L.Const.Sym = V->getNameAsString();
      else
        return std::nullopt;
      return L;
    }
    if (const auto *U = dyn_cast<UnaryOperator>(E)) {
      if (U->getOpcode() == UO_Plus)
        return of(U->getSubExpr());
      if (U->getOpcode() == UO_Minus)
        if (auto S = of(U->getSubExpr()))
          return scaled(*S, Term{"", -1});
      return std::nullopt;
    }
    const auto *B = dyn_cast<BinaryOperator>(E);
    if (!B)
      return invariantText(E);
    auto L = of(B->getLHS()), R = of(B->getRHS());
    if (!L || !R)
      return invariantText(E);
    switch (B->getOpcode()) {
    case BO_Add:
    case BO_Sub: {
      bool Neg = B->getOpcode() == BO_Sub;
      Linear Out;
      Out.Const = add(L->Const, R->Const, Neg);
      Out.Coef = L->Coef;
      for (auto &[V, C] : R->Coef)
        Out.Coef[V] = Out.Coef.count(V) ? add(Out.Coef[V], C, Neg) : (Neg ? scale(C, Term{"", -1}) : C);
      return Out;
    }
    case BO_Mul:
      if (L->Coef.empty())
        return scaled(*R, L->Const);
      if (R->Coef.empty())
        return scaled(*L, R->Const);
      return std::nullopt;
    default:
      return invariantText(E);
    }
  }

private:
  static Linear scaled(const Linear &L, const Term &F) {
    Linear Out;
    Out.Const = scale(L.Const, F);
    for (auto &[V, C] : L.Coef)
      Out.Coef[V] = scale(C, F);
    return Out;
  }
  // An expression without loop variables or body-local names (a call such as
  // n / 2 or size()) is a loop-invariant constant, kept as text.
  std::optional<Linear> invariantText(const Expr *E) const {
    if (!isInvariant(E))
      return std::nullopt;
    Linear L;
    L.Const.Sym = "(" + sourceText(E, Ctx) + ")";
    return L;
  }
  bool isInvariant(const Expr *E) const {
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts())) {
      const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
      return !V || Invariant.count(V) || (V->getType().isConstQualified() && !Local.count(V));
    }
    if (isa<IntegerLiteral>(E->IgnoreParenImpCasts()))
      return true;
    if (isa<BinaryOperator>(E->IgnoreParenImpCasts()) || isa<UnaryOperator>(E->IgnoreParenImpCasts())) {
      for (const Stmt *C : E->IgnoreParenImpCasts()->children())
        if (!isa<Expr>(C) || !isInvariant(cast<Expr>(C)))
          return false;
      return true;
    }
    return false;
  }

  const VarDecl *Induction;
  const std::map<const VarDecl *, InnerRange> &Inner;
  const std::set<const VarDecl *> &Invariant;
  const std::set<const VarDecl *> &Local;
  const ASTContext &Ctx;
};

// What the walk finds about one variable.
struct Uses {
  const VarDecl *Var;
  ContainerKind Kind;
  bool Read = false, Written = false, NonAffine = false;
  bool ConditionalWrite = false; // some write may not happen, or covers part of an element
  std::vector<Linear> Subscripts;
  SourceLocation First;
};

class Walker : public DynamicRecursiveASTVisitor {
public:
  Walker(const Stmt *Body, ASTContext &Ctx) : Body(Body), Ctx(Ctx) {}

  bool VisitVarDecl(VarDecl *V) override {
    Local.insert(V);
    return true;
  }
  bool VisitForStmt(ForStmt *F) override {
    InnerLoops.push_back(F);
    return true;
  }
  // Anything assigned in the body is not loop-invariant.
  bool VisitBinaryOperator(BinaryOperator *B) override {
    if (B->isAssignmentOp())
      noteAssigned(B->getLHS());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *U) override {
    if (U->isIncrementDecrementOp())
      noteAssigned(U->getSubExpr());
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *Ref) override {
    Refs.push_back(Ref);
    return true;
  }
  // After one of these, later writes may not happen.
  bool VisitContinueStmt(ContinueStmt *) override { return exits(); }
  bool VisitBreakStmt(BreakStmt *) override { return exits(); }
  bool VisitReturnStmt(ReturnStmt *) override { return exits(); }
  bool VisitGotoStmt(GotoStmt *) override { return exits(); }
  bool VisitCXXThrowExpr(CXXThrowExpr *) override { return exits(); }
  bool exits() {
    if (LambdaDepth == 0) // a lambda's return leaves the lambda, not the iteration
      HasEarlyExit = true;
    return true;
  }
  bool TraverseLambdaExpr(LambdaExpr *L) override {
    ++LambdaDepth;
    bool Result = DynamicRecursiveASTVisitor::TraverseLambdaExpr(L);
    --LambdaDepth;
    return Result;
  }
  bool HasEarlyExit = false;
  int LambdaDepth = 0;

  const Stmt *Body;
  ASTContext &Ctx;
  std::set<const VarDecl *> Local, Assigned;
  std::vector<ForStmt *> InnerLoops;
  std::vector<DeclRefExpr *> Refs;

private:
  void noteAssigned(const Expr *E) {
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
      if (const auto *V = dyn_cast<VarDecl>(Ref->getDecl()))
        Assigned.insert(V);
  }
};

const Stmt *parentOf(const Stmt *S, ASTContext &Ctx) {
  auto Parents = Ctx.getParents(*S);
  return Parents.empty() ? nullptr : Parents[0].get<Stmt>();
}

// The index expression applied directly to `E` (as `E[idx]`), if any.
const Expr *subscriptOn(const Expr *E, const Stmt *Parent) {
  if (const auto *A = dyn_cast_or_null<ArraySubscriptExpr>(Parent))
    if (A->getBase()->IgnoreParenImpCasts() == E->IgnoreParenImpCasts())
      return A->getIdx();
  if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(Parent))
    if (Op->getOperator() == OO_Subscript && Op->getNumArgs() == 2 &&
        Op->getArg(0)->IgnoreParenImpCasts() == E->IgnoreParenImpCasts())
      return Op->getArg(1);
  return nullptr;
}

const Stmt *skipWrappers(const Stmt *S, const Stmt *&Child, ASTContext &Ctx) {
  const Stmt *P = parentOf(S, Ctx);
  while (P && (isa<ImplicitCastExpr>(P) || isa<ParenExpr>(P) || isa<MaterializeTemporaryExpr>(P))) {
    Child = P;
    P = parentOf(P, Ctx);
  }
  return P;
}

// Written arrays go back; an array only written, one element per iteration
// and every element of its section, need not come in (`from`).
MapKind inferredKind(const ArrayUse &U) {
  if (!U.Written)
    return MapKind::To;
  return U.WritesWholeSection ? MapKind::From : MapKind::ToFrom;
}

class Inference {
public:
  Inference(LoopAnalysis &A, ASTContext &Ctx, DiagnosticsEngine &Diags) : A(A), Ctx(Ctx), Diags(Diags) {}

  bool run() {
    const CanonicalLoop &L = *A.Loop;
    Walker W(L.body(), Ctx);
    W.TraverseStmt(const_cast<Stmt *>(L.body()));
    Body = L.body();

    std::set<const VarDecl *> Invariant;
    for (const DeclRefExpr *Ref : W.Refs)
      if (const auto *V = dyn_cast<VarDecl>(Ref->getDecl()))
        if (!W.Local.count(V) && !W.Assigned.count(V) && V != L.Induction)
          Invariant.insert(V);
    std::map<const VarDecl *, InnerRange> Inner = innerRanges(W, Invariant);
    LinearForm Form(L.Induction, Inner, Invariant, W.Local, Ctx);

    std::map<const VarDecl *, Uses> Found;
    std::vector<const VarDecl *> Order;
    for (DeclRefExpr *Ref : W.Refs) {
      const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
      // A private array is the body's own copy (firstprivate: captured whole).
      if (!V || W.Local.count(V) || V == L.Induction || llvm::is_contained(A.Clauses.Privates, V))
        continue;
      std::optional<ContainerKind> Kind = containerKind(V->getType());
      if (!Kind)
        continue;
      auto [It, New] = Found.try_emplace(V, Uses{V, *Kind});
      if (New) {
        Order.push_back(V);
        It->second.First = Ref->getLocation();
      }
      noteUse(It->second, Ref, Form);
    }
    if (L.RangeContainer) {
      std::optional<ContainerKind> Kind = containerKind(L.RangeContainer->getType());
      // Classification keeps a range over anything else off the GPU.
      assert(Kind && "kernel-mode range-for over an object no map can copy");
      auto [It, New] = Found.try_emplace(L.RangeContainer, Uses{L.RangeContainer, *Kind});
      if (New) {
        Order.insert(Order.begin(), L.RangeContainer);
        It->second.First = L.RangeFor->getRangeInit()->getBeginLoc();
      }
      const VarDecl *LoopVar = L.RangeFor->getLoopVariable();
      QualType T = LoopVar->getType();
      It->second.Read = true;
      if (T->isReferenceType() && !T.getNonReferenceType().isConstQualified())
        It->second.Written = true;
      It->second.Subscripts.push_back(Linear{Term{}, {{nullptr, Term{"", 1}}}});
    }

    bool Ok = true;
    for (const VarDecl *V : Order) {
      const Uses &U = Found[V];
      ArrayUse Use;
      Use.Var = V;
      Use.Container = U.Kind;
      Use.Read = U.Read;
      Use.Written = U.Written;
      Use.FirstUse = U.First;
      Use.Section = section(U, Inner, L.RangeFor ? nullptr : L.Induction);
      // Only with a unit step do the iterations' sections tile the chunk's
      // hull; with i += 5 the elements between would come back as garbage.
      const bool UnitStep = L.RangeFor || !L.Step;
      Use.WritesWholeSection = UnitStep && U.Written && !U.Read && !U.ConditionalWrite && !W.HasEarlyExit && Use.Section &&
                               Use.Section->HullParts.empty() &&
                               (Use.Section->Extent == Use.Section->Scale ||
                                (Use.Section->Extent == "1" && Use.Section->Scale == "-1"));
      const MapClause *Clause = clauseFor(V);
      Use.Kind = Clause ? Clause->Kind : inferredKind(Use);
      if (!Use.Section && U.Kind == ContainerKind::RawPointer && (!Clause || Clause->Length.empty())) {
        report(Diags, Diag::MapNeedsLength, U.First)
            << V->getName() << (U.Written ? (U.Read ? "tofrom" : "from") : "to");
        Ok = false;
      }
      A.Arrays.push_back(std::move(Use));
    }
    // Variables only named in map clauses (e.g. alloc scratch) are mapped too.
    for (const MapClause &C : A.Clauses.Maps)
      if (C.Var && !Found.count(C.Var))
        if (std::optional<ContainerKind> Kind = containerKind(C.Var->getType())) {
          ArrayUse Use;
          Use.Var = C.Var;
          Use.Container = *Kind;
          Use.FirstUse = C.Loc;
          Use.Kind = C.Kind;
          A.Arrays.push_back(std::move(Use));
        }
    return Ok;
  }

private:
  const MapClause *clauseFor(const VarDecl *V) const {
    for (const MapClause &C : A.Clauses.Maps)
      if (C.Var == V)
        return &C;
    return nullptr;
  }

  void noteUse(Uses &U, const DeclRefExpr *Ref, const LinearForm &Form) {
    const Stmt *Child = Ref;
    const Stmt *P = skipWrappers(Ref, Child, Ctx);
    const Expr *Idx = subscriptOn(cast<Expr>(Child), P);
    if (!Idx) {
      // x.size(), x.data(), pointer arithmetic, passing x on: no element
      // section can be told, except for size()/empty() which touch none.
      if (const auto *M = dyn_cast_or_null<MemberExpr>(P)) {
        StringRef Name = M->getMemberDecl()->getName();
        if (Name == "size" || Name == "empty")
          return;
      }
      U.NonAffine = true;
      U.Read = U.Written = true; // conservatively: copied in, and back where changed
      return;
    }
    if (std::optional<Linear> Lin = Form.of(Idx))
      U.Subscripts.push_back(*Lin);
    else
      U.NonAffine = true;
    // Walk up the remaining subscripts (a[i][j]) to the element access.
    const Stmt *Access = P;
    const Stmt *Up = parentOf(Access, Ctx);
    // Also through a field of the element (pts[i].x): reading the field reads
    // the element, assigning it writes the element.
    while (Up && (isa<ArraySubscriptExpr>(Up) || isa<ParenExpr>(Up) ||
                  (isa<ImplicitCastExpr>(Up) && cast<ImplicitCastExpr>(Up)->getCastKind() != CK_LValueToRValue) ||
                  (isa<MemberExpr>(Up) && !cast<MemberExpr>(Up)->isArrow() &&
                   isa<FieldDecl>(cast<MemberExpr>(Up)->getMemberDecl())) ||
                  (isa<CXXOperatorCallExpr>(Up) && cast<CXXOperatorCallExpr>(Up)->getOperator() == OO_Subscript))) {
      Access = Up;
      Up = parentOf(Up, Ctx);
    }
    // A write through a further subscript (a[i][j]) writes part of the
    // element the section counts in; a conditional one may not happen.
    if (classify(U, Access, Up) && (Access != P || !unconditional(Up)))
      U.ConditionalWrite = true;
  }

  // Whether the statement containing an access runs in every iteration: only
  // blocks and inner canonical loops lie between it and the loop body.
  bool unconditional(const Stmt *S) const {
    while (S && S != Body) {
      const Stmt *P = parentOf(S, Ctx);
      if (!P)
        return false;
      if (const auto *F = dyn_cast<ForStmt>(P)) {
        if (F->getBody() != S)
          return false;
      } else if (!isa<CompoundStmt>(P) && !isa<ExprWithCleanups>(P) && !isa<BinaryOperator>(P) &&
                 !isa<CXXOperatorCallExpr>(P) && !isa<ImplicitCastExpr>(P) && !isa<ParenExpr>(P) &&
                 !isa<AttributedStmt>(P)) {
        return false;
      }
      S = P;
    }
    return S == Body;
  }

  // Notes whether the element access is read and/or written; returns whether it writes.
  static bool classify(Uses &U, const Stmt *Access, const Stmt *Parent) {
    // An initialiser list's syntactic form holds the element without its
    // lvalue-to-rvalue conversion: `float t[2] = {a[i].x, a[i].y}` reads.
    if (isa_and_nonnull<InitListExpr>(Parent) && !cast<Expr>(Access)->getType()->isReferenceType()) {
      U.Read = true;
      return false;
    }
    if (const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(Parent)) {
      if (Cast->getCastKind() == CK_LValueToRValue) {
        U.Read = true;
        return false;
      }
    }
    if (const auto *B = dyn_cast_or_null<BinaryOperator>(Parent)) {
      if (B->getLHS()->IgnoreParens() == Access) {
        if (B->getOpcode() == BO_Assign) {
          U.Written = true;
          return true;
        }
        if (B->isCompoundAssignmentOp()) {
          U.Read = U.Written = true;
          return true;
        }
      }
    }
    if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(Parent)) {
      if (Op->getOperator() == OO_Equal && Op->getArg(0)->IgnoreParens() == Access) {
        U.Written = true;
        return true;
      }
    }
    // Increments, references bound to the element, address taken, calls:
    // it may be read and written.
    U.Read = U.Written = true;
    return true;
  }

  std::map<const VarDecl *, InnerRange> innerRanges(const Walker &W, const std::set<const VarDecl *> &Invariant) {
    std::map<const VarDecl *, InnerRange> Out;
    for (const ForStmt *F : W.InnerLoops) {
      // for (j = lo; j < hi; ++j) or for (j = hi; j >= lo; --j) with
      // invariant lo and hi; j declared in the header or before the loop
      // (C89 style, private(j)).
      const VarDecl *J = nullptr;
      const Expr *First = nullptr;
      if (const auto *Init = dyn_cast_or_null<DeclStmt>(F->getInit()); Init && Init->isSingleDecl()) {
        J = dyn_cast<VarDecl>(Init->getSingleDecl());
        First = J ? J->getInit() : nullptr;
      } else if (const auto *Assign = dyn_cast_or_null<BinaryOperator>(F->getInit());
                 Assign && Assign->getOpcode() == BO_Assign) {
        if (const auto *Ref = dyn_cast<DeclRefExpr>(Assign->getLHS()->IgnoreParenImpCasts()))
          J = dyn_cast<VarDecl>(Ref->getDecl());
        First = Assign->getRHS();
      }
      if (!J || !First)
        continue;
      const auto *Cond = dyn_cast_or_null<BinaryOperator>(F->getCond());
      const auto *Inc = dyn_cast_or_null<UnaryOperator>(F->getInc());
      if (!Cond || !Inc || !Inc->isIncrementDecrementOp())
        continue;
      const auto *LhsRef = dyn_cast<DeclRefExpr>(Cond->getLHS()->IgnoreParenImpCasts());
      const bool Up = Inc->isIncrementOp();
      const BinaryOperatorKind Op = Cond->getOpcode();
      if (!LhsRef || LhsRef->getDecl() != J || (Up && Op != BO_LT && Op != BO_LE) ||
          (!Up && Op != BO_GT && Op != BO_GE))
        continue;
      std::map<const VarDecl *, InnerRange> None;
      LinearForm Plain(nullptr, None, Invariant, W.Local, Ctx);
      auto Start = Plain.of(First), Limit = Plain.of(Cond->getRHS());
      if (!Start || !Limit || !Start->Coef.empty() || !Limit->Coef.empty())
        continue;
      // Up: [start, limit) or [start, limit]; down: (limit, start] or [limit, start].
      Term Lo = Up ? Start->Const : Limit->Const;
      if (!Up && Op == BO_GT)
        Lo = add(Lo, Term{"", 1});
      Term Count = Up ? add(Limit->Const, Start->Const, /*Negate=*/true) : add(Start->Const, Lo, /*Negate=*/true);
      if (Op == BO_LE || !Up)
        Count.Num += 1;
      Out[J] = InnerRange{Lo, Count};
    }
    return Out;
  }

  // One section covering every subscript, or nothing when they do not share
  // the induction variable's coefficient or are not affine. Offsets equal up
  // to a number merge into one (offset, extent); offsets that differ by
  // symbols stay separate parts whose hull the runtime computes.
  std::optional<AffineSection> section(const Uses &U, const std::map<const VarDecl *, InnerRange> &Inner,
                                       const VarDecl *Induction) {
    if (U.NonAffine || U.Subscripts.empty())
      return std::nullopt;
    std::optional<std::string> Scale;
    struct Group {
      std::string OffSym, ExtSym;
      long long MinOff, MaxEnd;
    };
    std::vector<Group> Groups;
    for (const Linear &Lin : U.Subscripts) {
      Term Coef = Term{"", 0};
      Term Off = Lin.Const;
      Term Ext = Term{"", 1};
      for (auto &[V, C] : Lin.Coef) {
        if (V == Induction) {
          Coef = C;
          continue;
        }
        auto It = Inner.find(V);
        if (It == Inner.end())
          return std::nullopt;
        // c*j over j in [lo, lo + count): adds c*lo to the offset and
        // c*(count - 1) to the extent; only non-negative numeric c.
        if (!C.Sym.empty() || C.Num < 0)
          return std::nullopt;
        Off = add(Off, scale(It->second.Lower, C));
        Ext = add(Ext, scale(add(It->second.Count, Term{"", 1}, true), C));
      }
      std::string S = Coef.str();
      if (!Scale)
        Scale = S;
      else if (S != *Scale)
        return std::nullopt;
      auto G = std::find_if(Groups.begin(), Groups.end(),
                            [&](const Group &G) { return G.OffSym == Off.Sym && G.ExtSym == Ext.Sym; });
      if (G == Groups.end()) {
        Groups.push_back(Group{Off.Sym, Ext.Sym, Off.Num, Off.Num + Ext.Num});
        continue;
      }
      G->MinOff = std::min(G->MinOff, Off.Num);
      G->MaxEnd = std::max(G->MaxEnd, Off.Num + Ext.Num);
    }
    AffineSection Sec;
    Sec.Scale = *Scale;
    for (const Group &G : Groups)
      Sec.HullParts.emplace_back(Term{G.OffSym, G.MinOff}.str(), Term{G.ExtSym, G.MaxEnd - G.MinOff}.str());
    Sec.Offset = Sec.HullParts.front().first;
    Sec.Extent = Sec.HullParts.front().second;
    if (Sec.HullParts.size() == 1)
      Sec.HullParts.clear();
    return Sec;
  }

  LoopAnalysis &A;
  ASTContext &Ctx;
  DiagnosticsEngine &Diags;
  const Stmt *Body = nullptr;
};

} // namespace

bool inferDataMaps(LoopAnalysis &A, ASTContext &Ctx, DiagnosticsEngine &Diags) {
  A.Arrays.clear();
  if (!A.Loop)
    return true;
  return Inference(A, Ctx, Diags).run();
}

} // namespace gpuautopar
