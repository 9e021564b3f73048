#include "gpuautopar/AnnotationCollector.h"
#include "gpuautopar/Diagnostics.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Preprocessor.h"

namespace gpuautopar {

void AnnotationCollector::HandlePragma(clang::Preprocessor &PP, clang::PragmaIntroducer Introducer,
                                       clang::Token &) {
  // Only the main file is rewritten; pragmas in headers are left to the
  // header's own run of the tool.
  const bool InMainFile = PP.getSourceManager().isInMainFile(Introducer.Loc);

  Annotation A;
  A.HashLoc = Introducer.Loc;
  clang::Token Tok;
  PP.Lex(Tok);
  A.DirectiveLoc = Tok.getLocation();
  A.EndLoc = Tok.getLocation();
  const bool IsFor = Tok.is(clang::tok::kw_for);
  const bool IsData = Tok.is(clang::tok::identifier) && Tok.getIdentifierInfo()->getName() == "data";
  const bool IsUpdate = Tok.is(clang::tok::identifier) && Tok.getIdentifierInfo()->getName() == "update";
  A.Kind = IsData ? DirectiveKind::Data : IsUpdate ? DirectiveKind::Update : DirectiveKind::For;
  if (!IsFor && !IsData && !IsUpdate && InMainFile) {
    report(PP.getDiagnostics(), Diag::ExpectedFor, Tok.getLocation());
    ++Errors;
  }
  while (Tok.isNot(clang::tok::eod)) {
    PP.Lex(Tok);
    if (Tok.is(clang::tok::eod))
      break;
    A.Clauses.push_back(Tok);
    A.EndLoc = Tok.getLocation();
  }
  if ((IsFor || IsData || IsUpdate) && InMainFile)
    Found.push_back(std::move(A));
}

} // namespace gpuautopar
