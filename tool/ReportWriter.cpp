#include "ReportWriter.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace gpuautopar {
namespace {

llvm::json::Value place(const LoopReport::Place &P) {
  return llvm::json::Object{{"file", P.File}, {"line", P.Line}, {"column", P.Column}};
}

llvm::json::Array strings(const std::vector<std::string> &V) { return llvm::json::Array(V); }

// "rewritten": in the output; "accepted": fine, but nothing was written
// (--check, or another loop of the file was rejected); "ignored": nested in
// another annotated loop; "left": an OpenMP/OpenACC directive left in the
// output as written (--accept); "rejected".
const char *decision(const LoopReport &L, const SourceReport &S) {
  if (L.Left)
    return "left";
  if (L.Ignored)
    return "ignored";
  if (!L.Accepted)
    return "rejected";
  return S.Written ? "rewritten" : "accepted";
}

} // namespace

std::string writeReport(llvm::StringRef Path, const std::vector<SourceReport> &Sources) {
  llvm::json::Array Loops;
  for (const SourceReport &S : Sources)
    for (const LoopReport &L : S.Loops) {
      llvm::json::Array Reasons, Reductions, Maps, AliasChecks, BoundsChecks;
      for (const LoopReport::Reason &R : L.Reasons)
        Reasons.push_back(llvm::json::Object{{"kind", R.Kind}, {"message", R.Message}, {"location", place(R.At)}});
      for (const auto &[Op, Var] : L.Reductions)
        Reductions.push_back(llvm::json::Object{{"op", Op}, {"var", Var}});
      for (const LoopReport::Map &M : L.Maps)
        Maps.push_back(
            llvm::json::Object{{"var", M.Var}, {"kind", M.Kind}, {"section", M.Section}, {"emitted", M.Emitted}});
      for (const auto &[Written, Other] : L.AliasChecks)
        AliasChecks.push_back(llvm::json::Array{Written, Other});
      for (const auto &[Object, Condition] : L.BoundsChecks)
        BoundsChecks.push_back(llvm::json::Object{{"object", Object}, {"condition", Condition}});
      llvm::json::Object Entry{
          {"source", S.Source},
          {"location", place(L.At)},
          {"decision", decision(L, S)},
          {"mode", L.Mode.empty() ? llvm::json::Value(nullptr) : llvm::json::Value(L.Mode)},
          {"verdict", L.Verdict.empty() ? llvm::json::Value(nullptr) : llvm::json::Value(L.Verdict)},
          {"witness", L.Witness.empty() ? llvm::json::Value(nullptr) : llvm::json::Value(L.Witness)},
          {"reasons", std::move(Reasons)},
          {"reads", strings(L.Reads)},
          {"writes", strings(L.Writes)},
          {"privates", strings(L.Privates)},
          {"reductions", std::move(Reductions)},
          {"maps", std::move(Maps)},
          {"alias_checks", std::move(AliasChecks)},
          {"bounds_checks", std::move(BoundsChecks)},
      };
      // Only a directive other than a loop's (left as written, a region, a
      // data directive) names itself.
      if (!L.Directive.empty())
        Entry["directive"] = L.Directive;
      Loops.push_back(std::move(Entry));
    }
  llvm::json::Object Root{{"version", 1}, {"loops", std::move(Loops)}};

  std::error_code EC;
  std::string Temp = (Path + ".tmp").str();
  {
    llvm::raw_fd_ostream OS(Temp, EC, llvm::sys::fs::OF_Text);
    if (EC)
      return "cannot write '" + Temp + "': " + EC.message();
    OS << llvm::formatv("{0:2}", llvm::json::Value(std::move(Root))) << "\n";
    OS.close();
    if (OS.has_error())
      return "cannot write '" + Temp + "': " + OS.error().message();
  }
  if ((EC = llvm::sys::fs::rename(Temp, Path)))
    return "cannot replace '" + Path.str() + "': " + EC.message();
  return "";
}

} // namespace gpuautopar
