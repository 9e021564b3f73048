#include "range_split.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

using gpu_autopar::detail::index_range;
using gpu_autopar::detail::range_split;

TEST(RangeSplit, CoversEveryIndexOnceWithRemainderSpread) {
  for (std::uint64_t count : {0ull, 1ull, 2ull, 7ull, 100ull, 100003ull})
    for (std::uint64_t parts : {1ull, 2ull, 3ull, 8ull, 13ull, 200ull}) {
      range_split s(count, parts);
      std::vector<int> seen(count, 0);
      std::uint64_t smallest = UINT64_MAX, largest = 0, next = 0;
      for (std::uint64_t p = 0; p < parts; ++p) {
        index_range r = s.part(p);
        ASSERT_EQ(r.begin, next) << "pieces are contiguous and in order";
        next = r.end;
        for (std::uint64_t k = r.begin; k < r.end; ++k)
          ++seen[k];
        smallest = std::min(smallest, r.size());
        largest = std::max(largest, r.size());
      }
      EXPECT_EQ(next, count);
      for (int n : seen)
        ASSERT_EQ(n, 1);
      EXPECT_LE(largest - smallest, 1u) << count << " over " << parts;
    }
}

TEST(RangeSplit, SixtyFourBitTripCounts) {
  const std::uint64_t count = UINT64_MAX - 5;
  range_split s(count, 7);
  std::uint64_t total = 0;
  for (std::uint64_t p = 0; p < 7; ++p)
    total += s.part(p).size();
  EXPECT_EQ(total, count);
  EXPECT_EQ(s.part(6).end, count);
}

TEST(RangeSplit, ZeroPartsMeansOne) {
  range_split s(10, 0);
  EXPECT_EQ(s.parts(), 1u);
  EXPECT_EQ(s.part(0).size(), 10u);
}
