// One `#pragma gpu_autopar for|data|update ...` as the preprocessor saw it.
#pragma once

#include "clang/Basic/SourceLocation.h"
#include "clang/Lex/Token.h"

#include <vector>

namespace gpuautopar {

// `for`: an annotated loop; `data`: a data region around a compound
// statement; `update`: a standalone copy between host and devices inside one.
enum class DirectiveKind { For, Data, Update };

struct Annotation {
  DirectiveKind Kind = DirectiveKind::For;
  clang::SourceLocation HashLoc;      // the '#' of '#pragma' (or '_Pragma')
  clang::SourceLocation DirectiveLoc; // the 'for' (or 'data', 'update') after 'gpu_autopar'
  clang::SourceLocation EndLoc;       // the last token of the directive
  std::vector<clang::Token> Clauses;  // tokens after the directive name, up to the end of the line
};

} // namespace gpuautopar
