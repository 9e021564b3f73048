// What a kernel touches, found while its host twin runs: every device
// allocation is made inaccessible for the run, and the SIGSEGV of the first
// read (then the first write) of each one records it and opens it up again.
//
// What it wrote is byte-precise: the first write to an allocation saves a
// copy of it, and the bytes that differ after the run are the writes. An
// allocation-wide write would make every halo copy a race: a device pulling
// its neighbour's edge rows while that neighbour's next kernel writes its
// own rows touches one allocation, but no byte both sides use.
//
// Why not from the arguments' values: gpu-autopar's views hold a pointer
// biased below their allocation (`mem - lo`, so that global indices work),
// and with allocations laid out back to back that value is often exactly the
// base of another allocation, freed or of another device. Judging pointer
// values gave false use-after-free and wrong-device reports (and a fault on a
// healthy device) for correct programs; the pages a kernel really reads and
// writes cannot be wrong that way.
#include "model.h"

#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstring>

namespace standin {

namespace {

// An allocation touched in the tracked run; `before` is its copy from just
// before the first write (null when there was no room for one).
struct tracked {
  allocation* a;
  bool write;
  unsigned char* before;
};

// The run being tracked: at most one (twins run under state::mu), on one thread.
struct tracked_run {
  std::atomic<long> thread{0}; // kernel thread id running the twin, 0 when none
  std::vector<tracked>* touches = nullptr; // reserved up front: the handler never allocates
  // Room for a copy of every live allocation, mapped before the run (pages
  // are only committed when a copy is written): where each one's copy goes.
  unsigned char* copies = nullptr;
  std::size_t copies_bytes = 0;
  std::vector<std::pair<allocation*, std::size_t>>* copy_offsets = nullptr;
  struct sigaction previous;
};
tracked_run run_state;

long thread_id() { return ::syscall(SYS_gettid); }

// The allocation whose mapped pages hold `addr` (freed ones included).
allocation* mapped_allocation(std::uintptr_t addr) {
  auto& all = global().allocations;
  auto it = all.upper_bound(addr);
  if (it == all.begin())
    return nullptr;
  --it;
  return addr < it->second.base + it->second.mapped ? &it->second : nullptr;
}

void on_fault(int, siginfo_t* info, void*) {
  allocation* a = run_state.thread.load() == thread_id()
                      ? mapped_allocation(reinterpret_cast<std::uintptr_t>(info->si_addr))
                      : nullptr;
  if (!a) {
    // Not ours: a real crash. Put the previous handler back; the faulting
    // instruction runs again and gets it.
    ::sigaction(SIGSEGV, &run_state.previous, nullptr);
    return;
  }
  auto& touches = *run_state.touches;
  tracked* t = nullptr;
  for (tracked& x : touches)
    if (x.a == a)
      t = &x;
  if (!t) { // first fault: a read (or a write, which faults once more)
    if (touches.size() == touches.capacity()) {
      ::sigaction(SIGSEGV, &run_state.previous, nullptr);
      return;
    }
    touches.push_back({a, false, nullptr});
    ::mprotect(reinterpret_cast<void*>(a->base), a->mapped, PROT_READ);
  } else { // faulting again while readable: a write; keep what was there first
    t->write = true;
    for (const auto& [b, offset] : *run_state.copy_offsets)
      if (b == a)
        t->before = run_state.copies + offset;
    if (t->before)
      std::memcpy(t->before, reinterpret_cast<const void*>(a->base), a->bytes);
    ::mprotect(reinterpret_cast<void*>(a->base), a->mapped, PROT_READ | PROT_WRITE);
  }
}

// The byte ranges where `now` differs from `before`. Past `most` ranges they
// become one range from the first changed byte to the last: coarser, never
// smaller than the truth.
std::vector<std::pair<std::uintptr_t, std::uintptr_t>> changed_ranges(const unsigned char* before,
                                                                      std::uintptr_t now, std::size_t bytes,
                                                                      std::size_t most = 64) {
  std::vector<std::pair<std::uintptr_t, std::uintptr_t>> ranges;
  const auto* after = reinterpret_cast<const unsigned char*>(now);
  constexpr std::size_t block = 64;
  std::size_t i = 0;
  while (i < bytes) {
    const std::size_t n = std::min(block, bytes - i);
    if (std::memcmp(before + i, after + i, n) == 0) {
      i += n;
      continue;
    }
    for (std::size_t end = i + n; i < end; ++i) {
      if (before[i] == after[i])
        continue;
      if (!ranges.empty() && ranges.back().second == now + i)
        ranges.back().second = now + i + 1;
      else
        ranges.push_back({now + i, now + i + 1});
    }
  }
  if (ranges.size() > most)
    ranges = {{ranges.front().first, ranges.back().second}};
  return ranges;
}

void protect_live(int prot) {
  for (auto& [base, a] : global().allocations)
    if (!a.freed)
      ::mprotect(reinterpret_cast<void*>(base), a.mapped, prot);
}

} // namespace

std::vector<touch> run_tracking_touches(const std::function<void()>& run) {
  std::vector<tracked> touches;
  touches.reserve(global().allocations.size());
  std::vector<std::pair<allocation*, std::size_t>> copy_offsets;
  std::size_t copies_bytes = 0;
  for (auto& [base, a] : global().allocations)
    if (!a.freed) {
      copy_offsets.push_back({&a, copies_bytes});
      copies_bytes += a.mapped;
    }
  void* copies = copies_bytes == 0 ? MAP_FAILED
                                   : ::mmap(nullptr, copies_bytes, PROT_READ | PROT_WRITE,
                                            MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (copies == MAP_FAILED) // no copies: writes are then reported allocation-wide
    copy_offsets.clear();
  run_state.copies = copies == MAP_FAILED ? nullptr : static_cast<unsigned char*>(copies);
  run_state.copies_bytes = copies == MAP_FAILED ? 0 : copies_bytes;
  run_state.copy_offsets = &copy_offsets;
  struct sigaction mine = {};
  mine.sa_sigaction = on_fault;
  mine.sa_flags = SA_SIGINFO | SA_NODEFER;
  sigemptyset(&mine.sa_mask);
  run_state.touches = &touches;
  ::sigaction(SIGSEGV, &mine, &run_state.previous);
  protect_live(PROT_NONE); // freed allocations are PROT_NONE already
  run_state.thread = thread_id();
  run();
  run_state.thread = 0;
  protect_live(PROT_READ | PROT_WRITE);
  for (const tracked& t : touches)
    if (t.a->freed) { // keep stale memory inaccessible (and empty) for the next stale access
      ::madvise(reinterpret_cast<void*>(t.a->base), t.a->mapped, MADV_DONTNEED);
      ::mprotect(reinterpret_cast<void*>(t.a->base), t.a->mapped, PROT_NONE);
    }
  ::sigaction(SIGSEGV, &run_state.previous, nullptr);
  run_state.touches = nullptr;
  std::vector<touch> out;
  out.reserve(touches.size());
  for (const tracked& t : touches) {
    touch result{t.a, {}};
    if (t.before)
      result.writes = changed_ranges(t.before, t.a->base, t.a->bytes);
    else if (t.write)
      result.writes = {{t.a->base, t.a->base + t.a->bytes}};
    out.push_back(std::move(result));
  }
  if (run_state.copies)
    ::munmap(run_state.copies, run_state.copies_bytes);
  run_state.copies = nullptr;
  run_state.copy_offsets = nullptr;
  return out;
}

} // namespace standin
