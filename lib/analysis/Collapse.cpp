#include "gpuautopar/Collapse.h"
#include "model/BodyModel.h"
#include "model/LoopModel.h"
#include "gpuautopar/CanonicalLoop.h"
#include "gpuautopar/Diagnostics.h"
#include "gpuautopar/Legality.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"

#include <string>

namespace gpuautopar {
namespace {

using namespace clang;

// The one statement a loop's body holds, looking through braces; null when
// it holds none or several (then `Extra` is the first statement that is not
// the nested loop).
const Stmt *onlyStatement(const Stmt *Body, const Stmt *&Extra) {
  Extra = nullptr;
  while (const auto *C = dyn_cast<CompoundStmt>(Body)) {
    const Stmt *Only = nullptr;
    for (const Stmt *S : C->body()) {
      if (isa<NullStmt>(S))
        continue; // a stray ';' changes nothing
      if (Only) {
        Extra = isa<ForStmt>(Only) || isa<CXXForRangeStmt>(Only) ? S : Only;
        return nullptr;
      }
      Only = S;
    }
    if (!Only)
      return nullptr;
    Body = Only;
  }
  return Body;
}

// The first use of one of `Vars` in an expression.
class FindUse : public RecursiveASTVisitor<FindUse> {
public:
  explicit FindUse(const std::vector<const VarDecl *> &Vars) : Vars(Vars) {}
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    for (const VarDecl *V : Vars)
      if (E->getDecl() == V) {
        Found = E;
        return false;
      }
    return true;
  }
  const DeclRefExpr *Found = nullptr;

private:
  const std::vector<const VarDecl *> &Vars;
};

const DeclRefExpr *useOf(const Expr *E, const std::vector<const VarDecl *> &Vars) {
  if (!E)
    return nullptr;
  FindUse F(Vars);
  F.TraverseStmt(const_cast<Expr *>(E));
  return F.Found;
}

} // namespace

bool collapseNest(LoopAnalysis &A, ASTContext &Ctx, DiagnosticsEngine &Diags) {
  const unsigned N = A.Clauses.Collapse;
  const std::string Count = std::to_string(N);
  if (!A.Clauses.LastPrivates.empty()) {
    report(Diags, Diag::CollapseLastPrivate, A.Clauses.CollapseLoc)
        << Count << A.Clauses.LastPrivates.front()->getName();
    return false;
  }
  if (A.Loop->RangeFor) {
    report(Diags, Diag::CollapseRangeFor, A.Loop->beginLoc());
    report(Diags, Diag::NoteCollapseClause, A.Clauses.CollapseLoc);
    return false;
  }
  std::vector<const VarDecl *> Outer{A.Loop->Induction};
  const CanonicalLoop *Around = &*A.Loop;
  A.Collapsed.clear();
  for (unsigned Depth = 2; Depth <= N; ++Depth) {
    const Stmt *Extra = nullptr;
    const Stmt *Next = onlyStatement(Around->body(), Extra);
    const auto *For = dyn_cast_or_null<ForStmt>(Next);
    if (Extra) {
      report(Diags, Diag::CollapseNotPerfect, Extra->getBeginLoc()) << Count;
      report(Diags, Diag::NoteCollapseClause, A.Clauses.CollapseLoc);
      return false;
    }
    if (isa_and_nonnull<CXXForRangeStmt>(Next)) {
      report(Diags, Diag::CollapseRangeFor, Next->getBeginLoc());
      report(Diags, Diag::NoteCollapseClause, A.Clauses.CollapseLoc);
      return false;
    }
    if (!For) {
      report(Diags, Diag::CollapseTooDeep, A.Clauses.CollapseLoc) << Count << std::to_string(Depth - 1);
      report(Diags, Diag::NoteCollapsedLoop, Around->beginLoc()) << std::to_string(Depth - 1);
      return false;
    }
    std::optional<CanonicalLoop> Inner = recognizeCanonicalLoop(For, Ctx, Diags);
    if (!Inner)
      return false;
    const std::pair<const Expr *, const char *> Parts[] = {
        {Inner->Lower, "lower bound"}, {Inner->Bound, "bound"}, {Inner->Step, "step"}};
    for (const auto &[E, What] : Parts)
      if (const DeclRefExpr *Use = useOf(E, Outer)) {
        report(Diags, Diag::CollapseNonRectangular, Use->getLocation())
            << What << Use->getDecl()->getName();
        report(Diags, Diag::NoteCollapseClause, A.Clauses.CollapseLoc);
        return false;
      }
    Outer.push_back(Inner->Induction);
    // Each iteration gets its own value of a collapsed loop's variable (a
    // parameter of the rewritten body), also of one declared before the nest
    // (`int i, j;` at the top): it is private, as in OpenMP.
    if (!Inner->DeclaredInInit && llvm::find(A.Clauses.Privates, Inner->Induction) == A.Clauses.Privates.end())
      A.Clauses.Privates.push_back(Inner->Induction);
    A.Collapsed.push_back(*Inner);
    Around = &A.Collapsed.back();
  }
  return true;
}

bool collapsedLoopsAreParallel(LoopAnalysis &A, LoopModel &Model, ASTContext &Ctx, DiagnosticsEngine &Diags,
                               const AnalysisOptions &Opts) {
  bool Ok = true;
  for (const CanonicalLoop &Inner : A.Collapsed) {
    LoopAnalysis Nested;
    Nested.Pragma = A.Pragma;
    Nested.Loop = Inner;
    Nested.Clauses = A.Clauses;
    Nested.SerialReason = A.SerialReason; // said once per loop
    const BodyModel Body = collectBody(Nested, Ctx);
    std::unique_ptr<LevelModel> Level = Model.collapsedLevel(*Nested.Loop, Body);
    Ok = checkLegality(Nested, Body, *Level, Ctx, Diags, Opts) && Ok;
    A.SerialReason = Nested.SerialReason;
  }
  return Ok;
}

} // namespace gpuautopar
