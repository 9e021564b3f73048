#include "StatementIndex.h"

namespace gpuautopar {

using namespace clang;

// The innermost function (or lambda) whose body holds `Loc`: where the names
// of a standalone directive are looked up.
const Decl *functionAt(SourceLocation Loc, ASTContext &Ctx) {
  struct Finder : DynamicRecursiveASTVisitor {
    const SourceManager &SM;
    SourceLocation Loc;
    const Decl *Found = nullptr;
    Finder(const SourceManager &SM, SourceLocation Loc) : SM(SM), Loc(Loc) {}
    bool holds(const Stmt *Body) const {
      return Body && !SM.isBeforeInTranslationUnit(Loc, Body->getBeginLoc()) &&
             SM.isBeforeInTranslationUnit(Loc, Body->getEndLoc());
    }
    bool VisitFunctionDecl(FunctionDecl *F) override {
      if (F->doesThisDeclarationHaveABody() && holds(F->getBody()))
        Found = F;
      return true;
    }
    bool TraverseLambdaExpr(LambdaExpr *E) override {
      if (holds(E->getBody()))
        Found = E->getCallOperator();
      return DynamicRecursiveASTVisitor::TraverseLambdaExpr(E);
    }
  } F(Ctx.getSourceManager(), Loc);
  F.TraverseDecl(Ctx.getTranslationUnitDecl());
  return F.Found;
}

} // namespace gpuautopar
