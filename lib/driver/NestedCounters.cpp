#include "NestedCounters.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

namespace gpuautopar {
using namespace clang;

namespace {

// `v` of `for (v = ...; ...)`.
const VarDecl *assignedCounter(const Stmt *S) {
  const auto *For = dyn_cast_or_null<ForStmt>(S);
  const auto *Init = For ? dyn_cast_or_null<BinaryOperator>(For->getInit()) : nullptr;
  if (!Init || Init->getOpcode() != BO_Assign)
    return nullptr;
  const auto *Ref = dyn_cast<DeclRefExpr>(Init->getLHS()->IgnoreParenImpCasts());
  return Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
}

} // namespace

bool namesLoopDirective(llvm::StringRef Directive) {
  llvm::SmallVector<llvm::StringRef, 8> Words;
  Directive.split(Words, ' ', -1, false);
  if (Words.size() < 2)
    return false;
  if (Words[0] == "acc")
    return Words.back() == "loop";
  return Words[0] == "omp" && llvm::any_of(llvm::drop_begin(Words), [](llvm::StringRef W) {
           return W == "for" || W == "simd" || W == "loop" || W == "distribute" || W == "taskloop";
         });
}

void privatizeNestedCounters(Annotation &Outer, const Stmt *OuterLoop, llvm::ArrayRef<const Stmt *> Nested,
                             const SourceManager &SM) {
  if (Outer.Dialect == AnnotationDialect::GpuAutopar || !OuterLoop || !OuterLoop->getBeginLoc().isFileID())
    return;
  const SourceLocation Begin = OuterLoop->getBeginLoc(), End = OuterLoop->getEndLoc();
  std::shared_ptr<DirectiveNames> Names;
  for (const Stmt *Inner : Nested) {
    if (Inner == OuterLoop || !Inner->getBeginLoc().isFileID() ||
        !SM.isBeforeInTranslationUnit(Begin, Inner->getBeginLoc()) ||
        !SM.isBeforeInTranslationUnit(Inner->getEndLoc(), End))
      continue;
    const VarDecl *V = assignedCounter(Inner);
    if (!V || !V->hasLocalStorage() || !SM.isBeforeInTranslationUnit(V->getLocation(), Begin))
      continue;
    const std::string Name = V->getName().str();
    if (llvm::any_of(Outer.Translated, [&](const ClauseToken &T) { return T.Spelling == Name; }))
      continue; // named by a clause already (or added for an earlier nested loop)
    // Located at the inner loop's init, where a diagnostic about it belongs.
    const SourceLocation At = cast<ForStmt>(Inner)->getInit()->getBeginLoc();
    for (const char *Spelling : {"private", "(", Name.c_str(), ")"})
      Outer.Translated.push_back({Spelling, At, llvm::StringRef(Spelling) == "private", false});
    if (!Names)
      Names = std::make_shared<DirectiveNames>(Outer.Names ? *Outer.Names : DirectiveNames{});
    Names->Names.push_back({Name, V});
  }
  if (Names) {
    Names->LookedUp = Outer.Names && Outer.Names->LookedUp;
    Outer.Names = std::move(Names);
  }
}

} // namespace gpuautopar
