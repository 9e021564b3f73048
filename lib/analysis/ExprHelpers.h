// Small expression helpers that several analysis files share (internal). One
// definition each: the library is compiled as a unity build
// (lib/CMakeLists.txt), where two private copies of a helper would collide.
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <string>

namespace gpuautopar {

// The statement or expression as the user wrote it, to quote in a message
// (the only source text the analysis reads: it decides on the AST).
inline std::string sourceText(const clang::Stmt *S, const clang::ASTContext &Ctx) {
  return clang::Lexer::getSourceText(clang::CharSourceRange::getTokenRange(S->getSourceRange()),
                                     Ctx.getSourceManager(), Ctx.getLangOpts())
      .str();
}

// Whether `L` lies in `R`, its ends included, by position in the translation
// unit.
inline bool inside(const clang::SourceManager &SM, clang::SourceRange R, clang::SourceLocation L) {
  return R.isValid() && L.isValid() && !SM.isBeforeInTranslationUnit(L, R.getBegin()) &&
         !SM.isBeforeInTranslationUnit(R.getEnd(), L);
}

// The expression as the user wrote it, an absent one (a loop's start or
// bound) as 0.
inline std::string textOrZero(const clang::Expr *E, const clang::ASTContext &Ctx) {
  return E ? sourceText(E, Ctx) : "0";
}

// The variable a (possibly parenthesised or converted) name refers to, or null.
inline const clang::VarDecl *asVariable(const clang::Expr *E) {
  if (const auto *Ref = llvm::dyn_cast_or_null<clang::DeclRefExpr>(E ? E->IgnoreParenImpCasts() : nullptr))
    return llvm::dyn_cast<clang::VarDecl>(Ref->getDecl());
  return nullptr;
}

} // namespace gpuautopar
