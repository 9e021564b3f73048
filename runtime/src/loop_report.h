// What one executed loop did, and its two renderings: the JSON line of
// GPU_AUTOPAR_REPORT (docs/runtime.md) and the info log line.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "device_counters.h"
#include "gpu_autopar/loop_body.h"

namespace gpu_autopar {
namespace detail {

struct report_entry {
  int id;            // device index; 0 for the CPU path, -1 for CPU fallback after device failures
  device_kind kind;
  std::uint64_t iterations = 0, chunks = 0, retries = 0, failures = 0;
  double seconds = 0;
  int threads = 0;   // CPU entries: pool threads (0: not shown)
  device_counters counters{}; // device entries: what the device did (not shown for the CPU)
};

struct loop_record {
  loop_site site{"", 0};
  int rank = -1;                  // the process's rank in a multi-process job; -1: not in one
  loop_mode mode = loop_mode::kernel;
  std::uint64_t iterations = 0;
  bool serial = false;
  std::uint64_t serial_below = 0; // the threshold that made it serial
  std::string serial_reason;      // or why it had to (loop_options::serial_reason)
  bool nested = false;            // ran on the lease of an enclosing loop
  std::vector<report_entry> devices;
  const char* fallback_to = nullptr; // "cpu" or "gpu"
  std::string fallback_reason;
  double seconds = 0;
  std::string tag_json, tag_log;  // what a distributor adds (distributor.h)
};

// "cpu", "sim", "cuda", or "mixed" when iterations ran on CPU and devices.
const char* backend_of(const loop_record& r);
const char* mode_name(loop_mode m);
const char* kind_name(device_kind k);
std::string json_escape(const std::string& s);

// One line, ending in '\n'.
std::string report_json(const loop_record& r);
std::string info_line(const loop_record& r);

} // namespace detail
} // namespace gpu_autopar
