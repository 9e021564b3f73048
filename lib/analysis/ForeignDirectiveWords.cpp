// The words of OpenMP and OpenACC directives: which name a directive, which
// directives annotate a loop, move data or stand alone, and why the others
// are left as written.
#include "ForeignDirectives.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"

namespace gpuautopar::foreign {

const char *prefix(AnnotationDialect D) { return D == AnnotationDialect::OpenMP ? "omp" : "acc"; }

// The words that name directives (as opposed to clauses) in each dialect.
bool isDirectiveWord(AnnotationDialect D, llvm::StringRef W) {
  if (D == AnnotationDialect::OpenMP)
    return llvm::StringSwitch<bool>(W)
        .Cases({"parallel", "for", "simd", "target", "teams", "distribute", "loop", "taskloop", "sections",
                "section", "single", "master", "masked", "task", "taskwait", "taskyield", "taskgroup", "barrier"},
               true)
        .Cases({"critical", "atomic", "flush", "ordered", "threadprivate", "declare", "end", "requires", "data",
                "enter", "exit", "update", "cancel", "cancellation", "point", "scan", "tile", "unroll", "scope"},
               true)
        .Cases({"interop", "dispatch", "allocate", "assume", "assumes", "metadirective", "nothing", "error",
                "depobj", "begin", "variant", "workshare", "mapper"},
               true)
        .Default(false);
  return llvm::StringSwitch<bool>(W)
      // `wait` names a directive only as the first word (always one):
      // `parallel loop wait` is a loop with a wait clause.
      .Cases({"parallel", "kernels", "serial", "loop", "data", "enter", "exit", "update", "host_data", "declare",
              "init", "shutdown", "set", "routine", "atomic", "cache"},
             true)
      .Default(false);
}

// Directives that annotate the loop after them.
bool isLoopDirective(AnnotationDialect D, llvm::StringRef Words) {
  if (D == AnnotationDialect::OpenACC)
    return Words == "parallel loop" || Words == "kernels loop" || Words == "loop";
  return llvm::StringSwitch<bool>(Words)
      .Cases({"simd", "for", "for simd", "parallel for", "parallel for simd", "distribute", "distribute simd",
              "distribute parallel for", "distribute parallel for simd", "teams distribute"},
             true)
      .Cases({"teams distribute simd", "teams distribute parallel for", "teams distribute parallel for simd",
              "target parallel for", "target parallel for simd", "target teams distribute",
              "target teams distribute simd", "target teams distribute parallel for",
              "target teams distribute parallel for simd"},
             true)
      .Cases({"loop", "parallel loop", "teams loop", "target teams loop", "target parallel loop"}, true)
      .Default(false);
}

bool isDataDirective(AnnotationDialect D, llvm::StringRef Words) {
  if (D == AnnotationDialect::OpenMP)
    return Words == "target data" || Words == "target enter data" || Words == "target exit data" ||
           Words == "target update";
  return Words == "data" || Words == "enter data" || Words == "exit data" || Words == "update" ||
         Words == "host_data" || Words == "declare";
}

// The data directives that become gpu_autopar's own (a region before a
// block, an update, enter and exit data), as a DirectiveKind; For for the
// others (host_data, declare), which are refused.
DirectiveKind translatedDataDirective(llvm::StringRef Words) {
  return llvm::StringSwitch<DirectiveKind>(Words)
      .Cases({"target data", "data"}, DirectiveKind::Data)
      .Cases({"target update", "update"}, DirectiveKind::Update)
      .Cases({"target enter data", "enter data"}, DirectiveKind::EnterData)
      .Cases({"target exit data", "exit data"}, DirectiveKind::ExitData)
      .Default(DirectiveKind::For);
}

// Directives that cover no statement: declarations and executable
// directives that stand alone (everything else is a construct over the
// statement after it).
bool isStandaloneDirective(AnnotationDialect D, llvm::StringRef Words) {
  llvm::StringRef First = Words.split(' ').first;
  if (D == AnnotationDialect::OpenMP)
    return llvm::StringSwitch<bool>(First)
        .Cases({"barrier", "taskwait", "taskyield", "flush", "cancel", "cancellation", "depobj", "scan",
                "threadprivate", "declare", "requires", "allocate", "error", "nothing", "assumes", "begin", "end"},
               true)
        .Default(false);
  return llvm::StringSwitch<bool>(First)
      .Cases({"wait", "init", "shutdown", "set", "routine", "cache", "declare", "update", "enter", "exit"}, true)
      .Default(false);
}

// Why a directive that is neither a loop nor a data directive is left as written.
const char *refusalReason(AnnotationDialect D, llvm::StringRef Words) {
  llvm::SmallVector<llvm::StringRef, 6> W;
  Words.split(W, ' ');
  auto has = [&](llvm::StringRef X) { return llvm::is_contained(W, X); };
  if (has("atomic"))
    return "gpu-autopar has no atomic updates; write the update as a reduction(...) or let iterations write "
           "distinct elements";
  if (has("critical"))
    return "the iterations of a gpu_autopar loop cannot synchronise; use a reduction(...) for what the critical "
           "section accumulates";
  if (has("sections") || has("section"))
    return "sections run different code side by side; gpu-autopar parallelizes loops only";
  // A wait covers no code; what it waits for is never a rewritten loop (the
  // suites' `nowait` target loops followed by `taskwait`, `async` and `wait`).
  if (Words == "taskwait" || (D == AnnotationDialect::OpenACC && W[0] == "wait"))
    return "the rewritten loops return once every iteration has run, so it waits for nothing of theirs; it stays "
           "for the constructs left as written that it may wait for";
  if (has("task") || has("taskloop") || has("taskwait") || has("taskgroup") || has("taskyield"))
    return "tasks have no gpu_autopar equivalent; gpu-autopar parallelizes loops only";
  if (has("barrier") || has("single") || has("master") || has("masked") || has("ordered") || has("flush"))
    return "synchronisation inside a parallel region has no gpu_autopar equivalent";
  if (D == AnnotationDialect::OpenMP && Words == "simd") // inside a translated loop (innerSimdReason)
    return "'simd' alone promises SIMD lanes, not independent iterations ('parallel for simd' does); it stays a "
           "vectorisation hint for the compiler";
  if (D == AnnotationDialect::OpenMP && Words == "tile")
    return "tiles order the iterations of a nest, they do not change what each computes; annotate the nest's "
           "outer loop";
  if (D == AnnotationDialect::OpenACC && Words == "serial loop")
    return "a serial loop runs on one gang, in order: its iterations are not declared independent";
  // The suites' offloading probe: `omp target` around host code only.
  if (D == AnnotationDialect::OpenMP && Words == "target")
    return "a target region is translated only when it holds loops under loop directives; its code runs on the "
           "host, as it does without OpenMP";
  if (W.size() == 1 || (W.size() == 2 && (W[0] == "target" || W[0] == "parallel")))
    if (has("parallel") || has("teams") || has("target") || has("kernels") || has("serial"))
      return D == AnnotationDialect::OpenMP
                 ? "a parallel region is not a single loop; annotate each of its loops instead "
                   "('#pragma omp parallel for')"
                 : "a compute region is not a single loop; annotate each of its loops instead "
                   "('#pragma acc parallel loop')";
  return D == AnnotationDialect::OpenMP ? "only loop constructs ('parallel for', 'target teams distribute parallel "
                                          "for', ...) become gpu_autopar annotations"
                                        : "only loop constructs ('parallel loop', 'kernels loop', 'loop') become "
                                          "gpu_autopar annotations";
}

} // namespace gpuautopar::foreign
