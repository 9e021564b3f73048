// Runs the tool on one translation unit: parse, find annotated loops, check
// them, rewrite them. The front end in tool/ decides where the result goes.
#pragma once

#include "clang/Tooling/CompilationDatabase.h"

#include <string>
#include <vector>

namespace gpuautopar {

// What --report says about one annotated loop (plain data: the AST is gone
// by the time the report is written).
struct LoopReport {
  struct Place {
    std::string File;
    unsigned Line = 0, Column = 0;
  };
  struct Reason {
    std::string Kind; // "mode", or the diagnostic's level: "error", "warning", "remark", "note"
    std::string Message;
    Place At;
  };
  struct Map {
    std::string Var, Kind;
    std::string Section; // the map's arguments after the variable: "affine(1, 0, 1)", "(0), (n), whole()"
    std::string Emitted; // the map exactly as the rewritten call passes it to data(...)
  };
  Place At;                 // the pragma
  bool Accepted = false;
  bool Ignored = false;     // nested in another annotated loop: left serial, with a warning
  // --accept: an OpenMP/OpenACC directive left in the output exactly as
  // written (with a remark): a construct gpu-autopar does not translate, or
  // a loop directive inside one.
  bool Left = false;
  std::string Directive;    // a directive that is not a loop's ("omp task"); empty for a loop annotation
  // --accept: an OpenMP/OpenACC data directive ("acc data", "omp target
  // update", enter and exit data), translated (Accepted) or rejected.
  bool Data = false;
  std::string Mode;         // "kernel", "task", "host"; empty when the loop was rejected before classification
  std::string Verdict;      // "independent", "unproven", "dependent"; empty when legality was not checked
  std::string Witness;      // two iterations that conflict, for a proven dependence on an array
  std::vector<Reason> Reasons;
  std::vector<std::string> Reads, Writes, Privates;
  std::vector<std::pair<std::string, std::string>> Reductions; // (operator, variable)
  std::vector<Map> Maps;
  // (written, other): objects the rewritten loop compares before it runs
  std::vector<std::pair<std::string, std::string>> AliasChecks;
  // (object, condition): built-in arrays whose subscripts the rewritten loop
  // checks stay inside their dimensions before it runs
  std::vector<std::pair<std::string, std::string>> BoundsChecks;
};

struct FileResult {
  bool Parsed = false;       // the compiler ran on the file at all
  bool HasErrors = false;    // the input has errors or an annotated loop was rejected
  unsigned LoopsRewritten = 0; // or, under --convert, directives converted
  std::string Original;      // the file's text as read
  std::string Rewritten;     // the output text (== Original when nothing changed)
  std::vector<LoopReport> Loops;
};

struct DriverOptions {
  std::string ResourceDir; // clang's builtin headers, baked in at build time
  bool Strict = false;     // --strict: unprovable independence is an error
  bool ExactShortcuts = true; // AnalysisOptions::ExactShortcuts
  std::vector<std::string> RuntimeIncludeDirs; // where <gpu_autopar/gpu_autopar.h> is, searched last
  // --accept=omp,acc: OpenMP / OpenACC loop directives are annotations too.
  bool AcceptOpenMP = false, AcceptOpenACC = false;
  // --convert: rewrite the accepted directives into `#pragma gpu_autopar for`
  // instead of rewriting their loops; everything else stays byte for byte.
  bool Convert = false;
  // --check: diagnostics and the report only. Nothing is rewritten, and
  // FileResult::Rewritten is the original text.
  bool AnalyseOnly = false;
  // --no-remarks: remarks (and their notes) are not printed; --report still
  // lists them with each loop.
  bool PrintRemarks = true;
};

// Processes `File` with the flags `Db` gives for it. Diagnostics go to stderr
// in clang's format.
FileResult processFile(const clang::tooling::CompilationDatabase &Db, const std::string &File,
                       const DriverOptions &Opts);

} // namespace gpuautopar
