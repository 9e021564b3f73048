// The runtime's environment (docs/runtime.md, README "Runtime environment"), parsed once per process.
// Parsing is separate from reading the environment so tests can feed strings.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gpu_autopar {
namespace detail {

enum class log_level { off, warn, info, debug };
enum class progress_mode { auto_, on, off };
enum class device_source { auto_, cpu, cuda, sim };

// A simulated device that fails on its k-th chunk (1-based, counted since the
// runtime started): `fail=D@K` throws device_error, `oom=D@K` makes every
// allocation of that chunk throw device_out_of_memory, `lose=D@K` loses the
// device at that chunk's first wait (its kernel ran): as a sticky CUDA error,
// the device leaves the pool for the rest of the process and what its memory
// held is gone.
struct injected_fault {
  int device;
  std::uint64_t chunk;
};

// The link between host and simulated devices (`link=`, `latency=`): a copy
// of b bytes takes latency + b / bandwidth, waited out by the copying thread,
// as over PCIe. Off by default: copies are then free.
struct sim_link {
  double bytes_per_second = 0; // 0: unlimited
  double latency = 0;          // seconds per copy
  bool on() const { return bytes_per_second > 0 || latency > 0; }
  double seconds(std::uint64_t bytes) const {
    return latency + (bytes_per_second > 0 ? double(bytes) / bytes_per_second : 0.0);
  }
};
constexpr double kDefaultSimLatency = 10e-6; // with `link=` and no `latency=`
// Accepted ranges: what a real link could be, with room for slow experiments.
constexpr double kMinSimLink = 1e6, kMaxSimLink = 1e13; // 1 MB/s to 10 TB/s
constexpr double kMaxSimLatency = 1.0;

struct devices_config {
  device_source source = device_source::auto_;
  std::vector<int> cuda_ids;              // `cuda:0,2`; empty: every visible device
  int sim_count = 0;                      // `sim:N`
  std::vector<std::uint64_t> sim_memory;  // bytes per simulated device (sim_count entries)
  std::vector<double> sim_speed;          // relative speed per simulated device
  std::vector<injected_fault> fail;
  std::vector<injected_fault> oom;
  std::vector<injected_fault> lose;
  sim_link link;                          // `link=16GB/s`, `latency=10us`
  bool sim_p2p = true;                    // `p2p=off`: no copies between simulated devices
};

constexpr std::uint64_t kDefaultSimMemory = std::uint64_t(16) << 30; // 16 GiB of accounting
// A simulated device's speed relative to the others: each from 0.01 to 100,
// the fastest at most 100 times the slowest.
constexpr double kMinSimSpeed = 0.01, kMaxSimSpeed = 100, kMaxSimSpeedRatio = 100;
constexpr unsigned kMaxThreads = 4096; // GPU_AUTOPAR_THREADS

// Parses a GPU_AUTOPAR_DEVICES value. On error returns false and says why.
bool parse_devices(const std::string& text, devices_config& out, std::string& error);
// A GPU_AUTOPAR_THREADS value: 1 to kMaxThreads. False otherwise.
bool parse_threads(const std::string& text, unsigned& threads);
// CPU threads without GPU_AUTOPAR_THREADS (or with an invalid one): the
// hardware threads, or this process's share of them when several processes
// of an MPI job share the node (set_processes_on_node).
unsigned default_threads();
// How many processes of a job share this node's cores (the MPI library sets
// it when it joins the job, before the first loop sizes the CPU pool).
void set_processes_on_node(unsigned n);
// "2GiB", "512MiB", "64KB", "4096": bytes. False if malformed.
bool parse_bytes(const std::string& text, std::uint64_t& bytes);
// "16GB/s", "12.5GiB/s", "900MB/s": bytes per second. False if malformed.
bool parse_rate(const std::string& text, double& bytes_per_second);
// "10us", "1.5us", "2ms", "0", "500ns", "0.001s": seconds. False if malformed.
bool parse_duration(const std::string& text, double& seconds);

struct runtime_config {
  devices_config devices;
  log_level log = log_level::warn;
  progress_mode progress = progress_mode::auto_;
  std::string report_path;               // empty: no report
  // GPU_AUTOPAR_PIN: `once` keeps host memory registered with CUDA after the
  // loops that used it (host_pinning.h); `loop` unregisters it when nothing
  // holds it any more.
  bool pin_once = true;
  // GPU_AUTOPAR_QUEUE=on (the default): loops inside a data region may
  // return with their kernels still queued on the GPUs, where a GPU failing
  // in them would lose data anyway (docs/runtime.md, "Queued loops in a data
  // region"); off: every loop waits for its chunks.
  bool queue_region_loops = true;
  std::vector<std::string> problems;     // bad values, printed once at start-up
};

// Reads GPU_AUTOPAR_DEVICES, _LOG, _PROGRESS, _THREADS, _PIN, _QUEUE and _REPORT. A bad
// value is recorded in `problems`, naming the variable and what is used
// instead (CPU threads, warn, auto, the hardware threads).
runtime_config read_config_from_environment();

} // namespace detail
} // namespace gpu_autopar
