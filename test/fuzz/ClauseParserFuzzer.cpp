// libFuzzer target for the clause parser of `#pragma gpu_autopar for`: any
// byte string, lexed as the rest of a pragma line, must be parsed or rejected
// with a diagnostic, never crash, hang or read out of bounds (built with ASan).
#include "gpuautopar/ClauseParser.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstddef>
#include <cstdint>

using namespace clang;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  // One engine for the whole run: custom diagnostic IDs are interned in it.
  static IntrusiveRefCntPtr<DiagnosticIDs> IDs(new DiagnosticIDs());
  static DiagnosticOptions DiagOpts;
  static IgnoringDiagConsumer Ignore;
  DiagnosticsEngine Diags(IDs, DiagOpts, &Ignore, /*ShouldOwnClient=*/false);
  FileSystemOptions FSOpts;
  FileManager Files(FSOpts);
  SourceManager SM(Diags, Files);
  FileID Main = SM.createFileID(
      llvm::MemoryBuffer::getMemBufferCopy(llvm::StringRef(reinterpret_cast<const char *>(Data), Size), "fuzz"));
  SM.setMainFileID(Main);
  Diags.setSourceManager(&SM);

  LangOptions LangOpts;
  LangOpts.CPlusPlus = LangOpts.CPlusPlus11 = LangOpts.CPlusPlus14 = LangOpts.CPlusPlus17 = 1;
  Lexer Lex(Main, SM.getBufferOrFake(Main), SM, LangOpts);
  std::vector<gpuautopar::ClauseToken> Tokens;
  Token T;
  while (Tokens.size() < 4096 && !Lex.LexFromRawLexer(T)) {
    if (T.is(tok::comment))
      continue;
    Tokens.push_back({Lexer::getSpelling(T, SM, LangOpts), T.getLocation(), T.hasLeadingSpace(),
                      T.is(tok::numeric_constant)});
  }
  std::optional<gpuautopar::ParsedClauses> P = gpuautopar::parseClauses(Tokens, SM.getLocForEndOfFile(Main), Diags);
  // Whatever was parsed must be printable: spelling() covers every enumerator.
  if (P) {
    for (const gpuautopar::ParsedReduction &R : P->Reductions)
      (void)gpuautopar::spelling(R.Op);
    for (const gpuautopar::ParsedMap &M : P->Maps)
      (void)gpuautopar::spelling(M.Kind);
    if (P->Mode)
      (void)gpuautopar::spelling(*P->Mode);
  }
  return 0;
}
