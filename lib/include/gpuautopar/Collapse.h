// collapse(n) (docs/analysis.md, clause reference): the n loops of a perfect
// nest run as one loop over all their iterations (OpenMP's meaning).
#pragma once

#include "gpuautopar/LoopAnalysis.h"

namespace clang {
class ASTContext;
class DiagnosticsEngine;
} // namespace clang

namespace gpuautopar {

class LoopModel;

// Finds the n-1 loops nested in A.Loop that collapse(n) takes along and fills
// A.Collapsed. Each must be a canonical for loop that is the only statement
// of the loop around it (a perfect nest), with bounds and a step that do not
// depend on an enclosing collapsed loop's induction variable (a rectangular
// nest). Reports why not, at the statement or expression that breaks it.
bool collapseNest(LoopAnalysis &A, clang::ASTContext &Ctx, clang::DiagnosticsEngine &Diags);

// The iterations of every collapsed inner loop must be independent as well
// (for fixed outer values): each is checked as the annotated loop is, on a
// level of the nest's model (`Model`, lib/analysis/model/LoopModel.h).
bool collapsedLoopsAreParallel(LoopAnalysis &A, LoopModel &Model, clang::ASTContext &Ctx,
                               clang::DiagnosticsEngine &Diags, const AnalysisOptions &Opts);

} // namespace gpuautopar
