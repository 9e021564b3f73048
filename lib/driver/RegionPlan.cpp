#include "RegionPlan.h"

#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Rewrite/Core/Rewriter.h"
#include "llvm/ADT/STLExtras.h"

#include <optional>

namespace gpuautopar {
namespace {

using namespace clang;
using Runs = ForeignRegion::Runs;

// "teams distribute parallel for" of "omp teams distribute parallel for".
llvm::StringRef wordsOf(llvm::StringRef Directive) { return Directive.split(' ').second; }

// Whether `S` uses a declaration called `Name`.
bool usesName(const Stmt *S, llvm::StringRef Name) {
  struct Finder : DynamicRecursiveASTVisitor {
    llvm::StringRef Name;
    bool Found = false;
    bool VisitDeclRefExpr(DeclRefExpr *E) override {
      const DeclarationName N = E->getDecl()->getDeclName();
      Found = N.isIdentifier() && N.getAsIdentifierInfo()->getName() == Name;
      return !Found;
    }
  } F;
  F.Name = Name;
  F.TraverseStmt(const_cast<Stmt *>(S));
  return F.Found;
}

const char *everyUnit(AnnotationDialect D, Runs R) {
  switch (R) {
  case Runs::PerThread: return "every thread of the region";
  case Runs::PerTeam: return "every team of the region";
  case Runs::PerGang: return D == AnnotationDialect::OpenACC ? "every gang of the region" : "every gang";
  case Runs::Once: break;
  }
  return "the region";
}

// The loop directive that shares a loop out inside a region of kind `R`.
const char *sharingDirective(AnnotationDialect D, Runs R) {
  if (D == AnnotationDialect::OpenACC)
    return "loop";
  return R == Runs::PerThread ? "for" : "distribute parallel for";
}

class Planner {
public:
  Planner(std::vector<LeftDirective> &Left, std::vector<Annotation> &All,
          const std::function<const Stmt *(SourceLocation)> &Covered, ASTContext &Ctx)
      : Left(Left), All(All), Covered(Covered), SM(Ctx.getSourceManager()) {
    for (const LeftDirective &D : Left) {
      const Stmt *S = D.CoversStatement ? Covered(D.EndLoc) : nullptr;
      Ends.push_back(S ? SM.getExpansionLoc(S->getEndLoc()) : SourceLocation());
    }
  }

  RegionPlan run() {
    RegionPlan Plan;
    std::vector<Annotation> Added;
    for (const Group &G : groups()) {
      std::vector<Child> Children;
      if (std::optional<std::string> Why = refusal(G, Children)) {
        for (size_t M : G.Members)
          Left[M].Why = *Why;
        continue;
      }
      translate(G, Children, Plan, Added);
    }
    All.insert(All.end(), Added.begin(), Added.end());
    llvm::stable_sort(All, [&](const Annotation &X, const Annotation &Y) {
      return SM.isBeforeInTranslationUnit(X.HashLoc, Y.HashLoc);
    });
    return Plan;
  }

private:
  // Region directives of one dialect over one statement (`omp target` then
  // `omp teams` on the next line), in source order.
  struct Group {
    std::vector<size_t> Members; // indices into Left
    const Stmt *S = nullptr;
    AnnotationDialect D;
  };
  // A statement of the region's body: a loop under a loop directive of the
  // region's dialect, or other code (in a `single` or `master` construct:
  // run once by OpenMP too).
  struct Child {
    const Stmt *S;
    Annotation *Loop = nullptr;
    bool Once = false;
  };

  bool before(SourceLocation A, SourceLocation B) const { return SM.isBeforeInTranslationUnit(A, B); }
  unsigned line(SourceLocation L) const { return SM.getPresumedLineNumber(SM.getExpansionLoc(L)); }
  const LeftDirective &first(const Group &G) const { return Left[G.Members.front()]; }

  std::vector<Group> groups() const {
    std::vector<Group> Out;
    for (size_t I = 0; I < Left.size(); ++I) {
      const LeftDirective &D = Left[I];
      if (!D.Region)
        continue;
      const Stmt *S = D.EndLoc.isFileID() ? Covered(D.EndLoc) : nullptr;
      auto Same = llvm::find_if(Out, [&](const Group &G) { return S && G.S == S && G.D == D.Region->Data.Dialect; });
      if (Same != Out.end())
        Same->Members.push_back(I);
      else
        Out.push_back({{I}, S, D.Region->Data.Dialect});
    }
    llvm::stable_sort(Out, [&](const Group &X, const Group &Y) { return before(first(X).HashLoc, first(Y).HashLoc); });
    return Out;
  }

  // The loop directive of dialect `D` whose '#' lies between `From` and `To`.
  Annotation *loopDirectiveBetween(SourceLocation From, SourceLocation To, AnnotationDialect D) const {
    for (Annotation &A : All) {
      SourceLocation H = SM.getExpansionLoc(A.HashLoc);
      if (A.Kind == DirectiveKind::For && A.Dialect == D && before(From, H) && before(H, To))
        return &A;
    }
    return nullptr;
  }

  // A `single`, `master` or `masked` construct whose '#' lies between `From` and `To`.
  bool runOnceBetween(SourceLocation From, SourceLocation To) const {
    return llvm::any_of(Left, [&](const LeftDirective &L) {
      llvm::StringRef W = wordsOf(L.Directive).split(' ').first;
      return (W == "single" || W == "master" || W == "masked") && before(From, L.HashLoc) && before(L.HashLoc, To);
    });
  }

  std::vector<Child> children(const Group &G) const {
    std::vector<Child> Out;
    auto add = [&](const Stmt *C, SourceLocation From) {
      if (isa<NullStmt>(C))
        return;
      SourceLocation To = SM.getExpansionLoc(C->getBeginLoc());
      Out.push_back({C, loopDirectiveBetween(From, To, G.D), runOnceBetween(From, To)});
    };
    if (const auto *Body = dyn_cast<CompoundStmt>(G.S)) {
      SourceLocation From = Body->getLBracLoc();
      for (const Stmt *C : Body->body()) {
        add(C, From);
        From = SM.getExpansionLoc(C->getEndLoc());
      }
    } else {
      add(G.S, first(G).HashLoc);
    }
    return Out;
  }

  // Why the region of `G` stays as written, if it does; otherwise its
  // statements, in `Children`.
  std::optional<std::string> refusal(const Group &G, std::vector<Child> &Children) const {
    const LeftDirective &F = first(G);
    std::string Words;
    for (size_t M : G.Members) {
      if (!Left[M].Region->Problem.empty())
        return Left[M].Region->Problem;
      Words += (Words.empty() ? "" : " ") + Left[M].Region->Words;
    }
    if (!G.S || !F.HashLoc.isFileID())
      return F.Why;
    if (std::optional<std::string> Why = enclosedBy(F.HashLoc))
      return Why;
    std::optional<Runs> R = regionRuns(G.D, Words);
    if (!R)
      return "with the directives after it, its code would run in every thread of every team; gpu-autopar "
             "translates one level of parallelism";
    Children = children(G);
    if (llvm::none_of(Children, [](const Child &C) { return C.Loop; }))
      return F.Why; // it wraps no loop directive
    const char *Model = G.D == AnnotationDialect::OpenMP ? "OpenMP" : "OpenACC";
    for (const Child &C : Children) {
      if (C.Loop && !loopFitsRegion(G.D, *R, wordsOf(C.Loop->Directive)))
        return "the loop directive at line " + std::to_string(line(C.Loop->HashLoc)) + " ('#pragma " +
               C.Loop->Directive + "') would run the whole loop in " + everyUnit(G.D, *R) + "; inside it, use '" +
               sharingDirective(G.D, *R) + "'";
      if (!C.Loop && !C.Once && *R != Runs::Once)
        return "the statement at line " + std::to_string(line(C.S->getBeginLoc())) +
               " is not a loop under a loop directive: " + Model + " runs it in " + everyUnit(G.D, *R) +
               ", and translated loop by loop it would run once; move it out of the region" +
               (*R == Runs::PerThread ? " or into a 'single' construct" : "");
    }
    return std::nullopt;
  }

  // A region inside a construct left as written, or inside an annotated loop.
  std::optional<std::string> enclosedBy(SourceLocation Hash) const {
    for (size_t I = 0; I < Left.size(); ++I)
      if (Ends[I].isValid() && !Left[I].Translated && before(Left[I].HashLoc, Hash) && before(Hash, Ends[I]))
        return "it is inside '#pragma " + Left[I].Directive + "' (line " + std::to_string(line(Left[I].HashLoc)) +
               "), which is left as written";
    for (const Annotation &A : All)
      if (A.Kind == DirectiveKind::For && A.EndLoc.isFileID() && before(A.HashLoc, Hash))
        if (const Stmt *Loop = Covered(A.EndLoc); Loop && before(Hash, Loop->getEndLoc()))
          return "it is inside the annotated loop at line " + std::to_string(line(A.HashLoc)) +
                 ", whose every iteration would run it";
    return std::nullopt;
  }

  // `Loop` takes the region's clauses (and, with `Maps`, its maps).
  void takeClauses(Annotation &Loop, const Stmt *S, const ForeignRegion &R, bool Maps) const {
    std::vector<ClauseToken> Extra =
        regionClausesFor(R, Loop.Translated, [&](llvm::StringRef V) { return usesName(S, V); });
    if (Maps)
      Extra.insert(Extra.end(), R.Data.Translated.begin(), R.Data.Translated.end());
    if (R.Kernels && Loop.LoopIndependence != "independent" && Loop.ProofRequiredBy.empty())
      Loop.ProofRequiredBy = "kernels";
    if (Extra.empty())
      return;
    Loop.Translated.insert(Loop.Translated.end(), Extra.begin(), Extra.end());
    auto Names = std::make_shared<DirectiveNames>(Loop.Names ? *Loop.Names : DirectiveNames{});
    if (R.Data.Names)
      for (const DirectiveNames::Name &N : R.Data.Names->Names)
        if (llvm::none_of(Names->Names, [&](const DirectiveNames::Name &X) { return X.Word == N.Word; }))
          Names->Names.push_back(N);
    Names->LookedUp = Names->LookedUp && R.Data.Names && R.Data.Names->LookedUp;
    Loop.Names = std::move(Names);
  }

  void translate(const Group &G, const std::vector<Child> &Children, RegionPlan &Plan,
                 std::vector<Annotation> &Added) const {
    const bool Block = isa<CompoundStmt>(G.S);
    std::string Lines;
    unsigned Loops = 0;
    bool HostCode = false;
    for (const Child &C : Children) {
      HostCode = HostCode || !C.Loop;
      if (!C.Loop)
        continue;
      for (size_t M : G.Members)
        takeClauses(*C.Loop, C.S, *Left[M].Region, !Block);
      Lines += (Loops++ ? ", " : "") + std::to_string(line(C.Loop->HashLoc));
    }
    // A block's maps: a data region around it, at the first directive that has maps.
    std::optional<size_t> DataAt;
    for (size_t M : G.Members) {
      const Annotation &Data = Left[M].Region->Data;
      if (!Block || Data.Translated.empty())
        continue;
      if (!DataAt) {
        DataAt = M;
        Added.push_back(Data);
      } else {
        Added.back().Translated.insert(Added.back().Translated.end(), Data.Translated.begin(), Data.Translated.end());
      }
    }
    for (size_t M : G.Members) {
      Left[M].Translated = true;
      if (M != DataAt)
        Plan.Erased.push_back({Left[M].HashLoc, Left[M].EndLoc});
      Left[M].Why = !Block ? "the loop directive at line " + Lines + " takes its clauses"
                           : (Loops == 1 ? "its loop directive (line " : "its loop directives (lines ") + Lines +
                                 (Loops == 1 ? ") is" : ") are") + " translated" +
                                 (DataAt ? ", inside a data region of its maps" : "") +
                                 (HostCode ? "; its other code runs once, on the host" : "");
    }
  }

  std::vector<LeftDirective> &Left;
  std::vector<Annotation> &All;
  const std::function<const Stmt *(SourceLocation)> &Covered;
  const SourceManager &SM;
  std::vector<SourceLocation> Ends; // of the statement each of Left covers
};

} // namespace

RegionPlan planRegions(std::vector<LeftDirective> &Left, std::vector<Annotation> &All,
                       const std::function<const Stmt *(SourceLocation)> &Covered, ASTContext &Ctx) {
  return Planner(Left, All, Covered, Ctx).run();
}

void eraseRegionDirectives(const RegionPlan &Plan, Rewriter &R) {
  const SourceManager &SM = R.getSourceMgr();
  for (SourceRange D : Plan.Erased) {
    CharSourceRange Text =
        CharSourceRange::getCharRange(D.getBegin(), Lexer::getLocForEndOfToken(D.getEnd(), 0, SM, R.getLangOpts()));
    // Continuation lines stay lines, so that every later line keeps its number.
    R.ReplaceText(Text, std::string(Lexer::getSourceText(Text, SM, R.getLangOpts()).count('\n'), '\n'));
  }
}

} // namespace gpuautopar
