// Under --accept, OpenMP and OpenACC regions that only wrap loops (`omp
// target`, `omp target teams`, `omp parallel`, `acc parallel`, `acc
// kernels`, ...; ForeignRegion in ForeignPragmas.h) are translated loop by
// loop, once the parser has shown what each one wraps:
// - each loop directive inside becomes an annotation that also carries the
//   region's private, firstprivate and reduction clauses (for the variables
//   the loop uses), and, where the region covers that one loop alone, its
//   maps: what the combined directive would say;
// - the maps of a region over a block become a data region around it (the
//   region's directive becomes that data directive);
// - code of the block that is not a loop under a loop directive runs on the
//   host, once, as `target` and `kernels` run it (the data region's checks
//   warn where it touches mapped data); a region whose other code runs in
//   every thread, team or gang (`parallel`, `teams`, `acc parallel`) is left
//   as written instead, with the reason, and so is one with a clause that
//   does not carry over.
// Every other directive of a translated region disappears from the output.
#pragma once

#include "gpuautopar/Annotation.h"
#include "gpuautopar/ForeignPragmas.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"

#include <functional>
#include <vector>

namespace clang {
class Rewriter;
} // namespace clang

namespace gpuautopar {

struct RegionPlan {
  // Region directives ('#' to last token) the output loses: their loops and
  // data region say what they said.
  std::vector<clang::SourceRange> Erased;
};

// Decides each region of `Left` (LeftDirective::Region). A translated one is
// marked Translated, with `Why` saying how; the loop annotations of `All`
// inside it take its clauses, and the data annotation of its maps joins
// `All` (kept in source order). A refused one keeps Translated false, and
// `Why` says why. `Covered(EndLoc)`: the statement a directive ending at
// `EndLoc` covers (null if none).
RegionPlan planRegions(std::vector<LeftDirective> &Left, std::vector<Annotation> &All,
                       const std::function<const clang::Stmt *(clang::SourceLocation)> &Covered,
                       clang::ASTContext &Ctx);

// Takes the directives `Plan` erases out of the output, keeping its lines.
void eraseRegionDirectives(const RegionPlan &Plan, clang::Rewriter &R);

} // namespace gpuautopar
