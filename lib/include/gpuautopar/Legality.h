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

struct BodyModel;  // lib/analysis/model/BodyModel.h: what the body does, collected in one walk
class LevelModel; // lib/analysis/model/LoopModel.h: the loop as isl sees it, built once per nest

// Checks `A.Loop`'s body against `A.Clauses`:
//  - no `break`, `return` or `goto` out of the loop, no write to the induction variable;
//  - every scalar declared outside and written inside is private or a reduction
//    updated only with its clause's operator;
//  - array and pointer accesses of different iterations do not overlap: a proven
//    overlap is an error, one that cannot be ruled out (non-affine subscripts,
//    possible aliasing, calls with unseen effects) a warning (an error under --strict).
// Decides A.Verdict (and fills A.Reads and A.Writes), then reports the
// verdict's reasons but possible overlaps of two objects (settleAliasChecks). Returns whether the loop may run in parallel: proven
// independent, or unproven without --strict.
// `Model` is A.Loop's, read for the dependence test.
bool checkLegality(LoopAnalysis &A, const BodyModel &Body, LevelModel &Model, clang::ASTContext &Ctx,
                   clang::DiagnosticsEngine &Diags, const AnalysisOptions &Opts);

// A possible overlap of two objects (a reason of the verdict with an Overlap)
// is reported after classification and data maps, here: when `CanCheck` (the
// loop is otherwise accepted) it becomes a run-time check in A.Checks and a
// remark, if the loop can make one: both maps' sections (kernel mode, both
// mapped); else, outside kernel mode, a raw pointer's section (a variable, or
// a member of a variable the body leaves alone) that `SectionOf` knows against
// the other's section or whole object; else both whole objects, when both are
// containers or built-in arrays the loop's scope names. Otherwise the warning
// (an error under --strict). Recomputes the verdict's kind. Returns false when
// what it reported rejects the loop.
bool settleAliasChecks(LoopAnalysis &A, bool CanCheck, clang::DiagnosticsEngine &Diags, const AnalysisOptions &Opts,
                       const std::function<std::optional<AffineSection>(const clang::VarDecl *, llvm::StringRef)>
                           &SectionOf);

} // namespace gpuautopar
