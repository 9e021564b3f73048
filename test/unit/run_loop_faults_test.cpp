// run_loop when things go wrong: injected device failures, running out of
// device memory, exceptions from the body, and the fallback policies.
#include "runtime_test_support.h"

#include <gpu_autopar/gpu_autopar.h>
#include <gpu_autopar/loop_body.h>

#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <regex>

#include "lease_pool.h"
#include "runtime_state.h"
#include "sim_device.h"

using namespace gpu_autopar;
using rt_test::recording_body;
using rt_test::scoped_env;
using rt_test::temp_file;

namespace {

const loop_site kSite{"faults.cpp", 7};

std::uint64_t sim_bytes_in_use() {
  std::uint64_t n = 0;
  for (int d = 0; d < detail::runtime().pool->device_count(); ++d)
    if (auto* sim = dynamic_cast<detail::sim_device*>(&detail::runtime().pool->get(d)))
      n += sim->bytes_in_use();
  return n;
}

std::string only_line(const temp_file& f) {
  auto lines = f.lines();
  EXPECT_EQ(lines.size(), 1u);
  return lines.empty() ? "" : lines.back();
}

void expect_iterations_add_up(const std::string& line) {
  std::uint64_t total = 0;
  int used = 0;
  rt_test::device_iterations(line, total, used);
  EXPECT_EQ(total, std::stoull(rt_test::json_field(line, "iterations"))) << line;
}

} // namespace

TEST(RunLoopFaults, FailedDevicesLeaveTheLoopAndTheRestFinishIt) {
  temp_file report;
  scoped_env env({{"GPU_AUTOPAR_DEVICES", "sim:3,fail=0@1+1@1"}, {"GPU_AUTOPAR_REPORT", report.path()}});
  recording_body body(30000);
  run_loop(kSite, 30000, loop_options{}, body);
  EXPECT_TRUE(body.each_once());
  EXPECT_EQ(body.on_device(2), 30000u) << "devices 0 and 1 failed their first chunk";
  const std::string l = only_line(report);
  EXPECT_EQ(rt_test::json_field(l, "backend"), "\"sim\"");
  EXPECT_NE(l.find("\"fallback\":{\"to\":\"gpu\""), std::string::npos) << l;
  EXPECT_NE(l.find("injected on its chunk 1"), std::string::npos) << l;
  expect_iterations_add_up(l);
  EXPECT_EQ(detail::runtime().pool->leases_in_use(), 0);
}

TEST(RunLoopFaults, WhenEveryDeviceFailsTheCpuFinishesTheLoop) {
  temp_file report;
  testing::internal::CaptureStderr();
  {
    scoped_env env({{"GPU_AUTOPAR_DEVICES", "sim:2,fail=0@1+1@1"},
                    {"GPU_AUTOPAR_REPORT", report.path()},
                    {"GPU_AUTOPAR_LOG", "warn"}});
    recording_body body(10000);
    run_loop(kSite, 10000, loop_options{}, body);
    EXPECT_TRUE(body.each_once());
    EXPECT_EQ(body.on_device(-1), 10000u);
    EXPECT_EQ(detail::runtime().pool->leases_in_use(), 0);
  }
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("sim0 failed chunk"), std::string::npos) << err;
  EXPECT_NE(err.find("fell back to CPU threads"), std::string::npos) << err;
  const std::string l = only_line(report);
  EXPECT_NE(l.find("{\"id\":-1,\"kind\":\"cpu\""), std::string::npos) << l;
  EXPECT_NE(l.find("\"fallback\":{\"to\":\"cpu\""), std::string::npos) << l;
  EXPECT_EQ(rt_test::json_field(l, "backend"), "\"cpu\"");
  expect_iterations_add_up(l);
}

TEST(RunLoopFaults, FallbackGpuAndNoneFailInsteadOfUsingTheCpu) {
  {
    scoped_env env({{"GPU_AUTOPAR_DEVICES", "sim:2,fail=0@1+1@1"}});
    recording_body body(10000);
    loop_options o;
    o.fallback = fallback_policy::gpu;
    try {
      run_loop(kSite, 10000, o, body);
      ADD_FAILURE() << "expected loop_error";
    } catch (const loop_error& e) {
      EXPECT_NE(std::string(e.what()).find("fallback(gpu) forbids the CPU"), std::string::npos) << e.what();
    }
    EXPECT_EQ(body.on_device(-1), 0u);
    EXPECT_EQ(detail::runtime().pool->leases_in_use(), 0);
  }
  {
    scoped_env env({{"GPU_AUTOPAR_DEVICES", "sim:3,fail=1@1"}});
    recording_body body(10000);
    loop_options o;
    o.fallback = fallback_policy::none;
    EXPECT_THROW(run_loop(kSite, 10000, o, body), loop_error) << "one planned device failed";
    o.fallback = fallback_policy::gpu; // the other GPUs may take over
    recording_body again(10000);
    run_loop(kSite, 10000, o, again);
    EXPECT_TRUE(again.each_once());
  }
}

TEST(RunLoopFaults, OutOfMemorySplitsChunksUntilTheyFit) {
  temp_file report;
  scoped_env env({{"GPU_AUTOPAR_DEVICES", "sim:2,mem=4KiB"}, {"GPU_AUTOPAR_REPORT", report.path()}});
  recording_body body(20000);
  body.bytes_per_iteration = 8; // 160 KB in all, 4 KiB per device: at most 512 iterations a chunk
  run_loop(kSite, 20000, loop_options{}, body);
  EXPECT_TRUE(body.each_once());
  EXPECT_EQ(body.on_device(-1), 0u) << "smaller chunks fit: nothing needed the CPU";
  EXPECT_EQ(sim_bytes_in_use(), 0u);
  const std::string l = only_line(report);
  EXPECT_EQ(rt_test::json_field(l, "backend"), "\"sim\"");
  EXPECT_EQ(rt_test::json_field(l, "fallback"), "null") << "no device was lost";
  EXPECT_NE(l.find("\"retries\":"), std::string::npos);
  expect_iterations_add_up(l);
}

TEST(RunLoopFaults, ChunksAreCutToTheFreeMemoryBeforeTheyRun) {
  temp_file report;
  scoped_env env({{"GPU_AUTOPAR_DEVICES", "sim:2,mem=4KiB"}, {"GPU_AUTOPAR_REPORT", report.path()}});
  recording_body body(20000);
  body.bytes_per_iteration = 8;
  body.declares_bytes = true; // as kernel-mode loops do: chunks are sized, no allocation fails
  run_loop(kSite, 20000, loop_options{}, body);
  EXPECT_TRUE(body.each_once());
  EXPECT_EQ(body.on_device(-1), 0u);
  const std::string l = only_line(report);
  EXPECT_FALSE(std::regex_search(l, std::regex("\"failures\":[1-9]"))) << l;
  EXPECT_EQ(rt_test::json_field(l, "fallback"), "null");
  expect_iterations_add_up(l);
}

// A device short of memory splits its chunks hundreds of times: one warning
// per loop and device says so, with the count, and a second run of the loop
// says nothing new.
TEST(RunLoopFaults, RepeatedFailuresAreWarnedOncePerLoopAndDevice) {
  scoped_env env({{"GPU_AUTOPAR_DEVICES", "sim:2,mem=4096"}, {"GPU_AUTOPAR_LOG", "warn"}});
  for (int run = 0; run < 2; ++run) {
    testing::internal::CaptureStderr();
    recording_body body(20000);
    body.bytes_per_iteration = 8;
    run_loop(kSite, 20000, loop_options{}, body);
    EXPECT_TRUE(body.each_once());
    const std::string err = testing::internal::GetCapturedStderr();
    std::size_t lines = 0;
    for (char c : err)
      lines += c == '\n';
    if (run == 0) {
      EXPECT_EQ(lines, 2u) << err;
      EXPECT_NE(err.find("sim0 failed chunk"), std::string::npos) << err;
      EXPECT_NE(err.find("more failures of sim1 in this loop not shown (GPU_AUTOPAR_LOG=debug shows each)"),
                std::string::npos)
          << err;
    } else {
      EXPECT_EQ(err, "") << "already said for this loop";
    }
  }
}

// A device lost at a chunk's wait after that chunk's results had all come
// back (on a GPU: another stream's fault, found by this chunk's wait). Its
// section of y, read and written, landed straight in y: run again, the chunk
// would add x twice. It counts as done, and the device leaves the loop.
TEST(RunLoopFaults, AChunkWhoseResultsCameBackBeforeItsDeviceWasLostRunsOnce) {
  temp_file report;
  scoped_env env({{"GPU_AUTOPAR_DEVICES", "sim:2,lose=1@1"}, {"GPU_AUTOPAR_REPORT", report.path()},
                  {"GPU_AUTOPAR_LOG", "warn"}});
  const int n = 20000;
  std::vector<float> x(n, 1.0f), y(n, 2.0f);
  testing::internal::CaptureStderr();
  kernel_loop({"faults.cpp", 40}, iterations<int>(0, less, n, 1), options(),
              data(tofrom(y, affine(1, 0, 1)), to(x, affine(1, 0, 1))), reductions(),
              [=](int i, view<std::vector<float>> y, view<std::vector<float>> x) { y[i] = x[i] + y[i]; });
  const std::string err = testing::internal::GetCapturedStderr();
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(y[i], 3.0f) << i;
  EXPECT_TRUE(std::regex_search(err, std::regex(R"(faults\.cpp:40: sim1 failed chunk \[\d+, \d+\) \(sim1: device lost; )"
                                                R"(its context is lost \(injected on its chunk 1\)\); its results had all )"
                                                R"(come back, so it was not run again; the device is out of use for the )"
                                                R"(rest of the process\n)")))
      << err;
  const std::string l = only_line(report);
  expect_iterations_add_up(l);
  EXPECT_NE(l.find("\"failures\":1"), std::string::npos) << l;
}

TEST(RunLoopFaults, InjectedOutOfMemoryIsRetriedOnTheDevices) {
  scoped_env env({{"GPU_AUTOPAR_DEVICES", "sim:2,oom=0@1+1@1"}});
  recording_body body(20000);
  body.bytes_per_iteration = 4;
  run_loop(kSite, 20000, loop_options{}, body);
  EXPECT_TRUE(body.each_once());
  EXPECT_EQ(body.on_device(-1), 0u);
  EXPECT_EQ(sim_bytes_in_use(), 0u);
}

TEST(RunLoopFaults, AnIterationThatNeverFitsGoesToTheCpu) {
  scoped_env env({{"GPU_AUTOPAR_DEVICES", "sim:2,mem=4"}});
  recording_body body(3000);
  body.bytes_per_iteration = 8;
  run_loop(kSite, 3000, loop_options{}, body);
  EXPECT_TRUE(body.each_once());
  EXPECT_EQ(body.on_device(-1), 3000u);
}

TEST(RunLoopFaults, BodyExceptionReachesTheCallerAfterEverythingStopped) {
  for (const char* devices : {"sim:3", "sim:1", "cpu"}) {
    scoped_env env({{"GPU_AUTOPAR_DEVICES", devices}});
    recording_body body(50000);
    body.throw_at = 31337;
    body.bytes_per_iteration = 4;
    try {
      run_loop(kSite, 50000, loop_options{}, body);
      ADD_FAILURE() << "expected the body's exception on " << devices;
    } catch (const std::runtime_error& e) {
      EXPECT_STREQ(e.what(), "body failed at 31337");
    }
    EXPECT_EQ(body.hits[31337].load(), 0);
    for (auto& h : body.hits)
      ASSERT_LE(h.load(), 1) << "no iteration ran twice";
    EXPECT_EQ(detail::runtime().pool->leases_in_use(), 0);
    EXPECT_EQ(sim_bytes_in_use(), 0u) << "the failed chunk's device memory is back";
    // The runtime is usable afterwards.
    recording_body next(5000);
    run_loop(kSite, 5000, loop_options{}, next);
    EXPECT_TRUE(next.each_once());
  }
}

// A body that allocates device memory and never frees it (memory the
// iteration cached on the device): the lease gives it back.
class leaking_body final : public recording_body {
public:
  using recording_body::recording_body;
  void run_device(device_context& dev, std::uint64_t b, std::uint64_t e) override {
    dev.allocate(64);
    recording_body::run_device(dev, b, e);
  }
};

TEST(RunLoopFaults, CachedDeviceMemoryIsReleasedWhenTheLeaseGoesBack) {
  scoped_env env({{"GPU_AUTOPAR_DEVICES", "sim:2"}});
  leaking_body body(4000);
  run_loop(kSite, 4000, loop_options{}, body);
  EXPECT_TRUE(body.each_once());
  EXPECT_EQ(sim_bytes_in_use(), 0u);
}

TEST(RunLoopFaults, SimulatedMemoryIsPoisonedAndSeparate) {
  scoped_env env({{"GPU_AUTOPAR_DEVICES", "sim:1"}});
  struct probe final : loop_body {
    unsigned char first = 0;
    bool separate = false;
    int host_value = 5;
    void run_host(std::uint64_t, std::uint64_t) override {}
    void run_device(device_context& dev, std::uint64_t, std::uint64_t) override {
      auto* p = static_cast<unsigned char*>(dev.allocate(16));
      first = p[3];
      dev.copy_to_device(p, &host_value, sizeof host_value);
      separate = static_cast<void*>(p) != static_cast<void*>(&host_value);
      int back = 0;
      dev.copy_to_host(&back, p, sizeof back);
      separate = separate && back == 5;
      dev.deallocate(p);
    }
    bool can_run_on(device_kind, const char**) const override { return true; }
  } body;
  loop_options o;
  o.min_iterations = 0;
  run_loop(kSite, 1, o, body);
  EXPECT_EQ(body.first, detail::kSimPoison);
  EXPECT_TRUE(body.separate);
}

TEST(RunLoopFaults, RecycledSimulatedMemoryIsPoisonedAgain) {
  // The host memory behind a simulated device's buffers is reused from chunk
  // to chunk (sim_device.cpp); each allocation still starts as poison, never
  // as what the chunk before left in it, and still counts as an allocation.
  temp_file report;
  scoped_env env({{"GPU_AUTOPAR_DEVICES", "sim:1"}, {"GPU_AUTOPAR_REPORT", report.path()}});
  struct probe final : loop_body {
    std::atomic<int> clean{0}, dirty{0};
    void run_host(std::uint64_t, std::uint64_t) override {}
    void run_device(device_context& dev, std::uint64_t b, std::uint64_t e) override {
      const std::size_t bytes = (std::size_t(1) << 20) + 64 * (e - b); // past malloc's mmap threshold
      auto* p = static_cast<unsigned char*>(dev.allocate(bytes));
      bool poisoned = true;
      for (std::size_t k = 0; k < bytes; k += 4093)
        poisoned = poisoned && p[k] == detail::kSimPoison;
      (poisoned ? clean : dirty) += 1;
      std::memset(p, 0, bytes);
      dev.deallocate(p);
    }
    bool can_run_on(device_kind, const char**) const override { return true; }
  } body;
  loop_options o;
  o.schedule = schedule_kind::dynamic;
  o.chunk = 1;
  o.min_iterations = 0;
  run_loop(kSite, 12, o, body);
  EXPECT_EQ(body.clean.load(), 12);
  EXPECT_EQ(body.dirty.load(), 0);
  EXPECT_NE(report.lines().at(0).find("\"allocations\":12"), std::string::npos) << report.lines().at(0);
}

TEST(RunLoopFaults, EveryScheduleSurvivesUnevenSpeedsAndFaults) {
  for (auto kind : {schedule_kind::static_, schedule_kind::dynamic, schedule_kind::guided, schedule_kind::adaptive}) {
    scoped_env env({{"GPU_AUTOPAR_DEVICES", "sim:4,speed=1:3:0.5:2,fail=2@2+0@1,oom=1@2"}});
    for (int round = 0; round < 3; ++round) {
      recording_body body(7919);
      body.bytes_per_iteration = 2;
      loop_options o;
      o.schedule = kind;
      o.slots = 1 + round;
      run_loop(kSite, 7919, o, body);
      ASSERT_TRUE(body.each_once()) << "schedule " << int(kind) << " round " << round;
      EXPECT_EQ(detail::runtime().pool->leases_in_use(), 0);
      EXPECT_EQ(sim_bytes_in_use(), 0u);
    }
  }
}
