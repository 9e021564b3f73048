// A unified diff (as `diff -u` prints it) of two versions of one file, for
// `gpu-autopar --diff`.
#pragma once

#include "llvm/ADT/StringRef.h"

#include <string>

namespace gpuautopar {

// The diff turning `Before` into `After`, with `--- OldName` / `+++ NewName`
// headers and three lines of context; empty when the texts are equal.
std::string unifiedDiff(llvm::StringRef Before, llvm::StringRef After, llvm::StringRef OldName,
                        llvm::StringRef NewName);

} // namespace gpuautopar
