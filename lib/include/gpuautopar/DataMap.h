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

struct BodyModel;  // lib/analysis/model/BodyModel.h: what the body does, collected in one walk
class LoopModel; // lib/analysis/model/LoopModel.h: the loop as isl sees it, built once per nest

// Fills `A.Arrays` from the model of `A.Loop`'s body and `A.Clauses.Maps` (a map clause
// overrides what is inferred). A raw pointer whose extent cannot be known
// cannot be copied to a device: where the mode was inferred (`MayRunOnHost`)
// the loop then runs on CPU threads instead (A.Mode becomes Host, A.Arrays is
// cleared, a remark names the pointer and the map clause that would bring the
// loop to a GPU); under `mode(kernel)` it is an error, and false is returned.
// `Model` is A.Loop's. A section that holds only while a built-in array's
// inner subscripts stay inside their dimensions adds that check to A.Checks.
bool inferDataMaps(LoopAnalysis &A, const BodyModel &Body, LoopModel &Model, clang::DiagnosticsEngine &Diags,
                   bool MayRunOnHost);

// The section one iteration of `A.Loop` touches of what the body names
// `Name` through `V` (`V` itself, or a member of it: "s.data"), as a map of
// it would have it, or nothing; reports nothing.
std::optional<AffineSection> sectionOf(LoopAnalysis &A, const BodyModel &Body, const clang::VarDecl *V,
                                       llvm::StringRef Name, LoopModel &Model, clang::DiagnosticsEngine &Diags);

} // namespace gpuautopar
