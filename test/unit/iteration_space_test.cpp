#include "gpu_autopar/iteration_space.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

using namespace gpu_autopar;

namespace {

// The induction values the serial loop would take, for comparison.
template <class T, class Cond, class Next>
std::vector<T> serial(T first, Cond cond, Next next) {
  std::vector<T> out;
  for (T i = first; cond(i); i = next(i))
    out.push_back(i);
  return out;
}

template <class T>
std::vector<T> expand(const iterations<T>& space) {
  std::vector<T> out;
  for (std::uint64_t k = 0; k < space.count(); ++k)
    out.push_back(space.at(k));
  return out;
}

// An invalid space has no iterations and keeps its problem, which the loop's
// call throws with the loop's site (tested in test/api).
template <class T>
std::string refused(const iterations<T>& space) {
  EXPECT_EQ(space.count(), 0u);
  return space.problem();
}

} // namespace

TEST(IterationSpace, MatchesSerialLoopsForEveryComparison) {
  for (int lb = -7; lb <= 7; ++lb)
    for (int ub = -7; ub <= 7; ++ub)
      for (int step = 1; step <= 4; ++step) {
        EXPECT_EQ(expand(iterations<int>(lb, less, ub, step)),
                  serial<int>(lb, [&](int i) { return i < ub; }, [&](int i) { return i + step; }));
        EXPECT_EQ(expand(iterations<int>(lb, less_equal, ub, step)),
                  serial<int>(lb, [&](int i) { return i <= ub; }, [&](int i) { return i + step; }));
        EXPECT_EQ(expand(iterations<int>(lb, greater, ub, -step)),
                  serial<int>(lb, [&](int i) { return i > ub; }, [&](int i) { return i - step; }));
        EXPECT_EQ(expand(iterations<int>(lb, greater_equal, ub, -step)),
                  serial<int>(lb, [&](int i) { return i >= ub; }, [&](int i) { return i - step; }));
      }
}

TEST(IterationSpace, NotEqualNeedsAnExactStep) {
  EXPECT_EQ(iterations<int>(0, not_equal, 10, 2).count(), 5u);
  EXPECT_EQ(iterations<int>(10, not_equal, 0, -1).count(), 10u);
  EXPECT_EQ(refused(iterations<int>(0, not_equal, 9, 2)),
            "'!=' loop whose step 2 does not reach the bound exactly (it would run forever)");
}

TEST(IterationSpace, WrongDirectionAndZeroStepAreRefused) {
  EXPECT_EQ(refused(iterations<int>(0, less, 10, 0)), "loop step is zero");
  EXPECT_EQ(refused(iterations<int>(0, less, 10, -1)), "'<' loop with a negative step never ends");
  EXPECT_EQ(refused(iterations<int>(10, greater, 0, 1)), "'>' loop with a positive step never ends");
}

TEST(IterationSpace, FullWidthRangesDoNotOverflow) {
  using u64 = std::uint64_t;
  const u64 max = std::numeric_limits<u64>::max();
  iterations<u64> all(0, less_equal, max - 1, 1);
  EXPECT_EQ(all.count(), max);
  EXPECT_EQ(all.at(max - 1), max - 1);

  const int lo = std::numeric_limits<int>::min(), hi = std::numeric_limits<int>::max();
  iterations<int> ints(lo, less_equal, hi, 1);
  EXPECT_EQ(ints.count(), std::uint64_t(1) << 32);
  EXPECT_EQ(ints.at(ints.count() - 1), hi);

  iterations<long long> big(std::numeric_limits<long long>::max(), greater, 0, -(1LL << 62));
  EXPECT_EQ(big.count(), 2u);

  iterations<signed char> small(-128, less, 127, 1);
  EXPECT_EQ(small.count(), 255u);
  EXPECT_EQ(small.at(254), 126);

  iterations<unsigned> down(10u, greater, 0u, -1);
  EXPECT_EQ(expand(down), serial<unsigned>(10u, [](unsigned i) { return i > 0; }, [](unsigned i) { return i - 1; }));
}
