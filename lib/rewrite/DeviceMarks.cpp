#include "gpuautopar/DeviceMarks.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Rewrite/Core/Rewriter.h"

namespace gpuautopar {
namespace {

using namespace clang;

// Just past the `]` that closes the lambda's captures, which start at `[`.
SourceLocation afterCaptures(SourceLocation Open, const SourceManager &SM) {
  bool Invalid = false;
  const char *P = SM.getCharacterData(Open, &Invalid);
  if (Invalid || *P != '[')
    return {};
  int Depth = 0;
  for (const char *Q = P; *Q; ++Q) {
    Depth += *Q == '[' ? 1 : *Q == ']' ? -1 : 0;
    if (Depth == 0)
      return Open.getLocWithOffset(Q - P + 1);
  }
  return {};
}

} // namespace

void DeviceMarks::mark(const LoopAnalysis &A, ASTContext &Ctx, Rewriter &R) {
  const SourceManager &SM = Ctx.getSourceManager();
  auto insert = [&](SourceLocation At, StringRef Text) {
    if (At.isValid() && At.isFileID() && SM.isWrittenInMainFile(At) && Marked.insert(At.getRawEncoding()).second)
      R.InsertTextBefore(At, Text);
  };
  for (const FunctionDecl *F : A.DeviceCallees) {
    if (const auto *M = dyn_cast<CXXMethodDecl>(F); M && M->getParent()->isLambda()) {
      // `[=] GPU_AUTOPAR_HD (double x) {...}`; nvcc wants the parameter list
      // written after the mark, so `[=] { ... }` gets an empty one.
      const SourceLocation After = afterCaptures(M->getParent()->getLocation(), SM);
      const TypeSourceInfo *TSI = M->getTypeSourceInfo();
      const FunctionTypeLoc FTL = TSI ? TSI->getTypeLoc().getAsAdjusted<FunctionTypeLoc>() : FunctionTypeLoc();
      const bool Params = FTL && FTL.getLParenLoc().isValid();
      insert(After, Params ? " GPU_AUTOPAR_HD" : " GPU_AUTOPAR_HD ()");
      continue;
    }
    // An instantiation's mark goes on its template: nvcc then compiles every
    // instantiation for both sides, and calls only those it is given.
    const FunctionDecl *Pattern = F->getTemplateInstantiationPattern();
    for (const FunctionDecl *D : (Pattern ? Pattern : F)->redecls())
      insert(D->getInnerLocStart(), "GPU_AUTOPAR_HD ");
  }
}

} // namespace gpuautopar
