// Turns an accepted annotated loop into a call of the runtime, as text edits.
//
// The pragma and the loop header become one call of host_loop, task_loop or
// kernel_loop; the body's text stays as the user wrote it, inside a lambda,
// with `#line` directives so that diagnostics and debuggers still point at the
// original source.
#pragma once

#include "gpuautopar/LoopAnalysis.h"

#include "llvm/ADT/StringRef.h"

#include <string>

namespace clang {
class ASTContext;
class Rewriter;
} // namespace clang

namespace gpuautopar {

struct OutputNames {
  std::string LineFile; // the name `#line` directives refer to: the source as it was given
  std::string SiteFile; // the name reports use for the loop: the file's base name
};

// Rewrites one accepted loop (`A.Accepted`, `A.Loop` set) into the runtime
// call of its mode (docs/generated-code.md): host_loop, task_loop or
// kernel_loop, with its options, data maps (A.Arrays) and reductions.
void rewriteLoop(const LoopAnalysis &A, clang::ASTContext &Ctx, clang::Rewriter &R, const OutputNames &Names);

// Makes the rewritten file include the runtime's header, and restarts line
// numbering so that line 1 is still the original line 1.
void addRuntimeInclude(clang::ASTContext &Ctx, clang::Rewriter &R, const OutputNames &Names);

// `Text` as the contents of a C++ string literal.
std::string quoted(llvm::StringRef Text);

} // namespace gpuautopar
