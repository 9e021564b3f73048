// Collects `#pragma gpu_autopar ...` directives of the main file while the
// preprocessor runs, so that they can be paired with the loops they annotate
// once the AST exists. Malformed directives are diagnosed here, at their tokens.
#pragma once

#include "gpuautopar/Annotation.h"

#include "clang/Lex/Pragma.h"

#include <vector>

namespace gpuautopar {

class AnnotationCollector : public clang::PragmaHandler {
public:
  AnnotationCollector() : clang::PragmaHandler("gpu_autopar") {}

  void HandlePragma(clang::Preprocessor &PP, clang::PragmaIntroducer Introducer,
                    clang::Token &FirstToken) override;

  const std::vector<Annotation> &annotations() const { return Found; }

private:
  std::vector<Annotation> Found;
};

} // namespace gpuautopar
