// Finding the loop in each instantiation, and checking that the template's
// one rewritten loop serves every instantiation (Instantiations.h).
#include "decide/Instantiations.h"
#include "gpuautopar/Diagnostics.h"
#include "gpuautopar/LoopAnalyzer.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/raw_ostream.h"

namespace gpuautopar {
namespace {

using namespace clang;

// An instantiated statement keeps its pattern's locations: the outermost one
// that begins where `Pattern` does (its kind may differ: `v[i] = x` is an
// operator call for one type and a built-in assignment for another).
const Stmt *sameStatement(const Stmt *S, const Stmt *Pattern) {
  if (!S)
    return nullptr;
  if (S->getBeginLoc() == Pattern->getBeginLoc())
    return S;
  for (const Stmt *C : S->children())
    if (const Stmt *Found = sameStatement(C, Pattern))
      return Found;
  return nullptr;
}

// The instantiations of `F`: of its function template, or, for a member of
// a class template, the member in each specialization of the class.
std::vector<const FunctionDecl *> instantiationsOf(const FunctionDecl *F) {
  std::vector<const FunctionDecl *> Out;
  if (const FunctionTemplateDecl *T = F->getDescribedFunctionTemplate()) {
    for (const FunctionDecl *S : T->specializations())
      Out.push_back(S);
    return Out;
  }
  const auto *M = dyn_cast<CXXMethodDecl>(F);
  const ClassTemplateDecl *Class = M ? M->getParent()->getDescribedClassTemplate() : nullptr;
  if (!Class)
    return Out;
  for (const ClassTemplateSpecializationDecl *S : Class->specializations())
    for (const Decl *D : S->decls())
      if (const auto *IM = dyn_cast<CXXMethodDecl>(D);
          IM && IM->getInstantiatedFromMemberFunction() &&
          IM->getInstantiatedFromMemberFunction()->getCanonicalDecl() == M->getCanonicalDecl())
        Out.push_back(IM);
  return Out;
}

std::string instantiationName(const FunctionDecl *Def, const ASTContext &Ctx) {
  std::string Name;
  llvm::raw_string_ostream OS(Name);
  if (const auto *M = dyn_cast<CXXMethodDecl>(Def); M && !Def->getDescribedFunctionTemplate() &&
                                                     isa<ClassTemplateSpecializationDecl>(M->getParent())) {
    M->getParent()->getNameForDiagnostic(OS, Ctx.getPrintingPolicy(), /*Qualified=*/false);
    OS << "::" << M->getName();
  } else {
    Def->getNameForDiagnostic(OS, Ctx.getPrintingPolicy(), /*Qualified=*/false);
  }
  return Name;
}

// Where the file makes the instantiation: its point of instantiation, or the
// class specialization's for a member of a class template.
SourceLocation madeAt(const FunctionDecl *Def) {
  SourceLocation Loc = Def->getPointOfInstantiation();
  if (Loc.isInvalid())
    if (const auto *M = dyn_cast<CXXMethodDecl>(Def))
      if (const auto *S = dyn_cast<ClassTemplateSpecializationDecl>(M->getParent()))
        Loc = S->getPointOfInstantiation();
  return Loc.isValid() ? Loc : Def->getLocation();
}

// Each instantiated function holding the pattern statement `Pattern`, with
// the statement as it has it.
template <class Fn> void forEachInstantiation(const Decl *Enclosing, const Stmt *Pattern, Fn &&Visit) {
  const auto *F = dyn_cast_or_null<FunctionDecl>(Enclosing);
  if (!F || !Pattern)
    return;
  for (const FunctionDecl *I : instantiationsOf(F)) {
    const FunctionDecl *Def = I->getDefinition();
    const Stmt *S = Def ? sameStatement(Def->getBody(), Pattern) : nullptr;
    if (S && S != Pattern)
      Visit(Def, S);
  }
}

// Diagnostics kept aside while an instantiation is analysed.
struct KeptDiagnostic {
  DiagnosticsEngine::Level Level;
  SourceLocation Loc;
  std::string Text;
};
class KeepAside : public DiagnosticConsumer {
public:
  void HandleDiagnostic(DiagnosticsEngine::Level Level, const Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    llvm::SmallString<160> Text;
    Info.FormatDiagnostic(Text);
    Kept.push_back({Level, Info.getLocation(), Text.str().str()});
  }
  std::vector<KeptDiagnostic> Kept;
};

struct Instance {
  std::string Name;
  SourceLocation Made;
  LoopAnalysis L;
  std::vector<KeptDiagnostic> Kept;
};

bool samePolynomial(const Polynomial &A, const Polynomial &B);
bool sameFactor(const Polynomial::Factor &A, const Polynomial::Factor &B) {
  if (A.K != B.K || A.Name != B.Name || A.Divisor != B.Divisor || A.Args.size() != B.Args.size())
    return false;
  for (size_t I = 0; I < A.Args.size(); ++I)
    if (!samePolynomial(A.Args[I], B.Args[I]))
      return false;
  return true;
}
bool samePolynomial(const Polynomial &A, const Polynomial &B) {
  if (A.Terms.size() != B.Terms.size())
    return false;
  for (size_t I = 0; I < A.Terms.size(); ++I) {
    const Polynomial::Term &X = A.Terms[I], &Y = B.Terms[I];
    if (X.Coefficient != Y.Coefficient || X.Factors.size() != Y.Factors.size())
      return false;
    for (size_t J = 0; J < X.Factors.size(); ++J)
      if (!sameFactor(X.Factors[J], Y.Factors[J]))
        return false;
  }
  return true;
}
bool sameSection(const std::optional<AffineSection> &A, const std::optional<AffineSection> &B) {
  if (!A || !B)
    return !A && !B;
  if (!samePolynomial(A->Scale, B->Scale) || A->Parts.size() != B->Parts.size())
    return false;
  for (size_t I = 0; I < A->Parts.size(); ++I)
    if (!samePolynomial(A->Parts[I].first, B->Parts[I].first) ||
        !samePolynomial(A->Parts[I].second, B->Parts[I].second))
      return false;
  return true;
}
bool sameCondition(const ParamCondition &A, const ParamCondition &B) {
  if (A.K != B.K || A.Value != B.Value || A.Name != B.Name || A.Args.size() != B.Args.size())
    return false;
  for (size_t I = 0; I < A.Args.size(); ++I)
    if (!sameCondition(A.Args[I], B.Args[I]))
      return false;
  return true;
}

std::string mapName(const ArrayUse &U) {
  return U.Member ? U.Member->Name : U.Var ? U.Var->getName().str() : std::string("?");
}
const ArrayUse *mapNamed(const LoopAnalysis &L, const std::string &Name) {
  for (const ArrayUse &U : L.Arrays)
    if (mapName(U) == Name)
      return &U;
  return nullptr;
}
bool writesBack(MapKind K) { return K == MapKind::From || K == MapKind::ToFrom; }

// Why the template's maps do not serve the instantiation's loop; empty when they do.
std::string mapsMiss(const LoopAnalysis &Template, const LoopAnalysis &Inst) {
  if (Template.Mode != LoopMode::Kernel || Inst.Mode != LoopMode::Kernel)
    return "";
  for (const ArrayUse &U : Inst.Arrays) {
    const ArrayUse *T = mapNamed(Template, mapName(U));
    if (!T)
      return "it maps '" + mapName(U) + "', which the loop as the template is written does not";
    if (writesBack(U.Kind) && !writesBack(T->Kind))
      return "it writes '" + mapName(U) + "' back, which the loop as the template is written only copies in";
    if (!U.Section && T->Section)
      return "it maps all of '" + mapName(U) + "', where the loop as the template is written maps a section";
  }
  return "";
}

// The two names a check compares ("" for a bounds check).
std::pair<std::string, std::string> checkedNames(const RuntimeCheck &C, const LoopAnalysis &L) {
  if (const auto *D = std::get_if<DisjointMaps>(&C))
    return {mapName(L.Arrays[D->Written]), mapName(L.Arrays[D->Other])};
  if (const auto *O = std::get_if<DisjointObjects>(&C))
    return {O->Written.Name, O->Other.Name};
  return {std::get<WithinDimensions>(C).Name, ""};
}

bool sameCheck(const RuntimeCheck &A, const LoopAnalysis &LA, const RuntimeCheck &B, const LoopAnalysis &LB) {
  if (A.index() != B.index() || checkedNames(A, LA) != checkedNames(B, LB))
    return false;
  if (const auto *O = std::get_if<DisjointObjects>(&A)) {
    const auto &P = std::get<DisjointObjects>(B);
    return sameSection(O->Written.Section, P.Written.Section) && sameSection(O->Other.Section, P.Other.Section);
  }
  if (const auto *W = std::get_if<WithinDimensions>(&A))
    return sameCondition(W->Condition, std::get<WithinDimensions>(B).Condition);
  return true;
}

// The instantiation's check as the template's loop spells it; nullopt where
// that loop cannot make it (a map it does not have, another mode).
std::optional<RuntimeCheck> asTemplateCheck(const RuntimeCheck &C, const LoopAnalysis &Inst,
                                            const LoopAnalysis &Template) {
  if (Inst.Mode != Template.Mode)
    return std::nullopt;
  if (const auto *D = std::get_if<DisjointMaps>(&C)) {
    std::optional<unsigned> W, O;
    for (unsigned I = 0; I < Template.Arrays.size(); ++I) {
      if (mapName(Template.Arrays[I]) == mapName(Inst.Arrays[D->Written]))
        W = I;
      if (mapName(Template.Arrays[I]) == mapName(Inst.Arrays[D->Other]))
        O = I;
    }
    if (!W || !O)
      return std::nullopt;
    return RuntimeCheck(DisjointMaps{*W, *O});
  }
  return C;
}

std::string quotedList(const std::vector<const Instance *> &Is) {
  std::string Out;
  for (size_t I = 0; I < Is.size(); ++I)
    Out += (I == 0 ? "" : I + 1 == Is.size() ? " and " : ", ") + ("'" + Is[I]->Name + "'");
  return Out;
}

void noteMadeHere(const std::vector<const Instance *> &Is, DiagnosticsEngine &Diags) {
  for (const Instance *I : Is)
    report(Diags, Diag::NoteInstantiatedHere, I->Made) << I->Name;
}

// The instantiation's first error and the notes that follow it, as notes
// that name the instantiation.
void noteFirstError(const Instance &I, DiagnosticsEngine &Diags) {
  bool Inside = false;
  for (const KeptDiagnostic &K : I.Kept) {
    if (K.Level >= DiagnosticsEngine::Error && !Inside) {
      Inside = true;
    } else if (K.Level != DiagnosticsEngine::Note) {
      if (Inside)
        return;
      continue;
    } else if (!Inside) {
      continue;
    }
    report(Diags, Diag::NoteInInstantiation, K.Loc) << I.Name << K.Text;
  }
}

// Warnings the instantiation's loop has and the template's has not (no
// reason of the template's loop at that place), given with their notes.
void giveOwnWarnings(const Instance &I, const LoopAnalysis &Template, DiagnosticsEngine &Diags) {
  bool Giving = false;
  for (const KeptDiagnostic &K : I.Kept) {
    if (K.Level == DiagnosticsEngine::Note) {
      if (Giving)
        report(Diags, Diag::NoteInInstantiation, K.Loc) << I.Name << K.Text;
      continue;
    }
    Giving = K.Level == DiagnosticsEngine::Warning &&
             llvm::none_of(Template.Verdict.Reasons, [&](const LegalityVerdict::Reason &R) {
               return R.Main.Loc == K.Loc;
             });
    if (Giving)
      report(Diags, Diag::WarningInInstantiation, K.Loc) << K.Text << I.Name;
  }
}

} // namespace

std::vector<InstantiatedBody> instantiatedBodies(const LoopAnalysis &A, const ASTContext &Ctx) {
  std::vector<InstantiatedBody> Out;
  if (!A.Loop)
    return Out;
  const Stmt *Pattern = A.Collapsed.empty() ? A.Loop->body() : A.Collapsed.back().body();
  forEachInstantiation(A.Enclosing, Pattern, [&](const FunctionDecl *Def, const Stmt *Body) {
    Out.push_back({instantiationName(Def, Ctx), Body});
  });
  return Out;
}

bool reconcileInstantiations(LoopAnalysis &A, const Stmt *Loop, ASTContext &Ctx, DiagnosticsEngine &Diags,
                             const AnalysisOptions &Opts) {
  std::vector<Instance> Instances;
  forEachInstantiation(A.Enclosing, Loop, [&](const FunctionDecl *Def, const Stmt *S) {
    KeepAside Keep;
    DiagnosticsEngine Aside(Diags.getDiagnosticIDs(), Diags.getDiagnosticOptions(), &Keep,
                            /*ShouldOwnClient=*/false);
    Aside.setSourceManager(&Diags.getSourceManager());
    // The clauses' names as the instantiation has them: looked up in it, not
    // as the parser found them in the template.
    Annotation Pragma = A.Pragma;
    Pragma.Names = nullptr;
    LoopAnalysis L = analyzeLoop(Pragma, S, S->getBeginLoc(), Def, Ctx, Aside, Opts);
    Instances.push_back({instantiationName(Def, Ctx), madeAt(Def), std::move(L), std::move(Keep.Kept)});
  });
  if (Instances.empty())
    return true;
  const SourceLocation At = A.Loop->beginLoc();

  std::vector<const Instance *> Rejected, Fine;
  for (const Instance &I : Instances)
    (I.L.Accepted ? Fine : Rejected).push_back(&I);
  if (!Rejected.empty()) {
    report(Diags, Diag::InstantiationRejected, At)
        << quotedList(Rejected)
        << (Fine.empty() ? std::string()
                         : ", though not in " + quotedList(Fine) + ": one rewritten loop serves every instantiation");
    for (const Instance *I : Rejected)
      noteFirstError(*I, Diags);
    noteMadeHere(Rejected, Diags);
    noteMadeHere(Fine, Diags);
    A.Reasons.push_back({"rejected in " + quotedList(Rejected), At});
    return false;
  }

  for (const Instance &I : Instances)
    if (std::string Why = mapsMiss(A, I.L); !Why.empty()) {
      report(Diags, Diag::InstantiationMapsDiffer, At) << I.Name << Why;
      noteMadeHere({&I}, Diags);
      A.Reasons.push_back({"the data maps do not serve '" + I.Name + "'", At});
      return false;
    }

  for (const Instance &I : Instances) {
    giveOwnWarnings(I, A, Diags);
    for (const RuntimeCheck &C : I.L.Checks) {
      if (llvm::any_of(A.Checks, [&](const RuntimeCheck &T) { return sameCheck(T, A, C, I.L); }))
        continue;
      std::optional<RuntimeCheck> T = asTemplateCheck(C, I.L, A);
      if (!T) {
        const auto [W, O] = checkedNames(C, I.L);
        report(Diags, Diag::InstantiationMapsDiffer, At)
            << I.Name << "it checks at run time that '" + W + "' and '" + O +
                             "' do not overlap, which the loop as the template is written cannot";
        noteMadeHere({&I}, Diags);
        return false;
      }
      if (llvm::any_of(A.Checks, [&](const RuntimeCheck &X) { return sameCheck(X, A, *T, A); }))
        continue;
      A.Checks.push_back(std::move(*T));
      // The instantiation's remark about the check, naming it.
      const auto [W, O] = checkedNames(C, I.L);
      for (const KeptDiagnostic &K : I.Kept)
        if (K.Level == DiagnosticsEngine::Remark && K.Text.find("'" + W + "'") != std::string::npos &&
            (O.empty() || K.Text.find("'" + O + "'") != std::string::npos) &&
            K.Text.rfind("loop runs on CPU threads only", 0) != 0)
          report(Diags, Diag::RemarkInInstantiation, K.Loc) << K.Text << I.Name;
    }
  }
  return true;
}

} // namespace gpuautopar
