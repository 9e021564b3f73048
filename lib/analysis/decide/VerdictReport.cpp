#include "VerdictReport.h"

namespace gpuautopar {

using namespace clang;

// Whose promise of independence a proven race breaks, for its message.
const char *assertedBy(AnnotationDialect D) {
  switch (D) {
  case AnnotationDialect::OpenMP: return "OpenMP";
  case AnnotationDialect::OpenACC: return "OpenACC";
  case AnnotationDialect::GpuAutopar: break;
  }
  return nullptr;
}

void render(const Finding &F, DiagnosticsEngine &Diags, bool Strict, const char *AssertedBy) {
  DiagnosticBuilder B = report(Diags, F.D, F.Loc, Strict, AssertedBy);
  for (const std::string &Arg : F.Args)
    B << Arg;
}

// Whether the loop's language runs it sequentially for reason `R` (OpenACC's
// `kernels loop` and `auto` when the iterations are not proven independent):
// what the tool cannot rule out, and a proven conflict between elements.
// Other proven reasons (a shared scalar written, a jump out of the loop)
// stay errors: the rewritten body cannot run them, even in order.
bool runsSequentiallyFor(const LoopAnalysis &A, const LegalityVerdict::Reason &R) {
  return !A.Pragma.ProofRequiredBy.empty() &&
         (R.K == LegalityVerdict::Unproven || R.Main.D == Diag::LoopCarriedDependence);
}

// Reports `R` as the reason the loop runs sequentially (a remark with its
// notes); the first such reason also records why for the rewritten loop and
// says, at the directive, what would make it parallel.
void runSequentially(LoopAnalysis &A, const LegalityVerdict::Reason &R, DiagnosticsEngine &Diags) {
  {
    DiagnosticBuilder B = reportSequential(Diags, R.Main.D, R.Main.Loc, A.Pragma.ProofRequiredBy);
    for (const std::string &Arg : R.Main.Args)
      B << Arg;
  }
  for (const Finding &N : R.Notes)
    render(N, Diags, false, nullptr);
  if (!A.SerialReason.empty())
    return;
  A.SerialReason = "OpenACC '" + A.Pragma.ProofRequiredBy + "' whose iterations are not proven independent";
  report(Diags, Diag::NoteIndependentClause, A.Pragma.HashLoc) << A.Pragma.Directive;
}

} // namespace gpuautopar
