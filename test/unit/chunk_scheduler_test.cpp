#include "chunk_scheduler.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

using namespace gpu_autopar;
using namespace gpu_autopar::detail;

namespace {

// Hands out every chunk to workers in turn and checks each index once.
void expect_covers(schedule_kind kind, std::uint64_t count, std::uint64_t chunk_size, int devices, int slots) {
  std::vector<int> workers;
  for (int d = 0; d < devices; ++d)
    for (int s = 0; s < slots; ++s)
      workers.push_back(d);
  chunk_scheduler sched(choose_schedule(kind, false), count, chunk_size, workers, devices);
  std::vector<int> seen(count, 0);
  bool any = true;
  while (any) {
    any = false;
    for (int w = 0; w < int(workers.size()); ++w) {
      chunk c;
      if (!sched.next(w, c))
        continue;
      any = true;
      ASSERT_LT(c.range.begin, c.range.end);
      for (std::uint64_t k = c.range.begin; k < c.range.end; ++k)
        ++seen[k];
      sched.completed(w, c, 1e-3 * double(c.range.size()));
    }
  }
  EXPECT_TRUE(sched.exhausted());
  for (std::uint64_t k = 0; k < count; ++k)
    ASSERT_EQ(seen[k], 1) << "index " << k << " count " << count << " schedule " << int(kind);
}

} // namespace

TEST(ChunkScheduler, EveryScheduleCoversEachIndexOnce) {
  for (auto kind : {schedule_kind::static_, schedule_kind::dynamic, schedule_kind::guided, schedule_kind::adaptive})
    for (std::uint64_t count : {1ull, 5ull, 64ull, 1001ull, 30011ull})
      for (std::uint64_t chunk_size : {0ull, 1ull, 7ull, 5000ull})
        for (int devices = 1; devices <= 8; devices += 3)
          expect_covers(kind, count, chunk_size, devices, devices == 4 ? 2 : 1);
}

TEST(ChunkScheduler, EveryWorkerGetsAFirstChunk) {
  for (auto kind : {schedule_kind::static_, schedule_kind::dynamic, schedule_kind::guided, schedule_kind::adaptive}) {
    chunk_scheduler sched(choose_schedule(kind, false), 6, 0, {0, 1, 2}, 3);
    // Worker 0 asks three times before the others ask at all.
    chunk c;
    std::uint64_t taken = 0;
    for (int i = 0; i < 3 && sched.next(0, c); ++i)
      taken += c.range.size();
    EXPECT_LE(taken, 6u);
    EXPECT_TRUE(sched.next(1, c)) << "schedule " << int(kind);
    EXPECT_TRUE(sched.next(2, c)) << "schedule " << int(kind);
  }
}

TEST(ChunkScheduler, AdaptiveSharesByMeasuredThroughput) {
  // Device 1 is twice as fast: after the probes it is offered about twice as much.
  chunk_scheduler sched(choose_schedule(schedule_kind::adaptive, false), 1000000, 0, {0, 1}, 2);
  chunk a, b;
  ASSERT_TRUE(sched.next(0, a));
  ASSERT_TRUE(sched.next(1, b));
  sched.completed(0, a, 2.0 * double(a.range.size()));
  sched.completed(1, b, 1.0 * double(b.range.size()));
  chunk slow, fast;
  ASSERT_TRUE(sched.next(0, slow));
  ASSERT_TRUE(sched.next(1, fast));
  const double ratio = double(fast.range.size()) / double(slow.range.size());
  EXPECT_GT(ratio, 1.6);
  EXPECT_LT(ratio, 2.4);
}

TEST(ChunkScheduler, FailedChunksComeBackFirstAndSplit) {
  chunk_scheduler sched(choose_schedule(schedule_kind::dynamic, false), 100, 10, {0, 1}, 2);
  chunk c;
  ASSERT_TRUE(sched.next(0, c));
  sched.give_back(c, true);
  sched.drop_device(0);
  EXPECT_FALSE(sched.next(0, c)) << "a dropped device gets nothing";
  chunk first, second;
  ASSERT_TRUE(sched.next(1, first));
  ASSERT_TRUE(sched.next(1, second));
  EXPECT_TRUE(first.retry);
  EXPECT_TRUE(second.retry);
  EXPECT_EQ(first.range.size() + second.range.size(), 10u);
  EXPECT_EQ(first.range.end, second.range.begin);
}

TEST(ChunkScheduler, RemainingRangesGoToTheCpu) {
  chunk_scheduler sched(choose_schedule(schedule_kind::guided, false), 1000, 0, {0, 1}, 2);
  chunk c;
  ASSERT_TRUE(sched.next(0, c));
  std::uint64_t left = 0;
  for (const index_range& r : sched.take_remaining())
    left += r.size();
  EXPECT_EQ(left + c.range.size(), 1000u);
  EXPECT_TRUE(sched.exhausted());
}

namespace {

// Runs an adaptive loop in virtual time: device d starts at start[d] and
// runs an iteration in cost[d] seconds; a device that gets nothing asks again
// after the next chunk completes (as the device loop's workers wait). Returns
// each device's busy seconds.
std::vector<double> simulate(std::uint64_t count, const std::vector<double>& start, const std::vector<double>& cost) {
  const int n = int(start.size());
  std::vector<int> workers;
  for (int d = 0; d < n; ++d)
    workers.push_back(d);
  chunk_scheduler sched(choose_schedule(schedule_kind::adaptive, false), count, 0, workers, n);
  std::vector<double> busy(n, 0), free_at(start);
  std::vector<chunk> running(n);
  std::vector<bool> has(n, false);
  std::uint64_t done = 0;
  double now = 0;
  while (done < count) {
    // Devices free by `now` ask; then time moves to the next completion or start.
    for (int d = 0; d < n; ++d)
      if (!has[d] && free_at[d] <= now && sched.next(d, running[d])) {
        has[d] = true;
        free_at[d] = now + cost[d] * double(running[d].range.size());
        busy[d] += cost[d] * double(running[d].range.size());
      }
    double next = 1e300;
    for (int d = 0; d < n; ++d)
      if (has[d] || free_at[d] > now)
        next = std::min(next, free_at[d]);
    EXPECT_LT(next, 1e299) << "no device can make progress";
    if (next >= 1e299)
      break;
    now = next;
    for (int d = 0; d < n; ++d)
      if (has[d] && free_at[d] <= now) {
        sched.completed(d, running[d], cost[d] * double(running[d].range.size()));
        done += running[d].range.size();
        has[d] = false;
      }
  }
  EXPECT_TRUE(sched.exhausted());
  return busy;
}

// Split efficiency as the report gives it: ideal (total work over total
// speed) over makespan (the busiest device's seconds).
double efficiency(const std::vector<double>& busy, const std::vector<double>& cost) {
  double work = 0, speed = 0, makespan = 0;
  for (std::size_t d = 0; d < busy.size(); ++d) {
    work += busy[d] / cost[d];
    speed += 1 / cost[d];
    makespan = std::max(makespan, busy[d]);
  }
  return work / speed / makespan;
}

} // namespace

TEST(ChunkScheduler, AdaptiveSplitsAShortLoopEvenlyWhenWorkersStartLate) {
  // A 1M-iteration loop of 3 ms on equal devices, on a program's first loop:
  // the other devices' workers start 1 ms after device 0's.
  for (int devices : {2, 3, 4}) {
    std::vector<double> start(devices, 1e-3), cost(devices, 3e-9 * devices);
    start[0] = 0;
    const std::vector<double> busy = simulate(1000000, start, cost);
    EXPECT_GE(efficiency(busy, cost), 0.9) << devices << " devices";
  }
}

TEST(ChunkScheduler, AdaptiveStillGivesAFasterDeviceMoreWork) {
  const std::vector<double> cost = {2e-9, 1e-9, 2e-9};
  const std::vector<double> busy = simulate(3000000, {0, 0, 0}, cost);
  EXPECT_GE(efficiency(busy, cost), 0.9);
}
