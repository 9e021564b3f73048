#include "gpuautopar/DataRegionRewriter.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Rewrite/Core/Rewriter.h"

#include "llvm/Support/Path.h"

namespace gpuautopar {
namespace {

using namespace clang;

const char *kindText(MapKind K) {
  switch (K) {
  case MapKind::To: return "::gpu_autopar::map_kind::to";
  case MapKind::From: return "::gpu_autopar::map_kind::from";
  case MapKind::ToFrom: return "::gpu_autopar::map_kind::tofrom";
  case MapKind::Alloc: return "::gpu_autopar::map_kind::alloc";
  }
  return "";
}

// `v, (lo), (len)` or `v` for the whole object.
std::string objectAndRange(const RegionSection &S) {
  std::string T = S.Var->getNameAsString();
  if (!S.Length.empty())
    T += ", (" + (S.Lower.empty() ? std::string("0") : S.Lower) + "), (" + S.Length + ")";
  return T;
}

// The directive's text, from its '#' to the end of its last token.
CharSourceRange directive(SourceLocation Hash, SourceLocation Last, ASTContext &Ctx) {
  return CharSourceRange::getCharRange(
      Hash, Lexer::getLocForEndOfToken(Last, 0, Ctx.getSourceManager(), Ctx.getLangOpts()));
}

} // namespace

void rewriteDataRegion(const DataRegion &R, ASTContext &Ctx, Rewriter &Rw, const OutputNames &Names) {
  const SourceManager &SM = Ctx.getSourceManager();
  const unsigned Line = SM.getPresumedLineNumber(R.HashLoc);
  std::string Decl = "{ ::gpu_autopar::data_region gpu_autopar_data_" + std::to_string(Line) +
                     "(::gpu_autopar::loop_site{\"" + quoted(Names.SiteFile) + "\", " + std::to_string(Line) +
                     "}, {";
  for (size_t I = 0; I < R.Sections.size(); ++I)
    Decl += std::string(I ? ", " : "") + "::gpu_autopar::section(" + kindText(R.Sections[I].Kind) + ", " +
            objectAndRange(R.Sections[I]) + ")";
  Decl += "});";
  // The pragma's line becomes the opening of a block that holds the region
  // object and the user's block; the region ends with that outer block.
  Rw.ReplaceText(directive(R.HashLoc, R.EndLoc, Ctx), Decl);
  Rw.InsertTextAfterToken(R.Body->getRBracLoc(), "}");
}

void rewriteUpdate(const UpdateDirective &U, ASTContext &Ctx, Rewriter &Rw) {
  std::string Calls;
  for (const UpdateDirective::Motion &M : U.Motions)
    Calls += std::string(Calls.empty() ? "" : " ") +
             (M.ToHost ? "::gpu_autopar::update_host(" : "::gpu_autopar::update_device(") +
             objectAndRange(M.Section) + ");";
  Rw.ReplaceText(directive(U.HashLoc, U.EndLoc, Ctx), Calls);
}

} // namespace gpuautopar
