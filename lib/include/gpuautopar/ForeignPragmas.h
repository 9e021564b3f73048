// OpenMP and OpenACC directives under --accept=omp,acc (docs/migration.md).
// A loop directive (`omp parallel for`, `omp target teams distribute parallel
// for`, `acc parallel loop`, ...) becomes an Annotation whose clauses are
// translated into gpu_autopar's, so that the rest of the tool sees exactly
// what `#pragma gpu_autopar for ...` would give it. Every other directive of
// the namespace is left in the file as written (LeftDirective: the driver
// says so at its '#pragma'), one directive at a time; every clause whose
// meaning does not carry over is an error at the clause: nothing is dropped
// silently.
#pragma once

#include "gpuautopar/Annotation.h"
#include "gpuautopar/DirectiveScope.h"

#include "clang/Lex/Pragma.h"

#include <functional>
#include <memory>
#include <optional>

#include <string>
#include <vector>

namespace clang {
class DiagnosticsEngine;
class Preprocessor;
} // namespace clang

namespace gpuautopar {

// A region that only wraps loops (`omp target`, `omp target teams`, `omp
// parallel`, `acc parallel`, `acc kernels`, ...) is translated loop by loop
// (lib/driver/RegionPlan.cpp decides, once the statement it covers is known):
// each loop directive inside it becomes an annotation with the region's
// private, firstprivate and reduction clauses, and the region's maps a data
// region around them (docs/migration.md, "Regions that wrap loops").
struct ForeignRegion {
  // How many times OpenMP/OpenACC runs the region's code that is not under a
  // loop directive: once (`target`, `kernels`), in every thread (`parallel`),
  // team (`teams`) or gang (`acc parallel`).
  enum class Runs { Once, PerThread, PerTeam, PerGang };
  Runs HostCode = Runs::Once;
  bool Kernels = false;  // `acc kernels`: a loop in it is parallel only where proven, unless `independent`
  std::string Words;     // "target teams"
  // Kind Data, at the region's directive: its map clauses in gpu_autopar's
  // syntax (none if it has none), and the names of all its clauses.
  Annotation Data;
  std::vector<ClauseToken> LoopClauses; // private, firstprivate, reduction: for each loop that uses the variable
  std::string Problem;   // why it cannot be translated (one of its clauses); empty if it can
  std::vector<ClauseToken> Toks;        // the directive, to remark on its ignored clauses once translated
  size_t ClausePos = 0;
};

// How often a region directive ("target teams") runs its code outside loop
// directives; none if `Words` is not a region gpu-autopar translates.
std::optional<ForeignRegion::Runs> regionRuns(AnnotationDialect D, llvm::StringRef Words);
// Whether a loop directive ("distribute parallel for") inside a region that
// runs its other code `R` times shares its iterations out, each run once.
bool loopFitsRegion(AnnotationDialect D, ForeignRegion::Runs R, llvm::StringRef LoopWords);
// The region's private, firstprivate and reduction clauses as a loop inside
// it takes them: for the variables the loop uses (`Uses`) that the loop's own
// clauses (`Loop`) do not name.
std::vector<ClauseToken> regionClausesFor(const ForeignRegion &R, const std::vector<ClauseToken> &Loop,
                                          const std::function<bool(llvm::StringRef)> &Uses);
// Remarks at the clauses a translated region ignores (num_teams, ...).
void remarkRegionClauses(const ForeignRegion &R, clang::DiagnosticsEngine &Diags);

// A directive gpu-autopar does not translate (a task, a parallel region that
// is not a single loop, `critical`, `acc host_data`, ...): it stays in the
// output exactly as written, so the file still builds, with or without
// OpenMP/OpenACC, as the user's own build of it does.
struct LeftDirective {
  clang::SourceLocation HashLoc, EndLoc; // the '#' (or _Pragma) and the directive's last token
  std::string Directive;                 // "omp task"
  std::string Why;                       // why it is not translated
  bool CoversStatement = false;          // a construct over the statement after it (not standalone)
  // A region that may be translated loop by loop; once it is, `Translated`
  // and `Why` says how.
  std::shared_ptr<const ForeignRegion> Region;
  bool Translated = false;
};

class ForeignPragmaHandler : public clang::PragmaHandler {
public:
  // Dialect OpenMP handles `#pragma omp`, OpenACC `#pragma acc`.
  // `Scope`: where the names of each directive's clauses are looked up (may be null).
  explicit ForeignPragmaHandler(AnnotationDialect Dialect, DirectiveScope *Scope = nullptr);

  void HandlePragma(clang::Preprocessor &PP, clang::PragmaIntroducer Introducer,
                    clang::Token &FirstToken) override;

  const std::vector<Annotation> &annotations() const { return Found; }
  const std::vector<LeftDirective> &leftAsWritten() const { return Left; }
  unsigned errorsReported() const { return Errors; }

  // Takes over the namespace from the handler the parser installed (clang's
  // OpenMP/OpenACC parser, or the one that ignores the pragmas without
  // -fopenmp/-fopenacc). Call once the parser exists and before it reads the
  // file: from SemaConsumer::InitializeSema. The parser gives the namespace
  // back (by name) when it is destroyed; this handler stays owned by the caller.
  void install(clang::Preprocessor &PP);

private:
  AnnotationDialect Dialect;
  DirectiveScope *Scope;
  std::vector<Annotation> Found;
  std::vector<LeftDirective> Left;
  unsigned Errors = 0;
};

// Why `omp simd` inside a translated loop stays as written (as the
// compiler's vectorisation hint); on an outer loop it is a loop annotation.
const char *innerSimdReason();

// `#pragma gpu_autopar for <clauses>`: what --convert writes in place of an
// accepted directive; `LoopVariable` (the loop's own, which OpenMP allows in
// `private`) is left out of its private clauses.
std::string convertedPragma(const Annotation &A, llvm::StringRef LoopVariable = "");

} // namespace gpuautopar
