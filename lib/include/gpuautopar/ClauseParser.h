// Parsing of the clauses of `#pragma gpu_autopar for` (docs/analysis.md, clause reference)
// into their syntactic form. Variable names are resolved later, against the
// loop they annotate (ClauseResolver.h), because when the pragma is read the
// loop and its scope do not exist yet.
#pragma once

#include "gpuautopar/ClauseToken.h"
#include "gpuautopar/LoopAnalysis.h"

#include "clang/Basic/SourceLocation.h"
#include "clang/Lex/Token.h"
#include "llvm/ADT/ArrayRef.h"

#include <optional>
#include <string>
#include <vector>

namespace clang {
class DiagnosticsEngine;
class LangOptions;
class SourceManager;
} // namespace clang

namespace gpuautopar {

// A variable named in a clause, before it is resolved.
struct NamedVar {
  std::string Name;
  clang::SourceLocation Loc;
};

struct ParsedReduction {
  ReductionOp Op;
  NamedVar Var;
};

struct ParsedMap {
  MapKind Kind;
  NamedVar Var;              // a member's root: a variable, or "this"
  std::string Lower, Length; // both empty when no section was written (`p[:n]` gives Lower "0")
  // A member (`s.p`, `o.f.data`, `this->u`): the data members after the
  // root, outermost first; Written is the whole path as written.
  std::vector<std::string> Fields;
  NamedVar Written;
};

// Expression arguments are kept as source text (see LoopClauses).
struct ParsedClauses {
  std::vector<ParsedReduction> Reductions;
  std::vector<ParsedMap> Maps;
  std::vector<NamedVar> Privates, FirstPrivates, LastPrivates;
  std::optional<ScheduleKind> Schedule;
  std::string ScheduleChunk;
  std::string Devices, Slots, MinIterations;
  std::optional<FallbackKind> Fallback;
  std::optional<LoopMode> Mode;
  clang::SourceLocation ModeLoc; // the argument of mode(...)
  unsigned Collapse = 1;             // collapse(n): the loops of the nest run as one
  clang::SourceLocation CollapseLoc; // the argument of collapse(...)
};

// Converts the tokens the preprocessor handed to the pragma handler.
std::vector<ClauseToken> clauseTokens(llvm::ArrayRef<clang::Token> Tokens, const clang::SourceManager &SM,
                                      const clang::LangOptions &LangOpts);

// Parses `Tokens` (everything after `for`). Each error is reported at the
// offending token (or at `End`, the end of the directive, when a token is
// missing); returns nothing if there was any error. `ExitKinds` also
// accepts the map kinds release and delete (`exit data`).
std::optional<ParsedClauses> parseClauses(llvm::ArrayRef<ClauseToken> Tokens, clang::SourceLocation End,
                                          clang::DiagnosticsEngine &Diags, bool ExitKinds = false);

// The clause operator's spelling, as the user writes it: "+", "min", "&&".
const char *spelling(ReductionOp Op);
const char *spelling(MapKind K);
const char *spelling(ScheduleKind K);
const char *spelling(FallbackKind K);
const char *spelling(LoopMode M);

} // namespace gpuautopar
