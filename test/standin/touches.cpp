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
// What it read is byte-precise where the program's host code reports its
// loads and stores (test builds compiled with -fsanitize=kernel-address,
// whose checks call the handlers in gpu_autopar_standin/hook.h, which call
// gpu_autopar_standin_access() here): each byte the twin loaded or stored is
// marked, per allocation. Otherwise a read is allocation-wide: two kernels of
// one loop each updating their own part of one allocation in place (managed
// memory on two GPUs, device memory from two streams) would both "read" all
// of it, a race where no byte both use. An allocation whose first fault is at
// a byte no handler reported (code built without the checks touched it) is
// read allocation-wide, as before.
//
// For the timeline (timeline.h) it also counts the bytes moved: allocations
// are opened block by block (at most kBlocks blocks each), so the blocks a
// kernel read and the blocks it wrote are known, whatever the values.
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
#include <ucontext.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstring>

namespace standin {

namespace {

using ranges = std::vector<std::pair<std::uintptr_t, std::uintptr_t>>;

// An allocation touched in the tracked run; `before` is its copy from just
// before the first write (null when there was no room for one); `first` the
// address of the first access, which faulted.
struct tracked {
  allocation* a;
  bool write;
  unsigned char* before;
  std::uintptr_t first;
  std::uint8_t* blocks; // per block of the allocation: kRead | kWritten
};

constexpr std::uint8_t kRead = 1, kWritten = 2;
constexpr std::size_t kBlocks = 256;

// The allocation's blocks: whole pages, at most kBlocks of them.
std::size_t block_bytes(const allocation& a) {
  std::size_t b = std::size_t(::sysconf(_SC_PAGESIZE));
  while (b * kBlocks < a.mapped)
    b *= 2;
  return b;
}

// The bytes of one allocation that the tracked run's code reported loading
// and storing (gpu_autopar_standin_access): one bit per byte of its pages.
struct reported {
  allocation* a;
  std::vector<std::uint64_t> loaded, stored;
};

// What the tracked run's code reported, on the thread running it.
struct access_report {
  std::uintptr_t lo = UINTPTR_MAX, hi = 0; // the span of all allocations: other addresses are the host's
  std::uint64_t calls = 0;                 // reports of any address: nonzero when the code reports at all
  std::vector<reported> allocations;       // reserved up front: pointers into it stay valid
  reported* last = nullptr;
};
thread_local access_report* reporting = nullptr;

void mark(std::vector<std::uint64_t>& bits, std::size_t from, std::size_t to) {
  for (std::size_t i = from; i < to; ++i)
    bits[i / 64] |= std::uint64_t(1) << (i % 64);
}

bool marked(const std::vector<std::uint64_t>& bits, std::size_t i) {
  return i / 64 < bits.size() && (bits[i / 64] >> (i % 64) & 1);
}

// The runs of marked bits, as address ranges from `base`.
ranges marked_ranges(const std::vector<std::uint64_t>& bits, std::uintptr_t base) {
  ranges out;
  for (std::size_t w = 0; w < bits.size(); ++w) {
    if (!bits[w])
      continue;
    for (std::size_t i = w * 64; i < (w + 1) * 64; ++i) {
      if (!(bits[w] >> (i % 64) & 1))
        continue;
      if (!out.empty() && out.back().second == base + i)
        ++out.back().second;
      else
        out.push_back({base + i, base + i + 1});
    }
  }
  return out;
}

// The run being tracked: at most one (twins run under state::mu), on one thread.
struct tracked_run {
  std::atomic<long> thread{0}; // kernel thread id running the twin, 0 when none
  std::vector<tracked>* touches = nullptr; // reserved up front: the handler never allocates
  // Room for a copy of every live allocation, mapped once and grown as needed
  // (pages are only committed when a copy is written): where each one's copy goes.
  unsigned char* copies = nullptr;
  std::size_t copies_bytes = 0;
  std::vector<std::pair<allocation*, std::size_t>>* copy_offsets = nullptr;
  std::vector<std::pair<allocation*, std::uint8_t*>>* block_flags = nullptr; // each allocation's flags
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

// Whether the faulting access was a write: the page-fault error code on
// x86-64; elsewhere a fault on a block already readable is one.
bool is_write(void* context, std::uint8_t flags) {
#if defined(__x86_64__) && defined(REG_ERR)
  (void)flags;
  return (static_cast<ucontext_t*>(context)->uc_mcontext.gregs[REG_ERR] & 2) != 0;
#else
  (void)context;
  return flags & kRead;
#endif
}

void protect(const allocation& a, std::size_t block, std::size_t b, int prot) {
  ::mprotect(reinterpret_cast<void*>(a.base + b * block), std::min(block, a.mapped - b * block), prot);
}

void on_fault(int, siginfo_t* info, void* context) {
  const auto addr = reinterpret_cast<std::uintptr_t>(info->si_addr);
  allocation* a = run_state.thread.load() == thread_id() ? mapped_allocation(addr) : nullptr;
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
  if (!t) { // the first fault in this allocation
    std::uint8_t* flags = nullptr;
    for (const auto& [b, f] : *run_state.block_flags)
      if (b == a)
        flags = f;
    if (touches.size() == touches.capacity() || !flags) {
      ::sigaction(SIGSEGV, &run_state.previous, nullptr);
      return;
    }
    touches.push_back({a, false, nullptr, addr, flags});
    t = &touches.back();
  }
  const std::size_t block = block_bytes(*a), b = (addr - a->base) / block;
  std::uint8_t& flags = t->blocks[b];
  if (!is_write(context, flags)) {
    flags |= kRead;
    protect(*a, block, b, PROT_READ);
    return;
  }
  if (!t->write) { // the first write: keep what was there first (no byte has changed yet)
    t->write = true;
    for (const auto& [c, offset] : *run_state.copy_offsets)
      if (c == a)
        t->before = run_state.copies + offset;
    if (t->before) {
      ::mprotect(reinterpret_cast<void*>(a->base), a->mapped, PROT_READ);
      std::memcpy(t->before, reinterpret_cast<const void*>(a->base), a->bytes);
      ::mprotect(reinterpret_cast<void*>(a->base), a->mapped, PROT_NONE);
      for (std::size_t k = 0; k * block < a->mapped; ++k)
        if (t->blocks[k])
          protect(*a, block, k, t->blocks[k] & kWritten ? PROT_READ | PROT_WRITE : PROT_READ);
    }
  }
  flags |= kWritten;
  protect(*a, block, b, PROT_READ | PROT_WRITE);
}

// Sorted ranges, overlapping and adjacent ones joined, at most `most` of
// them: past that, the smallest gaps between them close (coarser, never
// smaller than the truth; a race check compares every range with every one).
ranges normalised(ranges r, std::size_t most = 64) {
  std::sort(r.begin(), r.end());
  ranges out;
  for (const auto& x : r)
    if (!out.empty() && x.first <= out.back().second)
      out.back().second = std::max(out.back().second, x.second);
    else
      out.push_back(x);
  if (out.size() <= most)
    return out;
  std::vector<std::uintptr_t> gaps;
  for (std::size_t k = 1; k < out.size(); ++k)
    gaps.push_back(out[k].first - out[k - 1].second);
  std::vector<std::uintptr_t> sorted = gaps;
  const std::size_t close = out.size() - most;
  std::nth_element(sorted.begin(), sorted.begin() + (close - 1), sorted.end());
  const std::uintptr_t widest = sorted[close - 1];
  std::size_t at_widest = close - std::size_t(std::count_if(gaps.begin(), gaps.end(), [&](std::uintptr_t g) { return g < widest; }));
  ranges joined{out.front()};
  for (std::size_t k = 1; k < out.size(); ++k) {
    const std::uintptr_t g = gaps[k - 1];
    if (g < widest || (g == widest && at_widest > 0)) {
      at_widest -= g == widest;
      joined.back().second = out[k].second;
    } else {
      joined.push_back(out[k]);
    }
  }
  return joined;
}

// The byte ranges where `now` differs from `before`.
ranges changed_ranges(const unsigned char* before, std::uintptr_t now, std::size_t bytes) {
  ranges ranges;
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
  // The room for copies is kept from run to run (growing when it must): a
  // fresh mapping would cost a zero-filled page fault per page written.
  if (copies_bytes > run_state.copies_bytes) {
    if (run_state.copies)
      ::munmap(run_state.copies, run_state.copies_bytes);
    void* copies = ::mmap(nullptr, copies_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                          -1, 0);
    run_state.copies = copies == MAP_FAILED ? nullptr : static_cast<unsigned char*>(copies);
    run_state.copies_bytes = copies == MAP_FAILED ? 0 : copies_bytes;
  }
  if (!run_state.copies) // no copies: writes are then reported allocation-wide
    copy_offsets.clear();
  run_state.copy_offsets = &copy_offsets;
  std::vector<std::uint8_t> flags;
  std::vector<std::pair<allocation*, std::uint8_t*>> block_flags;
  std::size_t blocks = 0; // freed allocations too: a kernel touching one is a use after free
  for (auto& [base, a] : global().allocations)
    blocks += (a.mapped + block_bytes(a) - 1) / block_bytes(a);
  flags.assign(blocks, 0);
  blocks = 0;
  for (auto& [base, a] : global().allocations) {
    block_flags.push_back({&a, flags.data() + blocks});
    blocks += (a.mapped + block_bytes(a) - 1) / block_bytes(a);
  }
  run_state.block_flags = &block_flags;
  struct sigaction mine = {};
  mine.sa_sigaction = on_fault;
  mine.sa_flags = SA_SIGINFO | SA_NODEFER;
  sigemptyset(&mine.sa_mask);
  run_state.touches = &touches;
  access_report report;
  report.allocations.reserve(global().allocations.size());
  for (auto& [base, a] : global().allocations) {
    report.lo = std::min(report.lo, base);
    report.hi = std::max(report.hi, base + a.mapped);
  }
  ::sigaction(SIGSEGV, &mine, &run_state.previous);
  protect_live(PROT_NONE); // freed allocations are PROT_NONE already
  run_state.thread = thread_id();
  reporting = &report;
  run();
  reporting = nullptr;
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
    touch result{t.a, {{t.a->base, t.a->base + t.a->bytes}}, {}, 0};
    const std::size_t block = block_bytes(*t.a);
    for (std::size_t k = 0; k * block < t.a->bytes; ++k) {
      const std::uint64_t n = std::min(block, t.a->bytes - k * block);
      result.traffic += (t.blocks[k] & kRead ? n : 0) + (t.blocks[k] & kWritten ? n : 0);
    }
    if (t.before)
      result.writes = changed_ranges(t.before, t.a->base, t.a->bytes);
    else if (t.write)
      result.writes = {{t.a->base, t.a->base + t.a->bytes}};
    const reported* r = nullptr;
    for (const reported& x : report.allocations)
      if (x.a == t.a)
        r = &x;
    // Exact where the code reported the access that faulted first: then it
    // reported every access to this allocation (the same code made them).
    if (r && (marked(r->loaded, t.first - t.a->base) || marked(r->stored, t.first - t.a->base))) {
      result.reads = normalised(marked_ranges(r->loaded, t.a->base));
      ranges stored = marked_ranges(r->stored, t.a->base);
      result.writes.insert(result.writes.end(), stored.begin(), stored.end());
    }
    result.writes = normalised(std::move(result.writes));
    out.push_back(std::move(result));
  }
  run_state.copy_offsets = nullptr;
  run_state.block_flags = nullptr;
  return out;
}

} // namespace standin

// Called by the load and store checks of a program built with
// -fsanitize=kernel-address (gpu_autopar_standin/hook.h): records, while a
// kernel's twin runs on this thread, the device memory bytes it loads
// (write = 0) or stores.
extern "C" __attribute__((visibility("default"))) void gpu_autopar_standin_access(const void* p, unsigned long n,
                                                                                   int write) {
  using namespace standin;
  access_report* r = reporting;
  if (!r)
    return;
  ++r->calls;
  const auto addr = reinterpret_cast<std::uintptr_t>(p);
  if (addr >= r->hi || addr + n <= r->lo)
    return;
  reported* x = r->last;
  if (!x || addr < x->a->base || addr >= x->a->base + x->a->mapped) {
    allocation* a = mapped_allocation(addr);
    if (!a)
      return;
    x = nullptr;
    for (reported& y : r->allocations)
      if (y.a == a)
        x = &y;
    if (!x) {
      if (r->allocations.size() == r->allocations.capacity())
        return; // cannot happen: one per allocation was reserved
      const std::size_t words = (a->mapped + 63) / 64;
      r->allocations.push_back({a, std::vector<std::uint64_t>(words), std::vector<std::uint64_t>(words)});
      x = &r->allocations.back();
    }
    r->last = x;
  }
  const std::size_t from = addr - x->a->base;
  mark(write ? x->stored : x->loaded, from, std::min<std::size_t>(from + n, x->a->mapped));
}
