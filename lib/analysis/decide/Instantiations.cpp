// Finding the loop body in each instantiation (Instantiations.h).
#include "decide/Instantiations.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "llvm/Support/raw_ostream.h"

namespace gpuautopar {
namespace {

using namespace clang;

// An instantiated statement keeps its pattern's locations: the outermost one
// that begins where `Pattern` does (its kind may differ: `v[i] = x` is an
// operator call for one type and a built-in assignment for another).
const Stmt *sameStatement(const Stmt *S, const Stmt *Pattern) {
  if (!S)
    return nullptr;
  if (S->getBeginLoc() == Pattern->getBeginLoc())
    return S;
  for (const Stmt *C : S->children())
    if (const Stmt *Found = sameStatement(C, Pattern))
      return Found;
  return nullptr;
}

// The instantiations of `F`: of its function template, or, for a member of
// a class template, the member in each specialization of the class.
std::vector<const FunctionDecl *> instantiationsOf(const FunctionDecl *F) {
  std::vector<const FunctionDecl *> Out;
  if (const FunctionTemplateDecl *T = F->getDescribedFunctionTemplate()) {
    for (const FunctionDecl *S : T->specializations())
      Out.push_back(S);
    return Out;
  }
  const auto *M = dyn_cast<CXXMethodDecl>(F);
  const ClassTemplateDecl *Class = M ? M->getParent()->getDescribedClassTemplate() : nullptr;
  if (!Class)
    return Out;
  for (const ClassTemplateSpecializationDecl *S : Class->specializations())
    for (const Decl *D : S->decls())
      if (const auto *IM = dyn_cast<CXXMethodDecl>(D);
          IM && IM->getInstantiatedFromMemberFunction() &&
          IM->getInstantiatedFromMemberFunction()->getCanonicalDecl() == M->getCanonicalDecl())
        Out.push_back(IM);
  return Out;
}

} // namespace

std::vector<InstantiatedBody> instantiatedBodies(const LoopAnalysis &A, const ASTContext &Ctx) {
  std::vector<InstantiatedBody> Out;
  const auto *F = dyn_cast_or_null<FunctionDecl>(A.Enclosing);
  if (!F || !A.Loop)
    return Out;
  const Stmt *Pattern = A.Collapsed.empty() ? A.Loop->body() : A.Collapsed.back().body();
  for (const FunctionDecl *I : instantiationsOf(F)) {
    const FunctionDecl *Def = I->getDefinition();
    const Stmt *Body = Def ? sameStatement(Def->getBody(), Pattern) : nullptr;
    if (!Body || Body == Pattern)
      continue;
    std::string Name;
    llvm::raw_string_ostream OS(Name);
    if (const auto *M = dyn_cast<CXXMethodDecl>(Def); M && !Def->getDescribedFunctionTemplate() &&
                                                       isa<ClassTemplateSpecializationDecl>(M->getParent())) {
      M->getParent()->getNameForDiagnostic(OS, Ctx.getPrintingPolicy(), /*Qualified=*/false);
      OS << "::" << M->getName();
    } else {
      Def->getNameForDiagnostic(OS, Ctx.getPrintingPolicy(), /*Qualified=*/false);
    }
    Out.push_back({Name, Body});
  }
  return Out;
}

} // namespace gpuautopar
