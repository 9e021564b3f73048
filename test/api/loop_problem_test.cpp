// Invalid bounds and clause values (loop_problem.h): each value keeps its own
// problem and the loop's call throws it with the loop's site before any
// iteration runs; nothing is left behind for a later loop.
#include <gpu_autopar/gpu_autopar.h>

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace ga = gpu_autopar;

namespace {

// What a loop's call throws (std::invalid_argument), checking that no
// iteration ran; "no exception" if it ran.
template <class Space>
std::string host_refusal(const Space& space, const ga::loop_options_builder& options) {
  int ran = 0;
  try {
    ga::host_loop(ga::loop_site{"app.cpp", 40}, space, options, ga::reductions(), [&](auto...) { ++ran; });
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(ran, 0);
    return e.what();
  }
  return "no exception";
}

template <class Space>
std::string kernel_refusal(const Space& space, const ga::loop_options_builder& options) {
  std::vector<int> out(16, 0);
  try {
    ga::kernel_loop(ga::loop_site{"app.cpp", 41}, space, options, ga::data(ga::from(out, ga::affine(0, 0, 1))),
                    ga::reductions(), [](auto... args) {
                      auto tuple = std::make_tuple(args...);
                      std::get<sizeof...(args) - 1>(tuple)[0] = 1;
                    });
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(out[0], 0);
    return e.what();
  }
  return "no exception";
}

// How many iterations a valid loop runs (on CPU threads: counted atomically).
int ran_after(const ga::loop_site& site) {
  std::atomic<int> ran{0};
  ga::host_loop(site, ga::iterations<int>(0, ga::less, 10, 1), ga::options(), ga::reductions(), [&](int) { ++ran; });
  return ran.load();
}

} // namespace

TEST(LoopProblem, TheSpacesProblemIsThrownWithTheLoop) {
  EXPECT_EQ(host_refusal(ga::iterations<int>(0, ga::less, 10, 0), ga::options()),
            "gpu-autopar: app.cpp:40: loop step is zero");
  EXPECT_EQ(host_refusal(ga::iterations<long>(0, ga::less_equal, 10, -1), ga::options()),
            "gpu-autopar: app.cpp:40: '<=' loop with a negative step never ends");
  EXPECT_EQ(host_refusal(ga::iterations<int>(0, ga::greater_equal, -10, 2), ga::options()),
            "gpu-autopar: app.cpp:40: '>=' loop with a positive step never ends");
  EXPECT_EQ(kernel_refusal(ga::iterations<int>(0, ga::not_equal, 10, 4), ga::options()),
            "gpu-autopar: app.cpp:41: '!=' loop whose step 4 does not reach the bound exactly (it would run forever)");
}

TEST(LoopProblem, ACollapsedNestReportsItsLevelsAndItsSize) {
  const auto ok = ga::iterations<int>(0, ga::less, 4, 1);
  EXPECT_EQ(host_refusal(ga::collapse(ok, ga::iterations<int>(0, ga::less, 4, 0)), ga::options()),
            "gpu-autopar: app.cpp:40: loop step is zero");
  const auto huge = ga::iterations<std::uint64_t>(0, ga::less, ~std::uint64_t(0), 1);
  EXPECT_EQ(host_refusal(ga::collapse(huge, huge), ga::options()),
            "gpu-autopar: app.cpp:40: collapse: the nest has more than 2^64 iterations");
  EXPECT_EQ(kernel_refusal(ga::collapse(huge, ok, huge), ga::options()),
            "gpu-autopar: app.cpp:41: collapse: the nest has more than 2^64 iterations");
  EXPECT_EQ(ga::collapse(ok, ok).problem(), "");
}

TEST(LoopProblem, TheFirstInvalidClauseValueIsThrownWithTheLoop) {
  const ga::iterations<int> ten(0, ga::less, 10, 1);
  EXPECT_EQ(host_refusal(ten, ga::options().slots(0).devices(0)),
            "gpu-autopar: app.cpp:40: slots(k) needs k >= 1, got 0");
  EXPECT_EQ(kernel_refusal(ten, ga::options().min_iterations(-1)),
            "gpu-autopar: app.cpp:41: min_iterations(n) needs n >= 0, got -1");
  // The space's problem comes first.
  EXPECT_EQ(host_refusal(ga::iterations<int>(0, ga::less, 10, 0), ga::options().devices(0)),
            "gpu-autopar: app.cpp:40: loop step is zero");
}

TEST(LoopProblem, NothingIsLeftForALaterLoop) {
  // An invalid space and options that never reach a loop's call. (Kept in a
  // thread_local until the next loop on the thread, the problem was thrown by
  // that loop, with its site.)
  {
    const ga::iterations<int> bad(0, ga::less, 10, 0);
    const ga::loop_options_builder refused = ga::options().devices(-3);
    EXPECT_EQ(bad.problem(), "loop step is zero");
    EXPECT_EQ(refused.problem(), "devices(n) needs n >= 1, got -3");
  }
  EXPECT_EQ(ran_after(ga::loop_site{"app.cpp", 50}), 10);
  // A call that failed for another reason first (its body threw).
  try {
    ga::host_loop(ga::loop_site{"app.cpp", 51}, ga::iterations<int>(0, ga::less, 10, 1), ga::options(),
                  ga::reductions(), [](int) { throw std::runtime_error("body"); });
  } catch (const std::runtime_error&) {
  }
  EXPECT_EQ(ran_after(ga::loop_site{"app.cpp", 52}), 10);
}
