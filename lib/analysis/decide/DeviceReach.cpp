// Walking the visible callees of a kernel-mode body (DeviceReach.h).
#include "decide/DeviceReach.h"
#include "decide/ConstructsFound.h"
#include "decide/ModeCauses.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"

namespace gpuautopar {
namespace {

using namespace clang;

// Deeper than this the walk stops, as CallEffects' does.
constexpr unsigned MaxDepth = 24;

std::string calleeName(const FunctionDecl *F, const SourceManager &SM) {
  if (const auto *M = dyn_cast<CXXMethodDecl>(F); M && M->getParent()->isLambda())
    return "lambda at line " + std::to_string(SM.getPresumedLineNumber(M->getParent()->getLocation()));
  return F->getNameAsString();
}

// `F`'s declaration says GPU_AUTOPAR_HD between the start of its line and
// its name (`GPU_AUTOPAR_HD inline double f(`), or its line follows one that
// ends with the mark (`template <class T> GPU_AUTOPAR_HD` above the rest).
bool declarationMarked(const FunctionDecl *F, const SourceManager &SM, const LangOptions &LO) {
  SourceLocation Begin = F->getInnerLocStart(), Name = F->getLocation();
  if (const auto *M = dyn_cast<CXXMethodDecl>(F); M && M->getParent()->isLambda()) {
    Begin = M->getParent()->getLocation(); // `[`: the mark follows the introducer
    Name = M->getBody() ? M->getBody()->getBeginLoc() : Begin;
  }
  Begin = SM.getExpansionLoc(Begin);
  Name = SM.getExpansionLoc(Name);
  const FileID File = SM.getFileID(Begin);
  if (SM.getFileID(Name) != File || SM.isBeforeInTranslationUnit(Name, Begin))
    return false;
  const unsigned Line = SM.getSpellingLineNumber(Begin);
  auto text = [&](SourceLocation From, SourceLocation To) {
    return Lexer::getSourceText(CharSourceRange::getCharRange(From, To), SM, LO);
  };
  const SourceLocation LineStart = SM.translateLineCol(File, Line, 1);
  if (text(LineStart, Name).contains("GPU_AUTOPAR_HD"))
    return true;
  return Line > 1 && text(SM.translateLineCol(File, Line - 1, 1), LineStart).rtrim().ends_with("GPU_AUTOPAR_HD");
}

// The directive word of the first `#pragma gpu_autopar|omp|acc` (or
// `_Pragma("...")`) in `F`'s body: the rewrite may turn it into a call of
// the runtime, which is GPU work, not device code. Empty: none.
std::string directiveIn(const FunctionDecl *F, const SourceManager &SM, const LangOptions &LO) {
  const Stmt *Body = F->getBody();
  if (!Body)
    return "";
  const CharSourceRange Range =
      CharSourceRange::getTokenRange(SM.getExpansionLoc(Body->getBeginLoc()), SM.getExpansionLoc(Body->getEndLoc()));
  static const llvm::Regex Directive(
      "(#[ \t]*pragma|_Pragma[ \t]*\\([ \t]*\"[ \t]*)[ \t]*(gpu_autopar|omp|acc)([^A-Za-z0-9_]|$)",
      llvm::Regex::Newline);
  llvm::SmallVector<StringRef, 4> Match;
  if (!Directive.match(Lexer::getSourceText(Range, SM, LO), &Match))
    return "";
  return Match[2].str();
}

} // namespace

bool markedDeviceCallable(const FunctionDecl *F, const ASTContext &Ctx) {
  if (const FunctionDecl *P = F->getTemplateInstantiationPattern())
    F = P;
  for (const FunctionDecl *R : F->redecls())
    if (declarationMarked(R, Ctx.getSourceManager(), Ctx.getLangOpts()))
      return true;
  return false;
}

bool DeviceReach::follows(const FunctionDecl *F) {
  const FunctionDecl *Def = F->getDefinition();
  if (!Def || !Def->hasBody() || Def->isImplicit())
    return false;
  return !F->getASTContext().getSourceManager().isInSystemHeader(Def->getLocation());
}

const DeviceReach::Verdict &DeviceReach::of(const FunctionDecl *F) {
  const FunctionDecl *Def = F->getDefinition();
  auto [It, New] = Done.try_emplace(Def);
  if (!New) {
    // Null: a walk of Def is under way, so this is recursion, which nvcc
    // compiles for the device; the walk under way decides.
    static const Verdict Recursion;
    return It->second ? *It->second : Recursion;
  }
  Verdict V;
  if (Depth >= MaxDepth) {
    V.K = Verdict::HostOnly;
    V.Callee = calleeName(Def, Ctx.getSourceManager());
    V.Text = "calls functions more than " + std::to_string(MaxDepth) + " deep, which the analysis does not follow";
    V.Loc = Def->getLocation();
  } else {
    ++Depth;
    V = walk(Def);
    --Depth;
  }
  auto &Slot = Done[Def]; // the walk may have grown the map
  Slot = std::make_unique<Verdict>(std::move(V));
  return *Slot;
}

DeviceReach::Verdict DeviceReach::walk(const FunctionDecl *Def) {
  const SourceManager &SM = Ctx.getSourceManager();
  Verdict V;
  const std::string Name = calleeName(Def, SM);
  auto refuse = [&](std::string Text, SourceLocation Loc) {
    V.K = Verdict::HostOnly;
    V.Callee = Name;
    V.Text = std::move(Text);
    V.Loc = Loc;
    return V;
  };
  const bool Marked = markedDeviceCallable(Def, Ctx);
  // The rewrite changes the file it is given, not the headers it includes:
  // an unmarked callee there would stay a host function under nvcc.
  const SourceLocation DefLoc = SM.getExpansionLoc(Def->getLocation());
  if (!Marked && !SM.isWrittenInMainFile(DefLoc))
    return refuse("is defined in '" + llvm::sys::path::filename(SM.getFilename(DefLoc)).str() +
                      "', which the rewrite does not change; declare it GPU_AUTOPAR_HD there "
                      "(<gpu_autopar/hd.h>) to run the loop on a GPU",
                  Def->getLocation());
  // An annotated loop inside (nested loops) runs through the runtime: the
  // loop that calls it is a task, as for any GPU work.
  if (std::string Word = directiveIn(Def, SM, Ctx.getLangOpts()); !Word.empty()) {
    V.K = Verdict::GpuWork;
    V.Text = "holds a '#pragma " + Word + "' loop, which runs through the runtime";
    return V;
  }
  for (const ParmVarDecl *P : Def->parameters())
    if (ownsHostMemory(P->getType()))
      return refuse("takes '" + P->getNameAsString() + "' as a '" + P->getType().getAsString() +
                        "', which a kernel's view of mapped data is not",
                    P->getLocation());

  const ConstructsFound Walk = constructsIn(Def);
  ModeCauses Inner(Ctx, *this, /*InCallee=*/true);
  for (const BodyModel::Construct &C : Walk.Constructs)
    Inner.judge(C);
  for (const Cause &C : Walk.Members)
    Inner.HostOnly.push_back(C);
  if (!Inner.GpuWork.empty()) {
    V.K = Verdict::GpuWork;
    V.Text = Inner.GpuWork.front().Text;
    return V;
  }
  if (!Inner.HostOnly.empty()) {
    const Cause &C = Inner.HostOnly.front();
    if (!C.NoteCallee.empty()) { // deeper: the callee where it is
      V.K = Verdict::HostOnly;
      V.Callee = C.NoteCallee;
      V.Text = C.NoteText;
      V.Loc = C.NoteLoc;
      return V;
    }
    return refuse(C.Text, C.Loc);
  }
  V.Callees.assign(Inner.DeviceCallees.begin(), Inner.DeviceCallees.end());
  if (!Marked)
    V.Callees.push_back(Def);
  return V;
}

} // namespace gpuautopar
