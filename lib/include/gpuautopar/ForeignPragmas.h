// OpenMP and OpenACC directives under --accept=omp,acc (docs/migration.md).
// A loop directive (`omp parallel for`, `omp target teams distribute parallel
// for`, `acc parallel loop`, ...) becomes an Annotation whose clauses are
// translated into gpu_autopar's, so that the rest of the tool sees exactly
// what `#pragma gpu_autopar for ...` would give it. Every other directive of
// the namespace is left in the file as written (LeftDirective: the driver
// says so at its '#pragma'), one directive at a time; every clause whose
// meaning does not carry over is an error at the clause: nothing is dropped
// silently.
#pragma once

#include "gpuautopar/Annotation.h"
#include "gpuautopar/DirectiveScope.h"

#include "clang/Lex/Pragma.h"

#include <string>
#include <vector>

namespace clang {
class Preprocessor;
}

namespace gpuautopar {

// A directive gpu-autopar does not translate (a task, a parallel region that
// is not a single loop, `critical`, `acc host_data`, ...): it stays in the
// output exactly as written, so the file still builds, with or without
// OpenMP/OpenACC, as the user's own build of it does.
struct LeftDirective {
  clang::SourceLocation HashLoc, EndLoc; // the '#' (or _Pragma) and the directive's last token
  std::string Directive;                 // "omp task"
  std::string Why;                       // why it is not translated
  bool CoversStatement = false;          // a construct over the statement after it (not standalone)
};

class ForeignPragmaHandler : public clang::PragmaHandler {
public:
  // Dialect OpenMP handles `#pragma omp`, OpenACC `#pragma acc`.
  // `Scope`: where the names of each directive's clauses are looked up (may be null).
  explicit ForeignPragmaHandler(AnnotationDialect Dialect, DirectiveScope *Scope = nullptr);

  void HandlePragma(clang::Preprocessor &PP, clang::PragmaIntroducer Introducer,
                    clang::Token &FirstToken) override;

  const std::vector<Annotation> &annotations() const { return Found; }
  const std::vector<LeftDirective> &leftAsWritten() const { return Left; }
  unsigned errorsReported() const { return Errors; }

  // Takes over the namespace from the handler the parser installed (clang's
  // OpenMP/OpenACC parser, or the one that ignores the pragmas without
  // -fopenmp/-fopenacc). Call once the parser exists and before it reads the
  // file: from SemaConsumer::InitializeSema. The parser gives the namespace
  // back (by name) when it is destroyed; this handler stays owned by the caller.
  void install(clang::Preprocessor &PP);

private:
  AnnotationDialect Dialect;
  DirectiveScope *Scope;
  std::vector<Annotation> Found;
  std::vector<LeftDirective> Left;
  unsigned Errors = 0;
};

// `#pragma gpu_autopar for <clauses>`: what --convert writes in place of an
// accepted directive; `LoopVariable` (the loop's own, which OpenMP allows in
// `private`) is left out of its private clauses.
std::string convertedPragma(const Annotation &A, llvm::StringRef LoopVariable = "");

} // namespace gpuautopar
