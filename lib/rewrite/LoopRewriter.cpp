#include "gpuautopar/LoopRewriter.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Rewrite/Core/Rewriter.h"
#include "gpuautopar/DirectiveLines.h"
#include "gpuautopar/RuntimeCallText.h"
#include "Spelling.h"

#include "clang/AST/ExprCXX.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace gpuautopar {
namespace {

using namespace clang;

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

// The names at `Loc`: where the user's own `#line "name"` is in effect, that
// name (for the runtime's loop site as for the restoring `#line`), so that a
// location never mixes the real file's name with the `#line`'s numbers.
OutputNames namesAt(SourceLocation Loc, const SourceManager &SM, const OutputNames &Names) {
  PresumedLoc Presumed = SM.getPresumedLoc(Loc);
  PresumedLoc Physical = SM.getPresumedLoc(Loc, /*UseLineDirectives=*/false);
  if (Presumed.isInvalid() || Physical.isInvalid() || StringRef(Presumed.getFilename()) == Physical.getFilename())
    return Names;
  return {Presumed.getFilename(), llvm::sys::path::filename(Presumed.getFilename()).str()};
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

// Edits inside the body, where the analysis found them: `continue` of this
// loop becomes `return`; in task mode a kernel launch without a stream gets
// the lease's stream.
void editBody(const LoopAnalysis &A, Rewriter &R) {
  for (const ContinueStmt *S : A.IterationEnds)
    R.ReplaceText(S->getBeginLoc(), /*OrigLength=*/8, "return");
  // A kernel reaches members through their maps' views and copies, never
  // through the object, which stays in host memory: the body names those
  // instead where it spelled the members (`this->u`, `g.n`).
  if (A.Mode == LoopMode::Kernel) {
    auto Respell = [&](const MemberPath &P) {
      for (const MemberExpr *E : P.Spellings)
        R.ReplaceText(CharSourceRange::getTokenRange(E->getSourceRange()), memberBodyName(P));
    };
    for (const ArrayUse &U : A.Arrays)
      if (U.Member) {
        Respell(*U.Member);
        // `d.x(i)` becomes `gpu_autopar_d_m_x[i]`: the subscript as written.
        const std::string Name = memberBodyName(*U.Member);
        for (const CXXMemberCallExpr *C : U.Member->AccessorCalls) {
          const SourceLocation CalleeEnd = C->getCallee()->getEndLoc();
          std::optional<Token> LParen = Lexer::findNextToken(CalleeEnd, R.getSourceMgr(), R.getLangOpts());
          R.ReplaceText(CharSourceRange::getTokenRange(C->getCallee()->getSourceRange()), Name);
          if (LParen && LParen->is(tok::l_paren))
            R.ReplaceText(LParen->getLocation(), 1, "[");
          R.ReplaceText(C->getRParenLoc(), 1, "]");
        }
      }
    for (const MemberPath &P : A.MemberValues)
      Respell(P);
  }
  if (A.Mode != LoopMode::Task)
    return;
  for (const CUDAKernelCallExpr *K : A.KernelLaunches) {
    const CallExpr *Config = K->getConfig();
    unsigned Written = 0;
    for (const Expr *Arg : Config->arguments())
      if (!isa<CXXDefaultArgExpr>(Arg))
        ++Written;
    if (Written == 2)
      R.InsertTextBefore(Config->getRParenLoc(), ", 0, ::gpu_autopar::cuda_stream()");
    else if (Written == 3)
      R.InsertTextBefore(Config->getRParenLoc(), ", ::gpu_autopar::cuda_stream()");
  }
}

std::string printedType(QualType T, const ASTContext &Ctx) {
  PrintingPolicy Policy(Ctx.getLangOpts());
  Policy.SuppressTagKeyword = true;
  return T.getNonReferenceType().getUnqualifiedType().getAsString(Policy);
}

std::string rangeText(SourceLocation Begin, SourceLocation EndToken, const ASTContext &Ctx) {
  return Lexer::getSourceText(CharSourceRange::getTokenRange(Begin, EndToken), Ctx.getSourceManager(),
                              Ctx.getLangOpts())
      .str();
}

// The loop's iteration space and the body's first parameters (one per
// collapsed loop); for a range-based for also the declaration of the loop
// variable from the container.
struct LoopHead {
  std::string Space, Params, Prologue;
  std::string Var; // the (outermost) loop's variable: the one lastprivate copies compare
};

LoopHead loopHead(const CanonicalLoop &L, ASTContext &Ctx) {
  LoopHead H;
  if (L.RangeFor) {
    std::string C = L.RangeContainer->getNameAsString();
    const VarDecl *V = L.RangeFor->getLoopVariable();
    H.Var = "gpu_autopar_k";
    H.Params = "::std::size_t " + H.Var;
    H.Space = "::gpu_autopar::iterations<::std::size_t>(0, ::gpu_autopar::less, ::std::size(" + C + "), 1)";
    H.Prologue = " " + rangeText(V->getBeginLoc(), V->getLocation(), Ctx) + " = " + C + "[" + H.Var + "];";
    return H;
  }
  const std::string Type = printedType(L.Induction->getType(), Ctx);
  H.Var = L.Induction->getNameAsString();
  H.Params = Type + " " + H.Var;
  std::string Step = L.Step ? "(" + sourceText(L.Step, Ctx) + ")" : "1";
  if (L.Decrements)
    Step = "-" + Step;
  H.Space = "::gpu_autopar::iterations<" + Type + ">((" + sourceText(L.Lower, Ctx) + "), " +
            runtimeCompare(L.Compare) + ", (" + sourceText(L.Bound, Ctx) + "), " + Step + ")";
  return H;
}

// collapse(n): one space over the nest, `collapse(iterations_i, iterations_j)`,
// and a parameter per loop, outermost first.
LoopHead nestHead(const LoopAnalysis &A, ASTContext &Ctx, const std::string &Indent) {
  LoopHead H = loopHead(*A.Loop, Ctx);
  if (A.Collapsed.empty())
    return H;
  H.Space = "::gpu_autopar::collapse(" + H.Space;
  for (const CanonicalLoop &Inner : A.Collapsed) {
    LoopHead I = loopHead(Inner, Ctx);
    H.Space += ",\n" + Indent + "        " + I.Space;
    H.Params += ", " + I.Params;
  }
  H.Space += ")";
  return H;
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

void rewriteLoop(const LoopAnalysis &A, ASTContext &Ctx, Rewriter &R, const OutputNames &FileNames) {
  const SourceManager &SM = Ctx.getSourceManager();
  const OutputNames Names = namesAt(A.Pragma.HashLoc, SM, FileNames);
  const CanonicalLoop &L = *A.Loop;
  // With collapse(n) the innermost loop's body becomes the lambda's; the
  // headers and braces of the nest around it go.
  const Stmt *Body = A.Collapsed.empty() ? L.body() : A.Collapsed.back().body();
  const bool Compound = isa<CompoundStmt>(Body);
  const LoopHead H = nestHead(A, Ctx, std::string(SM.getPresumedColumnNumber(L.beginLoc()) - 1, ' '));

  editBody(A, R);

  // What the body starts with: the range-for variable, then one fresh copy
  // per private variable (as OpenMP's private, firstprivate, lastprivate);
  // a collapsed loop's variable is a parameter of the body instead.
  LoopClauses Copied = A.Clauses;
  llvm::erase_if(Copied.Privates, [&](const VarDecl *P) {
    return llvm::any_of(A.Collapsed, [&](const CanonicalLoop &C) { return C.Induction == P; });
  });
  std::string Prologue = H.Prologue + privateCopiesText(Copied, H.Var);
  if (Compound && !Prologue.empty())
    R.InsertTextAfter(cast<CompoundStmt>(Body)->getLBracLoc().getLocWithOffset(1), Prologue);

  // A directive between the header and an unbraced body (a nested
  // annotation: `for (...)` / `#pragma omp parallel for` / `for (...)`)
  // must stay on a line of its own: the call then ends after the header's
  // `)`, and the text up to the body stays as written.
  const CanonicalLoop &Innermost = A.Collapsed.empty() ? L : A.Collapsed.back();
  const SourceLocation RParen = Innermost.Loop ? Innermost.Loop->getRParenLoc() : Innermost.RangeFor->getRParenLoc();
  const SourceLocation AfterHeader = Lexer::getLocForEndOfToken(RParen, 0, SM, Ctx.getLangOpts());
  const StringRef Between = Lexer::getSourceText(CharSourceRange::getCharRange(AfterHeader, Body->getBeginLoc()), SM,
                                                 Ctx.getLangOpts());
  const bool KeepBetween = !Compound && (Between.contains('#') || Between.contains("_Pragma"));

  // The call takes the place of the pragma line and the loop header, indented
  // like the loop was; one argument per line.
  const unsigned Column = SM.getPresumedColumnNumber(L.beginLoc());
  const std::string Indent(Column - 1, ' ');
  const std::string Cont = ",\n" + Indent + "    ";
  // Numbers read through members are copied first, in a block of the call's
  // own, and members mapped through their accessors get their pointers
  // there, taken only when the space has iterations.
  const std::string Pointers = accessorPointers(A, "gpu_autopar_space");
  const std::string Copies = memberValueCopies(A) + (Pointers.empty() ? "" : "const auto gpu_autopar_space = " +
                                                                                 H.Space + "; " + Pointers);
  const std::string Space = Pointers.empty() ? H.Space : "gpu_autopar_space";
  std::string Head = Indent + (Copies.empty() ? "" : "{ " + Copies);
  llvm::raw_string_ostream OS(Head);
  OS << entryPoint(A.Mode) << "(::gpu_autopar::loop_site{\"" << quoted(Names.SiteFile) << "\", "
     << SM.getPresumedLineNumber(A.Pragma.HashLoc) << "}" << Cont << Space << ", " << optionsText(A.Clauses)
     << disjointChecksText(A, Space);
  if (A.Mode == LoopMode::Kernel)
    OS << Cont << dataText(A);
  else if (std::string Produced = producedText(A); !Produced.empty())
    OS << Cont << Produced;
  OS << Cont << reductionsText(A.Clauses) << Cont
     << (A.Mode == LoopMode::Kernel ? "[=] GPU_AUTOPAR_HD (" : "[&" + variableRowsCaptures(A) + "](") << H.Params
     << extraParameters(A, Ctx) << ")" << (Compound ? "" : " {" + Prologue) << "\n";
  if (KeepBetween)
    OS << lineDirective(SM.getPresumedLineNumber(RParen), Names); // the rest of the header's line follows
  else
    OS << lineDirective(SM.getPresumedLineNumber(Body->getBeginLoc()), Names)
       << std::string(SM.getPresumedColumnNumber(Body->getBeginLoc()) - 1, ' ');

  SourceLocation LineStart =
      A.Pragma.HashLoc.getLocWithOffset(1 - int(SM.getPresumedColumnNumber(A.Pragma.HashLoc)));
  // Preprocessor lines between the pragma and the loop (`#else`, the other
  // branch's directive, `#endif`) stay before the call: the #if structure
  // holds, and the output builds with the macro defined and without.
  R.ReplaceText(CharSourceRange::getCharRange(LineStart, KeepBetween ? AfterHeader : Body->getBeginLoc()),
                directiveLinesBetween(A.Pragma.EndLoc, L.beginLoc(), SM).str() + Head);
  SourceLocation End = endOfStatement(Body, Ctx);
  const std::string Close = std::string(Compound ? ");" : " });") + (Copies.empty() ? "" : " }") + "\n";
  if (A.Collapsed.empty()) {
    R.InsertTextAfter(End, Close + lineDirective(SM.getPresumedLineNumber(End), Names));
    return;
  }
  // The closing braces of the nest around the innermost body go with it.
  SourceLocation NestEnd = endOfStatement(L.body(), Ctx);
  R.ReplaceText(CharSourceRange::getCharRange(End, NestEnd),
                Close + lineDirective(SM.getPresumedLineNumber(NestEnd), Names));
}

void addRuntimeInclude(ASTContext &Ctx, Rewriter &R, const OutputNames &Names) {
  const SourceManager &SM = Ctx.getSourceManager();
  // After a UTF-8 byte order mark, which must stay the file's first bytes.
  const unsigned Bom = SM.getBufferData(SM.getMainFileID()).starts_with("\xEF\xBB\xBF") ? 3 : 0;
  R.InsertTextBefore(SM.getLocForStartOfFile(SM.getMainFileID()).getLocWithOffset(Bom),
                     "#include <gpu_autopar/gpu_autopar.h>\n" + lineDirective(1, Names));
}


} // namespace gpuautopar
