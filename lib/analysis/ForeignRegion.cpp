// Regions that only wrap loops (ForeignRegion, ForeignPragmas.h): which
// directives are such regions, which loop directives inside them share the
// iterations out (each run once), and a region's clauses split into its maps
// (a data region around its loops) and the clauses each of its loops takes.
#include "ForeignDirectives.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"

namespace gpuautopar {

using namespace foreign;

std::optional<ForeignRegion::Runs> regionRuns(AnnotationDialect D, llvm::StringRef Words) {
  using Runs = ForeignRegion::Runs;
  if (D == AnnotationDialect::OpenACC) {
    if (Words == "parallel")
      return Runs::PerGang;
    if (Words == "kernels")
      return Runs::Once;
    return std::nullopt;
  }
  llvm::SmallVector<llvm::StringRef, 4> W;
  Words.split(W, ' ');
  unsigned Target = 0, Teams = 0, Parallel = 0;
  for (llvm::StringRef X : W) {
    unsigned *Count = X == "target" ? &Target : X == "teams" ? &Teams : X == "parallel" ? &Parallel : nullptr;
    if (!Count || ++*Count > 1)
      return std::nullopt;
  }
  // Teams whose every team runs a parallel region: the loops inside would
  // be shared out among each team's threads, and run once per team.
  if (Teams && Parallel)
    return std::nullopt;
  return Parallel ? Runs::PerThread : Teams ? Runs::PerTeam : Runs::Once;
}

bool loopFitsRegion(AnnotationDialect D, ForeignRegion::Runs R, llvm::StringRef LoopWords) {
  using Runs = ForeignRegion::Runs;
  if (D == AnnotationDialect::OpenACC)
    return LoopWords == "loop";
  switch (R) {
  case Runs::Once: return true; // the region's single thread meets the loop once
  case Runs::PerThread: return LoopWords == "for" || LoopWords == "for simd" || LoopWords == "loop";
  case Runs::PerTeam: return LoopWords.starts_with("distribute") || LoopWords == "loop";
  case Runs::PerGang: break;
  }
  return false;
}

namespace {

// The clauses a region may have for its loops to be translated one by one:
// data, data-sharing and reductions, and what only says where or how wide.
bool regionClause(AnnotationDialect D, llvm::StringRef N) {
  if (D == AnnotationDialect::OpenMP)
    return llvm::StringSwitch<bool>(N)
        .Cases({"map", "private", "firstprivate", "reduction", "shared", "default", "num_threads", "num_teams",
                "thread_limit", "device", "nowait", "depend", "proc_bind", "allocate"},
               true)
        .Default(false);
  return llvm::StringSwitch<bool>(N)
      .Cases({"copy", "copyin", "copyout", "create", "pcopy", "pcopyin", "pcopyout", "pcreate", "present_or_copy",
              "present_or_copyin", "present_or_copyout", "present_or_create"},
             true)
      .Cases({"private", "firstprivate", "reduction", "default", "num_gangs", "num_workers", "vector_length",
              "async", "wait", "present"},
             true)
      .Default(false);
}

// `Toks` cut into clauses: a name and what its parentheses hold.
std::vector<Tokens> clauseGroups(const Tokens &Toks) {
  std::vector<Tokens> Groups;
  int Depth = 0;
  for (const ClauseToken &T : Toks) {
    if (Depth == 0 && T.Spelling != "(")
      Groups.emplace_back();
    if (Groups.empty())
      Groups.emplace_back();
    Groups.back().push_back(T);
    if (T.Spelling == "(")
      ++Depth;
    else if (T.Spelling == ")")
      --Depth;
  }
  return Groups;
}

} // namespace

std::shared_ptr<ForeignRegion> foreign::regionFrom(AnnotationDialect D, ForeignRegion::Runs Runs,
                                                   llvm::StringRef Words, const std::string &Directive,
                                                   const Tokens &Toks, size_t Pos, clang::SourceLocation HashLoc,
                                                   clang::DiagnosticsEngine &Diags, DirectiveScope *Scope) {
  auto R = std::make_shared<ForeignRegion>();
  R->HostCode = Runs;
  R->Kernels = D == AnnotationDialect::OpenACC && Words == "kernels";
  R->Words = Words.str();
  R->Toks = Toks;
  R->ClausePos = Pos;
  Annotation &A = R->Data;
  A.Kind = DirectiveKind::Data;
  A.HashLoc = HashLoc;
  A.DirectiveLoc = Toks.front().Loc;
  A.EndLoc = Toks.back().Loc;
  A.Dialect = D;
  A.Directive = Directive;
  const std::vector<ForeignClause> Clauses = clausesFrom(R->Toks, Pos);
  for (const ForeignClause &C : Clauses)
    if (!regionClause(D, C.Name)) {
      R->Problem = "its '" + C.Name.str() + "' clause has no gpu_autopar equivalent on a region";
      return R;
    }
  const bool Suppressed = Diags.getSuppressAllDiagnostics();
  Diags.setSuppressAllDiagnostics(true);
  TranslatedClauses T = translateClauses(D, DirectiveKind::For, Directive, Clauses, Diags);
  Diags.setSuppressAllDiagnostics(Suppressed);
  if (!T.Ok) {
    R->Problem = "its clause " + T.Unsupported;
    return R;
  }
  A.Translated = T.Out;
  if (Scope)
    Scope->lookUpLater(A); // the names of every clause, where the region stands
  A.Translated.clear();
  for (const Tokens &G : clauseGroups(T.Out)) {
    Tokens &To = G.front().Spelling == "map" ? A.Translated : R->LoopClauses;
    To.insert(To.end(), G.begin(), G.end());
  }
  return R;
}

std::vector<ClauseToken> regionClausesFor(const ForeignRegion &R, const Tokens &Loop,
                                          const std::function<bool(llvm::StringRef)> &Uses) {
  auto namedByLoop = [&](llvm::StringRef Var) {
    return llvm::any_of(Loop, [&](const ClauseToken &T) { return T.Spelling == Var; });
  };
  Tokens Out;
  for (const Tokens &G : clauseGroups(R.LoopClauses)) {
    // name ( [op :] item, item ... ): the items are single names.
    size_t ListStart = 2;
    for (size_t I = 2; I < G.size(); ++I)
      if (G[I].Spelling == ":")
        ListStart = I + 1;
    Tokens Kept;
    for (size_t I = ListStart; I + 1 < G.size(); ++I) {
      const ClauseToken &T = G[I];
      if (T.Spelling == "," || !Uses(T.Spelling) || namedByLoop(T.Spelling))
        continue;
      if (!Kept.empty())
        Kept.push_back({",", T.Loc, false, false});
      Kept.push_back(T);
      Kept.back().LeadingSpace = Kept.size() > 1 || ListStart > 2;
    }
    if (Kept.empty())
      continue;
    const size_t Start = Out.size();
    Out.insert(Out.end(), G.begin(), G.begin() + ListStart);
    Out[Start].LeadingSpace = true;
    Out.insert(Out.end(), Kept.begin(), Kept.end());
    Out.push_back(G.back());
  }
  return Out;
}

void remarkRegionClauses(const ForeignRegion &R, clang::DiagnosticsEngine &Diags) {
  translateClauses(R.Data.Dialect, DirectiveKind::For, R.Data.Directive, clausesFrom(R.Toks, R.ClausePos), Diags);
}

} // namespace gpuautopar
