// Pragmas the tool would otherwise pass over without a word: an annotation in
// a header (only the source the tool runs on is rewritten) and a pragma whose
// namespace is a near miss of `gpu_autopar` (`gpu_autopr`, `GPU_AUTOPAR`),
// which the compiler ignores as an unknown pragma.
#pragma once

#include "clang/Lex/PPCallbacks.h"

namespace clang {
class Preprocessor;
}

namespace gpuautopar {

class PragmaWatch : public clang::PPCallbacks {
public:
  explicit PragmaWatch(clang::Preprocessor &PP) : PP(PP) {}
  void PragmaDirective(clang::SourceLocation Loc, clang::PragmaIntroducerKind Introducer) override;

private:
  clang::Preprocessor &PP;
};

} // namespace gpuautopar
