// Judging one construct of a body, or of a callee it reaches (ModeCauses.h).
#include "decide/ModeCauses.h"
#include "decide/DeviceReach.h"
#include "ExprHelpers.h"
#include "FunctionKinds.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringSet.h"

namespace gpuautopar {
namespace {

using namespace clang;

// Functions of the C and C++ math libraries: CUDA provides device versions.
bool isMathFunction(StringRef Name) {
  static const llvm::StringSet<> Names = {
      "abs",   "labs",  "llabs", "fabs",  "fabsf", "sqrt",  "sqrtf", "cbrt",  "cbrtf", "exp",  "expf",  "exp2",
      "exp2f", "expm1", "log",   "logf",  "log2",  "log2f", "log10", "log10f", "log1p", "pow",  "powf",  "sin",
      "sinf",  "cos",   "cosf",  "tan",   "tanf",  "asin",  "asinf", "acos",  "acosf", "atan", "atanf", "atan2",
      "atan2f", "sinh", "cosh",  "tanh",  "tanhf", "floor", "floorf", "ceil", "ceilf", "round", "roundf", "trunc",
      "truncf", "fmod", "fmodf", "fmin",  "fminf", "fmax",  "fmaxf", "min",   "max",   "fma",  "fmaf",  "hypot",
      "hypotf", "erf",  "erff",  "isnan", "isinf", "isfinite", "signbit", "copysign", "copysignf", "rsqrt",
      "rsqrtf", "clamp"};
  return Names.contains(Name);
}

bool isDeviceFunction(const FunctionDecl *F) { return F->hasAttr<CUDADeviceAttr>() || F->hasAttr<CUDAGlobalAttr>(); }

// Member functions of std::vector / std::array / std::span that a view in
// device code provides too.
bool isDeviceContainerMember(const CXXMethodDecl *M) {
  const CXXRecordDecl *RD = M->getParent();
  if (!RD || !RD->isInStdNamespace())
    return false;
  StringRef Class = RD->getName();
  if (Class != "vector" && Class != "array" && Class != "span")
    return false;
  if (M->getOverloadedOperator() == OO_Subscript)
    return true;
  if (!M->getDeclName().isIdentifier())
    return false;
  StringRef N = M->getName();
  return N == "size" || N == "data" || N == "empty" || N == "front" || N == "back";
}

} // namespace

ModeCauses::ModeCauses(ASTContext &Ctx, DeviceReach &Reach, bool InCallee)
    : Ctx(Ctx), SM(Ctx.getSourceManager()), Reach(Reach), InCallee(InCallee) {}

void ModeCauses::judge(const BodyModel::Construct &C) {
  using K = BodyModel::Construct;
  switch (C.K) {
  case K::KernelLaunch: {
    const FunctionDecl *Kernel = cast<CallExpr>(C.E)->getDirectCallee();
    GpuWork.push_back({"launches kernel '" + (Kernel ? Kernel->getNameAsString() : std::string("<indirect>")) + "'",
                       C.E->getBeginLoc()});
    return;
  }
  case K::Call: return call(cast<CallExpr>(C.E));
  case K::Construction: return construction(cast<CXXConstructExpr>(C.E));
  case K::New: HostOnly.push_back({"allocates with 'new'", C.E->getBeginLoc()}); return;
  case K::Delete: HostOnly.push_back({"frees with 'delete'", C.E->getBeginLoc()}); return;
  case K::Throw: HostOnly.push_back({"throws an exception", C.E->getBeginLoc()}); return;
  case K::Try: HostOnly.push_back({"uses a try block", C.S->getBeginLoc()}); return;
  case K::StaticLocal:
    HostOnly.push_back({std::string(C.V->getTSCSpec() != TSCS_unspecified ? "declares a thread_local variable '"
                                                                          : "declares a static variable '") +
                            C.V->getNameAsString() + "'",
                        C.V->getLocation()});
    return;
  case K::Global: return global(C.V, C.E->getExprLoc());
  case K::OuterLambda: return outerLambda(cast<CallExpr>(C.E));
  }
}

void ModeCauses::call(const CallExpr *E) {
  const FunctionDecl *F = E->getDirectCallee();
  // In a template, a callee that depends on its parameters is known only in
  // the instantiations, where Classification judges it.
  if (!F && (E->isTypeDependent() || E->getCallee()->isTypeDependent()))
    return;
  if (!F) {
    HostOnly.push_back({"calls through a function pointer", E->getBeginLoc()});
    return;
  }
  if (const auto *M = dyn_cast<CXXMethodDecl>(F)) {
    if (M->getParent()->isLambda())
      return; // a lambda of the body: its own body is judged where it is written
    if (M->isVirtual() && !M->hasAttr<FinalAttr>() && !M->getParent()->hasAttr<FinalAttr>() &&
        isa<CXXMemberCallExpr>(E)) {
      HostOnly.push_back({"makes a virtual call to '" + M->getNameAsString() + "'", E->getBeginLoc()});
      return;
    }
    if (isDeviceContainerMember(M))
      return;
  }
  function(F, E->getBeginLoc(), F->getNameAsString());
}

// A lambda defined before the loop is called through the closure object
// the kernel copies: references it captured are host addresses there, and
// a mutable one would change the copy, not the program's object. Otherwise
// its body is a visible callee like any other.
void ModeCauses::outerLambda(const CallExpr *E) {
  const auto *M = cast<CXXMethodDecl>(E->getDirectCallee());
  const CXXRecordDecl *Closure = M->getParent();
  const std::string Name = isa<CXXOperatorCallExpr>(E) ? sourceText(cast<CXXOperatorCallExpr>(E)->getArg(0), Ctx)
                                                       : M->getNameAsString();
  if (!M->isConst()) {
    HostOnly.push_back({"calls '" + Name + "', a mutable lambda, which each call changes", E->getBeginLoc()});
    return;
  }
  for (const LambdaCapture &C : Closure->captures())
    if (C.capturesThis() || (C.capturesVariable() && C.getCaptureKind() == LCK_ByRef)) {
      HostOnly.push_back({"calls '" + Name + "', a lambda that captures by reference, which a GPU cannot follow",
                          E->getBeginLoc()});
      return;
    }
  visible(M, E->getBeginLoc(), Name);
}

void ModeCauses::construction(const CXXConstructExpr *E) {
  const CXXConstructorDecl *C = E->getConstructor();
  if (!C || C->isTrivial() || C->isConstexpr() || isDeviceFunction(C))
    return;
  if (SM.isInSystemHeader(C->getLocation())) {
    HostOnly.push_back({"constructs a '" + E->getType().getAsString(Ctx.getPrintingPolicy()) + "'",
                        E->getBeginLoc()});
    return;
  }
  if (!C->isUserProvided())
    return;
  // The object is destroyed where it was built: a destructor the user wrote
  // must be device-callable too.
  const CXXDestructorDecl *D = C->getParent()->getDestructor();
  if (visible(C, E->getBeginLoc(), C->getParent()->getNameAsString()) &&
      (!D || !D->isUserProvided() || visible(D, E->getBeginLoc(), D->getNameAsString())))
    return;
  if (!DeviceReach::follows(C))
    GpuWork.push_back({"calls host function '" + C->getParent()->getNameAsString() +
                           "' (a constructor; host functions may do GPU work)",
                       E->getBeginLoc()});
}

// Global arrays and containers named by the body reach the GPU through data
// maps; a global scalar would be read from host memory by device code, and
// so would any global a callee names (maps copy only what the body names).
void ModeCauses::global(const VarDecl *V, SourceLocation At) {
  if ((!InCallee && !V->getType()->isArithmeticType()) || V->hasAttr<CUDADeviceAttr>() ||
      V->hasAttr<CUDAConstantAttr>() || V->isConstexpr() ||
      (V->getType().isConstQualified() && V->getType()->isIntegralOrEnumerationType()))
    return;
  HostOnly.push_back({"uses global variable '" + V->getNameAsString() + "', which is not in GPU memory", At});
}

void ModeCauses::function(const FunctionDecl *F, SourceLocation At, const std::string &Name) {
  if (isCudaApi(F)) {
    GpuWork.push_back({"calls CUDA function '" + Name + "'", At});
    return;
  }
  // __builtin_* functions compile for the device; library builtins such as
  // printf or malloc are judged like any other library function below.
  const unsigned Builtin = F->getBuiltinID();
  // A trivial special member the compiler declared (`a = b` of a struct)
  // copies bytes: nvcc makes it __host__ __device__ itself.
  if (F->isImplicit() && F->isTrivial())
    return;
  if (isDeviceFunction(F) || F->isConstexpr() ||
      (Builtin != 0 && !Ctx.BuiltinInfo.isPredefinedLibFunction(Builtin)))
    return;
  const bool System = SM.isInSystemHeader(F->getLocation()) || Builtin != 0;
  if (System) {
    if (F->getDeclName().isIdentifier() && isMathFunction(F->getName()))
      return;
    HostOnly.push_back({"calls '" + Name + "', which cannot run on a GPU", At});
    return;
  }
  if (visible(F, At, Name))
    return;
  if (!DeviceReach::follows(F))
    GpuWork.push_back({"calls host function '" + Name + "' (host functions may do GPU work)", At});
}

bool ModeCauses::visible(const FunctionDecl *F, SourceLocation At, const std::string &Name) {
  if (!DeviceReach::follows(F))
    return false;
  const DeviceReach::Verdict &V = Reach.of(F);
  switch (V.K) {
  case DeviceReach::Verdict::Callable:
    DeviceCallees.insert(V.Callees.begin(), V.Callees.end());
    return true;
  case DeviceReach::Verdict::GpuWork:
    GpuWork.push_back({"calls '" + Name + "', which " + V.Text, At});
    return false;
  case DeviceReach::Verdict::HostOnly:
    HostOnly.push_back({"calls '" + Name + "', which cannot run on a GPU", At, V.Callee, V.Text, V.Loc});
    return false;
  }
  return false;
}

} // namespace gpuautopar
