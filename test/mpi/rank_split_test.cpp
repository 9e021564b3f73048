// The arithmetic of splitting loops across ranks (runtime/mpi/rank_split.h)
// and what loops tell it about their writes (gpu_autopar/loop_effects.h).
#include <gtest/gtest.h>

#include <vector>

#include "gpu_autopar/gpu_autopar.h"
#include "rank_split.h"

namespace gpu_autopar {
namespace detail {
namespace {

std::vector<std::uint64_t> sizes(const std::vector<index_range>& s) {
  std::vector<std::uint64_t> out;
  for (const index_range& x : s)
    out.push_back(x.size());
  return out;
}

TEST(SplitByWeight, ContiguousCoversEveryIndexOnce) {
  for (std::uint64_t count : {0ull, 1ull, 2ull, 7ull, 1000ull, 100003ull, ~0ull}) {
    const auto s = split_by_weight(count, {1, 2.5, 0.25, 1});
    ASSERT_EQ(s.size(), 4u);
    EXPECT_EQ(s.front().begin, 0u);
    for (std::size_t r = 1; r < s.size(); ++r)
      EXPECT_EQ(s[r].begin, s[r - 1].end);
    EXPECT_EQ(s.back().end, count);
  }
}

TEST(SplitByWeight, ProportionalToWeights) {
  EXPECT_EQ(sizes(split_by_weight(100, {1, 1})), (std::vector<std::uint64_t>{50, 50}));
  EXPECT_EQ(sizes(split_by_weight(90, {2, 1})), (std::vector<std::uint64_t>{60, 30}));
  EXPECT_EQ(sizes(split_by_weight(10, {1, 1, 1})), (std::vector<std::uint64_t>{3, 3, 4}));
  // A rank with a weight of 0 (or below) still counts as a tiny one.
  const auto s = split_by_weight(1000000, {1, 0});
  EXPECT_GT(s[0].size(), 999990u);
}

TEST(BalanceTable, DeviceCountsFirstThenMeasuredThroughput) {
  balance_table t({2, 1});
  EXPECT_EQ(t.weights("a.cpp:1"), (std::vector<double>{2, 1}));
  // Rank 1 turned out three times as fast per iteration: the split moves half-way.
  t.measured("a.cpp:1", {200, 100}, {1.0, 0.5 / 3});
  const auto w = t.weights("a.cpp:1");
  EXPECT_NEAR(w[0], 0.5 * 2.0 / 3 + 0.5 * 0.25, 1e-12);
  EXPECT_NEAR(w[1], 0.5 * 1.0 / 3 + 0.5 * 0.75, 1e-12);
  EXPECT_EQ(t.weights("b.cpp:2"), (std::vector<double>{2, 1})); // per site
  // A rank that ran nothing keeps its share.
  t.measured("b.cpp:2", {300, 0}, {1.0, 0});
  EXPECT_NEAR(t.weights("b.cpp:2")[1], 1.0 / 3, 1e-12);
}

TEST(BalanceTable, OverallWeightsForDataRegions) {
  balance_table t({3, 1});
  EXPECT_EQ(t.overall(), (std::vector<double>{3, 1})); // device counts before any measurement
  t.measured("a.cpp:1", {100, 100}, {1.0, 1.0});        // a: 0.5*0.75+0.5*0.5 = 0.625, 0.375
  t.measured("b.cpp:2", {100, 100}, {1.0, 1.0});
  t.measured("b.cpp:2", {100, 100}, {1.0, 1.0});        // b moved twice: 0.5625, 0.4375
  const auto w = t.overall();
  EXPECT_NEAR(w[0], (0.625 + 0.5625) / 2, 1e-12);
  EXPECT_NEAR(w[1], (0.375 + 0.4375) / 2, 1e-12);
}

// Written sections as the exchange sees them: disjoint slabs for y[i] and
// rows, overlapping hulls for a stencil's writes through a hull section and
// for whole objects.
TEST(LoopEffects, WrittenSectionsAndDisjointness) {
  std::vector<double> x(100), y(100);
  auto maps = data(to(x, hull(affine(1, -1, 1), affine(1, 1, 1))), from(y, affine(1, 0, 1)));
  auto reds = reductions();
  iterations<int> space(1, less, 99, 1);
  const reduction_table reds_table =
      reduction_functions<decltype(reds), device_partials<decltype(reds)>>::table();
  const auto fx_maps = erase_maps(maps);
  erased_effects fx(space_of(space), fx_maps.data(), fx_maps.size(),
                    &reds_table, &reds);
  ASSERT_EQ(fx.written_count(), 1u); // only y
  const written_section w = fx.written(0, 10, 20); // i = 11 .. 20
  EXPECT_EQ(w.host, reinterpret_cast<unsigned char*>(y.data()));
  EXPECT_EQ(w.element_size, sizeof(double));
  EXPECT_EQ(w.lo, 11);
  EXPECT_EQ(w.hi, 21);
  EXPECT_TRUE(w.disjoint);

  auto rows = data(tofrom(x, affine(10, 0, 10)), tofrom(y, affine(1, -1, 3)), tofrom(y, whole()));
  iterations<int> r(9, greater_equal, 0, -1); // descending
  const auto fr_maps = erase_maps(rows);
  erased_effects fr(space_of(r), fr_maps.data(), fr_maps.size(),
                    &reds_table, &reds);
  ASSERT_EQ(fr.written_count(), 3u);
  const written_section a = fr.written(0, 0, 2); // i = 9, 8: rows 8 and 9
  EXPECT_EQ(a.lo, 80);
  EXPECT_EQ(a.hi, 100);
  EXPECT_TRUE(a.disjoint);
  EXPECT_FALSE(fr.written(1, 0, 2).disjoint); // neighbours overlap
  EXPECT_FALSE(fr.written(2, 0, 2).disjoint);
  EXPECT_EQ(fr.written(2, 0, 2).hi, 100);

  // A stride of 2 with sections of 1: holes, but still disjoint.
  auto strided = data(from(y, affine(1, 0, 1)));
  iterations<int> s2(0, less, 100, 2);
  const auto fs_maps = erase_maps(strided);
  erased_effects fs(space_of(s2), fs_maps.data(), fs_maps.size(),
                    &reds_table, &reds);
  EXPECT_TRUE(fs.written(0, 0, 5).disjoint);
  EXPECT_EQ(fs.written(0, 0, 5).hi, 9);
}

TEST(LoopEffects, ReductionsTypeErased) {
  long total = 5;
  double best = 1.5;
  std::vector<int> v(4);
  auto maps = data(to(v, affine(1, 0, 1)));
  auto reds = reductions(reduce<op::plus>(total), reduce<op::max>(best));
  iterations<int> space(0, less, 4, 1);
  const reduction_table reds_table =
      reduction_functions<decltype(reds), device_partials<decltype(reds)>>::table();
  const auto fx_maps = erase_maps(maps);
  erased_effects fx(space_of(space), fx_maps.data(), fx_maps.size(),
                    &reds_table, &reds);
  ASSERT_EQ(fx.reduction_count(), 2u);
  reduction_variable t = fx.reduction(0), b = fx.reduction(1);
  EXPECT_TRUE(t.integer);
  EXPECT_TRUE(t.is_signed);
  EXPECT_EQ(t.op, reduction_op::plus);
  EXPECT_FALSE(b.integer);
  EXPECT_EQ(b.op, reduction_op::max);
  t.set_identity(t.var);
  EXPECT_EQ(total, 0);
  long more = 7;
  t.combine(t.var, &more);
  t.combine(t.var, &more);
  EXPECT_EQ(total, 14);
  b.set_identity(b.var);
  double seen = -3;
  b.combine(b.var, &seen);
  EXPECT_EQ(best, -3);
}

} // namespace
} // namespace detail
} // namespace gpu_autopar
