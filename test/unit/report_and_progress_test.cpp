// The report line's JSON, the info line and the progress bar's frames.
#include <gtest/gtest.h>

#include "runtime_test_support.h"

#include "loop_report.h"
#include "progress_bar.h"

using namespace gpu_autopar;
using namespace gpu_autopar::detail;

namespace {
loop_record mixed_record() {
  loop_record r;
  r.site = {"a \"quoted\" file.cpp", 12};
  r.mode = loop_mode::task;
  r.iterations = 30;
  report_entry sim0{0, device_kind::sim};
  sim0.iterations = 20;
  sim0.chunks = 2;
  sim0.failures = 1;
  sim0.counters.copied_in(3 << 20);
  sim0.counters.copied_out(1536);
  sim0.counters.copied_out(512);
  sim0.counters.allocations = 4;
  sim0.counters.launches = 2;
  sim0.counters.synchronizations = 5;
  report_entry cpu{-1, device_kind::cpu};
  cpu.iterations = 10;
  cpu.chunks = 1;
  cpu.threads = 4;
  r.devices = {sim0, cpu};
  r.fallback_to = "cpu";
  r.fallback_reason = "sim1 failed: \"boom\"\n";
  r.seconds = 0.5;
  return r;
}
} // namespace

TEST(LoopReport, JsonLineEscapesAndAddsUp) {
  const std::string j = report_json(mixed_record());
  ASSERT_EQ(j.back(), '\n');
  EXPECT_EQ(j.find('\n'), j.size() - 1) << "exactly one line";
  EXPECT_EQ(rt_test::json_field(j, "loop"), "\"a \\\"quoted\\\" file.cpp:12\"");
  EXPECT_EQ(rt_test::json_field(j, "backend"), "\"mixed\"");
  EXPECT_EQ(rt_test::json_field(j, "mode"), "\"task\"");
  EXPECT_NE(j.find("\"reason\":\"sim1 failed: \\\"boom\\\"\\u000a\""), std::string::npos) << j;
  EXPECT_NE(j.find("{\"id\":-1,\"kind\":\"cpu\",\"threads\":4,\"iterations\":10"), std::string::npos) << j;
  EXPECT_NE(j.find("\"seconds\":0.000000,\"h2d_bytes\":3145728,\"h2d_copies\":1,\"d2h_bytes\":2048,\"d2h_copies\":2,"
                   "\"allocations\":4,\"launches\":2,\"syncs\":5}"),
            std::string::npos)
      << j;
  EXPECT_EQ(j.find("h2d_bytes", j.find("\"kind\":\"cpu\"")), std::string::npos) << "no device counts for the CPU: " << j;
  std::uint64_t total = 0;
  int used = 0;
  rt_test::device_iterations(j, total, used);
  EXPECT_EQ(total, 30u);
  EXPECT_EQ(used, 2);
}

TEST(LoopReport, InfoLineNamesEachDevice) {
  EXPECT_EQ(info_line(mixed_record()),
            "gpu-autopar: a \"quoted\" file.cpp:12: task loop, 30 iterations on 2 devices: sim0 20 (in 3.0 MiB, out "
            "2.0 KiB, 4 alloc, 2 launch, 5 sync), cpu 10 "
            "(fallback to cpu: sim1 failed: \"boom\"\n)\n");
  loop_record serial;
  serial.site = {"s.cpp", 3};
  serial.iterations = 5;
  serial.serial = true;
  serial.serial_below = 8;
  EXPECT_EQ(info_line(serial),
            "gpu-autopar: s.cpp:3: kernel loop, 5 iterations serially on the calling thread (below min_iterations 8)\n");
}

TEST(ProgressBar, FramesShowTheFraction) {
  char line[256];
  progress_bar::render(line, sizeof line, loop_site{"p.cpp", 4}, 50, 200, 3.25);
  EXPECT_STREQ(line, "gpu-autopar: p.cpp:4 [#######.......................]  25% 3.2s");
  progress_bar::render(line, sizeof line, loop_site{"p.cpp", 4}, 200, 200, 1);
  EXPECT_NE(std::string(line).find("100%"), std::string::npos);
}

TEST(ProgressBar, OnDrawsFromTheCallingThreadAndOffNever) {
  testing::internal::CaptureStderr();
  {
    rt_test::scoped_env env({{"GPU_AUTOPAR_DEVICES", "sim:2"}, {"GPU_AUTOPAR_PROGRESS", "on"}});
    rt_test::recording_body body(400);
    body.sleep_per_iteration = std::chrono::microseconds(1000); // ~0.2 s per device
    gpu_autopar::loop_options o;
    o.schedule = gpu_autopar::schedule_kind::dynamic;
    o.chunk = 10;
    gpu_autopar::run_loop(loop_site{"p.cpp", 9}, 400, o, body);
    EXPECT_TRUE(body.each_once());
  }
  const std::string on = testing::internal::GetCapturedStderr();
  EXPECT_NE(on.find("\rgpu-autopar: p.cpp:9 ["), std::string::npos) << on;
  EXPECT_EQ(on.back(), '\n') << "the bar's line is ended";

  testing::internal::CaptureStderr();
  {
    rt_test::scoped_env env({{"GPU_AUTOPAR_DEVICES", "sim:2"}, {"GPU_AUTOPAR_PROGRESS", "off"}});
    rt_test::recording_body body(400);
    body.sleep_per_iteration = std::chrono::microseconds(500);
    gpu_autopar::run_loop(loop_site{"p.cpp", 9}, 400, gpu_autopar::loop_options{}, body);
  }
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
}
