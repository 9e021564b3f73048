#include "gpuautopar/Diagnostics.h"

namespace gpuautopar {

clang::DiagnosticBuilder report(clang::DiagnosticsEngine &E, Diag D, clang::SourceLocation Loc) {
  using L = clang::DiagnosticsEngine::Level;
  unsigned ID = 0;
  switch (D) {
  case Diag::ExpectedFor:
    ID = E.getCustomDiagID(L::Error, "expected 'for' after '#pragma gpu_autopar'");
    break;
  case Diag::NotFollowedByFor:
    ID = E.getCustomDiagID(L::Error, "statement after '#pragma gpu_autopar for' must be a for loop");
    break;
  case Diag::NoteAnnotationHere:
    ID = E.getCustomDiagID(L::Note, "annotation is here");
    break;
  case Diag::ClausesUnsupported:
    ID = E.getCustomDiagID(L::Error, "unexpected clause in '#pragma gpu_autopar for'");
    break;
  case Diag::NonCanonical:
    ID = E.getCustomDiagID(L::Error, "annotated loop is not in canonical form: %0");
    break;
  case Diag::NoteNonCanonicalPart:
    ID = E.getCustomDiagID(L::Note, "%0");
    break;
  }
  return E.Report(Loc, ID);
}

} // namespace gpuautopar
