// Which of the three execution modes of docs/analysis.md a loop body needs:
// kernel (it can run on a GPU), task (it does GPU work itself) or host.
#pragma once

#include "gpuautopar/LoopAnalysis.h"

namespace clang {
class ASTContext;
class DiagnosticsEngine;
} // namespace clang

namespace gpuautopar {

struct BodyModel; // lib/analysis/BodyModel.h: what the body does, collected in one walk

// Sets A.Mode from the body (or from mode(...), after checking that a
// mode(kernel) body can run on a GPU) and records why in A.Reasons. A host
// mode the user did not ask for is announced with a remark at its cause.
// Kernel mode needs every element the body reaches to be in an object a data
// map can copy (Containers.h); data reached any other way (through a member,
// through pointers stored in the elements, in a variable-length array) keeps
// the loop on CPU threads. Returns false after an error.
bool classifyLoop(LoopAnalysis &A, const BodyModel &Body, clang::ASTContext &Ctx, clang::DiagnosticsEngine &Diags);

} // namespace gpuautopar
