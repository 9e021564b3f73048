// Kinds of callees that both legality and classification recognise (internal).
#pragma once

#include "clang/AST/Decl.h"
#include "llvm/ADT/StringExtras.h"

namespace gpuautopar {

// CUDA runtime, driver and library entry points, and Thrust: GPU work whose
// effects the user controls, not host data the loop shares.
inline bool isCudaApi(const clang::FunctionDecl *F) {
  if (!F->getDeclName().isIdentifier())
    return false;
  llvm::StringRef N = F->getName();
  if (F->getQualifiedNameAsString().rfind("thrust::", 0) == 0)
    return true;
  for (llvm::StringRef P : {"cuda", "cublas", "cufft", "curand", "cusparse", "cusolver", "nccl", "cudnn", "nvrtc"})
    if (N.starts_with(P))
      return true;
  // The driver API: cuInit, cuMemAlloc, cuLaunchKernel...
  return N.size() > 2 && N.starts_with("cu") && llvm::isUpper(N[2]);
}

} // namespace gpuautopar
