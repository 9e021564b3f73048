// Members in a kernel-mode body. A kernel cannot follow `this` or a copy of
// an object that holds containers: the object stays in host memory. What it
// can do is what it does for variables: a member whose elements the body
// indexes (`this->u[i]`, `g.v[i]`, `s.p[i]`) is mapped like a variable of
// its type and the body indexes the map's view instead, and a number it reads
// (`this->scale`, `g.n`) is copied once where the loop starts. That holds
// only where the path's value cannot change while the loop runs (the body
// leaves its root alone) and where the rewrite can put the view's name in
// place of each spelling of it; anything else that reaches the object keeps
// the loop on CPU threads, with a remark that says what.
#include "MemberReach.h"
#include "Containers.h"
#include "ExprHelpers.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/DeclFriend.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"

#include <set>

namespace gpuautopar {
namespace {

using namespace clang;

// One maximal path of data members in the body: `this->a.b`, `g.u`, `u`.
struct PathUse {
  const MemberExpr *E = nullptr;
  const Expr *RootExpr = nullptr;     // the `this` or the variable it starts from
  const VarDecl *Root = nullptr;      // null: `this`
  std::vector<const FieldDecl *> Fields;
  // Only `.` after the root, but for the first step from `this`: `g.p->x`
  // and `p->x` go through a pointer, to an object the loop does not own.
  bool Plain = true;
  const Stmt *Parent = nullptr;       // past parentheses and no-op casts
  bool InLambda = false;
};

// Every path of data members in the body, and every other use of `this`.
class PathWalk {
public:
  std::vector<PathUse> Uses;
  std::vector<std::pair<const CXXThisExpr *, const Stmt *>> OtherThis; // with its parent
  // Member functions called on a variable (`v.get(i)`), outside lambdas.
  std::vector<std::pair<const MemberExpr *, const VarDecl *>> MethodCalls;
  // Accessor calls the model reads as elements (`d.x(i)`): only their
  // subscripts are walked; the decision below says what becomes of them.
  llvm::DenseSet<const Stmt *> Elements;

  void walk(const Stmt *S) {
    if (!S)
      return;
    if (Elements.count(S)) {
      for (const Expr *Arg : cast<CallExpr>(S)->arguments())
        walk(Arg);
      return;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(S); ME && isa<FieldDecl>(ME->getMemberDecl())) {
      path(ME);
      return;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(S); ME && isa<CXXMethodDecl>(ME->getMemberDecl()) && !Lambdas)
      if (const auto *Ref = dyn_cast<DeclRefExpr>(ME->getBase()->IgnoreParenImpCasts()))
        if (const auto *V = dyn_cast<VarDecl>(Ref->getDecl()))
          MethodCalls.push_back({ME, V});
    if (const auto *T = dyn_cast<CXXThisExpr>(S))
      OtherThis.push_back({T, parent()});
    const bool Lambda = isa<LambdaExpr>(S);
    Lambdas += Lambda;
    Stack.push_back(S);
    for (const Stmt *C : S->children())
      walk(C);
    Stack.pop_back();
    Lambdas -= Lambda;
  }

private:
  const Stmt *parent() const {
    for (auto It = Stack.rbegin(); It != Stack.rend(); ++It) {
      const auto *Cast = dyn_cast<ImplicitCastExpr>(*It);
      if (!isa<ParenExpr>(*It) && !(Cast && Cast->getCastKind() == CK_NoOp))
        return *It;
    }
    return nullptr;
  }

  void path(const MemberExpr *Outer) {
    std::vector<const MemberExpr *> Steps{Outer};
    const Expr *Base = Outer->getBase()->IgnoreParenImpCasts();
    while (const auto *Inner = dyn_cast<MemberExpr>(Base)) {
      if (!isa<FieldDecl>(Inner->getMemberDecl()))
        break;
      Steps.push_back(Inner);
      Base = Inner->getBase()->IgnoreParenImpCasts();
    }
    PathUse U;
    U.E = Outer;
    U.RootExpr = Base;
    U.Parent = parent();
    U.InLambda = Lambdas > 0;
    const auto *Ref = dyn_cast<DeclRefExpr>(Base);
    U.Root = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    if (!isa<CXXThisExpr>(Base) && !U.Root) {
      // `a[i].x`, `f().y`: not a path from a variable; what it starts from is.
      Stack.push_back(Steps.back());
      walk(Steps.back()->getBase());
      Stack.pop_back();
      return;
    }
    for (auto It = Steps.rbegin(); It != Steps.rend(); ++It) {
      U.Fields.push_back(cast<FieldDecl>((*It)->getMemberDecl()));
      if ((*It)->isArrow() && !(It == Steps.rbegin() && isa<CXXThisExpr>(Base)))
        U.Plain = false;
    }
    Uses.push_back(std::move(U));
  }

  std::vector<const Stmt *> Stack;
  unsigned Lambdas = 0;
};

// `v.size()` on a std::vector or std::array: the view of its map answers it.
bool sizeOfContainer(const PathUse &U) {
  const auto *Callee = dyn_cast_or_null<MemberExpr>(U.Parent);
  if (!Callee || Callee->getBase()->IgnoreParenImpCasts() != U.E)
    return false;
  const auto *M = dyn_cast<CXXMethodDecl>(Callee->getMemberDecl());
  const CXXRecordDecl *R = M ? M->getParent() : nullptr;
  return R && R->isInStdNamespace() && (R->getName() == "vector" || R->getName() == "array") &&
         M->getDeclName().isIdentifier() && M->getName() == "size";
}

// Read for its value right there: an lvalue-to-rvalue conversion around it.
bool readForValue(const PathUse &U) {
  const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(U.Parent);
  return Cast && Cast->getCastKind() == CK_LValueToRValue;
}

class Decision {
public:
  Decision(const LoopAnalysis &A, const BodyModel &Body, ASTContext &Ctx)
      : A(A), Body(Body), Ctx(Ctx), SM(Ctx.getSourceManager()) {}

  MemberReach run() {
    PathWalk W;
    std::map<std::string, std::vector<const Access *>> ByAccessor; // accessor elements, by member
    for (const Access &X : Body.Accesses)
      if (X.AccessorOf && X.Element) {
        W.Elements.insert(X.E);
        ByAccessor[X.Name].push_back(&X);
      }
    W.walk(A.Loop->body());
    // The element accesses through members, by the expression naming the member.
    llvm::DenseMap<const MemberExpr *, const Access *> ElementOf;
    for (const Access &X : Body.Accesses)
      if (X.ThroughMember && X.Member)
        ElementOf[X.Member] = &X;

    std::map<std::string, std::vector<const PathUse *>> Spelled; // element paths, by name
    std::vector<const PathUse *> Sizes, Others;
    for (const PathUse &U : W.Uses) {
      const bool OfThis = !U.Root;
      if (!OfThis && (U.InLambda || !owned(U.Root)))
        continue; // the body's own objects, or a lambda's captures: as before
      if (OfThis && (U.InLambda || !U.Plain)) {
        Others.push_back(&U);
        continue;
      }
      if (!U.Plain)
        continue; // through a pointer: an element access there has its own remark
      if (ElementOf.count(U.E))
        Spelled[ElementOf[U.E]->Name].push_back(&U);
      else if (sizeOfContainer(U))
        Sizes.push_back(&U);
      else if (readForValue(U) && U.E->getType()->isArithmeticType())
        value(U);
      else
        Others.push_back(&U);
    }

    // A member is mapped when every one of its element accesses can be.
    for (const Access &X : Body.Accesses) {
      if (!X.ThroughMember || !X.Element || (X.Var && llvm::is_contained(A.Clauses.Privates, X.Var)) ||
          Refused.count(X.Name))
        continue;
      std::optional<std::string> Why = X.AccessorOf ? whyNotAccessor(X, ByAccessor[X.Name]) : whyNot(X, Spelled);
      if (!Why)
        continue;
      Refused.insert(X.Name);
      Out.HostOnly.push_back({*Why, X.AccessorOf ? X.E->getBeginLoc() : X.E->getExprLoc()});
      if (X.AccessorOf)
        for (const Access *Y : ByAccessor[X.Name])
          Out.RefusedAccessorCalls.push_back(Y->E);
    }
    for (auto &[Name, Uses] : Spelled) {
      if (Refused.count(Name))
        continue;
      MemberPath P = pathOf(*Uses.front(), Name);
      for (const PathUse *U : Uses)
        P.Spellings.push_back(U->E);
      Out.Mapped.emplace(Name, std::move(P));
    }
    for (auto &[Name, Xs] : ByAccessor) {
      if (Refused.count(Name))
        continue;
      auto It = Out.Mapped.find(Name);
      if (It == Out.Mapped.end()) {
        MemberPath P;
        P.Root = Xs.front()->Var;
        P.Fields = {Xs.front()->AccessorOf};
        P.Name = Name;
        if (!nameable(Xs.front()->AccessorOf))
          P.Accessor = pointerAccessor(Xs);
        It = Out.Mapped.emplace(Name, std::move(P)).first;
      }
      for (const Access *X : Xs)
        It->second.AccessorCalls.push_back(cast<CXXMemberCallExpr>(X->E));
    }
    for (const PathUse *U : Sizes) {
      auto It = Out.Mapped.find(nameOf(*U));
      if (It != Out.Mapped.end())
        It->second.Spellings.push_back(U->E);
      else
        Others.push_back(U);
    }
    for (const PathUse *U : Others)
      other(*U);
    // A member function called on a variable runs on the kernel's byte copy
    // of it (the lambda captures it by value): what the copy's pointers and
    // containers reach is host memory. The standard containers' own members
    // are the maps' views' (classification judges them).
    for (const auto &[ME, V] : W.MethodCalls) {
      const auto *Method = cast<CXXMethodDecl>(ME->getMemberDecl());
      if (!owned(V) || Method->isStatic() || Method->getParent()->isInStdNamespace() ||
          Method->getParent()->isLambda())
        continue;
      if (std::optional<std::string> Why = whyNotFlat(V->getType().getNonReferenceType()))
        hostOnly("calls '" + Method->getNameAsString() + "' on '" + V->getNameAsString() +
                     "', of which a kernel gets a byte copy, but its values " + *Why + " in host memory",
                 ME->getBeginLoc());
    }
    // Any other `this`: a member call, `*this`, `this` handed on.
    for (const auto &[T, Parent] : W.OtherThis) {
      const auto *Deref = dyn_cast_or_null<UnaryOperator>(Parent);
      const Expr *Via = isa_and_nonnull<MemberExpr>(Parent) || (Deref && Deref->getOpcode() == UO_Deref)
                            ? cast<Expr>(Parent)
                            : T;
      hostOnly("reaches the object 'this' points to through '" + (T->isImplicit() && Via == T ? std::string("this")
                                                                                              : sourceText(Via, Ctx)) +
                   "', which stays in host memory",
               Via->getBeginLoc());
    }
    return std::move(Out);
  }

private:
  // A variable the loop's scope owns and the body does not privatize.
  bool owned(const VarDecl *V) const {
    return V != A.Loop->Induction && Body.isOutside(V, SM) && !llvm::is_contained(A.Clauses.Privates, V);
  }

  std::string nameOf(const PathUse &U) const {
    std::string N = U.Root ? U.Root->getNameAsString() : "";
    for (const FieldDecl *F : U.Fields)
      N += (N.empty() ? "" : ".") + F->getNameAsString();
    return N;
  }

  MemberPath pathOf(const PathUse &U, std::string Name) const {
    MemberPath P;
    P.Root = U.Root;
    P.Fields = U.Fields;
    P.Name = std::move(Name);
    return P;
  }

  void value(const PathUse &U) {
    const std::string Name = nameOf(U);
    auto It = llvm::find_if(Out.Values, [&](const MemberPath &P) { return P.Name == Name; });
    if (It == Out.Values.end()) {
      Out.Values.push_back(pathOf(U, Name));
      It = std::prev(Out.Values.end());
    }
    It->Spellings.push_back(U.E);
  }

  // A use the kernel cannot make: anything through `this`, and a mapped
  // member used other than through its elements (the view is no container).
  void other(const PathUse &U) {
    const std::string Text = sourceText(U.E, Ctx);
    if (!U.Root) {
      hostOnly("reaches the object 'this' points to through '" + Text + "', which stays in host memory",
               U.E->getBeginLoc());
      return;
    }
    if (Out.Mapped.count(nameOf(U)))
      hostOnly("uses '" + Text + "' other than through its elements, which a data map does not copy to a GPU",
               U.E->getBeginLoc());
  }

  // Why the element access `X` through a member cannot go through a map of
  // the member; nothing when it can.
  std::optional<std::string> whyNot(const Access &X, const std::map<std::string, std::vector<const PathUse *>> &Spelled) {
    const std::string Written = "'" + sourceText(X.E, Ctx) + "'";
    auto It = Spelled.find(X.Name);
    const bool Found = X.Member && It != Spelled.end() &&
                       llvm::any_of(It->second, [&](const PathUse *U) { return U->E == X.Member; });
    if (!Found) // through a pointer (`p->data`, `g.next->v`), or in a lambda of the body
      return "reaches " + Written + " through a member, which a data map does not copy to a GPU";
    for (const PathUse *U : It->second)
      if (U->E->getBeginLoc().isMacroID() || U->E->getEndLoc().isMacroID())
        return "reaches " + Written + " through '" + X.Name +
               "', spelled in a macro, where the rewrite cannot hand the body a map of it";
    if (X.Var && mayChange(X.Var))
      return "reaches " + Written + " through '" + X.Var->getNameAsString() +
             "', which the body may change, so the member a map would copy may not be the one it reaches";
    return std::nullopt;
  }

  // Why the element `X` an accessor hands out (`d.x(i)`, one of `Xs`, all
  // of its member) cannot be the view of a map of its member; nothing when
  // it can. Where the loop's scope may name the member, the map is of the
  // member; where it may not (private), of the pointer `&d.x(0)`, taken
  // where the loop starts, which needs an accessor that returns a reference,
  // and for a std::vector an element the loop surely touches once it runs
  // (element 0 of an empty vector is no element).
  std::optional<std::string> whyNotAccessor(const Access &X, const std::vector<const Access *> &Xs) const {
    const std::string Written = "'" + sourceText(X.E, Ctx) + "'";
    const auto *Call = cast<CXXMemberCallExpr>(X.E);
    const std::string Via = "through accessor '" + Call->getMethodDecl()->getNameAsString() + "'";
    if (X.E->getBeginLoc().isMacroID() || X.E->getEndLoc().isMacroID())
      return "reaches " + Written + " " + Via + ", spelled in a macro, where the rewrite cannot hand the body a map "
                                              "of '" + X.Name + "'";
    if (X.Var && mayChange(X.Var))
      return "reaches " + Written + " through '" + X.Var->getNameAsString() +
             "', which the body may change, so the member a map would copy may not be the one it reaches";
    if (nameable(X.AccessorOf))
      return std::nullopt;
    if (!pointerAccessor(Xs))
      return "reaches " + Written + " " + Via + ", which returns a copy of the element: the loop cannot name '" +
             X.AccessorOf->getNameAsString() + "' (private) to map it, nor take the element's address";
    const std::optional<ContainerKind> Kind = containerKind(X.AccessorOf->getType());
    const bool Surely = llvm::any_of(Xs, [](const Access *Y) { return Y->Around.empty() && !Y->AfterExit; });
    if (Kind == ContainerKind::StdVector && !Surely)
      return "reaches '" + X.Name + "' " + Via + " only under conditions: a map of it would take the address of "
             "its first element before the loop runs, which an empty vector does not have";
    return std::nullopt;
  }

  // The accessor whose reference a map of the member is taken through: one
  // returning a reference to non-const elements where the body has one (the
  // loop may write them), else any returning a reference; null when none does.
  static const CXXMethodDecl *pointerAccessor(const std::vector<const Access *> &Xs) {
    const CXXMethodDecl *Best = nullptr;
    for (const Access *X : Xs) {
      const CXXMethodDecl *M = cast<CXXMemberCallExpr>(X->E)->getMethodDecl();
      const QualType R = M->getReturnType();
      if (!R->isLValueReferenceType())
        continue;
      if (!R.getNonReferenceType().isConstQualified())
        return M;
      Best = Best ? Best : M;
    }
    return Best;
  }

  // Whether the loop's scope may name member `F`: it is public, or the loop
  // is in a member function (or a lambda in one) or a friend of its class.
  bool nameable(const FieldDecl *F) const {
    const CXXRecordDecl *Class = dyn_cast<CXXRecordDecl>(F->getParent());
    if (!Class || (F->getAccess() == AS_public && Class->getAccess() != AS_private &&
                   Class->getAccess() != AS_protected))
      return true;
    const auto *Context = dyn_cast_or_null<DeclContext>(A.Enclosing);
    const FunctionDecl *Outermost = nullptr;
    for (const DeclContext *C = Context; C; C = C->getParent()) {
      if (const auto *R = dyn_cast<CXXRecordDecl>(C); R && R->getCanonicalDecl() == Class->getCanonicalDecl())
        return true;
      if (const auto *Fn = dyn_cast<FunctionDecl>(C))
        Outermost = Fn;
    }
    for (const FriendDecl *Friend : Class->friends())
      if (const NamedDecl *N = Friend->getFriendDecl();
          N && Outermost && N->getAsFunction() &&
          N->getAsFunction()->getCanonicalDecl() == Outermost->getCanonicalDecl())
        return true;
    return false;
  }

  // The body may change what `V`'s members are: it writes `V`, or hands it
  // on, or writes through a local bound to it.
  bool mayChange(const VarDecl *V) const {
    for (const Access &Y : Body.Accesses)
      if (Y.Var == V && !Y.Element && (Y.Write || Y.MayWrite))
        return true;
    for (const BodyModel::Escape &E : Body.Escapes)
      if (E.Target == V)
        return true;
    for (const BodyModel::AliasWrite &W : Body.AliasWrites)
      if (W.Target == V)
        return true;
    return false;
  }

  void hostOnly(std::string Why, SourceLocation At) { Out.HostOnly.push_back({std::move(Why), At}); }

  const LoopAnalysis &A;
  const BodyModel &Body;
  ASTContext &Ctx;
  const SourceManager &SM;
  MemberReach Out;
  std::set<std::string> Refused;
};

} // namespace

MemberReach reachMembers(const LoopAnalysis &A, const BodyModel &Body, ASTContext &Ctx) {
  return Decision(A, Body, Ctx).run();
}

} // namespace gpuautopar
