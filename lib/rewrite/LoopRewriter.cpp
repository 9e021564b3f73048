#include "gpuautopar/LoopRewriter.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Rewrite/Core/Rewriter.h"
#include "llvm/Support/raw_ostream.h"

namespace gpuautopar {
namespace {

using namespace clang;

// `continue` statements that belong to the annotated loop (not to a loop
// nested in it) end the iteration, which in the outlined body is `return`.
class ContinueFinder : public RecursiveASTVisitor<ContinueFinder> {
public:
  std::vector<const ContinueStmt *> Found;
  bool VisitContinueStmt(ContinueStmt *S) {
    Found.push_back(S);
    return true;
  }
  bool TraverseForStmt(ForStmt *) { return true; }
  bool TraverseWhileStmt(WhileStmt *) { return true; }
  bool TraverseDoStmt(DoStmt *) { return true; }
  bool TraverseCXXForRangeStmt(CXXForRangeStmt *) { return true; }
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
};

const char *runtimeCompare(LoopCompare C) {
  switch (C) {
  case LoopCompare::Less: return "::gpu_autopar::less";
  case LoopCompare::LessEqual: return "::gpu_autopar::less_equal";
  case LoopCompare::Greater: return "::gpu_autopar::greater";
  case LoopCompare::GreaterEqual: return "::gpu_autopar::greater_equal";
  case LoopCompare::NotEqual: return "::gpu_autopar::not_equal";
  }
  return "";
}

std::string lineDirective(unsigned Line, const OutputNames &Names) {
  return "#line " + std::to_string(Line) + " \"" + quoted(Names.LineFile) + "\"\n";
}

std::string sourceText(const Expr *E, ASTContext &Ctx) {
  return Lexer::getSourceText(CharSourceRange::getTokenRange(E->getSourceRange()), Ctx.getSourceManager(),
                              Ctx.getLangOpts())
      .str();
}

// The location just past the statement, including the ';' that ends a
// non-compound statement.
SourceLocation endOfStatement(const Stmt *S, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation End = Lexer::getLocForEndOfToken(S->getEndLoc(), 0, SM, Ctx.getLangOpts());
  if (isa<CompoundStmt>(S))
    return End;
  std::optional<Token> Next = Lexer::findNextToken(S->getEndLoc(), SM, Ctx.getLangOpts());
  if (Next && Next->is(tok::semi))
    return Next->getEndLoc();
  return End;
}

} // namespace

std::string quoted(llvm::StringRef Text) {
  std::string Out;
  for (char C : Text) {
    if (C == '\\' || C == '"')
      Out += '\\';
    Out += C;
  }
  return Out;
}

void rewriteLoop(const CanonicalLoop &L, const Annotation &A, ASTContext &Ctx, Rewriter &R,
                 const OutputNames &Names) {
  const SourceManager &SM = Ctx.getSourceManager();
  const Stmt *Body = L.Loop->getBody();
  const bool Compound = isa<CompoundStmt>(Body);

  QualType T = L.Induction->getType().getNonReferenceType().getUnqualifiedType();
  PrintingPolicy Policy(Ctx.getLangOpts());
  Policy.SuppressTagKeyword = true;
  std::string Type = T.getAsString(Policy);
  std::string Var = L.Induction->getNameAsString();
  std::string Step = L.Step ? "(" + sourceText(L.Step, Ctx) + ")" : "1";
  if (L.Decrements)
    Step = "-" + Step;

  // The call takes the place of the pragma line and the loop header, indented
  // like the loop was.
  std::string Head(SM.getPresumedColumnNumber(L.Loop->getBeginLoc()) - 1, ' ');
  llvm::raw_string_ostream OS(Head);
  OS << "::gpu_autopar::for_loop(::gpu_autopar::loop_site{\"" << quoted(Names.SiteFile) << "\", "
     << SM.getPresumedLineNumber(A.HashLoc) << "}, ::gpu_autopar::iterations<" << Type << ">(("
     << sourceText(L.Lower, Ctx) << "), " << runtimeCompare(L.Compare) << ", (" << sourceText(L.Bound, Ctx)
     << "), " << Step << "), [&](" << Type << " " << Var << ")" << (Compound ? "" : " {") << "\n"
     << lineDirective(SM.getPresumedLineNumber(Body->getBeginLoc()), Names)
     << std::string(SM.getPresumedColumnNumber(Body->getBeginLoc()) - 1, ' ');

  for (const ContinueStmt *C : [&] {
         ContinueFinder F;
         F.TraverseStmt(const_cast<Stmt *>(Body));
         return F.Found;
       }())
    R.ReplaceText(C->getBeginLoc(), /*OrigLength=*/8, "return");

  SourceLocation LineStart = A.HashLoc.getLocWithOffset(1 - int(SM.getPresumedColumnNumber(A.HashLoc)));
  R.ReplaceText(CharSourceRange::getCharRange(LineStart, Body->getBeginLoc()), Head);
  SourceLocation End = endOfStatement(Body, Ctx);
  R.InsertTextAfter(End, std::string(Compound ? ");" : " });") + "\n" +
                             lineDirective(SM.getPresumedLineNumber(End), Names));
}

void addRuntimeInclude(ASTContext &Ctx, Rewriter &R, const OutputNames &Names) {
  const SourceManager &SM = Ctx.getSourceManager();
  R.InsertTextBefore(SM.getLocForStartOfFile(SM.getMainFileID()),
                     "#include <gpu_autopar/gpu_autopar.h>\n" + lineDirective(1, Names));
}

void rewriteLoop(const LoopAnalysis &A, ASTContext &Ctx, Rewriter &R, const OutputNames &Names) {
  rewriteLoop(*A.Loop, A.Pragma, Ctx, R, Names);
}

} // namespace gpuautopar
