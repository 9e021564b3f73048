#include "LeftAsWritten.h"
#include "gpuautopar/Diagnostics.h"

#include "llvm/ADT/STLExtras.h"

namespace gpuautopar {

using namespace clang;

LeftAsWritten::LeftAsWritten(std::vector<LeftDirective> Directives, const SourceManager &SM,
                             const std::function<const Stmt *(const LeftDirective &)> &Covered)
    : SM(SM) {
  for (LeftDirective &D : Directives) {
    // A `_Pragma` from a macro stands where the macro is used.
    D.HashLoc = SM.getExpansionLoc(D.HashLoc);
    const Stmt *S = D.CoversStatement ? Covered(D) : nullptr;
    SourceLocation End = S ? SM.getExpansionLoc(S->getEndLoc()) : SourceLocation();
    Constructs.push_back({std::move(D), End});
  }
  llvm::stable_sort(Constructs, [&](const Construct &X, const Construct &Y) {
    return SM.isBeforeInTranslationUnit(X.D.HashLoc, Y.D.HashLoc);
  });
}

void LeftAsWritten::reportBefore(SourceLocation Loc, DiagnosticsEngine &Diags, DiagnosticRecorder &Recorder,
                                 std::vector<LoopReport> &Out) {
  if (Loc.isValid())
    Loc = SM.getExpansionLoc(Loc);
  for (; Reported < Constructs.size(); ++Reported) {
    const LeftDirective &D = Constructs[Reported].D;
    // A translated region comes before the data region it becomes (at its '#').
    if (Loc.isValid() && (D.Translated ? SM.isBeforeInTranslationUnit(Loc, D.HashLoc)
                                       : !SM.isBeforeInTranslationUnit(D.HashLoc, Loc)))
      return;
    LoopReport R;
    R.At = placeOf(D.HashLoc, SM);
    R.Left = !D.Translated;
    R.Accepted = D.Translated;
    R.Directive = D.Directive;
    Recorder.recordInto(&R.Reasons);
    report(Diags, D.Translated ? Diag::ForeignRegionTranslated : Diag::ForeignDirectiveLeft, D.HashLoc)
        << D.Directive << D.Why;
    if (D.Translated)
      remarkRegionClauses(*D.Region, Diags);
    Recorder.recordInto(nullptr);
    Out.push_back(std::move(R));
  }
}

const LeftAsWritten::Construct *LeftAsWritten::enclosing(SourceLocation Loc) const {
  const Construct *Innermost = nullptr;
  for (const Construct &C : Constructs) {
    if (!SM.isBeforeInTranslationUnit(C.D.HashLoc, Loc))
      break;
    if (!C.D.Translated && C.End.isValid() && !SM.isBeforeInTranslationUnit(C.End, Loc))
      Innermost = &C;
  }
  return Innermost;
}

bool LeftAsWritten::leaveIfInside(const Annotation &A, DiagnosticsEngine &Diags, DiagnosticRecorder &Recorder,
                                  std::vector<LoopReport> &Out) const {
  if (A.Dialect == AnnotationDialect::GpuAutopar)
    return false;
  SourceLocation At = SM.getExpansionLoc(A.HashLoc);
  const Construct *C = enclosing(At);
  if (!C)
    return false;
  LoopReport R;
  R.At = placeOf(At, SM);
  R.Left = true;
  if (A.Kind != DirectiveKind::For)
    R.Directive = A.Directive;
  Recorder.recordInto(&R.Reasons);
  report(Diags, Diag::ForeignInsideLeft, At) << A.Directive << C->D.Directive
                                             << SM.getPresumedLineNumber(C->D.HashLoc);
  Recorder.recordInto(nullptr);
  Out.push_back(std::move(R));
  return true;
}

} // namespace gpuautopar
