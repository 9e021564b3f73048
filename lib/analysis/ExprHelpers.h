// Small expression helpers that several analysis files share (internal). One
// definition each: the library is compiled as a unity build
// (lib/CMakeLists.txt), where two private copies of a helper would collide.
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/Lex/Lexer.h"

#include <string>

namespace gpuautopar {

// The expression as the user wrote it.
inline std::string sourceText(const clang::Expr *E, const clang::ASTContext &Ctx) {
  return clang::Lexer::getSourceText(clang::CharSourceRange::getTokenRange(E->getSourceRange()),
                                     Ctx.getSourceManager(), Ctx.getLangOpts())
      .str();
}

// The variable a (possibly parenthesised or converted) name refers to, or null.
inline const clang::VarDecl *asVariable(const clang::Expr *E) {
  if (const auto *Ref = llvm::dyn_cast_or_null<clang::DeclRefExpr>(E ? E->IgnoreParenImpCasts() : nullptr))
    return llvm::dyn_cast<clang::VarDecl>(Ref->getDecl());
  return nullptr;
}

} // namespace gpuautopar
