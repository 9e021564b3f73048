// The stand-in's timeline (model.h): when each op would run on a GPU, in
// simulated seconds. Ops run on the host only when waited for, so real time
// says nothing about overlap; this model does. Each host thread has its own
// time, which moves on when it waits (to the end of what it waited for) or is
// held by a copy from or to pageable memory. An op starts when its thread
// issued it, everything it is ordered after (its stream, events, the legacy
// stream) has ended, and its engine (kernels, copies in, copies out) is free
// for as long as it takes.
#include <algorithm>
#include <cstdio>
#include <unordered_map>

#include "model.h"

namespace standin {
namespace {

struct span {
  int device, stream;
  engine eng;
  double start, end;
  std::string what;
};

double& host_now() {
  thread_local double t = 0;
  return t;
}

std::unordered_map<std::uint64_t, double>& ends() { // op id -> end
  static auto* m = new std::unordered_map<std::uint64_t, double>;
  return *m;
}
std::vector<span>& spans() {
  static auto* v = new std::vector<span>;
  return *v;
}

double end_of(std::uint64_t id) {
  auto it = ends().find(id);
  return it == ends().end() ? 0 : it->second;
}

const char* engine_name(engine e) {
  switch (e) {
  case engine::h2d: return "h2d";
  case engine::d2h: return "d2h";
  case engine::compute: break;
  }
  return "kernel";
}

} // namespace

double copy_cost(std::size_t bytes) { return 10e-6 + double(bytes) / 16e9; }
double kernel_cost(unsigned long long threads) { return 5e-6 + double(threads) * 1e-9; }

void schedule_in_time(const op& o) {
  device& d = global().devices[o.device];
  double start = host_now();
  for (const auto& [sid, id] : o.after)
    start = std::max(start, end_of(id));
  // The engine's first gap from `start` on that is long enough: host threads
  // issue concurrently, so an op issued later in real time may well run in a
  // gap left by another thread's ops (its copy while their kernel runs).
  std::map<double, double>& busy = d.busy[int(o.eng)];
  for (const auto& [from, to] : busy) {
    if (to <= start)
      continue;
    if (from >= start + o.cost)
      break;
    start = to;
  }
  const double end = start + o.cost;
  busy[start] = end;
  ends()[o.id] = end;
  if (o.holds_host)
    host_now() = std::max(host_now(), end);
  spans().push_back({o.device, o.stream, o.eng, start, end, o.what});
}

void host_time_reaches(const clock& c) {
  for (const auto& [sid, id] : c)
    host_now() = std::max(host_now(), end_of(id));
}

bool pinned(const void* p, std::size_t n) {
  const auto lo = reinterpret_cast<std::uintptr_t>(p), hi = lo + n;
  for (const auto& r : global().registered)
    if (r.first <= lo && hi <= r.second)
      return true;
  return false;
}

std::uint64_t copy_kernel_overlaps(int dev) {
  std::uint64_t n = 0;
  const auto& all = spans();
  for (const span& k : all) {
    if (k.device != dev || k.eng != engine::compute)
      continue;
    for (const span& c : all)
      if (c.device == dev && c.eng != engine::compute && c.stream != k.stream && c.start < k.end && k.start < c.end)
        ++n;
  }
  return n;
}

void write_timeline() {
  const std::string& path = global().timeline_path;
  if (path.empty())
    return;
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (!f)
    return;
  for (const span& s : spans())
    std::fprintf(f, "device=%d stream=%d engine=%s start_us=%.3f end_us=%.3f what=%s\n", s.device, s.stream,
                 engine_name(s.eng), s.start * 1e6, s.end * 1e6, s.what.c_str());
  std::fclose(f);
}

} // namespace standin
