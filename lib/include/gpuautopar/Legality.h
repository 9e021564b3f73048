// May the iterations of an annotated loop run in any order, at the same time?
// (docs/analysis.md, "Legality".)
#pragma once

#include "gpuautopar/LoopAnalysis.h"

namespace clang {
class ASTContext;
class DiagnosticsEngine;
} // namespace clang

namespace gpuautopar {

// Checks `A.Loop`'s body against `A.Clauses`:
//  - no `break`, `return` or `goto` out of the loop, no write to the induction variable;
//  - every scalar declared outside and written inside is private or a reduction
//    updated only with its clause's operator;
//  - array and pointer accesses of different iterations do not overlap: a proven
//    overlap is an error, one that cannot be ruled out (non-affine subscripts,
//    possible aliasing, calls with unseen effects) a warning (an error under --strict).
// Fills A.Reads and A.Writes. Returns false after an error.
bool checkLegality(LoopAnalysis &A, clang::ASTContext &Ctx, clang::DiagnosticsEngine &Diags);

} // namespace gpuautopar
