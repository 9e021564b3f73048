// The analysis of one annotated loop, from its pragma to a LoopAnalysis the
// rewriter can use: clauses, canonical form, legality, mode, data maps.
#pragma once

#include "gpuautopar/Annotation.h"
#include "gpuautopar/LoopAnalysis.h"

namespace clang {
class ASTContext;
class Decl;
class DiagnosticsEngine;
class Stmt;
} // namespace clang

namespace gpuautopar {

// `Next` is the statement that starts at the first token after the pragma
// (null if none does; `NextLoc` is that token), `Enclosing` the function,
// method or lambda whose body holds it. Every problem is diagnosed through
// `Diags`; the result's `Accepted` says whether the loop may be rewritten.
LoopAnalysis analyzeLoop(const Annotation &Pragma, const clang::Stmt *Next, clang::SourceLocation NextLoc,
                         const clang::Decl *Enclosing, clang::ASTContext &Ctx, clang::DiagnosticsEngine &Diags,
                         const AnalysisOptions &Opts);

// The isl contexts the analysis has allocated in this process: one per loop
// nest it modelled, collapsed levels, data maps and sections included
// (lib/analysis/model/LoopModel.h). For a test (--print-isl-contexts).
unsigned islContextsMade();

} // namespace gpuautopar
