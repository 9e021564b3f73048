// The loop variable of a loop under its own OpenMP or OpenACC loop directive
// is private to that construct (OpenMP: the iteration variable of a
// loop-associated construct; OpenACC: the loop variable of a `loop`
// construct), also where C89-style code declares it before the outer loop
// (`int x, y;` ... `acc parallel loop` / `for (x = ...)` / `acc loop` /
// `for (y = ...)`, as the OpenACC validation suite writes its nests). The
// translated outer loop runs the inner one serially in each iteration, so
// the inner counter is the outer annotation's `private(y)`.
#pragma once

#include "gpuautopar/Annotation.h"

#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/ArrayRef.h"

namespace gpuautopar {

// Adds `private(v)` to `Outer`'s translated clauses for the counter `v` of
// each loop of `Nested` (loops under their own OpenMP/OpenACC loop
// directive) inside `OuterLoop` that is assigned, not declared, by the loop's
// init and is a local variable declared before `OuterLoop`, unless a clause
// of `Outer` names it already.
// Whether a directive as written ("acc loop", "omp parallel for") is a loop
// directive, whose loop's variable it makes private.
bool namesLoopDirective(llvm::StringRef Directive);

void privatizeNestedCounters(Annotation &Outer, const clang::Stmt *OuterLoop,
                             llvm::ArrayRef<const clang::Stmt *> Nested, const clang::SourceManager &SM);

} // namespace gpuautopar
