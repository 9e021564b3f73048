// Marks the visible callees of kernel-mode loops GPU_AUTOPAR_HD in the
// rewritten file (runtime/include/gpu_autopar/hd.h: `__host__ __device__`
// under nvcc, nothing for a host compiler), so that the kernel's body can
// call them: every declaration of each callee that the file itself writes
// (for a template, of the template; for a lambda, after its captures).
#pragma once

#include "gpuautopar/LoopAnalysis.h"

#include "llvm/ADT/DenseSet.h"

namespace clang {
class ASTContext;
class Rewriter;
} // namespace clang

namespace gpuautopar {

class DeviceMarks {
public:
  // Marks A.DeviceCallees (a kernel-mode loop's), each declaration once per file.
  void mark(const LoopAnalysis &A, clang::ASTContext &Ctx, clang::Rewriter &R);

private:
  llvm::DenseSet<unsigned> Marked; // raw encodings of where a mark went
};

} // namespace gpuautopar
