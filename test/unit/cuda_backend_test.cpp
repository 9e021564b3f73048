// The CUDA backend through a fake function table: no GPU here, so the table
// pretends there are two (or none, with CUDA error 35).
#include "runtime_test_support.h"

#include <gpu_autopar/cuda_api.h>
#include <gpu_autopar/loop_body.h>

#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <mutex>
#include <regex>
#include <thread>

#include "cuda_backend.h"
#include "cuda_memory_pool.h"
#include "host_pinning.h"
#include "lease_pool.h"
#include "runtime_state.h"

using namespace gpu_autopar;
using rt_test::recording_body;
using rt_test::scoped_env;
using rt_test::temp_file;

namespace {

const loop_site kSite{"cuda.cpp", 9};

constexpr int kMaxFakeGpus = 4;
constexpr int kIllegalAddress = 700; // a sticky error: the context is lost

// The fake driver's state. Like the CUDA runtime, it has a current device and
// a last error per thread; a sticky error poisons one device for good (every
// later call on it returns the error); work put on a device's legacy default
// stream stays pending until something waits for that stream.
struct fake_driver {
  int count_result = 0;    // what cudaGetDeviceCount returns
  int devices = 2;
  std::atomic<int> live_allocations{0};
  std::atomic<int> live_streams{0};
  std::atomic<int> syncs{0};
  std::atomic<int> mallocs{0};
  std::size_t max_allocation = SIZE_MAX; // larger: cudaErrorMemoryAllocation
  std::size_t capacity = SIZE_MAX;       // per device: cudaErrorMemoryAllocation past it
  std::size_t free_memory = std::size_t(1) << 30; // what cudaMemGetInfo says, less what is allocated
  std::mutex m;
  std::map<void*, std::pair<int, std::size_t>> sizes; // live allocation -> device, bytes
  std::map<void*, std::size_t> registered;            // cudaHostRegister'd host memory
  int refuse_register = 0;                            // cudaHostRegister fails with this
  std::size_t in_use[kMaxFakeGpus] = {};
  std::atomic<int> sticky[kMaxFakeGpus];
  std::atomic<int> legacy_pending[kMaxFakeGpus];
} g_fake;

thread_local int t_current = 0;
thread_local int t_last_error = 0;

int sticky_here() { return t_current >= 0 && t_current < kMaxFakeGpus ? g_fake.sticky[t_current].load() : 0; }
// What a call returns that fails with `e` (or the device's sticky error).
int fails(int e) {
  if (int s = sticky_here())
    e = s;
  if (e)
    t_last_error = e;
  return e;
}

cuda_api fake_api() {
  cuda_api a{};
  a.get_device_count = [](int* n) {
    *n = g_fake.count_result ? 0 : g_fake.devices;
    return g_fake.count_result;
  };
  a.get_device_properties = [](int d, char* name, std::size_t* mem, int* major, int* minor) {
    std::snprintf(name, 256, "Fake GPU %d", d);
    *mem = std::size_t(1) << 30;
    *major = 9;
    *minor = 0;
    return 0;
  };
  a.set_device = [](int d) {
    if (d >= g_fake.devices)
      return fails(101);
    t_current = d;
    return 0;
  };
  a.get_device = [](int* d) {
    *d = t_current;
    return 0;
  };
  a.malloc = [](void** p, std::size_t n) {
    std::lock_guard<std::mutex> lock(g_fake.m);
    if (n > g_fake.max_allocation || g_fake.in_use[t_current] + n > g_fake.capacity)
      return fails(kCudaErrorMemoryAllocation);
    if (int e = fails(0))
      return e;
    *p = std::malloc(n ? n : 1);
    g_fake.sizes[*p] = {t_current, n};
    g_fake.in_use[t_current] += n;
    ++g_fake.live_allocations;
    ++g_fake.mallocs;
    return 0;
  };
  a.free = [](void* p) {
    std::lock_guard<std::mutex> lock(g_fake.m);
    auto it = g_fake.sizes.find(p);
    if (it != g_fake.sizes.end()) {
      g_fake.in_use[it->second.first] -= it->second.second;
      g_fake.sizes.erase(it);
    }
    std::free(p);
    --g_fake.live_allocations;
    return fails(0);
  };
  a.memcpy_to_device_async = [](void* d, const void* s, std::size_t n, void*) {
    std::memcpy(d, s, n);
    return fails(0);
  };
  a.memcpy_to_host_async = [](void* d, const void* s, std::size_t n, void*) {
    std::memcpy(d, s, n);
    return fails(0);
  };
  a.stream_create = [](void** s) {
    *s = new int(t_current);
    ++g_fake.live_streams;
    return 0;
  };
  a.stream_synchronize = [](void*) {
    ++g_fake.syncs;
    return fails(0);
  };
  a.stream_destroy = [](void* s) {
    delete static_cast<int*>(s);
    --g_fake.live_streams;
    return 0;
  };
  a.mem_get_info = [](std::size_t* f, std::size_t* t) {
    std::lock_guard<std::mutex> lock(g_fake.m);
    *f = g_fake.free_memory - std::min(g_fake.free_memory, g_fake.in_use[t_current]);
    *t = std::size_t(1) << 30;
    return fails(0);
  };
  a.error_string = [](int e) {
    return e == 35 ? "CUDA driver version is insufficient" : e == kIllegalAddress ? "an illegal memory access"
                                                                                  : "fake error";
  };
  a.get_last_error = [] {
    const int e = sticky_here() ? sticky_here() : t_last_error;
    t_last_error = sticky_here();
    return e;
  };
  a.device_synchronize = [] {
    g_fake.legacy_pending[t_current] = 0;
    return fails(0);
  };
  a.default_streams_synchronize = [] {
    g_fake.legacy_pending[t_current] = 0;
    return fails(0);
  };
  a.host_register = [](void* p, std::size_t n) {
    std::lock_guard<std::mutex> lock(g_fake.m);
    if (g_fake.refuse_register)
      return fails(g_fake.refuse_register);
    g_fake.registered[p] = n;
    return 0;
  };
  a.host_unregister = [](void* p) {
    std::lock_guard<std::mutex> lock(g_fake.m);
    return g_fake.registered.erase(p) ? 0 : fails(713);
  };
  return a;
}

const cuda_api g_table = fake_api(); // for test bodies that call "CUDA" themselves

struct with_fake_cuda {
  explicit with_fake_cuda(int count_result = 0, int devices = 2) {
    g_fake.count_result = count_result;
    g_fake.devices = devices;
    g_fake.max_allocation = g_fake.capacity = SIZE_MAX;
    g_fake.free_memory = std::size_t(1) << 30;
    g_fake.mallocs = 0;
    g_fake.refuse_register = 0;
    g_fake.registered.clear();
    for (int d = 0; d < kMaxFakeGpus; ++d) {
      g_fake.sticky[d] = 0;
      g_fake.legacy_pending[d] = 0;
    }
    register_cuda_api(fake_api());
    forget_registrations();
  }
  ~with_fake_cuda() {
    forget_registrations();
    detail::unregister_cuda_api_for_testing();
  }
  // The process's registration cache keeps ranges for later loops: not
  // across tests, whose fake tables start empty.
  static void forget_registrations() {
    if (detail::registration_cache* c = detail::registration_cache::global())
      c->release_all();
  }
};

// A kernel-mode chunk as run_cuda runs one: allocate (the section), launch
// and check the launch with cudaGetLastError(); a launch whose chunk holds
// `fault_at` traps on the GPU (a sticky error, seen at the chunk's
// synchronisation), on every device or only on `fault_on`.
class kernel_like_body : public recording_body {
public:
  using recording_body::recording_body;
  std::size_t section_bytes_per_iteration = 0;
  std::int64_t fault_at = -1;
  int fault_on = -1;
  std::atomic<int> faults{0};
  std::chrono::milliseconds before_launch{0};
  // As a kernel-mode loop does (compiled_loop.cpp): the section copied in, a launch, the section copied
  // back, one wait; all of it through the device_context.
  bool kernel_mode = false;
  // What host_ranges() says the loop copies, and whether that was page-locked
  // whenever a chunk ran.
  std::vector<char>* host = nullptr;
  std::atomic<int> chunks_on_pinned{0}, chunks_on_pageable{0};

  bool leaves_untracked_work() const override { return !kernel_mode; }
  void host_ranges(std::vector<std::pair<const void*, std::size_t>>& out) const override {
    if (host) { // two maps of one array, overlapping: registered once
      out.emplace_back(host->data(), host->size() / 2 + 8);
      out.emplace_back(host->data() + host->size() / 2, host->size() / 2);
    }
  }
  void run_device(device_context& dev, std::uint64_t b, std::uint64_t e) override {
    detail::device_allocation section(dev, section_bytes_per_iteration * (e - b));
    if (host) {
      std::lock_guard<std::mutex> lock(g_fake.m);
      // Inside one registered range (whole pages around the array).
      const char* lo = host->data();
      auto it = g_fake.registered.upper_bound(const_cast<char*>(lo));
      const bool inside = it != g_fake.registered.begin() &&
                          static_cast<const char*>(std::prev(it)->first) + std::prev(it)->second >= lo + host->size();
      ++(inside ? chunks_on_pinned : chunks_on_pageable);
    }
    if (kernel_mode) {
      std::vector<char> host(section_bytes_per_iteration * (e - b));
      dev.copy_to_device(section.get(), host.data(), host.size());
      dev.launched();
      dev.copy_to_host_async(host.data(), section.get(), host.size());
      dev.synchronize();
    }
    std::this_thread::sleep_for(before_launch);
    if (int err = g_table.get_last_error())
      throw device_error("kernel launch failed: CUDA error " + std::to_string(err));
    if (fault_at >= 0 && std::uint64_t(fault_at) >= b && std::uint64_t(fault_at) < e &&
        (fault_on < 0 || fault_on == dev.id())) {
      ++faults;
      g_fake.sticky[t_current] = kIllegalAddress;
      return;
    }
    recording_body::run_device(dev, b, e);
  }
  std::uint64_t device_bytes(std::uint64_t b, std::uint64_t e) const override {
    return declares_bytes ? section_bytes_per_iteration * (e - b) : 0;
  }
};

int retired_devices() {
  int n = 0;
  for (int d = 0; d < detail::runtime().pool->device_count(); ++d)
    n += detail::runtime().pool->get(d).retired();
  return n;
}

} // namespace

TEST(CudaBackend, WithoutARegisteredRuntimeThereAreNoGpus) {
  temp_file report;
  scoped_env env({{"GPU_AUTOPAR_DEVICES", "auto"}, {"GPU_AUTOPAR_REPORT", report.path()}});
  recording_body body(5000);
  run_loop(kSite, 5000, loop_options{}, body);
  EXPECT_TRUE(body.each_once());
  EXPECT_EQ(body.on_device(-1), 5000u);
  EXPECT_NE(report.lines().at(0).find("no CUDA runtime linked (no file was compiled as CUDA)"), std::string::npos);
}

TEST(CudaBackend, Error35MeansNoGpuNotACrash) {
  with_fake_cuda cuda(kCudaErrorInsufficientDriver);
  temp_file report;
  testing::internal::CaptureStderr();
  {
    scoped_env env({{"GPU_AUTOPAR_DEVICES", "auto"}, {"GPU_AUTOPAR_REPORT", report.path()}});
    recording_body body(5000);
    run_loop(kSite, 5000, loop_options{}, body);
    EXPECT_TRUE(body.each_once());
    EXPECT_EQ(body.on_device(-1), 5000u);
    EXPECT_EQ(detail::runtime().pool->device_count(), 0);
  }
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "") << "no GPU under auto is not a warning";
  const std::string l = report.lines().at(0);
  EXPECT_EQ(rt_test::json_field(l, "backend"), "\"cpu\"");
  EXPECT_NE(l.find("no GPU driver on this machine, or one older than the CUDA runtime (CUDA error 35"),
            std::string::npos)
      << l;
}

TEST(CudaBackend, TwoFakeGpusRunALoopAndGiveEverythingBack) {
  with_fake_cuda cuda;
  temp_file report;
  {
    scoped_env env({{"GPU_AUTOPAR_DEVICES", "auto"}, {"GPU_AUTOPAR_REPORT", report.path()}});
    ASSERT_EQ(detail::runtime().pool->device_count(), 2);
    EXPECT_EQ(detail::runtime().pool->get(1).name(), "cuda1");
    EXPECT_EQ(detail::runtime().pool->get(1).describe(),
              "cuda1 (CUDA device 1: Fake GPU 1, 1024 MiB, compute capability 9.0)");
    recording_body body(20000);
    body.bytes_per_iteration = 8;
    loop_options o;
    o.slots = 2;
    run_loop(kSite, 20000, o, body);
    EXPECT_TRUE(body.each_once());
    EXPECT_GT(body.on_device(0), 0u);
    EXPECT_GT(body.on_device(1), 0u);
    EXPECT_GT(g_fake.syncs.load(), 0);
    EXPECT_EQ(detail::runtime().pool->leases_in_use(), 0);
  }
  EXPECT_EQ(g_fake.live_streams.load(), 0) << "streams are destroyed with their slots";
  EXPECT_EQ(g_fake.live_allocations.load(), 0) << "the pools' buffers are freed with their devices";
  const std::string l = report.lines().at(0);
  EXPECT_EQ(rt_test::json_field(l, "backend"), "\"cuda\"");
  EXPECT_NE(l.find("\"kind\":\"cuda\""), std::string::npos);
}

TEST(CudaBackend, OutOfMemorySplitsTheChunkAndKeepsTheDevice) {
  // A failed cudaMalloc leaves its error in the thread's last-error slot; the
  // next chunk's launch check must not take it for its own failure.
  with_fake_cuda cuda;
  g_fake.max_allocation = 4096; // 512 iterations of 8 bytes
  temp_file report;
  {
    scoped_env env({{"GPU_AUTOPAR_DEVICES", "cuda:1"}, {"GPU_AUTOPAR_REPORT", report.path()}});
    ASSERT_EQ(detail::runtime().pool->device_count(), 1);
    kernel_like_body body(20000);
    body.section_bytes_per_iteration = 8;
    run_loop(kSite, 20000, loop_options{}, body);
    EXPECT_TRUE(body.each_once());
    EXPECT_EQ(body.on_device(0), 20000u) << "split until the chunks fit";
  }
  EXPECT_EQ(g_fake.live_allocations.load(), 0);
  const std::string l = report.lines().at(0);
  EXPECT_EQ(rt_test::json_field(l, "fallback"), "null") << l;
}

// The fields of one device in a report line.
std::uint64_t device_field(const std::string& line, int id, const std::string& field) {
  const std::size_t at = line.find("{\"id\":" + std::to_string(id) + ",");
  EXPECT_NE(at, std::string::npos) << line;
  const std::size_t f = line.find("\"" + field + "\":", at);
  return std::stoull(line.substr(f + field.size() + 3));
}

TEST(CudaBackend, KernelChunksReuseThePoolsBuffersAndWaitOncePerChunk) {
  with_fake_cuda cuda;
  temp_file report;
  {
    scoped_env env({{"GPU_AUTOPAR_DEVICES", "cuda"}, {"GPU_AUTOPAR_REPORT", report.path()}});
    loop_options o;
    o.schedule = schedule_kind::dynamic;
    o.chunk = 1000;
    for (int loop = 0; loop < 2; ++loop) {
      kernel_like_body body(20000);
      body.section_bytes_per_iteration = 8;
      body.kernel_mode = true;
      run_loop(kSite, 20000, o, body);
      EXPECT_TRUE(body.each_once());
    }
    EXPECT_GT(g_fake.live_allocations.load(), 0) << "kept for the next loop";
  }
  EXPECT_EQ(g_fake.live_allocations.load(), 0) << "freed with the devices";
  const auto lines = report.lines();
  ASSERT_EQ(lines.size(), 2u);
  std::uint64_t allocations = 0;
  for (int d = 0; d < 2; ++d) {
    std::uint64_t on_device = 0;
    for (int loop = 0; loop < 2; ++loop) {
      const std::uint64_t chunks = device_field(lines[loop], d, "chunks");
      EXPECT_LE(device_field(lines[loop], d, "syncs"), chunks) << lines[loop];
      on_device += device_field(lines[loop], d, "allocations");
    }
    // A kernel-mode loop has two slots per GPU: at most a buffer each, over
    // both loops (a slot the first loop left unused allocates in the second).
    EXPECT_LE(on_device, 2u) << lines[0] << "\n" << lines[1];
    allocations += on_device;
  }
  EXPECT_EQ(allocations, std::uint64_t(g_fake.mallocs.load())) << "the report counts each cudaMalloc";
}

TEST(CudaBackend, OutOfMemoryGivesThePoolsIdleBuffersBackFirst) {
  // The first loop leaves an 8 KiB buffer in the pool; the second one's 12 KiB
  // chunks do not fit beside it, but do once it is freed: no chunk fails.
  with_fake_cuda cuda;
  g_fake.capacity = 16384;
  temp_file report;
  {
    scoped_env env({{"GPU_AUTOPAR_DEVICES", "cuda:1"}, {"GPU_AUTOPAR_REPORT", report.path()}});
    for (std::uint64_t chunk : {1000, 1500}) {
      loop_options o;
      o.schedule = schedule_kind::dynamic;
      o.chunk = chunk;
      o.slots = 1;
      kernel_like_body body(6000);
      body.section_bytes_per_iteration = 8;
      body.kernel_mode = true;
      run_loop(kSite, 6000, o, body);
      EXPECT_TRUE(body.each_once());
      EXPECT_EQ(body.on_device(0), 6000u);
    }
  }
  EXPECT_EQ(g_fake.live_allocations.load(), 0);
  const auto lines = report.lines();
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(device_field(lines[1], 0, "failures"), 0u) << lines[1];
  EXPECT_EQ(device_field(lines[1], 0, "allocations"), 1u) << lines[1];
}

// A kernel-mode loop whose maps' host memory is `host`.
void run_kernel_loop_over(std::vector<char>& host, kernel_like_body& body) {
  body.kernel_mode = true;
  body.host = &host;
  run_loop(kSite, body.hits.size(), loop_options{}, body);
  EXPECT_TRUE(body.each_once());
}

TEST(CudaBackend, KernelLoopsPinTheirHostMemoryWhileTheyRunAndTwoSlotsPerGpu) {
  with_fake_cuda cuda;
  scoped_env env({{"GPU_AUTOPAR_DEVICES", "cuda"}});
  std::vector<char> host(1 << 16);
  kernel_like_body body(20000);
  run_kernel_loop_over(host, body);
  EXPECT_GT(body.chunks_on_pinned.load(), 0);
  EXPECT_EQ(body.chunks_on_pageable.load(), 0);
  for (int d = 0; d < 2; ++d)
    EXPECT_EQ(detail::runtime().pool->slot_count(d), 2) << "kernel mode: two chunks in flight on cuda" << d;
  // Registered once, in one range (the two maps overlap), and kept for the
  // next loop over the same memory; unregistered when the process ends.
  ASSERT_EQ(g_fake.registered.size(), 1u);
  const auto first = *g_fake.registered.begin();
  kernel_like_body again(20000);
  run_kernel_loop_over(host, again);
  EXPECT_EQ(again.chunks_on_pageable.load(), 0);
  ASSERT_EQ(g_fake.registered.size(), 1u);
  EXPECT_EQ(*g_fake.registered.begin(), first);
  detail::registration_cache::global()->release_all();
  EXPECT_TRUE(g_fake.registered.empty());
}

TEST(CudaBackend, HostMemoryThatCannotBePinnedStaysPageable) {
  // cudaErrorHostMemoryAlreadyRegistered (the program registered it itself):
  // the loop runs, and the refusal is not taken for a failed launch.
  with_fake_cuda cuda;
  g_fake.refuse_register = 712;
  temp_file report;
  scoped_env env({{"GPU_AUTOPAR_DEVICES", "cuda"}, {"GPU_AUTOPAR_REPORT", report.path()}});
  std::vector<char> host(1 << 16);
  kernel_like_body body(20000);
  run_kernel_loop_over(host, body);
  EXPECT_EQ(body.on_device(-1), 0u);
  EXPECT_EQ(body.chunks_on_pinned.load(), 0);
  EXPECT_EQ(g_table.get_last_error(), 0) << "the refusal is not left for the program's next CUDA call";
  EXPECT_EQ(rt_test::json_field(report.lines().at(0), "fallback"), "null");
}

TEST(CudaBackend, PoolSizeClassesWasteAtMostAQuarter) {
  EXPECT_EQ(detail::cuda_memory_pool::size_class(1), 512u);
  EXPECT_EQ(detail::cuda_memory_pool::size_class(8000), 8192u);
  EXPECT_EQ(detail::cuda_memory_pool::size_class(12000), 12288u);
  for (std::size_t n = 513; n < (1u << 22); n = n * 3 / 2 + 7) {
    const std::size_t c = detail::cuda_memory_pool::size_class(n);
    EXPECT_GE(c, n);
    EXPECT_LE(c, n + n / 4) << n;
    EXPECT_EQ(detail::cuda_memory_pool::size_class(c), c) << "a class is its own class";
  }
}

// Two slots per GPU size their chunks at the same time: each to its share of
// the free memory, also before the other slot has opened (it once sized to
// all of it, and one allocation failed in runs where the second slot opened
// late).
TEST(CudaBackend, ChunksAreSizedToTheFreeDeviceMemory) {
  with_fake_cuda cuda;
  g_fake.max_allocation = g_fake.free_memory = g_fake.capacity = 4096;
  temp_file report;
  scoped_env env({{"GPU_AUTOPAR_DEVICES", "cuda"}, {"GPU_AUTOPAR_REPORT", report.path()}});
  kernel_like_body body(20000);
  body.section_bytes_per_iteration = 8;
  body.declares_bytes = true;
  run_loop(kSite, 20000, loop_options{}, body);
  EXPECT_TRUE(body.each_once());
  EXPECT_EQ(body.on_device(-1), 0u);
  const std::string l = report.lines().at(0);
  EXPECT_FALSE(std::regex_search(l, std::regex("\"failures\":[1-9]"))) << "no allocation failed: " << l;
  EXPECT_EQ(rt_test::json_field(l, "fallback"), "null") << l;
}

TEST(CudaBackend, AStickyErrorTakesTheGpuOutOfUseForTheProcess) {
  with_fake_cuda cuda;
  temp_file report;
  testing::internal::CaptureStderr();
  {
    scoped_env env({{"GPU_AUTOPAR_DEVICES", "cuda"}, {"GPU_AUTOPAR_REPORT", report.path()},
                    {"GPU_AUTOPAR_LOG", "warn"}});
    kernel_like_body first(20000);
    first.fault_at = 0; // in cuda0's first chunk, and only there: the GPU, not the body
    first.fault_on = 0;
    run_loop(kSite, 20000, loop_options{}, first);
    // No iteration is lost. With two slots per GPU, the chunk running beside
    // the faulting one may have finished before cuda0's context was lost; it
    // fails at its wait all the same and runs again on cuda1, so an iteration
    // may count twice here. A loop sees no difference: a failed chunk's
    // partials are dropped and its run again writes the same values.
    for (auto& h : first.hits)
      ASSERT_TRUE(h.load() == 1 || h.load() == 2) << h.load();
    EXPECT_EQ(first.on_device(-1), 0u) << "cuda1 took cuda0's chunk";
    EXPECT_EQ(retired_devices(), 1);
    kernel_like_body second(20000);
    run_loop(kSite, 20000, loop_options{}, second);
    EXPECT_TRUE(second.each_once());
    EXPECT_EQ(second.on_device(1), 20000u) << "cuda0 is not tried again";
    EXPECT_EQ(first.faults.load() + second.faults.load(), 1);
    EXPECT_EQ(detail::runtime().pool->leases_in_use(), 0);
    EXPECT_EQ(g_fake.live_allocations.load(), 0);
  }
  const std::string log = testing::internal::GetCapturedStderr();
  // With two slots per GPU, cuda0's second chunk fails too once its context is
  // lost, and either failure may be the one logged first.
  EXPECT_NE(log.find("cuda0 failed chunk ["), std::string::npos) << log;
  EXPECT_NE(log.find("out of use for the rest of the process"), std::string::npos) << log;
  const auto lines = report.lines();
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_NE(lines[1].find("\"fallback\":{\"to\":\"gpu\",\"reason\":\"cuda0 is out of use: CUDA error 700: an "
                          "illegal memory access (the device's CUDA context is lost)\"}"),
            std::string::npos)
      << lines[1];
  EXPECT_EQ(lines[1].find("\"id\":0,"), std::string::npos) << "cuda0 is not planned: " << lines[1];
}

TEST(CudaBackend, ABodyThatFaultsOnTwoGpusIsTheLoopsError) {
  with_fake_cuda cuda(0, 3);
  scoped_env env({{"GPU_AUTOPAR_DEVICES", "cuda"}});
  kernel_like_body body(30000);
  body.fault_at = 12345; // on every GPU: the body's own fault
  // One slot per GPU: with two, a chunk running beside the faulting one on
  // the same GPU fails with it (the context is lost) and runs again
  // elsewhere, which this count of iterations would see twice (about one
  // run in 30).
  loop_options one_slot;
  one_slot.slots = 1;
  try {
    run_loop(kSite, 30000, one_slot, body);
    ADD_FAILURE() << "expected a loop_error";
  } catch (const loop_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("gpu-autopar: cuda.cpp:9: the loop body faults on the GPU: iterations ["), std::string::npos)
        << what;
    EXPECT_NE(what.find("faulted on two GPUs"), std::string::npos) << what;
    EXPECT_NE(what.find("CUDA error 700"), std::string::npos) << what;
  }
  EXPECT_EQ(body.faults.load(), 2) << "not tried on a third GPU";
  EXPECT_EQ(retired_devices(), 2) << "the third GPU stays in use";
  EXPECT_EQ(body.host_iterations.load(), 0u) << "the faulting iterations never ran on the CPU";
  EXPECT_EQ(body.hits[12345].load(), 0);
  for (auto& h : body.hits)
    ASSERT_LE(h.load(), 1);
  EXPECT_EQ(detail::runtime().pool->leases_in_use(), 0);
  EXPECT_EQ(g_fake.live_allocations.load(), 0);
}

TEST(CudaBackend, ALoopWhoseGpuWasLostWhileItWaitedRunsOnTheCpu) {
  with_fake_cuda cuda(0, 1);
  scoped_env env({{"GPU_AUTOPAR_DEVICES", "cuda"}});
  kernel_like_body first(1000), second(1000);
  loop_options one_slot; // the second loop must wait for the first one's lease, not take a second slot
  one_slot.slots = 1;
  first.fault_at = 0;
  first.before_launch = std::chrono::milliseconds(300);
  std::thread other([&] {
    // Planned while cuda0 is still in use, it waits for the lease that the
    // first loop's fault ends.
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    run_loop(kSite, 1000, one_slot, second);
  });
  run_loop(kSite, 1000, one_slot, first);
  other.join();
  EXPECT_TRUE(first.each_once());
  EXPECT_TRUE(second.each_once()) << "no iteration is lost";
  EXPECT_EQ(second.on_device(-1), 1000u);
  EXPECT_EQ(retired_devices(), 1);
}

TEST(CudaBackend, DefaultStreamWorkOfATaskBodyIsWaitedForBeforeTheChunkCounts) {
  // A task-mode body calls a function that launches without a stream: the
  // launch goes to the legacy default stream, not the lease's.
  with_fake_cuda cuda;
  scoped_env env({{"GPU_AUTOPAR_DEVICES", "cuda"}});
  recording_body body(64);
  body.inner = [&](std::uint64_t) {
    int d = 0;
    g_table.get_device(&d);
    ++g_fake.legacy_pending[d];
  };
  loop_options o;
  o.mode = loop_mode::task;
  o.schedule = schedule_kind::dynamic;
  o.chunk = 4;
  run_loop(kSite, 64, o, body);
  EXPECT_TRUE(body.each_once());
  for (int d = 0; d < 2; ++d)
    EXPECT_EQ(g_fake.legacy_pending[d].load(), 0) << "cuda" << d << "'s default stream was not waited for";
}

TEST(CudaBackend, ALoopNestedInATaskBodyRunsOnTheLeasesGpu) {
  with_fake_cuda cuda;
  scoped_env env({{"GPU_AUTOPAR_DEVICES", "cuda"}});
  struct where_body : loop_body {
    std::atomic<int> wrong_device{0}, runs{0};
    void run_host(std::uint64_t, std::uint64_t) override {}
    void run_device(device_context& dev, std::uint64_t, std::uint64_t) override {
      ++runs;
      wrong_device += t_current != dev.id(); // fake ordinals are the runtime's ids
    }
    bool can_run_on(device_kind, const char**) const override { return true; }
  } nested;
  recording_body outer(16);
  std::atomic<int> not_restored{0};
  outer.inner = [&](std::uint64_t) {
    const int other = 1 - current_device()->id();
    g_table.set_device(other); // the body works on the other GPU for a while
    run_loop(kSite, 100, loop_options{}, nested);
    not_restored += t_current != other;
  };
  loop_options o;
  o.mode = loop_mode::task;
  run_loop(kSite, 16, o, outer);
  EXPECT_TRUE(outer.each_once());
  EXPECT_EQ(nested.runs.load(), 16);
  EXPECT_EQ(nested.wrong_device.load(), 0);
  EXPECT_EQ(not_restored.load(), 0) << "the body's current device is given back";
}

TEST(CudaBackend, EveryGpuIsOpenedBeforeTheFirstLoop) {
  with_fake_cuda cuda(0, 3);
  scoped_env env({{"GPU_AUTOPAR_DEVICES", "cuda"}});
  detail::lease_pool& pool = *detail::runtime().pool;
  ASSERT_EQ(pool.device_count(), 3);
  for (int d = 0; d < 3; ++d)
    EXPECT_EQ(pool.slot_count(d), 1) << "cuda" << d;
  EXPECT_EQ(g_fake.live_streams.load(), 3) << "contexts and streams exist before any loop";
}

TEST(CudaBackend, AnOrdinalNamedTwiceIsOneDevice) {
  with_fake_cuda cuda;
  testing::internal::CaptureStderr();
  {
    scoped_env env({{"GPU_AUTOPAR_DEVICES", "cuda:1,0,1"}, {"GPU_AUTOPAR_LOG", "warn"}});
    ASSERT_EQ(detail::runtime().pool->device_count(), 2);
    EXPECT_EQ(detail::runtime().pool->get(0).describe().find("cuda0 (CUDA device 1:"), 0u);
  }
  EXPECT_EQ(testing::internal::GetCapturedStderr(),
            "gpu-autopar: warning: GPU_AUTOPAR_DEVICES names CUDA device 1 more than once; it is used once\n");
}

TEST(CudaBackend, HostCompiledKernelLoopsStayOnTheCpu) {
  with_fake_cuda cuda;
  temp_file report;
  scoped_env env({{"GPU_AUTOPAR_DEVICES", "cuda"}, {"GPU_AUTOPAR_REPORT", report.path()}});
  recording_body body(5000);
  body.host_only = true;
  run_loop(kSite, 5000, loop_options{}, body);
  EXPECT_EQ(body.on_device(-1), 5000u);
  EXPECT_NE(report.lines().at(0).find("\"fallback\":{\"to\":\"cpu\",\"reason\":\"test body: host only\"}"),
            std::string::npos);
}
