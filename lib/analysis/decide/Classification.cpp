#include "gpuautopar/Classification.h"
#include "model/BodyModel.h"
#include "MemberReach.h"
#include "Containers.h"
#include "ExprHelpers.h"
#include "FunctionKinds.h"
#include "gpuautopar/ClauseParser.h"
#include "gpuautopar/Diagnostics.h"

#include "clang/Basic/SourceManager.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

#include <cassert>

namespace gpuautopar {
namespace {

using namespace clang;

// One thing in the body that decides the mode, with where it is.
struct Cause {
  std::string Text; // completes "the body ..." / "loop runs on CPU threads only: ..."
  SourceLocation Loc;
};

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

// What the body's constructs say about where it can run: GPU work makes the
// loop a task; host-only constructs keep it off the GPU.
class ModeCauses {
public:
  explicit ModeCauses(ASTContext &Ctx) : Ctx(Ctx), SM(Ctx.getSourceManager()) {}

  std::vector<Cause> GpuWork;  // makes it a task
  std::vector<Cause> HostOnly; // keeps it off the GPU

  void judge(const BodyModel::Construct &C) {
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

private:
  void call(const CallExpr *E) {
    const FunctionDecl *F = E->getDirectCallee();
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
    function(F, E->getBeginLoc());
  }

  // A lambda defined before the loop is called through the closure object
  // the kernel copies: references it captured are host addresses there, and
  // a mutable one would change the copy, not the program's object.
  void outerLambda(const CallExpr *E) {
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
  }

  void construction(const CXXConstructExpr *E) {
    const CXXConstructorDecl *C = E->getConstructor();
    if (!C || C->isTrivial() || C->isConstexpr() || isDeviceFunction(C))
      return;
    if (SM.isInSystemHeader(C->getLocation()))
      HostOnly.push_back({"constructs a '" + E->getType().getAsString(Ctx.getPrintingPolicy()) + "'",
                          E->getBeginLoc()});
    else if (C->isUserProvided())
      GpuWork.push_back({"calls host function '" + C->getParent()->getNameAsString() +
                             "' (a constructor; host functions may do GPU work)",
                         E->getBeginLoc()});
  }

  // Global arrays and containers reach the GPU through data maps; a global
  // scalar would be read from host memory by device code.
  void global(const VarDecl *V, SourceLocation At) {
    if (!V->getType()->isArithmeticType() || V->hasAttr<CUDADeviceAttr>() || V->hasAttr<CUDAConstantAttr>() ||
        V->isConstexpr() || (V->getType().isConstQualified() && V->getType()->isIntegralOrEnumerationType()))
      return;
    HostOnly.push_back({"uses global variable '" + V->getNameAsString() + "', which is not in GPU memory", At});
  }

  void function(const FunctionDecl *F, SourceLocation At) {
    const std::string Name = F->getNameAsString();
    if (isCudaApi(F)) {
      GpuWork.push_back({"calls CUDA function '" + Name + "'", At});
      return;
    }
    // __builtin_* functions compile for the device; library builtins such as
    // printf or malloc are judged like any other library function below.
    const unsigned Builtin = F->getBuiltinID();
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
    GpuWork.push_back({"calls host function '" + Name + "' (host functions may do GPU work)", At});
  }

  ASTContext &Ctx;
  const SourceManager &SM;
};

// Elements the body reaches that no data map would bring to a device: the
// loop would read host memory there (docs/analysis.md, "Execution modes").
std::vector<Cause> unmappedData(const LoopAnalysis &A, const BodyModel &Body, ASTContext &Ctx) {
  std::vector<Cause> Out;
  llvm::StringSet<> Reported;
  auto add = [&](const std::string &Object, std::string Why, SourceLocation Loc) {
    if (Reported.insert(Object).second)
      Out.push_back({std::move(Why), Loc});
  };
  // Members a map can copy are judged below like variables; reachMembers
  // says why the others cannot, and what else reaches `this`.
  const MemberReach Members = reachMembers(A, Body, Ctx);
  for (const auto &[Why, At] : Members.HostOnly)
    Out.push_back({Why, At});
  for (const Access &X : Body.Accesses) {
    if (!X.Element || (X.Var && llvm::is_contained(A.Clauses.Privates, X.Var)) ||
        (X.ThroughMember && !Members.Mapped.count(X.Name)))
      continue;
    assert((X.Var || X.ThroughMember) && "an element access without a member path names its variable");
    const QualType T = X.ThroughMember ? X.ObjectType : X.Var->getType();
    if (T->isVariablyModifiedType()) {
      add(X.Name, "uses '" + X.Name + "', a variable-length array, which a data map cannot describe",
          X.E->getExprLoc());
      continue;
    }
    std::optional<ContainerKind> Kind = containerKind(T);
    if (!Kind) {
      add(X.Name,
          "indexes '" + X.Name + "', a '" + T.getNonReferenceType().getAsString(Ctx.getPrintingPolicy()) +
              "', which a data map cannot copy to a GPU (maps copy pointers, arrays, std::vector and std::array)",
          X.E->getExprLoc());
      continue;
    }
    if (std::optional<std::string> Why = whyNotFlat(elementType(T, *Kind)))
      add(X.Name, "indexes '" + X.Name + "', whose elements " + *Why + ", which a data map does not copy",
          X.E->getExprLoc());
  }
  return Out;
}

// A `sizeof` or `alignof` in `S` of an expression that names `V`.
const UnaryExprOrTypeTraitExpr *sizeOfNaming(const Stmt *S, const VarDecl *V) {
  if (!S)
    return nullptr;
  if (const auto *U = dyn_cast<UnaryExprOrTypeTraitExpr>(S); U && !U->isArgumentType()) {
    llvm::SmallVector<const Stmt *, 8> Work{U->getArgumentExpr()};
    while (!Work.empty()) {
      const Stmt *T = Work.pop_back_val();
      if (const auto *R = dyn_cast_or_null<DeclRefExpr>(T); R && R->getDecl() == V)
        return U;
      if (T)
        Work.append(T->child_begin(), T->child_end());
    }
    return nullptr;
  }
  for (const Stmt *C : S->children())
    if (const UnaryExprOrTypeTraitExpr *U = sizeOfNaming(C, V))
      return U;
  return nullptr;
}

} // namespace

bool classifyLoop(LoopAnalysis &A, const BodyModel &Body, ASTContext &Ctx, DiagnosticsEngine &Diags) {
  // A body that uses a variable-length array runs on CPU threads: their
  // lambdas capture it by reference (g++, clang and nvcc's host compiler
  // accept that), while a kernel's data maps cannot describe its type.
  // Rows of variable length (`float a[n][m]`) no lambda can capture (g++:
  // "capture of variably-modified type ... not implemented"): the rewrite
  // hands the body a description of their rows instead (A.VariableRows).
  A.VariableRows.clear();
  for (const Access &X : Body.Accesses) {
    if (!X.Var || !X.Var->getType()->isVariablyModifiedType())
      continue;
    if (A.Clauses.Mode == LoopMode::Kernel) {
      report(Diags, Diag::VariableLengthArray, X.E->getExprLoc()) << X.Var->getName();
      report(Diags, Diag::NoteDeclaredHere, X.Var->getLocation()) << X.Var->getName();
      return false;
    }
    const QualType T = X.Var->getType().getNonReferenceType();
    const ArrayType *AT = Ctx.getAsArrayType(T);
    const QualType Row = AT ? AT->getElementType() : T->isPointerType() ? T->getPointeeType() : QualType();
    if (Row.isNull() || !Row->isVariablyModifiedType() || llvm::is_contained(A.VariableRows, X.Var))
      continue;
    // The body sees a description of the rows, whose size is not the array's.
    if (const UnaryExprOrTypeTraitExpr *Size = sizeOfNaming(A.Loop->body(), X.Var)) {
      report(Diags, Diag::VariableLengthRowsSize, Size->getBeginLoc()) << X.Var->getName();
      report(Diags, Diag::NoteDeclaredHere, X.Var->getLocation()) << X.Var->getName();
      return false;
    }
    A.VariableRows.push_back(X.Var);
  }
  ModeCauses Scan(Ctx);
  for (const BodyModel::Construct &C : Body.Constructs)
    Scan.judge(C);
  for (Cause &C : unmappedData(A, Body, Ctx))
    Scan.HostOnly.push_back(std::move(C));

  if (A.Clauses.Mode) {
    A.Mode = *A.Clauses.Mode;
    A.Reasons.push_back({std::string("mode(") + spelling(A.Mode) + ") clause", A.Clauses.ModeLoc});
    if (A.Mode != LoopMode::Kernel)
      return true;
    const Cause *Blocker = !Scan.GpuWork.empty() ? &Scan.GpuWork.front()
                           : !Scan.HostOnly.empty() ? &Scan.HostOnly.front()
                                                    : nullptr;
    if (!Blocker)
      return true;
    report(Diags, Diag::KernelNotOffloadable, Blocker->Loc) << Blocker->Text;
    report(Diags, Diag::NoteModeClause, A.Clauses.ModeLoc);
    A.Reasons.push_back({"the body " + Blocker->Text, Blocker->Loc});
    return false;
  }

  if (!Scan.GpuWork.empty()) {
    A.Mode = LoopMode::Task;
    for (const Cause &C : Scan.GpuWork)
      A.Reasons.push_back({"the body " + C.Text, C.Loc});
    return true;
  }
  if (!Scan.HostOnly.empty()) {
    A.Mode = LoopMode::Host;
    const Cause &C = Scan.HostOnly.front();
    report(Diags, Diag::HostOnlyRemark, C.Loc) << ("the body " + C.Text);
    for (const Cause &H : Scan.HostOnly)
      A.Reasons.push_back({"the body " + H.Text, H.Loc});
    return true;
  }
  A.Mode = LoopMode::Kernel;
  A.Reasons.push_back({"the body only computes and accesses memory, which a GPU can do", A.Loop->beginLoc()});
  return true;
}

} // namespace gpuautopar
