// One `#pragma gpu_autopar for|data|update ...` as the preprocessor saw it,
// or an OpenMP or OpenACC loop directive accepted in its place (--accept,
// docs/migration.md).
#pragma once

#include "gpuautopar/ClauseToken.h"

#include "clang/Basic/SourceLocation.h"
#include "clang/Lex/Token.h"

#include <memory>
#include <string>
#include <vector>

namespace clang {
class NamedDecl;
} // namespace clang

namespace gpuautopar {

// `for`: an annotated loop; `data`: a data region around a compound
// statement; `update`: a standalone copy between host and devices inside one;
// `enter data` / `exit data`: unstructured data, mapped until as many exits
// as entries name it.
enum class DirectiveKind { For, Data, Update, EnterData, ExitData };

enum class AnnotationDialect { GpuAutopar, OpenMP, OpenACC };

// The words of a directive's clauses and what each names at the directive
// (null: nothing by that name), filled in by DirectiveScope.
struct DirectiveNames {
  struct Name {
    std::string Word;
    const clang::NamedDecl *Decl = nullptr;
  };
  std::vector<Name> Names;
  bool LookedUp = false;
};

struct Annotation {
  DirectiveKind Kind = DirectiveKind::For;
  clang::SourceLocation HashLoc;      // the '#' of '#pragma' (or '_Pragma')
  clang::SourceLocation DirectiveLoc; // the 'for' (or 'data', 'update') after 'gpu_autopar'
  clang::SourceLocation EndLoc;       // the last token of the directive
  std::vector<clang::Token> Clauses;  // tokens after the directive name, up to the end of the line
  // Where the annotation came from. For OpenMP and OpenACC, `Directive` is
  // what the user wrote ("omp parallel for"), `Translated` its clauses in
  // gpu_autopar's syntax (each token located at the source it came from),
  // and `TranslationOk` false when a clause could not be translated (the
  // reason was diagnosed at the clause).
  AnnotationDialect Dialect = AnnotationDialect::GpuAutopar;
  std::string Directive = "gpu_autopar for";
  std::vector<ClauseToken> Translated;
  bool TranslationOk = true;
  // OpenACC's `kernels loop` without `independent`, and `auto`: the compiler
  // runs the loop in parallel only where it proves the iterations
  // independent, and sequentially otherwise. Names the construct ("kernels
  // loop", "auto"); empty where the directive promises independence.
  std::string ProofRequiredBy;
  // OpenACC: "independent", "auto" or empty, as the loop directive's clauses
  // say (an `acc loop` inside a `kernels` region is `auto` unless it says
  // `independent`).
  std::string LoopIndependence;
  // What each name of the clauses means where the directive stands, as
  // clang's name lookup found it while it parsed the file (DirectiveScope.h);
  // null until then, and where the parser read the directive ahead of its
  // scope (in the body of a member function defined inside its class).
  std::shared_ptr<const DirectiveNames> Names;
};

} // namespace gpuautopar
