// What each construct of a body (or of a callee it reaches) says about where
// the body can run (internal to lib/analysis/decide): GPU work makes the loop
// a task, host-only constructs keep it off the GPU. Classification.cpp
// judges the body's constructs with it; DeviceReach.cpp judges a callee's.
#pragma once

#include "model/BodyModel.h"

#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/SetVector.h"

#include <string>
#include <vector>

namespace clang {
class ASTContext;
class SourceManager;
class FunctionDecl;
} // namespace clang

namespace gpuautopar {

class DeviceReach;

// One thing in the body that decides the mode, with where it is.
struct Cause {
  std::string Text; // completes "the body ..." / "loop runs on CPU threads only: ..."
  clang::SourceLocation Loc;
  // Inside a callee: what in it decides ("'lookup' allocates with 'new'"),
  // and where; empty for a construct of the body itself.
  std::string NoteCallee, NoteText;
  clang::SourceLocation NoteLoc;
};

class ModeCauses {
public:
  // `Reach` follows the visible callees; `InCallee`: the constructs are a
  // callee's, whose globals no data map brings to the GPU.
  ModeCauses(clang::ASTContext &Ctx, DeviceReach &Reach, bool InCallee = false);

  std::vector<Cause> GpuWork;  // makes it a task
  std::vector<Cause> HostOnly; // keeps it off the GPU
  // Visible callees the judged constructs reach that become device-callable
  // (GPU_AUTOPAR_HD) if the loop runs as a kernel: functions and lambdas'
  // call operators, as the analysis sees them (instantiations included).
  llvm::SetVector<const clang::FunctionDecl *> DeviceCallees;

  void judge(const BodyModel::Construct &C);

private:
  void call(const clang::CallExpr *E);
  void outerLambda(const clang::CallExpr *E);
  void construction(const clang::CXXConstructExpr *E);
  void global(const clang::VarDecl *V, clang::SourceLocation At);
  void function(const clang::FunctionDecl *F, clang::SourceLocation At, const std::string &Name);
  // A callee whose definition the tool sees: device-callable, or a cause.
  bool visible(const clang::FunctionDecl *F, clang::SourceLocation At, const std::string &Name);

  clang::ASTContext &Ctx;
  const clang::SourceManager &SM;
  DeviceReach &Reach;
  bool InCallee;
};

} // namespace gpuautopar
