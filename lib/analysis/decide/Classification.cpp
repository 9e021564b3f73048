#include "gpuautopar/Classification.h"
#include "decide/ConstructsFound.h"
#include "decide/DeviceReach.h"
#include "decide/Instantiations.h"
#include "decide/ModeCauses.h"
#include "model/BodyModel.h"
#include "MemberReach.h"
#include "Containers.h"
#include "ExprHelpers.h"
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

// Elements the body reaches that no data map would bring to a device: the
// loop would read host memory there (docs/analysis.md, "Execution modes").
std::vector<Cause> unmappedData(const LoopAnalysis &A, const BodyModel &Body, const MemberReach &Members,
                                ASTContext &Ctx) {
  std::vector<Cause> Out;
  llvm::StringSet<> Reported;
  auto add = [&](const std::string &Object, std::string Why, SourceLocation Loc) {
    if (Reported.insert(Object).second)
      Out.push_back({std::move(Why), Loc});
  };
  // Members a map can copy are judged below like variables; reachMembers
  // says why the others cannot, and what else reaches `this`.
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

// nvcc cannot define an extended lambda, as the kernel's body is, inside a
// generic lambda (one with `auto` parameters), however deep.
bool insideGenericLambda(const Decl *Enclosing) {
  for (const DeclContext *C = dyn_cast_or_null<DeclContext>(Enclosing); C; C = C->getParent())
    if (const auto *M = dyn_cast<CXXMethodDecl>(C); M && M->getParent()->isGenericLambda())
      return true;
  return false;
}

// The body as an instantiation has it: what it adds to the template's
// causes (calls whose callee depends on the template's parameters), named
// after the instantiation, and the callees it makes device-callable.
void judgeInstantiation(const InstantiatedBody &I, ModeCauses &Scan, ASTContext &Ctx, DeviceReach &Reach) {
  ModeCauses Inst(Ctx, Reach);
  for (const BodyModel::Construct &C : constructsIn(I.Body).Constructs)
    Inst.judge(C);
  auto add = [&](std::vector<Cause> &From, std::vector<Cause> &To) {
    for (Cause &C : From)
      if (llvm::none_of(To, [&](const Cause &T) { return T.Loc == C.Loc; })) {
        C.Text += " (in '" + I.Name + "')";
        To.push_back(std::move(C));
      }
  };
  add(Inst.GpuWork, Scan.GpuWork);
  add(Inst.HostOnly, Scan.HostOnly);
  Scan.DeviceCallees.insert(Inst.DeviceCallees.begin(), Inst.DeviceCallees.end());
}

// A cause found in a callee: a note where it is.
void noteInCallee(const Cause &C, DiagnosticsEngine &Diags) {
  if (!C.NoteCallee.empty())
    report(Diags, Diag::NoteCalleeCause, C.NoteLoc) << C.NoteCallee << C.NoteText;
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
  DeviceReach Reach(Ctx);
  ModeCauses Scan(Ctx, Reach);
  const MemberReach Members = reachMembers(A, Body, Ctx);
  for (const BodyModel::Construct &C : Body.Constructs)
    if (C.K != BodyModel::Construct::Call || !Members.decidesCall(C.E)) // a view's subscript in a kernel
      Scan.judge(C);
  for (Cause &C : unmappedData(A, Body, Members, Ctx))
    Scan.HostOnly.push_back(std::move(C));
  for (const InstantiatedBody &I : instantiatedBodies(A, Ctx))
    judgeInstantiation(I, Scan, Ctx, Reach);
  if (insideGenericLambda(A.Enclosing))
    Scan.HostOnly.push_back({"is inside a generic lambda, where nvcc cannot define the kernel (an extended "
                             "__host__ __device__ lambda); give the lambda's parameters types, or make it a function "
                             "template",
                             A.Loop->beginLoc()});

  if (A.Clauses.Mode) {
    A.Mode = *A.Clauses.Mode;
    A.Reasons.push_back({std::string("mode(") + spelling(A.Mode) + ") clause", A.Clauses.ModeLoc});
    if (A.Mode != LoopMode::Kernel)
      return true;
    const Cause *Blocker = !Scan.GpuWork.empty() ? &Scan.GpuWork.front()
                           : !Scan.HostOnly.empty() ? &Scan.HostOnly.front()
                                                    : nullptr;
    if (!Blocker) {
      A.DeviceCallees.assign(Scan.DeviceCallees.begin(), Scan.DeviceCallees.end());
      return true;
    }
    report(Diags, Diag::KernelNotOffloadable, Blocker->Loc) << Blocker->Text;
    noteInCallee(*Blocker, Diags);
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
    noteInCallee(C, Diags);
    for (const Cause &H : Scan.HostOnly)
      A.Reasons.push_back({"the body " + H.Text, H.Loc});
    return true;
  }
  A.Mode = LoopMode::Kernel;
  A.DeviceCallees.assign(Scan.DeviceCallees.begin(), Scan.DeviceCallees.end());
  A.Reasons.push_back({"the body only computes and accesses memory, which a GPU can do", A.Loop->beginLoc()});
  return true;
}

} // namespace gpuautopar
