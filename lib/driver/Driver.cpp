#include "gpuautopar/Driver.h"
#include "CSource.h"
#include "DiagnosticRecorder.h"
#include "LeftAsWritten.h"
#include "NestedCounters.h"
#include "PragmaWatch.h"
#include "RegionPlan.h"
#include "StatementIndex.h"
#include "Spelling.h"
#include "gpuautopar/AnnotationCollector.h"
#include "gpuautopar/ClauseParser.h"
#include "gpuautopar/DataRegionRewriter.h"
#include "gpuautopar/DirectiveScope.h"
#include "gpuautopar/Diagnostics.h"
#include "gpuautopar/DirectiveLines.h"
#include "gpuautopar/ForeignPragmas.h"
#include "gpuautopar/LoopAnalyzer.h"
#include "gpuautopar/DeviceMarks.h"
#include "gpuautopar/LoopRewriter.h"
#include "gpuautopar/RuntimeCallText.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Basic/LangStandard.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Rewrite/Core/Rewriter.h"
#include "clang/Sema/SemaConsumer.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/Path.h"

#include <cstring>
#include <map>

namespace gpuautopar {
namespace {

using namespace clang;

// Where an annotation is in the user's file. A `_Pragma` that a macro carries
// is placed at the macro's use; the loop then follows the use.
struct Placement {
  Annotation A;           // HashLoc moved to the use of the macro, if any
  SourceLocation After;   // the token the loop follows
  std::string Macro;      // the macro used at HashLoc; empty for a plain #pragma or _Pragma
};

Placement placement(const Annotation &Written, const SourceManager &SM, const LangOptions &LO) {
  Placement P{Written, Written.EndLoc, ""};
  if (!Written.HashLoc.isMacroID())
    return P;
  for (SourceLocation L = Written.HashLoc; L.isMacroID(); L = SM.getImmediateMacroCallerLoc(L))
    P.Macro = Lexer::getImmediateMacroName(L, SM, LO).str();
  CharSourceRange Use = SM.getExpansionRange(Written.HashLoc);
  P.A.HashLoc = Use.getBegin();
  P.After = Use.getEnd();
  return P;
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
  // The maps as the rewritten call passes them; the section is the map's
  // arguments after the variable (`affine(1, 0, 1)`, `(0), (n), whole()`).
  for (const ArrayUse &U : A.Arrays)
    Out.Maps.push_back(
        {objectCode(U), spelling(U.Kind), spellMapArguments(A, U, RuntimeNames::Bare), mapText(A, U)});
  // The checks in the order the rewritten call makes them.
  for (const RuntimeCheck *C : checksInOrder(A)) {
    if (const auto *M = std::get_if<DisjointMaps>(C))
      Out.AliasChecks.push_back({objectName(A.Arrays[M->Written]), objectName(A.Arrays[M->Other])});
    else if (const auto *O = std::get_if<DisjointObjects>(C))
      Out.AliasChecks.push_back({O->Written.Name, O->Other.Name});
    else if (const auto *W = std::get_if<WithinDimensions>(C))
      Out.BoundsChecks.push_back({W->Name, spell(W->Condition, SpellFor::User)});
  }
  if (A.Verdict.Decided)
    Out.Verdict = spelling(A.Verdict.K);
  Out.Witness = A.Verdict.Witness;
}

// The inserted text ends its lines with '\n'; in a file whose every line
// ends with "\r\n" the output does the same.
std::string withLineEndingsOf(llvm::StringRef Original, llvm::StringRef Rewritten) {
  const size_t Lines = Original.count('\n');
  if (Lines == 0 || Original.count("\r\n") != Lines)
    return Rewritten.str();
  std::string Out;
  Out.reserve(Rewritten.size() + Rewritten.size() / 16);
  for (size_t I = 0; I < Rewritten.size(); ++I) {
    if (Rewritten[I] == '\n' && (I == 0 || Rewritten[I - 1] != '\r'))
      Out += '\r';
    Out += Rewritten[I];
  }
  return Out;
}

// Code that uses OpenMP's API or `_OPENMP`: under --accept=omp it is parsed,
// and its rewritten file built, as an OpenMP build sees it, with OpenMP's
// API from runtime/include/gpu_autopar/openmp.h (docs/migration.md).
bool mentionsOpenMP(llvm::StringRef Text) {
  return Text.contains("_OPENMP") || Text.contains("<omp.h>") || Text.contains("\"omp.h\"");
}

// The first lines of such a file as the tool writes it. The rewritten file is
// built against the runtime, whose headers are always found. A converted file
// is the user's source from now on: gpu-autopar parses it (the runtime's
// headers last in its search path) and its build compiles the rewrite, both
// with `_OPENMP` and this API, as the conversion was analysed; a build of it
// without gpu-autopar's headers (or a C build, which cannot use them) sees it
// as the original's serial build did.
bool includesOpenMPHeader(llvm::StringRef Text) {
  llvm::SmallVector<llvm::StringRef> Lines;
  Text.split(Lines, '\n');
  for (llvm::StringRef Line : Lines)
    if (Line.trim().starts_with("#include <gpu_autopar/openmp.h>"))
      return true;
  return false;
}

const char *openMPInclude(bool Convert) {
  if (!Convert)
    return "#include <gpu_autopar/openmp.h>\n";
  return "#if defined(__cplusplus) && __has_include(<gpu_autopar/openmp.h>) // added by gpu-autopar --convert\n"
         "#include <gpu_autopar/openmp.h> // _OPENMP and OpenMP's API where the build has no OpenMP\n"
         "#endif\n";
}

// The OpenMP and OpenACC handlers of one file (--accept), owned here because
// the parser hands their namespaces back without deleting them.
struct ForeignHandlers {
  std::vector<std::unique_ptr<ForeignPragmaHandler>> Handlers;
  bool OpenMP = false; // --accept=omp
  unsigned errorsReported() const {
    unsigned N = 0;
    for (const auto &H : Handlers)
      N += H->errorsReported();
    return N;
  }
  std::vector<LeftDirective> leftAsWritten() const {
    std::vector<LeftDirective> All;
    for (const auto &H : Handlers)
      All.insert(All.end(), H->leftAsWritten().begin(), H->leftAsWritten().end());
    return All;
  }
};

class Consumer : public SemaConsumer {
public:
  Consumer(CompilerInstance &CI, AnnotationCollector &Annotations, ForeignHandlers &Foreign, DirectiveScope &Scope,
           FileResult &Result, OutputNames Names, AnalysisOptions Analysis, bool Convert, bool Rewrite,
           bool PrintRemarks)
      : CI(CI), Annotations(Annotations), Foreign(Foreign), Scope(Scope), Result(Result), Names(std::move(Names)),
        Analysis(Analysis), Convert(Convert), Rewrite(Rewrite), PrintRemarks(PrintRemarks) {}

  // The parser exists now and has installed its own OpenMP/OpenACC handlers;
  // directives' names are looked up in its scopes from here on.
  void InitializeSema(Sema &S) override {
    Scope.setSema(S);
    for (const auto &H : Foreign.Handlers)
      H->install(CI.getPreprocessor());
  }

  bool HandleTopLevelDecl(DeclGroupRef Group) override {
    const SourceManager &SM = CI.getSourceManager();
    for (Decl *D : Group)
      if (D->getLocation().isValid() && SM.isInMainFile(SM.getExpansionLoc(D->getLocation())))
        MainFileDecls.push_back(D);
    return true;
  }

  void HandleTranslationUnit(ASTContext &Ctx) override {
    Scope.parsed();
    SourceManager &SM = Ctx.getSourceManager();
    DiagnosticsEngine &Diags = Ctx.getDiagnostics();
    Rewriter R(SM, Ctx.getLangOpts());
    // Everything that walks the AST from here on (the statement index, parent
    // lookups of the analyses) sees only the main file's declarations: the
    // cost of analysis then follows the user's file, not <vector> or <cuda.h>.
    std::vector<Annotation> All = Annotations.annotations();
    for (const auto &H : Foreign.Handlers)
      All.insert(All.end(), H->annotations().begin(), H->annotations().end());
    llvm::stable_sort(All, [&](const Annotation &X, const Annotation &Y) {
      return SM.isBeforeInTranslationUnit(X.HashLoc, Y.HashLoc);
    });
    if (!All.empty())
      Ctx.setTraversalScope(MainFileDecls);
    StatementIndex Index(SM);
    Index.TraverseDecl(Ctx.getTranslationUnitDecl());

    // Diagnostics of each loop are also its reasons in --report.
    DiagnosticRecorder Recorder(*Diags.getClient(), PrintRemarks);
    const bool OwnedClient = Diags.ownsClient();
    std::unique_ptr<DiagnosticConsumer> Owned = Diags.takeClient();
    DiagnosticConsumer *Printer = Diags.getClient();
    Diags.setClient(&Recorder, /*ShouldOwnClient=*/false);

    // After the compiler's own errors the AST around a loop may be missing or
    // partial: analysing it would add guesses to real errors. The file is
    // rejected anyway; the report says why its loops were not analysed.
    const bool CompileErrors = Diags.getNumErrors() > Annotations.errorsReported() + Foreign.errorsReported();
    // The rewritten loops use the runtime's C++17 headers: an older standard
    // is an error here, at the first annotation, not deep in those headers.
    // Converted directives need nothing of the runtime.
    const bool OldStandard = !Convert && !All.empty() && !Ctx.getLangOpts().CPlusPlus17;
    if (OldStandard && !CompileErrors)
      report(Diags, Diag::NeedsCxx17, All.front().HashLoc)
          << LangStandard::getLangStandardForKind(Ctx.getLangOpts().LangStd).getName();
    // OpenMP/OpenACC constructs not translated stay as written, and so do
    // the directives inside them; each is reported where it stands.
    // Regions that only wrap loops are translated loop by loop (RegionPlan.h).
    auto Covered = [&](SourceLocation End) -> const Stmt * {
      return End.isFileID() ? Index.firstAfter(End).S : nullptr;
    };
    std::vector<LeftDirective> LeftList = Foreign.leftAsWritten();
    const RegionPlan Plan = planRegions(LeftList, All, Covered, Ctx);
    // Loops under their own OpenMP/OpenACC loop directive (NestedCounters.h).
    std::vector<const Stmt *> DirectedLoops;
    for (const Annotation &A : All)
      if (A.Kind == DirectiveKind::For && A.Dialect != AnnotationDialect::GpuAutopar)
        if (const Stmt *S = Covered(A.EndLoc))
          DirectedLoops.push_back(S);
    for (const LeftDirective &D : LeftList)
      if (namesLoopDirective(D.Directive))
        if (const Stmt *S = Covered(D.EndLoc))
          DirectedLoops.push_back(S);
    LeftAsWritten Left(std::move(LeftList), SM, [&](const LeftDirective &D) { return Covered(D.EndLoc); });
    for (const Annotation &Directive : All) {
      Annotation Written = Directive;
      if (Written.Kind == DirectiveKind::For)
        privatizeNestedCounters(Written, Covered(Written.EndLoc), DirectedLoops, SM);
      Left.reportBefore(Written.HashLoc, Diags, Recorder, Result.Loops);
      if (Left.leaveIfInside(Written, Diags, Recorder, Result.Loops))
        continue;
      // --convert changes OpenMP and OpenACC directives only.
      if (Written.Kind != DirectiveKind::For) {
        // An OpenMP/OpenACC data directive has its own entry in the report,
        // as every other directive of those dialects does (a region's maps
        // are the region's).
        std::optional<LoopReport> Data;
        if (Written.Dialect != AnnotationDialect::GpuAutopar &&
            (llvm::StringRef(Written.Directive).ends_with(" data") ||
             llvm::StringRef(Written.Directive).ends_with(" update"))) {
          Data.emplace();
          Data->At = placeOf(Written.HashLoc, SM);
          Data->Directive = Written.Directive;
          Data->Data = true;
        }
        if (!CompileErrors && !OldStandard) {
          Recorder.recordInto(Data ? &Data->Reasons : nullptr);
          const bool Translated = handleDirective(Written, Index, Ctx, R);
          Recorder.recordInto(nullptr);
          if (Data)
            Data->Accepted = Translated;
        } else if (Data) {
          Data->Reasons.push_back({"error",
                                   CompileErrors ? "not analysed: the file has compile errors"
                                                 : "not analysed: the file is not compiled as C++17 or later",
                                   Data->At});
        }
        if (Data)
          Result.Loops.push_back(std::move(*Data));
        continue;
      }
      Placement P = placement(Written, SM, Ctx.getLangOpts());
      LoopReport Report;
      Report.At = placeOf(P.A.HashLoc, SM);
      if (CompileErrors || OldStandard) {
        Report.Reasons.push_back({"error",
                                  CompileErrors ? "not analysed: the file has compile errors"
                                                : "not analysed: the file is not compiled as C++17 or later",
                                  Report.At});
      } else {
        Recorder.recordInto(&Report.Reasons);
        handleAnnotation(Written, P, Index, Ctx, R, Report);
        Recorder.recordInto(nullptr);
      }
      Result.Loops.push_back(std::move(Report));
    }
    Left.reportBefore(SourceLocation(), Diags, Recorder, Result.Loops);
    if (Rewrite && !CompileErrors && !OldStandard) {
      eraseRegionDirectives(Plan, R);
      ErasedDirectives = Plan.Erased.size();
    }

    // Host code of each region, now that every annotated loop is known.
    std::vector<SourceRange> DeviceLoops(RewrittenLoops.begin(), RewrittenLoops.end());
    for (const DataRegion &Region : Regions)
      checkHostAccesses(Region, DeviceLoops, Updates, Ctx, Diags);

    Diags.setClient(Owned ? Owned.release() : Printer, OwnedClient);
    keepOutput(Ctx, R);
  }

private:
  // The file as the tool writes it: the original where nothing was rewritten.
  void keepOutput(ASTContext &Ctx, Rewriter &R) {
    const FileID Main = Ctx.getSourceManager().getMainFileID();
    Result.Original = Ctx.getSourceManager().getBufferData(Main).str();
    if (Rewrite &&
        (Result.LoopsRewritten > 0 || !Regions.empty() || !Updates.empty() || UnstructuredDirectives > 0 ||
         ErasedDirectives > 0)) {
      if (!Convert)
        addRuntimeInclude(Ctx, R, Names);
      if (Foreign.OpenMP && mentionsOpenMP(Result.Original) &&
          !includesOpenMPHeader(Result.Original)) {
        const SourceManager &SM = Ctx.getSourceManager();
        const unsigned Bom = Result.Original.rfind("\xEF\xBB\xBF", 0) == 0 ? 3 : 0;
        R.InsertTextBefore(SM.getLocForStartOfFile(Main).getLocWithOffset(Bom), openMPInclude(Convert));
      }
      const llvm::RewriteBuffer *Buf = R.getRewriteBufferFor(Main);
      Result.Rewritten = Buf ? withLineEndingsOf(Result.Original, std::string(Buf->begin(), Buf->end()))
                             : Result.Original;
    } else {
      Result.Rewritten = Result.Original;
    }
  }

  // `data` and `update` directives (DataRegion.h): checked, then rewritten.
  // True when the directive checks out (and is rewritten or converted).
  bool handleDirective(const Annotation &A, const StatementIndex &Index, ASTContext &Ctx, Rewriter &R) {
    SourceManager &SM = Ctx.getSourceManager();
    DiagnosticsEngine &Diags = Ctx.getDiagnostics();
    // --convert rewrites an OpenMP/OpenACC directive that checks out into
    // its gpu_autopar spelling, and leaves gpu_autopar's own as they are.
    const bool Foreign = A.Dialect != AnnotationDialect::GpuAutopar;
    if (A.Kind == DirectiveKind::EnterData || A.Kind == DirectiveKind::ExitData) {
      if (auto U = analyzeUnstructuredData(A, functionAt(A.HashLoc, Ctx), Ctx, Diags)) {
        if (!Convert && Rewrite)
          rewriteUnstructuredData(*U, Ctx, R, Names);
        else if (Foreign)
          replaceDirective(A, "", R, Diags);
        ++UnstructuredDirectives;
        return true;
      }
      return false;
    }
    if (A.Kind == DirectiveKind::Update) {
      if (auto U = analyzeUpdate(A, functionAt(A.HashLoc, Ctx), Ctx, Diags)) {
        if (!Convert && Rewrite)
          rewriteUpdate(*U, Ctx, R);
        else if (Foreign)
          replaceDirective(A, "", R, Diags);
        Updates.push_back(std::move(*U));
        return true;
      }
      return false;
    }
    // Past other directives: `omp target map(...)` then `omp teams` over one block.
    std::optional<Token> Next = nextTokenPastDirectives(A.EndLoc, SM, Ctx.getLangOpts());
    StatementIndex::Entry E = Next ? Index.startingAt(Next->getLocation()) : StatementIndex::Entry{};
    if (auto Region = analyzeDataRegion(A, E.S, Next ? Next->getLocation() : SourceLocation(), E.Enclosing, Ctx,
                                        Diags)) {
      if (!Convert && Rewrite)
        rewriteDataRegion(*Region, Ctx, R, Names);
      else if (Foreign)
        replaceDirective(A, "", R, Diags);
      Regions.push_back(std::move(*Region));
      return true;
    }
    return false;
  }

  void handleAnnotation(const Annotation &Written, const Placement &P, const StatementIndex &Index, ASTContext &Ctx,
                        Rewriter &R, LoopReport &Report) {
    SourceManager &SM = Ctx.getSourceManager();
    DiagnosticsEngine &Diags = Ctx.getDiagnostics();
    // Inside a loop already rewritten: that loop's iterations are the
    // parallel ones; this loop stays serial in each. The directive becomes a
    // comment so that the output, run through the tool again, stays as it is.
    // Rewritten loops do not overlap and come in source order, as the
    // annotations do: only the last ones can still hold this one.
    for (auto It = RewrittenLoops.rbegin(); It != RewrittenLoops.rend(); ++It) {
      const SourceRange &Outer = *It;
      if (SM.isBeforeInTranslationUnit(Outer.getEnd(), P.A.HashLoc))
        break;
      if (SM.isBeforeInTranslationUnit(Outer.getBegin(), P.A.HashLoc) &&
          SM.isBeforeInTranslationUnit(P.A.HashLoc, Outer.getEnd()) && P.A.Directive == "omp simd") {
        report(Diags, Diag::ForeignDirectiveLeft, P.A.HashLoc) << P.A.Directive << innerSimdReason();
        Report.Left = true; // the compiler's vectorisation hint, in the loop's body
        return;
      }
      if (SM.isBeforeInTranslationUnit(Outer.getBegin(), P.A.HashLoc) &&
          SM.isBeforeInTranslationUnit(P.A.HashLoc, Outer.getEnd())) {
        report(Diags, Diag::NestedAnnotation, P.A.HashLoc)
            << SM.getPresumedLineNumber(Outer.getBegin()) << P.A.Directive;
        report(Diags, Diag::NoteOuterLoop, Outer.getBegin());
        // An OpenMP or OpenACC directive shows as its conversion, so that the
        // converted file rewrites to the same text as the original does.
        const bool Foreign = P.A.Dialect != AnnotationDialect::GpuAutopar;
        if (Convert) {
          if (Foreign && replaceDirective(Written, "", R, Diags))
            ++Result.LoopsRewritten;
        } else if (Foreign) {
          replaceDirective(Written, NestedComment, R, Diags);
        } else if (P.Macro.empty() && P.A.HashLoc.isFileID()) {
          R.InsertTextBefore(P.A.HashLoc, NestedComment);
        }
        Report.Ignored = true;
        return;
      }
    }
    // `PAR(for (...) body)`: the loop is inside the macro's expansion, where
    // no rewrite can reach it.
    if (!P.Macro.empty())
      if (const Stmt *Inside = Index.fromMacroAt(P.A.HashLoc); Inside && isa<ForStmt, CXXForRangeStmt>(Inside)) {
        report(Diags, Diag::LoopInsideMacro, P.A.HashLoc) << P.Macro;
        return;
      }
    std::optional<Token> Next = nextTokenPastDirectives(P.After, SM, Ctx.getLangOpts());
    StatementIndex::Entry E = Next ? Index.startingAt(Next->getLocation()) : StatementIndex::Entry{};
    LoopAnalysis L =
        analyzeLoop(P.A, E.S, Next ? Next->getLocation() : SourceLocation(), E.Enclosing, Ctx, Diags, Analysis);
    if (L.Accepted && Convert) {
      // Annotations inside stay as written: nested ones, here and when the
      // converted file is rewritten. An OpenACC loop that runs sequentially
      // (kernels or auto, not proven) keeps its directive: gpu_autopar's
      // annotation would promise what OpenACC's does not, and the converted
      // file, rewritten without --accept, runs the loop as written.
      RewrittenLoops.push_back({P.A.HashLoc, E.S->getEndLoc()});
      if (P.A.Dialect != AnnotationDialect::GpuAutopar && L.SerialReason.empty() &&
          replaceDirective(Written, "", R, Diags, L.Loop->Induction ? L.Loop->Induction->getName() : ""))
        ++Result.LoopsRewritten;
      else if (Written.ProofRequiredBy == "kernels" && Written.DirectiveLoc.isFileID())
        R.InsertTextBefore(Written.DirectiveLoc, "kernels "); // its `kernels` region is gone from the output
    } else if (L.Accepted) {
      if (Rewrite) {
        rewriteLoop(L, Ctx, R, Names);
        Marks.mark(L, Ctx, R);
      }
      ++Result.LoopsRewritten;
      RewrittenLoops.push_back({P.A.HashLoc, E.S->getEndLoc()});
    }
    describe(L, SM, Report);
  }

  // --convert: an OpenMP/OpenACC directive, from its '#' to its last token,
  // becomes `Prefix` and `#pragma gpu_autopar for ...`. One written by a
  // macro cannot be edited: an error under --convert, where the converted file
  // would lose it; a nested one under --accept alone stays as it is.
  bool replaceDirective(const Annotation &A, llvm::StringRef Prefix, Rewriter &R, DiagnosticsEngine &Diags,
                        llvm::StringRef LoopVariable = "") {
    const SourceManager &SM = R.getSourceMgr();
    if (!A.HashLoc.isFileID() || !A.EndLoc.isFileID()) {
      if (Convert)
        report(Diags, Diag::ForeignFromMacro, A.HashLoc) << A.Directive;
      return false;
    }
    SourceLocation End = Lexer::getLocForEndOfToken(A.EndLoc, 0, SM, R.getLangOpts());
    CharSourceRange Range = CharSourceRange::getCharRange(A.HashLoc, End);
    // A directive continued over several lines keeps its line count, so that
    // every later line keeps its number (and the loops their sites).
    std::string Text = Prefix.str() + convertedPragma(A, LoopVariable);
    for (char C : Lexer::getSourceText(Range, SM, R.getLangOpts()))
      if (C == '\n')
        Text += " \\\n";
    R.ReplaceText(Range, Text);
    return true;
  }

  static constexpr const char *NestedComment = "// (nested, runs serially) ";

  CompilerInstance &CI;
  std::vector<SourceRange> RewrittenLoops; // annotation to end of loop, for nested annotations
  std::vector<DataRegion> Regions;
  std::vector<UpdateDirective> Updates;
  unsigned UnstructuredDirectives = 0; // enter data, exit data
  size_t ErasedDirectives = 0;         // of regions translated loop by loop
  AnnotationCollector &Annotations;
  DirectiveScope &Scope;
  ForeignHandlers &Foreign;
  FileResult &Result;
  OutputNames Names;
  AnalysisOptions Analysis;
  bool Convert;
  bool Rewrite; // false under --check: the edits would be thrown away
  bool PrintRemarks; // false under --no-remarks: they go to --report only
  DeviceMarks Marks;  // kernel-mode loops' callees marked so far in this file
  std::vector<Decl *> MainFileDecls;
};

class Action : public ASTFrontendAction {
public:
  Action(FileResult &Result, std::string GivenName, const DriverOptions &Opts)
      : Result(Result), GivenName(std::move(GivenName)), Opts(Opts) {}

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI, StringRef) override {
    Result.Parsed = true;
    auto *Collector = new AnnotationCollector(&Scope);
    CI.getPreprocessor().AddPragmaHandler(Collector); // the preprocessor owns it
    CI.getPreprocessor().addPPCallbacks(std::make_unique<PragmaWatch>(CI.getPreprocessor()));
    Foreign.OpenMP = Opts.AcceptOpenMP;
    if (Opts.AcceptOpenMP)
      Foreign.Handlers.push_back(std::make_unique<ForeignPragmaHandler>(AnnotationDialect::OpenMP, &Scope));
    if (Opts.AcceptOpenACC)
      Foreign.Handlers.push_back(std::make_unique<ForeignPragmaHandler>(AnnotationDialect::OpenACC, &Scope));
    OutputNames Names{GivenName, llvm::sys::path::filename(GivenName).str()};
    return std::make_unique<Consumer>(CI, *Collector, Foreign, Scope, Result, std::move(Names), AnalysisOptions{Opts.Strict, Opts.ExactShortcuts},
                                      Opts.Convert, !Opts.AnalyseOnly, Opts.PrintRemarks);
  }

  void EndSourceFileAction() override {
    Result.HasErrors = getCompilerInstance().getDiagnostics().hasErrorOccurred();
  }

private:
  FileResult &Result;
  std::string GivenName;
  const DriverOptions &Opts;
  ForeignHandlers Foreign;
  DirectiveScope Scope;
};

class ActionFactory : public tooling::FrontendActionFactory {
public:
  ActionFactory(FileResult &Result, std::string GivenName, const DriverOptions &Opts)
      : Result(Result), GivenName(std::move(GivenName)), Opts(Opts) {}
  std::unique_ptr<FrontendAction> create() override { return std::make_unique<Action>(Result, GivenName, Opts); }

private:
  FileResult &Result;
  std::string GivenName;
  const DriverOptions &Opts;
};

bool isCudaSource(llvm::StringRef File) { return File.ends_with(".cu") || File.ends_with(".cuh"); }

} // namespace

FileResult processFile(const tooling::CompilationDatabase &Db, const std::string &File, const DriverOptions &Opts) {
  FileResult Result;
  // A C source is parsed, and written, as C++ (CSource.h).
  const bool C = isCSource(File);
  CxxCompatibleC Compat;
  if (C)
    Compat = cxxCompatibleC(Db, File, Opts.ResourceDir);
  tooling::ClangTool Tool(Db, {File});
  if (C) {
    Tool.appendArgumentsAdjuster(parseCAsCxx(File));
    if (Compat.CastsAdded > 0)
      Tool.mapVirtualFile(File, Compat.Text);
  }
  Tool.appendArgumentsAdjuster(tooling::getClangSyntaxOnlyAdjuster());
  Tool.appendArgumentsAdjuster(tooling::getClangStripOutputAdjuster());
  if (!Opts.ResourceDir.empty())
    Tool.appendArgumentsAdjuster(tooling::getInsertArgumentAdjuster(
        ("-resource-dir=" + Opts.ResourceDir).c_str(), tooling::ArgumentInsertPosition::END));
  // The runtime's headers, last in the search path, so that the tool's own
  // output (which includes <gpu_autopar/gpu_autopar.h>) parses without -I.
  for (const std::string &Dir : Opts.RuntimeIncludeDirs)
    Tool.appendArgumentsAdjuster(
        tooling::getInsertArgumentAdjuster({"-idirafter", Dir}, tooling::ArgumentInsertPosition::END));
  // `#include <omp.h>` finds OpenMP's API there when no compiler's omp.h is
  // found first; under --accept=omp, code that uses it or `_OPENMP` is parsed
  // with `_OPENMP` defined and that API, as the rewritten file is built.
  for (const std::string &Dir : Opts.RuntimeIncludeDirs)
    Tool.appendArgumentsAdjuster(tooling::getInsertArgumentAdjuster({"-idirafter", Dir + "/gpu_autopar/openmp"},
                                                                    tooling::ArgumentInsertPosition::END));
  if (Opts.AcceptOpenMP && !Opts.RuntimeIncludeDirs.empty())
    if (auto Buffer = llvm::MemoryBuffer::getFile(File); Buffer && mentionsOpenMP((*Buffer)->getBuffer()))
      Tool.appendArgumentsAdjuster(tooling::getInsertArgumentAdjuster(
          {"-include", "gpu_autopar/openmp.h"},
          tooling::ArgumentInsertPosition::END));
  if (isCudaSource(File))
    Tool.appendArgumentsAdjuster(
        tooling::getInsertArgumentAdjuster("--cuda-host-only", tooling::ArgumentInsertPosition::END));
  // One printer for the compiler driver's diagnostics (bad flags after `--`)
  // and the front end's, so that an error from either rejects the file.
  // ClangTool's own "Error while processing" line adds nothing to them.
  DiagnosticOptions PrinterOptions;
  PrinterOptions.ShowColors = llvm::errs().has_colors();
  TextDiagnosticPrinter Printer(llvm::errs(), PrinterOptions);
  Tool.setDiagnosticConsumer(&Printer);
  Tool.setPrintErrorMessage(false);
  ActionFactory Factory(Result, File, Opts);
  int Status = Tool.run(&Factory);
  if (Status != 0 || Printer.getNumErrors() > 0)
    Result.HasErrors = true;
  if (C && Result.Parsed) {
    if (auto Buffer = llvm::MemoryBuffer::getFile(File))
      Result.Original = (*Buffer)->getBuffer().str(); // not the text with the casts
    if (Compat.UsesRestrict && !Opts.Convert && !llvm::StringRef(Result.Rewritten).starts_with("#define restrict "))
      Result.Rewritten = restrictPrologue(File) + Result.Rewritten;
  }
  return Result;
}

} // namespace gpuautopar
