// run_loop over simulated devices and CPU threads: coverage, schedules,
// speeds, reports, fallback policies and lease accounting.
#include "runtime_test_support.h"

#include <gpu_autopar/loop_body.h>

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <ctime>
#include <thread>

#include <sched.h>

#include "lease_pool.h"
#include "runtime_state.h"

using namespace gpu_autopar;
using rt_test::recording_body;
using rt_test::scoped_env;
using rt_test::temp_file;

namespace {

const loop_site kSite{"unit.cpp", 42};

loop_options with(schedule_kind s, std::uint64_t chunk = 0) {
  loop_options o;
  o.schedule = s;
  o.chunk = chunk;
  return o;
}

// The pool is full again: no lease is held after a loop returned.
void expect_pool_full() {
  EXPECT_EQ(detail::runtime().pool->leases_in_use(), 0);
}

} // namespace

TEST(RunLoop, EveryScheduleAndDeviceCountCoversEachIterationOnce) {
  for (int devices = 0; devices <= 8; ++devices) {
    scoped_env env({{"GPU_AUTOPAR_DEVICES", "sim:" + std::to_string(devices)}});
    for (auto kind : {schedule_kind::static_, schedule_kind::dynamic, schedule_kind::guided, schedule_kind::adaptive})
      for (std::uint64_t chunk : {0ull, 3ull})
        for (std::uint64_t count : {0ull, 1ull, 9ull, 4099ull}) {
          recording_body body(count);
          loop_options o = with(kind, chunk);
          o.min_iterations = 2;
          run_loop(kSite, count, o, body);
          ASSERT_TRUE(body.each_once()) << devices << " devices, schedule " << int(kind) << ", count " << count;
          expect_pool_full();
        }
  }
}

TEST(RunLoop, CpuPathCoversAndUsesThreads) {
  scoped_env env({{"GPU_AUTOPAR_DEVICES", "cpu"}});
  recording_body body(100000);
  run_loop(kSite, 100000, loop_options{}, body);
  EXPECT_TRUE(body.each_once());
  EXPECT_EQ(body.on_device(-1), 100000u) << "all on the host";
}

TEST(RunLoop, ReportLineForSimDevices) {
  temp_file report;
  scoped_env env({{"GPU_AUTOPAR_DEVICES", "sim:3"}, {"GPU_AUTOPAR_REPORT", report.path()}});
  recording_body body(100003);
  run_loop(kSite, 100003, loop_options{}, body);
  ASSERT_TRUE(body.each_once());
  auto lines = report.lines();
  ASSERT_EQ(lines.size(), 1u);
  const std::string& l = lines[0];
  EXPECT_EQ(rt_test::json_field(l, "loop"), "\"unit.cpp:42\"");
  EXPECT_EQ(rt_test::json_field(l, "mode"), "\"kernel\"");
  EXPECT_EQ(rt_test::json_field(l, "iterations"), "100003");
  EXPECT_EQ(rt_test::json_field(l, "backend"), "\"sim\"");
  EXPECT_EQ(rt_test::json_field(l, "fallback"), "null");
  std::uint64_t total = 0;
  int used = 0;
  rt_test::device_iterations(l, total, used);
  EXPECT_EQ(total, 100003u);
  EXPECT_EQ(used, 3) << l;
  for (int d = 0; d < 3; ++d)
    EXPECT_GT(body.on_device(d), 0u);
}

// Sums one counter over the device entries of a report line.
std::uint64_t device_sum(const std::string& line, const std::string& key) {
  const std::string devices = rt_test::json_field(line, "devices");
  std::uint64_t sum = 0;
  for (std::size_t at = devices.find("\"" + key + "\":"); at != std::string::npos;
       at = devices.find("\"" + key + "\":", at + 1))
    sum += std::strtoull(devices.c_str() + at + key.size() + 3, nullptr, 10);
  return sum;
}

TEST(RunLoop, ReportCountsWhatEachDeviceDid) {
  // The body allocates and copies in 8 bytes per iteration, per chunk; each
  // chunk ends with one wait for the device. Failed chunks count too: their
  // copies happened.
  temp_file report;
  // Every device's first chunk (each device gets one) runs out of memory.
  scoped_env env({{"GPU_AUTOPAR_DEVICES", "sim:3,oom=0@1+1@1+2@1"}, {"GPU_AUTOPAR_REPORT", report.path()}});
  recording_body body(10000);
  body.bytes_per_iteration = 8;
  run_loop(kSite, 10000, with(schedule_kind::dynamic, 1000), body);
  ASSERT_TRUE(body.each_once());
  const std::string l = report.lines().at(0);
  const std::uint64_t chunks = device_sum(l, "chunks"), failures = device_sum(l, "failures");
  EXPECT_EQ(failures, 3u) << l;
  EXPECT_EQ(device_sum(l, "h2d_bytes"), 8u * 10000) << l;
  EXPECT_EQ(device_sum(l, "h2d_copies"), chunks) << l;
  EXPECT_EQ(device_sum(l, "allocations"), chunks) << l;
  EXPECT_EQ(device_sum(l, "syncs"), chunks) << l;
  EXPECT_EQ(device_sum(l, "d2h_bytes"), 0u) << l;
  EXPECT_EQ(device_sum(l, "launches"), 0u) << "not a kernel-mode body: " << l;
}

TEST(RunLoop, SimulatedLinkMakesCopiesCostTime) {
  // 8 MB in over a 1 GB/s link with 100 us per copy: at least 8 ms of each
  // device's time goes to copies, in the report's seconds and link_seconds.
  temp_file report;
  scoped_env env({{"GPU_AUTOPAR_DEVICES", "sim:2,link=1GB/s,latency=100us,speed=1:0.5"},
                  {"GPU_AUTOPAR_REPORT", report.path()}});
  recording_body body(1000000);
  body.bytes_per_iteration = 8;
  run_loop(kSite, 1000000, with(schedule_kind::dynamic, 100000), body);
  ASSERT_TRUE(body.each_once());
  const std::string l = report.lines().at(0);
  const std::string devices = rt_test::json_field(l, "devices");
  double link = 0, busy = 0;
  for (std::size_t at = devices.find("\"link_seconds\":"); at != std::string::npos;
       at = devices.find("\"link_seconds\":", at + 1))
    link += std::strtod(devices.c_str() + at + 15, nullptr);
  for (std::size_t at = devices.find("\"seconds\":"); at != std::string::npos; at = devices.find("\"seconds\":", at + 1))
    busy += std::strtod(devices.c_str() + at + 10, nullptr);
  EXPECT_NEAR(link, 8e6 / 1e9 + 10 * 100e-6, 1e-5) << l;
  EXPECT_GE(busy, link) << l;
  const double loop_seconds = std::strtod(l.c_str() + l.rfind("\"seconds\":") + 10, nullptr);
  EXPECT_GE(loop_seconds, link / 2) << "two links in parallel: " << l;
}

// DISABLED: fails in most runs on an idle machine (busy = compute + the whole
// link time, 56-64 ms against a bound of ~52 ms): the sim device's overlap
// credit does not survive from one chunk to the next in this loop. Issue 11
// keeps the overlap on simulated devices open until this passes reliably.
TEST(RunLoop, SimulatedLinkOverlapsCopiesWithTheChunkBefore) {
  // 8 chunks, each computing at least 4 ms and copying 400 kB over a 100 MB/s
  // link (4 ms): as on a GPU whose copy engines work beside its kernels, a
  // chunk's copies run while the chunk before it computes. Only the first
  // chunk waits for its copies in full: the device waits about 4 ms for the
  // link, where copies after compute would make it wait 32 ms. The waits are
  // the time model's, not the wall clock's, and a loaded machine only makes
  // the compute (a sleep of at least 4 ms) longer, so this holds under load.
  temp_file report;
  scoped_env env({{"GPU_AUTOPAR_DEVICES", "sim:1,link=100MB/s,latency=0us"}, {"GPU_AUTOPAR_REPORT", report.path()}});
  recording_body body(8000);
  body.bytes_per_iteration = 400;
  body.inner = [](std::uint64_t i) {
    if (i % 1000 == 0)
      std::this_thread::sleep_for(std::chrono::milliseconds(4));
  };
  run_loop(kSite, 8000, with(schedule_kind::dynamic, 1000), body);
  ASSERT_TRUE(body.each_once());
  const std::string l = report.lines().at(0);
  const std::string devices = rt_test::json_field(l, "devices");
  const double link = std::strtod(devices.c_str() + devices.find("\"link_seconds\":") + 15, nullptr);
  const double wait = std::strtod(devices.c_str() + devices.find("\"link_wait_seconds\":") + 20, nullptr);
  EXPECT_NEAR(link, 0.032, 1e-4) << l;
  EXPECT_GE(wait, 0.004 - 1e-4) << "the first chunk's copies have nothing to overlap: " << l;
  EXPECT_LT(wait, 0.012) << "copies overlap the chunk before: " << l;
}

// A body that keeps its thread busy for `cpu` of that thread's own CPU time
// per iteration, however long the wall clock takes for it.
struct spinning_body : recording_body {
  explicit spinning_body(std::uint64_t count, std::chrono::microseconds cpu) : recording_body(count), cpu(cpu) {}
  void run_device(device_context& dev, std::uint64_t b, std::uint64_t e) override {
    for (std::uint64_t k = b; k < e; ++k) {
      timespec t0{}, t{};
      clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
      do
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
      while ((t.tv_sec - t0.tv_sec) * 1000000 + (t.tv_nsec - t0.tv_nsec) / 1000 < cpu.count());
    }
    recording_body::run_device(dev, b, e);
  }
  std::chrono::microseconds cpu;
};

TEST(RunLoop, SimulatedDevicesAreNotChargedForWaitingForACore) {
  // Two simulated devices whose workers share one core: each chunk's wall
  // time is about twice its work. A device's seconds (what the adaptive
  // schedule and the report's efficiency use) are its own work.
  cpu_set_t before, one;
  ASSERT_EQ(sched_getaffinity(0, sizeof before, &before), 0);
  CPU_ZERO(&one);
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &before)) {
      CPU_SET(c, &one);
      break;
    }
  ASSERT_EQ(sched_setaffinity(0, sizeof one, &one), 0); // the workers started below inherit it
  temp_file report;
  std::string line;
  {
    scoped_env env({{"GPU_AUTOPAR_DEVICES", "sim:2"}, {"GPU_AUTOPAR_REPORT", report.path()}});
    spinning_body body(40, std::chrono::microseconds(2000));
    run_loop(kSite, 40, with(schedule_kind::dynamic, 1), body);
    EXPECT_TRUE(body.each_once());
    line = report.lines().at(0);
  }
  sched_setaffinity(0, sizeof before, &before);
  const double wall = std::strtod(rt_test::json_field(line, "seconds", line.find("}]")).c_str(), nullptr);
  if (wall < 0.064) // 80 ms of work: ran side by side after all, nothing to tell apart
    GTEST_SKIP() << "the devices' workers did not share one core: " << line;
  std::uint64_t total = 0;
  int used = 0;
  rt_test::device_iterations(line, total, used);
  ASSERT_EQ(used, 2) << line;
  const std::string devices = rt_test::json_field(line, "devices");
  double busy = 0;
  for (std::size_t at = devices.find("\"seconds\":"); at != std::string::npos; at = devices.find("\"seconds\":", at + 1))
    busy += std::strtod(devices.c_str() + at + 10, nullptr);
  // 40 iterations of 2 ms of work: 80 ms in all, not the ~160 ms of wall
  // time the two devices spent side by side on one core.
  EXPECT_LT(busy, 0.110) << line;
  EXPECT_GT(busy, 0.070) << line;
}

TEST(RunLoop, ReportLinesForCpuSerialAndHostMode) {
  temp_file report;
  scoped_env env({{"GPU_AUTOPAR_DEVICES", "sim:2"}, {"GPU_AUTOPAR_REPORT", report.path()}});
  recording_body a(5000), b(3), c(5000);
  loop_options host;
  host.mode = loop_mode::host;
  run_loop(kSite, 5000, host, a);
  loop_options serial;
  serial.min_iterations = 10;
  run_loop(kSite, 3, serial, b);
  loop_options cpu;
  cpu.fallback = fallback_policy::cpu;
  run_loop(kSite, 5000, cpu, c);
  auto lines = report.lines();
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(rt_test::json_field(lines[0], "backend"), "\"cpu\"");
  EXPECT_EQ(rt_test::json_field(lines[0], "mode"), "\"host\"");
  EXPECT_EQ(rt_test::json_field(lines[0], "fallback"), "null") << "host mode is not a fallback";
  EXPECT_NE(lines[0].find("\"threads\":"), std::string::npos);
  EXPECT_EQ(rt_test::json_field(lines[1], "serial"), "true");
  EXPECT_EQ(rt_test::json_field(lines[1], "backend"), "\"cpu\"");
  EXPECT_EQ(rt_test::json_field(lines[2], "fallback"), "null") << "fallback(cpu) is a choice, not a fallback";
  for (auto& l : lines) {
    std::uint64_t total = 0;
    int used = 0;
    rt_test::device_iterations(l, total, used);
    EXPECT_EQ(total, std::stoull(rt_test::json_field(l, "iterations"))) << l;
    EXPECT_EQ(used, 1) << l;
  }
}

TEST(RunLoop, TaskModeSpreadsSixIterationsOverThreeDevices) {
  scoped_env env({{"GPU_AUTOPAR_DEVICES", "sim:3"}});
  recording_body body(6);
  loop_options o;
  o.mode = loop_mode::task;
  run_loop(kSite, 6, o, body);
  EXPECT_TRUE(body.each_once());
  for (int d = 0; d < 3; ++d)
    EXPECT_GT(body.on_device(d), 0u) << "device " << d;
}

TEST(RunLoop, DevicesClauseCapsTheDevices) {
  scoped_env env({{"GPU_AUTOPAR_DEVICES", "sim:4"}});
  recording_body body(20000);
  loop_options o;
  o.max_devices = 2;
  run_loop(kSite, 20000, o, body);
  EXPECT_TRUE(body.each_once());
  EXPECT_EQ(body.on_device(2) + body.on_device(3), 0u);
  EXPECT_EQ(body.on_device(0) + body.on_device(1), 20000u);
}

TEST(RunLoop, AdaptiveGivesTheFasterDeviceAboutTwiceTheWork) {
  scoped_env env({{"GPU_AUTOPAR_DEVICES", "sim:2,speed=1:2"}});
  // Timing on a shared machine is noisy: a stalled thread can skew one run's
  // measurements, so the split has to come out right in one of three runs.
  std::string runs;
  for (int attempt = 0; attempt < 3; ++attempt) {
    recording_body body(4000);
    body.sleep_per_iteration = std::chrono::microseconds(30); // ~0.1 s of wall time per run
    run_loop(kSite, 4000, loop_options{}, body);
    ASSERT_TRUE(body.each_once());
    const double ratio = double(body.on_device(1)) / double(body.on_device(0));
    if (ratio > 1.4 && ratio < 2.8)
      return;
    runs += " " + std::to_string(body.on_device(0)) + ":" + std::to_string(body.on_device(1));
  }
  ADD_FAILURE() << "slow:fast iterations, expected about 1:2:" << runs;
}

TEST(RunLoop, SlotsRunSeveralChunksOnOneDeviceAtOnce) {
  scoped_env env({{"GPU_AUTOPAR_DEVICES", "sim:1"}});
  recording_body body(400);
  body.sleep_per_iteration = std::chrono::microseconds(50);
  loop_options o = with(schedule_kind::dynamic, 10);
  o.slots = 3;
  run_loop(kSite, 400, o, body);
  EXPECT_TRUE(body.each_once());
  EXPECT_EQ(body.threads().size(), 3u) << "one worker per slot";
  EXPECT_EQ(detail::runtime().pool->slot_count(0), 3);
  expect_pool_full();
}

TEST(RunLoop, FallbackPolicies) {
  {
    scoped_env env({{"GPU_AUTOPAR_DEVICES", "cpu"}});
    recording_body body(1000);
    loop_options o;
    o.fallback = fallback_policy::gpu;
    EXPECT_THROW(run_loop(kSite, 1000, o, body), loop_error);
    o.fallback = fallback_policy::none;
    try {
      run_loop(kSite, 1000, o, body);
      ADD_FAILURE() << "fallback(none) without devices must fail";
    } catch (const loop_error& e) {
      EXPECT_NE(std::string(e.what()).find("unit.cpp:42"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("fallback(none)"), std::string::npos) << e.what();
    }
  }
  {
    scoped_env env({{"GPU_AUTOPAR_DEVICES", "sim:2"}});
    recording_body body(1000);
    loop_options o;
    o.fallback = fallback_policy::none;
    o.max_devices = 3;
    EXPECT_THROW(run_loop(kSite, 1000, o, body), loop_error) << "3 devices planned, 2 there";
  }
  {
    temp_file report;
    scoped_env env({{"GPU_AUTOPAR_DEVICES", "sim:2"}, {"GPU_AUTOPAR_REPORT", report.path()}});
    recording_body body(1000);
    body.host_only = true; // like a kernel-mode loop compiled without nvcc on CUDA devices
    run_loop(kSite, 1000, loop_options{}, body);
    EXPECT_TRUE(body.each_once());
    auto lines = report.lines();
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_NE(lines[0].find("\"fallback\":{\"to\":\"cpu\",\"reason\":\"test body: host only\"}"), std::string::npos)
        << lines[0];
  }
}

TEST(RunLoop, BadDevicesValueFallsBackToCpuWithAMessage) {
  testing::internal::CaptureStderr();
  {
    scoped_env env({{"GPU_AUTOPAR_DEVICES", "sim:two"}});
    recording_body body(1000);
    run_loop(kSite, 1000, loop_options{}, body);
    EXPECT_TRUE(body.each_once());
    EXPECT_EQ(body.on_device(-1), 1000u);
  }
  std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("GPU_AUTOPAR_DEVICES='sim:two'"), std::string::npos) << err;
  EXPECT_NE(err.find("using CPU threads"), std::string::npos) << err;
}

TEST(RunLoop, InfoLogNamesDevicesAndIterations) {
  testing::internal::CaptureStderr();
  {
    scoped_env env({{"GPU_AUTOPAR_DEVICES", "sim:3"}, {"GPU_AUTOPAR_LOG", "info"}});
    recording_body body(100003);
    loop_options o = with(schedule_kind::static_);
    run_loop(kSite, 100003, o, body);
  }
  std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("gpu-autopar: unit.cpp:42: kernel loop, 100003 iterations on 3 sim devices: sim0 33335 (in 0 B, "
                     "out 0 B, 0 alloc, 0 launch, 1 sync), sim1 33334 ("),
            std::string::npos)
      << err;
  EXPECT_NE(err.find(", sim2 33334 ("), std::string::npos) << err;
}

TEST(RunLoop, ReadsTheEnvironmentOnce) {
  scoped_env env({{"GPU_AUTOPAR_DEVICES", "sim:2"}});
  recording_body a(1000);
  run_loop(kSite, 1000, loop_options{}, a);
  ::setenv("GPU_AUTOPAR_DEVICES", "cpu", 1); // not seen until the runtime is reset
  recording_body b(1000);
  run_loop(kSite, 1000, loop_options{}, b);
  EXPECT_EQ(b.on_device(-1), 0u);
  EXPECT_EQ(b.on_device(0) + b.on_device(1), 1000u);
}
