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
  auto word = [&](const char *W) {
    return Tok.is(clang::tok::identifier) && Tok.getIdentifierInfo()->getName() == W;
  };
  bool IsData = word("data");
  const bool IsUpdate = word("update");
  const bool IsEnter = word("enter"), IsExit = word("exit");
  if (IsEnter || IsExit) { // `enter data`, `exit data`
    PP.Lex(Tok);
    A.EndLoc = Tok.getLocation();
    IsData = word("data");
  }
  A.Kind = IsData ? (IsEnter ? DirectiveKind::EnterData : IsExit ? DirectiveKind::ExitData : DirectiveKind::Data)
           : IsUpdate ? DirectiveKind::Update
                      : DirectiveKind::For;
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
  if ((IsFor || IsData || IsUpdate) && InMainFile) {
    if (Scope)
      Scope->lookUpLater(A);
    Found.push_back(std::move(A));
  }
}

} // namespace gpuautopar
