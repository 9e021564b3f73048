// The CUDA stand-in's model of a machine with fake GPUs (see README.md):
// devices with a memory budget and a context that a fault poisons, device
// memory held in host memory, streams with queues of pending work that runs
// only when the host waits for it, and the happens-before bookkeeping that
// turns unordered accesses into logged violations.
//
// Everything here runs under one mutex (state::mu); the exported cudart
// functions (cudart.cpp, launch.cpp) take it and call in.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "timeline.h"

namespace standin {

// Which streams' work is known to have finished, as the largest finished op
// id per stream (a vector clock).
using clock = std::map<int, std::uint64_t>;
void join(clock& into, const clock& from);

// An address range an op reads or writes (device or host memory).
struct access {
  std::uintptr_t lo, hi;
  bool write;
};

// What runs an op on its device, in the timeline (timeline.cpp): a GPU has
// one engine for kernels, one copy engine in each direction of its host link
// and one that receives NVLink copies from its peers.
enum class engine { compute = 0, h2d = 1, d2h = 2, p2p = 3 };

struct op {
  std::uint64_t id = 0; // enqueue order, unique across the process
  int stream = -1;
  int device = -1;
  std::string what;     // for messages: "kernel foo", "copy device to host of 64 bytes", ...
  std::vector<access> accesses;
  std::function<void()> run;
  // Undoes what the call did ahead of the op when the op never runs (its
  // device's context is lost): a copy that never ran wrote nothing.
  std::function<void()> cancel;
  bool faults = false;  // an injected fault: poisons the device's context instead of running
  bool kernel = false;  // a launch: what it touches is found while it runs (touches.cpp), not listed up front
  clock after;          // what must have finished before it starts (includes its stream's earlier ops)
  clock device_after;   // the part the device orders (streams, events), without what host waits taught: the timeline's
  std::uint64_t observed = UINT64_MAX; // the host clock tick at which a host wait covered it
  // Timeline: the engine it occupies for `cost` seconds, and whether the
  // issuing host thread is held until it ends (a copy from or to pageable memory).
  engine eng = engine::compute;
  double cost = 0;
  std::size_t host_bytes = 0; // a copy between host and device: its bytes (the timeline's per-mark totals)
  bool holds_host = false;
};

struct stream {
  int id;
  int device = -1;
  bool legacy;          // the device's legacy default stream
  bool blocking;        // synchronises with the legacy stream (not cudaStreamNonBlocking)
  bool destroyed = false;
  std::deque<op> pending;
  clock tail;           // the clock of the last op enqueued (or waited for through an event)
  clock device_tail;    // the same without what host waits taught (op::device_after)
};

struct allocation {
  std::uintptr_t base;
  std::size_t bytes;     // requested
  std::size_t mapped;    // page-rounded
  int device = -1;
  bool freed = false;
  bool managed = false; // cudaMallocManaged: every device and the host may use it
};

struct counts {
  std::uint64_t mallocs = 0, malloc_bytes = 0, frees = 0, h2d = 0, h2d_bytes = 0, d2h = 0, d2h_bytes = 0,
                h2d_pageable_bytes = 0, d2h_pageable_bytes = 0, // of h2d_bytes, d2h_bytes: not page-locked
                d2d = 0, d2d_bytes = 0, p2p = 0, p2p_bytes = 0, memsets = 0, memset_bytes = 0, launches = 0, stream_syncs = 0,
                device_syncs = 0, event_syncs = 0, streams_created = 0, streams_destroyed = 0;
};

struct device {
  std::size_t memory = 0, used = 0, peak = 0;
  int major = 8, minor = 0;
  cudaError_t sticky = cudaSuccess; // a poisoned context: every later call on it fails with this
  std::uint64_t d2h_ran = 0;        // device-to-host copies that ran (GPU_AUTOPAR_STANDIN_LOSE_AFTER_D2H)
  int legacy_stream = -1;
  counts n;
};

struct event {
  int device = -1;
  bool recorded = false;
  clock at;
  clock device_at; // stream::device_tail when recorded
  bool destroyed = false;
  std::uint64_t stamp = 0; // the timeline's record of its last cudaEventRecord (0: none)

};

struct state {
  std::recursive_mutex mu;
  std::vector<device> devices;
  std::vector<std::unique_ptr<stream>> streams; // by id; never erased, so a stale handle is recognised
  std::vector<std::unique_ptr<event>> events;
  std::map<std::uintptr_t, allocation> allocations; // by base, freed ones kept (addresses never reused)
  std::deque<op> done;                               // executed ops a later op may still race with
  clock host;                                        // what the host knows has finished
  std::uint64_t tick = 1;                            // op ids and host observation times
  std::uint64_t alloc_calls = 0, launch_calls = 0;
  std::uint64_t host_registers = 0, host_unregisters = 0;
  std::vector<std::uint64_t> fail_allocs, fault_launches; // 1-based call numbers from the environment
  std::vector<std::pair<int, std::uint64_t>> fault_device_launches; // D@K: device D's K-th launch
  std::vector<int> image_majors; // GPU_AUTOPAR_STANDIN_IMAGE: the architectures the program has code for; empty: all
  std::string log_path;
  std::string timeline_path; // GPU_AUTOPAR_STANDIN_TIMELINE: where the timeline is written at exit
  std::vector<std::pair<std::uintptr_t, std::uintptr_t>> registered; // cudaHostRegister'd ranges [lo, hi)
  std::vector<std::pair<std::uintptr_t, std::uintptr_t>> host_allocated; // cudaMallocHost'd ranges [lo, hi)
  // GPU_AUTOPAR_STANDIN_LOSE_AT_WAIT=D@K: device D's context is lost right
  // after its K-th cudaStreamSynchronize ran the work it waited for, as when
  // another stream's kernel faults just then: the wait reports the error
  // though the waited work (copies to the host included) had completed.
  std::vector<std::pair<int, std::uint64_t>> lose_at_waits;
  // GPU_AUTOPAR_STANDIN_LOSE_AFTER_D2H=D@K: device D's context is lost right
  // after its K-th device-to-host copy ran (in the order copies run): the
  // copies queued behind it never run.
  std::vector<std::pair<int, std::uint64_t>> lose_after_d2h;
  bool trace = false; // GPU_AUTOPAR_STANDIN_TRACE: log every op as it runs
  bool peers = true;  // GPU_AUTOPAR_STANDIN_PEER=0: cudaDeviceCanAccessPeer says no
  std::set<std::pair<int, int>> peer_access; // (device, peer) pairs cudaDeviceEnablePeerAccess enabled
  bool exiting = false;
};

state& global();
std::unique_lock<std::recursive_mutex> lock();

// The calling thread's CUDA state.
int& current_device();
cudaError_t& last_error();

// Logging. violation() also goes to stderr, so a failing test shows it.
void log_line(const std::string& line);
void violation(const std::string& kind, const std::string& message);

// Records an error as the thread's last error and returns it (cudaSuccess passes through).
cudaError_t fail(cudaError_t e);
// The error a call on `dev` fails with before doing anything: a bad ordinal or a poisoned context.
cudaError_t check_device(int dev);

// An allocation a kernel touched while its twin ran: the byte ranges [lo, hi)
// it read (the whole allocation unless its twin reported its accesses) and
// those it wrote (none when it only read it).
struct touch {
  allocation* a;
  std::vector<std::pair<std::uintptr_t, std::uintptr_t>> reads, writes;
  std::uint64_t traffic = 0; // bytes read plus bytes written, by blocks of the allocation (the timeline's cost)
};
// Runs a kernel's twin with all device memory inaccessible and returns what it touched (touches.cpp).
std::vector<touch> run_tracking_touches(const std::function<void()>& run);

// Memory.
allocation* find_allocation(const void* p, bool include_freed);
std::string describe(const void* p);

// Streams: a handle as the API sees it (0, cudaStreamLegacy, cudaStreamPerThread or a created one).
stream* resolve_stream(cudaStream_t s, const char* call);
cudaStream_t handle_of(const stream& s);
stream& legacy_stream(int dev);
stream& new_stream(int dev, bool blocking);

// Enqueues work on s (id, ordering and race checks filled in here).
void enqueue(stream& s, op o);
// Runs every op on stream `sid` with id <= upto (and what they wait for).
void run_until(int sid, std::uint64_t upto);
// Host waits: run what is covered and record that the host knows it finished.
// device_part: what c holds that the device orders (the timeline's wait), when not all of c.
void host_waits_for(const clock& c, const clock* device_part = nullptr);
void host_waits_for_stream(stream& s);
void host_waits_for_device(int dev);
// A host access to [p, p+n) now: violations for unfinished ops that write it (or read it, if write).
// Work queued earlier on `ordered_stream` is ordered before the access (an
// asynchronous copy into pinned memory on that stream), -1: none is.
void host_access(const void* p, std::size_t n, bool write, const char* what, int ordered_stream = -1);
// Whether work still queued on any stream reads or writes [p, p+n).
bool pending_touch(const void* p, std::size_t n);

// Exit checks: unfinished work, leaks. Runs once, from the library's destructor.
void check_at_exit();

// The timeline (timeline.h, timeline.cpp): simulated time on H100 SXM
// figures, in which each op starts once what it is ordered after has ended,
// its engine is free and its host thread issued it, and lasts its cost. So
// the work of two streams overlaps exactly where the program lets it.
// Records o (its id, stream, device, and in `after` what the device orders it after).
void schedule_in_time(const op& o);
// A host wait covering c: the calling thread's time moves to the end of what it covered.
void host_time_reaches(const clock& c);
// cudaEventRecord: the event is reached when the calling thread has issued
// it and what `c` covers has ended (a real GPU stamps it then). Returns the
// record's stamp for event_time.
std::uint64_t event_recorded(const clock& c);
// When a recorded event was reached, in modelled seconds (what
// cudaEventElapsedTime subtracts): the ops before it that have not run yet
// count at their overhead only.
double event_time(std::uint64_t stamp);
// Whether [p, p+n) lies in memory registered with cudaHostRegister or
// allocated with cudaMallocHost (pinned).
bool pinned(const void* p, std::size_t n);
// Per device, pairs of a copy and a kernel on different streams whose times
// overlap; and the modelled times logged (marks; GPU_AUTOPAR_STANDIN_TIME=1:
// the whole run), the timeline written to GPU_AUTOPAR_STANDIN_TIMELINE.
std::uint64_t copy_kernel_overlaps(int dev);
// What the program issued on a device, whatever the host threads' timing:
// how many streams carried kernels, and the pairs of a host-link copy and a
// kernel on different streams that the device does not order either way
// (no stream, event or legacy-stream dependency between them), so that the
// timeline may run them at once. Host waits are left out: whether a host
// thread happened to wait before issuing depends on the scheduler, what the
// device orders does not.
struct issue_shape {
  std::uint64_t kernel_streams = 0, unordered_copy_kernel = 0;
  // Kernels whose copies in (on their stream, since its previous kernel)
  // were issued with another stream's copy in or kernel between them: the
  // copy engine runs both chunks' inputs before either kernel can start.
  std::uint64_t interleaved_issue = 0;
};
issue_shape issued_on(int dev);
void write_timeline();

} // namespace standin
