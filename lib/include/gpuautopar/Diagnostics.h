// Every diagnostic the tool emits, in one table, so that wording stays
// consistent and each one is easy to find from its test.
#pragma once

#include "clang/Basic/Diagnostic.h"

namespace gpuautopar {

enum class Diag {
  // Pragma syntax.
  ExpectedFor,          // '#pragma gpu_autopar' not followed by 'for'
  NotFollowedByFor,     // the statement after the pragma is not a for loop
  NoteAnnotationHere,   // note: annotation is here
  ClausesUnsupported,   // clauses given but not understood yet
  // Canonical loop form.
  NonCanonical,         // loop header not in canonical form: %0
  NoteNonCanonicalPart, // note: %0
};

// Emits diagnostic `D` at `Loc` through the compiler's engine, so that it is
// printed in clang's format and counted as an error where it is one.
clang::DiagnosticBuilder report(clang::DiagnosticsEngine &Engine, Diag D,
                                clang::SourceLocation Loc);

} // namespace gpuautopar
