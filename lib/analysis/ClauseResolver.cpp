#include "gpuautopar/ClauseResolver.h"
#include "ExprHelpers.h"
#include "gpuautopar/Diagnostics.h"

#include "clang/Basic/SourceManager.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "clang/AST/Stmt.h"

namespace gpuautopar {
namespace {

using namespace clang;

// A name the loop itself uses for a variable declared outside it: exactly
// what lookup at the loop finds.
class UseInLoop : public DynamicRecursiveASTVisitor {
public:
  UseInLoop(StringRef Name, SourceRange Loop, const SourceManager &SM) : Name(Name), Loop(Loop), SM(SM) {}
  bool VisitDeclRefExpr(DeclRefExpr *E) override {
    const auto *V = dyn_cast<VarDecl>(E->getDecl());
    if (V && V->getName() == Name && !inside(SM, Loop, V->getLocation())) {
      Found = V;
      return false;
    }
    return true;
  }
  const VarDecl *Found = nullptr;

private:
  StringRef Name;
  SourceRange Loop;
  const SourceManager &SM;
};

// Locals in scope at the loop: declarations in the statements that enclose it
// and come before it. A declaration inside a nested block that has ended is a
// child of that block, not of an enclosing statement, so it is not seen.
const VarDecl *localBefore(const Stmt *S, StringRef Name, SourceRange Loop, const SourceManager &SM) {
  const VarDecl *Found = nullptr;
  for (const Stmt *Child : S->children()) {
    if (!Child)
      continue;
    if (inside(SM, Child->getSourceRange(), Loop.getBegin())) {
      if (Child->getBeginLoc() == Loop.getBegin())
        break;
      if (const VarDecl *Inner = localBefore(Child, Name, Loop, SM))
        Found = Inner;
      break;
    }
    if (!SM.isBeforeInTranslationUnit(Child->getEndLoc(), Loop.getBegin()))
      break;
    if (const auto *DS = dyn_cast<DeclStmt>(Child))
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D); V && V->getName() == Name)
          Found = V;
  }
  return Found;
}

// What lookup finds at `At` for a name not declared inside it: locals of
// `Enclosing` before it, its parameters, then data members and namespace-scope
// variables, innermost scope first.
const NamedDecl *visibleBefore(StringRef Name, SourceRange At, const Decl *Enclosing, ASTContext &Ctx) {
  if (!Enclosing)
    return nullptr;
  if (const Stmt *Body = Enclosing->getBody())
    if (const VarDecl *V = localBefore(Body, Name, At, Ctx.getSourceManager()))
      return V;
  if (const auto *F = dyn_cast<FunctionDecl>(Enclosing))
    for (const ParmVarDecl *P : F->parameters())
      if (P->getName() == Name)
        return P;
  IdentifierInfo &Id = Ctx.Idents.get(Name);
  for (const DeclContext *DC = Enclosing->getDeclContext(); DC; DC = DC->getParent()) {
    if (!DC->isFileContext() && !DC->isRecord())
      continue;
    for (const NamedDecl *D : DC->lookup(&Id))
      if (isa<VarDecl>(D) || (DC->isRecord() && isa<FieldDecl>(D)))
        return D;
  }
  return nullptr;
}

// What a declaration that is not a variable is, for the error that says a
// clause cannot name it.
const char *whatIs(const NamedDecl *D) {
  if (isa<BindingDecl>(D))
    return "a structured binding";
  if (isa<FieldDecl, IndirectFieldDecl>(D))
    return "a data member";
  if (isa<FunctionDecl, FunctionTemplateDecl>(D))
    return "a function";
  if (isa<EnumConstantDecl>(D))
    return "an enumerator";
  if (isa<TypeDecl, TemplateDecl>(D))
    return "a type";
  return "a declaration";
}

// The data member `Name` of `R` or of one of its bases.
const FieldDecl *dataMember(const CXXRecordDecl *R, StringRef Name, unsigned Depth = 0) {
  if (!R || !R->hasDefinition() || Depth > 16)
    return nullptr;
  for (const FieldDecl *F : R->fields())
    if (F->getName() == Name)
      return F;
  for (const CXXBaseSpecifier &B : R->bases())
    if (const FieldDecl *F = dataMember(B.getType()->getAsCXXRecordDecl(), Name, Depth + 1))
      return F;
  return nullptr;
}

// The member function whose `this` a clause at `Enclosing` names (through
// lambdas, which capture it).
const CXXMethodDecl *thisOf(const Decl *Enclosing) {
  for (const DeclContext *C = dyn_cast_or_null<DeclContext>(Enclosing); C; C = C->getParent())
    if (const auto *M = dyn_cast<CXXMethodDecl>(C); M && !M->getParent()->isLambda())
      return M->isStatic() ? nullptr : M;
  return nullptr;
}

} // namespace

const VarDecl *resolveClauseName(const Annotation &A, const NamedVar &N, const char *Clause,
                                 const std::function<const NamedDecl *(llvm::StringRef)> &Fallback,
                                 ASTContext &Ctx, DiagnosticsEngine &Diags) {
  const NamedDecl *D = nullptr;
  if (A.Names && A.Names->LookedUp) {
    for (const DirectiveNames::Name &V : A.Names->Names)
      if (V.Word == N.Name)
        D = V.Decl;
  } else {
    D = Fallback(N.Name);
  }
  if (!D) {
    report(Diags, Diag::UndeclaredClauseVariable, N.Loc) << N.Name << Clause;
    return nullptr;
  }
  if (const auto *V = dyn_cast<VarDecl>(D))
    return V;
  report(Diags, Diag::ClauseNameNotVariable, N.Loc) << N.Name << Clause << whatIs(D);
  report(Diags, Diag::NoteDeclaredHere, D->getLocation()) << N.Name;
  return nullptr;
}

const NamedDecl *lookupVisibleName(StringRef Name, const Stmt *Loop, const Decl *Enclosing, ASTContext &Ctx) {
  UseInLoop Use(Name, Loop->getSourceRange(), Ctx.getSourceManager());
  Use.TraverseStmt(const_cast<Stmt *>(Loop));
  if (Use.Found)
    return Use.Found;
  return visibleBefore(Name, Loop->getSourceRange(), Enclosing, Ctx);
}

const NamedDecl *lookupVisibleNameAt(StringRef Name, SourceLocation Loc, const Decl *Enclosing, ASTContext &Ctx) {
  return visibleBefore(Name, SourceRange(Loc, Loc), Enclosing, Ctx);
}

std::optional<LoopClauses> resolveClauses(const Annotation &Pragma, const ParsedClauses &P, const Stmt *Loop,
                                          const Decl *Enclosing, const VarDecl *Induction, ASTContext &Ctx,
                                          DiagnosticsEngine &Diags) {
  const AnnotationDialect Dialect = Pragma.Dialect;
  bool Ok = true;
  auto resolve = [&](const NamedVar &N, const char *Clause) -> const VarDecl * {
    // The induction variable declared in the loop's init is not visible
    // outside it, but naming it is still the mistake to report.
    const VarDecl *V =
        Induction && Induction->getName() == N.Name
            ? Induction
            : resolveClauseName(
                  Pragma, N, Clause,
                  [&](StringRef Name) { return lookupVisibleName(Name, Loop, Enclosing, Ctx); }, Ctx, Diags);
    if (!V) {
      Ok = false;
    } else if (Induction && V == Induction) {
      report(Diags, Diag::InductionInClause, N.Loc) << N.Name << Clause;
      Ok = false;
      return nullptr;
    }
    return V;
  };

  LoopClauses C;
  for (const ParsedReduction &R : P.Reductions) {
    const VarDecl *V = resolve(R.Var, "reduction");
    if (V && !V->getType()->isDependentType() && !V->getType().getNonReferenceType()->isArithmeticType()) {
      report(Diags, Diag::ReductionNotArithmetic, R.Var.Loc) << R.Var.Name;
      Ok = false;
    }
    C.Reductions.push_back({R.Op, V, R.Var.Loc});
  }
  for (const ParsedMap &M : P.Maps) {
    if (M.Fields.empty()) {
      C.Maps.push_back({M.Kind, resolve(M.Var, "map"), M.Lower, M.Length, M.Var.Loc});
      continue;
    }
    // A member: its root, then each data member by name.
    MapClause Member{M.Kind, nullptr, M.Lower, M.Length, M.Var.Loc};
    Member.Written = M.Written.Name;
    QualType T;
    if (M.Var.Name == "this") {
      const CXXMethodDecl *Method = thisOf(Enclosing);
      if (!Method) {
        report(Diags, Diag::MapMemberNotHere, M.Var.Loc) << M.Written.Name << "map"
                                                         << "needs the 'this' of a member function";
        Ok = false;
        continue;
      }
      T = Method->getThisType()->getPointeeType();
    } else {
      Member.Var = resolve(M.Var, "map");
      if (!Member.Var)
        continue;
      T = Member.Var->getType().getNonReferenceType();
    }
    for (const std::string &Name : M.Fields) {
      const FieldDecl *F = dataMember(T->getAsCXXRecordDecl(), Name);
      if (!F) {
        report(Diags, Diag::MapMemberUnknown, M.Var.Loc)
            << M.Written.Name << ("'" + T.getUnqualifiedType().getAsString(Ctx.getPrintingPolicy()) + "'") << Name;
        Ok = false;
        break;
      }
      Member.Fields.push_back(F);
      T = F->getType().getNonReferenceType();
    }
    if (Member.Fields.size() == M.Fields.size())
      C.Maps.push_back(std::move(Member));
  }
  auto named = [&](const VarDecl *V, const NamedVar &N, const char *Clause) {
    if (V && llvm::none_of(C.PrivateNames, [&](const LoopClauses::PrivateName &X) { return X.Var == V; }))
      C.PrivateNames.push_back({V, N.Loc, Clause});
  };
  for (const NamedVar &N : P.Privates) {
    if (Dialect != AnnotationDialect::GpuAutopar && Induction && Induction->getName() == N.Name) {
      report(Diags, Diag::ForeignClauseIgnored, N.Loc)
          << ("private(" + N.Name + ")") << "the loop variable is private to each iteration anyway";
      continue;
    }
    C.Privates.push_back(resolve(N, "private"));
    named(C.Privates.back(), N, "private");
  }
  for (const NamedVar &N : P.FirstPrivates)
    if (const VarDecl *V = resolve(N, "firstprivate"); V && !llvm::is_contained(C.FirstPrivates, V)) {
      named(V, N, "firstprivate");
      C.FirstPrivates.push_back(V);
      if (!llvm::is_contained(C.Privates, V))
        C.Privates.push_back(V);
    }
  for (const NamedVar &N : P.LastPrivates)
    if (const VarDecl *V = resolve(N, "lastprivate"); V && !llvm::is_contained(C.LastPrivates, V)) {
      named(V, N, "lastprivate");
      C.LastPrivates.push_back(V);
      if (!llvm::is_contained(C.Privates, V))
        C.Privates.push_back(V);
    }
  C.Schedule = P.Schedule;
  C.ScheduleChunk = P.ScheduleChunk;
  C.Devices = P.Devices;
  C.Slots = P.Slots;
  C.MinIterations = P.MinIterations;
  C.Fallback = P.Fallback;
  C.Mode = P.Mode;
  if (!Ok)
    return std::nullopt;
  return C;
}

} // namespace gpuautopar
