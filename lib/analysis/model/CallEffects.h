// What a call does beyond what the calling body shows (internal): the effects
// of the callee's visible definition, followed through the calls it makes in
// turn. Nothing is assumed away: a function whose definition the tool does not
// see is either on an explicit list of library functions whose only effects go
// through their arguments (knownThroughArguments), or it is reported as unseen.
// Functions of the C++ standard library are taken as acting only through their
// arguments and object, except those that keep hidden state (rand, strtok).
#pragma once

#include "model/PointerParams.h"

#include "llvm/ADT/DenseMap.h"

#include <memory>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
class Type;
class VarDecl;
} // namespace clang

namespace gpuautopar {

struct CallEffects {
  // Variables of static storage (globals, static members, static locals)
  // the callee writes, and those it reads (written ones included).
  std::vector<const clang::VarDecl *> GlobalsWritten, GlobalsRead;
  // Of those written, the ones every call writes whole: an assignment under
  // no condition or loop, in a function that does not return before its end
  // or jump (`void foo(int i) { sum0 = sum0 + i; }`).
  std::vector<const clang::VarDecl *> GlobalsAlwaysWritten;
  // A member function writes its own object: a member assigned (a `mutable`
  // one through a `const` function too) or a non-const member function
  // called on it.
  bool WritesObject = false;
  // A member function reads what its object's pointer or reference members
  // point to (`p[i]` in a view's `operator[]`): the element types reached
  // (canonical, unqualified). The caller's object may point into data the
  // loop writes.
  std::vector<const clang::Type *> PointeesRead;
  // A lambda's call operator: variables of the function around the lambda
  // that it names. Written whole (`carry += x`), elements written through
  // them (`a[i] = x` with `a` captured), and read (either way).
  std::vector<const clang::VarDecl *> CapturesWritten, CaptureElementsWritten, CapturesRead;
  // The program ends or control jumps out of the caller: "exit", "abort",
  // "longjmp"... (empty: never).
  std::string Exit;
  // An exception may leave the callee.
  bool Throws = false;
  // It reads or writes a stream (printf, std::cout).
  std::string InputOutput;
  // A function it calls whose effects the analysis cannot see, and why
  // (completes "calls 'f', which ...").
  std::string Unseen;
  const char *UnseenWhy = nullptr;
  // What it does through each pointer parameter (PointerParams.h).
  std::vector<PointerParam> Params;
};

// The effects of every visible function a body calls, each computed once.
class CallEffectsCache {
public:
  // `F` must have a definition the analysis reads (isScanned).
  const CallEffects &of(const clang::FunctionDecl *F);

private:
  llvm::DenseMap<const clang::FunctionDecl *, std::unique_ptr<CallEffects>> Done;
  unsigned Depth = 0;
};

// The analysis reads `F`'s definition for its effects: a body is visible and
// `F` is not part of the standard library.
bool isScanned(const clang::FunctionDecl *F);

// Why a call to `F`, whose definition the analysis does not read, may have
// effects it cannot see; null when its effects go only through its arguments
// and object (the standard library but for hidden state, builtins, the C math
// and string functions, CUDA's API). Virtual and indirect calls are the
// caller's to judge.
const char *unseenWhy(const clang::FunctionDecl *F);

// "exit", "abort", "longjmp"... for a function that ends the program or jumps
// out of its caller; null otherwise.
const char *exitKind(const clang::FunctionDecl *F);

} // namespace gpuautopar
