// The schedule policies (schedule_policy.h): which one a loop gets, and the
// chunks each hands out: every iteration exactly once (also with failed
// chunks coming back, cut chunks and devices leaving), remainders spread over
// the workers, and each policy's own shape.
#include "chunk_scheduler.h"
#include "schedule_policy.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

using namespace gpu_autopar;
using namespace gpu_autopar::detail;

namespace {

struct handed {
  int worker;
  index_range range;
};

std::vector<int> one_worker_per_device(int devices) {
  std::vector<int> w;
  for (int d = 0; d < devices; ++d)
    w.push_back(d);
  return w;
}

// Workers ask in turn (in `order`, repeated), each chunk completing at once
// in time proportional to its size; returns the chunks in hand-out order.
std::vector<handed> hand_out(const schedule_policy& policy, std::uint64_t count, std::uint64_t chunk_size,
                             const std::vector<int>& workers, int devices, std::vector<int> order = {}) {
  if (order.empty())
    for (int w = 0; w < int(workers.size()); ++w)
      order.push_back(w);
  chunk_scheduler sched(policy, count, chunk_size, workers, devices);
  std::vector<handed> out;
  for (bool any = true; any;) {
    any = false;
    for (int w : order) {
      chunk c;
      if (!sched.next(w, c))
        continue;
      any = true;
      out.push_back({w, c.range});
      sched.completed(w, c, 1e-6 * double(c.range.size()));
    }
  }
  EXPECT_TRUE(sched.exhausted());
  return out;
}

// Every index of [0, count) in exactly one of `ranges`, none empty.
void expect_exactly_once(std::vector<index_range> ranges, std::uint64_t count, const std::string& what) {
  std::sort(ranges.begin(), ranges.end(), [](const index_range& a, const index_range& b) { return a.begin < b.begin; });
  std::uint64_t at = 0;
  for (const index_range& r : ranges) {
    ASSERT_LT(r.begin, r.end) << what << ": an empty chunk";
    ASSERT_EQ(r.begin, at) << what << ": " << (r.begin < at ? "iterations doubled" : "iterations lost") << " at " << at;
    at = r.end;
  }
  EXPECT_EQ(at, count) << what << ": iterations lost at the end";
}

std::vector<index_range> ranges_of(const std::vector<handed>& h) {
  std::vector<index_range> r;
  for (const handed& x : h)
    r.push_back(x.range);
  return r;
}

std::vector<std::uint64_t> sizes_of(const std::vector<handed>& h, int worker = -1) {
  std::vector<std::uint64_t> s;
  for (const handed& x : h)
    if (worker < 0 || x.worker == worker)
      s.push_back(x.range.size());
  return s;
}

const schedule_policy& policy(schedule_kind k) { return choose_schedule(k, false); }
const schedule_policy& affinity() { return choose_schedule(schedule_kind::adaptive, true); }

std::vector<const schedule_policy*> every_policy() {
  return {&policy(schedule_kind::static_), &policy(schedule_kind::dynamic), &policy(schedule_kind::guided),
          &policy(schedule_kind::adaptive), &affinity()};
}

} // namespace

TEST(SchedulePolicy, ChosenInOnePlace) {
  EXPECT_STREQ(choose_schedule(schedule_kind::static_, false).name(), "static");
  EXPECT_STREQ(choose_schedule(schedule_kind::dynamic, false).name(), "dynamic");
  EXPECT_STREQ(choose_schedule(schedule_kind::guided, false).name(), "guided");
  EXPECT_STREQ(choose_schedule(schedule_kind::adaptive, false).name(), "adaptive");
  // Inside a data region the default keeps each device's share loop after
  // loop; a schedule the clause names is kept.
  EXPECT_STREQ(choose_schedule(schedule_kind::adaptive, true).name(), "affinity");
  EXPECT_STREQ(choose_schedule(schedule_kind::static_, true).name(), "static");
  EXPECT_STREQ(choose_schedule(schedule_kind::dynamic, true).name(), "dynamic");
  EXPECT_STREQ(choose_schedule(schedule_kind::guided, true).name(), "guided");
}

TEST(SchedulePolicy, EveryPolicyHandsOutEachIterationOnce) {
  for (const schedule_policy* p : every_policy())
    for (std::uint64_t count : {1ull, 2ull, 7ull, 100ull, 4099ull, 100003ull})
      for (std::uint64_t c : {0ull, 1ull, 3ull, 64ull, 200000ull})
        for (int devices : {1, 2, 3, 5}) {
          const std::string what = std::string(p->name()) + " count " + std::to_string(count) + " chunk " +
                                   std::to_string(c) + " devices " + std::to_string(devices);
          expect_exactly_once(ranges_of(hand_out(*p, count, c, one_worker_per_device(devices), devices)), count, what);
        }
}

TEST(SchedulePolicy, StaticGivesEachWorkerOneShareWithTheRemainderSpread) {
  // 10 over 4: 3 3 2 2, in worker order, contiguous.
  const auto h = hand_out(policy(schedule_kind::static_), 10, 0, one_worker_per_device(4), 4, {3, 2, 1, 0});
  ASSERT_EQ(h.size(), 4u);
  for (int w = 0; w < 4; ++w)
    ASSERT_EQ(sizes_of(h, w).size(), 1u) << "worker " << w;
  const std::uint64_t expect_begin[] = {0, 3, 6, 8}, expect_end[] = {3, 6, 8, 10};
  for (const handed& x : h) {
    EXPECT_EQ(x.range.begin, expect_begin[x.worker]) << "worker " << x.worker;
    EXPECT_EQ(x.range.end, expect_end[x.worker]) << "worker " << x.worker;
  }
  // More workers than iterations: one each for the first, none for the rest.
  const auto few = hand_out(policy(schedule_kind::static_), 3, 0, one_worker_per_device(5), 5);
  ASSERT_EQ(few.size(), 3u);
  for (const handed& x : few)
    EXPECT_EQ(x.range.size(), 1u);
  // Any count: shares differ by at most one.
  for (std::uint64_t count : {1ull, 17ull, 1000ull, 1000003ull})
    for (int workers : {2, 3, 7}) {
      const auto s = sizes_of(hand_out(policy(schedule_kind::static_), count, 0, one_worker_per_device(workers), workers));
      EXPECT_LE(*std::max_element(s.begin(), s.end()) - *std::min_element(s.begin(), s.end()), 1u)
          << count << " over " << workers;
    }
}

TEST(SchedulePolicy, StaticWithAChunkDealsPiecesRoundRobin) {
  // schedule(static, 5) over 23 iterations and 2 workers: 0 gets pieces 0, 2,
  // 4 (the last one shorter), 1 gets pieces 1 and 3, whoever asks first.
  const auto h = hand_out(policy(schedule_kind::static_), 23, 5, one_worker_per_device(2), 2, {1, 0});
  std::vector<std::uint64_t> begins[2];
  for (const handed& x : h) {
    begins[x.worker].push_back(x.range.begin);
    EXPECT_EQ(x.range.end, std::min<std::uint64_t>(23, x.range.begin + 5));
  }
  EXPECT_EQ(begins[0], (std::vector<std::uint64_t>{0, 10, 20}));
  EXPECT_EQ(begins[1], (std::vector<std::uint64_t>{5, 15}));
}

TEST(SchedulePolicy, AffinityGivesEachDeviceTheSameShareEveryLoop) {
  // Two loops over the same range, asked in different orders: each device
  // gets the same contiguous part both times (what it holds resident).
  for (int devices : {2, 3, 4}) {
    const auto first = hand_out(affinity(), 1001, 0, one_worker_per_device(devices), devices);
    std::vector<int> reversed;
    for (int w = devices - 1; w >= 0; --w)
      reversed.push_back(w);
    const auto second = hand_out(affinity(), 1001, 0, one_worker_per_device(devices), devices, reversed);
    ASSERT_EQ(first.size(), std::size_t(devices));
    ASSERT_EQ(second.size(), std::size_t(devices));
    for (const handed& a : first)
      for (const handed& b : second)
        if (a.worker == b.worker) {
          EXPECT_EQ(a.range.begin, b.range.begin);
          EXPECT_EQ(a.range.end, b.range.end);
        }
  }
}

TEST(SchedulePolicy, DynamicHandsOutChunksOfOneSize) {
  // The size is c, but not below about 1/16 of a worker's share (1000 / 32
  // here): a chunk is at least a kernel launch.
  for (std::uint64_t c : {0ull, 7ull, 50ull}) {
    const auto h = hand_out(policy(schedule_kind::dynamic), 1000, c, one_worker_per_device(2), 2);
    const std::uint64_t size = std::max<std::uint64_t>(c, 1000 / 32);
    for (std::size_t i = 0; i < h.size(); ++i)
      if (h[i].range.end != 1000) { // the last one is what is left
        EXPECT_EQ(h[i].range.size(), size) << "chunk " << i << " chunk size " << c;
      }
  }
}

TEST(SchedulePolicy, GuidedChunksShrinkButNotBelowTheChunkSize) {
  for (std::uint64_t c : {0ull, 20ull}) {
    const auto h = hand_out(policy(schedule_kind::guided), 10000, c, one_worker_per_device(2), 2);
    ASSERT_GE(h.size(), 4u);
    EXPECT_EQ(h[0].range.size(), 2500u); // half of the loop over the workers
    EXPECT_EQ(h[1].range.size(), 2500u);
    for (std::size_t i = 1; i < h.size(); ++i) {
      EXPECT_LE(h[i].range.size(), h[i - 1].range.size()) << "chunk " << i;
      if (h[i].range.end != 10000) {
        EXPECT_GE(h[i].range.size(), std::max<std::uint64_t>(c, 1)) << "chunk " << i;
      }
    }
  }
}

TEST(SchedulePolicy, AdaptiveSharesEqualDevicesEqually) {
  // Equal devices asking in turn end up with shares within one probe of each other.
  for (int devices : {2, 3, 4}) {
    const auto h = hand_out(policy(schedule_kind::adaptive), 100000, 0, one_worker_per_device(devices), devices);
    std::vector<std::uint64_t> share(devices, 0);
    for (const handed& x : h)
      share[x.worker] += x.range.size();
    const std::uint64_t probe = 100000 / (std::uint64_t(devices) * 8);
    EXPECT_LE(*std::max_element(share.begin(), share.end()) - *std::min_element(share.begin(), share.end()), probe)
        << devices << " devices";
  }
}

TEST(SchedulePolicy, NoIterationLostOrDoubledWhenChunksFailAndDevicesLeave) {
  // Random failures (split or whole), cut chunks, a device leaving and the
  // rest going to the CPU: what completed plus what is left covers the loop
  // exactly once, under every policy.
  std::mt19937 rng(26);
  for (const schedule_policy* p : every_policy())
    for (int round = 0; round < 40; ++round) {
      const std::uint64_t count = 1 + rng() % 5000, c = rng() % 3 ? 0 : 1 + rng() % 100;
      const int devices = 1 + int(rng() % 4);
      std::vector<int> workers;
      for (int d = 0; d < devices; ++d)
        for (int s = 0; s < 1 + int(rng() % 2); ++s)
          workers.push_back(d);
      chunk_scheduler sched(*p, count, c, workers, devices);
      std::vector<index_range> done;
      const std::uint64_t stop_after = rng() % 3 ? ~0ull : rng() % 40;
      std::uint64_t steps = 0;
      for (bool any = true; any && steps < stop_after; ++steps) {
        any = false;
        for (int w = 0; w < int(workers.size()); ++w) {
          chunk ch;
          if (!sched.next(w, ch))
            continue;
          any = true;
          switch (rng() % 8) {
          case 0: sched.give_back(ch, true); break;  // out of memory: halves
          case 1: sched.give_back(ch, false); break; // failed: whole
          case 2:                                    // cut to fit: the tail goes back
            sched.give_back_tail(ch, 1 + rng() % ch.range.size());
            done.push_back(ch.range);
            sched.completed(w, ch, 1e-6);
            break;
          default:
            done.push_back(ch.range);
            sched.completed(w, ch, 1e-6 * double(ch.range.size()));
          }
          if (devices > 1 && rng() % 50 == 0)
            sched.drop_device(int(rng() % devices));
        }
      }
      for (const index_range& r : sched.take_remaining()) // the CPU's
        done.push_back(r);
      EXPECT_TRUE(sched.exhausted());
      expect_exactly_once(done, count, std::string(p->name()) + " round " + std::to_string(round));
    }
}

TEST(SchedulePolicy, AdaptiveTakesRatesWithinNoiseOfEachOtherAsEqual) {
  // Two devices of one kind measure 15% apart (which chunks met which on a
  // copy engine, the host's scheduling): they get equal shares. Twice as
  // fast is a real difference, and gets twice the share.
  for (double faster : {1.15, 0.87, 2.0}) {
    chunk_scheduler sched(policy(schedule_kind::adaptive), 1000000, 0, one_worker_per_device(2), 2);
    chunk a, b;
    ASSERT_TRUE(sched.next(0, a));
    ASSERT_TRUE(sched.next(1, b));
    sched.completed(0, a, 1e-6 * double(a.range.size()));
    sched.completed(1, b, 1e-6 * double(b.range.size()) / faster);
    const double ratio = adaptive_schedule::device_share(sched, 1) / adaptive_schedule::device_share(sched, 0);
    EXPECT_DOUBLE_EQ(ratio, faster == 2.0 ? 2.0 : 1.0) << "device 1 " << faster << "x as fast";
  }
}

TEST(SchedulePolicy, AdaptiveRunsAShortLoopAsItsProbesAndOneChunkPerWorker) {
  // 100 iterations of 1 us on two devices of two slots each: a chunk's fixed
  // costs would dominate chunks of a few iterations, so after the probes each
  // worker takes what is left of its part of its device's share at once.
  const std::vector<int> workers = {0, 0, 1, 1};
  const auto h = hand_out(policy(schedule_kind::adaptive), 100, 0, workers, 2);
  expect_exactly_once(ranges_of(h), 100, "short loop");
  for (int w = 0; w < 4; ++w)
    EXPECT_EQ(sizes_of(h, w).size(), 2u) << "worker " << w;
  std::vector<std::uint64_t> share(2, 0);
  for (const handed& x : h)
    share[workers[x.worker]] += x.range.size();
  EXPECT_EQ(share[0], 50u);
  EXPECT_EQ(share[1], 50u);
  // A long loop still gets several chunks per worker, to balance its end.
  const auto long_loop = hand_out(policy(schedule_kind::adaptive), 1000000, 0, workers, 2);
  EXPECT_GE(sizes_of(long_loop, 0).size(), 4u);
}
