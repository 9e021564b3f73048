// A possible overlap of two objects becomes a run-time check once the maps
// are known, or the warning it was (settleAliasChecks, gpuautopar/Legality.h).
#include "VerdictReport.h"
#include "Containers.h"
#include "gpuautopar/Legality.h"

#include "clang/AST/Decl.h"

namespace gpuautopar {

using namespace clang;

namespace {

using SectionFinder = std::function<std::optional<AffineSection>(const VarDecl *, StringRef)>;

// One side of an overlap outside kernel mode, as a check compares it: a raw
// pointer's section over the whole loop (a variable, or a member of one the
// body leaves alone), or a whole object the loop's scope names; nothing when
// it cannot be compared.
std::optional<CheckedObject> checkedSide(const OverlapSide &S, const SectionFinder &SectionOf) {
  if (S.MemberRoot) {
    if (std::optional<AffineSection> Sec = SectionOf(S.MemberRoot, S.Name))
      return CheckedObject{S.Name, std::move(Sec)};
    return std::nullopt;
  }
  if (!S.Var)
    return std::nullopt;
  if (containerKind(S.Var->getType()) == ContainerKind::RawPointer) {
    const std::string Name = S.Var->getNameAsString();
    if (std::optional<AffineSection> Sec = SectionOf(S.Var, Name))
      return CheckedObject{Name, std::move(Sec)};
    return std::nullopt;
  }
  if (!S.Whole)
    return std::nullopt;
  return CheckedObject{S.Name, std::nullopt};
}

// The check that settles a possible overlap, if the loop can make one: both
// maps' sections (kernel mode, both mapped), else both objects' sections or
// whole objects (a raw pointer's section needed on one side at least), else
// both whole objects the loop's scope names.
std::optional<RuntimeCheck> overlapCheck(const LoopAnalysis &A, const PossibleOverlap &P,
                                         const SectionFinder &SectionOf) {
  // The map of a side: by name, which tells objects apart in one body (a
  // member's map, `g.u` or `u` in a method, has no variable of its own).
  auto IndexOf = [&](const OverlapSide &S) -> std::optional<unsigned> {
    for (unsigned I = 0; I < A.Arrays.size(); ++I) {
      const ArrayUse &U = A.Arrays[I];
      if (U.Member ? U.Member->Name == S.Name : (S.Var ? U.Var == S.Var : U.Var->getName() == S.Name))
        return I;
    }
    return std::nullopt;
  };
  const std::optional<unsigned> W = IndexOf(P.Written), O = IndexOf(P.Other);
  if (A.Mode == LoopMode::Kernel && W && O)
    return DisjointMaps{*W, *O};
  // A kernel copies the numbers it reads when it starts, so a reference to
  // a number that names an element the loop writes would not change under
  // it even run serially: no check can make that right.
  auto NumberReference = [](const OverlapSide &S) {
    return S.Var && S.Var->getType()->isReferenceType() && S.Var->getType().getNonReferenceType()->isArithmeticType();
  };
  if (A.Mode == LoopMode::Kernel && (NumberReference(P.Written) || NumberReference(P.Other)))
    return std::nullopt;
  if (A.Mode != LoopMode::Kernel) {
    std::optional<CheckedObject> WS = checkedSide(P.Written, SectionOf), OS = checkedSide(P.Other, SectionOf);
    if (WS && OS && (WS->Section || OS->Section))
      return DisjointObjects{std::move(*WS), std::move(*OS)};
  }
  if (P.Written.Whole && P.Other.Whole)
    return DisjointObjects{{P.Written.Name, std::nullopt}, {P.Other.Name, std::nullopt}};
  return std::nullopt;
}

} // namespace

bool settleAliasChecks(LoopAnalysis &A, bool CanCheck, DiagnosticsEngine &Diags, const AnalysisOptions &Opts,
                       const SectionFinder &SectionOf) {
  bool Ok = true;
  std::vector<LegalityVerdict::Reason> Kept;
  for (LegalityVerdict::Reason &R : A.Verdict.Reasons) {
    if (!R.Overlap) {
      Kept.push_back(std::move(R));
      continue;
    }
    if (std::optional<RuntimeCheck> Check = CanCheck ? overlapCheck(A, *R.Overlap, SectionOf) : std::nullopt) {
      A.Checks.push_back(std::move(*Check));
      render(Finding{Diag::AliasCheckedAtRunTime, R.Main.Loc, {R.Main.Args[0], R.Main.Args[1]}}, Diags, Opts.Strict,
             nullptr);
      for (const Finding &N : R.Notes)
        render(N, Diags, Opts.Strict, nullptr);
      continue;
    }
    // A loop with a proven conflict cannot run in parallel whatever the
    // addresses are: a possible overlap would add nothing.
    if (A.Verdict.K != LegalityVerdict::Dependent && runsSequentiallyFor(A, R)) {
      runSequentially(A, R, Diags);
    } else if (A.Verdict.K != LegalityVerdict::Dependent) {
      render(R.Main, Diags, Opts.Strict, nullptr);
      for (const Finding &N : R.Notes)
        render(N, Diags, Opts.Strict, nullptr);
      Ok = Ok && !Opts.Strict;
    }
    Kept.push_back(std::move(R));
  }
  A.Verdict.Reasons = std::move(Kept);
  A.Verdict.recompute();
  return Ok;
}

} // namespace gpuautopar
