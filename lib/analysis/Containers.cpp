#include "Containers.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Basic/LangOptions.h"

#include <cassert>

namespace gpuautopar {

using namespace clang;

namespace {

// std::vector / std::array by the class template's name, also where libstdc++
// spells it in an inline namespace.
std::optional<ContainerKind> standardContainer(StringRef QualifiedName) {
  if (QualifiedName == "std::vector" || QualifiedName == "std::__cxx11::vector")
    return ContainerKind::StdVector;
  if (QualifiedName == "std::array")
    return ContainerKind::StdArray;
  return std::nullopt;
}

} // namespace

std::optional<ContainerKind> containerKind(QualType T) {
  T = T.getNonReferenceType().getCanonicalType();
  if (T->isPointerType())
    return ContainerKind::RawPointer;
  if (T->isConstantArrayType())
    return ContainerKind::BuiltinArray;
  if (const auto *R = T->getAsCXXRecordDecl())
    if (std::optional<ContainerKind> K = standardContainer(R->getQualifiedNameAsString()))
      return K;
  if (const auto *TS = T->getAs<TemplateSpecializationType>())
    if (const auto *TD = TS->getTemplateName().getAsTemplateDecl())
      return standardContainer(TD->getQualifiedNameAsString());
  return std::nullopt;
}

namespace {

// The class (template) a type names, qualified: `std::deque` for
// `std::deque<int>`, also where a template spells it with a dependent argument.
std::string qualifiedClassName(QualType T) {
  T = T.getNonReferenceType().getCanonicalType();
  if (const auto *R = T->getAsCXXRecordDecl())
    return R->getQualifiedNameAsString();
  if (const auto *TS = T->getAs<TemplateSpecializationType>())
    if (const auto *TD = TS->getTemplateName().getAsTemplateDecl())
      return TD->getQualifiedNameAsString();
  return "";
}

} // namespace

bool subscriptNamesOwnElement(QualType Object) {
  if (containerKind(Object) || isView(Object))
    return true;
  const std::string Name = qualifiedClassName(Object);
  return Name == "std::deque" || Name == "std::valarray" || Name == "std::basic_string" ||
         Name == "std::__cxx11::basic_string";
}

bool isView(QualType Object) { return qualifiedClassName(Object) == "std::span"; }

QualType elementType(QualType Object, ContainerKind K) {
  Object = Object.getNonReferenceType().getCanonicalType();
  switch (K) {
  case ContainerKind::RawPointer:
    return Object->getPointeeType();
  case ContainerKind::BuiltinArray:
    return cast<ArrayType>(Object.getTypePtr())->getElementType();
  case ContainerKind::StdVector:
  case ContainerKind::StdArray:
    if (const auto *S = dyn_cast_or_null<ClassTemplateSpecializationDecl>(Object->getAsCXXRecordDecl()))
      if (S->getTemplateArgs().size() > 0 && S->getTemplateArgs()[0].getKind() == TemplateArgument::Type)
        return S->getTemplateArgs()[0].getAsType();
    return QualType(); // a dependent type: nothing to say about it
  }
  llvm_unreachable("unknown container kind");
}

std::optional<std::string> whyNotFlat(QualType Element) {
  if (Element.isNull() || Element->isDependentType())
    return std::nullopt;
  QualType T = Element.getCanonicalType();
  while (const auto *A = dyn_cast<ArrayType>(T.getTypePtr()))
    T = A->getElementType().getCanonicalType();
  if (T->isPointerType() || T->isReferenceType() || T->isMemberPointerType())
    return std::string("are pointers to further data");
  const auto *R = T->getAsCXXRecordDecl();
  if (!R || !R->hasDefinition())
    return std::nullopt;
  if (!R->isTriviallyCopyable()) {
    PrintingPolicy Policy{LangOptions()};
    Policy.SuppressTagKeyword = true;
    return "are '" + Element.getUnqualifiedType().getAsString(Policy) + "' objects that own or point to further data";
  }
  for (const FieldDecl *F : R->fields())
    if (std::optional<std::string> Why = whyNotFlat(F->getType()))
      return "hold member '" + F->getNameAsString() + "', whose values " + *Why;
  for (const CXXBaseSpecifier &B : R->bases())
    if (std::optional<std::string> Why = whyNotFlat(B.getType()))
      return Why;
  return std::nullopt;
}

} // namespace gpuautopar
