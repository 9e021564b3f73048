// The kernel-mode loop body on its own: chunks run over device copies of the
// mapped sections, results come back, and nothing outside a chunk's section
// is read (poisoned memory would show) or overwritten.
#include "fake_device.h"

#include <gpu_autopar/gpu_autopar.h>

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <memory>
#include <numeric>
#include <vector>

namespace ga = gpu_autopar;

namespace {

// A kernel-mode loop as loops.h hands it to the compiled runtime.
template <class Space, class Maps, class Reds, class Body>
struct kernel_under_test {
  kernel_under_test(Space& space, Maps& maps, Reds& reds, Body& body)
      : erased(ga::detail::erase_maps(maps)),
        parts(ga::detail::parts_of<ga::loop_mode::kernel, Space, Maps>(space, erased.data(), erased.size(), reds,
                                                                         body)),
        loop(parts) {}
  void run_device(ga::device_context& dev, std::uint64_t begin, std::uint64_t end) { loop.run_device(dev, begin, end); }
  void run_host(std::uint64_t begin, std::uint64_t end) { loop.run_host(begin, end); }

  decltype(ga::detail::erase_maps(std::declval<Maps&>())) erased;
  ga::detail::loop_parts parts;
  ga::detail::compiled_loop loop;
};

template <class Space, class Maps, class Reds, class Body>
std::unique_ptr<kernel_under_test<Space, Maps, Reds, Body>> make_kernel(Space& space, Maps& maps, Reds& reds,
                                                                       Body& body) {
  return std::make_unique<kernel_under_test<Space, Maps, Reds, Body>>(space, maps, reds, body);
}

TEST(KernelBody, StencilChunksReadTheirHaloAndWriteOnlyTheirSection) {
  const int n = 1000;
  std::vector<double> a(n), b(n, -1.0);
  std::iota(a.begin(), a.end(), 0.0);
  ga::iterations<int> space(1, ga::less, n - 1, 1);
  auto maps = ga::data(ga::to(a, ga::affine(1, -1, 3)), ga::from(b, ga::affine(1, 0, 1)));
  auto reds = ga::reductions();
  auto body = [=](int i, ga::view<decltype(a)> a, ga::view<decltype(b)> b) { b[i] = a[i - 1] + a[i] + a[i + 1]; };
  auto k = make_kernel(space, maps, reds, body);
  fake_device dev;
  // Uneven chunks of iteration indices, in an order other than the natural one.
  k->run_device(dev, 500, 998);
  k->run_device(dev, 0, 7);
  k->run_device(dev, 7, 500);
  EXPECT_EQ(b[0], -1.0);
  EXPECT_EQ(b[n - 1], -1.0);
  for (int i = 1; i < n - 1; ++i)
    ASSERT_EQ(b[i], 3.0 * i) << i;
  EXPECT_TRUE(dev.live.empty());
  // Only the chunk sections crossed: the halo of 2 per chunk, not whole arrays.
  EXPECT_EQ(dev.bytes_in, (998 + 3 * 2) * sizeof(double));
  EXPECT_EQ(dev.bytes_out, 998 * sizeof(double));
}

TEST(KernelBody, StridedWritesKeepTheElementsBetween) {
  std::vector<int> v(101);
  std::iota(v.begin(), v.end(), 0);
  ga::iterations<long> space(0, ga::less, 50, 1);
  auto maps = ga::data(ga::tofrom(v, ga::affine(2, 0, 1)));
  auto reds = ga::reductions();
  auto body = [=](long i, ga::view<decltype(v)> v) { v[2 * i] = -v[2 * i]; };
  auto k = make_kernel(space, maps, reds, body);
  fake_device dev;
  k->run_device(dev, 0, 20);
  k->run_device(dev, 20, 50);
  for (int j = 0; j < 101; ++j)
    ASSERT_EQ(v[j], (j % 2 == 0 && j < 100) ? -j : j) << j;
}

TEST(KernelBody, FromMapsOfSteppedLoopsKeepTheElementsBetween) {
  // for (i = 0; i < 30; i += 3) y[i] = ...: a `from` map of y[i] would tile
  // the hull with step 1, but with step 3 the two elements between each pair
  // are not written and must come back unchanged, not as device garbage.
  std::vector<int> y(30, 7);
  ga::iterations<int> space(0, ga::less, 30, 3);
  auto maps = ga::data(ga::from(y, ga::affine(1, 0, 1)));
  auto reds = ga::reductions();
  auto body = [=](int i, ga::view<decltype(y)> y) { y[i] = -i; };
  auto k = make_kernel(space, maps, reds, body);
  fake_device dev;
  k->run_device(dev, 0, 4);
  k->run_device(dev, 4, 10);
  for (int j = 0; j < 30; ++j)
    ASSERT_EQ(y[j], j % 3 == 0 ? -j : 7) << j;
}

TEST(KernelBody, OverlappingSectionsCopyBackOnlyWhatChanged) {
  // a[2i] = a[2i+1] + a[2i+3]: chunk sections overlap by two elements; a
  // stale copy of the neighbour's a[2i] must not overwrite its result.
  std::vector<long> a(64);
  std::iota(a.begin(), a.end(), 100);
  std::vector<long> expected = a;
  for (int i = 0; i < 30; ++i)
    expected[2 * i] = expected[2 * i + 1] + expected[2 * i + 3];
  ga::iterations<int> space(0, ga::less, 30, 1);
  auto maps = ga::data(ga::tofrom(a, ga::affine(2, 0, 4)));
  auto reds = ga::reductions();
  auto body = [=](int i, ga::view<decltype(a)> a) { a[2 * i] = a[2 * i + 1] + a[2 * i + 3]; };
  auto k = make_kernel(space, maps, reds, body);
  fake_device first, second;
  // Run the later chunk first, then the earlier one whose section overlaps it.
  k->run_device(second, 10, 30);
  k->run_device(first, 0, 10);
  EXPECT_EQ(a, expected);
}

TEST(KernelBody, ReductionsCombineOnlySucceededChunks) {
  std::vector<int> x(100);
  std::iota(x.begin(), x.end(), 1);
  long sum = 5;
  int biggest = -1;
  ga::iterations<int> space(0, ga::less, 100, 1);
  auto maps = ga::data(ga::to(x, ga::affine(1, 0, 1)));
  auto reds = ga::reductions(ga::reduce<ga::op::plus>(sum), ga::reduce<ga::op::max>(biggest));
  auto body = [=](int i, ga::view<decltype(x)> x, long& sum, int& biggest) {
    sum += x[i];
    if (x[i] > biggest)
      biggest = x[i];
  };
  auto k = make_kernel(space, maps, reds, body);
  fake_device dev, broken;
  broken.fail_allocations = true;
  EXPECT_THROW(k->run_device(broken, 0, 50), ga::device_out_of_memory);
  k->run_device(dev, 0, 50);
  k->run_host(50, 100);
  EXPECT_EQ(sum, 5 + 5050);
  EXPECT_EQ(biggest, 100);
  EXPECT_TRUE(dev.live.empty());
}

TEST(KernelBody, ReductionsComeBackAsOnePartialPerBlock) {
  // A device reduces each block of kSimBlockThreads iterations to one
  // partial: 100000 iterations copy back ceil(100000 / 256) = 391 doubles
  // and a long, not one per iteration; a loop without reductions allocates
  // and copies back nothing beyond its maps.
  const int n = 100000;
  std::vector<double> x(n);
  std::iota(x.begin(), x.end(), 1.0);
  double sum = 0;
  long count = 0;
  ga::iterations<int> space(0, ga::less, n, 1);
  auto maps = ga::data(ga::to(x, ga::affine(1, 0, 1)));
  auto reds = ga::reductions(ga::reduce<ga::op::plus>(sum), ga::reduce<ga::op::plus>(count));
  auto body = [=](int i, ga::view<decltype(x)> x, double& sum, long& count) {
    sum += x[i];
    count += 1;
  };
  auto k = make_kernel(space, maps, reds, body);
  fake_device dev;
  k->run_device(dev, 0, 60000);
  k->run_device(dev, 60000, n);
  EXPECT_EQ(sum, double(n) * (n + 1) / 2);
  EXPECT_EQ(count, n);
  const std::size_t partial = sizeof(ga::detail::device_partials<decltype(reds)>);
  EXPECT_EQ(partial, sizeof(double) + sizeof(long));
  EXPECT_EQ(dev.bytes_out, (235 + 157) * partial) << "ceil(60000/256) + ceil(40000/256) blocks";
  EXPECT_EQ(dev.allocations, 2u * 2) << "per chunk: x's section and the blocks' partials";
  EXPECT_TRUE(dev.live.empty());

  auto none = ga::reductions();
  auto copy = [=](int i, ga::view<decltype(x)> x) { (void)x[i]; };
  auto plain = make_kernel(space, maps, none, copy);
  fake_device quiet;
  plain->run_device(quiet, 0, n);
  EXPECT_EQ(quiet.bytes_out, 0u);
  EXPECT_EQ(quiet.allocations, 1u) << "x's section only";
}

TEST(KernelBody, FailedChunkFreesItsDeviceMemory) {
  std::vector<float> x(10, 1.0f), y(10, 0.0f);
  ga::iterations<int> space(0, ga::less, 10, 1);
  auto maps = ga::data(ga::to(x, ga::affine(1, 0, 1)), ga::from(y, ga::affine(1, 0, 1)));
  auto reds = ga::reductions();
  auto body = [=](int i, ga::view<decltype(x)> x, ga::view<decltype(y)> y) {
    if (i == 6)
      throw ga::device_error("injected");
    y[i] = x[i];
  };
  auto k = make_kernel(space, maps, reds, body);
  fake_device dev;
  EXPECT_THROW(k->run_device(dev, 0, 10), ga::device_error);
  EXPECT_TRUE(dev.live.empty());
  EXPECT_EQ(dev.allocations, 2u);
  for (float v : y)
    EXPECT_EQ(v, 0.0f); // nothing copied back from a failed chunk
}

TEST(KernelBody, AChunkThatFailsDuringCopyBackChangesNoMapAndIsRetriedOnce) {
  // The second map's copy back fails after the first map's results came
  // back: retried elsewhere, the chunk must find every map unchanged, or its
  // `tofrom` updates are applied twice.
  std::vector<long> x(300, 10), y(300, 20), z(300, -1), in(300, 1);
  ga::iterations<int> space(0, ga::less, 300, 1);
  auto maps = ga::data(ga::tofrom(x, ga::affine(1, 0, 1)), ga::from(z, ga::affine(1, 0, 1)),
                       ga::tofrom(y, ga::affine(1, 0, 1)), ga::to(in, ga::affine(1, 0, 1)));
  auto reds = ga::reductions();
  auto body = [=](int i, ga::view<decltype(x)> x, ga::view<decltype(z)> z, ga::view<decltype(y)> y,
                  ga::view<decltype(in)> in) {
    x[i] += in[i];
    z[i] = x[i] + y[i];
    y[i] += 2 * in[i];
  };
  auto k = make_kernel(space, maps, reds, body);
  for (std::size_t failing = 1; failing <= 3; ++failing) {
    fake_device broken, dev;
    broken.fail_copy_out = failing;
    EXPECT_THROW(k->run_device(broken, 100, 200), ga::device_error) << failing;
    EXPECT_TRUE(broken.live.empty());
    k->run_device(dev, 100, 200);
    for (int i = 100; i < 200; ++i) {
      ASSERT_EQ(x[i], 10 + long(failing)) << "copy " << failing << " failed, x[" << i << "]";
      ASSERT_EQ(y[i], 20 + 2 * long(failing)) << "copy " << failing << " failed, y[" << i << "]";
      ASSERT_EQ(z[i], x[i] + 20 + 2 * long(failing - 1)) << i;
    }
    EXPECT_EQ(x[99], 10);
    EXPECT_EQ(y[200], 20);
  }
}

TEST(KernelBody, ANeighboursWriteBackDuringCopyInIsNotOverwritten) {
  // Whole maps (scatter through an index): while this chunk's copy goes in,
  // another device writes its element 9 back to the host. This chunk never
  // writes element 9, so it must not copy its stale value of it back.
  std::vector<int> idx = {0, 1, 2, 3};
  std::vector<int> out(10, -1);
  ga::iterations<int> space(0, ga::less, 4, 1);
  auto maps = ga::data(ga::to(idx, ga::affine(1, 0, 1)), ga::tofrom(out, ga::whole()));
  auto reds = ga::reductions();
  auto body = [=](int i, ga::view<decltype(idx)> idx, ga::view<decltype(out)> out) { out[idx[i]] = 100 + i; };
  auto k = make_kernel(space, maps, reds, body);
  fake_device dev;
  bool once = false;
  dev.after_copy_in = [&] {
    if (!once && dev.bytes_in >= out.size() * sizeof(int)) {
      once = true;
      out[9] = 42;
    }
  };
  k->run_device(dev, 0, 4);
  EXPECT_EQ(out[9], 42);
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(out[i], 100 + i);
}

TEST(KernelBody, RawPointersAndTwoDimensionalArrays) {
  static float grid[8][5];
  float* out = new float[8];
  for (int r = 0; r < 8; ++r)
    for (int c = 0; c < 5; ++c)
      grid[r][c] = float(r * 10 + c);
  ga::iterations<int> space(7, ga::greater_equal, 0, -1); // reversed
  auto maps = ga::data(ga::to(grid, ga::affine(1, 0, 1)), ga::from(out, 0, 8, ga::affine(1, 0, 1)));
  auto reds = ga::reductions();
  auto body = [=](int r, ga::view<decltype(grid)> grid, ga::view<decltype(out)> out) {
    float s = 0;
    for (int c = 0; c < 5; ++c)
      s += grid[r][c];
    out[r] = s;
  };
  auto k = make_kernel(space, maps, reds, body);
  fake_device dev;
  k->run_device(dev, 0, 3);
  k->run_device(dev, 3, 8);
  for (int r = 0; r < 8; ++r)
    EXPECT_EQ(out[r], float(r * 50 + 10)) << r;
  delete[] out;
}

TEST(KernelBody, WholeMapsOfIndirectWritesMergeAcrossChunks) {
  // Non-affine writes map the whole array; chunks write disjoint elements
  // through an index, and each copies back only what it changed.
  std::vector<int> idx = {9, 3, 0, 7, 1, 8, 2, 6, 4, 5};
  std::vector<int> out(10, -1);
  ga::iterations<int> space(0, ga::less, 10, 1);
  auto maps = ga::data(ga::to(idx, ga::affine(1, 0, 1)), ga::tofrom(out, ga::whole()));
  auto reds = ga::reductions();
  auto body = [=](int i, ga::view<decltype(idx)> idx, ga::view<decltype(out)> out) { out[idx[i]] = i; };
  auto k = make_kernel(space, maps, reds, body);
  fake_device a, b;
  k->run_device(a, 0, 5);
  k->run_device(b, 5, 10);
  for (int i = 0; i < 10; ++i)
    EXPECT_EQ(out[idx[i]], i);
}

TEST(LaunchShape, AnyChunkSizeLaunchesAGridThatFitsAndCoversIt) {
  // ceil(n / 256) blocks cast to unsigned: 2^31 blocks fail to launch, 2^32
  // wrap to 0 and the chunk's iterations silently never run.
  for (std::uint64_t n : {std::uint64_t(1), std::uint64_t(255), std::uint64_t(257), std::uint64_t(1) << 31,
                          (std::uint64_t(1) << 31) * 256, (std::uint64_t(1) << 32) * 256 + 1,
                          ~std::uint64_t(0)}) {
    const ga::detail::launch_shape s = ga::detail::chunk_launch_shape(n, 1024);
    EXPECT_GE(s.blocks, 1u) << n;
    EXPECT_LE(s.blocks, 2147483647u) << n; // CUDA's limit on gridDim.x
    EXPECT_EQ(s.threads, 256u);
    // The grid-stride loop runs thread t's iterations t, t + total, ...:
    // a small chunk gets a thread per iteration, less than a block idle.
    EXPECT_LT(s.total() - std::min<std::uint64_t>(n, s.total()), 256u) << n;
  }
  EXPECT_EQ(ga::detail::chunk_launch_shape(0, 1024).blocks, 0u);
  EXPECT_EQ(ga::detail::chunk_launch_shape(1000, 100).threads, 96u) << "the kernel's limit, in whole warps";
  EXPECT_EQ(ga::detail::chunk_launch_shape(1000, 20).threads, 20u);
}

// The compiled runtime computes a chunk's first and last outermost values
// (what its sections are taken over) from the space's description: the same
// values as the typed space, for narrow, unsigned and wrapping induction
// variables and collapsed nests.
template <class T>
void expect_outer_values(const ga::iterations<T>& space) {
  const ga::detail::loop_space l = ga::detail::shape_of(space);
  ASSERT_EQ(l.count, space.count());
  for (std::uint64_t k = 0; k < space.count(); k += 1 + space.count() / 50)
    ASSERT_EQ(l.outer_at(k), static_cast<long long>(space.at(k))) << k;
  if (space.count() > 0)
    ASSERT_EQ(l.outer_at(space.count() - 1), static_cast<long long>(space.at(space.count() - 1)));
}

TEST(LoopSpace, OuterValuesAreTheTypedSpacesValues) {
  expect_outer_values(ga::iterations<int>(-40, ga::less, 100, 3));
  expect_outer_values(ga::iterations<short>(300, ga::greater_equal, -300, -7));
  expect_outer_values(ga::iterations<signed char>(-128, ga::less_equal, 127, 1));
  expect_outer_values(ga::iterations<unsigned char>(255, ga::greater, 0, -5));
  expect_outer_values(ga::iterations<unsigned>(4000000000u, ga::less, 4294967295u, 1000003));
  expect_outer_values(ga::iterations<long long>(-(1LL << 62), ga::less, 1LL << 62, 1LL << 58));
  expect_outer_values(ga::iterations<unsigned long>(~0UL - 100, ga::less_equal, ~0UL, 1)); // beyond LLONG_MAX

  const auto nest = ga::collapse(ga::iterations<short>(10, ga::greater, -5, -2), ga::iterations<int>(0, ga::less, 7, 1));
  const ga::detail::loop_space l = ga::detail::shape_of(nest);
  ASSERT_EQ(l.count, nest.count());
  for (std::uint64_t k = 0; k < nest.count(); ++k)
    ASSERT_EQ(l.outer_at(k), static_cast<long long>(nest.outer_at(k))) << k;
  EXPECT_TRUE(l.splits_outer(3, 14));
  EXPECT_FALSE(l.splits_outer(7, 21));
}

TEST(DataMap, HullCoversSectionsWhoseOffsetsDifferAtRunTime) {
  // a[(i-1)*n + j], a[i*n + j], a[(i+1)*n + j] with j in [1, n-1): for any
  // sign of n the hull must contain all three rows' ranges.
  for (long long n : {7LL, -7LL}) {
    ga::affine h = ga::hull(ga::affine(n, -n + 1, 5), ga::affine(n, 1, 5), ga::affine(n, n + 1, 5));
    EXPECT_EQ(h.scale, n);
    EXPECT_EQ(h.offset, std::min(-n + 1, n + 1));
    EXPECT_EQ(h.offset + h.extent, std::max(-n + 1, n + 1) + 5);
  }
}

// What the user sees for an invalid value: the loop's call throws, naming the
// loop and the value, and runs no iteration.
std::string loop_refusal(const ga::iterations<int>& space, const ga::loop_options_builder& options) {
  int ran = 0;
  try {
    ga::host_loop(ga::loop_site{"app.cpp", 12}, space, options, ga::reductions(), [&](int) { ++ran; });
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(ran, 0);
    return e.what();
  }
  return "no exception";
}

TEST(Options, InvalidValuesAreReportedWithTheLoop) {
  const ga::iterations<int> ten(0, ga::less, 10, 1);
  EXPECT_EQ(loop_refusal(ten, ga::options().devices(0)), "gpu-autopar: app.cpp:12: devices(n) needs n >= 1, got 0");
  EXPECT_EQ(loop_refusal(ten, ga::options().slots(-1)), "gpu-autopar: app.cpp:12: slots(k) needs k >= 1, got -1");
  EXPECT_EQ(loop_refusal(ten, ga::options().min_iterations(-5)),
            "gpu-autopar: app.cpp:12: min_iterations(n) needs n >= 0, got -5");
  EXPECT_EQ(loop_refusal(ten, ga::options().schedule(ga::schedule_kind::dynamic, -1)),
            "gpu-autopar: app.cpp:12: schedule chunk must not be negative, got -1");
  EXPECT_EQ(loop_refusal(ga::iterations<int>(0, ga::not_equal, 1000, 3), ga::options()),
            "gpu-autopar: app.cpp:12: '!=' loop whose step 3 does not reach the bound exactly (it would run forever)");
  // Reported once: the next loop runs.
  int ran = 0;
  ga::host_loop(ga::loop_site{"app.cpp", 20}, ten, ga::options(), ga::reductions(), [&](int) { ++ran; });
  EXPECT_EQ(ran, 10);
}

TEST(Options, RejectsInvalidClauseValues) {
  auto o = ga::options().schedule(ga::schedule_kind::dynamic, 16).devices(2).fallback(ga::fallback_policy::cpu);
  ga::loop_options l = o.with_mode(ga::loop_mode::task);
  EXPECT_EQ(l.mode, ga::loop_mode::task);
  EXPECT_EQ(l.chunk, 16u);
  EXPECT_EQ(l.max_devices, 2);
  EXPECT_EQ(l.fallback, ga::fallback_policy::cpu);
}

TEST(Reductions, EveryOperatorFromItsIdentity) {
  int p = 1, t = 2, mn = 50, mx = -50, band = 0xff, bor = 0x100, bxor = 0x3, land = 1, lor = 0;
  auto reds = ga::reductions(ga::reduce<ga::op::plus>(p), ga::reduce<ga::op::times>(t), ga::reduce<ga::op::min>(mn),
                             ga::reduce<ga::op::max>(mx), ga::reduce<ga::op::bit_and>(band),
                             ga::reduce<ga::op::bit_or>(bor), ga::reduce<ga::op::bit_xor>(bxor),
                             ga::reduce<ga::op::logical_and>(land), ga::reduce<ga::op::logical_or>(lor));
  auto parts = reds.identities();
  EXPECT_EQ(std::get<0>(parts), 0);
  EXPECT_EQ(std::get<1>(parts), 1);
  EXPECT_EQ(std::get<4>(parts), -1);
  auto chunk = parts;
  std::get<0>(chunk) = 10;
  std::get<1>(chunk) = 3;
  std::get<2>(chunk) = 7;
  std::get<3>(chunk) = 9;
  std::get<4>(chunk) = 0x0f;
  std::get<5>(chunk) = 0x1;
  std::get<6>(chunk) = 0x1;
  std::get<7>(chunk) = 0;
  std::get<8>(chunk) = 1;
  reds.combine(chunk);
  reds.combine(parts); // an empty chunk changes nothing
  EXPECT_EQ(p, 11);
  EXPECT_EQ(t, 6);
  EXPECT_EQ(mn, 7);
  EXPECT_EQ(mx, 9);
  EXPECT_EQ(band, 0x0f);
  EXPECT_EQ(bor, 0x101);
  EXPECT_EQ(bxor, 0x2);
  EXPECT_EQ(land, 0);
  EXPECT_EQ(lor, 1);
  double fmin = 1e300;
  auto fr = ga::reductions(ga::reduce<ga::op::min>(fmin));
  EXPECT_TRUE(std::isinf(std::get<0>(fr.identities())));
}

// lastprivate rides with the reductions: only the partial of the chunk that
// ran the loop's last iteration carries a value, and folding (per GPU thread)
// or combining (per chunk, in any order) keeps exactly that one.
TEST(Reductions, LastPrivateKeepsOnlyTheLastIteration) {
  long sum = 0;
  int last = -7;
  auto reds = ga::reductions(ga::reduce<ga::op::plus>(sum), ga::last_private(last));
  ga::iterations<int> space(10, ga::greater_equal, 1, -3); // 10, 7, 4, 1: the last value is 1
  ga::detail::mark_last_iteration(space, reds);
  auto chunk = [&](int first, int end) {
    auto p = reds.identities();
    for (int i = first; i > end; i -= 3) {
      int copy = i * 100;
      auto keep = ga::keep_last(std::get<1>(p), i, copy);
      std::get<0>(p) += i;
    }
    return p;
  };
  auto tail = chunk(4, -1), head = chunk(10, 4);
  reds.combine(tail); // the chunk with the last iteration may finish first
  reds.combine(head);
  EXPECT_EQ(sum, 22);
  EXPECT_EQ(last, 100);
  auto folded = reds.identities(); // per-thread folding keeps the set slot whatever its position
  decltype(reds)::fold<1>(folded, std::get<1>(tail));
  decltype(reds)::fold<1>(folded, std::get<1>(head));
  EXPECT_TRUE(std::get<1>(folded).set);
  EXPECT_EQ(std::get<1>(folded).value, 100);

  int untouched = 5;
  auto none = ga::reductions(ga::last_private(untouched));
  ga::detail::mark_last_iteration(ga::iterations<int>(0, ga::less, 0, 1), none);
  none.combine(none.identities()); // no iterations: nothing written back
  EXPECT_EQ(untouched, 5);
}

TEST(Reductions, LastPrivateCopiesArrays) {
  int out[2][3] = {};
  auto reds = ga::reductions(ga::last_private(out));
  ga::detail::mark_last_iteration(ga::iterations<long>(0, ga::less, 4, 1), reds);
  auto p = reds.identities();
  for (long i = 0; i < 4; ++i) {
    int copy[2][3] = {{int(i), 1, 2}, {3, 4, int(i) * 2}};
    auto keep = ga::keep_last(std::get<0>(p), i, copy);
  }
  reds.combine(p);
  EXPECT_EQ(out[0][0], 3);
  EXPECT_EQ(out[1][2], 6);
  int from[3] = {7, 8, 9}, to[3] = {};
  ga::copy_value(to, from);
  EXPECT_EQ(to[2], 9);
}

TEST(Loops, HostAndTaskLoopsRunEveryIterationOnce) {
  std::vector<int> hits(1000, 0);
  long total = 0;
  ga::host_loop(ga::loop_site{"api", 1}, ga::iterations<int>(0, ga::less, 1000, 1), ga::options(),
                ga::reductions(ga::reduce<ga::op::plus>(total)), [&](int i, long& total) {
                  hits[i] += 1;
                  total += i;
                });
  ga::task_loop(ga::loop_site{"api", 2}, ga::iterations<int>(999, ga::greater_equal, 0, -1), ga::options(),
                ga::reductions(), [&](int i) { hits[i] += 1; });
  for (int h : hits)
    ASSERT_EQ(h, 2);
  EXPECT_EQ(total, 999 * 1000 / 2);
}

TEST(Loops, KernelLoopOnTheCpuPathUsesHostData) {
  std::vector<float> x(777, 2.0f), y(777, 1.0f);
  const float a = 3.0f;
  double sum = 0;
  ga::kernel_loop(ga::loop_site{"api", 3}, ga::iterations<int>(0, ga::less, 777, 1), ga::options(),
                  ga::data(ga::to(x, ga::affine(1, 0, 1)), ga::tofrom(y, ga::affine(1, 0, 1))),
                  ga::reductions(ga::reduce<ga::op::plus>(sum)),
                  [=](int i, ga::view<decltype(x)> x, ga::view<decltype(y)> y, double& sum) {
                    y[i] = a * x[i] + y[i];
                    sum += y[i];
                  });
  for (float v : y)
    ASSERT_EQ(v, 7.0f);
  EXPECT_EQ(sum, 7.0 * 777);
}

} // namespace
