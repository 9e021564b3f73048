// The annotated loop's body as each instantiation of the template around it
// has it (internal to lib/analysis/decide). The loop is analysed as the
// template is written, where a call whose callee depends on the template's
// parameters (`v[i] * f`) has no callee yet: classification judges those
// calls, and marks their callees, in each instantiation the file makes.
#pragma once

#include "gpuautopar/LoopAnalysis.h"

#include <string>
#include <vector>

namespace clang {
class ASTContext;
class Stmt;
} // namespace clang

namespace gpuautopar {

struct InstantiatedBody {
  std::string Name; // "scale<Cplx>", "Grid<float>::relax"
  const clang::Stmt *Body;
};

// Empty outside function templates and member functions of class templates.
std::vector<InstantiatedBody> instantiatedBodies(const LoopAnalysis &A, const clang::ASTContext &Ctx);

} // namespace gpuautopar
