// May the iterations of an annotated loop run in any order, at the same time?
// (docs/analysis.md, "Legality".)
#pragma once

#include <functional>
#include <optional>

#include "gpuautopar/LoopAnalysis.h"

namespace clang {
class ASTContext;
class DiagnosticsEngine;
} // namespace clang

namespace gpuautopar {

struct BodyModel; // lib/analysis/BodyModel.h: what the body does, collected in one walk

// Checks `A.Loop`'s body against `A.Clauses`:
//  - no `break`, `return` or `goto` out of the loop, no write to the induction variable;
//  - every scalar declared outside and written inside is private or a reduction
//    updated only with its clause's operator;
//  - array and pointer accesses of different iterations do not overlap: a proven
//    overlap is an error, one that cannot be ruled out (non-affine subscripts,
//    possible aliasing, calls with unseen effects) a warning (an error under --strict).
// Decides A.Verdict (and fills A.Reads and A.Writes), then reports the
// verdict's reasons but possible overlaps of two variables (settleAliasChecks). Returns whether the loop may run in parallel: proven
// independent, or unproven without --strict.
bool checkLegality(LoopAnalysis &A, const BodyModel &Body, clang::ASTContext &Ctx, clang::DiagnosticsEngine &Diags,
                   const AnalysisOptions &Opts);

// A possible overlap of two objects (the verdict's reasons with Alias) is
// reported after classification and data maps, here: when `CanCheck` (the
// loop is otherwise accepted) and both are mapped in kernel mode, it becomes
// an entry of A.AliasChecks and a remark; else, when both are containers or
// built-in arrays the loop's scope names, an entry of A.ObjectChecks and the
// same remark; else, when each is a raw pointer (a variable, or a member of
// a variable the body leaves alone) whose section `SectionOf` knows, or an
// array or container so named (outside kernel mode), an entry
// of A.SectionChecks and the remark; otherwise the warning (an error under
// --strict). Recomputes the verdict's kind. Returns false when what it
// reported rejects the loop.
bool settleAliasChecks(LoopAnalysis &A, bool CanCheck, clang::DiagnosticsEngine &Diags, const AnalysisOptions &Opts,
                       const std::function<std::optional<AffineSection>(const clang::VarDecl *, llvm::StringRef)>
                           &SectionOf);

} // namespace gpuautopar
