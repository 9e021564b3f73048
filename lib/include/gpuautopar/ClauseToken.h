// One token of a clause list, independent of how it was lexed (through the
// preprocessor for real pragmas, by the raw lexer in the fuzz target, or made
// by the OpenMP/OpenACC translation with the location of the source it came from).
#pragma once

#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/StringRef.h"

#include <cctype>
#include <string>

namespace gpuautopar {

struct ClauseToken {
  std::string Spelling;
  clang::SourceLocation Loc;
  bool LeadingSpace = false;
  bool IsNumber = false;
};

// Whether a spelling starts like a name: a clause or directive word, a variable.
inline bool isWord(llvm::StringRef S) { return !S.empty() && (std::isalpha((unsigned char)S[0]) || S[0] == '_'); }

} // namespace gpuautopar
