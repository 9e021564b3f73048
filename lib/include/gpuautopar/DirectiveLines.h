// Preprocessor lines between an annotation and its loop. Code written for
// two builds puts them there: the "target or host" idiom
//
//   #ifdef TARGET
//   #pragma omp target teams distribute parallel for
//   #else
//   #pragma omp parallel for
//   #endif
//   for (...)
//
// or a `#pragma gpu_autopar for` under `#ifdef`, or a `#define` before the
// loop. The directive of the active branch annotates the loop; the lines in
// between (and the inactive branch's directive among them) stay as written.
#pragma once

#include "clang/Basic/SourceLocation.h"
#include "clang/Lex/Token.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace clang {
class LangOptions;
class SourceManager;
} // namespace clang

namespace gpuautopar {

// The first token after the token at `Loc` that is not part of a
// preprocessor line (a line whose first token is '#').
std::optional<clang::Token> nextTokenPastDirectives(clang::SourceLocation Loc, const clang::SourceManager &SM,
                                                    const clang::LangOptions &LO);

// The whole lines after the line of `From` and before the line of `To` (with
// their line ends), if any of them is a preprocessor line; empty otherwise.
llvm::StringRef directiveLinesBetween(clang::SourceLocation From, clang::SourceLocation To,
                                      const clang::SourceManager &SM);

} // namespace gpuautopar
