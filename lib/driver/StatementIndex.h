// Statements of the main file by where they begin (StatementIndex), and the
// function around a place: how the driver finds what a directive covers.
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

#include <map>

namespace gpuautopar {

// Statements of the main file indexed by where they begin, so that each
// annotation can find the statement that follows it, with the function (or
// lambda) whose body holds the statement, where clause names are looked up.
class StatementIndex : public clang::DynamicRecursiveASTVisitor {
public:
  struct Entry {
    const clang::Stmt *S = nullptr;
    const clang::Decl *Enclosing = nullptr;
  };
  explicit StatementIndex(const clang::SourceManager &SM) : SM(SM) {}
  bool TraverseDecl(clang::Decl *D) override {
    // Only the main file's declarations matter; skipping headers keeps the
    // cost of the walk proportional to the user's file, not to <vector>.
    if (D && !llvm::isa<clang::TranslationUnitDecl>(D) && D->getLocation().isValid() &&
        !SM.isInMainFile(SM.getExpansionLoc(D->getLocation())))
      return true;
    const clang::Decl *Saved = Enclosing;
    if (D && llvm::isa<clang::FunctionDecl>(D))
      Enclosing = D;
    bool R = clang::DynamicRecursiveASTVisitor::TraverseDecl(D);
    Enclosing = Saved;
    return R;
  }
  bool TraverseLambdaExpr(clang::LambdaExpr *E) override {
    const clang::Decl *Saved = Enclosing;
    Enclosing = E->getCallOperator();
    bool R = clang::DynamicRecursiveASTVisitor::TraverseLambdaExpr(E);
    Enclosing = Saved;
    return R;
  }
  bool VisitStmt(clang::Stmt *S) override {
    clang::SourceLocation Loc = S->getBeginLoc();
    // Outermost statement wins: parents come first.
    if (Loc.isFileID())
      First.emplace(Loc.getRawEncoding(), Entry{S, Enclosing});
    else if (Loc.isMacroID())
      FirstInMacro.emplace(SM.getExpansionLoc(Loc).getRawEncoding(), S);
    return true;
  }
  Entry startingAt(clang::SourceLocation Loc) const {
    auto It = First.find(Loc.getRawEncoding());
    return It == First.end() ? Entry{} : It->second;
  }
  // The first statement that begins after `Loc` (in the same file): what a
  // construct's directive covers, past any directives between them.
  Entry firstAfter(clang::SourceLocation Loc) const {
    auto It = First.upper_bound(Loc.getRawEncoding());
    return It == First.end() || SM.getFileID(clang::SourceLocation::getFromRawEncoding(It->first)) != SM.getFileID(Loc)
               ? Entry{}
               : It->second;
  }
  // A statement that comes from the macro used at `Use` (its first token is
  // part of that expansion), if any.
  const clang::Stmt *fromMacroAt(clang::SourceLocation Use) const {
    auto It = FirstInMacro.find(Use.getRawEncoding());
    return It == FirstInMacro.end() ? nullptr : It->second;
  }

private:
  const clang::SourceManager &SM;
  const clang::Decl *Enclosing = nullptr;
  std::map<clang::SourceLocation::UIntTy, Entry> First;
  std::map<clang::SourceLocation::UIntTy, const clang::Stmt *> FirstInMacro;
};

// The innermost function (or lambda) whose body holds `Loc`: where the names
// of a standalone directive are looked up.
const clang::Decl *functionAt(clang::SourceLocation Loc, clang::ASTContext &Ctx);

} // namespace gpuautopar
