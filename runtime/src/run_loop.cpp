// run_loop: decides where a loop's iterations go (serially on the calling
// thread, CPU threads, or leased devices with fallback), runs them there, and
// reports what happened. Logging happens here, on the calling thread only.
#include "gpu_autopar/data_region.h"
#include "gpu_autopar/loop_body.h"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <unistd.h>

#include "cuda_backend.h"
#include "device_loop.h"
#include "distributor.h"
#include "host_pool.h"
#include "host_pinning.h"
#include "loop_report.h"
#include "progress_bar.h"
#include "runtime_state.h"
#include "schedule_policy.h"

namespace gpu_autopar {
namespace detail {
namespace {

using clock = std::chrono::steady_clock;

// Default min_iterations (left to the runtime, docs/runtime.md): task mode 2,
// since every task-mode iteration is GPU work worth a device of its own;
// kernel and host mode two iterations per CPU thread on the CPU path (fewer
// would leave threads idle and cost more to wake than they save) and two per
// device on devices (a 96-row matmul is worth three GPUs).
constexpr std::uint64_t kTaskSerialBelow = 2;
constexpr std::uint64_t kSerialBelowPerWorker = 2;
// Pieces per CPU thread on the CPU path: evens out uneven iterations while
// keeping hand-outs cheap.
constexpr std::uint64_t kPiecesPerThread = 8;

std::uint64_t serial_threshold(const loop_options& o, std::uint64_t workers) {
  if (o.min_iterations >= 0)
    return std::uint64_t(o.min_iterations);
  if (o.mode == loop_mode::task)
    return kTaskSerialBelow;
  return kSerialBelowPerWorker * std::max<std::uint64_t>(1, workers);
}

bool logs(const runtime_state& rt, log_level l) { return rt.config.log >= l; }

void write_report(const runtime_state& rt, const loop_record& r) {
  if (rt.report_fd >= 0)
    write_report_line(rt, report_json(r));
}

void finish(const runtime_state& rt, loop_record& r, clock::time_point t0) {
  r.seconds = std::chrono::duration<double>(clock::now() - t0).count();
  write_report(rt, r);
  if (logs(rt, log_level::info))
    write_log_line(rt, info_line(r));
}

// The CPU path: the host pool's fork-join over run_host.
void run_on_cpu(host_pool& pool, std::uint64_t count, loop_body& body) {
  const std::uint64_t pieces = std::uint64_t(pool.size()) * kPiecesPerThread;
  auto piece = [&body](std::uint64_t b, std::uint64_t e) { body.run_host(b, e); };
  pool.run(count, (count + pieces - 1) / pieces, make_range_fn(piece));
}

// The report line of a nested loop: all of it ran in one piece where its
// outer iteration was (a report line, not a log line: fine from a worker).
void report_nested(const runtime_state& rt, const loop_site& site, std::uint64_t count, const loop_options& options,
                   report_entry where, clock::time_point t0) {
  loop_record r;
  r.site = site;
  r.rank = rt.rank;
  r.mode = options.mode;
  r.iterations = count;
  r.nested = true;
  where.iterations = count;
  where.chunks = 1;
  r.devices.push_back(where);
  r.seconds = std::chrono::duration<double>(clock::now() - t0).count();
  write_report(rt, r);
}

// A loop inside an iteration that holds a lease runs on that lease, serially:
// no second lease, no oversubscription.
void run_nested_on_lease(const loop_site& site, std::uint64_t count, const loop_options& options, loop_body& body,
                         slot_context& lease) {
  runtime_state& rt = runtime();
  const auto t0 = clock::now();
  const device_counters before = lease.counters();
  const bool on_device = !options.serial_reason && body.can_run_on(lease.kind(), nullptr);
  if (on_device) {
    // The task-mode body around it may have made another GPU current.
    const int previous = lease.enter_nested();
    struct restore {
      slot_context& lease;
      int previous;
      ~restore() { lease.leave_nested(previous); }
    } guard{lease, previous};
    body.run_device(lease, 0, count);
  } else {
    body.run_host(0, count);
  }
  if (rt.report_fd >= 0) {
    report_entry where{on_device ? lease.id() : 0, on_device ? lease.kind() : device_kind::cpu};
    if (on_device) // also counted in the enclosing loop's line: it ran in that loop's chunk
      where.counters = lease.counters().since(before);
    report_nested(rt, site, count, options, where, t0);
  }
}

// A loop inside an iteration running on a CPU pool thread runs inline there.
void run_nested_inline(const loop_site& site, std::uint64_t count, const loop_options& options, loop_body& body) {
  runtime_state& rt = runtime();
  const auto t0 = rt.report_fd >= 0 ? clock::now() : clock::time_point{};
  body.run_host(0, count);
  if (rt.report_fd >= 0)
    report_nested(rt, site, count, options, report_entry{0, device_kind::cpu}, t0);
}

// The iterations a loop's report line accounts for: every one of the loop's,
// once, wherever it ran (asserted in debug builds).
[[maybe_unused]] std::uint64_t iterations_reported(const loop_record& r) {
  std::uint64_t n = 0;
  for (const report_entry& e : r.devices)
    n += e.iterations;
  return n;
}

std::string describe_failures(const lease_pool& pool, const std::vector<device_failure>& failures) {
  std::string s;
  for (const device_failure& f : failures) {
    if (!s.empty())
      s += "; ";
    s += pool.get(f.device).name() + " failed chunk [" + std::to_string(f.range.begin) + ", " +
         std::to_string(f.range.end) + "): " + f.what;
  }
  return s;
}

struct device_plan {
  std::vector<int> devices;
  std::string why_none; // when `devices` is empty
  std::string retired;  // devices left out because an earlier loop lost their context
};

device_plan plan_devices(runtime_state& rt, const loop_options& o, const loop_body& body) {
  device_plan p;
  lease_pool& pool = *rt.pool;
  if (pool.device_count() == 0) {
    p.why_none = rt.no_devices_reason;
    return p;
  }
  if (in_forked_child()) {
    p.why_none = "in a process forked after the runtime started, the parent's devices cannot be used";
    return p;
  }
  const char* why = nullptr;
  if (!body.can_run_on(pool.get(0).kind(), &why)) {
    p.why_none = why ? why : "the loop cannot run on these devices";
    return p;
  }
  const int n = o.max_devices > 0 ? std::min(o.max_devices, pool.device_count()) : pool.device_count();
  for (int d = 0; d < pool.device_count() && int(p.devices.size()) < n; ++d) {
    const device& dev = pool.get(d);
    if (!dev.retired()) {
      p.devices.push_back(d);
      continue;
    }
    if (!p.retired.empty())
      p.retired += "; ";
    p.retired += dev.name() + " is out of use: " + dev.retired_why();
  }
  if (p.devices.empty())
    p.why_none = p.retired;
  // Device memory used in place: its GPU alone can run the loop.
  const in_place_memory* ip = o.mode == loop_mode::kernel ? body.in_place() : nullptr;
  if (ip && ip->host_cannot) {
    const bool planned = std::find(p.devices.begin(), p.devices.end(), ip->device) != p.devices.end();
    p.devices.clear();
    if (planned)
      p.devices.push_back(ip->device);
    else
      p.why_none = ip->what + (ip->device < 0                       ? std::string()
                               : pool.get(ip->device).retired() ? ", which is out of use: " + pool.get(ip->device).retired_why()
                                                                : ", which is not among this loop's devices");
  }
  return p;
}

// Chunks in flight per device: slots(k) if given. Otherwise two on CUDA GPUs
// for kernel-mode loops outside data regions, each slot with its own stream,
// so that one chunk's copies overlap the other's kernel; one elsewhere: a
// simulated device overlaps its link in its time model (sim_device.cpp), a
// task-mode body's own CUDA calls may not expect a second one beside it, and
// in a region chunks copy little (two slots would also share the device's
// resident copy from two streams).
int slots_for(const loop_options& o, const device& first) {
  if (o.slots > 0)
    return o.slots;
  return o.mode == loop_mode::kernel && first.kind() == device_kind::cuda && !regions_live() ? 2 : 1;
}

// Whether the loop's chunks may finish with their work still queued on the
// GPU, the loop returning without the host waiting for its kernels
// (docs/runtime.md, "Queued loops in a data region"): unless
// GPU_AUTOPAR_QUEUE=off, a kernel-mode loop on CUDA GPUs inside a data
// region, all of whose maps the region holds, under a static schedule (every
// chunk known at the start; the adaptive one measures chunks), using no
// device memory in place (managed memory the host may read as soon as the
// loop returns). Which of its chunks do is decided per chunk
// (cuda_backend.cpp: none that copied to or from host memory). The host
// waits where it reads or writes region data, when a resident part is freed
// and at the region's end.
bool may_leave_queued(const runtime_config& config, const loop_options& o, const device& first,
                      const loop_body& body, const schedule_policy& schedule) {
  if (!config.queue_region_loops || o.mode != loop_mode::kernel || first.kind() != device_kind::cuda || !regions_live() || body.in_place() ||
      !dynamic_cast<const static_schedule*>(&schedule))
    return false;
  std::vector<std::pair<const void*, std::size_t>> ranges;
  body.host_ranges(ranges);
  region_section held;
  for (const auto& r : ranges)
    if (!region_section_of(r.first, r.second, &held))
      return false;
  // Not where the host holds the newest values of everything the loop reads
  // (its first loop in a region, one after `update host`): a GPU failing in
  // it is then found while the loop runs and its chunks run again from the
  // host's values, which a loop that returned could not do. Elsewhere what
  // the loop reads is newest on the GPUs only, and a GPU lost in it loses
  // that either way.
  ranges.clear();
  body.host_read_ranges(ranges);
  for (const auto& r : ranges)
    if (!region_host_newest(r.first, r.second))
      return true;
  return false;
}

const char* policy_name(fallback_policy f) {
  switch (f) {
  case fallback_policy::auto_: return "auto";
  case fallback_policy::gpu: return "gpu";
  case fallback_policy::cpu: return "cpu";
  case fallback_policy::none: return "none";
  }
  return "auto";
}

[[noreturn]] void fail_loop(const loop_site& site, const loop_options& o, const std::string& why) {
  throw loop_error(std::string("gpu-autopar: ") + site.file + ":" + std::to_string(site.line) + ": loop with fallback(" +
                   policy_name(o.fallback) + ") cannot run: " + why);
}

void run_on_devices_with_fallback(runtime_state& rt, const loop_site& site, std::uint64_t count,
                                  const loop_options& o, loop_body& body, const std::vector<int>& devices,
                                  loop_record& r) {
  lease_pool& pool = *rt.pool;
  progress_bar bar(rt.config.progress, site);
  progress_fn progress;
  if (bar.wanted())
    progress = [&bar, count](std::uint64_t done) { bar.update(done, count); };
  const schedule_policy& schedule = choose_schedule(o.schedule, regions_live());
  // Page-locked while the chunks copy from and to it, and after, for the next
  // loop over the same memory (host_pinning.h). Inside a data region too: a
  // section the region does not hold is copied per chunk.
  pin_hold pinned;
  if (pool.get(devices.front()).kind() == device_kind::cuda)
    if (registration_cache* cache = registration_cache::global()) {
      std::vector<std::pair<const void*, std::size_t>> ranges;
      body.host_ranges(ranges);
      if (!ranges.empty())
        pinned = cache->hold(std::move(ranges));
    }
  // A chunk that failed after its kernel ran may have written part of memory
  // the loop writes in place: it cannot run again. Device memory cannot go
  // to another device or the CPU either.
  const in_place_memory* ip = o.mode == loop_mode::kernel ? body.in_place() : nullptr;
  const bool no_retry =
      ip && pool.get(devices.front()).kind() == device_kind::cuda && (ip->written || ip->host_cannot);
  device_loop_result res = run_on_devices(pool, devices, slots_for(o, pool.get(devices.front())), body, count,
                                          schedule, o.chunk, o.fallback == fallback_policy::none || no_retry,
                                          progress, may_leave_queued(rt.config, o, pool.get(devices.front()), body, schedule));
  bar.finish();
  if (res.error) // every chunk has stopped and every lease is back
    std::rethrow_exception(res.error);
  if (!res.body_fault.empty())
    // Not a device failure to fall back from: the CPU would run the same
    // faulting iterations with undefined behaviour, and every GPU tried
    // would be lost for the rest of the process.
    throw loop_error(std::string("gpu-autopar: ") + site.file + ":" + std::to_string(site.line) +
                     ": the loop body faults on the GPU: " + res.body_fault +
                     "; not retried on other devices or the CPU");

  for (std::size_t i = 0; i < devices.size(); ++i) {
    const device_stats& s = res.stats[i];
    report_entry e{pool.get(devices[i]).id(), pool.get(devices[i]).kind()};
    e.iterations = s.iterations;
    e.chunks = s.chunks;
    e.retries = s.retries;
    e.failures = s.failures;
    e.seconds = s.seconds;
    e.counters = s.counters;
    r.devices.push_back(e);
  }
  if (res.failures.empty() && res.leftover.empty()) {
    assert(iterations_reported(r) == count);
    return;
  }
  std::string failed = describe_failures(pool, res.failures);
  if (failed.empty()) // its devices were lost to another loop before they failed any of its chunks
    for (int d : devices)
      if (pool.get(d).retired())
        failed += (failed.empty() ? "" : "; ") + pool.get(d).name() + " is out of use: " + pool.get(d).retired_why();
  bool dropped = false;
  // One warning per loop and device, with how many more failures it had this
  // run: a device short of memory splits chunks thousands of times. Every
  // failure is shown at GPU_AUTOPAR_LOG=debug.
  std::map<int, unsigned> failures_of;
  for (const device_failure& f : res.failures)
    ++failures_of[f.device];
  for (const device_failure& f : res.failures) {
    dropped = dropped || f.dropped;
    unsigned& more = failures_of[f.device];
    const bool first = more > 0 && logs(rt, log_level::warn) && rt.first_warning(site.file, site.line, f.device);
    if (first || logs(rt, log_level::debug))
      write_log_line(rt, "gpu-autopar: warning: " + std::string(site.file) + ":" + std::to_string(site.line) + ": " +
               pool.get(f.device).name() + " failed chunk [" + std::to_string(f.range.begin) + ", " +
               std::to_string(f.range.end) + ") (" + f.what + "); " +
               (f.completed ? std::string("its results had all come back, so it was not run again; ") +
                                  (f.lost ? "the device is out of use for the rest of the process"
                                          : "the device is out of rotation for this loop")
                : f.lost    ? "retried elsewhere, the device is out of use for the rest of the process"
                : f.dropped ? "retried elsewhere, the device is out of rotation for this loop"
                            : "split in two and retried") +
               (first && more > 1 && !logs(rt, log_level::debug)
                    ? "; " + std::to_string(more - 1) + " more failures of " + pool.get(f.device).name() +
                          " in this loop not shown (GPU_AUTOPAR_LOG=debug shows each)"
                    : std::string()) +
               "\n");
    if (first)
      more = 0; // said for this device; later failures of it are counted in that line
  }
  if (no_retry && !res.leftover.empty())
    throw loop_error(std::string("gpu-autopar: ") + site.file + ":" + std::to_string(site.line) + ": " + failed +
                     "; not retried elsewhere: " + ip->what +
                     (ip->written ? ", which the loop writes in place (a failed chunk may have written part of it)"
                                  : ", used in place on its GPU only"));
  if (res.leftover.empty()) {
    if (dropped) { // fewer devices than planned finished the loop
      r.fallback_to = "gpu";
      r.fallback_reason = failed;
    }
    assert(iterations_reported(r) == count);
    return;
  }
  if (o.fallback != fallback_policy::auto_)
    fail_loop(site, o,
              failed + (o.fallback == fallback_policy::none ? " (fallback(none) allows no retry elsewhere)"
                                                            : "; no device is left and fallback(gpu) forbids the CPU"));
  // Devices are exhausted: what is left runs on CPU threads.
  report_entry cpu{-1, device_kind::cpu};
  host_pool& hp = host_pool::global();
  cpu.threads = int(hp.size());
  const auto t0 = clock::now();
  for (const index_range& left : res.leftover) {
    auto piece = [&body, &left](std::uint64_t b, std::uint64_t e) { body.run_host(left.begin + b, left.begin + e); };
    const std::uint64_t pieces = std::uint64_t(hp.size()) * kPiecesPerThread;
    hp.run(left.size(), (left.size() + pieces - 1) / pieces, make_range_fn(piece));
    cpu.iterations += left.size();
    cpu.chunks += 1;
  }
  cpu.seconds = std::chrono::duration<double>(clock::now() - t0).count();
  r.devices.push_back(cpu);
  assert(iterations_reported(r) == count);
  r.fallback_to = "cpu";
  r.fallback_reason = failed;
  if (logs(rt, log_level::warn))
    write_log_line(rt, "gpu-autopar: warning: " + std::string(site.file) + ":" + std::to_string(site.line) + ": " +
             std::to_string(cpu.iterations) + " iterations fell back to CPU threads: no device is left\n");
}

std::atomic<distributor*> g_distributor{nullptr};

} // namespace

void set_distributor(distributor* d) { g_distributor.store(d, std::memory_order_release); }
distributor* installed_distributor() { return g_distributor.load(std::memory_order_acquire); }

void write_report_line(const runtime_state& rt, const std::string& line) {
  if (rt.report_fd < 0)
    return;
  // One write on an O_APPEND descriptor: lines of concurrent loops and
  // processes do not interleave.
  ssize_t n = ::write(rt.report_fd, line.data(), line.size());
  (void)n;
}

void write_log_line(const runtime_state& rt, std::string line) {
  static const std::string prefix = "gpu-autopar: ";
  if (rt.rank >= 0 && line.compare(0, prefix.size(), prefix) == 0)
    line.insert(prefix.size(), "[rank " + std::to_string(rt.rank) + "] ");
  std::fputs(line.c_str(), stderr);
}

void run_here(const loop_site& site, std::uint64_t count, const loop_options& options, loop_body& body,
              const report_tag* tag) {
  runtime_state& rt = runtime();
  const bool recorded = rt.report_fd >= 0 || logs(rt, log_level::info);
  const clock::time_point t0 = recorded ? clock::now() : clock::time_point{};
  loop_record r;
  if (recorded) {
    r.site = site;
    r.rank = rt.rank;
    r.mode = options.mode;
    r.iterations = count;
    if (tag) {
      r.tag_json = tag->json;
      r.tag_log = tag->log;
    }
  }

  // The report line of a loop that ran whole on the calling thread.
  auto finish_serial = [&](loop_record& rec) {
    rec.serial = true;
    report_entry e{0, device_kind::cpu};
    e.iterations = count;
    e.chunks = count ? 1 : 0;
    rec.devices.push_back(e);
    finish(rt, rec, t0);
  };

  // Device memory the loop uses in place (in_place.h): never on the host.
  const in_place_memory* ip = options.mode == loop_mode::kernel ? body.in_place() : nullptr;
  const bool host_cannot = ip && ip->host_cannot;
  auto refuse_host = [&](const std::string& why) {
    throw loop_error(std::string("gpu-autopar: ") + site.file + ":" + std::to_string(site.line) +
                     ": the loop cannot run: " + why + "; device memory is used in place on its own GPU, never "
                     "copied to or from the host");
  };
  if (host_cannot && options.serial_reason)
    refuse_host(std::string("it must run serially on the calling thread (") + options.serial_reason + "), but " +
                ip->what);

  // Objects the tool could not prove distinct overlap: the iterations may
  // depend on each other, so they run in order, here. Said once per loop.
  if (options.serial_reason) {
    body.run_host(0, count);
    if (logs(rt, log_level::warn) && rt.first_warning(site.file, site.line, -1))
      write_log_line(rt, std::string("gpu-autopar: warning: ") + site.file + ":" + std::to_string(site.line) +
                             ": running serially on the calling thread: " + options.serial_reason + "\n");
    if (recorded) {
      r.serial_reason = options.serial_reason;
      finish_serial(r);
    }
    return;
  }

  // Host mode, fallback(cpu) and GPU_AUTOPAR_DEVICES=cpu go to CPU threads by
  // choice, which is not a fallback.
  device_plan plan;
  if (options.mode != loop_mode::host && options.fallback != fallback_policy::cpu) {
    plan = plan_devices(rt, options, body);
    if (options.fallback == fallback_policy::none && !plan.devices.empty() && options.max_devices > 0 &&
        int(plan.devices.size()) < options.max_devices)
      fail_loop(site, options,
                "devices(" + std::to_string(options.max_devices) + ") planned, " +
                    std::to_string(plan.devices.size()) + " available");
    if (plan.devices.empty() &&
        (options.fallback == fallback_policy::gpu || options.fallback == fallback_policy::none))
      fail_loop(site, options, std::string("no device to run on: ") + plan.why_none);
  }

  if (host_cannot && plan.devices.empty())
    refuse_host(plan.why_none.empty() ? ip->what : plan.why_none);
  host_pool& hp = host_pool::global();
  const std::uint64_t serial_below =
      host_cannot ? 1 : serial_threshold(options, plan.devices.empty() ? hp.size() : plan.devices.size());
  if (count < serial_below || count == 0) {
    body.run_host(0, count);
    if (recorded) {
      r.serial_below = serial_below;
      finish_serial(r);
    }
    return;
  }

  if (!plan.devices.empty()) {
    if (recorded && !plan.retired.empty()) { // fewer GPUs than the process started with
      r.fallback_to = "gpu";
      r.fallback_reason = plan.retired;
    }
    run_on_devices_with_fallback(rt, site, count, options, body, plan.devices, r);
    if (recorded)
      finish(rt, r, t0);
    return;
  }
  const bool fell_back = options.mode != loop_mode::host && options.fallback != fallback_policy::cpu &&
                         rt.config.devices.source != device_source::cpu;
  if (fell_back) {
    if (recorded) {
      r.fallback_to = "cpu";
      r.fallback_reason = plan.why_none;
    }
    // Said once per process: on a machine without GPUs every loop would repeat it.
    // Under `auto`, a machine without GPUs is expected: info, not a warning.
    const log_level level = rt.config.devices.source == device_source::auto_ && rt.pool->device_count() == 0
                                ? log_level::info
                                : log_level::warn;
    if (logs(rt, level) && !rt.said_no_devices.exchange(true))
      write_log_line(rt, std::string("gpu-autopar: ") + (level == log_level::warn ? "warning: " : "") + site.file + ":" +
               std::to_string(site.line) + ": running on CPU threads: " + plan.why_none + "\n");
  }
  run_on_cpu(hp, count, body);
  if (recorded) {
    report_entry e{0, device_kind::cpu};
    e.threads = int(hp.size());
    e.iterations = count;
    e.chunks = 1;
    e.seconds = std::chrono::duration<double>(clock::now() - t0).count();
    r.devices.push_back(e);
    finish(rt, r, t0);
  }
}

} // namespace detail

void run_loop(const loop_site& site, std::uint64_t count, const loop_options& options, loop_body& body) {
  using namespace detail;
  if (slot_context* lease = current_lease()) {
    run_nested_on_lease(site, count, options, body, *lease);
    return;
  }
  if (host_pool::inside_loop()) { // a loop inside a CPU-path iteration: already parallel
    run_nested_inline(site, count, options, body);
    return;
  }
  if (distributor* d = installed_distributor(); d && !options.serial_reason)
    if (d->run(site, count, options, body))
      return;
  run_here(site, count, options, body, nullptr);
}

device_context* current_device() { return detail::current_lease(); }

void* current_stream() {
  detail::slot_context* lease = detail::current_lease();
  return lease ? lease->stream() : nullptr;
}

} // namespace gpu_autopar
