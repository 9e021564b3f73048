#include "CSource.h"
#include "gpuautopar/LoopRewriter.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/Lexer.h"
#include "clang/Rewrite/Core/Rewriter.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/MemoryBuffer.h"

namespace gpuautopar {
namespace {

using namespace clang;

bool isCStandard(llvm::StringRef Arg) {
  if (!Arg.consume_front("-std=") && !Arg.consume_front("--std="))
    return false;
  return !Arg.contains("++") && !Arg.starts_with("cuda");
}

bool isCxxStandard(llvm::StringRef Arg) {
  return (Arg.starts_with("-std=") || Arg.starts_with("--std=")) && Arg.contains("++");
}

// Every implicit conversion from `void *` to another object pointer in the
// main file, made an explicit cast, as C++ requires.
class VoidPointerConversions : public RecursiveASTVisitor<VoidPointerConversions> {
public:
  VoidPointerConversions(ASTContext &Ctx, Rewriter &R) : Ctx(Ctx), R(R), Policy(cxxPolicy(Ctx)) {}

  bool VisitImplicitCastExpr(ImplicitCastExpr *E) {
    const Expr *From = E->getSubExpr();
    if (E->getCastKind() != CK_BitCast || !From->getType()->isVoidPointerType() || !E->getType()->isPointerType() ||
        E->getType()->isVoidPointerType())
      return true;
    const SourceManager &SM = Ctx.getSourceManager();
    SourceLocation Begin = From->getBeginLoc(), End = From->getEndLoc();
    if (Begin.isMacroID() || End.isMacroID() || !SM.isInMainFile(Begin))
      return true;
    // A call, a name or a parenthesised expression binds tighter than the
    // cast; anything else is parenthesised.
    const Expr *Bare = From->IgnoreImpCasts();
    const bool Tight = isa<CallExpr, DeclRefExpr, ParenExpr, ArraySubscriptExpr, MemberExpr>(Bare);
    R.InsertTextBefore(Begin, "(" + E->getType().getUnqualifiedType().getAsString(Policy) + ")" + (Tight ? "" : "("));
    if (!Tight)
      R.InsertTextAfterToken(End, ")");
    ++Casts;
    return true;
  }

  unsigned Casts = 0;

private:
  static PrintingPolicy cxxPolicy(ASTContext &Ctx) {
    PrintingPolicy P(Ctx.getLangOpts());
    P.Bool = true;
    return P;
  }
  ASTContext &Ctx;
  Rewriter &R;
  PrintingPolicy Policy;
};

class CastsConsumer : public ASTConsumer {
public:
  explicit CastsConsumer(CxxCompatibleC &Out) : Out(Out) {}
  void HandleTranslationUnit(ASTContext &Ctx) override {
    if (Ctx.getDiagnostics().hasErrorOccurred())
      return; // not C after all (a C++ header): parsed as C++ as it is
    Rewriter R(Ctx.getSourceManager(), Ctx.getLangOpts());
    VoidPointerConversions V(Ctx, R);
    V.TraverseDecl(Ctx.getTranslationUnitDecl());
    const FileID Main = Ctx.getSourceManager().getMainFileID();
    if (const llvm::RewriteBuffer *Buf = R.getRewriteBufferFor(Main); Buf && V.Casts > 0) {
      Out.Text = std::string(Buf->begin(), Buf->end());
      Out.CastsAdded = V.Casts;
    }
  }

private:
  CxxCompatibleC &Out;
};

class CastsAction : public ASTFrontendAction {
public:
  explicit CastsAction(CxxCompatibleC &Out) : Out(Out) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &, llvm::StringRef) override {
    return std::make_unique<CastsConsumer>(Out);
  }

private:
  CxxCompatibleC &Out;
};

class CastsFactory : public tooling::FrontendActionFactory {
public:
  explicit CastsFactory(CxxCompatibleC &Out) : Out(Out) {}
  std::unique_ptr<FrontendAction> create() override { return std::make_unique<CastsAction>(Out); }

private:
  CxxCompatibleC &Out;
};

// Whether the file spells `restrict` outside comments and strings.
bool spellsRestrict(llvm::StringRef Text) {
  LangOptions C;
  C.C99 = true;
  Lexer L(SourceLocation(), C, Text.begin(), Text.begin(), Text.end());
  Token T;
  while (!L.LexFromRawLexer(T))
    if (T.is(tok::raw_identifier) && T.getRawIdentifier() == "restrict")
      return true;
  return T.is(tok::raw_identifier) && T.getRawIdentifier() == "restrict";
}

} // namespace

bool isCSource(llvm::StringRef File) { return File.ends_with(".c") || File.ends_with(".h"); }

CxxCompatibleC cxxCompatibleC(const tooling::CompilationDatabase &Db, const std::string &File,
                              const std::string &ResourceDir) {
  CxxCompatibleC Out;
  auto Buffer = llvm::MemoryBuffer::getFile(File);
  if (!Buffer)
    return Out;
  Out.Text = (*Buffer)->getBuffer().str();
  Out.UsesRestrict = spellsRestrict(Out.Text);
  tooling::ClangTool Tool(Db, {File});
  Tool.appendArgumentsAdjuster(tooling::getClangSyntaxOnlyAdjuster());
  Tool.appendArgumentsAdjuster(tooling::getClangStripOutputAdjuster());
  Tool.appendArgumentsAdjuster([](const tooling::CommandLineArguments &Args, llvm::StringRef) {
    tooling::CommandLineArguments Kept;
    for (const std::string &A : Args)
      if (!isCxxStandard(A))
        Kept.push_back(A);
    return Kept;
  });
  if (!ResourceDir.empty())
    Tool.appendArgumentsAdjuster(tooling::getInsertArgumentAdjuster(("-resource-dir=" + ResourceDir).c_str(),
                                                                    tooling::ArgumentInsertPosition::END));
  IgnoringDiagConsumer Quiet; // the C++ parse that follows reports what is wrong
  Tool.setDiagnosticConsumer(&Quiet);
  Tool.setPrintErrorMessage(false);
  CastsFactory Factory(Out);
  Tool.run(&Factory);
  return Out;
}

tooling::ArgumentsAdjuster parseCAsCxx(llvm::StringRef File) {
  const std::string Language = File.ends_with(".h") ? "c++-header" : "c++";
  return [Language](const tooling::CommandLineArguments &Args, llvm::StringRef) {
    tooling::CommandLineArguments Out;
    bool CxxStandard = false;
    for (size_t I = 0; I < Args.size(); ++I) {
      if (Args[I] == "-x" && I + 1 < Args.size()) {
        ++I; // the language is ours to say
        continue;
      }
      if (I > 0 && Args[I].rfind("-x", 0) == 0 && Args[I].size() > 2)
        continue;
      if (isCStandard(Args[I]))
        continue;
      CxxStandard |= isCxxStandard(Args[I]);
      Out.push_back(Args[I]);
      if (I == 0) {
        Out.push_back("-x");
        Out.push_back(Language);
      }
    }
    if (!CxxStandard)
      Out.push_back("-std=c++17");
    Out.push_back("-Drestrict=__restrict__");
    Out.push_back("-Wno-vla-cxx-extension"); // valid C99, and g++ and nvcc accept it

    return Out;
  };
}

std::string restrictPrologue(llvm::StringRef LineFile) {
  return "#define restrict __restrict__\n#line 1 \"" + quoted(LineFile) + "\"\n";
}

} // namespace gpuautopar
