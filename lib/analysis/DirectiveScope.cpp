#include "gpuautopar/DirectiveScope.h"

#include "clang/Lex/Preprocessor.h"
#include "clang/Sema/Lookup.h"
#include "clang/Sema/Scope.h"
#include "clang/Sema/Sema.h"
#include "llvm/ADT/STLExtras.h"

namespace gpuautopar {
namespace {

// Whether the parser reads `S` as part of a function it is parsing: the
// innermost function scope comes before any class scope. A member function
// defined inside its class is read while the class is (its body is parsed
// once the class is complete): then the class's scope is innermost.
bool insideFunction(const clang::Scope *S) {
  for (; S; S = S->getParent()) {
    if (S->isFunctionScope())
      return true;
    if (S->isClassScope() || S->isTemplateParamScope())
      return false;
  }
  return false;
}

} // namespace

void DirectiveScope::setSema(clang::Sema &S) {
  TheSema = &S;
  S.getPreprocessor().setTokenWatcher([this](const clang::Token &T) { tokenRead(T); });
}

void DirectiveScope::parsed() {
  if (TheSema)
    TheSema->getPreprocessor().setTokenWatcher(nullptr);
  TheSema = nullptr;
  Pending.clear();
}

void DirectiveScope::lookUpLater(Annotation &A) {
  auto Names = std::make_shared<DirectiveNames>();
  auto Add = [&](llvm::StringRef Word) {
    if (isWord(Word) && llvm::none_of(Names->Names, [&](const DirectiveNames::Name &N) { return N.Word == Word; }))
      Names->Names.push_back({Word.str(), nullptr});
  };
  for (const clang::Token &T : A.Clauses)
    if (const clang::IdentifierInfo *Id = T.getIdentifierInfo())
      Add(Id->getName());
  for (const ClauseToken &T : A.Translated)
    Add(T.Spelling);
  A.Names = Names;
  if (TheSema)
    Pending.push_back({std::move(Names), 2});
}

void DirectiveScope::tokenRead(const clang::Token &) {
  for (Waiting &W : Pending)
    if (--W.TokensLeft == 0)
      lookUp(*W.Names);
  llvm::erase_if(Pending, [](const Waiting &W) { return W.TokensLeft == 0; });
}

void DirectiveScope::lookUp(DirectiveNames &Names) const {
  clang::Scope *S = TheSema->getCurScope();
  if (!insideFunction(S))
    return;
  Names.LookedUp = true;
  for (DirectiveNames::Name &N : Names.Names) {
    clang::IdentifierInfo &Id = TheSema->getPreprocessor().getIdentifierTable().get(N.Word);
    clang::LookupResult R(*TheSema, clang::DeclarationName(&Id), clang::SourceLocation(),
                          clang::Sema::LookupOrdinaryName);
    TheSema->LookupName(R, S);
    R.suppressDiagnostics(); // an ambiguity is reported, if at all, where the name is used
    N.Decl = R.isSingleResult() ? R.getFoundDecl() : nullptr;
  }
}

} // namespace gpuautopar
