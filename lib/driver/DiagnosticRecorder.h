// Passes every diagnostic on to the compiler's printer and, while a loop is
// being analysed, also records it as one of that loop's reasons for --report.
#pragma once

#include "gpuautopar/Driver.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallString.h"

namespace gpuautopar {

// Where `Loc` is, as --report writes it (empty if nowhere).
inline LoopReport::Place placeOf(clang::SourceLocation Loc, const clang::SourceManager &SM) {
  clang::PresumedLoc P = SM.getPresumedLoc(Loc);
  if (P.isInvalid())
    return {};
  return {P.getFilename(), P.getLine(), P.getColumn()};
}

class DiagnosticRecorder : public clang::DiagnosticConsumer {
public:
  DiagnosticRecorder(clang::DiagnosticConsumer &Next, bool PrintRemarks) : Next(Next), PrintRemarks(PrintRemarks) {}

  void recordInto(std::vector<LoopReport::Reason> *Sink) { this->Sink = Sink; }

  void BeginSourceFile(const clang::LangOptions &LO, const clang::Preprocessor *PP) override {
    Next.BeginSourceFile(LO, PP);
  }
  void EndSourceFile() override { Next.EndSourceFile(); }
  void finish() override { Next.finish(); }
  bool IncludeInDiagnosticCounts() const override { return Next.IncludeInDiagnosticCounts(); }

  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level, const clang::Diagnostic &Info) override {
    clang::DiagnosticConsumer::HandleDiagnostic(Level, Info);
    if (Sink) {
      llvm::SmallString<128> Message;
      Info.FormatDiagnostic(Message);
      LoopReport::Reason R;
      R.Kind = levelName(Level);
      R.Message = Message.str().str();
      if (Info.hasSourceManager() && Info.getLocation().isValid())
        R.At = placeOf(Info.getLocation(), Info.getSourceManager());
      Sink->push_back(std::move(R));
    }
    // A remark not printed takes its notes along.
    if (Level != clang::DiagnosticsEngine::Note)
      Silenced = !PrintRemarks && Level == clang::DiagnosticsEngine::Remark;
    if (!Silenced)
      Next.HandleDiagnostic(Level, Info);
  }

private:
  static const char *levelName(clang::DiagnosticsEngine::Level L) {
    switch (L) {
    case clang::DiagnosticsEngine::Note: return "note";
    case clang::DiagnosticsEngine::Remark: return "remark";
    case clang::DiagnosticsEngine::Warning: return "warning";
    case clang::DiagnosticsEngine::Error:
    case clang::DiagnosticsEngine::Fatal: return "error";
    default: return "ignored";
    }
  }

  clang::DiagnosticConsumer &Next;
  bool PrintRemarks;
  bool Silenced = false; // the last diagnostic other than a note was a remark not printed
  std::vector<LoopReport::Reason> *Sink = nullptr;
};

} // namespace gpuautopar
