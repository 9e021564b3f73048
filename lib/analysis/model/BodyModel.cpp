#include "model/BodyCollector.h"
#include "Containers.h"
#include "FunctionKinds.h"

#include <algorithm>
#include <cassert>

namespace gpuautopar {
namespace bodymodel {

void Collector::run(const Stmt *Body) {
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
bool Collector::TraverseForStmt(ForStmt *S) {
  TraverseStmt(S->getInit());
  const InnerLoop *L = Lambdas == 0 ? counted(S) : nullptr;
  Around.push_back(L ? Enclosing{Enclosing::Counted, L} : Enclosing{});
  Scopes.push_back({S, L});
  bool R = TraverseStmt(S->getCond()) && TraverseStmt(S->getInc()) && TraverseStmt(S->getBody());
  Scopes.pop_back();
  Around.pop_back();
  return R;
}

bool Collector::TraverseIfStmt(IfStmt *S) {
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

bool Collector::VisitContinueStmt(ContinueStmt *S) {
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

// An exception the body catches itself does not leave the iteration.
bool Collector::TraverseCXXTryStmt(CXXTryStmt *S) {
  if (!WalkUpFromCXXTryStmt(S))
    return false;
  ++Tries;
  bool R = TraverseStmt(S->getTryBlock());
  --Tries;
  for (unsigned I = 0; R && I < S->getNumHandlers(); ++I)
    R = TraverseStmt(S->getHandler(I));
  return R;
}

// `float *row = &a[i * n];` or `float &r = a[k];` in the body: writes
// through `row` / `r` reach `a`, which the subscript test cannot follow.
bool Collector::VisitVarDecl(VarDecl *V) {
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

bool Collector::VisitUnaryOperator(UnaryOperator *U) {
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

// Visited before the row it converts: `f(m[i])`, `double *r = m[i];`
// (a conversion to a pointer to const comes first, around the decay).
bool Collector::VisitImplicitCastExpr(ImplicitCastExpr *E) {
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

// `v.at(k)` is `v[k]` (for a container whose subscript names its own element).
bool Collector::VisitCXXMemberCallExpr(CXXMemberCallExpr *E) {
  const CXXMethodDecl *Method = E->getMethodDecl();
  if (Method && Method->getDeclName().isIdentifier() && Method->getName() == "at" && E->getNumArgs() == 1 &&
      subscriptNamesOwnElement(E->getImplicitObjectArgument()->getType()))
    element(E);
  // `v.size()`, `v.empty()`: visited before the `v` below it.
  if (Method && Method->getDeclName().isIdentifier() && E->getNumArgs() == 0 &&
      (Method->getName() == "size" || Method->getName() == "empty"))
    SizeOf.insert(E->getImplicitObjectArgument()->IgnoreParenImpCasts());
  return true;
}

bool Collector::VisitCXXOperatorCallExpr(CXXOperatorCallExpr *E) {
  if (E->isAssignmentOp())
    written(E->getArg(0), E->getOperator() != OO_Equal, false);
  else if (E->getOperator() == OO_PlusPlus || E->getOperator() == OO_MinusMinus)
    written(E->getArg(0), true, false);
  else if (E->getOperator() == OO_Subscript && subscriptNamesOwnElement(E->getArg(0)->getType()))
    element(E);
  else if (E->getOperator() == OO_Subscript && insertsKey(E))
    written(E->getArg(0), true, true); // `m[k]` on a std::map may add the key: the whole map changes
  // Any other class's `obj[k]` is a call (VisitCallExpr): what its body
  // does, and the reference it returns.
  return true;
}

bool Collector::VisitDeclRefExpr(DeclRefExpr *E) {
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

void Collector::rangeElement() {
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

Access Collector::access(const Expr *E) const {
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
void Collector::written(const Expr *T, bool AlsoRead, bool Maybe) {
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

// The array-like variable declared outside whose element or address `E`
// takes (`&a[k]`, `a + k`, `a`, `v[k]`, `v.data()`, `m[i]` for a row), if any.
const VarDecl *Collector::outsideObjectIn(const Expr *E) const {
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
void Collector::element(const Expr *E) {
  if (Consumed.count(E))
    return;
  ElementChain EC = elementChain(E, Ctx);
  std::vector<const Expr *> &Subscripts = EC.Subscripts, &Chain = EC.Chain;
  const Expr *Base = EC.Base;
  // `s.data[i]`, `p->data[i]`, `data[i]` in a method: the member path names the object.
  std::string Path;
  const ValueDecl *Member = nullptr;
  const MemberExpr *Outermost = nullptr;
  QualType ObjectType = Base->getType();
  while (const auto *Mem = dyn_cast<MemberExpr>(Base)) {
    Path = (Mem->isArrow() && !isa<CXXThisExpr>(Mem->getBase()->IgnoreParenImpCasts()) ? "->" : ".") +
           Mem->getMemberDecl()->getNameAsString() + Path;
    if (!Member) {
      Member = Mem->getMemberDecl();
      Outermost = Mem;
    }
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
  A.Member = Outermost;
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
  A.RowInside = RowsInside.count(E);
  A.RowDecays = RowsWritten.count(E) || ConstRows.count(E);
  if (const VarDecl *Ref = BoundTo.lookup(E))
    ElementOf[Ref] = M.Accesses.size();
  M.Accesses.push_back(std::move(A));
}

} // namespace bodymodel

using namespace clang;

bool BodyModel::isOutside(const VarDecl *V, const SourceManager &SM) const {
  return V->isStaticLocal() || !inside(SM, LoopRange, V->getLocation());
}

BodyModel collectBody(const LoopAnalysis &A, ASTContext &Ctx) {
  assert(A.Loop && "only a recognised loop has a body to model");
  BodyModel M;
  M.Body = A.Loop->body();
  bodymodel::Collector C(A, Ctx, M);
  C.run(A.Loop->body());
  return M;
}

} // namespace gpuautopar
