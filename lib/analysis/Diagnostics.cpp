#include "gpuautopar/Diagnostics.h"

namespace gpuautopar {
namespace {

struct Entry {
  clang::DiagnosticsEngine::Level Level;
  const char *Format; // null: the diagnostic belongs to another group
};

// The directives and their clauses.
Entry pragmaEntry(Diag D) {
  using L = clang::DiagnosticsEngine::Level;
  switch (D) {
  case Diag::ExpectedFor: return {L::Error, "expected 'for', 'data', 'update', 'enter data' or 'exit data' after '#pragma gpu_autopar'"};
  case Diag::DataNotFollowedByBlock:
    return {L::Error, "'#pragma %0' must be followed by a compound statement ('{ ... }')"};
  case Diag::ClauseNotAllowedOn: return {L::Error, "'%0' clause is not allowed on '#pragma gpu_autopar %1'; %2"};
  case Diag::DirectiveNeedsClause: return {L::Error, "'#pragma %0' needs at least one %1 clause"};
  case Diag::MapKindNotAllowedOn:
    return {L::Error, "'%0' map of '%1' on '#pragma %2': data enters as 'to' or 'alloc', and leaves as 'from', "
                      "'release' or 'delete'"};
  case Diag::RegionSectionNeeded:
    return {L::Error, "'%0' is a pointer: the data region cannot tell how many elements to map; write '%0[lo:len]'"};
  case Diag::DirectiveOutsideFunction: return {L::Error, "'#pragma %0' must be inside a function body"};
  case Diag::DirectiveInMacro: return {L::Error, "'#pragma %0' inside a macro cannot be rewritten; write it "
                                                 "as a '#pragma' line"};
  case Diag::HostReadInRegion:
    return {L::Warning, "'%0' is read on the host inside a data region after a device loop may have changed it; add "
                        "'#pragma gpu_autopar update host(%0%1)' before this read"};
  case Diag::HostWriteInRegion:
    return {L::Warning, "'%0' is written on the host inside a data region whose devices may hold copies of it; add "
                        "'#pragma gpu_autopar update device(%0%1)' after this write"};
  case Diag::NoteDataRegion: return {L::Note, "data region mapping '%0' is here"};
  case Diag::NotFollowedByFor: return {L::Error, "statement after '#pragma %0' must be a for loop"};
  case Diag::NoteAnnotationHere: return {L::Note, "annotation is here"};
  case Diag::UnknownClause: return {L::Error, "unknown clause '%0' in '#pragma gpu_autopar for'"};
  case Diag::ExpectedInClause: return {L::Error, "expected %0"};
  case Diag::InvalidClauseArgument: return {L::Error, "invalid argument '%0' to '%1'; expected %2"};
  case Diag::NonPositiveClauseArgument: return {L::Error, "argument of '%0' must be positive"};
  case Diag::DuplicateClause: return {L::Error, "'%0' clause appears more than once"};
  case Diag::NotePreviousClause: return {L::Note, "previous '%0' is here"};
  case Diag::VariableInTwoClauses: return {L::Error, "'%0' appears in both '%1' and '%2'"};
  case Diag::VariableTwiceInClause:
    return {L::Error, "'%0' appears more than once in '%1'; name each variable once"};
  case Diag::ConflictingClauses: return {L::Error, "'%0' conflicts with '%1': %2"};
  case Diag::UndeclaredClauseVariable: return {L::Error, "use of undeclared variable '%0' in '%1' clause"};
  case Diag::ClauseNameNotVariable: return {L::Error, "'%0' in '%1' clause names %2, not a variable"};
  case Diag::InductionInClause: return {L::Error, "the induction variable '%0' cannot appear in a '%1' clause"};
  case Diag::ReductionNotArithmetic: return {L::Error, "reduction variable '%0' must have an arithmetic type"};
  default: return {L::Error, nullptr}; // another group's
  }
}

// The loop: collapse, canonical form, legality.
Entry loopEntry(Diag D, bool Strict) {
  using L = clang::DiagnosticsEngine::Level;
  // Warnings that --strict turns into errors: the annotation is trusted only
  // when the user did not ask for proof.
  const L Unproven = Strict ? L::Error : L::Warning;
  switch (D) {
  case Diag::CollapseNotPerfect:
    return {L::Error, "'collapse(%0)' needs perfectly nested loops: nothing but the next loop of the nest may "
                      "stand here"};
  case Diag::CollapseTooDeep:
    return {L::Error, "'collapse(%0)' needs %0 nested loops, but the nest has %1"};
  case Diag::CollapseNonRectangular:
    return {L::Error, "the %0 of a collapsed loop depends on '%1', the induction variable of an enclosing "
                      "collapsed loop; collapse needs rectangular nests (collapse fewer loops)"};
  case Diag::CollapseRangeFor: return {L::Error, "a range-based for loop cannot be collapsed; use an index loop"};
  case Diag::CollapseLastPrivate:
    return {L::Error, "'collapse(%0)' cannot be combined with 'lastprivate(%1)' yet: the last iteration of a collapsed "
                      "nest is not tracked; collapse fewer loops or assign '%1' after the loop"};
  case Diag::NoteCollapseClause: return {L::Note, "collapse clause is here"};
  case Diag::NoteCollapsedLoop: return {L::Note, "loop %0 of the collapsed nest is here"};
  case Diag::NonCanonical: return {L::Error, "annotated loop is not in canonical form: %0"};
  case Diag::NoteNonCanonicalPart: return {L::Note, "%0"};
  case Diag::WriteToInduction: return {L::Error, "the loop body writes the induction variable '%0'"};
  case Diag::JumpOutOfLoop:
    return {L::Error, "'%0' leaves the annotated loop; the iterations of a parallel loop cannot end it early"};
  case Diag::SharedScalarWrite:
    return {L::Error, "'%0' is declared outside the loop and written in it; %1"};
  case Diag::PrivateReadBeforeWrite: return {L::Error, "'%0' is read before the iteration writes it; %1"};
  case Diag::NoteDataSharingClause: return {L::Note, "'%0' clause is here"};
  case Diag::SharedMemberWrite:
    return {L::Error, "member '%0' is shared by all iterations and written in the loop; update a local variable "
                      "in a reduction(...) clause and assign it after the loop"};
  case Diag::NoteDeclaredHere: return {L::Note, "'%0' is declared here"};
  case Diag::ReductionOpMismatch: return {L::Error, "reduction(%0: %1) but '%1' is updated with '%2'"};
  case Diag::ReductionVarMisuse:
    return {L::Error, "reduction variable '%0' is used outside its reduction update; iterations would see "
                      "partial values"};
  case Diag::NoteReductionClause: return {L::Note, "reduction clause is here"};
  case Diag::LoopCarriedDependence: return {L::Error, "loop-carried dependence on '%0': %1"};
  case Diag::NoteAccess: return {L::Note, "%0 of '%1' here"};
  case Diag::UnknownDependence: return {Unproven, "cannot prove that iterations access distinct elements of '%0': %1"};
  case Diag::MayAlias: return {Unproven, "'%0' and '%1' may alias; %2"};
  case Diag::AliasCheckedAtRunTime:
    return {L::Remark, "'%0' and '%1' may overlap; the rewritten loop compares their addresses first and runs "
                       "serially if they do"};
  case Diag::BoundsCheckedAtRunTime:
    return {L::Remark, "iterations touch distinct elements of '%0' only while its subscripts stay inside its "
                       "dimensions (%1); the rewritten loop checks this first and runs serially if not"};
  case Diag::SectionBoundsCheckedAtRunTime:
    return {L::Remark, "the elements of '%0' the loop touches are told by its first subscript only while the others "
                       "stay inside its dimensions (%1); the rewritten loop checks this first and runs serially if "
                       "not"};
  case Diag::UnknownCall:
    return {Unproven, "call to '%0' %1; it must not touch data that other iterations use"};
  case Diag::MayThrow:
    return {Unproven, "%0 may throw an exception: the loop rethrows the first one once its running iterations stop, "
                      "and iterations after it in serial order may have run"};
  case Diag::NoteWitness: return {L::Note, "for example, %0"};
  case Diag::CalleeWritesGlobal:
    return {Unproven, "call to '%0' writes '%1', which is shared by all iterations"};
  case Diag::PackedBitsWrite:
    return {Unproven, "'%0' is a std::vector<bool>: its elements share machine words, so iterations that write "
                      "neighbouring elements race; use std::vector<char>"};
  case Diag::InputOutput:
    return {Unproven, "'%0' does input or output; iterations running in parallel interleave it in any order"};
  case Diag::OrderedInputOutput:
    return {L::Error, "'%0' does input or output, which the loop does in the order of its iterations; iterations "
                      "running in parallel would interleave it in any order: do it before or after the loop"};
  default: return {L::Error, nullptr}; // another group's
  }
}

// Where the loop runs and what it moves; the file as a whole; OpenMP and OpenACC.
Entry placementEntry(Diag D) {
  using L = clang::DiagnosticsEngine::Level;
  switch (D) {
  case Diag::HostOnlyRemark: return {L::Remark, "loop runs on CPU threads only: %0"};
  case Diag::KernelNotOffloadable: return {L::Error, "mode(kernel) needs a body that can run on a GPU, but it %0"};
  case Diag::NoteModeClause: return {L::Note, "mode clause is here"};
  case Diag::VariableLengthArray:
    return {L::Error, "'%0' is a variable-length array, which a kernel's data maps cannot describe; run the loop "
                      "on CPU threads (no mode clause), or allocate it with std::vector or give it a constant size"};
  case Diag::VariableLengthRowsSize:
    return {L::Error, "the body takes the size of '%0', an array of variable-length rows, which it can only reach "
                      "through a description of its rows: take the size before the loop"};
  case Diag::MapNeedsLength:
    return {L::Error, "cannot tell how many elements of '%0' the loop uses; add 'map(%1: %0[0:n])' with its length"};
  case Diag::NeedsCxx17:
    return {L::Error, "the rewritten loops need C++17 or later, but the file is parsed as %0; add -std=c++17 "
                      "(or later) to the compiler arguments"};
  case Diag::AnnotationInHeader:
    return {L::Warning, "annotated loop in a header is not rewritten: gpu-autopar rewrites only the source it is "
                        "run on; move the loop into a source file, or run gpu-autopar on this header"};
  case Diag::NearMissPragma: return {L::Warning, "unknown pragma '%0' ignored; did you mean 'gpu_autopar'?"};
  case Diag::LoopInsideMacro:
    return {L::Error, "the loop annotated by the '_Pragma' in macro '%0' is itself part of the macro; gpu-autopar "
                      "cannot rewrite code inside a macro: write the loop after the macro, or use "
                      "'#pragma gpu_autopar for' before it"};
  case Diag::NestedAnnotation:
    return {L::Warning, "'#pragma %1' inside the annotated loop at line %0 is ignored: that loop's "
                        "iterations already run in parallel, and this loop runs serially within each of them"};
  case Diag::NoteOuterLoop: return {L::Note, "enclosing annotated loop is here"};
  case Diag::ForeignClauseIgnored: return {L::Remark, "'%0' ignored: %1"};
  case Diag::ForeignClauseUnsupported: return {L::Error, "'%0' clause of '#pragma %1' is not supported: %2"};
  case Diag::ForeignDirectiveLeft: return {L::Remark, "'#pragma %0' left as written: %1"};
  case Diag::ForeignInsideLeft:
    return {L::Remark, "'#pragma %0' left as written: it is inside '#pragma %1' (line %2), which is left as "
                       "written, and translating it alone would change what that construct runs"};
  case Diag::ForeignRegionTranslated: return {L::Remark, "'#pragma %0' translated loop by loop: %1"};
  case Diag::ForeignFromMacro:
    return {L::Error, "--convert cannot rewrite '#pragma %0' here: it comes from a macro or _Pragma"};
  case Diag::NoteIndependentClause:
    return {L::Note, "'#pragma %0 independent' would promise that the iterations are independent and run the loop "
                     "in parallel"};
  case Diag::NoteCalleeCause: return {L::Note, "'%0' %1"};
  case Diag::MapMemberUnknown: return {L::Error, "'%0' in 'map' clause: %1 has no data member '%2'"};
  case Diag::MapMemberNotHere: return {L::Error, "'%0' in '%1' clause names a member, which %2"};
  case Diag::InstantiationRejected: return {L::Error, "this template loop is rejected in %0%1"};
  case Diag::InstantiationMapsDiffer:
    return {L::Error, "the data maps of this template loop do not serve '%0': %1; one rewritten loop serves every "
                      "instantiation"};
  case Diag::NoteInInstantiation: return {L::Note, "in '%0': %1"};
  case Diag::NoteInstantiatedHere: return {L::Note, "'%0' is instantiated here"};
  case Diag::WarningInInstantiation: return {L::Warning, "%0 (in '%1')"};
  case Diag::RemarkInInstantiation: return {L::Remark, "%0 (in '%1')"};
  default: return {L::Error, nullptr}; // another group's
  }
}

Entry entryFor(Diag D, bool Strict) {
  for (Entry E : {pragmaEntry(D), loopEntry(D, Strict), placementEntry(D)})
    if (E.Format)
      return E;
  return {clang::DiagnosticsEngine::Error, "internal error: unknown diagnostic"};
}

// A proven race in a loop OpenMP or OpenACC declared parallel: the original
// program has it too.
bool isProvenRace(Diag D) {
  return D == Diag::LoopCarriedDependence || D == Diag::SharedScalarWrite || D == Diag::SharedMemberWrite;
}

} // namespace

bool isUnproven(Diag D) {
  return entryFor(D, /*Strict=*/false).Level == clang::DiagnosticsEngine::Warning &&
         entryFor(D, /*Strict=*/true).Level == clang::DiagnosticsEngine::Error;
}

clang::DiagnosticBuilder report(clang::DiagnosticsEngine &E, Diag D, clang::SourceLocation Loc, bool Strict,
                                const char *AssertedBy) {
  Entry En = entryFor(D, Strict);
  std::string Format = En.Format;
  if (AssertedBy && isProvenRace(D))
    Format = std::string(AssertedBy) + "'s annotation says the loop is parallel, but " +
             (D == Diag::LoopCarriedDependence ? "it has a " : "") + Format;
  // The engine keeps one ID per distinct (level, text), so asking again is cheap.
  unsigned ID = E.getDiagnosticIDs()->getCustomDiagID(static_cast<clang::DiagnosticIDs::Level>(En.Level),
                                                      llvm::StringRef(Format));
  return E.Report(Loc, ID);
}

clang::DiagnosticBuilder reportSequential(clang::DiagnosticsEngine &E, Diag D, clang::SourceLocation Loc,
                                          llvm::StringRef Construct) {
  const std::string Format = "loop runs sequentially (OpenACC's '" + Construct.str() +
                             "' is parallel only when its iterations are proven independent): " +
                             entryFor(D, /*Strict=*/false).Format;
  unsigned ID = E.getDiagnosticIDs()->getCustomDiagID(clang::DiagnosticIDs::Remark, llvm::StringRef(Format));
  return E.Report(Loc, ID);
}

} // namespace gpuautopar
