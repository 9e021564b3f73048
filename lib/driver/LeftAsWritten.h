// Under --accept, the OpenMP and OpenACC directives that stay in the output
// exactly as written: the constructs gpu-autopar does not translate (tasks,
// parallel regions that are not a single loop, `critical`, ...) and the
// loop directives inside such a construct (translating an `omp for` alone
// would leave its `omp parallel` running the rewritten loop once per
// thread). Each gets a remark at its '#pragma' and an entry in --report;
// the rest of the file is translated and written (docs/migration.md). A
// region translated loop by loop (RegionPlan.h) is reported here too, in
// source order among them, as translated.
#pragma once

#include "DiagnosticRecorder.h"
#include "gpuautopar/Annotation.h"
#include "gpuautopar/Driver.h"
#include "gpuautopar/ForeignPragmas.h"

#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"

#include <functional>
#include <vector>

namespace gpuautopar {

class LeftAsWritten {
public:
  // `Covered(D)`: the statement construct `D` covers (null if none is found).
  LeftAsWritten(std::vector<LeftDirective> Directives, const clang::SourceManager &SM,
                const std::function<const clang::Stmt *(const LeftDirective &)> &Covered);

  // Reports (remark, and an entry of `Out`) every directive before `Loc`
  // not reported yet, in source order; an invalid `Loc` reports the rest.
  void reportBefore(clang::SourceLocation Loc, clang::DiagnosticsEngine &Diags, DiagnosticRecorder &Recorder,
                    std::vector<LoopReport> &Out);

  // An OpenMP/OpenACC annotation inside a construct left as written stays
  // as written too: true after its remark and report entry; false if `A` is
  // not inside one (or is gpu_autopar's own).
  bool leaveIfInside(const Annotation &A, clang::DiagnosticsEngine &Diags, DiagnosticRecorder &Recorder,
                     std::vector<LoopReport> &Out) const;

private:
  struct Construct {
    LeftDirective D;
    clang::SourceLocation End; // the end of the statement it covers; invalid if none
  };
  const Construct *enclosing(clang::SourceLocation Loc) const;

  const clang::SourceManager &SM;
  std::vector<Construct> Constructs; // in source order
  size_t Reported = 0;
};

} // namespace gpuautopar
