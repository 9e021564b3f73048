// How the legality verdict's findings become diagnostics, shared by the
// legality check and the alias settlement (internal).
#pragma once

#include "gpuautopar/Diagnostics.h"
#include "gpuautopar/LoopAnalysis.h"

namespace gpuautopar {

// Whose promise of independence a proven race breaks, for its message
// ("OpenMP", "OpenACC"; null for gpu_autopar's own directive).
const char *assertedBy(AnnotationDialect D);

// Reports `F` (an error for a proven reason, a warning for an unproven one,
// an error under --strict).
void render(const Finding &F, clang::DiagnosticsEngine &Diags, bool Strict, const char *AssertedBy);

// Whether the loop's language runs it sequentially for reason `R` (OpenACC's
// `kernels loop` and `auto` when the iterations are not proven independent).
bool runsSequentiallyFor(const LoopAnalysis &A, const LegalityVerdict::Reason &R);

// Reports `R` as the reason the loop runs sequentially; the first such reason
// also records why for the rewritten loop (A.SerialReason).
void runSequentially(LoopAnalysis &A, const LegalityVerdict::Reason &R, clang::DiagnosticsEngine &Diags);

} // namespace gpuautopar
