// gpu-autopar: rewrites loops annotated with `#pragma gpu_autopar for` into
// calls of the gpu-autopar runtime. This file only handles the command line,
// files and exit codes; the work is in lib/.
#include "ReportWriter.h"
#include "UnifiedDiff.h"
#include "gpuautopar/Driver.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>
#include <vector>

using namespace llvm;

namespace {

// Exit codes of SPEC.md section 2.
enum ExitCode { Success = 0, Rejected = 1, UsageOrIO = 2 };

cl::OptionCategory Category("gpu-autopar options");

cl::list<std::string> Sources(cl::Positional, cl::desc("<source>..."), cl::OneOrMore, cl::cat(Category));
cl::opt<std::string> OutputFile("o", cl::desc("Write the rewritten source to <file> (one source only)"),
                                cl::value_desc("file"), cl::cat(Category));
cl::opt<bool> InPlace("i", cl::desc("Rewrite the sources in place (atomically)"), cl::cat(Category));
cl::opt<bool> CheckOnly("check", cl::desc("Analyse and diagnose only; write nothing"), cl::cat(Category));
cl::opt<bool> Diff("diff", cl::desc("Print a unified diff instead of the rewritten source"), cl::cat(Category));
cl::opt<bool> Strict("strict", cl::desc("Dependences the analysis cannot rule out are errors, not warnings"),
                     cl::cat(Category));
cl::opt<std::string> ReportFile("report", cl::desc("Write every annotated loop's decision, mode and reasons as JSON"),
                                cl::value_desc("file.json"), cl::cat(Category));
cl::opt<std::string> BuildPath("p", cl::desc("Build directory containing compile_commands.json"),
                               cl::value_desc("build-dir"), cl::cat(Category));

void error(const Twine &Message) { errs() << "gpu-autopar: error: " << Message << "\n"; }

// Writes `Text` to `Path` through a temporary file in the same directory and
// a rename, so that readers never see a half-written file.
bool writeAtomically(StringRef Path, StringRef Text) {
  SmallString<256> Model(Path);
  Model += ".gpu-autopar-%%%%%%";
  int FD = -1;
  SmallString<256> Temp;
  if (std::error_code EC = sys::fs::createUniqueFile(Model, FD, Temp)) {
    error("cannot create a temporary file next to '" + Path + "': " + EC.message());
    return false;
  }
  {
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Text;
    OS.close();
    if (OS.has_error()) {
      error("cannot write '" + Temp + "': " + OS.error().message());
      sys::fs::remove(Temp);
      return false;
    }
  }
  if (std::error_code EC = sys::fs::rename(Temp, Path)) {
    error("cannot replace '" + Path + "': " + EC.message());
    sys::fs::remove(Temp);
    return false;
  }
  return true;
}

std::unique_ptr<clang::tooling::CompilationDatabase> databaseFor(const std::string &Source,
                                                                 clang::tooling::CompilationDatabase *Fixed) {
  std::string Message;
  if (!BuildPath.empty()) {
    // Exactly that directory: -p names where the database is, no search.
    auto Db = clang::tooling::CompilationDatabase::loadFromDirectory(BuildPath, Message);
    if (!Db)
      error("no compilation database in '" + BuildPath + "': " + Message);
    return Db;
  }
  if (auto Db = clang::tooling::CompilationDatabase::autoDetectFromSource(Source, Message))
    return Db;
  // No flags anywhere: parse as plain C++17, which is what the runtime needs.
  return std::make_unique<clang::tooling::FixedCompilationDatabase>(".", std::vector<std::string>{"-std=c++17"});
}

} // namespace

int main(int argc, const char **argv) {
  // Flags after `--` are the compiler's, as with clang-tidy.
  std::string Message;
  std::unique_ptr<clang::tooling::FixedCompilationDatabase> Fixed =
      clang::tooling::FixedCompilationDatabase::loadFromCommandLine(argc, argv, Message);
  cl::HideUnrelatedOptions(Category);
  if (!cl::ParseCommandLineOptions(argc, argv, "gpu-autopar: parallelize annotated loops across GPUs\n", &errs()))
    return UsageOrIO;

  if (!OutputFile.empty() && (Sources.size() != 1 || InPlace)) {
    error("-o takes exactly one source and cannot be combined with -i");
    return UsageOrIO;
  }
  if (Diff && (InPlace || !OutputFile.empty() || CheckOnly)) {
    error("--diff cannot be combined with -i, -o or --check");
    return UsageOrIO;
  }
  if (Sources.size() > 1 && !InPlace && !CheckOnly && !Diff) {
    error("several sources need -i, --check or --diff");
    return UsageOrIO;
  }

  gpuautopar::DriverOptions Opts;
  Opts.ResourceDir = GPU_AUTOPAR_CLANG_RESOURCE_DIR;
  Opts.Strict = Strict;
  std::vector<gpuautopar::SourceReport> Report;

  int Exit = Success;
  for (const std::string &Source : Sources) {
    if (auto Buffer = MemoryBuffer::getFile(Source); !Buffer) {
      error("cannot read '" + Source + "': " + Buffer.getError().message());
      Exit = UsageOrIO;
      continue;
    }
    std::unique_ptr<clang::tooling::CompilationDatabase> Db;
    clang::tooling::CompilationDatabase *Flags = Fixed.get();
    if (!Flags) {
      Db = databaseFor(Source, Fixed.get());
      if (!Db) {
        Exit = UsageOrIO;
        continue;
      }
      Flags = Db.get();
    }
    gpuautopar::FileResult R = gpuautopar::processFile(*Flags, Source, Opts);
    Report.push_back({Source, false, CheckOnly, std::move(R.Loops)});
    if (R.HasErrors || !R.Parsed) {
      // Nothing is written for a file with errors: a half-rewritten file is worse than none.
      if (Exit == Success)
        Exit = Rejected;
      continue;
    }
    if (CheckOnly)
      continue;
    Report.back().Written = true;
    if (Diff) {
      outs() << gpuautopar::unifiedDiff(R.Original, R.Rewritten, Source, Source);
    } else if (InPlace) {
      if (R.Rewritten != R.Original && !writeAtomically(Source, R.Rewritten))
        Exit = UsageOrIO;
    } else if (!OutputFile.empty()) {
      if (!writeAtomically(OutputFile, R.Rewritten))
        Exit = UsageOrIO;
    } else {
      outs() << R.Rewritten;
    }
  }
  if (!ReportFile.empty())
    if (std::string Problem = gpuautopar::writeReport(ReportFile, Report); !Problem.empty()) {
      error(Problem);
      Exit = UsageOrIO;
    }
  return Exit;
}
