// The annotated loop as each instantiation of the template around it has it
// (internal to lib/analysis). The loop is analysed as the template is
// written, where a call whose callee depends on the template's parameters
// (`v[i] * f`) has no callee yet and two pointers of different dependent
// types look unrelated: classification judges those calls, and marks their
// callees, in each instantiation the file makes; reconcileInstantiations
// analyses each instantiation's loop whole and checks that the one rewritten
// loop serves them all.
#pragma once

#include "gpuautopar/Annotation.h"
#include "gpuautopar/LoopAnalysis.h"

#include <string>
#include <vector>

namespace clang {
class ASTContext;
class DiagnosticsEngine;
class Stmt;
} // namespace clang

namespace gpuautopar {

struct InstantiatedBody {
  std::string Name; // "scale<Cplx>", "Grid<float>::relax"
  const clang::Stmt *Body;
};

// Empty outside function templates and member functions of class templates.
std::vector<InstantiatedBody> instantiatedBodies(const LoopAnalysis &A, const clang::ASTContext &Ctx);

// `A` is the accepted analysis of the loop `Loop` as its template is written.
// Each instantiation's loop is analysed like any loop (its diagnostics kept
// aside). An instantiation whose loop is rejected (a dependence, an overlap
// or a construct only its types make) refuses the loop with an error naming
// it, and the instantiations that are fine, each with a note where it is
// made; so does one whose loop maps data the template's loop does not map, or
// writes back what that one only copies in. A run-time check an
// instantiation needs (two pointers of one element type that may overlap) is
// added to `A`'s: checks name what the template names, so each instantiation
// runs its own and the others' (which can only send it to serial execution).
// Warnings an instantiation has and the template's loop has not are given,
// naming it. Returns false when the loop is refused.
bool reconcileInstantiations(LoopAnalysis &A, const clang::Stmt *Loop, clang::ASTContext &Ctx,
                             clang::DiagnosticsEngine &Diags, const AnalysisOptions &Opts);

} // namespace gpuautopar
