// Which of the three execution modes of docs/analysis.md a loop body needs:
// kernel (it can run on a GPU), task (it does GPU work itself) or host.
#pragma once

#include "gpuautopar/LoopAnalysis.h"

namespace clang {
class ASTContext;
class DiagnosticsEngine;
} // namespace clang

namespace gpuautopar {

// Sets A.Mode from the body (or from mode(...), after checking that a
// mode(kernel) body can run on a GPU) and records why in A.Reasons. A host
// mode the user did not ask for is announced with a remark at its cause.
// Returns false after an error.
bool classifyLoop(LoopAnalysis &A, clang::ASTContext &Ctx, clang::DiagnosticsEngine &Diags);

} // namespace gpuautopar
