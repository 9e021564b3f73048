#include "gpuautopar/DataRegion.h"
#include "ExprHelpers.h"
#include "gpuautopar/ClauseParser.h"
#include "gpuautopar/ClauseResolver.h"
#include "gpuautopar/Diagnostics.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

namespace gpuautopar {
namespace {

using namespace clang;

// The clause names of a directive: the words at bracket depth 0 that start
// the line or follow a ','. Each one not in `Allowed` is reported.
bool onlyClauses(llvm::ArrayRef<ClauseToken> Toks, llvm::ArrayRef<llvm::StringRef> Allowed, const char *Directive,
                 const char *Hint, DiagnosticsEngine &Diags, unsigned *Count) {
  int Depth = 0;
  bool Start = true, Ok = true;
  *Count = 0;
  for (const ClauseToken &T : Toks) {
    llvm::StringRef S = T.Spelling;
    if (Depth == 0 && Start && S != ",") {
      ++*Count;
      if (!llvm::is_contained(Allowed, S)) {
        report(Diags, Diag::ClauseNotAllowedOn, T.Loc) << S << Directive << Hint;
        Ok = false;
      }
    }
    Start = false;
    if (S == "(" || S == "[" || S == "{")
      ++Depth;
    else if (S == ")" || S == "]" || S == "}")
      Depth = Depth > 0 ? Depth - 1 : 0;
    else if (S == "," && Depth == 0)
      Start = true;
    if (S == ")" && Depth == 0)
      Start = true; // `map(...) map(...)` without a comma
  }
  return Ok;
}

// A parameter declared as an array (`double A[N][M]`, PolyBench's kernels,
// named whole in `acc data copy(A)`): how many rows it was declared with, as
// the source spells the count; empty for any other variable.
std::string declaredRows(const VarDecl *V, ASTContext &Ctx) {
  const auto *P = dyn_cast<ParmVarDecl>(V);
  if (!P)
    return "";
  const ArrayType *T = Ctx.getAsArrayType(P->getOriginalType());
  if (const auto *C = dyn_cast_or_null<ConstantArrayType>(T))
    return std::to_string(C->getSize().getZExtValue());
  if (const auto *VA = dyn_cast_or_null<VariableArrayType>(T); VA && VA->getSizeExpr())
    return "(" +
           Lexer::getSourceText(CharSourceRange::getTokenRange(VA->getSizeExpr()->getSourceRange()),
                                Ctx.getSourceManager(), Ctx.getLangOpts())
               .str() +
           ")";
  return "";
}

// Resolves the names of parsed maps where directive `A` stands (`Fallback`:
// the lookup where the parser read it ahead of its scope, ClauseResolver.h);
// a pointer needs a section.
std::optional<std::vector<RegionSection>> resolveSections(const Annotation &A, const ParsedClauses &P,
                                                          const char *Clause,
                                                          const std::function<const NamedDecl *(StringRef)> &Fallback,
                                                          ASTContext &Ctx, DiagnosticsEngine &Diags) {
  std::vector<RegionSection> Out;
  bool Ok = true;
  for (const ParsedMap &M : P.Maps) {
    if (!M.Fields.empty()) {
      report(Diags, Diag::MapMemberNotHere, M.Var.Loc)
          << M.Written.Name << Clause << "a data directive does not map yet; map a variable (a pointer to its data)";
      Ok = false;
      continue;
    }
    const VarDecl *V = resolveClauseName(A, M.Var, Clause, Fallback, Ctx, Diags);
    if (!V) {
      Ok = false;
      continue;
    }
    if (M.Length.empty() && V->getType().getNonReferenceType()->isPointerType()) {
      if (std::string Rows = declaredRows(V, Ctx); !Rows.empty()) {
        Out.push_back({M.Kind, V, "0", Rows, M.Var.Loc}); // the array the parameter was declared as
        continue;
      }
      report(Diags, Diag::RegionSectionNeeded, M.Var.Loc) << M.Var.Name;
      Ok = false;
      continue;
    }
    Out.push_back({M.Kind, V, M.Lower, M.Length, M.Var.Loc});
  }
  if (!Ok)
    return std::nullopt;
  return Out;
}

SourceLocation endOfDirective(const Annotation &A) { return A.EndLoc; }

// The directive as the user wrote it, for diagnostics: "gpu_autopar data",
// "omp target data", "acc update", ...
std::string directiveName(const Annotation &A) {
  if (A.Dialect != AnnotationDialect::GpuAutopar)
    return A.Directive;
  switch (A.Kind) {
  case DirectiveKind::Data: return "gpu_autopar data";
  case DirectiveKind::Update: return "gpu_autopar update";
  case DirectiveKind::EnterData: return "gpu_autopar enter data";
  case DirectiveKind::ExitData: return "gpu_autopar exit data";
  case DirectiveKind::For: break;
  }
  llvm_unreachable("a loop annotation is not a data directive");
}

// The clauses a data directive needs one of, in its own dialect.
const char *neededClauses(const Annotation &A) {
  const bool Data = A.Kind != DirectiveKind::Update;
  if (A.Dialect == AnnotationDialect::OpenACC && A.Kind == DirectiveKind::EnterData)
    return "'copyin' or 'create'";
  if (A.Dialect == AnnotationDialect::OpenACC && A.Kind == DirectiveKind::ExitData)
    return "'copyout' or 'delete'";
  switch (A.Dialect) {
  case AnnotationDialect::OpenMP: return Data ? "'map'" : "'to(...)' or 'from(...)'";
  case AnnotationDialect::OpenACC: return Data ? "'copy', 'copyin', 'copyout' or 'create'" : "'self(...)' or 'device(...)'";
  case AnnotationDialect::GpuAutopar: break;
  }
  return Data ? "'map'" : "'host(...)' or 'device(...)'";
}

// The directive's clauses in gpu_autopar's syntax: as written, or as
// translated from OpenMP/OpenACC (each token at the source it came from).
std::vector<ClauseToken> directiveClauses(const Annotation &A, ASTContext &Ctx) {
  if (A.Dialect != AnnotationDialect::GpuAutopar)
    return A.Translated;
  return clauseTokens(A.Clauses, Ctx.getSourceManager(), Ctx.getLangOpts());
}

} // namespace

std::optional<DataRegion> analyzeDataRegion(const Annotation &A, const Stmt *Next, SourceLocation NextLoc,
                                            const Decl *Enclosing, ASTContext &Ctx, DiagnosticsEngine &Diags) {
  if (!A.HashLoc.isFileID()) {
    report(Diags, Diag::DirectiveInMacro, A.HashLoc) << directiveName(A);
    return std::nullopt;
  }
  if (!A.TranslationOk)
    return std::nullopt; // an OpenMP/OpenACC clause that does not carry over, diagnosed at it
  std::vector<ClauseToken> Toks = directiveClauses(A, Ctx);
  unsigned Count = 0;
  if (!onlyClauses(Toks, {"map"}, "data", "a data region takes 'map' clauses only", Diags, &Count))
    return std::nullopt;
  if (Count == 0) {
    report(Diags, Diag::DirectiveNeedsClause, endOfDirective(A)) << directiveName(A) << neededClauses(A);
    return std::nullopt;
  }
  std::optional<ParsedClauses> P = parseClauses(Toks, endOfDirective(A), Diags);
  if (!P)
    return std::nullopt;
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Next);
  if (!Body) {
    report(Diags, Diag::DataNotFollowedByBlock, NextLoc.isValid() ? NextLoc : A.EndLoc) << directiveName(A);
    report(Diags, Diag::NoteAnnotationHere, A.HashLoc);
    return std::nullopt;
  }
  auto Sections = resolveSections(
      A, *P, "map", [&](StringRef N) { return lookupVisibleName(N, Body, Enclosing, Ctx); }, Ctx, Diags);
  if (!Sections)
    return std::nullopt;
  return DataRegion{A.HashLoc, A.EndLoc, Body, std::move(*Sections)};
}

// A directive that stands alone in a function body (update, enter data, exit
// data): written as a '#pragma' line, inside a function, and (from OpenMP or
// OpenACC) with every clause translated.
bool standaloneDirectiveOk(const Annotation &A, const Decl *Enclosing, DiagnosticsEngine &Diags) {
  if (!A.HashLoc.isFileID()) {
    report(Diags, Diag::DirectiveInMacro, A.HashLoc) << directiveName(A);
    return false;
  }
  if (!Enclosing) {
    report(Diags, Diag::DirectiveOutsideFunction, A.HashLoc) << directiveName(A);
    return false;
  }
  return A.TranslationOk; // a clause that does not carry over was diagnosed at it
}

std::optional<UpdateDirective> analyzeUpdate(const Annotation &A, const Decl *Enclosing, ASTContext &Ctx,
                                             DiagnosticsEngine &Diags) {
  if (!standaloneDirectiveOk(A, Enclosing, Diags))
    return std::nullopt;
  std::vector<ClauseToken> Toks = directiveClauses(A, Ctx);
  unsigned Count = 0;
  if (!onlyClauses(Toks, {"host", "device"}, "update", "an update takes 'host(...)' or 'device(...)'", Diags,
                   &Count))
    return std::nullopt;
  if (Count == 0) {
    report(Diags, Diag::DirectiveNeedsClause, endOfDirective(A)) << directiveName(A) << neededClauses(A);
    return std::nullopt;
  }
  // Each `host(list)` or `device(list)`, in the order written, is parsed as
  // `map(tofrom: list)`: the same variables and sections, reported at the
  // user's own tokens.
  UpdateDirective U;
  U.HashLoc = A.HashLoc;
  U.EndLoc = A.EndLoc;
  for (size_t I = 0; I < Toks.size();) {
    if (Toks[I].Spelling == ",") {
      ++I;
      continue;
    }
    const bool ToHost = Toks[I].Spelling == "host";
    std::vector<ClauseToken> AsMap{Toks[I]};
    AsMap.back().Spelling = "map";
    int Depth = 0;
    for (++I; I < Toks.size(); ++I) {
      AsMap.push_back(Toks[I]);
      if (Toks[I].Spelling == "(" && Depth++ == 0) {
        AsMap.push_back({"tofrom", Toks[I].Loc, false, false});
        AsMap.push_back({":", Toks[I].Loc, false, false});
      } else if (Toks[I].Spelling == ")" && --Depth == 0) {
        ++I;
        break;
      }
    }
    std::optional<ParsedClauses> P = parseClauses(AsMap, endOfDirective(A), Diags);
    if (!P)
      return std::nullopt;
    auto Sections = resolveSections(
        A, *P, ToHost ? "host" : "device",
        [&](StringRef N) { return lookupVisibleNameAt(N, A.HashLoc, Enclosing, Ctx); }, Ctx, Diags);
    if (!Sections)
      return std::nullopt;
    for (RegionSection &S : *Sections)
      U.Motions.push_back({ToHost, std::move(S)});
  }
  return U;
}

std::optional<UnstructuredData> analyzeUnstructuredData(const Annotation &A, const Decl *Enclosing, ASTContext &Ctx,
                                                        DiagnosticsEngine &Diags) {
  const bool Enter = A.Kind == DirectiveKind::EnterData;
  if (!standaloneDirectiveOk(A, Enclosing, Diags))
    return std::nullopt;
  std::vector<ClauseToken> Toks = directiveClauses(A, Ctx);
  unsigned Count = 0;
  if (Enter ? !onlyClauses(Toks, {"map"}, "enter data", "it takes 'map' clauses only", Diags, &Count)
            : !onlyClauses(Toks, {"map", "finalize"}, "exit data", "it takes 'map' clauses and 'finalize' only",
                           Diags, &Count))
    return std::nullopt;
  // `finalize` (a word at depth 0) is no map: taken out, with a comma
  // before it, before the maps are parsed.
  bool Finalize = false;
  std::vector<ClauseToken> Maps;
  int Depth = 0;
  for (const ClauseToken &T : Toks) {
    if (T.Spelling == "(")
      ++Depth;
    else if (T.Spelling == ")")
      --Depth;
    if (Depth == 0 && T.Spelling == "finalize") {
      Finalize = true;
      --Count;
      if (!Maps.empty() && Maps.back().Spelling == ",")
        Maps.pop_back();
      continue;
    }
    if (T.Spelling == "," && Depth == 0 && Maps.empty())
      continue; // `finalize, map(...)`
    Maps.push_back(T);
  }
  Toks = std::move(Maps);
  if (Count == 0) {
    report(Diags, Diag::DirectiveNeedsClause, endOfDirective(A)) << directiveName(A) << neededClauses(A);
    return std::nullopt;
  }
  std::optional<ParsedClauses> P = parseClauses(Toks, endOfDirective(A), Diags, /*ExitKinds=*/!Enter);
  if (!P)
    return std::nullopt;
  // OpenMP's rule: data enters as `to` or `alloc`, and leaves as `from`,
  // `release` or `delete`.
  for (const ParsedMap &M : P->Maps) {
    const bool Fits = Enter ? (M.Kind == MapKind::To || M.Kind == MapKind::Alloc)
                            : (M.Kind == MapKind::From || M.Kind == MapKind::Release || M.Kind == MapKind::Delete);
    if (!Fits) {
      report(Diags, Diag::MapKindNotAllowedOn, M.Var.Loc)
          << spelling(M.Kind) << M.Var.Name << directiveName(A);
      return std::nullopt;
    }
  }
  auto Sections = resolveSections(
      A, *P, "map", [&](StringRef N) { return lookupVisibleNameAt(N, A.HashLoc, Enclosing, Ctx); }, Ctx, Diags);
  if (!Sections)
    return std::nullopt;
  return UnstructuredData{A.HashLoc, A.EndLoc, Enter, Finalize, std::move(*Sections)};
}

namespace {

// Uses of mapped variables in the region's host code, each as a read or a write.
class HostUses : public DynamicRecursiveASTVisitor {
public:
  struct Use {
    const VarDecl *Var;
    SourceLocation Loc;
    bool Write;
    const Stmt *Loop; // innermost enclosing loop statement inside the region, if any
  };
  HostUses(const DataRegion &R, llvm::ArrayRef<SourceRange> DeviceLoops, ASTContext &Ctx)
      : R(R), DeviceLoops(DeviceLoops), Ctx(Ctx) {}

  bool TraverseUnaryExprOrTypeTraitExpr(UnaryExprOrTypeTraitExpr *) override { return true; } // sizeof: no access
  bool TraverseStmt(Stmt *S) override {
    if (!S)
      return true;
    const SourceManager &SM = Ctx.getSourceManager();
    for (SourceRange D : DeviceLoops)
      if (inside(SM, D, S->getBeginLoc()) && inside(SM, D, S->getEndLoc()))
        return true;
    const bool IsLoop = isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S);
    if (IsLoop)
      Loops.push_back(S);
    bool Result = DynamicRecursiveASTVisitor::TraverseStmt(S);
    if (IsLoop)
      Loops.pop_back();
    return Result;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) override {
    const auto *V = dyn_cast<VarDecl>(E->getDecl());
    if (!V)
      return true;
    for (const RegionSection &S : R.Sections)
      if (S.Var == V) {
        if (!sizeOnly(E))
          Found.push_back({V, E->getLocation(), isWrite(E), Loops.empty() ? nullptr : Loops.back()});
        break;
      }
    return true;
  }
  std::vector<Use> Found;

private:
  const Stmt *parent(const Stmt *S) {
    auto Ps = Ctx.getParents(*S);
    return Ps.empty() ? nullptr : Ps[0].get<Stmt>();
  }
  // `v.size()`, `v.empty()`: the object, not its elements.
  bool sizeOnly(const Expr *E) {
    const Stmt *P = parent(E);
    while (P && isa<ImplicitCastExpr, ParenExpr>(P))
      P = parent(P);
    if (const auto *M = dyn_cast_or_null<MemberExpr>(P))
      return M->getMemberDecl()->getName() == "size" || M->getMemberDecl()->getName() == "empty";
    return false;
  }
  // Whether the element expression around the name is assigned, updated or
  // incremented.
  bool isWrite(const Expr *E) {
    const Stmt *Child = E;
    for (const Stmt *P = parent(E); P; Child = P, P = parent(P)) {
      if (isa<ImplicitCastExpr, ParenExpr, ArraySubscriptExpr, MemberExpr>(P))
        continue;
      if (const auto *U = dyn_cast<UnaryOperator>(P)) {
        if (U->isIncrementDecrementOp())
          return true;
        if (U->getOpcode() == UO_Deref)
          continue;
        return false;
      }
      if (const auto *B = dyn_cast<BinaryOperator>(P))
        return B->isAssignmentOp() && B->getLHS()->IgnoreParenImpCasts() == Child;
      if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(P)) {
        if (Op->getOperator() == OO_Subscript && Op->getArg(0) == Child)
          continue;
        return Op->isAssignmentOp() && Op->getArg(0) == Child;
      }
      return false;
    }
    return false;
  }

  const DataRegion &R;
  llvm::ArrayRef<SourceRange> DeviceLoops;
  ASTContext &Ctx;
  std::vector<const Stmt *> Loops;
};

std::string sectionText(const RegionSection &S) {
  return S.Length.empty() ? std::string() : "[" + S.Lower + ":" + S.Length + "]";
}

} // namespace

void checkHostAccesses(const DataRegion &R, llvm::ArrayRef<SourceRange> DeviceLoops,
                       llvm::ArrayRef<UpdateDirective> Updates, ASTContext &Ctx, DiagnosticsEngine &Diags) {
  const SourceManager &SM = Ctx.getSourceManager();
  const SourceRange Region(R.Body->getBeginLoc(), R.Body->getEndLoc());
  std::vector<SourceRange> Inside;
  for (SourceRange D : DeviceLoops)
    if (inside(SM, Region, D.getBegin()))
      Inside.push_back(D);
  if (Inside.empty())
    return; // no device loop: the host's copy is the only one
  HostUses Uses(R, Inside, Ctx);
  Uses.TraverseStmt(const_cast<CompoundStmt *>(R.Body));
  auto before = [&](SourceLocation A, SourceLocation B) { return SM.isBeforeInTranslationUnit(A, B); };
  // An update of V of the given direction whose '#' lies in (From, To).
  auto updated = [&](const VarDecl *V, bool ToHost, SourceLocation From, SourceLocation To) {
    for (const UpdateDirective &U : Updates)
      if (inside(SM, Region, U.HashLoc) && before(From, U.HashLoc) && before(U.HashLoc, To))
        for (const UpdateDirective::Motion &M : U.Motions)
          if (M.ToHost == ToHost && M.Section.Var == V)
            return true;
    return false;
  };
  std::vector<const VarDecl *> WarnedRead, WarnedWrite;
  for (const HostUses::Use &Use : Uses.Found) {
    // The device loops that run before this use: those earlier in the
    // region, or, in a loop statement holding device loops, those of the
    // previous round.
    SourceLocation After;
    for (SourceRange D : Inside)
      if (before(D.getEnd(), Use.Loc) && (After.isInvalid() || before(After, D.getEnd())))
        After = D.getEnd();
    SourceLocation Upto; // the next device loop after the use
    for (SourceRange D : Inside)
      if (before(Use.Loc, D.getBegin()) && (Upto.isInvalid() || before(D.getBegin(), Upto)))
        Upto = D.getBegin();
    if (Use.Loop) {
      bool Cyclic = false;
      for (SourceRange D : Inside)
        Cyclic = Cyclic || inside(SM, Use.Loop->getSourceRange(), D.getBegin());
      if (Cyclic && After.isInvalid())
        After = Use.Loop->getBeginLoc();
    }
    const RegionSection *Mapped = nullptr;
    for (const RegionSection &S : R.Sections)
      if (S.Var == Use.Var)
        Mapped = &S;
    bool Warn = false;
    if (After.isInvalid())
      continue; // no device loop ran yet: devices hold nothing of it
    if (Use.Write) {
      const SourceLocation End = Upto.isValid() ? Upto : R.Body->getEndLoc();
      Warn = !updated(Use.Var, false, Use.Loc, End) && !llvm::is_contained(WarnedWrite, Use.Var);
      if (Warn) {
        WarnedWrite.push_back(Use.Var);
        report(Diags, Diag::HostWriteInRegion, Use.Loc) << Use.Var->getName() << sectionText(*Mapped);
      }
    } else {
      Warn = !updated(Use.Var, true, After, Use.Loc) && !llvm::is_contained(WarnedRead, Use.Var);
      if (Warn) {
        WarnedRead.push_back(Use.Var);
        report(Diags, Diag::HostReadInRegion, Use.Loc) << Use.Var->getName() << sectionText(*Mapped);
      }
    }
    if (Warn)
      report(Diags, Diag::NoteDataRegion, R.HashLoc) << Use.Var->getName();
  }
}

} // namespace gpuautopar
