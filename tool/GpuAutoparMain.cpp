// gpu-autopar: rewrites loops annotated with `#pragma gpu_autopar for` into
// calls of the gpu-autopar runtime. This file only handles the command line,
// files and exit codes; the work is in lib/.
#include "FileOutput.h"
#include "ReportWriter.h"
#include "UnifiedDiff.h"
#include "gpuautopar/Driver.h"
#include "gpuautopar/LoopAnalyzer.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>

using namespace llvm;

namespace {

// Exit codes (gpu-autopar --help; docs/analysis.md, "The command").
enum ExitCode { Success = 0, Rejected = 1, UsageOrIO = 2 };

cl::OptionCategory Category("gpu-autopar options");

cl::list<std::string> Sources(cl::Positional, cl::desc("<source>... [-- <compiler arguments>]"), cl::OneOrMore, cl::cat(Category));
cl::opt<std::string> OutputFile("o", cl::desc("Write the rewritten source to <file> (one source only)"),
                                cl::value_desc("file"), cl::cat(Category));
cl::opt<bool> InPlace("i", cl::desc("Rewrite the sources in place (atomically)"), cl::cat(Category));
cl::opt<bool> CheckOnly("check", cl::desc("Analyse and diagnose only; write nothing"), cl::cat(Category));
cl::opt<bool> Diff("diff", cl::desc("Print a unified diff instead of the rewritten source"), cl::cat(Category));
cl::opt<bool> Strict("strict", cl::desc("Dependences the analysis cannot rule out are errors, not warnings"),
                     cl::cat(Category));
// For a test that the analysis builds one polyhedral model per loop nest.
cl::opt<bool> PrintIslContexts("print-isl-contexts",
                               cl::desc("Print how many isl contexts the analysis allocated (to stderr)"), cl::Hidden,
                               cl::cat(Category));
cl::opt<bool> NoRemarks("no-remarks",
                        cl::desc("Do not print remarks (run-time checks, loops on CPU threads only); --report keeps them"),
                        cl::cat(Category));
cl::opt<std::string> ReportFile("report", cl::desc("Write every annotated loop's decision, mode and reasons as JSON"),
                                cl::value_desc("file.json"), cl::cat(Category));
cl::list<std::string> Accept("accept",
                            cl::desc("Treat these loop directives as annotations too: omp (OpenMP), acc (OpenACC)"),
                            cl::value_desc("omp,acc"), cl::CommaSeparated, cl::cat(Category));
cl::opt<bool> Convert("convert",
                      cl::desc("With --accept: rewrite the accepted directives into '#pragma gpu_autopar for ...' "
                               "and nothing else"),
                      cl::cat(Category));
cl::opt<std::string> BuildPath("p", cl::desc("Build directory containing compile_commands.json"),
                               cl::value_desc("build-dir"), cl::cat(Category));
cl::opt<bool> Verbose("v", cl::desc("With --check: one summary line per source, also when not on a terminal"),
                      cl::cat(Category));

cl::extrahelp MoreHelp(R"(
Compiler arguments:
  Everything after `--` goes to the compiler that parses the sources (as with
  clang-tidy), e.g.  gpu-autopar saxpy.cpp -o saxpy.par.cpp -- -std=c++17 -Iinclude
  Without `--`: the flags of compile_commands.json (from -p <build-dir>, or
  found in a directory above the source); without one: -std=c++17.
  The rewritten code needs C++17 or later.

Exit status:
  0  success (warnings allowed)
  1  an annotated loop was rejected or the source has errors; nothing is
     written for that source
  2  usage or I/O error (bad option, unreadable or unwritable file)

Environment of the rewritten program (the runtime reads it):
  GPU_AUTOPAR_DEVICES   auto | cpu | cuda | cuda:0,2 | sim:N[,mem=..][,speed=..]
  GPU_AUTOPAR_THREADS   CPU threads of the CPU path (default: hardware threads)
  GPU_AUTOPAR_LOG       off | warn | info | debug (default: warn)
  GPU_AUTOPAR_REPORT    a file: one JSON line per executed loop
  GPU_AUTOPAR_PROGRESS  auto | on | off

Documentation: README.md and docs/ (tutorial.md, analysis.md, runtime.md)
in the gpu-autopar sources.
)");

void printVersion(raw_ostream &OS) {
  OS << "gpu-autopar " << GPU_AUTOPAR_VERSION << "\n  built with LLVM " << LLVM_VERSION_STRING << "\n";
}

void error(const Twine &Message) { errs() << "gpu-autopar: error: " << Message << "\n"; }

// LLVM's message for an unreadable database lists every plugin it tried;
// the JSON plugin's line is the one about compile_commands.json.
std::string jsonProblem(StringRef Message) {
  SmallVector<StringRef, 4> Lines;
  Message.split(Lines, '\n', -1, false);
  for (StringRef Line : Lines)
    if (Line.consume_front("json-compilation-database: "))
      return Line.trim().str();
  return Message.trim().str();
}

// What --check says about a source when asked to: "saxpy.cpp: 2 loops — 1
// kernel, 1 task; 0 rejected", and under --accept what stays as written:
// "app.cpp: 3 loops — 2 kernel, 1 left as written; 0 rejected; 1 region
// translated loop by loop; 1 data directive translated; 2 other directives
// left as written".
void printSummary(const gpuautopar::SourceReport &S) {
  std::map<std::string, unsigned> Modes;
  unsigned Loops = 0, Rejected = 0, OtherLeft = 0, Regions = 0, Data = 0, DataRejected = 0;
  for (const gpuautopar::LoopReport &L : S.Loops) {
    if (L.Data) {
      L.Accepted ? ++Data : ++DataRejected;
      continue;
    }
    if (!L.Directive.empty()) {
      L.Left ? ++OtherLeft : ++Regions; // a region translated loop by loop
      continue;
    }
    ++Loops;
    L.Left ? ++Modes["left as written"] : L.Ignored ? ++Modes["ignored"] : L.Accepted ? ++Modes[L.Mode] : ++Rejected;
  }
  outs() << S.Source << ": ";
  if (Loops == 0) {
    outs() << "no annotated loops";
  } else {
    outs() << Loops << (Loops == 1 ? " loop" : " loops");
    const char *Sep = " \u2014 ";
    for (const auto &[Mode, Count] : Modes) {
      outs() << Sep << Count << " " << Mode;
      Sep = ", ";
    }
    if (Modes.empty())
      outs() << Sep << "none accepted";
    outs() << "; " << Rejected << " rejected";
  }
  if (Regions)
    outs() << "; " << Regions << (Regions == 1 ? " region" : " regions") << " translated loop by loop";
  if (Data)
    outs() << "; " << Data << (Data == 1 ? " data directive" : " data directives") << " translated";
  if (DataRejected)
    outs() << "; " << DataRejected << (DataRejected == 1 ? " data directive" : " data directives") << " rejected";
  if (OtherLeft)
    outs() << "; " << OtherLeft << (OtherLeft == 1 ? " other directive" : " other directives") << " left as written";
  outs() << "\n";
}

std::unique_ptr<clang::tooling::CompilationDatabase> databaseFor(const std::string &Source,
                                                                 clang::tooling::CompilationDatabase *Fixed) {
  std::string Message;
  if (!BuildPath.empty()) {
    // Exactly that directory: -p names where the database is, no search.
    auto Db = clang::tooling::CompilationDatabase::loadFromDirectory(BuildPath, Message);
    if (Db)
      return Db;
    SmallString<256> Json(BuildPath);
    sys::path::append(Json, "compile_commands.json");
    if (!sys::fs::is_directory(BuildPath))
      error("-p " + BuildPath + ": no such directory");
    else if (!sys::fs::exists(Json))
      error("-p " + BuildPath + ": no compile_commands.json there (CMake writes one with "
            "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON)");
    else
      error("-p " + BuildPath + ": cannot read '" + Json + "': " + jsonProblem(Message));
    return nullptr;
  }
  if (auto Db = clang::tooling::CompilationDatabase::autoDetectFromSource(Source, Message))
    return Db;
  // No flags anywhere: parse as plain C++17, which is what the runtime needs.
  return std::make_unique<clang::tooling::FixedCompilationDatabase>(".", std::vector<std::string>{"-std=c++17"});
}

// Where the runtime's headers are: beside an installed tool (<prefix>/bin
// and <prefix>/include), or the source tree the tool was built from.
std::vector<std::string> runtimeIncludeDirs(const char *Argv0) {
  std::vector<std::string> Dirs;
  static int Anchor;
  std::string Exe = sys::fs::getMainExecutable(Argv0, &Anchor);
  SmallString<256> Installed(sys::path::parent_path(sys::path::parent_path(Exe)));
  sys::path::append(Installed, "include");
  for (StringRef Dir : {StringRef(Installed), StringRef(GPU_AUTOPAR_RUNTIME_INCLUDE_DIR)}) {
    SmallString<256> Header(Dir);
    sys::path::append(Header, "gpu_autopar", "gpu_autopar.h");
    if (!Dir.empty() && sys::fs::exists(Header)) {
      Dirs.push_back(Dir.str());
      break;
    }
  }
  return Dirs;
}

} // namespace

int main(int argc, const char **argv) {
  // Flags after `--` are the compiler's, as with clang-tidy.
  std::string Message;
  std::unique_ptr<clang::tooling::FixedCompilationDatabase> Fixed =
      clang::tooling::FixedCompilationDatabase::loadFromCommandLine(argc, argv, Message);
  cl::HideUnrelatedOptions(Category);
  cl::SetVersionPrinter(printVersion);
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
  // The user's files are checked before any work: a file that cannot be
  // written is a usage error, not something found after the analysis.
  if (!OutputFile.empty() && sys::fs::equivalent(OutputFile, Sources.front())) {
    error("-o names the input '" + Sources.front() + "'; use -i to rewrite it in place");
    return UsageOrIO;
  }
  for (const std::string &Path : InPlace ? std::vector<std::string>(Sources) : std::vector<std::string>{OutputFile})
    if (!Path.empty())
      if (std::string Why = gpuautopar::whyNotWritable(Path); !Why.empty()) {
        error("cannot write '" + Path + "': " + Why);
        return UsageOrIO;
      }

  gpuautopar::DriverOptions Opts;
  Opts.ResourceDir = GPU_AUTOPAR_CLANG_RESOURCE_DIR;
  Opts.Strict = Strict;
  // GPU_AUTOPAR_ISL_ONLY=1 turns the analysis's exact shortcuts off, so that a
  // test can check they decide as isl does (datamap/isl-agrees.test).
  if (const char *IslOnly = std::getenv("GPU_AUTOPAR_ISL_ONLY"); IslOnly && *IslOnly && std::string(IslOnly) != "0")
    Opts.ExactShortcuts = false;
  Opts.PrintRemarks = !NoRemarks;
  Opts.RuntimeIncludeDirs = runtimeIncludeDirs(argv[0]);
  for (const std::string &Dialect : Accept) {
    if (Dialect == "omp") {
      Opts.AcceptOpenMP = true;
    } else if (Dialect == "acc") {
      Opts.AcceptOpenACC = true;
    } else {
      error("--accept takes omp and acc, not '" + Dialect + "'");
      return UsageOrIO;
    }
  }
  Opts.Convert = Convert;
  Opts.AnalyseOnly = CheckOnly;
  if (Convert && !Opts.AcceptOpenMP && !Opts.AcceptOpenACC) {
    error("--convert needs --accept=omp, --accept=acc or both");
    return UsageOrIO;
  }
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
      if (CheckOnly && (Verbose || outs().is_displayed()))
        printSummary(Report.back());
      // Nothing is written for a file with errors: a half-rewritten file is worse than none.
      if (Exit == Success)
        Exit = Rejected;
      continue;
    }
    if (CheckOnly) {
      if (Verbose || outs().is_displayed())
        printSummary(Report.back());
      continue;
    }
    Report.back().Written = true;
    if (Diff) {
      outs() << gpuautopar::unifiedDiff(R.Original, R.Rewritten, Source, Source);
    } else if (InPlace || !OutputFile.empty()) {
      const std::string &Path = InPlace ? Source : OutputFile;
      if (InPlace && R.Rewritten == R.Original)
        continue;
      if (std::string Problem = gpuautopar::replaceFile(Path, R.Rewritten); !Problem.empty()) {
        error(Problem);
        Exit = UsageOrIO;
      }
    } else {
      outs() << R.Rewritten;
    }
  }
  if (!ReportFile.empty())
    if (std::string Problem = gpuautopar::writeReport(ReportFile, Report); !Problem.empty()) {
      error(Problem);
      Exit = UsageOrIO;
    }
  if (PrintIslContexts)
    errs() << "gpu-autopar: isl contexts: " << gpuautopar::islContextsMade() << "\n";
  return Exit;
}
