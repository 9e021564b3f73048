#include "Overlap.h"
#include "Containers.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"

namespace gpuautopar {
namespace {

using namespace clang;

// The scalar type at the bottom of an object's elements (`double` for
// `double *`, `double[4][4]` and `std::vector<double>`).
QualType scalarOf(QualType Object, ContainerKind K) {
  QualType E = elementType(Object, K);
  if (E.isNull())
    return E;
  while (const ArrayType *AT = E->getAsArrayTypeUnsafe())
    E = AT->getElementType();
  return E.getCanonicalType();
}

// Under C++'s strict aliasing rule, elements of different scalar types (a
// character type or `void` aside) never share memory. Nothing else about
// the types keeps two objects apart: a `double *` and a pointer to rows
// `double (*)[N]` may point into one array (`f(&d[0][1], d)`).
// An object of class type holds its members' elements: a `double *` may
// point at the `x` of a `struct P { double x, y; }` a `P *` reaches.
bool holds(QualType Outer, QualType Inner, ASTContext &Ctx, unsigned Depth = 0) {
  if (Ctx.hasSameUnqualifiedType(Outer, Inner))
    return true;
  const CXXRecordDecl *R = Outer->getAsCXXRecordDecl();
  if (!R)
    return false;
  if (!R->hasDefinition() || Depth > 8)
    return true; // contents unknown: they may hold anything
  for (const CXXBaseSpecifier &B : R->bases())
    if (holds(B.getType().getCanonicalType(), Inner, Ctx, Depth + 1))
      return true;
  for (const FieldDecl *F : R->fields()) {
    QualType T = F->getType();
    while (const ArrayType *AT = T->getAsArrayTypeUnsafe())
      T = AT->getElementType();
    if (holds(T.getCanonicalType(), Inner, Ctx, Depth + 1))
      return true;
  }
  return false;
}

bool mayHoldSameScalars(const Access &A, ContainerKind KA, const Access &B, ContainerKind KB, ASTContext &Ctx) {
  const QualType SA = scalarOf(A.ObjectType, KA), SB = scalarOf(B.ObjectType, KB);
  if (SA.isNull() || SB.isNull())
    return true;
  return SA->isCharType() || SB->isCharType() || SA->isVoidType() || SB->isVoidType() || holds(SA, SB, Ctx) ||
         holds(SB, SA, Ctx);
}

// The data member an access indexes when it holds its own storage (not a
// reference or pointer member, not in a union): `v` in `v[i]` in a method,
// `g.v` in `g.v[i]`.
const FieldDecl *ownedMember(const Access &X) {
  if (const FieldDecl *F = X.AccessorOf) // `g.x(i)` with `T &x(int i) { return m_x[i]; }`
    return F->getType()->isReferenceType() || F->getType()->isPointerType() || F->getParent()->isUnion() ? nullptr
                                                                                                       : F;
  const Expr *E = X.E;
  for (;;) {
    E = E->IgnoreParenImpCasts();
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
      E = AS->getBase();
    else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E); OC && OC->getOperator() == OO_Subscript)
      E = OC->getArg(0);
    else if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E))
      E = MC->getImplicitObjectArgument(); // v.at(k)
    else
      break;
    if (!E)
      return nullptr;
  }
  const auto *M = dyn_cast<MemberExpr>(E);
  const auto *F = M ? dyn_cast<FieldDecl>(M->getMemberDecl()) : nullptr;
  if (!F || F->getType()->isReferenceType() || F->getType()->isPointerType() || F->getParent()->isUnion())
    return nullptr;
  return F;
}

// Two different data members of one object (`u` and `v` of `*this`, `g.u`
// and `g.v`) that hold their own storage are different objects.
bool siblingMembers(const Access &A, const Access &B) {
  const FieldDecl *FA = ownedMember(A), *FB = ownedMember(B);
  if (!FA || !FB || FA == FB || A.Var != B.Var)
    return false;
  const size_t DA = A.Name.rfind('.'), DB = B.Name.rfind('.');
  const std::string PA = DA == std::string::npos ? "" : A.Name.substr(0, DA),
                    PB = DB == std::string::npos ? "" : B.Name.substr(0, DB);
  return PA == PB;
}

} // namespace

// May two objects used in the loop share memory? Pointers may point into
// the same array, whatever their shapes (unless restrict, or of scalar types
// the strict aliasing rule keeps apart); a pointer may point into an array
// or container of its scalar type; a container
// or array reached by reference (a `std::vector<T> &` parameter, a member)
// may be bound to another of the same type. Two variables that hold their
// own storage never overlap.
bool mayShareMemory(const Access &A, const Access &B, ASTContext &Ctx) {
  const std::optional<ContainerKind> KA = containerKind(A.ObjectType), KB = containerKind(B.ObjectType);
  auto Bound = [](const Access &X) {
    return !X.Var || X.ThroughMember || X.Var->getType()->isReferenceType();
  };
  auto SameType = [&] {
    return Ctx.hasSameUnqualifiedType(A.ObjectType.getNonReferenceType(), B.ObjectType.getNonReferenceType());
  };
  if (!KA || !KB) {
    // A std::span, std::deque, std::valarray or std::string
    // (subscriptNamesOwnElement): a view may show any object's elements, a
    // pointer may point into one, and one reached by reference may be bound
    // to another.
    if (isView(A.ObjectType) || isView(B.ObjectType) || (KA && *KA == ContainerKind::RawPointer) ||
        (KB && *KB == ContainerKind::RawPointer))
      return true;
    return (Bound(A) || Bound(B)) && SameType();
  }
  const bool PA = *KA == ContainerKind::RawPointer, PB = *KB == ContainerKind::RawPointer;
  if (PA || PB)
    return mayHoldSameScalars(A, *KA, B, *KB, Ctx);
  // A reference parameter was bound before the function made its own
  // objects (by-value parameters, locals).
  auto Own = [](const Access &X) {
    return X.Var && !X.ThroughMember && X.Var->hasLocalStorage() && !X.Var->getType()->isReferenceType();
  };
  auto RefParam = [](const Access &X) {
    return X.Var && !X.ThroughMember && isa<ParmVarDecl>(X.Var) && X.Var->getType()->isReferenceType();
  };
  if ((RefParam(A) && Own(B)) || (RefParam(B) && Own(A)) || siblingMembers(A, B))
    return false;
  return (Bound(A) || Bound(B)) && SameType();
}

// A std::vector<bool>: its elements are bits of shared words, reached
// through proxies, and it has no data().
bool packedBits(QualType Object) {
  const std::optional<ContainerKind> K = containerKind(Object);
  if (!K || *K != ContainerKind::StdVector)
    return false;
  const QualType E = elementType(Object, *K);
  return !E.isNull() && E->isBooleanType();
}

// A container or built-in array the rewritten code can name as the user
// does (`out`, `g.v`, a member `cells`): its bytes can be compared whole.
bool wholeObject(const Access &X) {
  if (X.AccessorOf) // the member may be private: the loop's scope may not name it
    return false;
  const std::optional<ContainerKind> K = containerKind(X.ObjectType);
  return K && *K != ContainerKind::RawPointer && !X.Name.empty() && X.Name.find("->") == std::string::npos &&
         !packedBits(X.ObjectType);
}

// What a user can do about a possible overlap (MayAlias's last argument).
std::string aliasAdvice(const Access &A, const Access &B) {
  const bool PA = A.ObjectType.getNonReferenceType()->isPointerType(),
             PB = B.ObjectType.getNonReferenceType()->isPointerType();
  if (PA && PB)
    return "declare them __restrict__ if they never overlap";
  if (PA || PB)
    return "declare '" + (PA ? A.Name : B.Name) + "' __restrict__ if it never points into '" + (PA ? B.Name : A.Name) +
           "'";
  return "the loop is parallel only if they are different objects";
}


} // namespace gpuautopar
