// C sources given to the tool (`gpu-autopar file.c`, and `.h` headers run on
// alone, as the header warning advises). The rewritten loops are C++ lambdas,
// so such a file is parsed, and written, as C++: the C99/C11 that C++ compilers
// accept as an extension (`restrict` as `__restrict__`, variable-length
// arrays) parses as it is, and each implicit conversion from `void *` (what
// C's `malloc` returns), an error in C++, is made an explicit cast first.
#pragma once

#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace gpuautopar {

// `.c`, or a `.h` header (C or C++: both parse as C++).
bool isCSource(llvm::StringRef File);

// The file as C++ can parse it.
struct CxxCompatibleC {
  std::string Text;          // the source, with every implicit conversion from `void *` cast explicitly
  unsigned CastsAdded = 0;   // how many casts Text has that the file has not
  bool UsesRestrict = false; // the file spells C99's `restrict`
};

// Parses `File` as C with the database's flags (its C++ standard taken out)
// and finds the implicit `void *` conversions of the file itself (not of
// headers or macros). A file that does not parse as C (a C++ header) is
// returned as it is.
CxxCompatibleC cxxCompatibleC(const clang::tooling::CompilationDatabase &Db, const std::string &File,
                              const std::string &ResourceDir);

// The compiler arguments for parsing a C source as C++: `-x c++` (a `.h`:
// `-x c++-header`), the C standard replaced by C++17 unless a C++ one is
// given, `restrict` spelled `__restrict__`, no warning for variable-length arrays.
clang::tooling::ArgumentsAdjuster parseCAsCxx(llvm::StringRef File);

// What the rewritten C source starts with when it spells `restrict`, so that
// a C++ compiler (and nvcc) reads it as `__restrict__`; the `#line` after it
// keeps the lines of `LineFile` as they were.
std::string restrictPrologue(llvm::StringRef LineFile);

} // namespace gpuautopar
