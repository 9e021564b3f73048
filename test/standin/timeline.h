// The stand-in's timeline: when each op would run on an NVIDIA H100 SXM, in
// simulated seconds (README.md, "Timeline"; docs/runtime.md, "The calibrated
// timeline"). Ops run on the host only when waited for, so real time says
// nothing about a GPU; this model does.
//
// It is a trace replayed at exit: every call records what it issued (an op,
// what the device orders it after, its engine), what a host thread waited
// for and what it spent on the host (cudaMalloc, cudaHostRegister, ...), in
// the order the calls happened (they hold the stand-in's one mutex). A
// kernel's cost is known only once it ran (the bytes it touched, trapped
// while its host twin runs: touches.cpp), which is after later calls were
// recorded; replaying the trace at the end places every op as if its cost
// had been known when it was issued.
#pragma once

#include <cstddef>
#include <cstdint>

namespace standin {

// Published H100 SXM figures (and the assumptions where no figure is
// published), in seconds and bytes per second. Sources: docs/runtime.md.
namespace h100 {
constexpr double pcie_pinned_Bps = 50e9;     // PCIe 5.0 x16, page-locked host memory, each direction
constexpr double pcie_pageable_Bps = 20e9;   // pageable: the driver stages through a pinned buffer (host memcpy)
constexpr double nvlink_Bps = 450e9;         // NVLink 4, 900 GB/s both directions: 450 GB/s each way
constexpr double hbm_Bps = 3.35e12;          // HBM3: a kernel's bytes touched, a device-local copy (read + write)
constexpr double copy_latency_s = 3e-6;      // a DMA copy's set-up and completion, each copy
constexpr double kernel_overhead_s = 3e-6;   // launch reaching the SMs and the grid draining, each kernel
constexpr double host_call_s = 2e-6;         // a host thread's time to issue a launch, copy or memset
constexpr double wait_wakeup_s = 2e-6;       // a stream, event or device wait: the host learns the work ended
constexpr double malloc_s = 100e-6;          // cudaMalloc (besides the device synchronisation it implies)
constexpr double free_s = 50e-6;             // cudaFree (idem)
constexpr double register_call_s = 10e-6;    // cudaHostRegister, each call
constexpr double register_Bps = 1.5e9;       // cudaHostRegister, per byte pinned (public reports: 1-2 GB/s)
constexpr double unregister_Bps = 6e9;       // cudaHostUnregister (assumed 4x faster than pinning)
} // namespace h100

// Which link a copy crosses: its cost is h100::copy_latency_s + bytes at that link's rate.
enum class link { pcie_pinned, pcie_pageable, nvlink, hbm };
double copy_cost(std::size_t bytes, link l);
double memset_cost(std::size_t bytes);

// A kernel op ran and moved `traffic` bytes to and from device memory (reads
// and writes, at the trapping's block granularity): its cost.
void kernel_ran(std::uint64_t op_id, std::uint64_t traffic);

// The calling host thread spends `seconds` in a call (cudaMalloc, cudaFree);
// registering or unregistering `bytes` of host memory.
void host_spends(double seconds);
void host_registers(std::size_t bytes);
void host_unregisters(std::size_t bytes);

// GPU_AUTOPAR_STANDIN_SCALE: every byte count the timeline costs is
// multiplied by it (1 when unset): a run at n/k stands for one at n where
// every transfer is proportional to n (bench/README.md says where that holds).
double byte_scale();

} // namespace standin

extern "C" {
// A named point in modelled time, where the program's host threads are
// quiescent (a loop returned, its workers idle): every thread's time moves to
// the latest of them. At exit the log says when each one fell and how many
// bytes had crossed the host links by then (`time mark=LABEL thread=T
// at_us=... host_bytes=...`). Programs look it up with dlsym (bench/gpu):
// absent from the real CUDA runtime.
void gpu_autopar_standin_mark(const char* label);
}
