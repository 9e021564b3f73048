#include "gpuautopar/Legality.h"
#include "model/BodyModel.h"
#include "Containers.h"
#include "query/Dependence.h"
#include "ExprHelpers.h"
#include "FunctionKinds.h"
#include "ReductionCheck.h"
#include "ScalarUses.h"
#include "decide/Overlap.h"
#include "decide/VerdictReport.h"
#include "ConditionSpelling.h"
#include "gpuautopar/Diagnostics.h"

#include "clang/Basic/SourceManager.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

#include <cassert>
#include <map>
#include <set>

namespace gpuautopar {
namespace {

using namespace clang;

const char *what(const Access &A) { return A.Write ? "write" : "read"; }

class Checker {
public:
  Checker(LoopAnalysis &A, const BodyModel &Walk, LevelModel &Model, ASTContext &Ctx)
      : A(A), Ctx(Ctx), Walk(Walk), Model(Model) {}

  // Decides A.Verdict (and A.Reads, A.Writes); reports nothing.
  void run() {
    recordUses();
    jumps();
    inductionWrites();
    scalars();
    privateReads();
    arrays();
    aliasWrites();
    aliasReads();
    escapes();
    aliasing();
    scalarReferences();
    bitWrites();
    calls();
    globals();
    hiddenReads();
    returnedReferences();
    memberPointerReads();
    throws();
    inputOutput();
  }

private:
  using Verdict = LegalityVerdict;
  // A reason of the verdict; proven or not follows from the diagnostic.
  Verdict::Reason &add(Diag D, SourceLocation Loc, std::vector<std::string> Args) {
    const Verdict::Kind K = isUnproven(D) ? Verdict::Unproven : Verdict::Dependent;
    A.Verdict.add({K, Finding{D, Loc, std::move(Args)}, {}});
    return A.Verdict.Reasons.back();
  }
  static void note(Verdict::Reason &R, Diag D, SourceLocation Loc, std::vector<std::string> Args = {}) {
    R.Notes.push_back(Finding{D, Loc, std::move(Args)});
  }

  void recordUses() {
    llvm::SetVector<const VarDecl *> Reads, Writes;
    for (const Access &X : Walk.Accesses) {
      if (!X.Var)
        continue;
      if (X.Read)
        Reads.insert(X.Var);
      if (X.Write)
        Writes.insert(X.Var);
    }
    A.Reads.assign(Reads.begin(), Reads.end());
    A.Writes.assign(Writes.begin(), Writes.end());
  }

  void jumps() {
    for (const auto &[Loc, Kind] : Walk.JumpsOut)
      add(Diag::JumpOutOfLoop, Loc, {Kind});
  }

  void inductionWrites() {
    for (const Expr *E : Walk.InductionWrites)
      add(Diag::WriteToInduction, E->getExprLoc(), {A.Loop->Induction->getNameAsString()});
  }

  bool isPrivate(const VarDecl *V) const { return llvm::is_contained(A.Clauses.Privates, V); }
  const ReductionClause *reductionOf(const VarDecl *V) const {
    for (const ReductionClause &R : A.Clauses.Reductions)
      if (R.Var == V)
        return &R;
    return nullptr;
  }

  // The loop's trip count is computed once, before the iterations run: a
  // bound, step or range the body changes makes the loop non-canonical.
  static bool mentions(const Stmt *S, const VarDecl *V) {
    if (!S)
      return false;
    if (const auto *Ref = dyn_cast<DeclRefExpr>(S); Ref && Ref->getDecl() == V)
      return true;
    for (const Stmt *C : S->children())
      if (mentions(C, V))
        return true;
    return false;
  }
  // Which part of the loop header `V` belongs to, as the error says it and as
  // the note at the write names it.
  const char *headerPartWritten(const VarDecl *V, std::string &Part) const {
    auto role = [&](const char *What, const Expr *E) {
      const std::string Whole = sourceText(E, Ctx);
      return Whole == V->getName() ? std::string("is ") + What
                                   : std::string("is part of ") + What + " '" + Whole + "'";
    };
    if (A.Loop->RangeContainer == V) {
      Part = "is the range";
      return "the range is changed in the loop body";
    }
    if (mentions(A.Loop->Bound, V)) {
      Part = role("the bound", A.Loop->Bound);
      return "the bound is changed in the loop body";
    }
    if (mentions(A.Loop->Step, V)) {
      Part = role("the step", A.Loop->Step);
      return "the step is changed in the loop body";
    }
    return nullptr;
  }

  void scalars() {
    llvm::DenseSet<const VarDecl *> Reported;
    for (const Access &X : Walk.Accesses) {
      if (X.Element || !X.Write || !Reported.insert(X.Var).second)
        continue;
      std::string Part;
      if (const char *Why = headerPartWritten(X.Var, Part)) {
        note(add(Diag::NonCanonical, A.Loop->beginLoc(), {Why}), Diag::NoteNonCanonicalPart, X.E->getExprLoc(),
             {"'" + X.Var->getName().str() + "' " + Part + "; it is changed here"});
        continue;
      }
      if (isPrivate(X.Var) || reductionOf(X.Var))
        continue;
      const std::string Name = X.Var->getNameAsString();
      note(add(Diag::SharedScalarWrite, X.E->getExprLoc(), {Name, sharedWriteAdvice(iterationBody(), X.Var, Ctx)}),
           Diag::NoteDeclaredHere, X.Var->getLocation(), {Name});
    }
    llvm::DenseSet<const ValueDecl *> ReportedMembers;
    for (const MemberExpr *M : Walk.MemberWrites) {
      if (!ReportedMembers.insert(M->getMemberDecl()).second)
        continue;
      const std::string Name = M->getMemberDecl()->getNameAsString();
      note(add(Diag::SharedMemberWrite, M->getExprLoc(), {Name}), Diag::NoteDeclaredHere,
           M->getMemberDecl()->getLocation(), {Name});
    }
    for (const ReductionClause &R : A.Clauses.Reductions)
      if (std::optional<Verdict::Reason> Misuse = checkReduction(R, Walk))
        A.Verdict.add(std::move(*Misuse));
  }

  // One iteration: the body of the innermost collapsed loop, or the loop's.
  const Stmt *iterationBody() const { return A.Collapsed.empty() ? A.Loop->body() : A.Collapsed.back().body(); }

  // A private copy an iteration reads before writing it would need a value
  // from an earlier iteration. (A collapsed inner loop, checked on its own,
  // is part of the annotated loop's iteration, checked there.)
  void privateReads() {
    if (A.Clauses.Collapse > 1 && A.Collapsed.empty())
      return;
    for (LegalityVerdict::Reason &R :
         privateReadsBeforeWrites(A, iterationBody(), A.Pragma.Dialect == AnnotationDialect::OpenMP))
      A.Verdict.add(std::move(R));
  }

  // Every pair (write, any access) of one array, itself included: two
  // iterations running the same write also conflict if it hits one element.
  void arrays() {
    std::map<std::pair<const ValueDecl *, std::string>, std::vector<const Access *>> ByObject;
    std::vector<std::pair<const ValueDecl *, std::string>> Order; // first use first, for stable output
    for (const Access &X : Walk.Accesses)
      if (X.Element && !(X.Var && isPrivate(X.Var))) {
        auto &List = ByObject[{X.Key, X.Name}];
        if (List.empty())
          Order.push_back({X.Key, X.Name});
        List.push_back(&X);
      }
    for (const auto &Object : Order) {
      const std::vector<const Access *> &List = ByObject[Object];
      const std::string &Name = Object.second;
      if (llvm::none_of(List, [](const Access *X) { return X->Write; }))
        continue;
      DependenceVerdict R = dependence(Model, List);
      if (R.Guard) {
        const Access *First = *llvm::find_if(List, [](const Access *X) { return X->Write; });
        A.Checks.push_back(WithinDimensions{Name, std::move(*R.Guard), First->E->getExprLoc()});
      }
      if (R.K == DependenceVerdict::Dependent) {
        const bool Same = R.Write == R.Other;
        Verdict::Reason &Why =
            add(Diag::LoopCarriedDependence, A.Loop->beginLoc(),
                {Name, Same && R.SameElementEverywhere ? (R.OneElement ? "every iteration writes the same element"
                                                                       : "every iteration writes the same elements")
                       : Same || (R.Other->Write && !R.Other->Read)
                           ? "an element written in one iteration is written again in another"
                           : "an element written in one iteration is read in another"});
        note(Why, Diag::NoteAccess, R.Write->E->getExprLoc(), {"write", Name});
        if (!Same)
          note(Why, Diag::NoteAccess, R.Other->E->getExprLoc(),
               {R.Other->Write && !R.Other->Read ? "other write" : "read", Name});
        if (!R.Witness.empty()) {
          note(Why, Diag::NoteWitness, A.Loop->beginLoc(), {R.Witness});
          if (A.Verdict.Witness.empty())
            A.Verdict.Witness = R.Witness;
        }
      } else if (R.K == DependenceVerdict::Unknown) {
        Verdict::Reason &Why = add(Diag::UnknownDependence, R.Write->E->getExprLoc(), {Name, R.Why});
        if (R.Other != R.Write)
          note(Why, Diag::NoteAccess, R.Other->E->getExprLoc(), {what(*R.Other), Name});
      }
    }
  }

  // A write through a local alias of outside data is a write the subscript
  // test cannot place: a warning naming both.
  void aliasWrites() {
    llvm::DenseSet<const VarDecl *> Reported;
    for (const BodyModel::AliasWrite &W : Walk.AliasWrites)
      if (!isPrivate(W.Target) && Reported.insert(W.Local).second)
        add(Diag::UnknownDependence, W.E->getExprLoc(),
            {W.Target->getNameAsString(),
             "it is written through '" + W.Local->getNameAsString() + "', which the analysis does not follow"});
  }

  // A read through a local alias of data the loop writes: which element
  // it reads, the subscript test cannot say.
  void aliasReads() {
    llvm::DenseSet<const VarDecl *> Reported;
    for (const BodyModel::AliasWrite &W : Walk.AliasWrites)
      Reported.insert(W.Target); // reported as written through it already
    for (const BodyModel::AliasWrite &R : Walk.AliasReads)
      if (!isPrivate(R.Target) && writesAnywhere(R.Target) && Reported.insert(R.Target).second)
        add(Diag::UnknownDependence, R.E->getExprLoc(),
            {R.Target->getNameAsString(),
             "it is read through '" + R.Local->getNameAsString() + "', which the analysis does not follow"});
  }

  void escapes() {
    llvm::DenseSet<const VarDecl *> Reported;
    for (const BodyModel::Escape &X : Walk.Escapes)
      if (!isPrivate(X.Target) && Reported.insert(X.Target).second)
        add(Diag::UnknownDependence, X.Arg->getExprLoc(),
            {X.Target->getNameAsString(),
             std::string("it is ") + X.How + " '" + X.Callee + "', which the analysis does not follow"});
  }

  // Two objects declared outside (variables or members, `s.data` of a
  // `Field &s`), both used for elements, one written, that may share memory
  // (mayShareMemory). Between two variables the reason records them, so that
  // the rewritten loop may compare their addresses instead.
  void aliasing() {
    llvm::MapVector<StringRef, const Access *> FirstUse, FirstWrite;
    for (const Access &X : Walk.Accesses) {
      const QualType T = X.ObjectType.getNonReferenceType();
      if (!X.Element || !containerKind(T) || restrictPointer(T) ||
          (X.Var && isPrivate(X.Var)))
        continue;
      FirstUse.insert({X.Name, &X});
      if (X.Write)
        FirstWrite.insert({X.Name, &X});
    }
    std::set<std::pair<StringRef, StringRef>> Reported;
    for (const auto &[W, WA] : FirstWrite)
      for (const auto &[O, OA] : FirstUse) {
        if (O == W || Reported.count({O, W}) || !mayShareMemory(*WA, *OA, Ctx))
          continue;
        Reported.insert({W, O});
        Verdict::Reason &Why = add(Diag::MayAlias, WA->E->getExprLoc(), {W.str(), O.str(), aliasAdvice(*WA, *OA)});
        note(Why, Diag::NoteAccess, OA->E->getExprLoc(), {what(*OA), O.str()});
        PossibleOverlap Pair{side(*WA), side(*OA)};
        // Variables stand for themselves only as a pair (both named directly).
        if (!Pair.Written.Var || !Pair.Other.Var)
          Pair.Written.Var = Pair.Other.Var = nullptr;
        Why.Overlap = std::move(Pair);
      }
  }

  // A reference to a number declared outside (`const double &x`, a
  // parameter) may name an element the loop writes: the two are compared
  // before the loop runs, or the loop is unproven.
  void scalarReferences() {
    llvm::DenseSet<const VarDecl *> Seen;
    for (const Access &R : Walk.Accesses) {
      const VarDecl *V = R.Var;
      if (!V || R.Element || !R.Read || !V->getType()->isReferenceType() ||
          !V->getType().getNonReferenceType()->isArithmeticType() || isPrivate(V) || reductionOf(V) ||
          !Seen.insert(V).second)
        continue;
      for (const Access &W : Walk.Accesses) {
        if (!W.Element || !W.Write || !W.Var || (W.Var && isPrivate(W.Var)) ||
            !Ctx.hasSameUnqualifiedType(W.E->getType().getNonReferenceType(), V->getType().getNonReferenceType()))
          continue;
        const std::string Name = V->getNameAsString();
        Verdict::Reason &Why = add(Diag::MayAlias, W.E->getExprLoc(),
                                   {W.Name, Name, "'" + Name + "' is a reference and may name an element the loop "
                                                  "writes; copy it to a local variable before the loop"});
        note(Why, Diag::NoteAccess, R.E->getExprLoc(), {"read", Name});
        OverlapSide Ref;
        Ref.Var = V;
        Ref.Name = Name;
        Ref.Whole = true;
        PossibleOverlap Pair{side(W), Ref};
        if (!Pair.Written.Var)
          Pair.Written.Var = Pair.Other.Var = nullptr;
        Why.Overlap = std::move(Pair);
        break;
      }
    }
  }

  // One object of a possible overlap: named directly (a variable, not a
  // member), a pointer member of a variable the body leaves alone, or a whole
  // object the loop's scope names.
  OverlapSide side(const Access &X) const {
    OverlapSide S;
    if (X.Var && !X.ThroughMember)
      S.Var = X.Var;
    if (pointerMemberOfStableVariable(X))
      S.MemberRoot = X.Var;
    S.Name = X.Name;
    S.Whole = wholeObject(X);
    return S;
  }

  // `s.data[...]` with `s` a variable the body neither assigns, nor changes
  // through a call, nor hands on, and `data` a raw pointer: `s.data` has
  // the same value before the loop as in every iteration.
  bool pointerMemberOfStableVariable(const Access &X) const {
    if (!X.ThroughMember || !X.Var || X.AccessorOf || X.Name.find("->") != std::string::npos ||
        !X.ObjectType.getNonReferenceType()->isPointerType())
      return false;
    for (const Access &Y : Walk.Accesses)
      if (Y.Var == X.Var && !Y.Element && (Y.Write || Y.MayWrite))
        return false;
    for (const BodyModel::Escape &E : Walk.Escapes)
      if (E.Target == X.Var)
        return false;
    for (const BodyModel::AliasWrite &W : Walk.AliasWrites)
      if (W.Target == X.Var)
        return false;
    return true;
  }

  // A std::vector<bool> stores its elements as bits of shared words: writes
  // of different elements by different iterations race on the word.
  void bitWrites() {
    llvm::DenseSet<const ValueDecl *> Reported;
    for (const Access &X : Walk.Accesses)
      if (X.Element && X.Write && !(X.Var && isPrivate(X.Var)) && packedBits(X.ObjectType) &&
          Reported.insert(X.Key).second)
        add(Diag::PackedBitsWrite, X.E->getExprLoc(), {X.Name});
  }

  void calls() {
    std::set<std::string> Reported;
    for (const BodyModel::Call &C : Walk.UnseenCalls) {
      const std::string Callee = C.Callee.empty() ? sourceText(C.E->getCallee(), Ctx) : C.Callee;
      if (Reported.insert(Callee).second)
        add(Diag::UnknownCall, C.E->getBeginLoc(), {Callee, C.Why});
    }
  }

  // A visible function that writes a global: every iteration that calls it
  // writes the same variable. A private or reduction clause gives the body
  // a copy, not the callee, which still writes the variable itself.
  void globals() {
    llvm::DenseSet<const VarDecl *> Reported;
    for (const BodyModel::GlobalWrite &W : Walk.GlobalWrites) {
      if (!Reported.insert(W.Global).second)
        continue;
      const std::string Name = W.Global->getNameAsString();
      Verdict::Reason *At;
      if (isPrivate(W.Global) || reductionOf(W.Global))
        At = &add(Diag::LoopCarriedDependence, W.Call->getBeginLoc(),
                 {Name, "'" + W.Callee + "' writes the variable itself, not the copy the loop's " +
                            (isPrivate(W.Global) ? "private" : "reduction") +
                            " clause makes for the body, so iterations share it"});
      else if (W.EveryIteration)
        At = &add(Diag::LoopCarriedDependence, W.Call->getBeginLoc(),
                 {Name, "every iteration writes it, through the call to '" + W.Callee + "'"});
      else
        At = &add(Diag::CalleeWritesGlobal, W.Call->getBeginLoc(), {W.Callee, Name});
      note(*At, Diag::NoteDeclaredHere, W.Global->getLocation(), {Name});
    }
  }

  // A callee reads data the body does not show it reading (a global, a
  // lambda's capture) that the loop writes: which elements, the subscript
  // test cannot say.
  void hiddenReads() {
    llvm::DenseSet<const VarDecl *> Reported;
    // Those the callee writes are reported as written already.
    for (const BodyModel::GlobalWrite &W : Walk.GlobalWrites)
      Reported.insert(W.Global);
    for (const BodyModel::Escape &X : Walk.Escapes)
      Reported.insert(X.Target);
    for (const BodyModel::HiddenRead &R : Walk.HiddenReads) {
      if (isPrivate(R.Var) || reductionOf(R.Var) || !Reported.insert(R.Var).second)
        continue;
      if (writesAnywhere(R.Var))
        add(Diag::UnknownDependence, R.Call->getBeginLoc(),
            {R.Var->getNameAsString(), "it is read by '" + R.Callee + "', which the analysis does not follow"});
      else if (const Access *X = writtenAlias(R.Var, R.Call))
        add(Diag::UnknownDependence, R.Call->getBeginLoc(),
            {X->Name, "'" + R.Callee + "' reads '" + R.Var->getNameAsString() +
                          "', which may share memory with it; the analysis does not follow the call"});
    }
  }
  // A `__restrict__` pointer: what it reaches no other name reaches.
  static bool restrictPointer(QualType T) {
    T = T.getNonReferenceType();
    return T->isPointerType() && T.isRestrictQualified();
  }
  // An array the loop writes that an array or container `V` may share memory
  // with (a reference bound to the same vector, a pointer into it).
  const Access *writtenAlias(const VarDecl *V, const Expr *Call) const {
    if (!containerKind(V->getType()) || restrictPointer(V->getType()))
      return nullptr;
    Access Read;
    Read.E = Call;
    Read.Var = V;
    Read.Name = V->getNameAsString();
    Read.ObjectType = V->getType();
    for (const Access &X : Walk.Accesses)
      if ((X.Write || X.MayWrite) && X.Var && X.Var != V && !isPrivate(X.Var) && !restrictPointer(X.Var->getType()) &&
          mayShareMemory(Read, X, Ctx))
        return &X;
    return nullptr;
  }
  bool writesAnywhere(const VarDecl *V) const {
    for (const Access &X : Walk.Accesses)
      if (X.Var == V && (X.Write || X.MayWrite))
        return true;
    for (const BodyModel::GlobalWrite &W : Walk.GlobalWrites)
      if (W.Global == V)
        return true;
    for (const BodyModel::Escape &X : Walk.Escapes)
      if (X.Target == V)
        return true;
    return false;
  }

  // Through a reference or pointer a call returns: a write may reach any
  // element of the object it is called on (or any data, called on none); a
  // read matters where the loop writes data of that type.
  void returnedReferences() {
    std::set<std::string> Reported;
    for (const BodyModel::ReturnedReference &R : Walk.ReturnedReferences) {
      if (!R.Write && !writesElementsOf(R.Call->getType()))
        continue;
      const std::string Object = R.Object ? R.Object->getNameAsString() : R.Callee;
      if (!Reported.insert(Object).second)
        continue;
      const std::string Why = std::string("it is ") + (R.Write ? "written" : "read") + " through the reference '" +
                              sourceText(R.Call, Ctx) + "' returns, which the analysis does not follow";
      const auto *Op = dyn_cast<CXXOperatorCallExpr>(R.Call);
      const SourceLocation Loc = Op && Op->getNumArgs() ? Op->getArg(0)->getBeginLoc() : R.Call->getBeginLoc();
      if (R.Object)
        add(Diag::UnknownDependence, Loc, {Object, Why});
      else
        add(Diag::UnknownCall, R.Call->getBeginLoc(),
            {R.Callee, std::string("returns a reference the loop ") + (R.Write ? "writes" : "reads") +
                           " through, which the analysis does not follow"});
    }
  }
  // A method that reads through its object's pointer members: its object
  // may point into an array the loop writes.
  void memberPointerReads() {
    std::set<std::string> Reported;
    for (const BodyModel::MemberPointerRead &R : Walk.MemberPointerReads)
      for (const Type *T : R.Pointees) {
        const Access *W = writtenElementOf(QualType(T, 0));
        if (!W || !Reported.insert(W->Name).second)
          continue;
        const std::string Object = R.Object ? "'" + R.Object->getNameAsString() + "'" : std::string("the object");
        add(Diag::UnknownDependence, R.Call->getBeginLoc(),
            {W->Name, "'" + R.Callee + "' reads through a pointer member of " + Object +
                          ", which may point into it; the analysis does not follow it"});
      }
  }
  const Access *writtenElementOf(QualType T) const {
    for (const Access &X : Walk.Accesses)
      if (X.Element && X.Write && Ctx.hasSameUnqualifiedType(X.E->getType().getNonReferenceType(), T))
        return &X;
    return nullptr;
  }
  // The loop writes an element of some object whose elements have type `T`.
  bool writesElementsOf(QualType T) const {
    T = T.getNonReferenceType();
    if (T->isPointerType())
      T = T->getPointeeType();
    return writtenElementOf(T) != nullptr;
  }

  void throws() {
    if (Walk.Throws.empty())
      return;
    const Expr *E = Walk.Throws.front();
    const auto *Call = dyn_cast<CallExpr>(E);
    const FunctionDecl *F = Call ? Call->getDirectCallee() : nullptr;
    add(Diag::MayThrow, E->getBeginLoc(),
        {F ? "call to '" + F->getNameAsString() + "'" : std::string("the body")});
  }

  // Output in iteration order is part of what the serial loop does: an
  // error for our own annotation. An OpenMP or OpenACC directive already
  // declares the interleaving acceptable (its own semantics): a warning.
  void inputOutput() {
    if (!Walk.InputOutput.empty())
      add(assertedBy(A.Pragma.Dialect) ? Diag::InputOutput : Diag::OrderedInputOutput,
          Walk.InputOutput.front().first->getBeginLoc(), {Walk.InputOutput.front().second});
  }

  LoopAnalysis &A;
  ASTContext &Ctx;
  const BodyModel &Walk;
  LevelModel &Model;
};

} // namespace

const char *spelling(LegalityVerdict::Kind K) {
  switch (K) {
  case LegalityVerdict::Independent: return "independent";
  case LegalityVerdict::Unproven: return "unproven";
  case LegalityVerdict::Dependent: return "dependent";
  }
  llvm_unreachable("unknown verdict");
}

bool checkLegality(LoopAnalysis &A, const BodyModel &Body, LevelModel &Model, ASTContext &Ctx,
                   DiagnosticsEngine &Diags, const AnalysisOptions &Opts) {
  assert(A.Loop && "legality of a loop that was not recognised");
  A.Verdict = LegalityVerdict();
  A.Checks.clear();
  Checker(A, Body, Model, Ctx).run();
  for (const RuntimeCheck &C : A.Checks)
    if (const auto *W = std::get_if<WithinDimensions>(&C))
      render(Finding{Diag::BoundsCheckedAtRunTime, W->Loc, {W->Name, shown(W->Condition)}}, Diags, Opts.Strict, nullptr);
  A.Verdict.Decided = true;
  assert((A.Verdict.K == LegalityVerdict::Independent) == A.Verdict.Reasons.empty() &&
         "a verdict other than independent says why");
  // A possible overlap of two objects waits for settleAliasChecks: once the
  // maps are known it may become a check in the rewritten code.
  // A kernels or auto loop (OpenACC) is not declared parallel by its directive.
  const char *AssertedBy = A.Pragma.ProofRequiredBy.empty() ? assertedBy(A.Pragma.Dialect) : nullptr;
  LegalityVerdict::Kind Rendered = LegalityVerdict::Independent;
  for (const LegalityVerdict::Reason &R : A.Verdict.Reasons) {
    if (R.Overlap)
      continue;
    if (runsSequentiallyFor(A, R)) {
      runSequentially(A, R, Diags);
      continue;
    }
    render(R.Main, Diags, Opts.Strict, AssertedBy);
    for (const Finding &N : R.Notes)
      render(N, Diags, Opts.Strict, AssertedBy);
    Rendered = std::max(Rendered, R.K);
  }
  return Rendered == LegalityVerdict::Independent || (Rendered == LegalityVerdict::Unproven && !Opts.Strict);
}

} // namespace gpuautopar
