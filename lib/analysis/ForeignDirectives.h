// What the files of --accept=omp,acc share (lib/analysis/Foreign*.cpp): the
// words that name OpenMP and OpenACC directives, and one directive's clauses
// translated into gpu_autopar's. ForeignPragmas.cpp reads a directive,
// ForeignDirectiveWords.cpp says what its words are, ForeignClauses.cpp
// translates its clauses (the table of docs/migration.md).
#pragma once

#include "gpuautopar/Annotation.h"
#include "gpuautopar/ClauseParser.h"
#include "gpuautopar/ForeignPragmas.h"

#include "clang/Basic/Diagnostic.h"
#include "llvm/ADT/StringRef.h"

#include <memory>
#include <string>
#include <vector>

namespace gpuautopar::foreign {

using Tokens = std::vector<ClauseToken>;

// "omp" or "acc".
const char *prefix(AnnotationDialect D);
// Words that name directives (as opposed to clauses) in each dialect.
bool isDirectiveWord(AnnotationDialect D, llvm::StringRef W);
// Directives that annotate the loop after them.
bool isLoopDirective(AnnotationDialect D, llvm::StringRef Words);
bool isDataDirective(AnnotationDialect D, llvm::StringRef Words);
// The data directives that become gpu_autopar's own (a region before a
// block, an update, enter and exit data), as a DirectiveKind; For for the
// others (host_data, declare), which are refused.
DirectiveKind translatedDataDirective(llvm::StringRef Words);
// Directives that cover no statement: declarations and executable
// directives that stand alone (everything else is a construct over the
// statement after it).
bool isStandaloneDirective(AnnotationDialect D, llvm::StringRef Words);
// Why a directive that is neither a loop nor a data directive is left as written.
const char *refusalReason(AnnotationDialect D, llvm::StringRef Words);

// One clause as written: its name and the tokens between its parentheses.
struct ForeignClause {
  llvm::StringRef Name;
  clang::SourceLocation Loc;
  Tokens Args; // between the parentheses
  bool HasArgs = false;
};

// The clauses after a directive's words (from `Pos`), each with what its
// parentheses hold.
std::vector<ForeignClause> clausesFrom(const Tokens &Toks, size_t Pos);

// A region directive's clauses (ForeignRegion), translated without a word
// to `Diags`: the driver says what happened once it has decided whether the
// region is translated. The names of all its clauses are looked up at the
// region (`Scope`, may be null).
std::shared_ptr<ForeignRegion> regionFrom(AnnotationDialect D, ForeignRegion::Runs Runs, llvm::StringRef Words,
                                          const std::string &Directive, const Tokens &Toks, size_t Pos,
                                          clang::SourceLocation HashLoc, clang::DiagnosticsEngine &Diags,
                                          DirectiveScope *Scope);

// Splits `Toks` at the top-level occurrences of `Sep`.
std::vector<Tokens> splitTopLevel(const Tokens &Toks, llvm::StringRef Sep);

// A directive's clauses as gpu_autopar's clause tokens; an error (or a
// remark) at each clause whose meaning does not (or need not) carry over.
struct TranslatedClauses {
  Tokens Out;
  bool Ok = true;
  std::string LoopIndependence; // OpenACC: "independent", "auto" or empty, as the loop's clauses say
  std::string Unsupported;      // the first clause that does not carry over, and why ("'if': ...")
};
TranslatedClauses translateClauses(AnnotationDialect D, DirectiveKind Kind, const std::string &Directive,
                                   const std::vector<ForeignClause> &Clauses, clang::DiagnosticsEngine &Diags);

} // namespace gpuautopar::foreign
