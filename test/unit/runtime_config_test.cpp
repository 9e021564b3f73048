#include "runtime_config.h"

#include <gtest/gtest.h>

#include <cstdlib>

using namespace gpu_autopar::detail;

TEST(RuntimeConfig, DeviceSelections) {
  devices_config c;
  std::string error;
  ASSERT_TRUE(parse_devices("auto", c, error));
  EXPECT_EQ(c.source, device_source::auto_);
  ASSERT_TRUE(parse_devices("cpu", c, error));
  EXPECT_EQ(c.source, device_source::cpu);
  ASSERT_TRUE(parse_devices("cuda", c, error));
  EXPECT_EQ(c.source, device_source::cuda);
  EXPECT_TRUE(c.cuda_ids.empty());
  ASSERT_TRUE(parse_devices("cuda:0,2", c, error));
  EXPECT_EQ(c.cuda_ids, (std::vector<int>{0, 2}));
}

TEST(RuntimeConfig, SimulatedDevicesWithOptions) {
  devices_config c;
  std::string error;
  ASSERT_TRUE(parse_devices("sim:4,mem=2GiB,speed=1:2:1:0.5,fail=0@2+2@1,oom=3@1", c, error)) << error;
  EXPECT_EQ(c.source, device_source::sim);
  ASSERT_EQ(c.sim_count, 4);
  EXPECT_EQ(c.sim_memory, std::vector<std::uint64_t>(4, 2ull << 30));
  EXPECT_EQ(c.sim_speed, (std::vector<double>{1, 2, 1, 0.5}));
  ASSERT_EQ(c.fail.size(), 2u);
  EXPECT_EQ(c.fail[0].device, 0);
  EXPECT_EQ(c.fail[0].chunk, 2u);
  EXPECT_EQ(c.fail[1].device, 2);
  ASSERT_EQ(c.oom.size(), 1u);
  EXPECT_EQ(c.oom[0].device, 3);

  ASSERT_TRUE(parse_devices("sim:2,mem=1MiB:64KB", c, error)) << error;
  EXPECT_EQ(c.sim_memory, (std::vector<std::uint64_t>{1 << 20, 64000}));
  EXPECT_EQ(c.sim_speed, (std::vector<double>{1, 1}));
}

TEST(RuntimeConfig, SimulatedLinkAndLatency) {
  devices_config c;
  std::string error;
  ASSERT_TRUE(parse_devices("sim:2", c, error)) << error;
  EXPECT_FALSE(c.link.on()) << "copies are free unless asked";
  ASSERT_TRUE(parse_devices("sim:2,link=16GB/s", c, error)) << error;
  EXPECT_DOUBLE_EQ(c.link.bytes_per_second, 16e9);
  EXPECT_DOUBLE_EQ(c.link.latency, kDefaultSimLatency);
  EXPECT_DOUBLE_EQ(c.link.seconds(16000), 10e-6 + 1e-6);
  ASSERT_TRUE(parse_devices("sim:2,latency=2.5us,link=1GiB/s", c, error)) << error;
  EXPECT_DOUBLE_EQ(c.link.bytes_per_second, 1024. * 1024 * 1024);
  EXPECT_DOUBLE_EQ(c.link.latency, 2.5e-6) << "latency= holds whichever option comes first";
  ASSERT_TRUE(parse_devices("sim:1,link=900MB/s,latency=0", c, error)) << error;
  EXPECT_DOUBLE_EQ(c.link.latency, 0);
  ASSERT_TRUE(parse_devices("sim:1,latency=1ms", c, error)) << error;
  EXPECT_TRUE(c.link.on());
  EXPECT_DOUBLE_EQ(c.link.seconds(1 << 30), 1e-3) << "no bandwidth limit: latency only";

  for (const char* bad : {"sim:1,link=16GB", "sim:1,link=fast", "sim:1,link=0GB/s", "sim:1,link=20TB/s",
                          "sim:1,link=.GB/s"}) {
    EXPECT_FALSE(parse_devices(bad, c, error)) << bad;
    EXPECT_NE(error.find("is not a bandwidth"), std::string::npos) << bad << ": " << error;
  }
  for (const char* bad : {"sim:1,latency=10", "sim:1,latency=-1us", "sim:1,latency=2s", "sim:1,latency=us"}) {
    EXPECT_FALSE(parse_devices(bad, c, error)) << bad;
    EXPECT_NE(error.find("is not a time per copy"), std::string::npos) << bad << ": " << error;
  }
}

TEST(RuntimeConfig, BadValuesSayWhatIsWrong) {
  devices_config c;
  std::string error;
  EXPECT_FALSE(parse_devices("gpu", c, error));
  EXPECT_NE(error.find("expected auto"), std::string::npos) << error;
  EXPECT_FALSE(parse_devices("sim:x", c, error));
  EXPECT_NE(error.find("device count"), std::string::npos) << error;
  EXPECT_FALSE(parse_devices("sim:2,speed=1:2:3", c, error));
  EXPECT_NE(error.find("one per device"), std::string::npos) << error;
  EXPECT_FALSE(parse_devices("sim:2,mem=lots", c, error));
  EXPECT_FALSE(parse_devices("sim:2,fail=5@1", c, error));
  EXPECT_NE(error.find("names device 5"), std::string::npos) << error;
  EXPECT_FALSE(parse_devices("sim:2,fail=0@0", c, error));
  EXPECT_FALSE(parse_devices("sim:2,colour=red", c, error));
  EXPECT_NE(error.find("unknown"), std::string::npos) << error;
  EXPECT_FALSE(parse_devices("cuda:a", c, error));
}

TEST(RuntimeConfig, Sizes) {
  std::uint64_t b = 0;
  EXPECT_TRUE(parse_bytes("4096", b));
  EXPECT_EQ(b, 4096u);
  EXPECT_TRUE(parse_bytes("3KiB", b));
  EXPECT_EQ(b, 3072u);
  EXPECT_TRUE(parse_bytes("2G", b));
  EXPECT_EQ(b, 2ull << 30);
  EXPECT_FALSE(parse_bytes("", b));
  EXPECT_FALSE(parse_bytes("GiB", b));
  EXPECT_FALSE(parse_bytes("1XB", b));
  EXPECT_FALSE(parse_bytes("99999999999TiB", b));
}

TEST(RuntimeConfig, SpeedsAreRelativeWithinACap) {
  devices_config c;
  std::string error;
  // Too fast and too slow are refused alike, with the range.
  for (const char* bad : {"sim:2,speed=1e9", "sim:2,speed=1e-9", "sim:3,speed=1:1e-6:1", "sim:2,speed=0", "sim:2,speed=-1"}) {
    EXPECT_FALSE(parse_devices(bad, c, error)) << bad;
    EXPECT_NE(error.find("is not a number from 0.01 to 100"), std::string::npos) << error;
  }
  EXPECT_FALSE(parse_devices("sim:2,speed=100:0.5", c, error));
  EXPECT_NE(error.find("the fastest device may be at most 100 times as fast as the slowest"), std::string::npos)
      << error;
  ASSERT_TRUE(parse_devices("sim:3,speed=1:0.01:1", c, error)) << error;
  EXPECT_EQ(c.sim_speed, (std::vector<double>{1, 0.01, 1}));
}

TEST(RuntimeConfig, ThreadCounts) {
  unsigned n = 0;
  for (const char* bad : {"0", "-3", "999999", "abc", "", "4x"})
    EXPECT_FALSE(parse_threads(bad, n)) << bad;
  ASSERT_TRUE(parse_threads("4", n));
  EXPECT_EQ(n, 4u);
  ASSERT_TRUE(parse_threads("4096", n));
}

// Every invalid variable is reported once, naming it, its value and what is
// used instead.
TEST(RuntimeConfig, InvalidThreadsAreReported) {
  const std::string hw = std::to_string(default_threads());
  for (const char* bad : {"0", "-3", "999999", "abc"}) {
    setenv("GPU_AUTOPAR_THREADS", bad, 1);
    runtime_config c = read_config_from_environment();
    ASSERT_EQ(c.problems.size(), 1u) << bad;
    EXPECT_EQ(c.problems[0], std::string("GPU_AUTOPAR_THREADS='") + bad +
                                 "' is not a thread count from 1 to 4096; using " + hw + " (the hardware threads)");
  }
  setenv("GPU_AUTOPAR_THREADS", "3", 1);
  EXPECT_TRUE(read_config_from_environment().problems.empty());
  unsetenv("GPU_AUTOPAR_THREADS");
}

// GPU_AUTOPAR_QUEUE: on (the default) or off; anything else is reported and on.
TEST(RuntimeConfig, QueueSetting) {
  unsetenv("GPU_AUTOPAR_QUEUE");
  EXPECT_TRUE(read_config_from_environment().queue_region_loops);
  setenv("GPU_AUTOPAR_QUEUE", "on", 1);
  EXPECT_TRUE(read_config_from_environment().queue_region_loops);
  setenv("GPU_AUTOPAR_QUEUE", "off", 1);
  runtime_config c = read_config_from_environment();
  EXPECT_FALSE(c.queue_region_loops);
  EXPECT_TRUE(c.problems.empty());
  setenv("GPU_AUTOPAR_QUEUE", "yes", 1);
  c = read_config_from_environment();
  EXPECT_TRUE(c.queue_region_loops);
  ASSERT_EQ(c.problems.size(), 1u);
  EXPECT_EQ(c.problems[0], "GPU_AUTOPAR_QUEUE='yes' is not on or off; using on");
  unsetenv("GPU_AUTOPAR_QUEUE");
}
