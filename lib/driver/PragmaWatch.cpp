#include "PragmaWatch.h"
#include "gpuautopar/Diagnostics.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Preprocessor.h"

#include <cctype>

namespace gpuautopar {
namespace {

using namespace clang;

// The pragma's namespace as written: the first word after `#pragma` or inside
// `_Pragma("`, as a piece of `Line` (which starts at the introducer).
StringRef pragmaNamespace(StringRef Line) {
  StringRef Rest = Line;
  if (Rest.consume_front("_Pragma")) {
    if (!Rest.ltrim(" \t").consume_front("(\""))
      return {};
    Rest = Rest.ltrim(" \t").drop_front(2);
  } else if (!Rest.consume_front("#") || !(Rest = Rest.ltrim(" \t")).consume_front("pragma")) {
    return {};
  }
  Rest = Rest.ltrim(" \t");
  return Rest.take_while([](char C) { return std::isalnum(static_cast<unsigned char>(C)) || C == '_' || C == '-'; });
}

} // namespace

void PragmaWatch::PragmaDirective(SourceLocation Loc, PragmaIntroducerKind) {
  SourceManager &SM = PP.getSourceManager();
  if (SM.isInSystemHeader(Loc))
    return;
  // Read from where the pragma is spelled: the file, or the macro definition
  // that carries a `_Pragma`.
  SourceLocation Spelling = SM.getSpellingLoc(Loc);
  bool Invalid = false;
  StringRef Buffer = SM.getBufferData(SM.getFileID(Spelling), &Invalid);
  if (Invalid)
    return;
  StringRef Line = Buffer.substr(SM.getFileOffset(Spelling)).take_until([](char C) { return C == '\n'; });
  StringRef Name = pragmaNamespace(Line);
  if (Name == "gpu_autopar") {
    // Only the source the tool runs on is rewritten; its headers stay as
    // they are, so an annotation there would silently stay serial.
    if (!SM.isInMainFile(Loc))
      report(PP.getDiagnostics(), Diag::AnnotationInHeader, Loc);
    return;
  }
  if (Name.size() < 6 || Name.edit_distance_insensitive("gpu_autopar", true, 2) > 2)
    return;
  SourceLocation NameLoc = Spelling.getLocWithOffset(Name.data() - Line.data());
  report(PP.getDiagnostics(), Diag::NearMissPragma, NameLoc)
      << Name
      << FixItHint::CreateReplacement(CharSourceRange::getCharRange(NameLoc, NameLoc.getLocWithOffset(Name.size())),
                                      "gpu_autopar");
}

} // namespace gpuautopar
