// The stand-in's timeline (timeline.h): a trace of what each host thread
// issued, waited for and spent, replayed at exit on H100 SXM figures.
//
// Replay: each host thread has its own time. Issuing an op costs the thread
// h100::host_call_s; the op starts once its thread issued it, everything it
// is ordered after (its stream, events, the legacy stream) has ended, and its
// engine is free for as long as it takes (the engine's first gap from then
// on: threads issue concurrently, so an op issued later may run in a gap left
// by another thread's ops). A copy from or to pageable memory holds its
// thread until it ends; a wait moves the thread to the end of what it waited
// for, plus the wake-up. Host threads' other synchronisation is invisible
// here, except where the program says so: a runtime's thread that posts a job
// publishes a key (gpu_autopar_standin_handoff) and the worker that takes it
// adopts it, its time moving to at least the poster's, and the same when a
// worker's job ends and the loop's thread has waited for it; and at marks, a
// point where the program's threads are quiescent, where every thread's time
// moves to the latest of them. Engines per device: kernels (one at a time: the
// kernels here are bandwidth-bound, two at once would share HBM), a copy
// engine each way on the host link, and one receiving NVLink copies.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iomanip>
#include <iterator>
#include <set>
#include <sstream>
#include <unordered_map>

#include "model.h"

namespace standin {
namespace {

struct entry {
  enum class kind : std::uint8_t { issue, wait, host, mark, event, publish, adopt } k;
  explicit entry(kind what) : k(what) {}
  int thread = 0;
  std::uint64_t id = 0; // issue: the op; event: its stamp; publish, adopt: the hand-off's key
  int device = -1, stream = -1;
  engine eng = engine::compute;
  bool holds_host = false, kernel = false;
  std::size_t host_bytes = 0;       // issue: a copy to or from the host
  double seconds = 0;               // issue: the op's cost (a kernel's is found later); host: time spent
  std::vector<std::uint64_t> after; // issue: ops it starts after; wait: ops waited for; event: ops it follows
  clock device_after;               // issue: the same per stream (what the device orders it after)
  std::string what;                 // issue: the op; mark: its label
};

struct span {
  int thread, device, stream;
  engine eng;
  double start, end;
  std::string what;
};

struct trace {
  std::vector<entry> entries;
  std::unordered_map<std::uint64_t, std::uint64_t> kernel_traffic; // op id -> bytes
  // The replay, redone when entries were added since.
  std::size_t replayed = SIZE_MAX;
  std::vector<span> spans;
  struct mark_at {
    const entry* e;
    double at;
    double host_bytes; // copied between host and devices so far (scaled)
  };
  std::vector<mark_at> marks;
  std::unordered_map<std::uint64_t, double> event_times; // stamp -> when the event was reached
  std::uint64_t stamps = 0;
  double end = 0; // the last op's end or the last host thread's time
};

trace& the_trace() {
  static auto* t = new trace; // never destroyed: read from the library's destructor
  return *t;
}

int host_thread() {
  static int next = 0;
  thread_local int mine = next++;
  return mine;
}

const char* engine_name(engine e) {
  switch (e) {
  case engine::h2d: return "h2d";
  case engine::d2h: return "d2h";
  case engine::p2p: return "p2p";
  case engine::compute: break;
  }
  return "kernel";
}

void record(entry e) {
  if (global().exiting) // the exit checks' waits are the stand-in's, not the program's
    return;
  e.thread = host_thread();
  the_trace().entries.push_back(std::move(e));
}

std::vector<std::uint64_t> ids_of(const clock& c) {
  std::vector<std::uint64_t> ids;
  ids.reserve(c.size());
  for (const auto& [sid, id] : c)
    ids.push_back(id);
  return ids;
}

double kernel_cost(std::uint64_t traffic) { return h100::kernel_overhead_s + double(traffic) * byte_scale() / h100::hbm_Bps; }

void replay() {
  trace& t = the_trace();
  if (t.replayed == t.entries.size())
    return;
  t.replayed = t.entries.size();
  t.spans.clear();
  t.marks.clear();
  t.event_times.clear();
  t.end = 0;
  double host_bytes = 0;
  std::unordered_map<std::uint64_t, double> ends; // op id -> end
  std::vector<double> now;                         // per host thread
  std::unordered_map<std::uint64_t, double> handoffs; // key -> the latest time a thread published it
  std::vector<std::map<double, double>> busy;      // per device and engine: start -> end
  auto end_of = [&](std::uint64_t id) {
    auto it = ends.find(id);
    return it == ends.end() ? 0.0 : it->second;
  };
  for (const entry& e : t.entries) {
    if (std::size_t(e.thread) >= now.size())
      now.resize(e.thread + 1, 0.0);
    double& host = now[e.thread];
    switch (e.k) {
    case entry::kind::issue: {
      host += h100::host_call_s;
      host_bytes += double(e.host_bytes) * byte_scale();
      double cost = e.seconds;
      if (e.kernel) {
        auto it = t.kernel_traffic.find(e.id);
        const std::uint64_t traffic = it == t.kernel_traffic.end() ? 0 : it->second; // never ran: overhead only
        cost = kernel_cost(traffic);
      }
      double start = host;
      for (std::uint64_t id : e.after)
        start = std::max(start, end_of(id));
      const std::size_t slot = std::size_t(e.device) * 4 + std::size_t(e.eng);
      if (slot >= busy.size())
        busy.resize(slot + 1);
      std::map<double, double>& taken = busy[slot];
      auto it = taken.upper_bound(start);
      if (it != taken.begin() && std::prev(it)->second > start)
        start = std::prev(it)->second;
      for (; it != taken.end() && it->first < start + cost; ++it)
        start = std::max(start, it->second);
      const double end = start + cost;
      taken[start] = end;
      ends[e.id] = end;
      if (e.holds_host)
        host = std::max(host, end);
      t.end = std::max(t.end, end);
      t.spans.push_back({e.thread, e.device, e.stream, e.eng, start, end, e.what});
      break;
    }
    case entry::kind::wait: {
      double until = 0;
      for (std::uint64_t id : e.after)
        until = std::max(until, end_of(id));
      if (until > host)
        host = until + h100::wait_wakeup_s;
      break;
    }
    case entry::kind::host:
      host += e.seconds;
      break;
    case entry::kind::event: { // costs the host nothing: stamped once its thread got there and its stream did
      double at = host;
      for (std::uint64_t id : e.after)
        at = std::max(at, end_of(id));
      t.event_times[e.id] = at;
      break;
    }
    case entry::kind::publish: { // a thread hands work on: whoever takes it is no earlier
      double& at = handoffs[e.id];
      at = std::max(at, host);
      break;
    }
    case entry::kind::adopt: {
      auto it = handoffs.find(e.id);
      if (it != handoffs.end())
        host = std::max(host, it->second);
      break;
    }
    case entry::kind::mark: { // a point where every host thread is quiescent: they all meet there
      const double at = *std::max_element(now.begin(), now.end());
      std::fill(now.begin(), now.end(), at);
      t.marks.push_back({&e, at, host_bytes});
      break;
    }
    }
    t.end = std::max(t.end, host);
  }
}

} // namespace

double byte_scale() {
  static const double k = [] {
    const char* s = std::getenv("GPU_AUTOPAR_STANDIN_SCALE");
    const double v = s ? std::strtod(s, nullptr) : 1.0;
    return v > 0 ? v : 1.0;
  }();
  return k;
}

double copy_cost(std::size_t bytes, link l) {
  double rate = h100::pcie_pinned_Bps;
  switch (l) {
  case link::pcie_pinned: break;
  case link::pcie_pageable: rate = h100::pcie_pageable_Bps; break;
  case link::nvlink: rate = h100::nvlink_Bps; break;
  case link::hbm: rate = h100::hbm_Bps / 2; break; // reads and writes the same memory
  }
  return h100::copy_latency_s + double(bytes) * byte_scale() / rate;
}

double memset_cost(std::size_t bytes) { return h100::kernel_overhead_s + double(bytes) * byte_scale() / h100::hbm_Bps; }

void kernel_ran(std::uint64_t op_id, std::uint64_t traffic) { the_trace().kernel_traffic[op_id] = traffic; }

void host_spends(double seconds) {
  entry e(entry::kind::host);
  e.seconds = seconds;
  record(std::move(e));
}

void host_registers(std::size_t bytes) {
  host_spends(h100::register_call_s + double(bytes) * byte_scale() / h100::register_Bps);
}

void host_unregisters(std::size_t bytes) {
  host_spends(h100::register_call_s + double(bytes) * byte_scale() / h100::unregister_Bps);
}

void schedule_in_time(const op& o) {
  entry e(entry::kind::issue);
  e.id = o.id;
  e.device = o.device;
  e.stream = o.stream;
  e.eng = o.eng;
  e.holds_host = o.holds_host;
  e.host_bytes = o.host_bytes;
  e.kernel = o.kernel;
  e.seconds = o.cost;
  e.after = ids_of(o.device_after);
  e.device_after = o.device_after;
  e.what = o.what;
  record(std::move(e));
}

void host_time_reaches(const clock& c) {
  entry e(entry::kind::wait);
  e.after = ids_of(c);
  record(std::move(e));
}

std::uint64_t event_recorded(const clock& c) {
  entry e(entry::kind::event);
  const std::uint64_t stamp = ++the_trace().stamps;
  e.id = stamp;
  e.after = ids_of(c);
  record(std::move(e));
  return stamp;
}

double event_time(std::uint64_t stamp) {
  replay();
  const auto& times = the_trace().event_times;
  auto it = times.find(stamp);
  return it == times.end() ? 0.0 : it->second;
}

bool pinned(const void* p, std::size_t n) {
  const auto lo = reinterpret_cast<std::uintptr_t>(p), hi = lo + n;
  for (const auto* ranges : {&global().registered, &global().host_allocated})
    for (const auto& r : *ranges)
      if (r.first <= lo && hi <= r.second)
        return true;
  return false;
}

std::uint64_t copy_kernel_overlaps(int dev) {
  replay();
  std::uint64_t n = 0;
  const auto& all = the_trace().spans;
  for (const span& k : all) {
    if (k.device != dev || k.eng != engine::compute)
      continue;
    for (const span& c : all)
      if (c.device == dev && c.eng != engine::compute && c.stream != k.stream && c.start < k.end && k.start < c.end)
        ++n;
  }
  return n;
}

namespace {
// Whether the device orders `later` after `earlier`: its clock covers it
// (clocks are transitive: a stream's tail joins what its events waited for).
bool device_orders(const entry& earlier, const entry& later) {
  auto it = later.device_after.find(earlier.stream);
  return it != later.device_after.end() && it->second >= earlier.id;
}
} // namespace

issue_shape issued_on(int dev) {
  issue_shape shape;
  std::vector<const entry*> kernels, copies;
  std::set<int> streams;
  for (const entry& e : the_trace().entries) {
    if (e.k != entry::kind::issue || e.device != dev)
      continue;
    if (e.eng == engine::compute && e.kernel) {
      kernels.push_back(&e);
      streams.insert(e.stream);
    } else if (e.eng == engine::h2d || e.eng == engine::d2h) {
      copies.push_back(&e);
    }
  }
  shape.kernel_streams = streams.size();
  const auto& all = the_trace().entries;
  std::map<int, std::size_t> first_in; // stream -> its first copy in since its last kernel
  for (std::size_t i = 0; i < all.size(); ++i) {
    const entry& e = all[i];
    if (e.k != entry::kind::issue || e.device != dev)
      continue;
    if (e.eng == engine::h2d) {
      first_in.emplace(e.stream, i);
    } else if (e.eng == engine::compute && e.kernel) {
      auto it = first_in.find(e.stream);
      if (it != first_in.end()) {
        for (std::size_t j = it->second + 1; j < i; ++j) {
          const entry& o = all[j];
          if (o.k == entry::kind::issue && o.device == dev && o.stream != e.stream &&
              (o.eng == engine::h2d || (o.eng == engine::compute && o.kernel))) {
            ++shape.interleaved_issue;
            break;
          }
        }
        first_in.erase(it);
      }
    }
  }
  for (const entry* k : kernels)
    for (const entry* c : copies)
      if (c->stream != k->stream && !device_orders(*c, *k) && !device_orders(*k, *c))
        ++shape.unordered_copy_kernel;
  return shape;
}

void write_timeline() {
  replay();
  const trace& t = the_trace();
  for (const auto& m : t.marks) {
    std::ostringstream line;
    line << std::fixed << "time mark=" << m.e->what << " thread=" << m.e->thread << " at_us=" << m.at * 1e6
         << " host_bytes=" << std::setprecision(0) << m.host_bytes;
    log_line(line.str());
  }
  if (std::getenv("GPU_AUTOPAR_STANDIN_TIME")) {
    std::ostringstream line;
    line.precision(6);
    int threads = 0;
    for (const entry& e : t.entries)
      threads = std::max(threads, e.thread + 1);
    line << std::fixed << "time modelled_s=" << t.end << " scale=" << byte_scale() << " host_threads=" << threads;
    for (std::size_t d = 0; d < global().devices.size(); ++d) {
      double busy[4] = {0, 0, 0, 0};
      for (const span& s : t.spans)
        if (s.device == int(d))
          busy[int(s.eng)] += s.end - s.start;
      line << " device" << d << "_busy_s=" << busy[0] << "/" << busy[1] << "/" << busy[2] << "/" << busy[3];
    }
    log_line(line.str() + " (busy: kernel/h2d/d2h/p2p engines; H100 SXM figures, docs/runtime.md)");
  }
  const std::string& path = global().timeline_path;
  if (path.empty())
    return;
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (!f)
    return;
  for (const span& s : t.spans)
    std::fprintf(f, "device=%d stream=%d engine=%s start_us=%.3f end_us=%.3f thread=%d what=%s\n", s.device, s.stream,
                 engine_name(s.eng), s.start * 1e6, s.end * 1e6, s.thread, s.what.c_str());
  std::fclose(f);
}

} // namespace standin

extern "C" void gpu_autopar_standin_mark(const char* label) {
  auto guard = standin::lock();
  standin::entry e(standin::entry::kind::mark);
  e.what = label ? label : "";
  standin::record(std::move(e));
}

// A host thread handed work to another (`adopt` 0: this thread publishes
// `key`; 1: this thread took what was published under it). gpu-autopar's
// lease pool calls it, looked up with dlsym (absent from the real CUDA
// runtime): the stand-in cannot otherwise see a worker start a job that the
// loop's thread posted, or that thread wait for the worker.
extern "C" void gpu_autopar_standin_handoff(std::uint64_t key, int adopt) {
  auto guard = standin::lock();
  standin::entry e(adopt ? standin::entry::kind::adopt : standin::entry::kind::publish);
  e.id = key;
  if (standin::global().trace)
    standin::log_line(std::string(adopt ? "adopt " : "publish ") + std::to_string(key));
  standin::record(std::move(e));
}
