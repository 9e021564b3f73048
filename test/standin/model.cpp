#include "model.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>

namespace standin {

void join(clock& into, const clock& from) {
  for (const auto& [sid, id] : from) {
    auto& mine = into[sid];
    mine = std::max(mine, id);
  }
}

namespace {

// "512M", "2G", "65536": bytes.
std::size_t parse_size(const std::string& s) {
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  std::size_t unit = 1;
  if (end && *end) {
    switch (*end) {
    case 'k': case 'K': unit = std::size_t(1) << 10; break;
    case 'm': case 'M': unit = std::size_t(1) << 20; break;
    case 'g': case 'G': unit = std::size_t(1) << 30; break;
    default: break;
    }
  }
  return static_cast<std::size_t>(v * double(unit));
}

std::vector<std::string> split(const char* s, char sep) {
  std::vector<std::string> out;
  if (!s || !*s)
    return out;
  std::stringstream in(s);
  std::string item;
  while (std::getline(in, item, sep))
    if (!item.empty())
      out.push_back(item);
  return out;
}

state* make_state() {
  auto* s = new state; // never destroyed: the exit checks run after static destructors
  const char* n = std::getenv("GPU_AUTOPAR_STANDIN_DEVICES");
  const int count = n ? std::atoi(n) : 1;
  const auto memory = split(std::getenv("GPU_AUTOPAR_STANDIN_MEMORY"), ':');
  const auto cc = split(std::getenv("GPU_AUTOPAR_STANDIN_CC"), ':');
  s->devices.resize(std::max(count, 0));
  for (int d = 0; d < count; ++d) {
    device& dev = s->devices[d];
    dev.memory = memory.empty() ? (std::size_t(16) << 30) : parse_size(memory[std::min<std::size_t>(d, memory.size() - 1)]);
    if (!cc.empty()) {
      const std::string& c = cc[std::min<std::size_t>(d, cc.size() - 1)];
      dev.major = std::atoi(c.c_str());
      auto dot = c.find('.');
      dev.minor = dot == std::string::npos ? 0 : std::atoi(c.c_str() + dot + 1);
    }
  }
  for (const auto& k : split(std::getenv("GPU_AUTOPAR_STANDIN_FAIL_ALLOC"), ','))
    s->fail_allocs.push_back(std::strtoull(k.c_str(), nullptr, 10));
  for (const auto& k : split(std::getenv("GPU_AUTOPAR_STANDIN_FAULT_LAUNCH"), ',')) {
    const auto at = k.find('@');
    if (at == std::string::npos)
      s->fault_launches.push_back(std::strtoull(k.c_str(), nullptr, 10));
    else
      s->fault_device_launches.emplace_back(std::atoi(k.c_str()), std::strtoull(k.c_str() + at + 1, nullptr, 10));
  }
  for (const auto& k : split(std::getenv("GPU_AUTOPAR_STANDIN_LOSE_AT_WAIT"), ','))
    if (const auto at = k.find('@'); at != std::string::npos)
      s->lose_at_waits.emplace_back(std::atoi(k.c_str()), std::strtoull(k.c_str() + at + 1, nullptr, 10));
  for (const auto& k : split(std::getenv("GPU_AUTOPAR_STANDIN_LOSE_AFTER_D2H"), ','))
    if (const auto at = k.find('@'); at != std::string::npos)
      s->lose_after_d2h.emplace_back(std::atoi(k.c_str()), std::strtoull(k.c_str() + at + 1, nullptr, 10));
  for (const auto& a : split(std::getenv("GPU_AUTOPAR_STANDIN_IMAGE"), ','))
    s->image_majors.push_back(std::atoi(a.c_str()) / 10); // sm_80 code runs on 8.x devices
  s->trace = std::getenv("GPU_AUTOPAR_STANDIN_TRACE") != nullptr;
  if (const char* p = std::getenv("GPU_AUTOPAR_STANDIN_PEER"))
    s->peers = std::string(p) != "0";
  if (const char* log = std::getenv("GPU_AUTOPAR_STANDIN_LOG"))
    s->log_path = log;
  if (const char* t = std::getenv("GPU_AUTOPAR_STANDIN_TIMELINE"))
    s->timeline_path = t;
  return s;
}

// Kept outside `state` so that legacy streams can be created while it is built.
bool overlaps(const access& a, const access& b) { return a.lo < b.hi && b.lo < a.hi && (a.write || b.write); }

const access* conflict(const op& a, const op& b) {
  for (const auto& x : a.accesses)
    for (const auto& y : b.accesses)
      if (overlaps(x, y))
        return &x;
  return nullptr;
}

// Whether clock c says that op a has finished.
bool covered(const op& a, const clock& c) {
  auto it = c.find(a.stream);
  return it != c.end() && it->second >= a.id;
}

bool happens_before(const op& a, const op& b) { return covered(a, b.after); }

std::string where(const op& o) {
  return o.what + " (stream " + std::to_string(o.stream) + " of device " + std::to_string(o.device) + ")";
}

void prune_done(state& s) {
  std::uint64_t oldest_pending = UINT64_MAX;
  for (const auto& st : s.streams)
    if (!st->pending.empty())
      oldest_pending = std::min(oldest_pending, st->pending.front().id);
  // An executed op stays while an op that may run concurrently with it can
  // still come: one enqueued before the host learned that it finished.
  s.done.erase(std::remove_if(s.done.begin(), s.done.end(),
                              [&](const op& d) { return d.observed != UINT64_MAX && d.observed < oldest_pending; }),
               s.done.end());
  while (s.done.size() > 4096)
    s.done.pop_front();
}

void poison(state& s, const op& o, const std::string& why) {
  s.devices[o.device].sticky = cudaErrorIllegalAddress;
  log_line("note: device " + std::to_string(o.device) + ": " + why + " in " + o.what +
           "; the context is poisoned (every later call on it fails with cudaErrorIllegalAddress)");
}

// Runs a kernel op, turning what it touched into its accesses: freed memory
// faults as on a GPU (illegal address), another device's memory is reported.
void run_kernel(state& s, op& o) {
  bool stale = false;
  std::uint64_t traffic = 0;
  for (const touch& t : run_tracking_touches(o.run)) {
    traffic += t.traffic;
    void* base = reinterpret_cast<void*>(t.a->base);
    if (t.a->freed) {
      violation("use-after-free", where(o) + " touches " + describe(base) + " after cudaFree");
      stale = true;
      continue;
    }
    if (t.a->device != o.device && !t.a->managed)
      violation("wrong-device", where(o) + " touches " + describe(base));
    for (const auto& [lo, hi] : t.reads)
      o.accesses.push_back({lo, hi, false});
    for (const auto& [lo, hi] : t.writes)
      o.accesses.push_back({lo, hi, true});
  }
  kernel_ran(o.id, traffic);
  if (stale)
    poison(s, o, "fault (use after free)");
}

void execute(state& s, op& o) {
  device& dev = s.devices[o.device];
  if (dev.sticky != cudaSuccess) { // a poisoned context runs nothing more
    if (o.cancel)
      o.cancel();
    o.cancel = nullptr;
    return;
  }
  if (o.faults) {
    poison(s, o, "fault");
    return;
  }
  if (s.trace)
    log_line("run " + where(o));
  if (o.kernel)
    run_kernel(s, o);
  else if (o.run)
    o.run();
  o.run = nullptr;
  if (o.eng == engine::d2h) {
    const std::uint64_t n = ++dev.d2h_ran;
    for (const auto& [d, k] : s.lose_after_d2h)
      if (d == o.device && k == n) {
        dev.sticky = cudaErrorIllegalAddress;
        log_line("note: device " + std::to_string(d) + ": context lost right after its device-to-host copy " +
                 std::to_string(k) + " ran (GPU_AUTOPAR_STANDIN_LOSE_AFTER_D2H); what was queued behind it never runs");
      }
  }
  // After the run: a kernel's accesses are known only once it ran.
  for (const op& d : s.done)
    if (d.stream != o.stream && !happens_before(d, o) && !happens_before(o, d))
      if (const access* a = conflict(o, d))
        violation("unordered-access", where(o) + " and " + where(d) + " both touch " +
                                          describe(reinterpret_cast<void*>(a->lo)) + " and nothing orders them");
  s.done.push_back(std::move(o));
  prune_done(s);
}

} // namespace

state& global() {
  static state* s = make_state();
  return *s;
}

std::unique_lock<std::recursive_mutex> lock() { return std::unique_lock<std::recursive_mutex>(global().mu); }

int& current_device() {
  thread_local int d = 0;
  return d;
}

cudaError_t& last_error() {
  thread_local cudaError_t e = cudaSuccess;
  return e;
}

void log_line(const std::string& line) {
  const std::string& path = global().log_path;
  std::string text = "[standin " + std::to_string(getpid()) + "] " + line + "\n";
  if (path.empty()) {
    std::fputs(text.c_str(), stderr);
    return;
  }
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  if (fd < 0)
    return;
  ssize_t ignored = ::write(fd, text.data(), text.size());
  (void)ignored;
  ::close(fd);
}

void violation(const std::string& kind, const std::string& message) {
  log_line("violation " + kind + ": " + message);
  if (!global().log_path.empty())
    std::fprintf(stderr, "[standin] violation %s: %s\n", kind.c_str(), message.c_str());
}

cudaError_t fail(cudaError_t e) {
  if (e != cudaSuccess)
    last_error() = e;
  return e;
}

cudaError_t check_device(int dev) {
  state& s = global();
  if (dev < 0 || dev >= int(s.devices.size()))
    return cudaErrorInvalidDevice;
  return s.devices[dev].sticky;
}

allocation* find_allocation(const void* p, bool include_freed) {
  state& s = global();
  auto addr = reinterpret_cast<std::uintptr_t>(p);
  auto it = s.allocations.upper_bound(addr);
  if (it == s.allocations.begin())
    return nullptr;
  --it;
  allocation& a = it->second;
  if (addr >= a.base + std::max<std::size_t>(a.bytes, 1) || (a.freed && !include_freed))
    return nullptr;
  return &a;
}

std::string describe(const void* p) {
  char b[32];
  std::snprintf(b, sizeof b, "%p", p);
  allocation* a = find_allocation(p, true);
  if (!a)
    return std::string(b) + " (host memory)";
  return std::string(b) + " (" + (a->freed ? "freed " : "") + "device " + std::to_string(a->device) + " memory)";
}

stream& legacy_stream(int dev) {
  state& s = global();
  device& d = s.devices[dev];
  if (d.legacy_stream < 0) {
    stream& l = new_stream(dev, true);
    l.legacy = true;
    d.legacy_stream = l.id;
  }
  return *s.streams[d.legacy_stream];
}

stream& new_stream(int dev, bool blocking) {
  state& s = global();
  auto st = std::make_unique<stream>();
  st->id = int(s.streams.size());
  st->device = dev;
  st->legacy = false;
  st->blocking = blocking;
  s.streams.push_back(std::move(st));
  return *s.streams.back();
}

// Created streams' handles are their id + 16, so that none is 0 (legacy),
// 1 (cudaStreamLegacy) or 2 (cudaStreamPerThread).
cudaStream_t handle_of(const stream& s) { return reinterpret_cast<cudaStream_t>(std::uintptr_t(s.id) + 16); }

stream* resolve_stream(cudaStream_t h, const char* call) {
  state& s = global();
  auto v = reinterpret_cast<std::uintptr_t>(h);
  if (v <= 2) // the legacy stream; per-thread default streams are modelled as the legacy one
    return &legacy_stream(current_device());
  std::uintptr_t id = v - 16;
  if (v < 16 || id >= s.streams.size()) {
    violation("invalid-stream", std::string(call) + " with a stream handle that no cudaStreamCreate returned");
    return nullptr;
  }
  stream* st = s.streams[id].get();
  if (st->destroyed) {
    violation("invalid-stream", std::string(call) + " with stream " + std::to_string(st->id) + " after cudaStreamDestroy");
    return nullptr;
  }
  return st;
}

void enqueue(stream& st, op o) {
  state& s = global();
  o.id = s.tick++;
  o.stream = st.id;
  o.device = st.device;
  o.after = st.tail;
  o.device_after = st.device_tail;
  if (st.legacy) {
    for (const auto& other : s.streams)
      if (other->device == st.device && other->blocking && !other->legacy) {
        join(o.after, other->tail);
        join(o.device_after, other->device_tail);
      }
  } else if (st.blocking) {
    join(o.after, legacy_stream(st.device).tail);
    join(o.device_after, legacy_stream(st.device).device_tail);
  }
  // In time, an op waits for what the device orders it after, and for what
  // its own host thread waited for (its thread's time), not for what other
  // threads learned meanwhile (device_after leaves that out).
  schedule_in_time(o);
  join(o.after, s.host);
  st.tail = o.after;
  st.tail[st.id] = o.id;
  st.device_tail = o.device_after;
  st.device_tail[st.id] = o.id;
  st.pending.push_back(std::move(o));
}

void run_until(int sid, std::uint64_t upto) {
  state& s = global();
  stream& st = *s.streams[sid];
  while (!st.pending.empty() && st.pending.front().id <= upto) {
    op o = std::move(st.pending.front());
    st.pending.pop_front();
    for (const auto& [other, id] : o.after)
      if (other != sid)
        run_until(other, id);
    execute(s, o);
  }
}

void host_waits_for(const clock& c, const clock* device_part) {
  state& s = global();
  for (const auto& [sid, id] : c)
    run_until(sid, id);
  host_time_reaches(device_part ? *device_part : c);
  join(s.host, c);
  for (op& d : s.done)
    if (d.observed == UINT64_MAX && covered(d, c))
      d.observed = s.tick++;
  prune_done(s);
}

void host_waits_for_stream(stream& st) { host_waits_for(st.tail, &st.device_tail); }

void host_waits_for_device(int dev) {
  state& s = global();
  clock c, device_part;
  for (const auto& st : s.streams)
    if (st->device == dev) {
      join(c, st->tail);
      join(device_part, st->device_tail);
    }
  host_waits_for(c, &device_part);
}

void host_access(const void* p, std::size_t n, bool write, const char* what, int ordered_stream) {
  state& s = global();
  access mine{reinterpret_cast<std::uintptr_t>(p), reinterpret_cast<std::uintptr_t>(p) + n, write};
  op probe;
  probe.accesses.push_back(mine);
  auto check = [&](const op& o) {
    if (!covered(o, s.host) && conflict(probe, o))
      violation("host-access", std::string(what) + " at " + describe(p) + " while " + where(o) +
                                   " may still be using it; no synchronisation orders them");
  };
  for (const auto& st : s.streams)
    if (st->id != ordered_stream)
      for (const op& o : st->pending)
        check(o);
  for (const op& o : s.done)
    check(o);
}

bool pending_touch(const void* p, std::size_t n) {
  op probe;
  probe.accesses.push_back({reinterpret_cast<std::uintptr_t>(p), reinterpret_cast<std::uintptr_t>(p) + n, true});
  for (const auto& st : global().streams)
    for (const op& o : st->pending)
      if (conflict(probe, o))
        return true;
  return false;
}

void check_at_exit() {
  state& s = global();
  s.exiting = true;
  for (const auto& st : s.streams) {
    if (!st->pending.empty() && s.devices[st->device].sticky == cudaSuccess)
      violation("unsynchronised", std::to_string(st->pending.size()) + " op(s) on stream " + std::to_string(st->id) +
                                      " of device " + std::to_string(st->device) + " never waited for, first: " +
                                      st->pending.front().what);
    host_waits_for_stream(*st); // still run them: races among them are reported too
  }
  for (const auto& r : s.registered)
    violation("leak", std::to_string(r.second - r.first) + " bytes of host memory still registered (cudaHostRegister)");
  if (s.host_registers)
    log_line("note: " + std::to_string(s.host_registers) + " cudaHostRegister, " + std::to_string(s.host_unregisters) +
             " cudaHostUnregister");
  for (const auto& [base, a] : s.allocations) {
    if (a.freed)
      continue;
    std::string what = std::to_string(a.bytes) + " bytes at " + describe(reinterpret_cast<void*>(base)) + " never freed";
    if (s.devices[a.device].sticky != cudaSuccess)
      log_line("note: leak on poisoned device " + std::to_string(a.device) + ": " + what);
    else
      violation("leak", what);
  }
  // Streams a program keeps for its lifetime are not a leak worth failing
  // for (the driver reclaims them at exit); the counts show them.
  for (const auto& st : s.streams)
    if (!st->legacy && !st->destroyed)
      log_line("note: stream " + std::to_string(st->id) + " of device " + std::to_string(st->device) +
               " still exists at exit");
  for (std::size_t d = 0; d < s.devices.size(); ++d) {
    const device& dev = s.devices[d];
    const counts& n = dev.n;
    const issue_shape shape = issued_on(int(d));
    std::ostringstream line;
    line << "counts device=" << d << " mallocs=" << n.mallocs << " malloc_bytes=" << n.malloc_bytes
         << " frees=" << n.frees << " h2d=" << n.h2d << " h2d_bytes=" << n.h2d_bytes << " d2h=" << n.d2h
         << " d2h_bytes=" << n.d2h_bytes << " h2d_pageable_bytes=" << n.h2d_pageable_bytes
         << " d2h_pageable_bytes=" << n.d2h_pageable_bytes << " d2d=" << n.d2d << " d2d_bytes=" << n.d2d_bytes << " p2p=" << n.p2p
         << " p2p_bytes=" << n.p2p_bytes
         << " memsets=" << n.memsets << " memset_bytes=" << n.memset_bytes << " launches=" << n.launches
         << " stream_syncs=" << n.stream_syncs << " device_syncs=" << n.device_syncs
         << " event_syncs=" << n.event_syncs << " streams_created=" << n.streams_created
         << " streams_destroyed=" << n.streams_destroyed << " peak_bytes=" << dev.peak
         << " in_use_bytes=" << dev.used << " poisoned=" << (dev.sticky != cudaSuccess ? 1 : 0)
         << " copy_kernel_overlaps=" << copy_kernel_overlaps(int(d)) << " kernel_streams=" << shape.kernel_streams
         << " unordered_copy_kernel=" << shape.unordered_copy_kernel << " interleaved_issue=" << shape.interleaved_issue;
    log_line(line.str());
  }
  write_timeline();
}

} // namespace standin
