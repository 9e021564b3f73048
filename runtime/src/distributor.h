// The one hook through which a loop may be split across processes: an
// optional library (the MPI one, runtime/mpi/) registers a distributor before
// main(); the core runtime never links MPI. Without a registered distributor
// every loop runs in this process, exactly as the runtime does on its own.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "device.h"
#include "gpu_autopar/loop_body.h"

namespace gpu_autopar {
namespace detail {

struct runtime_state;

class distributor {
public:
  virtual ~distributor() = default;
  // Called once, when the runtime starts (the first loop), after the devices
  // were found and before they are pooled: may join the job, keep only this
  // process's share of a node's devices (then says why in no_devices_reason
  // if none is left), set rt.rank and lower rt.config.log.
  virtual void start(runtime_state& rt, std::vector<std::unique_ptr<device>>& devices) = 0;
  // An outermost loop (not inside another loop's iteration on a lease or a
  // CPU pool thread). Returns false to leave the loop to this process alone;
  // otherwise runs it, through run_here for this process's part.
  virtual bool run(const loop_site& site, std::uint64_t count, const loop_options& options, loop_body& body) = 0;

  // Data regions (data_region.cpp) under a distributor that leaves the parts
  // of mapped sections that a process's loops wrote with that process
  // (docs/mpi.md, "Data regions across ranks"). Called on every process at
  // the same point of the program.
  // `update host`: this process's host copy of [host, host + bytes) gets
  // every process's newest values; returns the bytes that came from others.
  virtual std::uint64_t host_needs(const void* host, std::size_t bytes) {
    (void)host, (void)bytes;
    return 0;
  }
  // `update device`: the host's values of [host, host + bytes) are the
  // newest, in every process.
  virtual void host_wrote(const void* host, std::size_t bytes) { (void)host, (void)bytes; }
  // A mapped section's region ends. `copy_back`: its newest values reach the
  // host (a from/tofrom section; not when the block is left by an exception).
  // Returns the bytes that came from other processes for it.
  virtual std::uint64_t section_unmapped(const void* host, std::size_t bytes, bool copy_back) {
    (void)host, (void)bytes, (void)copy_back;
    return 0;
  }
};

// Registers d for the whole process (nullptr: none). Call before the first loop.
void set_distributor(distributor* d);
distributor* installed_distributor();

// What a distributor adds to the report and log lines of the part of a loop
// that ran here: `json` goes into the report line (",\"key\":value..."), `log`
// at the end of the info line.
struct report_tag {
  std::string json, log;
};

// Runs [0, count) of body in this process: devices, fallback, report and log
// as run_loop does for a loop that is not distributed.
void run_here(const loop_site& site, std::uint64_t count, const loop_options& options, loop_body& body,
              const report_tag* tag);

// Writes one report line (one write() on the O_APPEND descriptor), if there is a report.
void write_report_line(const runtime_state& rt, const std::string& line);
// Writes a log line to stderr, "[rank N] " after its "gpu-autopar: " in a multi-process job.
void write_log_line(const runtime_state& rt, std::string line);

} // namespace detail
} // namespace gpu_autopar
