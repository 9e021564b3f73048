// Data-map inference for kernel-mode loops: which array-like objects declared
// outside the body it reads and writes, and which section of each one
// iteration touches, so the runtime copies only a chunk's slice to a device.
#pragma once

#include "gpuautopar/LoopAnalysis.h"

namespace clang {
class ASTContext;
class DiagnosticsEngine;
} // namespace clang

namespace gpuautopar {

struct BodyModel; // lib/analysis/BodyModel.h: what the body does, collected in one walk

// Fills `A.Arrays` from the model of `A.Loop`'s body and `A.Clauses.Maps` (a map clause
// overrides what is inferred). Reports an error for a raw pointer whose extent
// cannot be known (naming the pointer and the map clause to add) and returns
// false then.
bool inferDataMaps(LoopAnalysis &A, const BodyModel &Body, clang::ASTContext &Ctx, clang::DiagnosticsEngine &Diags,
                   const AnalysisOptions &Opts);

// The section one iteration of `A.Loop` touches of what the body names
// `Name` through `V` (`V` itself, or a member of it: "s.data"), as a map of
// it would have it, or nothing; reports nothing.
std::optional<AffineSection> sectionOf(LoopAnalysis &A, const BodyModel &Body, const clang::VarDecl *V,
                                       llvm::StringRef Name, clang::ASTContext &Ctx, clang::DiagnosticsEngine &Diags,
                                       const AnalysisOptions &Opts);

} // namespace gpuautopar
