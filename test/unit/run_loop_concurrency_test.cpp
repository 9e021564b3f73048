// Loops from several host threads sharing the lease pool, and loops nested in
// an iteration that already holds a lease (or runs on a CPU pool thread).
#include "runtime_test_support.h"

#include <gpu_autopar/loop_body.h>

#include <gtest/gtest.h>

#include "lease_pool.h"
#include "runtime_state.h"

using namespace gpu_autopar;
using rt_test::recording_body;
using rt_test::scoped_env;

namespace {
const loop_site kSite{"concurrent.cpp", 3};
}

TEST(RunLoopConcurrency, LoopsFromSeveralThreadsShareThePoolWithoutDeadlock) {
  scoped_env env({{"GPU_AUTOPAR_DEVICES", "sim:3"}});
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([t, &failures] {
      for (int i = 0; i < 15; ++i) {
        const std::uint64_t n = 500 + 977 * std::uint64_t(t + i);
        recording_body body(n);
        loop_options o;
        o.schedule = schedule_kind(i % 4);
        o.slots = 1 + (t + i) % 3;
        o.mode = i % 2 ? loop_mode::task : loop_mode::kernel;
        run_loop(kSite, n, o, body);
        if (!body.each_once())
          ++failures;
      }
    });
  for (auto& t : threads)
    t.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(detail::runtime().pool->leases_in_use(), 0);
}

TEST(RunLoopConcurrency, NeverMoreLeasesOnADeviceThanItHasSlots) {
  scoped_env env({{"GPU_AUTOPAR_DEVICES", "sim:2"}});
  std::atomic<int> worst{0};
  recording_body body(2000);
  body.inner = [&worst](std::uint64_t) {
    for (int d = 0; d < 2; ++d) {
      int held = detail::runtime().pool->leases_in_use(d);
      int seen = worst.load();
      while (held > seen && !worst.compare_exchange_weak(seen, held)) {
      }
    }
  };
  std::thread other([] {
    recording_body b(3000);
    loop_options o;
    o.slots = 2;
    run_loop(kSite, 3000, o, b);
  });
  loop_options o;
  o.slots = 2;
  run_loop(kSite, 2000, o, body);
  other.join();
  EXPECT_TRUE(body.each_once());
  EXPECT_GE(worst.load(), 1);
  EXPECT_LE(worst.load(), detail::runtime().pool->slot_count(0));
  EXPECT_EQ(detail::runtime().pool->leases_in_use(), 0);
}

TEST(RunLoopConcurrency, NestedLoopRunsOnTheOuterIterationsLease) {
  scoped_env env({{"GPU_AUTOPAR_DEVICES", "sim:3"}});
  const std::uint64_t outer_n = 6, inner_n = 1000;
  std::vector<std::unique_ptr<recording_body>> inners;
  for (std::uint64_t i = 0; i < outer_n; ++i)
    inners.push_back(std::make_unique<recording_body>(inner_n));
  std::atomic<int> mismatches{0};
  recording_body outer(outer_n);
  outer.inner = [&](std::uint64_t k) {
    device_context* lease = current_device();
    if (!lease) {
      ++mismatches;
      return;
    }
    const int leases_before = detail::runtime().pool->leases_in_use(lease->id());
    loop_options o; // kernel mode, would use every device if it were not nested
    run_loop(kSite, inner_n, o, *inners[k]);
    if (inners[k]->on_device(lease->id()) != inner_n || detail::runtime().pool->leases_in_use(lease->id()) != leases_before)
      ++mismatches;
  };
  loop_options o;
  o.mode = loop_mode::task;
  run_loop(kSite, outer_n, o, outer);
  EXPECT_TRUE(outer.each_once());
  for (auto& in : inners)
    EXPECT_TRUE(in->each_once());
  EXPECT_EQ(mismatches.load(), 0);
  EXPECT_EQ(current_device(), nullptr) << "no lease outside a loop";
  EXPECT_EQ(current_stream(), nullptr);
}

TEST(RunLoopConcurrency, NestedLoopOnACpuThreadRunsInline) {
  scoped_env env({{"GPU_AUTOPAR_DEVICES", "cpu"}});
  std::atomic<int> wrong_thread{0};
  recording_body outer(64);
  outer.inner = [&](std::uint64_t) {
    recording_body in(500);
    run_loop(kSite, 500, loop_options{}, in);
    if (!in.each_once() || in.threads().size() != 1 || *in.threads().begin() != std::this_thread::get_id())
      ++wrong_thread;
  };
  loop_options o;
  o.min_iterations = 2;
  run_loop(kSite, 64, o, outer);
  EXPECT_TRUE(outer.each_once());
  EXPECT_EQ(wrong_thread.load(), 0);
}

TEST(RunLoopConcurrency, NestedLoopsWriteReportLinesMarkedNested) {
  rt_test::temp_file report;
  for (const char* devices : {"sim:2", "cpu"}) {
    std::remove(report.path().c_str());
    scoped_env env({{"GPU_AUTOPAR_DEVICES", devices}, {"GPU_AUTOPAR_REPORT", report.path()}});
    recording_body outer(4);
    outer.inner = [](std::uint64_t) {
      recording_body in(300);
      run_loop(loop_site{"inner.cpp", 5}, 300, loop_options{}, in);
    };
    loop_options o;
    o.mode = loop_mode::task;
    run_loop(kSite, 4, o, outer);
    auto lines = report.lines();
    ASSERT_EQ(lines.size(), 5u) << devices;
    int nested = 0;
    for (auto& l : lines)
      if (l.find("\"loop\":\"inner.cpp:5\"") != std::string::npos) {
        ++nested;
        EXPECT_EQ(rt_test::json_field(l, "nested"), "true") << l;
        std::uint64_t total = 0;
        int used = 0;
        rt_test::device_iterations(l, total, used);
        EXPECT_EQ(total, 300u);
      }
    EXPECT_EQ(nested, 4);
  }
}
