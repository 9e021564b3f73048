// Resolution of the variable names in a loop's clauses to the declarations
// visible at the loop, as C++ name lookup would find them there.
#pragma once

#include "gpuautopar/Annotation.h"

#include "gpuautopar/ClauseParser.h"
#include "gpuautopar/LoopAnalysis.h"

#include <functional>
#include <optional>

namespace clang {
class ASTContext;
class Decl;
class NamedDecl;
class DiagnosticsEngine;
class Stmt;
class VarDecl;
} // namespace clang

namespace gpuautopar {

// The variable clause name `N` of directive `A` names, as clang's name
// lookup found it at the directive (Annotation::Names, DirectiveScope.h);
// where the parser read the directive ahead of its scope (a member function
// defined in its class), as `Fallback` finds it. Reports at the name, and
// returns null, when nothing by that name is visible there, or what is
// visible is not a variable (a structured binding, a data member, ...: with a
// note at its declaration).
const clang::VarDecl *resolveClauseName(const Annotation &A, const NamedVar &N, const char *Clause,
                                        const std::function<const clang::NamedDecl *(llvm::StringRef)> &Fallback,
                                        clang::ASTContext &Ctx, clang::DiagnosticsEngine &Diags);

// The lookups for a directive the parser read ahead of its scope, where
// Sema's scope is gone by the time the AST is analysed: what `Name` names at
// `Loop` (the variable the loop itself uses by that name, else the locals
// before it, the parameters of `Enclosing`, data members, namespace-scope
// variables), or at `Loc` (a standalone directive).
const clang::NamedDecl *lookupVisibleName(llvm::StringRef Name, const clang::Stmt *Loop,
                                          const clang::Decl *Enclosing, clang::ASTContext &Ctx);
const clang::NamedDecl *lookupVisibleNameAt(llvm::StringRef Name, clang::SourceLocation Loc,
                                            const clang::Decl *Enclosing, clang::ASTContext &Ctx);

// Resolves every name of `P`, the clauses of `Pragma`; reports a name that is
// not a variable visible there, the induction variable in a data-sharing
// clause, and a non-arithmetic reduction variable, each at the name's token.
// Returns nothing after an error. OpenMP or OpenACC: the loop variable in
// `private` is legal there (it is private anyway) and dropped with a remark.
std::optional<LoopClauses> resolveClauses(const Annotation &Pragma, const ParsedClauses &P, const clang::Stmt *Loop,
                                          const clang::Decl *Enclosing, const clang::VarDecl *Induction,
                                          clang::ASTContext &Ctx, clang::DiagnosticsEngine &Diags);

} // namespace gpuautopar
