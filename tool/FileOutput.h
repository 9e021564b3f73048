// Writing the user's files: -i and -o replace a file the way an editor does,
// never leaving it half-written, and keep what the user set up around it.
#pragma once

#include "llvm/ADT/StringRef.h"

#include <string>

namespace gpuautopar {

// Why the file `Path` names must not be replaced ("it is read-only; ..."),
// or "" when it may be. A path that does not exist yet may be created.
std::string whyNotWritable(llvm::StringRef Path);

// Replaces the file `Path` names with `Text`: through a symbolic link to its
// target, keeping the target's permission bits, via a temporary file in the
// target's directory and a rename. Returns "" or what went wrong.
std::string replaceFile(llvm::StringRef Path, llvm::StringRef Text);

} // namespace gpuautopar
