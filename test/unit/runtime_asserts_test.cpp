// The runtime's asserts on its invariants are compiled into the build the
// suites run (GPU_AUTOPAR_RUNTIME_ASSERTS, on with the tests whatever
// CMAKE_BUILD_TYPE is): a broken invariant stops the process here instead of
// passing unnoticed. Each case breaks one on purpose.
#include "chunk_scheduler.h"
#include "schedule_policy.h"

#include <gtest/gtest.h>

using namespace gpu_autopar;
using namespace gpu_autopar::detail;

namespace {

const schedule_policy& dynamic_policy() { return choose_schedule(schedule_kind::dynamic, false); }

} // namespace

TEST(RuntimeAsserts, AChunkThatWasNeverHandedOutCannotComplete) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  chunk_scheduler sched(dynamic_policy(), 100, 10, {0}, 1);
  const chunk never{{0, 10}, false};
  EXPECT_DEATH(sched.completed(0, never, 1.0), "came back that was not out");
}

TEST(RuntimeAsserts, AChunkCannotCompleteTwice) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  chunk_scheduler sched(dynamic_policy(), 100, 10, {0}, 1);
  chunk c;
  ASSERT_TRUE(sched.next(0, c));
  sched.completed(0, c, 1.0);
  EXPECT_DEATH(sched.completed(0, c, 1.0), "came back that was not out");
}

TEST(RuntimeAsserts, ALoopWhoseChunksDoNotCoverItFails) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  chunk_scheduler sched(dynamic_policy(), 100, 10, {0}, 1);
  chunk c;
  ASSERT_TRUE(sched.next(0, c));
  sched.completed(0, c, 1.0);
  // The rest was neither run nor left for the CPU.
  EXPECT_DEATH(sched.check_covered({}), "exactly once");
  // A chunk still out when the loop ends.
  ASSERT_TRUE(sched.next(0, c));
  EXPECT_DEATH(sched.check_covered(sched.take_remaining()), "still out");
}

TEST(RuntimeAsserts, HoldWhenTheLoopIsWhole) {
  chunk_scheduler sched(dynamic_policy(), 100, 10, {0, 1}, 2);
  chunk c;
  ASSERT_TRUE(sched.next(0, c));
  sched.give_back(c, true);
  ASSERT_TRUE(sched.next(1, c));
  sched.completed(1, c, 1.0);
  ASSERT_TRUE(sched.next(1, c));
  sched.completed(1, c, 1.0);
  sched.check_covered(sched.take_remaining()); // no death: completed plus left over is the loop
}
