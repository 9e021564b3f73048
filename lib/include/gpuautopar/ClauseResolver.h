// Resolution of the variable names in a loop's clauses to the declarations
// visible at the loop, as C++ name lookup would find them there.
#pragma once

#include "gpuautopar/Annotation.h"

#include "gpuautopar/ClauseParser.h"
#include "gpuautopar/LoopAnalysis.h"

#include <optional>

namespace clang {
class ASTContext;
class Decl;
class DiagnosticsEngine;
class Stmt;
class VarDecl;
} // namespace clang

namespace gpuautopar {

// The variable called `Name` visible at `Loop`, which is inside the body of
// `Enclosing` (a function, method or lambda; may be null at namespace scope).
const clang::VarDecl *lookupVisibleVariable(llvm::StringRef Name, const clang::Stmt *Loop,
                                            const clang::Decl *Enclosing, clang::ASTContext &Ctx);

// The variable called `Name` visible at `Loc` inside the body of `Enclosing`
// (where no statement begins: a standalone directive).
const clang::VarDecl *lookupVisibleVariableAt(llvm::StringRef Name, clang::SourceLocation Loc,
                                              const clang::Decl *Enclosing, clang::ASTContext &Ctx);

// Resolves every name of `P`; reports a name that is not declared, the
// induction variable in a data-sharing clause, and a non-arithmetic reduction
// variable, each at the name's token. Returns nothing after an error.
// `Dialect` OpenMP or OpenACC: the loop variable in `private` is legal there
// (it is private anyway) and dropped with a remark.
std::optional<LoopClauses> resolveClauses(const ParsedClauses &P, const clang::Stmt *Loop,
                                          const clang::Decl *Enclosing, const clang::VarDecl *Induction,
                                          clang::ASTContext &Ctx, clang::DiagnosticsEngine &Diags,
                                          AnnotationDialect Dialect = AnnotationDialect::GpuAutopar);

} // namespace gpuautopar
