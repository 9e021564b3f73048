// Collects `#pragma gpu_autopar ...` directives of the main file while the
// preprocessor runs, so that they can be paired with the loops they annotate
// once the AST exists. Malformed directives are diagnosed here, at their tokens.
#pragma once

#include "gpuautopar/Annotation.h"
#include "gpuautopar/DirectiveScope.h"

#include "clang/Lex/Pragma.h"

#include <vector>

namespace gpuautopar {

class AnnotationCollector : public clang::PragmaHandler {
public:
  // `Scope`: where the names of each directive's clauses are looked up (may be null).
  explicit AnnotationCollector(DirectiveScope *Scope = nullptr)
      : clang::PragmaHandler("gpu_autopar"), Scope(Scope) {}

  void HandlePragma(clang::Preprocessor &PP, clang::PragmaIntroducer Introducer,
                    clang::Token &FirstToken) override;

  const std::vector<Annotation> &annotations() const { return Found; }
  // Errors this handler reported (malformed directives), to tell them apart
  // from the compiler's own errors in the file.
  unsigned errorsReported() const { return Errors; }

private:
  DirectiveScope *Scope;
  std::vector<Annotation> Found;
  unsigned Errors = 0;
};

} // namespace gpuautopar
