// Every diagnostic the tool emits, in one table, so that wording stays
// consistent and each one is easy to find from its test.
#pragma once

#include "clang/Basic/Diagnostic.h"

namespace gpuautopar {

enum class Diag {
  // Pragma syntax.
  ExpectedFor,          // '#pragma gpu_autopar' not followed by 'for'
  NotFollowedByFor,     // statement after '#pragma %0' must be a for loop
  NoteAnnotationHere,   // note: annotation is here
  // Data regions and updates (lib/analysis/DataRegion.cpp).
  DataNotFollowedByBlock,   // '#pragma gpu_autopar data' must be followed by a compound statement
  ClauseNotAllowedOn,       // '%0' clause is not allowed on '#pragma gpu_autopar %1'; %2
  DirectiveNeedsClause,     // '#pragma gpu_autopar %0' needs at least one %1 clause
  RegionSectionNeeded,      // '%0' is a pointer: write '%0[lo:len]'
  MapKindNotAllowedOn,      // '%0' map of '%1' on '#pragma %2': enters as to/alloc, ...
  DirectiveOutsideFunction, // '#pragma gpu_autopar %0' must be inside a function body
  DirectiveInMacro,         // '#pragma gpu_autopar %0' inside a macro cannot be rewritten
  HostReadInRegion,         // warning: '%0' is read on the host inside a data region ...
  HostWriteInRegion,        // warning: '%0' is written on the host inside a data region ...
  NoteDataRegion,           // note: data region mapping '%0' is here
  // Clauses.
  UnknownClause,             // unknown clause '%0'
  ExpectedInClause,          // expected %0
  InvalidClauseArgument,     // invalid argument '%0' to '%1'; expected %2
  NonPositiveClauseArgument, // argument of '%0' must be positive
  DuplicateClause,           // '%0' clause appears more than once
  NotePreviousClause,        // note: previous '%0' is here
  VariableInTwoClauses,      // '%0' appears in both '%1' and '%2'
  VariableTwiceInClause,     // '%0' appears more than once in '%1'
  ConflictingClauses,        // '%0' conflicts with '%1': %2
  UndeclaredClauseVariable,  // use of undeclared variable '%0' in '%1'
  ClauseNameNotVariable,     // '%0' in '%1' clause names %2, not a variable
  InductionInClause,         // the induction variable '%0' cannot appear in '%1'
  ReductionNotArithmetic,    // reduction variable '%0' must have an arithmetic type
  // collapse(n) (lib/analysis/Collapse.cpp).
  CollapseNotPerfect,      // collapse(%0): only the next loop of the nest may stand here
  CollapseTooDeep,         // collapse(%0) but the nest has %1 loops
  CollapseNonRectangular,  // collapse: the %0 of a collapsed inner loop depends on '%1'
  CollapseRangeFor,        // collapse: a range-based for loop cannot be collapsed
  CollapseLastPrivate,     // collapse(%0) with lastprivate('%1')
  NoteCollapseClause,      // note: collapse clause is here
  NoteCollapsedLoop,       // note: loop %0 of the collapsed nest is here
  // Canonical loop form.
  NonCanonical,         // loop header not in canonical form: %0
  NoteNonCanonicalPart, // note: %0
  // Legality.
  WriteToInduction,       // the loop body writes the induction variable '%0'
  JumpOutOfLoop,          // '%0' leaves the annotated loop
  SharedScalarWrite,      // '%0' is declared outside the loop and written in it; %1 (what to do)
  SharedMemberWrite,      // member '%0' of the enclosing object is written in the loop
  PrivateReadBeforeWrite, // '%0' is read before the iteration writes it; %1 (why a private copy cannot hold it)
  NoteDataSharingClause,  // note: '%0' clause is here
  NoteDeclaredHere,       // note: '%0' is declared here
  ReductionOpMismatch,    // reduction(%0: %1) but '%1' is updated with '%2'
  ReductionVarMisuse,     // reduction variable '%0' is used outside its update
  NoteReductionClause,    // note: reduction clause is here
  LoopCarriedDependence,  // loop-carried dependence on '%0': %1
  NoteAccess,             // note: %0 of '%1' here
  NoteWitness,            // note: for example, %0 (two iterations that conflict)
  CalleeWritesGlobal,     // warning (error with --strict): call to '%0' writes '%1', shared by all iterations
  InputOutput,            // warning (error with --strict): '%0' does input or output (an OpenMP/OpenACC loop)
  OrderedInputOutput,     // error: '%0' does input or output, which the serial loop does in order
  UnknownDependence,      // warning (error with --strict): cannot prove distinct elements
  MayAlias,               // warning (error with --strict): '%0' and '%1' may alias; %2 (what to do)
  PackedBitsWrite,        // warning (error with --strict): '%0' is a std::vector<bool>: ... neighbouring elements race
  AliasCheckedAtRunTime,  // remark: '%0' and '%1' may overlap; compared before the loop runs
  BoundsCheckedAtRunTime, // remark: the subscripts of '%0' stay inside its dimensions only if %1; checked first
  SectionBoundsCheckedAtRunTime, // remark: the section of '%0' holds only if its subscripts stay inside (%1)
  UnknownCall,            // warning (error with --strict): call to '%0' %1 (unseen effects)
  MayThrow,               // warning (error with --strict): %0 may throw; iterations after it may have run
  // Classification.
  HostOnlyRemark,          // remark: loop runs on CPU threads only: %0
  KernelNotOffloadable,    // mode(kernel) but the body %0
  NoteModeClause,          // note: mode clause is here
  VariableLengthArray,     // error: '%0' is a variable-length array, which a kernel's data maps cannot describe
  VariableLengthRowsSize,  // error: the size of '%0', an array of variable-length rows, in the body
  // Data maps (lib/analysis/DataMap.cpp).
  MapNeedsLength,          // cannot tell how many elements of '%0' the loop uses; add 'map(%1: %0[0:n])'
  // The file as a whole (lib/driver).
  NeedsCxx17,              // the rewritten loops need C++17 or later, but the file is parsed as %0
  AnnotationInHeader,      // warning: annotated loop in a header is not rewritten
  NearMissPragma,          // warning: unknown pragma '%0' ignored; did you mean 'gpu_autopar'?
  LoopInsideMacro,         // error: the loop comes from the same macro as the pragma
  NestedAnnotation,        // warning: annotation inside the annotated loop at line %0 is ignored
  NoteOuterLoop,           // note: the enclosing annotated loop is here
  // OpenMP and OpenACC directives under --accept (lib/analysis/ForeignPragmas.cpp).
  ForeignClauseIgnored,      // remark: '%0' ignored: %1
  ForeignClauseUnsupported,  // '%0' clause of '#pragma %1' is not supported: %2
  ForeignDirectiveLeft,      // remark: '#pragma %0' left as written: %1
  ForeignInsideLeft,         // remark: '#pragma %0' left as written: it is inside '#pragma %1' (line %2), ...
  ForeignFromMacro,          // --convert cannot rewrite '#pragma %0' that comes from a macro or _Pragma
  ForeignRegionTranslated,   // remark: '#pragma %0' translated loop by loop: %1
  NoteIndependentClause,     // note: '#pragma %0 independent' would promise ...
  // Callees a kernel-mode body reaches (lib/analysis/decide/DeviceReach.cpp).
  NoteCalleeCause,           // note: '%0' %1 (what in a callee keeps the loop off the GPU)
  // Map clauses naming members (`map(to: s.p[0:n])`, lib/analysis/ClauseResolver.cpp).
  MapMemberUnknown,          // '%0' in 'map' clause: %1 has no data member '%2'
  MapMemberNotHere,          // '%0' in '%1' names a member, which %2
  // Loops in templates, as each instantiation has them (lib/analysis/decide/Instantiations.cpp).
  InstantiationRejected,     // error: this template loop is rejected in %0%1
  InstantiationMapsDiffer,   // error: the data maps of this template loop do not serve '%0': %1
  NoteInInstantiation,       // note: in '%0': %1 (an instantiation's own diagnostic)
  NoteInstantiatedHere,      // note: '%0' is instantiated here
  WarningInInstantiation,    // warning: %0 (in '%1')
  RemarkInInstantiation,     // remark: %0 (in '%1')
};

// Emits diagnostic `D` at `Loc` through the compiler's engine, so that it is
// printed in clang's format and counted as an error where it is one.
// `Strict` (--strict) makes the warnings about what the analysis cannot rule
// out (UnknownDependence, MayAlias, UnknownCall, CalleeWritesGlobal,
// InputOutput) errors. `AssertedBy` ("OpenMP", "OpenACC") names whose
// annotation a proven race contradicts ("OpenMP's annotation says the loop is
// parallel, but ...").
clang::DiagnosticBuilder report(clang::DiagnosticsEngine &Engine, Diag D, clang::SourceLocation Loc,
                                bool Strict = false, const char *AssertedBy = nullptr);

// An unproven reason `D` (isUnproven) of a loop whose language runs it
// sequentially when the compiler cannot prove its iterations independent
// (OpenACC's `kernels loop` and `auto`, named by `Construct`): a remark that
// the loop runs sequentially, followed by the reason's own text.
clang::DiagnosticBuilder reportSequential(clang::DiagnosticsEngine &Engine, Diag D, clang::SourceLocation Loc,
                                          llvm::StringRef Construct);

// Whether `D` reports something the analysis could not rule out (a warning,
// an error under --strict) rather than something proven.
bool isUnproven(Diag D);

} // namespace gpuautopar
