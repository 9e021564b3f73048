#include "model/AffinePoly.h"
#include "model/ReachingValue.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

#include <algorithm>
#include <cassert>

namespace gpuautopar {

using namespace clang;

Poly Poly::constant(int64_t C) {
  Poly P;
  if (C != 0)
    P.Terms[{}] = C;
  return P;
}

Poly Poly::atom(unsigned Id) {
  Poly P;
  P.Terms[{Id}] = 1;
  return P;
}

bool Poly::isConstant() const { return Terms.empty() || (Terms.size() == 1 && Terms.begin()->first.empty()); }

int64_t Poly::constantTerm() const {
  auto It = Terms.find({});
  return It == Terms.end() ? 0 : It->second;
}

// Overflow in a subscript polynomial means it is not something the test can
// reason about: the caller treats a failure as "not affine".
std::optional<Poly> add(const Poly &A, const Poly &B) {
  Poly R = A;
  for (const auto &[M, C] : B.Terms) {
    int64_t &Slot = R.Terms[M];
    if (__builtin_add_overflow(Slot, C, &Slot))
      return std::nullopt;
    if (Slot == 0)
      R.Terms.erase(M);
  }
  return R;
}

std::optional<Poly> scale(const Poly &A, int64_t K) {
  Poly R;
  if (K == 0)
    return R;
  for (const auto &[M, C] : A.Terms) {
    int64_t V;
    if (__builtin_mul_overflow(C, K, &V))
      return std::nullopt;
    R.Terms[M] = V;
  }
  return R;
}

std::optional<Poly> multiply(const Poly &A, const Poly &B) {
  Poly R;
  for (const auto &[MA, CA] : A.Terms)
    for (const auto &[MB, CB] : B.Terms) {
      Monomial M = MA;
      M.insert(M.end(), MB.begin(), MB.end());
      std::sort(M.begin(), M.end());
      int64_t V;
      if (__builtin_mul_overflow(CA, CB, &V))
        return std::nullopt;
      Poly Term;
      Term.Terms[M] = V;
      std::optional<Poly> Sum = add(R, Term);
      if (!Sum)
        return std::nullopt;
      R = std::move(*Sum);
    }
  return R;
}

AtomTable::Key AtomTable::keyOf(const Atom &A) {
  const Poly None;
  return Key{A.K, A.Loop, A.Root, A.Path, A.A ? A.A->Terms : None.Terms, A.B ? A.B->Terms : None.Terms,
             A.A != nullptr, A.B != nullptr, A.Divisor, A.Test ? A.Test->Terms : None.Terms, A.TestZero};
}

unsigned AtomTable::intern(Atom A) {
  auto [It, New] = ByKey.try_emplace(keyOf(A), Atoms.size());
  if (New) {
    A.Varies = A.K == Atom::Induction || A.K == Atom::Inner || (A.A && varies(*A.A)) || (A.B && varies(*A.B)) ||
               (A.Test && varies(*A.Test));
    Atoms.push_back(std::move(A));
  }
  return It->second;
}

bool AtomTable::varies(const Monomial &M) const {
  return std::any_of(M.begin(), M.end(), [&](unsigned Id) { return Atoms[Id].Varies; });
}

bool AtomTable::varies(const Poly &P) const {
  return std::any_of(P.Terms.begin(), P.Terms.end(), [&](const auto &T) { return varies(T.first); });
}

std::optional<Poly> minus(const Poly &A, const Poly &B) {
  std::optional<Poly> MinusB = scale(B, -1);
  return MinusB ? add(A, *MinusB) : std::nullopt;
}

std::optional<int64_t> difference(const Poly &A, const Poly &B) {
  std::optional<Poly> D = minus(A, B);
  return D && D->isConstant() ? std::optional(D->constantTerm()) : std::nullopt;
}

namespace {
// The last value a loop from `First` by `Step` takes before passing `Limit`:
// with j += 2 over [0, 7], 6. Only where the distance is a number.
Poly lastValue(const Poly &First, const Poly &Limit, int64_t Step) {
  std::optional<Poly> Minus = scale(First, -1);
  std::optional<Poly> Distance = Minus ? add(Limit, *Minus) : std::nullopt;
  if (Step == 1 || Step == -1 || !Distance || !Distance->isConstant())
    return Limit;
  const int64_t D = Distance->constantTerm();
  if ((D > 0) != (Step > 0) || D == 0)
    return Limit;
  std::optional<Poly> Last = add(First, Poly::constant(D / Step * Step));
  return Last ? *Last : Limit;
}
} // namespace

std::optional<std::pair<Poly, Poly>> Linearizer::range(const InnerLoop &Loop, const std::vector<Enclosing> &Outside) {
  std::optional<Poly> First = of(Loop.Lower, Outside), Bound = of(Loop.Bound, Outside);
  if (!First || !Bound || Loop.Step == 0)
    return std::nullopt;
  // The body model keeps only loops that move toward their bound, with `!=`
  // already read as `<` or `>`. Up: [first, bound) or [first, bound]; down:
  // (bound, first] or [bound, first].
  assert(Loop.Compare != LoopCompare::NotEqual && "'!=' is stored as '<' or '>'");
  const bool Strict = Loop.Compare == LoopCompare::Less || Loop.Compare == LoopCompare::Greater;
  if (Loop.Step > 0) {
    std::optional<Poly> High = Strict ? add(*Bound, Poly::constant(-1)) : Bound;
    return High ? std::optional(std::make_pair(*First, lastValue(*First, *High, Loop.Step))) : std::nullopt;
  }
  std::optional<Poly> Low = Strict ? add(*Bound, Poly::constant(1)) : Bound;
  return Low ? std::optional(std::make_pair(lastValue(*First, *Low, Loop.Step), *First)) : std::nullopt;
}

std::optional<Poly> Linearizer::of(const Expr *E, const std::vector<Enclosing> &At) {
  Around = &At;
  std::optional<Poly> P = walk(E, 0);
  Around = nullptr;
  return P;
}

std::optional<Poly> Linearizer::variable(const Expr *E, int Depth) {
  const SourceManager &SM = Ctx.getSourceManager();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
    if (!V || !V->getType()->isIntegerType())
      return std::nullopt;
    if (V == M.Induction)
      return Poly::atom(T.intern(Atom{Atom::Induction}));
    // The innermost counted loop around this place that counts V.
    for (auto It = Around->rbegin(); It != Around->rend(); ++It)
      if (It->K == Enclosing::Counted && It->Loop->Var == V && !It->Loop->Irregular &&
          inside(SM, It->Loop->Stmt->getBody()->getSourceRange(), Ref->getLocation())) {
        Atom A{Atom::Inner};
        A.Loop = It->Loop;
        A.Spelling = V->getNameAsString();
        return Poly::atom(T.intern(std::move(A)));
      }
    // A scalar the body assigns (`i = 1; f[i][j]`, a private of NPB's):
    // the value of the one assignment that reaches this read.
    if ((M.WrittenOutside.count(V) || M.WrittenLocals.count(V)) && M.Body && Depth < 4)
      if (const Expr *Value = reachingValue(M.Body, Ref))
        return walk(Value, Depth + 1);
    if (M.isOutside(V, SM)) {
      if (M.WrittenOutside.count(V))
        return std::nullopt;
      Atom A{Atom::Param};
      A.Root = V;
      A.Spelling = V->getNameAsString();
      return Poly::atom(T.intern(std::move(A)));
    }
    // A local of the body that names a value (`int k = 2*i + 1;`) and is
    // never assigned again stands for its initialiser.
    if (V->hasInit() && !V->getType()->isReferenceType() && !M.WrittenLocals.count(V) && Depth < 4)
      return walk(V->getInit(), Depth + 1);
    return std::nullopt;
  }
  // `g.offset`, `this->n`: a member path of an object the body does not write.
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    if (!ME->getType()->isIntegerType())
      return std::nullopt;
    std::vector<const ValueDecl *> Path;
    const Expr *Base = E;
    std::string Spelling;
    while (const auto *Mem = dyn_cast<MemberExpr>(Base)) {
      if (Mem->isArrow() && !isa<CXXThisExpr>(Mem->getBase()->IgnoreParenImpCasts()))
        return std::nullopt;
      Path.insert(Path.begin(), Mem->getMemberDecl());
      Spelling = "." + Mem->getMemberDecl()->getNameAsString() + Spelling;
      Base = Mem->getBase()->IgnoreParenImpCasts();
    }
    Atom A{Atom::Param};
    A.Path = std::move(Path);
    if (isa<CXXThisExpr>(Base)) {
      A.Spelling = Spelling.substr(1);
    } else {
      const auto *Root = dyn_cast<DeclRefExpr>(Base);
      const auto *V = Root ? dyn_cast<VarDecl>(Root->getDecl()) : nullptr;
      if (!V || !M.isOutside(V, SM) || M.WrittenOutside.count(V))
        return std::nullopt;
      A.Root = V;
      A.Spelling = V->getNameAsString() + Spelling;
    }
    return Poly::atom(T.intern(std::move(A)));
  }
  return std::nullopt;
}

// `v.size()` of a container the body does not resize, `std::min` or
// `std::max` of two integers.
std::optional<Poly> Linearizer::call(const CallExpr *Call, int Depth) {
  // v.size() of a container the body does not resize.
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call)) {
    const CXXMethodDecl *Method = MC->getMethodDecl();
    const auto *Obj = dyn_cast<DeclRefExpr>(MC->getImplicitObjectArgument()->IgnoreParenImpCasts());
    const auto *V = Obj ? dyn_cast<VarDecl>(Obj->getDecl()) : nullptr;
    if (Method && Method->getDeclName().isIdentifier() && Method->getName() == "size" && MC->getNumArgs() == 0 &&
        V && M.isOutside(V, Ctx.getSourceManager()) && !M.WrittenOutside.count(V)) {
      Atom A{Atom::Size};
      A.Root = V;
      A.Spelling = V->getNameAsString() + ".size()";
      return Poly::atom(T.intern(std::move(A)));
    }
    return std::nullopt;
  }
  // The same in a template, where `v` has a dependent type (`std::vector<T> &`).
  if (const auto *DM = dyn_cast<CXXDependentScopeMemberExpr>(Call->getCallee()->IgnoreParens())) {
    const auto *Obj = DM->isImplicitAccess() ? nullptr : dyn_cast<DeclRefExpr>(DM->getBase()->IgnoreParenImpCasts());
    const auto *V = Obj ? dyn_cast<VarDecl>(Obj->getDecl()) : nullptr;
    if (DM->getMember().isIdentifier() && DM->getMember().getAsIdentifierInfo()->getName() == "size" &&
        Call->getNumArgs() == 0 && !DM->isArrow() && V && M.isOutside(V, Ctx.getSourceManager()) &&
        !M.WrittenOutside.count(V)) {
      Atom A{Atom::Size};
      A.Root = V;
      A.Spelling = V->getNameAsString() + ".size()";
      return Poly::atom(T.intern(std::move(A)));
    }
    return std::nullopt;
  }
  // std::min / std::max of two integers.
  const FunctionDecl *F = Call->getDirectCallee();
  if (F && F->isInStdNamespace() && F->getDeclName().isIdentifier() && Call->getNumArgs() == 2 &&
      (F->getName() == "min" || F->getName() == "max")) {
    std::optional<Poly> L = walk(Call->getArg(0), Depth), R = walk(Call->getArg(1), Depth);
    if (!L || !R)
      return std::nullopt;
    Atom A{F->getName() == "min" ? Atom::Min : Atom::Max};
    A.A = std::make_shared<Poly>(*L);
    A.B = std::make_shared<Poly>(*R);
    return Poly::atom(T.intern(std::move(A)));
  }
  return std::nullopt;
}

// `grid_points[0]`: an integer element, at a constant subscript, of an
// array declared outside that the body does not write (nor hand on, nor
// write through a local): a value fixed before the loop, read as a parameter.
std::optional<Poly> Linearizer::invariantElement(const ArraySubscriptExpr *E) {
  if (!E->getType()->isIntegerType() || E->isValueDependent())
    return std::nullopt;
  Expr::EvalResult Index;
  if (E->getIdx()->isValueDependent() || !E->getIdx()->EvaluateAsInt(Index, Ctx))
    return std::nullopt;
  const auto *Ref = dyn_cast<DeclRefExpr>(E->getBase()->IgnoreParenImpCasts());
  const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!V || V == M.Induction || !M.isOutside(V, Ctx.getSourceManager()) || M.WrittenOutside.count(V))
    return std::nullopt;
  for (const Access &X : M.Accesses)
    if (X.Var == V && (X.Write || X.MayWrite || X.AddressTaken))
      return std::nullopt;
  for (const BodyModel::Escape &X : M.Escapes)
    if (X.Target == V)
      return std::nullopt;
  for (const BodyModel::AliasWrite &W : M.AliasWrites)
    if (W.Target == V)
      return std::nullopt;
  const int64_t K = Index.Val.getInt().getExtValue();
  Atom A{Atom::Param};
  A.Root = V;
  A.A = std::make_shared<Poly>(Poly::constant(K)); // the subscript, for the atom's identity
  A.Spelling = V->getNameAsString() + "[" + std::to_string(K) + "]";
  return Poly::atom(T.intern(std::move(A)));
}

// `a < b ? a : b` is min(a, b) and `a < b ? b : a` is max(a, b) (also with
// `<=`, `>`, `>=`), as std::min and std::max are.
std::optional<Poly> Linearizer::minOrMax(const ConditionalOperator *C, int Depth) {
  const auto *Cmp = dyn_cast<BinaryOperator>(C->getCond()->IgnoreParenImpCasts());
  if (!Cmp || !Cmp->isRelationalOp())
    return std::nullopt;
  std::optional<Poly> L = walk(Cmp->getLHS(), Depth), R = walk(Cmp->getRHS(), Depth);
  std::optional<Poly> Then = walk(C->getTrueExpr(), Depth), Else = walk(C->getFalseExpr(), Depth);
  if (!L || !R || !Then || !Else)
    return std::nullopt;
  auto Same = [](const Poly &X, const Poly &Y) { return difference(X, Y) == std::optional<int64_t>(0); };
  const bool Less = Cmp->getOpcode() == BO_LT || Cmp->getOpcode() == BO_LE;
  bool Min;
  if (Same(*Then, *L) && Same(*Else, *R))
    Min = Less;
  else if (Same(*Then, *R) && Same(*Else, *L))
    Min = !Less;
  else
    return std::nullopt;
  Atom A{Min ? Atom::Min : Atom::Max};
  A.A = std::make_shared<Poly>(*L);
  A.B = std::make_shared<Poly>(*R);
  return Poly::atom(T.intern(std::move(A)));
}

// `c ? a : b` whose condition compares two integers the model can read:
// the bounds tiling tools write (`floord(n, 16)` expands to
// `n < 0 ? -((-n + 15) / 16) : n / 16`), kept exact as a piecewise value
// where the dependence test would otherwise have no bound at all. A
// condition that is a constant picks its branch.
std::optional<Poly> Linearizer::select(const ConditionalOperator *C, int Depth) {
  const Expr *Cond = C->getCond()->IgnoreParenImpCasts();
  if (!Cond->isValueDependent()) {
    bool Value = false;
    if (Cond->EvaluateAsBooleanCondition(Value, Ctx))
      return walk(Value ? C->getTrueExpr() : C->getFalseExpr(), Depth);
  }
  const auto *Cmp = dyn_cast<BinaryOperator>(Cond);
  if (!Cmp || !Cmp->isComparisonOp())
    return std::nullopt;
  std::optional<Poly> L = walk(Cmp->getLHS(), Depth), R = walk(Cmp->getRHS(), Depth);
  std::optional<Poly> Then = walk(C->getTrueExpr(), Depth), Else = walk(C->getFalseExpr(), Depth);
  if (!L || !R || !Then || !Else)
    return std::nullopt;
  // Every comparison as `Test <= 0` or `Test == 0`, with the branches
  // swapped for the negated forms: l < r is l - r + 1 <= 0, l > r is
  // r - l + 1 <= 0, l >= r is r - l <= 0, l != r is !(l - r == 0).
  std::optional<Poly> Test;
  bool Zero = false, Swap = false;
  switch (Cmp->getOpcode()) {
  case BO_LT: if (auto D = minus(*L, *R)) Test = add(*D, Poly::constant(1)); break;
  case BO_LE: Test = minus(*L, *R); break;
  case BO_GT: if (auto D = minus(*R, *L)) Test = add(*D, Poly::constant(1)); break;
  case BO_GE: Test = minus(*R, *L); break;
  case BO_EQ: Test = minus(*L, *R); Zero = true; break;
  case BO_NE: Test = minus(*L, *R); Zero = true; Swap = true; break;
  default: return std::nullopt;
  }
  if (!Test)
    return std::nullopt;
  if (Test->isConstant()) // `n - n < 1`: a condition whose sides cancel
    return (Zero ? Test->constantTerm() == 0 : Test->constantTerm() <= 0) != Swap ? Then : Else;
  Atom A{Atom::Select};
  A.Test = std::make_shared<Poly>(*Test);
  A.TestZero = Zero;
  A.A = std::make_shared<Poly>(Swap ? *Else : *Then);
  A.B = std::make_shared<Poly>(Swap ? *Then : *Else);
  return Poly::atom(T.intern(std::move(A)));
}

std::optional<Poly> Linearizer::walk(const Expr *E, int Depth) {
  if (!E)
    return std::nullopt;
  E = E->IgnoreParenImpCasts();
  if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E))
    if (Cast->getType()->isIntegerType() && (Cast->getSubExpr()->getType()->isIntegerType() ||
                                             Cast->getSubExpr()->getType()->isDependentType())) // `(int)v.size()` in a template
      return walk(Cast->getSubExpr(), Depth);
  if (!E->isValueDependent() && E->getType()->isIntegerType()) {
    Expr::EvalResult R;
    if (E->EvaluateAsInt(R, Ctx))
      return R.Val.getInt().getSignificantBits() <= 62 ? std::optional<Poly>(Poly::constant(R.Val.getInt().getExtValue()))
                                                        : std::nullopt;
  }
  if (isa<DeclRefExpr>(E) || isa<MemberExpr>(E))
    return variable(E, Depth);
  if (const auto *S = dyn_cast<ArraySubscriptExpr>(E))
    return invariantElement(S);
  if (const auto *C = dyn_cast<ConditionalOperator>(E)) {
    if (std::optional<Poly> P = minOrMax(C, Depth))
      return P;
    return select(C, Depth);
  }
  if (const auto *U = dyn_cast<UnaryOperator>(E)) {
    if (U->getOpcode() == UO_Plus)
      return walk(U->getSubExpr(), Depth);
    if (U->getOpcode() == UO_Minus)
      if (std::optional<Poly> P = walk(U->getSubExpr(), Depth))
        return scale(*P, -1);
    return std::nullopt;
  }
  if (const auto *Call = dyn_cast<CallExpr>(E))
    return call(Call, Depth);
  const auto *B = dyn_cast<BinaryOperator>(E);
  if (!B)
    return std::nullopt;
  std::optional<Poly> L = walk(B->getLHS(), Depth);
  if (!L)
    return std::nullopt;
  std::optional<Poly> R = walk(B->getRHS(), Depth);
  if (!R)
    return std::nullopt;
  switch (B->getOpcode()) {
  case BO_Add: return add(*L, *R);
  case BO_Sub: {
    std::optional<Poly> Neg = scale(*R, -1);
    return Neg ? add(*L, *Neg) : std::nullopt;
  }
  case BO_Mul: return multiply(*L, *R);
  case BO_Shl:
    if (!R->isConstant() || R->constantTerm() < 0 || R->constantTerm() > 30)
      return std::nullopt;
    return scale(*L, int64_t(1) << R->constantTerm());
  case BO_Div:
  case BO_Rem: {
    // By a positive constant: isl's integer division and remainder truncate like C.
    if (!R->isConstant() || R->constantTerm() <= 0)
      return std::nullopt;
    if (R->constantTerm() == 1)
      return B->getOpcode() == BO_Div ? *L : Poly::constant(0);
    Atom A{B->getOpcode() == BO_Div ? Atom::Div : Atom::Mod};
    A.A = std::make_shared<Poly>(*L);
    A.Divisor = R->constantTerm();
    return Poly::atom(T.intern(std::move(A)));
  }
  default: return std::nullopt;
  }
}

Polynomial polynomial(const Poly &P, const AtomTable &T) {
  auto Factor = [&](const Atom &A) {
    Polynomial::Factor F;
    switch (A.K) {
    case Atom::Param:
    case Atom::Size: F.Name = A.Spelling; break;
    case Atom::Div:
    case Atom::Mod:
      F.K = A.K == Atom::Div ? Polynomial::Factor::Div : Polynomial::Factor::Mod;
      F.Args = {polynomial(*A.A, T)};
      F.Divisor = A.Divisor;
      break;
    case Atom::Min:
    case Atom::Max:
      F.K = A.K == Atom::Min ? Polynomial::Factor::Min : Polynomial::Factor::Max;
      F.Args = {polynomial(*A.A, T), polynomial(*A.B, T)};
      break;
    case Atom::Select:
      F.K = A.TestZero ? Polynomial::Factor::SelectZero : Polynomial::Factor::SelectNonPositive;
      F.Args = {polynomial(*A.Test, T), polynomial(*A.A, T), polynomial(*A.B, T)};
      break;
    case Atom::Induction:
    case Atom::Inner: assert(false && "a loop variable has no value before the loop"); break;
    }
    return F;
  };
  Polynomial Out;
  for (const auto &[M, C] : P.Terms)
    if (!M.empty()) {
      Polynomial::Term Term{C, {}};
      for (unsigned Id : M)
        Term.Factors.push_back(Factor(T[Id]));
      Out.Terms.push_back(std::move(Term));
    }
  if (P.constantTerm() != 0 || Out.Terms.empty())
    Out.Terms.push_back({P.constantTerm(), {}});
  return Out;
}

std::optional<int64_t> evaluate(const Poly &P, const AtomTable &T,
                                const std::function<std::optional<int64_t>(unsigned)> &AtomValue) {
  int64_t Sum = 0;
  for (const auto &[Mono, C] : P.Terms) {
    int64_t Term = C;
    for (unsigned Id : Mono) {
      const Atom &A = T[Id];
      std::optional<int64_t> V;
      switch (A.K) {
      case Atom::Div:
      case Atom::Mod:
        if (std::optional<int64_t> X = evaluate(*A.A, T, AtomValue))
          V = A.K == Atom::Div ? *X / A.Divisor : *X % A.Divisor;
        break;
      case Atom::Min:
      case Atom::Max: {
        std::optional<int64_t> X = evaluate(*A.A, T, AtomValue), Y = evaluate(*A.B, T, AtomValue);
        if (X && Y)
          V = A.K == Atom::Min ? std::min(*X, *Y) : std::max(*X, *Y);
        break;
      }
      case Atom::Select:
        if (std::optional<int64_t> X = evaluate(*A.Test, T, AtomValue))
          V = evaluate((A.TestZero ? *X == 0 : *X <= 0) ? *A.A : *A.B, T, AtomValue);
        break;
      default: V = AtomValue(Id);
      }
      if (!V || __builtin_mul_overflow(Term, *V, &Term))
        return std::nullopt;
    }
    if (__builtin_add_overflow(Sum, Term, &Sum))
      return std::nullopt;
  }
  return Sum;
}

} // namespace gpuautopar
