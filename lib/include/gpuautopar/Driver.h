// Runs the tool on one translation unit: parse, find annotated loops, check
// them, rewrite them. The front end in tool/ decides where the result goes.
#pragma once

#include "clang/Tooling/CompilationDatabase.h"

#include <string>

namespace gpuautopar {

struct FileResult {
  bool Parsed = false;       // the compiler ran on the file at all
  bool HasErrors = false;    // the input has errors or an annotated loop was rejected
  unsigned LoopsRewritten = 0;
  std::string Original;      // the file's text as read
  std::string Rewritten;     // the output text (== Original when nothing changed)
};

struct DriverOptions {
  std::string ResourceDir; // clang's builtin headers, baked in at build time
};

// Processes `File` with the flags `Db` gives for it. Diagnostics go to stderr
// in clang's format.
FileResult processFile(const clang::tooling::CompilationDatabase &Db, const std::string &File,
                       const DriverOptions &Opts);

} // namespace gpuautopar
