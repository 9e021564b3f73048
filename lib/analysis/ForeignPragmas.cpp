// Reads the OpenMP and OpenACC directives of the main file under
// --accept=omp,acc: a loop or data directive becomes an Annotation with its
// clauses translated (ForeignClauses.cpp); any other directive is left as
// written (ForeignDirectiveWords.cpp says why).
#include "gpuautopar/ForeignPragmas.h"
#include "ForeignDirectives.h"
#include "gpuautopar/ClauseParser.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/STLExtras.h"

namespace gpuautopar {

using namespace foreign;

namespace {

// The directive's words ("target teams distribute parallel for"): the first
// word, then each directive word not followed by '(' (a clause's).
std::string directiveWords(AnnotationDialect Dialect, const Tokens &Toks, size_t &Pos) {
  std::string Words;
  while (Pos < Toks.size() && isWord(Toks[Pos].Spelling) &&
         (Pos == 0 || (isDirectiveWord(Dialect, Toks[Pos].Spelling) &&
                       !(Pos + 1 < Toks.size() && Toks[Pos + 1].Spelling == "(")))) {
    Words += (Words.empty() ? "" : " ") + Toks[Pos].Spelling;
    ++Pos;
  }
  return Words;
}

} // namespace

// The clauses after the directive's words, each with what its parentheses hold.
std::vector<ForeignClause> foreign::clausesFrom(const Tokens &Toks, size_t Pos) {
  std::vector<ForeignClause> Clauses;
  while (Pos < Toks.size()) {
    if (Toks[Pos].Spelling == ",") {
      ++Pos;
      continue;
    }
    ForeignClause C;
    C.Name = Toks[Pos].Spelling;
    C.Loc = Toks[Pos].Loc;
    ++Pos;
    if (Pos < Toks.size() && Toks[Pos].Spelling == "(") {
      C.HasArgs = true;
      int Depth = 1;
      for (++Pos; Pos < Toks.size(); ++Pos) {
        llvm::StringRef S = Toks[Pos].Spelling;
        if (S == "(")
          ++Depth;
        else if (S == ")" && --Depth == 0)
          break;
        C.Args.push_back(Toks[Pos]);
      }
      ++Pos; // the ')'
    }
    Clauses.push_back(std::move(C));
  }
  return Clauses;
}

namespace {

// OpenACC runs a `kernels loop` (whose loops are `auto` by default) and an
// `auto` loop in parallel only where the compiler proves it independent;
// `independent` is the user's promise, as `parallel loop` and `loop` are.
std::string proofRequiredBy(AnnotationDialect Dialect, llvm::StringRef Words, llvm::StringRef LoopIndependence) {
  if (Dialect != AnnotationDialect::OpenACC || LoopIndependence == "independent")
    return "";
  if (LoopIndependence == "auto")
    return "auto";
  return Words == "kernels loop" ? "kernels loop" : "";
}

} // namespace

ForeignPragmaHandler::ForeignPragmaHandler(AnnotationDialect Dialect, DirectiveScope *Scope)
    : clang::PragmaHandler(prefix(Dialect)), Dialect(Dialect), Scope(Scope) {}

void ForeignPragmaHandler::install(clang::Preprocessor &PP) {
  // The parser's handler is found by its name, which is ours.
  PP.RemovePragmaHandler(this);
  PP.AddPragmaHandler(this);
}

void ForeignPragmaHandler::HandlePragma(clang::Preprocessor &PP, clang::PragmaIntroducer Introducer,
                                        clang::Token &) {
  std::vector<clang::Token> Raw;
  clang::Token Tok;
  for (PP.Lex(Tok); Tok.isNot(clang::tok::eod); PP.Lex(Tok))
    Raw.push_back(Tok);
  const clang::SourceManager &SM = PP.getSourceManager();
  if (!SM.isInMainFile(SM.getExpansionLoc(Introducer.Loc)) || Raw.empty())
    return; // headers are rewritten by their own run of the tool
  clang::DiagnosticsEngine &Diags = PP.getDiagnostics();
  Tokens Toks = clauseTokens(Raw, SM, PP.getLangOpts());

  size_t Pos = 0;
  const std::string Words = directiveWords(Dialect, Toks, Pos);
  const std::string Directive = std::string(prefix(Dialect)) + " " + Words;
  const bool Data = isDataDirective(Dialect, Words);
  const DirectiveKind Kind = Data ? translatedDataDirective(Words) : DirectiveKind::For;
  // What gpu-autopar does not translate stays in the file as written; the
  // driver says so at the directive (it knows the code the construct covers).
  if (Kind == DirectiveKind::For && (Data || !isLoopDirective(Dialect, Words))) {
    Left.push_back({Introducer.Loc, Toks.back().Loc, Directive,
                    Data ? "it has no gpu_autopar equivalent" : refusalReason(Dialect, Words),
                    !isStandaloneDirective(Dialect, Words)});
    // A region that only wraps loops is translated loop by loop, once the
    // driver has seen what it wraps; until then it is left as written.
    if (std::optional<ForeignRegion::Runs> Runs = regionRuns(Dialect, Words)) {
      Left.back().Region = regionFrom(Dialect, *Runs, Words, Directive, Toks, Pos, Introducer.Loc, Diags, Scope);
    }
    return;
  }

  // OpenACC's `seq` declares the loop sequential: it runs as written.
  if (Dialect == AnnotationDialect::OpenACC &&
      llvm::any_of(clausesFrom(Toks, Pos), [](const ForeignClause &C) { return C.Name == "seq"; })) {
    Left.push_back({Introducer.Loc, Toks.back().Loc, Directive,
                    "'seq' declares the loop sequential; it runs as written, in order", true});
    return;
  }

  const unsigned ErrorsBefore = Diags.getNumErrors();
  TranslatedClauses T = translateClauses(Dialect, Kind, Directive, clausesFrom(Toks, Pos), Diags);
  Annotation A;
  A.Kind = Kind;
  A.HashLoc = Introducer.Loc;
  A.DirectiveLoc = Toks.front().Loc;
  A.EndLoc = Toks.back().Loc;
  A.Dialect = Dialect;
  A.Directive = Directive;
  A.Translated = std::move(T.Out);
  A.TranslationOk = T.Ok;
  A.ProofRequiredBy = proofRequiredBy(Dialect, Words, T.LoopIndependence);
  A.LoopIndependence = T.LoopIndependence;
  if (Scope)
    Scope->lookUpLater(A);
  Found.push_back(std::move(A));
  Errors += Diags.getNumErrors() - ErrorsBefore;
}

namespace {

// `Toks` without `Var` in its private(...) clauses (a clause left empty
// goes): OpenMP allows the loop variable there, gpu_autopar does not.
std::vector<ClauseToken> withoutPrivate(const std::vector<ClauseToken> &Toks, llvm::StringRef Var) {
  std::vector<ClauseToken> Out;
  for (size_t I = 0; I < Toks.size(); ++I) {
    if (Var.empty() || Toks[I].Spelling != "private" || I + 1 >= Toks.size() || Toks[I + 1].Spelling != "(") {
      Out.push_back(Toks[I]);
      continue;
    }
    size_t Close = I + 2;
    while (Close < Toks.size() && Toks[Close].Spelling != ")")
      ++Close;
    std::vector<ClauseToken> Kept;
    for (size_t J = I + 2; J < Close; ++J)
      if (Toks[J].Spelling != "," && Toks[J].Spelling != Var) {
        if (!Kept.empty())
          Kept.push_back({",", Toks[J].Loc, false, false});
        Kept.push_back(Toks[J]);
        Kept.back().LeadingSpace = Kept.size() > 1;
      }
    if (!Kept.empty()) {
      Out.push_back(Toks[I]);
      Out.push_back(Toks[I + 1]);
      Out.insert(Out.end(), Kept.begin(), Kept.end());
      if (Close < Toks.size())
        Out.push_back(Toks[Close]);
    }
    I = Close;
  }
  return Out;
}

} // namespace

const char *innerSimdReason() { return refusalReason(AnnotationDialect::OpenMP, "simd"); }

std::string convertedPragma(const Annotation &A, llvm::StringRef LoopVariable) {
  std::string S;
  switch (A.Kind) {
  case DirectiveKind::For: S = "#pragma gpu_autopar for"; break;
  case DirectiveKind::Data: S = "#pragma gpu_autopar data"; break;
  case DirectiveKind::Update: S = "#pragma gpu_autopar update"; break;
  case DirectiveKind::EnterData: S = "#pragma gpu_autopar enter data"; break;
  case DirectiveKind::ExitData: S = "#pragma gpu_autopar exit data"; break;
  }
  for (const ClauseToken &T : withoutPrivate(A.Translated, LoopVariable))
    S += (T.LeadingSpace ? " " : "") + T.Spelling;
  return S;
}

} // namespace gpuautopar
