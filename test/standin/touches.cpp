// What a kernel touches, found while its host twin runs: every device
// allocation is made inaccessible for the run, and the SIGSEGV of the first
// read (then the first write) of each one records it and opens it up again.
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

#include <atomic>

namespace standin {

namespace {

// The run being tracked: at most one (twins run under state::mu), on one thread.
struct tracked_run {
  std::atomic<long> thread{0}; // kernel thread id running the twin, 0 when none
  std::vector<touch>* touches = nullptr; // reserved up front: the handler never allocates
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
  touch* t = nullptr;
  for (touch& x : touches)
    if (x.a == a)
      t = &x;
  if (!t) { // first fault: a read (or a write, which faults once more)
    if (touches.size() == touches.capacity()) {
      ::sigaction(SIGSEGV, &run_state.previous, nullptr);
      return;
    }
    touches.push_back({a, false});
    ::mprotect(reinterpret_cast<void*>(a->base), a->mapped, PROT_READ);
  } else { // faulting again while readable: a write
    t->write = true;
    ::mprotect(reinterpret_cast<void*>(a->base), a->mapped, PROT_READ | PROT_WRITE);
  }
}

void protect_live(int prot) {
  for (auto& [base, a] : global().allocations)
    if (!a.freed)
      ::mprotect(reinterpret_cast<void*>(base), a.mapped, prot);
}

} // namespace

std::vector<touch> run_tracking_touches(const std::function<void()>& run) {
  std::vector<touch> touches;
  touches.reserve(global().allocations.size());
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
  for (const touch& t : touches)
    if (t.a->freed) { // keep stale memory inaccessible (and empty) for the next stale access
      ::madvise(reinterpret_cast<void*>(t.a->base), t.a->mapped, MADV_DONTNEED);
      ::mprotect(reinterpret_cast<void*>(t.a->base), t.a->mapped, PROT_NONE);
    }
  ::sigaction(SIGSEGV, &run_state.previous, nullptr);
  run_state.touches = nullptr;
  return touches;
}

} // namespace standin
