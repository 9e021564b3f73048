// One `#pragma gpu_autopar for ...` as the preprocessor saw it.
#pragma once

#include "clang/Basic/SourceLocation.h"
#include "clang/Lex/Token.h"

#include <vector>

namespace gpuautopar {

struct Annotation {
  clang::SourceLocation HashLoc;      // the '#' of '#pragma' (or '_Pragma')
  clang::SourceLocation DirectiveLoc; // the 'for' after 'gpu_autopar'
  clang::SourceLocation EndLoc;       // the last token of the directive
  std::vector<clang::Token> Clauses;  // tokens after 'for', up to the end of the line
};

} // namespace gpuautopar
