#include "gpuautopar/Driver.h"
#include "gpuautopar/AnnotationCollector.h"
#include "gpuautopar/CanonicalLoop.h"
#include "gpuautopar/Diagnostics.h"
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
// annotation can find the statement that follows it.
class StatementIndex : public RecursiveASTVisitor<StatementIndex> {
public:
  explicit StatementIndex(const SourceManager &SM) : SM(SM) {}
  bool TraverseDecl(Decl *D) {
    // Only the main file's declarations matter; skipping headers keeps the
    // cost of the walk proportional to the user's file, not to <vector>.
    if (D && !isa<TranslationUnitDecl>(D) && D->getLocation().isValid() &&
        !SM.isInMainFile(SM.getExpansionLoc(D->getLocation())))
      return true;
    return RecursiveASTVisitor::TraverseDecl(D);
  }
  bool VisitStmt(Stmt *S) {
    SourceLocation Loc = S->getBeginLoc();
    if (Loc.isFileID())
      First.emplace(Loc.getRawEncoding(), S); // outermost statement wins: parents are visited first
    return true;
  }
  const Stmt *startingAt(SourceLocation Loc) const {
    auto It = First.find(Loc.getRawEncoding());
    return It == First.end() ? nullptr : It->second;
  }

private:
  const SourceManager &SM;
  std::map<SourceLocation::UIntTy, const Stmt *> First;
};

class Consumer : public ASTConsumer {
public:
  Consumer(CompilerInstance &CI, AnnotationCollector &Annotations, FileResult &Result, OutputNames Names)
      : CI(CI), Annotations(Annotations), Result(Result), Names(std::move(Names)) {}

  void HandleTranslationUnit(ASTContext &Ctx) override {
    SourceManager &SM = Ctx.getSourceManager();
    DiagnosticsEngine &Diags = Ctx.getDiagnostics();
    Rewriter R(SM, Ctx.getLangOpts());
    StatementIndex Index(SM);
    Index.TraverseDecl(Ctx.getTranslationUnitDecl());

    for (const Annotation &A : Annotations.annotations()) {
      std::optional<Token> Next = Lexer::findNextToken(A.EndLoc, SM, Ctx.getLangOpts());
      const Stmt *S = Next ? Index.startingAt(Next->getLocation()) : nullptr;
      const auto *For = dyn_cast_or_null<ForStmt>(S);
      if (!For) {
        report(Diags, Diag::NotFollowedByFor, Next ? Next->getLocation() : A.EndLoc);
        report(Diags, Diag::NoteAnnotationHere, A.HashLoc);
        continue;
      }
      if (!A.Clauses.empty()) {
        report(Diags, Diag::ClausesUnsupported, A.Clauses.front().getLocation());
        continue;
      }
      std::optional<CanonicalLoop> L = recognizeCanonicalLoop(For, Ctx, Diags);
      if (!L)
        continue;
      rewriteLoop(*L, A, Ctx, R, Names);
      ++Result.LoopsRewritten;
    }

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
