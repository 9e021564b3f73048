// `#pragma gpu_autopar data map(...)` before a compound statement, and
// `#pragma gpu_autopar update host(...)|device(...)` inside one: their
// clauses checked and resolved, and the host code of a region checked for
// uses of mapped data that no update covers (docs/runtime.md, "Data regions").
#pragma once

#include "gpuautopar/Annotation.h"
#include "gpuautopar/LoopAnalysis.h"

#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/ArrayRef.h"

#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class CompoundStmt;
class Decl;
class DiagnosticsEngine;
class Stmt;
class VarDecl;
} // namespace clang

namespace gpuautopar {

// One mapped section: `Var[Lower:Length]`, or the whole object when both
// are empty (containers and built-in arrays).
struct RegionSection {
  MapKind Kind;
  const clang::VarDecl *Var;
  std::string Lower, Length;
  clang::SourceLocation Loc; // the name in the clause
};

struct DataRegion {
  clang::SourceLocation HashLoc, EndLoc; // the '#' and the directive's last token
  const clang::CompoundStmt *Body = nullptr;
  std::vector<RegionSection> Sections;
};

struct UpdateDirective {
  clang::SourceLocation HashLoc, EndLoc; // the '#' and the directive's last token
  // One per section of each `host(...)` or `device(...)` clause, in the
  // order written.
  struct Motion {
    bool ToHost;
    RegionSection Section;
  };
  std::vector<Motion> Motions;
};

// `#pragma gpu_autopar enter data map(to|alloc: ...)` or `exit data
// map(from|release|delete: ...)`: unstructured data, entered and exited
// anywhere in functions (docs/runtime.md, "Unstructured data").
struct UnstructuredData {
  clang::SourceLocation HashLoc, EndLoc; // the '#' and the directive's last token
  bool Enter = true;
  // `exit data ... finalize`: the dynamic reference count drops to zero; `from`
  // sections are still copied back when no other reference is left.
  bool Finalize = false;
  std::vector<RegionSection> Sections;
};

// Checks an `enter data` or `exit data` directive inside `Enclosing`.
std::optional<UnstructuredData> analyzeUnstructuredData(const Annotation &A, const clang::Decl *Enclosing,
                                                        clang::ASTContext &Ctx, clang::DiagnosticsEngine &Diags);

// Checks a `data` directive and the statement after it (`Next`, found at
// `NextLoc`, inside `Enclosing`); reports each problem at its token.
std::optional<DataRegion> analyzeDataRegion(const Annotation &A, const clang::Stmt *Next,
                                            clang::SourceLocation NextLoc, const clang::Decl *Enclosing,
                                            clang::ASTContext &Ctx, clang::DiagnosticsEngine &Diags);

// Checks an `update` directive inside `Enclosing` (null: not in a function).
std::optional<UpdateDirective> analyzeUpdate(const Annotation &A, const clang::Decl *Enclosing,
                                             clang::ASTContext &Ctx, clang::DiagnosticsEngine &Diags);

// Warns about host code of `R` that reads a mapped variable after a device
// loop without an `update host` in between, or writes one without an
// `update device` after it. `DeviceLoops` are the annotated loops (pragma to
// end of loop), whose bodies are device code.
void checkHostAccesses(const DataRegion &R, llvm::ArrayRef<clang::SourceRange> DeviceLoops,
                       llvm::ArrayRef<UpdateDirective> Updates, clang::ASTContext &Ctx,
                       clang::DiagnosticsEngine &Diags);

} // namespace gpuautopar
