#include "gpuautopar/DirectiveLines.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

namespace gpuautopar {

using namespace clang;

std::optional<Token> nextTokenPastDirectives(SourceLocation Loc, const SourceManager &SM, const LangOptions &LO) {
  if (!Loc.isFileID())
    return Lexer::findNextToken(Loc, SM, LO);
  SourceLocation After = Lexer::getLocForEndOfToken(Loc, 0, SM, LO);
  if (After.isInvalid())
    return std::nullopt;
  auto [File, Offset] = SM.getDecomposedLoc(After);
  bool Invalid = false;
  llvm::StringRef Buffer = SM.getBufferData(File, &Invalid);
  if (Invalid)
    return std::nullopt;
  // One raw lexer over the rest of the file: it knows which tokens start a
  // line (a backslash-newline continues the line it ends).
  Lexer Raw(SM.getLocForStartOfFile(File), LO, Buffer.begin(), Buffer.begin() + Offset, Buffer.end());
  Token Tok;
  Raw.LexFromRawLexer(Tok);
  while (Tok.is(tok::hash) && Tok.isAtStartOfLine())
    do
      Raw.LexFromRawLexer(Tok);
    while (Tok.isNot(tok::eof) && !Tok.isAtStartOfLine());
  if (Tok.is(tok::eof))
    return std::nullopt;
  return Tok;
}

llvm::StringRef directiveLinesBetween(SourceLocation From, SourceLocation To, const SourceManager &SM) {
  if (!From.isFileID() || !To.isFileID() || SM.getFileID(From) != SM.getFileID(To))
    return {};
  bool Invalid = false;
  llvm::StringRef Buffer = SM.getBufferData(SM.getFileID(From), &Invalid);
  if (Invalid)
    return {};
  const size_t FromEnd = Buffer.find('\n', SM.getFileOffset(From));
  const size_t ToLine = Buffer.rfind('\n', SM.getFileOffset(To));
  if (FromEnd == llvm::StringRef::npos || ToLine == llvm::StringRef::npos || ToLine <= FromEnd)
    return {};
  llvm::StringRef Lines = Buffer.slice(FromEnd + 1, ToLine + 1);
  llvm::SmallVector<llvm::StringRef, 8> Each;
  Lines.split(Each, '\n');
  for (llvm::StringRef Line : Each)
    if (Line.ltrim(" \t").starts_with("#"))
      return Lines;
  return {};
}

} // namespace gpuautopar
