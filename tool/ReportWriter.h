// The JSON file `gpu-autopar --report=<file>` writes: every annotated loop of
// every source with its decision, mode, reasons, data use and location.
#pragma once

#include "gpuautopar/Driver.h"

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace gpuautopar {

struct SourceReport {
  std::string Source;    // as given on the command line
  bool Written = false;  // the rewritten file was produced (not with --check or after a rejection)
  bool Checked = false;  // --check: nothing is written by design
  std::vector<LoopReport> Loops;
};

// Writes the report atomically; returns an error message, empty on success.
std::string writeReport(llvm::StringRef Path, const std::vector<SourceReport> &Sources);

} // namespace gpuautopar
