#include "gpuautopar/Legality.h"
#include "BodyModel.h"
#include "Dependence.h"
#include "FunctionKinds.h"
#include "ReductionCheck.h"
#include "gpuautopar/Diagnostics.h"

#include "clang/Basic/SourceManager.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

#include <map>
#include <set>

namespace gpuautopar {
namespace {

using namespace clang;

std::string text(const Expr *E, const ASTContext &Ctx) {
  return Lexer::getSourceText(CharSourceRange::getTokenRange(E->getSourceRange()), Ctx.getSourceManager(),
                              Ctx.getLangOpts())
      .str();
}

// Under the strict aliasing rule, pointers to different (non-character)
// types never point into the same array.
bool mayPointToSameObjects(QualType A, QualType B, ASTContext &Ctx) {
  QualType PA = A.getNonReferenceType()->getPointeeType().getCanonicalType();
  QualType PB = B.getNonReferenceType()->getPointeeType().getCanonicalType();
  return Ctx.hasSameUnqualifiedType(PA, PB) || PA->isCharType() || PB->isCharType() || PA->isVoidType() || PB->isVoidType();
}

const char *what(const Access &A) { return A.Write ? "write" : "read"; }

class Checker {
public:
  Checker(LoopAnalysis &A, ASTContext &Ctx, DiagnosticsEngine &Diags)
      : A(A), Ctx(Ctx), Diags(Diags), Walk(collectBody(A, Ctx)) {}

  bool run() {
    recordUses();
    bool Ok = jumps();
    Ok &= inductionWrites();
    Ok &= scalars();
    Ok &= arrays();
    aliasWrites();
    escapes();
    aliasing();
    calls();
    globals();
    inputOutput();
    return Ok;
  }

private:
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

  bool jumps() {
    for (const auto &[Loc, Kind] : Walk.JumpsOut)
      report(Diags, Diag::JumpOutOfLoop, Loc) << Kind;
    return Walk.JumpsOut.empty();
  }

  bool inductionWrites() {
    for (const Expr *E : Walk.InductionWrites)
      report(Diags, Diag::WriteToInduction, E->getExprLoc()) << A.Loop->Induction->getName();
    return Walk.InductionWrites.empty();
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
  const char *headerPartWritten(const VarDecl *V) const {
    if (A.Loop->RangeContainer == V)
      return "the range is changed in the loop body";
    if (mentions(A.Loop->Bound, V))
      return "the bound is changed in the loop body";
    if (mentions(A.Loop->Step, V))
      return "the step is changed in the loop body";
    return nullptr;
  }

  bool scalars() {
    bool Ok = true;
    llvm::DenseSet<const VarDecl *> Reported;
    for (const Access &X : Walk.Accesses) {
      if (X.Element || !X.Write || !Reported.insert(X.Var).second)
        continue;
      if (const char *Why = headerPartWritten(X.Var)) {
        report(Diags, Diag::NonCanonical, A.Loop->beginLoc()) << Why;
        report(Diags, Diag::NoteNonCanonicalPart, X.E->getExprLoc()) << Why;
        Ok = false;
        continue;
      }
      if (isPrivate(X.Var) || reductionOf(X.Var))
        continue;
      report(Diags, Diag::SharedScalarWrite, X.E->getExprLoc()) << X.Var->getName();
      report(Diags, Diag::NoteDeclaredHere, X.Var->getLocation()) << X.Var->getName();
      Ok = false;
    }
    llvm::DenseSet<const ValueDecl *> ReportedMembers;
    for (const MemberExpr *M : Walk.MemberWrites) {
      if (!ReportedMembers.insert(M->getMemberDecl()).second)
        continue;
      report(Diags, Diag::SharedMemberWrite, M->getExprLoc()) << M->getMemberDecl()->getName();
      report(Diags, Diag::NoteDeclaredHere, M->getMemberDecl()->getLocation()) << M->getMemberDecl()->getName();
      Ok = false;
    }
    for (const ReductionClause &R : A.Clauses.Reductions)
      Ok &= checkReduction(R, A.Loop->body(), Ctx, Diags);
    return Ok;
  }

  // Every pair (write, any access) of one array, itself included: two
  // iterations running the same write also conflict if it hits one element.
  bool arrays() {
    DependenceTest Test(A, Walk, Ctx);
    std::map<std::pair<const ValueDecl *, std::string>, std::vector<const Access *>> ByObject;
    std::vector<std::pair<const ValueDecl *, std::string>> Order; // first use first, for stable output
    for (const Access &X : Walk.Accesses)
      if (X.Element && !(X.Var && isPrivate(X.Var))) {
        auto &List = ByObject[{X.Key, X.Name}];
        if (List.empty())
          Order.push_back({X.Key, X.Name});
        List.push_back(&X);
      }
    bool Ok = true;
    for (const auto &Object : Order) {
      const std::vector<const Access *> &List = ByObject[Object];
      const std::string &Name = Object.second;
      if (llvm::none_of(List, [](const Access *X) { return X->Write; }))
        continue;
      DependenceVerdict R = Test.test(List);
      if (R.K == DependenceVerdict::Dependent) {
        Ok = false;
        const bool Same = R.Write == R.Other;
        report(Diags, Diag::LoopCarriedDependence, A.Loop->beginLoc())
            << Name
            << (Same && R.SameElementEverywhere ? "every iteration writes the same element"
                : Same || (R.Other->Write && !R.Other->Read)
                    ? "an element written in one iteration is written again in another"
                    : "an element written in one iteration is read in another");
        report(Diags, Diag::NoteAccess, R.Write->E->getExprLoc()) << "write" << Name;
        if (!Same)
          report(Diags, Diag::NoteAccess, R.Other->E->getExprLoc())
              << (R.Other->Write && !R.Other->Read ? "other write" : "read") << Name;
        if (!R.Witness.empty())
          report(Diags, Diag::NoteWitness, A.Loop->beginLoc()) << R.Witness;
      } else if (R.K == DependenceVerdict::Unknown) {
        report(Diags, Diag::UnknownDependence, R.Write->E->getExprLoc()) << Name << R.Why;
        if (R.Other != R.Write)
          report(Diags, Diag::NoteAccess, R.Other->E->getExprLoc()) << what(*R.Other) << Name;
      }
    }
    return Ok;
  }

  // A write through a local alias of outside data is a write the subscript
  // test cannot place: a warning naming both.
  void aliasWrites() {
    llvm::DenseSet<const VarDecl *> Reported;
    for (const BodyModel::AliasWrite &W : Walk.AliasWrites)
      if (!isPrivate(W.Target) && Reported.insert(W.Local).second)
        report(Diags, Diag::UnknownDependence, W.E->getExprLoc())
            << W.Target->getName()
            << ("it is written through '" + W.Local->getNameAsString() + "', which the analysis does not follow");
  }

  void escapes() {
    llvm::DenseSet<const VarDecl *> Reported;
    for (const BodyModel::Escape &X : Walk.Escapes)
      if (!isPrivate(X.Target) && Reported.insert(X.Target).second)
        report(Diags, Diag::UnknownDependence, X.Arg->getExprLoc())
            << X.Target->getName()
            << ("it is passed to '" + X.Callee->getNameAsString() + "', which the analysis does not follow");
  }

  // Two pointers declared outside (variables or members, `s.data` of a
  // `Field &s`), both used for elements, one written: they may point into
  // the same array unless declared restrict.
  void aliasing() {
    llvm::MapVector<StringRef, const Access *> FirstUse, FirstWrite;
    for (const Access &X : Walk.Accesses) {
      const QualType T = X.ObjectType.getNonReferenceType();
      if (!X.Element || !T->isPointerType() || T.isRestrictQualified() || (X.Var && isPrivate(X.Var)))
        continue;
      FirstUse.insert({X.Name, &X});
      if (X.Write)
        FirstWrite.insert({X.Name, &X});
    }
    std::set<std::pair<StringRef, StringRef>> Reported;
    for (const auto &[W, WA] : FirstWrite)
      for (const auto &[O, OA] : FirstUse) {
        if (O == W || Reported.count({O, W}) || !mayPointToSameObjects(WA->ObjectType, OA->ObjectType, Ctx))
          continue;
        Reported.insert({W, O});
        report(Diags, Diag::MayAlias, WA->E->getExprLoc()) << W << O;
        report(Diags, Diag::NoteAccess, OA->E->getExprLoc()) << what(*OA) << O;
      }
  }

  void calls() {
    std::set<std::string> Reported;
    for (const BodyModel::Call &C : Walk.UnseenCalls) {
      const std::string Callee = C.Callee.empty() ? text(C.E->getCallee(), Ctx) : C.Callee;
      if (Reported.insert(Callee).second)
        report(Diags, Diag::UnknownCall, C.E->getBeginLoc()) << Callee << C.Why;
    }
  }

  // A visible function that writes a global: every iteration that calls it
  // writes the same variable.
  void globals() {
    llvm::DenseSet<const VarDecl *> Reported;
    for (const BodyModel::GlobalWrite &W : Walk.GlobalWrites)
      if (!isPrivate(W.Global) && !reductionOf(W.Global) && Reported.insert(W.Global).second) {
        report(Diags, Diag::CalleeWritesGlobal, W.Call->getBeginLoc())
            << W.Callee->getNameAsString() << W.Global->getName();
        report(Diags, Diag::NoteDeclaredHere, W.Global->getLocation()) << W.Global->getName();
      }
  }

  void inputOutput() {
    if (!Walk.InputOutput.empty())
      report(Diags, Diag::InputOutput, Walk.InputOutput.front().first->getBeginLoc())
          << Walk.InputOutput.front().second;
  }

  LoopAnalysis &A;
  ASTContext &Ctx;
  DiagnosticsEngine &Diags;
  BodyModel Walk;
};

} // namespace

bool checkLegality(LoopAnalysis &A, ASTContext &Ctx, DiagnosticsEngine &Diags) {
  const unsigned ErrorsBefore = Diags.getNumErrors();
  (void)Checker(A, Ctx, Diags).run();
  // --strict turns the "cannot prove" warnings into errors: any new error,
  // whatever produced it, rejects the loop.
  return Diags.getNumErrors() == ErrorsBefore;
}

} // namespace gpuautopar
