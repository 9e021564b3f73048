// The CUDA backend through a fake function table: no GPU here, so the table
// pretends there are two (or none, with CUDA error 35).
#include "runtime_test_support.h"

#include <gpu_autopar/cuda_api.h>
#include <gpu_autopar/loop_body.h>

#include <gtest/gtest.h>

#include <cstring>

#include "cuda_backend.h"
#include "lease_pool.h"
#include "runtime_state.h"

using namespace gpu_autopar;
using rt_test::recording_body;
using rt_test::scoped_env;
using rt_test::temp_file;

namespace {

const loop_site kSite{"cuda.cpp", 9};

// The fake driver's state.
struct fake_driver {
  int count_result = 0;    // what cudaGetDeviceCount returns
  int devices = 2;
  std::atomic<int> live_allocations{0};
  std::atomic<int> live_streams{0};
  std::atomic<int> syncs{0};
  std::size_t max_allocation = SIZE_MAX; // larger: cudaErrorMemoryAllocation
} g_fake;

thread_local int t_current = -1;

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
    t_current = d;
    return d < g_fake.devices ? 0 : 101;
  };
  a.malloc = [](void** p, std::size_t n) {
    if (n > g_fake.max_allocation)
      return kCudaErrorMemoryAllocation;
    *p = std::malloc(n ? n : 1);
    ++g_fake.live_allocations;
    return 0;
  };
  a.free = [](void* p) {
    std::free(p);
    --g_fake.live_allocations;
    return 0;
  };
  a.memcpy_to_device_async = [](void* d, const void* s, std::size_t n, void*) {
    std::memcpy(d, s, n);
    return 0;
  };
  a.memcpy_to_host_async = [](void* d, const void* s, std::size_t n, void*) {
    std::memcpy(d, s, n);
    return 0;
  };
  a.stream_create = [](void** s) {
    *s = new int(t_current);
    ++g_fake.live_streams;
    return 0;
  };
  a.stream_synchronize = [](void*) {
    ++g_fake.syncs;
    return 0;
  };
  a.stream_destroy = [](void* s) {
    delete static_cast<int*>(s);
    --g_fake.live_streams;
    return 0;
  };
  a.mem_get_info = [](std::size_t* f, std::size_t* t) {
    *f = *t = std::size_t(1) << 30;
    return 0;
  };
  a.error_string = [](int e) { return e == 35 ? "CUDA driver version is insufficient" : "fake error"; };
  return a;
}

struct with_fake_cuda {
  explicit with_fake_cuda(int count_result = 0) {
    g_fake.count_result = count_result;
    g_fake.max_allocation = SIZE_MAX;
    register_cuda_api(fake_api());
  }
  ~with_fake_cuda() { detail::unregister_cuda_api_for_testing(); }
};

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
  EXPECT_NE(l.find("CUDA error 35"), std::string::npos) << l;
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
    EXPECT_EQ(g_fake.live_allocations.load(), 0);
    EXPECT_GT(g_fake.syncs.load(), 0);
    EXPECT_EQ(detail::runtime().pool->leases_in_use(), 0);
  }
  EXPECT_EQ(g_fake.live_streams.load(), 0) << "streams are destroyed with their slots";
  const std::string l = report.lines().at(0);
  EXPECT_EQ(rt_test::json_field(l, "backend"), "\"cuda\"");
  EXPECT_NE(l.find("\"kind\":\"cuda\""), std::string::npos);
}

TEST(CudaBackend, SelectedOrdinalsAndOutOfMemory) {
  with_fake_cuda cuda;
  g_fake.max_allocation = 4096; // 512 iterations of 8 bytes
  scoped_env env({{"GPU_AUTOPAR_DEVICES", "cuda:1"}});
  ASSERT_EQ(detail::runtime().pool->device_count(), 1);
  recording_body body(20000);
  body.bytes_per_iteration = 8;
  run_loop(kSite, 20000, loop_options{}, body);
  EXPECT_TRUE(body.each_once());
  EXPECT_EQ(body.on_device(0), 20000u) << "split until the chunks fit";
  EXPECT_EQ(g_fake.live_allocations.load(), 0);
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
