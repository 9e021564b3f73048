// Which visible callees of a kernel-mode body can run on a GPU (internal to
// lib/analysis/decide). A callee whose definition the tool sees is walked,
// with what it calls in turn: it is device-callable (the rewrite then marks
// it GPU_AUTOPAR_HD, as OpenMP 5 compilers make such callees "declare target"
// implicitly), or it does GPU work (the loop is a task), or something in it
// cannot run on a GPU (the loop stays on CPU threads, naming the callee and
// the line). What callees read and write is CallEffects' to say, not this.
#pragma once

#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"

#include <memory>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
} // namespace clang

namespace gpuautopar {

class DeviceReach {
public:
  struct Verdict {
    enum Kind { Callable, GpuWork, HostOnly } K = Callable;
    // Callable: the functions to mark, this one included where it needs it.
    std::vector<const clang::FunctionDecl *> Callees;
    // GpuWork: completes "calls 'f', which ...". HostOnly: "'Callee' Text"
    // is the reason, at Loc, in the callee where it is.
    std::string Callee, Text;
    clang::SourceLocation Loc;
  };

  explicit DeviceReach(clang::ASTContext &Ctx) : Ctx(Ctx) {}

  // The tool sees `F`'s definition outside system headers: it is walked.
  static bool follows(const clang::FunctionDecl *F);
  // `F` (followed) as a callee of device code; each function walked once.
  const Verdict &of(const clang::FunctionDecl *F);

private:
  Verdict walk(const clang::FunctionDecl *Def);

  clang::ASTContext &Ctx;
  llvm::DenseMap<const clang::FunctionDecl *, std::unique_ptr<Verdict>> Done;
  unsigned Depth = 0;
};

// `F` or one of its declarations is already marked GPU_AUTOPAR_HD by the
// user (or by an earlier rewrite): the macro is empty when the tool parses,
// so the mark is read from the text.
bool markedDeviceCallable(const clang::FunctionDecl *F, const clang::ASTContext &Ctx);

} // namespace gpuautopar
