#include "gpuautopar/Driver.h"
#include "DiagnosticRecorder.h"
#include "gpuautopar/AnnotationCollector.h"
#include "gpuautopar/ClauseParser.h"
#include "gpuautopar/Diagnostics.h"
#include "gpuautopar/LoopAnalyzer.h"
#include "gpuautopar/LoopRewriter.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Rewrite/Core/Rewriter.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/Path.h"

#include <map>

namespace gpuautopar {
namespace {

using namespace clang;

// Statements of the main file indexed by where they begin, so that each
// annotation can find the statement that follows it, with the function (or
// lambda) whose body holds the statement, where clause names are looked up.
class StatementIndex : public RecursiveASTVisitor<StatementIndex> {
public:
  struct Entry {
    const Stmt *S = nullptr;
    const Decl *Enclosing = nullptr;
  };
  explicit StatementIndex(const SourceManager &SM) : SM(SM) {}
  bool TraverseDecl(Decl *D) {
    // Only the main file's declarations matter; skipping headers keeps the
    // cost of the walk proportional to the user's file, not to <vector>.
    if (D && !isa<TranslationUnitDecl>(D) && D->getLocation().isValid() &&
        !SM.isInMainFile(SM.getExpansionLoc(D->getLocation())))
      return true;
    const Decl *Saved = Enclosing;
    if (D && isa<FunctionDecl>(D))
      Enclosing = D;
    bool R = RecursiveASTVisitor::TraverseDecl(D);
    Enclosing = Saved;
    return R;
  }
  bool TraverseLambdaExpr(LambdaExpr *E) {
    const Decl *Saved = Enclosing;
    Enclosing = E->getCallOperator();
    bool R = RecursiveASTVisitor::TraverseLambdaExpr(E);
    Enclosing = Saved;
    return R;
  }
  bool VisitStmt(Stmt *S) {
    SourceLocation Loc = S->getBeginLoc();
    if (Loc.isFileID())
      First.emplace(Loc.getRawEncoding(), Entry{S, Enclosing}); // outermost statement wins: parents come first
    return true;
  }
  Entry startingAt(SourceLocation Loc) const {
    auto It = First.find(Loc.getRawEncoding());
    return It == First.end() ? Entry{} : It->second;
  }

private:
  const SourceManager &SM;
  const Decl *Enclosing = nullptr;
  std::map<SourceLocation::UIntTy, Entry> First;
};

LoopReport::Place placeOf(SourceLocation Loc, const SourceManager &SM) {
  PresumedLoc P = SM.getPresumedLoc(Loc);
  if (P.isInvalid())
    return {};
  return {P.getFilename(), P.getLine(), P.getColumn()};
}

std::string name(const VarDecl *V) { return V ? V->getNameAsString() : std::string(); }

// The report's view of an analysed loop; reasons from diagnostics are added
// while the loop is analysed.
void describe(const LoopAnalysis &A, const SourceManager &SM, LoopReport &Out) {
  Out.Accepted = A.Accepted;
  if (A.Loop && !A.Reasons.empty())
    Out.Mode = spelling(A.Mode);
  for (const LoopAnalysis::Reason &R : A.Reasons)
    Out.Reasons.push_back({"mode", R.Text, placeOf(R.Loc, SM)});
  for (const VarDecl *V : A.Reads)
    Out.Reads.push_back(name(V));
  for (const VarDecl *V : A.Writes)
    Out.Writes.push_back(name(V));
  for (const VarDecl *V : A.Clauses.Privates)
    Out.Privates.push_back(name(V));
  for (const ReductionClause &R : A.Clauses.Reductions)
    Out.Reductions.push_back({spelling(R.Op), name(R.Var)});
  for (const ArrayUse &U : A.Arrays) {
    LoopReport::Map M;
    M.Var = name(U.Var);
    M.Kind = U.Read && U.Written ? "tofrom" : U.Written ? "from" : "to";
    M.Section = U.Section ? "affine(" + U.Section->Scale + ", " + U.Section->Offset + ", " + U.Section->Extent + ")"
                          : "whole";
    for (const MapClause &C : A.Clauses.Maps)
      if (C.Var == U.Var) {
        M.Kind = spelling(C.Kind);
        if (!C.Length.empty())
          M.Section = C.Lower + ":" + C.Length;
      }
    Out.Maps.push_back(std::move(M));
  }
}

class Consumer : public ASTConsumer {
public:
  Consumer(CompilerInstance &CI, AnnotationCollector &Annotations, FileResult &Result, OutputNames Names)
      : CI(CI), Annotations(Annotations), Result(Result), Names(std::move(Names)) {}

  bool HandleTopLevelDecl(DeclGroupRef Group) override {
    const SourceManager &SM = CI.getSourceManager();
    for (Decl *D : Group)
      if (D->getLocation().isValid() && SM.isInMainFile(SM.getExpansionLoc(D->getLocation())))
        MainFileDecls.push_back(D);
    return true;
  }

  void HandleTranslationUnit(ASTContext &Ctx) override {
    SourceManager &SM = Ctx.getSourceManager();
    DiagnosticsEngine &Diags = Ctx.getDiagnostics();
    Rewriter R(SM, Ctx.getLangOpts());
    // Everything that walks the AST from here on (the statement index, parent
    // lookups of the analyses) sees only the main file's declarations: the
    // cost of analysis then follows the user's file, not <vector> or <cuda.h>.
    if (!Annotations.annotations().empty())
      Ctx.setTraversalScope(MainFileDecls);
    StatementIndex Index(SM);
    Index.TraverseDecl(Ctx.getTranslationUnitDecl());

    // Diagnostics of each loop are also its reasons in --report.
    DiagnosticRecorder Recorder(*Diags.getClient());
    const bool OwnedClient = Diags.ownsClient();
    std::unique_ptr<DiagnosticConsumer> Owned = Diags.takeClient();
    DiagnosticConsumer *Printer = Diags.getClient();
    Diags.setClient(&Recorder, /*ShouldOwnClient=*/false);

    // After the compiler's own errors the AST around a loop may be missing or
    // partial: analysing it would add guesses to real errors. The file is
    // rejected anyway; the report says why its loops were not analysed.
    const bool CompileErrors = Diags.getNumErrors() > Annotations.errorsReported();
    for (const Annotation &A : Annotations.annotations()) {
      if (CompileErrors) {
        LoopReport Report;
        Report.At = placeOf(A.HashLoc, SM);
        Report.Reasons.push_back({"error", "not analysed: the file has compile errors", Report.At});
        Result.Loops.push_back(std::move(Report));
        continue;
      }
      std::optional<Token> Next = Lexer::findNextToken(A.EndLoc, SM, Ctx.getLangOpts());
      StatementIndex::Entry E = Next ? Index.startingAt(Next->getLocation()) : StatementIndex::Entry{};
      LoopReport Report;
      Report.At = placeOf(A.HashLoc, SM);
      Recorder.recordInto(&Report.Reasons);
      LoopAnalysis L =
          analyzeLoop(A, E.S, Next ? Next->getLocation() : SourceLocation(), E.Enclosing, Ctx, Diags);
      if (L.Accepted) {
        rewriteLoop(L, Ctx, R, Names);
        ++Result.LoopsRewritten;
      }
      Recorder.recordInto(nullptr);
      describe(L, SM, Report);
      Result.Loops.push_back(std::move(Report));
    }

    Diags.setClient(Owned ? Owned.release() : Printer, OwnedClient);

    FileID Main = SM.getMainFileID();
    Result.Original = SM.getBufferData(Main).str();
    if (Result.LoopsRewritten > 0) {
      addRuntimeInclude(Ctx, R, Names);
      const llvm::RewriteBuffer *Buf = R.getRewriteBufferFor(Main);
      Result.Rewritten = Buf ? std::string(Buf->begin(), Buf->end()) : Result.Original;
    } else {
      Result.Rewritten = Result.Original;
    }
  }

private:
  CompilerInstance &CI;
  AnnotationCollector &Annotations;
  FileResult &Result;
  OutputNames Names;
  std::vector<Decl *> MainFileDecls;
};

class Action : public ASTFrontendAction {
public:
  Action(FileResult &Result, std::string GivenName) : Result(Result), GivenName(std::move(GivenName)) {}

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI, StringRef) override {
    Result.Parsed = true;
    auto *Collector = new AnnotationCollector();
    CI.getPreprocessor().AddPragmaHandler(Collector); // the preprocessor owns it
    OutputNames Names{GivenName, llvm::sys::path::filename(GivenName).str()};
    return std::make_unique<Consumer>(CI, *Collector, Result, std::move(Names));
  }

  void EndSourceFileAction() override {
    Result.HasErrors = getCompilerInstance().getDiagnostics().hasErrorOccurred();
  }

private:
  FileResult &Result;
  std::string GivenName;
};

class ActionFactory : public tooling::FrontendActionFactory {
public:
  ActionFactory(FileResult &Result, std::string GivenName) : Result(Result), GivenName(std::move(GivenName)) {}
  std::unique_ptr<FrontendAction> create() override { return std::make_unique<Action>(Result, GivenName); }

private:
  FileResult &Result;
  std::string GivenName;
};

bool isCudaSource(llvm::StringRef File) { return File.ends_with(".cu") || File.ends_with(".cuh"); }

} // namespace

FileResult processFile(const tooling::CompilationDatabase &Db, const std::string &File, const DriverOptions &Opts) {
  FileResult Result;
  setStrictDiagnostics(Opts.Strict);
  tooling::ClangTool Tool(Db, {File});
  Tool.appendArgumentsAdjuster(tooling::getClangSyntaxOnlyAdjuster());
  Tool.appendArgumentsAdjuster(tooling::getClangStripOutputAdjuster());
  if (!Opts.ResourceDir.empty())
    Tool.appendArgumentsAdjuster(tooling::getInsertArgumentAdjuster(
        ("-resource-dir=" + Opts.ResourceDir).c_str(), tooling::ArgumentInsertPosition::END));
  if (isCudaSource(File))
    Tool.appendArgumentsAdjuster(
        tooling::getInsertArgumentAdjuster("--cuda-host-only", tooling::ArgumentInsertPosition::END));
  ActionFactory Factory(Result, File);
  int Status = Tool.run(&Factory);
  if (Status != 0)
    Result.HasErrors = true;
  return Result;
}

} // namespace gpuautopar
