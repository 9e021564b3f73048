#include "chunk_scheduler.h"

#include <gtest/gtest.h>

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
  chunk_scheduler sched(kind, count, chunk_size, workers, devices);
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
    chunk_scheduler sched(kind, 6, 0, {0, 1, 2}, 3);
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
  chunk_scheduler sched(schedule_kind::adaptive, 1000000, 0, {0, 1}, 2);
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
  chunk_scheduler sched(schedule_kind::dynamic, 100, 10, {0, 1}, 2);
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
  chunk_scheduler sched(schedule_kind::guided, 1000, 0, {0, 1}, 2);
  chunk c;
  ASSERT_TRUE(sched.next(0, c));
  std::uint64_t left = 0;
  for (const index_range& r : sched.take_remaining())
    left += r.size();
  EXPECT_EQ(left + c.range.size(), 1000u);
  EXPECT_TRUE(sched.exhausted());
}
