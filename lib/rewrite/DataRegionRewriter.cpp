#include "gpuautopar/DataRegionRewriter.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Rewrite/Core/Rewriter.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Path.h"

namespace gpuautopar {
namespace {

using namespace clang;

const char *kindText(MapKind K) {
  switch (K) {
  case MapKind::To: return "::gpu_autopar::map_kind::to";
  case MapKind::From: return "::gpu_autopar::map_kind::from";
  case MapKind::ToFrom: return "::gpu_autopar::map_kind::tofrom";
  case MapKind::Alloc:
  case MapKind::Release: return "::gpu_autopar::map_kind::alloc"; // exit_data: freed without copying
  case MapKind::Delete: break; // delete_data's sections, whose kind says nothing
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

// The section as the program names it, a string literal for the runtime's
// errors: `"v[lo:len]"` or `"v"`.
std::string sectionName(const RegionSection &S) {
  std::string T = S.Var->getNameAsString();
  if (!S.Length.empty())
    T += "[" + (S.Lower.empty() ? std::string("0") : S.Lower) + ":" + S.Length + "]";
  return "\"" + quoted(T) + "\"";
}

// The directive's text, from its '#' to the end of its last token.
CharSourceRange directive(SourceLocation Hash, SourceLocation Last, ASTContext &Ctx) {
  return CharSourceRange::getCharRange(
      Hash, Lexer::getLocForEndOfToken(Last, 0, Ctx.getSourceManager(), Ctx.getLangOpts()));
}

} // namespace

// `::gpu_autopar::loop_site{"f.cpp", 12}`.
std::string site(SourceLocation Hash, const SourceManager &SM, const OutputNames &Names) {
  return "::gpu_autopar::loop_site{\"" + quoted(Names.SiteFile) + "\", " +
         std::to_string(SM.getPresumedLineNumber(Hash)) + "}";
}

// `{::gpu_autopar::section(kind, v, (lo), (len)), ...}`, for the sections
// that `Keep` selects.
template <class Pred> std::string sections(llvm::ArrayRef<RegionSection> Sections, Pred Keep) {
  std::string T = "{";
  for (const RegionSection &S : Sections)
    if (Keep(S))
      T += std::string(T.size() > 1 ? ", " : "") + "::gpu_autopar::section(" +
           (S.Kind == MapKind::Delete ? kindText(MapKind::Alloc) : kindText(S.Kind)) + ", " + objectAndRange(S) +
           ", " + sectionName(S) + ")";
  return T + "}";
}

void rewriteDataRegion(const DataRegion &R, ASTContext &Ctx, Rewriter &Rw, const OutputNames &Names) {
  const SourceManager &SM = Ctx.getSourceManager();
  const unsigned Line = SM.getPresumedLineNumber(R.HashLoc);
  std::string Decl = "{ ::gpu_autopar::data_region gpu_autopar_data_" + std::to_string(Line) + "(" +
                     site(R.HashLoc, SM, Names) + ", " +
                     sections(R.Sections, [](const RegionSection &) { return true; }) + ");";
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

void rewriteUnstructuredData(const UnstructuredData &U, ASTContext &Ctx, Rewriter &Rw, const OutputNames &Names) {
  const std::string Site = site(U.HashLoc, Ctx.getSourceManager(), Names);
  auto deleted = [](const RegionSection &S) { return S.Kind == MapKind::Delete; };
  std::string Calls;
  if (U.Enter) {
    Calls = "::gpu_autopar::enter_data(" + Site + ", " + sections(U.Sections, [](const RegionSection &) {
              return true;
            }) + ");";
  } else {
    if (!llvm::all_of(U.Sections, deleted))
      Calls = "::gpu_autopar::exit_data(" + Site + ", " +
              sections(U.Sections, [&](const RegionSection &S) { return !deleted(S); }) +
              (U.Finalize ? ", ::gpu_autopar::finalize);" : ");");
    if (llvm::any_of(U.Sections, deleted))
      Calls += std::string(Calls.empty() ? "" : " ") + "::gpu_autopar::delete_data(" + Site + ", " +
               sections(U.Sections, deleted) + ");";
  }
  Rw.ReplaceText(directive(U.HashLoc, U.EndLoc, Ctx), Calls);
}

} // namespace gpuautopar
