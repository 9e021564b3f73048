// The text of the runtime call an accepted loop becomes (docs/generated-code.md):
// the entry point of its mode, its options, data maps and reductions, and the
// parameters the outlined body takes. Pure text from LoopAnalysis, so the
// rewriter only has to place it.
#pragma once

#include "gpuautopar/LoopAnalysis.h"

#include <string>

namespace clang {
class ASTContext;
} // namespace clang

namespace gpuautopar {

// `::gpu_autopar::kernel_loop` etc.
std::string entryPoint(LoopMode Mode);
// `::gpu_autopar::options()` followed by one setter per clause written.
std::string optionsText(const LoopClauses &C);
// The loop's run-time checks (lib/rewrite/Spelling.h spells them) and its
// `.run_serially(...)`, appended to the options (`Space`: the loop's
// iteration space as the call passes it).
std::string disjointChecksText(const LoopAnalysis &A, const std::string &Space);
// `::gpu_autopar::reductions(::gpu_autopar::reduce<::gpu_autopar::op::plus>(sum), ...)`.
std::string reductionsText(const LoopClauses &C);
// `::gpu_autopar::data(::gpu_autopar::to(x, ::gpu_autopar::affine(1, 0, 1)), ...)`.
std::string dataText(const LoopAnalysis &A);
// One of its maps, `::gpu_autopar::to(x, ::gpu_autopar::affine(1, 0, 1))`
// (--report lists it as written here).
std::string mapText(const LoopAnalysis &A, const ArrayUse &U);
// Host and task mode: the objects the loop's map(from:) and map(tofrom:)
// clauses say it produces, `::gpu_autopar::data(::gpu_autopar::from(out, (0), (n),
// ::gpu_autopar::whole()))`, so that a runtime splitting the loop across
// processes can gather them (docs/mpi.md); empty without such clauses.
std::string producedText(const LoopAnalysis &A);
// The body's parameters after the induction variable: one view per map
// (kernel mode), then one reference per reduction variable, then one slot per
// lastprivate variable.
std::string extraParameters(const LoopAnalysis &A, const clang::ASTContext &Ctx);
// Kernel mode: for each member mapped through its accessor (the loop's scope
// cannot name it), `auto *const gpu_autopar_d_m_x = SPACE.count() ? &d.x(0) :
// nullptr; ` (`Space`: a local holding the loop's iteration space), the
// pointer its map copies from; empty when there is none. Element 0 exists
// once the loop runs: the analysis asked for an access in every iteration.
std::string accessorPointers(const LoopAnalysis &A, const std::string &Space);
// Kernel mode: the numbers the body reads through members, copied where the
// loop starts (`const auto gpu_autopar_this_scale = this->scale; `), in a
// block around the call that the body's lambda captures them from (nvcc
// allows no init-captures in an extended __host__ __device__ lambda); the
// body names them where it spelled the members. Empty: no block.
std::string memberValueCopies(const LoopAnalysis &A);
// The body's own copies of its private variables, declared where it starts:
// ` decltype(t) t;` for private, initialised from the outside variable for
// firstprivate, and for lastprivate a keeper that hands the copy back after
// the last iteration (`Induction` names the body's induction variable).
std::string privateCopiesText(const LoopClauses &C, const std::string &Induction);
// Arrays of variable-length rows (A.VariableRows), which no lambda can
// capture: init-captures under their own names of their rows as the runtime
// describes them (`, b = ::gpu_autopar::rows_of(&b[0][0], sizeof(b[0]) /
// sizeof(b[0][0]))`), which index as the arrays do.
std::string variableRowsCaptures(const LoopAnalysis &A);

} // namespace gpuautopar
