#include "gpuautopar/LoopAnalyzer.h"
#include "model/BodyModel.h"
#include "model/LoopModel.h"
#include "decide/Instantiations.h"
#include "gpuautopar/CanonicalLoop.h"
#include "gpuautopar/Classification.h"
#include "gpuautopar/ClauseParser.h"
#include "gpuautopar/ClauseResolver.h"
#include "gpuautopar/Collapse.h"
#include "gpuautopar/DataMap.h"
#include "gpuautopar/Diagnostics.h"
#include "gpuautopar/Legality.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/StmtCXX.h"

namespace gpuautopar {

using namespace clang;

LoopAnalysis analyzeLoop(const Annotation &Pragma, const Stmt *Next, SourceLocation NextLoc, const Decl *Enclosing,
                         ASTContext &Ctx, DiagnosticsEngine &Diags, const AnalysisOptions &Opts) {
  LoopAnalysis A;
  A.Pragma = Pragma;
  A.Enclosing = Enclosing;
  // Clause syntax is checked even when the loop is wrong, so that one run
  // reports both. OpenMP and OpenACC clauses were translated into gpu_autopar's
  // when the directive was read; the same parser makes them the same model.
  std::optional<ParsedClauses> Parsed;
  if (Pragma.Dialect == AnnotationDialect::GpuAutopar)
    Parsed = parseClauses(clauseTokens(Pragma.Clauses, Ctx.getSourceManager(), Ctx.getLangOpts()), Pragma.EndLoc,
                          Diags);
  else if (Pragma.TranslationOk)
    Parsed = parseClauses(Pragma.Translated, Pragma.EndLoc, Diags);

  const auto *For = dyn_cast_or_null<ForStmt>(Next);
  const auto *RangeFor = dyn_cast_or_null<CXXForRangeStmt>(Next);
  if (!For && !RangeFor) {
    report(Diags, Diag::NotFollowedByFor, NextLoc.isValid() ? NextLoc : Pragma.EndLoc) << Pragma.Directive;
    report(Diags, Diag::NoteAnnotationHere, Pragma.HashLoc);
    return A;
  }
  A.Loop = For ? recognizeCanonicalLoop(For, Ctx, Diags) : recognizeRangeLoop(RangeFor, Ctx, Diags);
  if (!A.Loop || !Parsed)
    return A;

  std::optional<LoopClauses> Clauses = resolveClauses(Pragma, *Parsed, Next, Enclosing, A.Loop->Induction, Ctx, Diags);
  if (!Clauses)
    return A;
  A.Clauses = std::move(*Clauses);
  A.Clauses.ModeLoc = Parsed->ModeLoc;
  A.Clauses.Collapse = Parsed->Collapse;
  A.Clauses.CollapseLoc = Parsed->CollapseLoc;
  if (A.Clauses.Collapse > 1 && !collapseNest(A, Ctx, Diags))
    return A;

  // Legality and mode are both reported even if the first fails.
  const BodyModel Body = collectBody(A, Ctx);
  const clang::Stmt *Rewritten = A.Collapsed.empty() ? nullptr : A.Collapsed.back().Loop;
  for (const auto &[Continue, Target] : Body.Continues)
    if (Target == Rewritten)
      A.IterationEnds.push_back(Continue);
  A.KernelLaunches = Body.KernelLaunches;
  // The nest's one polyhedral model: legality, the collapsed levels, the
  // data maps and every section below read it.
  LoopModel Model(*A.Loop, Body, Ctx, Opts);
  const bool Legal = checkLegality(A, Body, Model.forDependence(), Ctx, Diags, Opts) &&
                     collapsedLoopsAreParallel(A, Model, Ctx, Diags, Opts);
  const bool Classified = classifyLoop(A, Body, Ctx, Diags);
  const bool Mapped =
      Legal && Classified &&
      (A.Mode != LoopMode::Kernel ||
       inferDataMaps(A, Body, Model, Diags, /*MayRunOnHost=*/!A.Clauses.Mode.has_value()));
  auto SectionOf = [&](const VarDecl *V, StringRef Name) {
    return sectionOf(A, Body, V, Name, Model, Diags);
  };
  if (!settleAliasChecks(A, Mapped, Diags, Opts, SectionOf) || !Mapped)
    return A;
  // In a template: the loop as each instantiation has it (decide/Instantiations.h).
  if (!reconcileInstantiations(A, Next, Ctx, Diags, Opts))
    return A;
  A.Accepted = true;
  return A;
}

} // namespace gpuautopar
