// Data regions (gpu_autopar/data_region.h): what stays resident on devices,
// what is copied (the region's report line), and that results equal the
// serial loop's however the region is left.
#include <gpu_autopar/gpu_autopar.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <regex>
#include <stdexcept>
#include <vector>

#include "../../runtime/src/interval_set.h"
#include "../../runtime/src/sim_device.h"
#include "runtime_test_support.h"

namespace {

using namespace gpu_autopar;
using gpu_autopar::detail::byte_range;
using gpu_autopar::detail::interval_set;

TEST(IntervalSet, AddMergesAndRemoveSplits) {
  interval_set s;
  s.add({10, 20});
  s.add({30, 40});
  s.add({20, 30}); // touches both: one span
  EXPECT_EQ(s.bytes(), 30u);
  EXPECT_TRUE(s.contains({10, 40}));
  s.remove({15, 35});
  EXPECT_EQ(s.bytes(), 10u);
  auto missing = s.missing({0, 50});
  ASSERT_EQ(missing.size(), 3u);
  EXPECT_EQ(missing[0].begin, 0u);
  EXPECT_EQ(missing[0].end, 10u);
  EXPECT_EQ(missing[1].begin, 15u);
  EXPECT_EQ(missing[1].end, 35u);
  EXPECT_EQ(missing[2].begin, 40u);
  EXPECT_EQ(missing[2].end, 50u);
  auto covered = s.covered({12, 38});
  ASSERT_EQ(covered.size(), 2u);
  EXPECT_EQ(covered[0].begin, 12u);
  EXPECT_EQ(covered[0].end, 15u);
  EXPECT_EQ(covered[1].begin, 35u);
  EXPECT_EQ(covered[1].end, 38u);
}

struct region_bytes {
  unsigned long long to_devices = 0, to_host = 0, between_devices = 0;
  int lines = 0;
};

// What each device of the region's line held at most: bytes_held per device.
std::vector<unsigned long long> held_per_device(const rt_test::temp_file& report) {
  std::vector<unsigned long long> held;
  const std::regex re("\"bytes_held\":([0-9]+)");
  for (const std::string& l : report.lines())
    if (l.find("\"region\"") != std::string::npos)
      for (auto it = std::sregex_iterator(l.begin(), l.end(), re); it != std::sregex_iterator(); ++it)
        held.push_back(std::stoull((*it)[1]));
  return held;
}

region_bytes region_line(const rt_test::temp_file& report) {
  region_bytes b;
  const std::regex re("\"region\":\"[^\"]*\",\"bytes_to_devices\":([0-9]+),\"bytes_to_host\":([0-9]+),"
                      "\"bytes_between_devices\":([0-9]+)");
  for (const std::string& l : report.lines()) {
    std::smatch m;
    if (std::regex_search(l, m, re)) {
      b.to_devices = std::stoull(m[1]);
      b.to_host = std::stoull(m[2]);
      b.between_devices = std::stoull(m[3]);
      ++b.lines;
    }
  }
  return b;
}

void saxpy(const loop_site& site, std::vector<float>& y, const std::vector<float>& x, float a) {
  const int n = int(y.size());
  kernel_loop(site, iterations<int>(0, less, n, 1), options(),
              data(tofrom(y, affine(1, 0, 1)), to(x, affine(1, 0, 1))), reductions(),
              [=](int i, view<std::vector<float>> y, view<const std::vector<float>> x) { y[i] = a * x[i] + y[i]; });
}

// Row i of b from rows i-1..i+1 of a (a 1-D stencil over rows of m).
void sweep(const loop_site& site, std::vector<double>& b, const std::vector<double>& a, int rows, int m) {
  kernel_loop(site, iterations<int>(1, less, rows - 1, 1), options(),
              data(from(b, affine(m, 0, m)), to(a, affine(m, -m, 3 * m))), reductions(),
              [=](int i, view<std::vector<double>> b, view<const std::vector<double>> a) {
                for (int j = 0; j < m; ++j)
                  b[i * m + j] = (a[(i - 1) * m + j] + a[i * m + j] + a[(i + 1) * m + j]) / 3.0;
              });
}

TEST(DataRegion, SaxpyTenTimesCopiesEachArrayInOnceAndTheResultOutOnce) {
  for (const char* devices : {"sim:1", "sim:3", "sim:4"}) {
    rt_test::temp_file report;
    rt_test::scoped_env env{{"GPU_AUTOPAR_DEVICES", devices}, {"GPU_AUTOPAR_REPORT", report.path()}};
    const int n = 100003;
    std::vector<float> x(n), y(n), want(n);
    for (int i = 0; i < n; ++i) {
      x[i] = float(i % 17);
      want[i] = y[i] = float(i % 5);
    }
    for (int r = 0; r < 10; ++r)
      for (int i = 0; i < n; ++i)
        want[i] = 2.0f * x[i] + want[i];
    {
      data_region region({"t.cpp", 1}, {section(map_kind::to, x), section(map_kind::tofrom, y)});
      for (int r = 0; r < 10; ++r)
        saxpy({"t.cpp", 2}, y, x, 2.0f);
    }
    EXPECT_EQ(y, want) << devices;
    const region_bytes b = region_line(report);
    EXPECT_EQ(b.lines, 1);
    EXPECT_EQ(b.to_devices, 2ull * n * sizeof(float)) << devices;
    EXPECT_EQ(b.to_host, 1ull * n * sizeof(float)) << devices;
  }
}

TEST(DataRegion, ADevicesCopyOfASectionStartsAsPoisonWhereItsChunksUseIt) {
  // A simulated device fills its resident copy with the poison byte part by
  // part, when a chunk first uses a part (outside the region's lock): a
  // `from` section, which nothing copies in, reads as poison there, as an
  // uninitialised GPU allocation would not read as the host's values.
  rt_test::scoped_env env{{"GPU_AUTOPAR_DEVICES", "sim:2"}};
  const int n = 1 << 22; // large enough that the host allocation comes as fresh (zero) pages
  std::vector<unsigned char> b(n, 7), seen(n, 0);
  unsigned char* out = seen.data(); // simulated devices share the host's memory: the test looks in
  {
    data_region region({"t.cpp", 1}, {section(map_kind::from, b)});
    kernel_loop({"t.cpp", 2}, iterations<int>(0, less, n, 1), options(), data(from(b, affine(1, 0, 1))), reductions(),
                [=](int i, view<std::vector<unsigned char>> b) {
                  out[i] = b[i];
                  b[i] = 1;
                });
  }
  EXPECT_EQ(std::count(seen.begin(), seen.end(), detail::kSimPoison), n);
  EXPECT_EQ(std::count(b.begin(), b.end(), 1), n);
}

TEST(DataRegion, ResultsGoingBackToTheHostCrossTheSimulatedLink) {
  // 8 MB back at the region's end over a 100 MB/s link: at least 80 ms, as the
  // same bytes copied back by chunks would take.
  rt_test::scoped_env env{{"GPU_AUTOPAR_DEVICES", "sim:1,link=100MB/s,latency=0"}};
  const int n = 1 << 20;
  std::vector<double> y(n, 1.0);
  std::chrono::steady_clock::time_point leaving;
  {
    data_region region({"t.cpp", 1}, {section(map_kind::from, y)});
    kernel_loop({"t.cpp", 2}, iterations<int>(0, less, n, 1), options(), data(from(y, affine(1, 0, 1))), reductions(),
                [=](int i, view<std::vector<double>> y) { y[i] = 2.0 * i; });
    leaving = std::chrono::steady_clock::now();
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - leaving).count();
  EXPECT_GE(seconds, 0.080);
  EXPECT_EQ(y[n - 1], 2.0 * (n - 1));
}

// Jacobi-style sweeps over rows split across 3 devices: each device copies
// its rows in once; what it reads of its neighbours' rows (two halo rows per
// boundary per sweep) comes from the neighbour directly where the devices can
// copy between them, and through the host where they cannot (`p2p=off`).
TEST(DataRegion, StencilSweepsMoveOnlyHaloRowsBetweenDevices) {
  const int rows = 301, m = 64, sweeps = 6, devices = 3;
  for (const char* setting : {"sim:3", "sim:3,p2p=off"}) {
    const bool p2p = std::string(setting) == "sim:3";
    rt_test::temp_file report;
    rt_test::scoped_env env{{"GPU_AUTOPAR_DEVICES", setting}, {"GPU_AUTOPAR_REPORT", report.path()}};
    std::vector<double> a(rows * m), b(rows * m), ra, rb;
    for (int k = 0; k < rows * m; ++k)
      a[k] = b[k] = double(k % 101);
    ra = a, rb = b;
    for (int s = 0; s < sweeps; ++s) {
      for (int i = 1; i < rows - 1; ++i)
        for (int j = 0; j < m; ++j)
          rb[i * m + j] = (ra[(i - 1) * m + j] + ra[i * m + j] + ra[(i + 1) * m + j]) / 3.0;
      std::swap(ra, rb);
    }
    {
      data_region region({"t.cpp", 1}, {section(map_kind::tofrom, a), section(map_kind::tofrom, b)});
      for (int s = 0; s < sweeps; ++s) {
        sweep({"t.cpp", 2}, b, a, rows, m);
        std::swap(a, b); // the vectors swap buffers: both stay mapped
      }
    }
    EXPECT_EQ(a, ra) << setting;
    EXPECT_EQ(b, rb) << setting;
    const region_bytes got = region_line(report);
    const unsigned long long grid = rows * m * sizeof(double), row = m * sizeof(double);
    const unsigned long long halos = 2ull * (devices - 1) * sweeps * row;
    // In: each device's rows of both grids once, plus the halos that came
    // through the host; out: both grids once, plus those halos.
    EXPECT_GE(got.to_devices, grid) << setting;
    if (p2p) {
      EXPECT_GT(got.between_devices, 0u) << setting;
      EXPECT_LE(got.between_devices, halos) << setting;
      EXPECT_LE(got.to_devices, 2 * grid + 2 * devices * row) << setting;
      EXPECT_LE(got.to_host, 2 * grid) << setting << ": no halo went through the host";
    } else {
      EXPECT_EQ(got.between_devices, 0u) << setting;
      EXPECT_LE(got.to_devices, 2 * grid + 2 * devices * row + halos) << setting;
      EXPECT_GT(got.to_host, 2 * grid) << setting << ": the halos went through the host";
      EXPECT_LE(got.to_host, 2 * grid + halos) << setting;
    }
  }
}

// A collapse(2) Jacobi in a data region, as the tool rewrites one (each
// sweep: b from a's four neighbours, then a = b), on n x n grids: whether
// both grids equal the serial sweeps'.
bool collapsed_jacobi_region(int n, int sweeps) {
  std::vector<double> va(n * n), vb(n * n);
  for (int k = 0; k < n * n; ++k)
    va[k] = vb[k] = double(k % 101);
  std::vector<double> ra = va, rb = vb;
  for (int s = 0; s < sweeps; ++s) {
    for (int i = 1; i < n - 1; ++i)
      for (int j = 1; j < n - 1; ++j)
        rb[i * n + j] = 0.25 * (ra[(i - 1) * n + j] + ra[(i + 1) * n + j] + ra[i * n + j - 1] + ra[i * n + j + 1]);
    for (int i = 1; i < n - 1; ++i)
      for (int j = 1; j < n - 1; ++j)
        ra[i * n + j] = rb[i * n + j];
  }
  double* a = va.data();
  double* b = vb.data();
  {
    data_region region({"t.cpp", 30}, {section(map_kind::tofrom, a, 0, n * n), section(map_kind::tofrom, b, 0, n * n)});
    for (int s = 0; s < sweeps; ++s) {
      kernel_loop({"t.cpp", 31}, collapse(iterations<int>(1, less, n - 1, 1), iterations<int>(1, less, n - 1, 1)),
                  options(),
                  data(tofrom(b, 0, n * n, affine(n, 1, n - 2)),
                       to(a, 0, n * n, hull(affine(n, -n + 1, n - 2), affine(n, n + 1, n - 2), affine(n, 0, n)))),
                  reductions(), [=](int i, int j, view<double*> b, view<double*> a) {
                    b[i * n + j] = 0.25 * (a[(i - 1) * n + j] + a[(i + 1) * n + j] + a[i * n + j - 1] + a[i * n + j + 1]);
                  });
      kernel_loop({"t.cpp", 32}, collapse(iterations<int>(1, less, n - 1, 1), iterations<int>(1, less, n - 1, 1)),
                  options(), data(tofrom(a, 0, n * n, affine(n, 1, n - 2)), to(b, 0, n * n, affine(n, 1, n - 2))),
                  reductions(), [=](int i, int j, view<double*> a, view<double*> b) { a[i * n + j] = b[i * n + j]; });
    }
  }
  return va == ra && vb == rb;
}

// A collapse(2) Jacobi (issue 23, item 3), written as the tool rewrites one:
// the nest is split on whole rows, so on 3 and 4 devices each keeps its rows
// of both grids, the host link carries each grid about once each way, and
// only halo rows go between devices.
TEST(DataRegion, CollapsedStencilStaysResidentOnWholeRows) {
  const int n = 130, sweeps = 5;
  for (int devices : {3, 4}) {
    rt_test::temp_file report;
    rt_test::scoped_env env{{"GPU_AUTOPAR_DEVICES", "sim:" + std::to_string(devices)},
                            {"GPU_AUTOPAR_REPORT", report.path()}};
    EXPECT_TRUE(collapsed_jacobi_region(n, sweeps)) << devices;
    const region_bytes got = region_line(report);
    const unsigned long long grids = 2ull * n * n * sizeof(double), row = (n - 2) * sizeof(double);
    const unsigned long long halos = 2ull * (devices - 1) * sweeps * row;
    EXPECT_LE(got.to_devices, grids * 11 / 10) << devices;
    EXPECT_LE(got.to_host, grids * 11 / 10) << devices;
    EXPECT_GT(got.between_devices, 0u) << devices;
    EXPECT_LE(got.between_devices, halos * 11 / 10) << devices;
    // Partitioned (issue 23, item 4): each device holds its rows of both
    // grids and their halo rows, not whole copies.
    const std::vector<unsigned long long> held = held_per_device(report);
    ASSERT_EQ(held.size(), std::size_t(devices));
    unsigned long long total = 0;
    for (unsigned long long h : held) {
      EXPECT_LE(h, grids * 6 / 10) << devices;
      total += h;
    }
    EXPECT_GE(total, grids - 4 * n * sizeof(double)) << devices << ": the devices hold every inner row between them";
  }
}

// A collapse(3) nest over two n^3 grids (each sweep: b's plane k from a's
// planes k-1 and k+1, then a = b) is split on whole planes: on 3 devices each
// holds its planes of both grids and their halo planes (issue 23, items 3
// and 4), and the grids cross the link about once each way.
TEST(DataRegion, CollapsedThreeDeepNestHoldsItsPlanes) {
  const int n = 52, sweeps = 3, devices = 3; // 50 planes: at least 16 per device, split on whole planes
  const int plane = n * n;
  rt_test::temp_file report;
  rt_test::scoped_env env{{"GPU_AUTOPAR_DEVICES", "sim:3"}, {"GPU_AUTOPAR_REPORT", report.path()}};
  std::vector<double> va(n * plane), vb(n * plane);
  for (int k = 0; k < n * plane; ++k)
    va[k] = vb[k] = double(k % 89);
  std::vector<double> ra = va, rb = vb;
  for (int s = 0; s < sweeps; ++s) {
    for (int k = 1; k < n - 1; ++k)
      for (int e = 0; e < plane; ++e)
        rb[k * plane + e] = 0.5 * (ra[(k - 1) * plane + e] + ra[(k + 1) * plane + e]);
    for (int k = 1; k < n - 1; ++k)
      for (int e = 0; e < plane; ++e)
        ra[k * plane + e] = rb[k * plane + e];
  }
  double* a = va.data();
  double* b = vb.data();
  const auto planes = [&] {
    return collapse(iterations<int>(1, less, n - 1, 1), iterations<int>(0, less, n, 1), iterations<int>(0, less, n, 1));
  };
  {
    data_region region({"t.cpp", 60}, {section(map_kind::tofrom, a, 0, n * plane), section(map_kind::tofrom, b, 0, n * plane)});
    for (int s = 0; s < sweeps; ++s) {
      kernel_loop({"t.cpp", 61}, planes(), options(),
                  data(from(b, 0, n * plane, affine(plane, 0, plane)), to(a, 0, n * plane, affine(plane, -plane, 3 * plane))),
                  reductions(), [=](int k, int i, int j, view<double*> b, view<double*> a) {
                    b[(k * n + i) * n + j] = 0.5 * (a[((k - 1) * n + i) * n + j] + a[((k + 1) * n + i) * n + j]);
                  });
      kernel_loop({"t.cpp", 62}, planes(), options(),
                  data(from(a, 0, n * plane, affine(plane, 0, plane)), to(b, 0, n * plane, affine(plane, 0, plane))),
                  reductions(), [=](int k, int i, int j, view<double*> a, view<double*> b) {
                    a[(k * n + i) * n + j] = b[(k * n + i) * n + j];
                  });
    }
  }
  EXPECT_EQ(va, ra);
  EXPECT_EQ(vb, rb);
  const region_bytes got = region_line(report);
  const unsigned long long grids = 2ull * n * plane * sizeof(double);
  EXPECT_LE(got.to_devices, grids * 11 / 10);
  EXPECT_LE(got.to_host, grids * 11 / 10);
  EXPECT_GT(got.between_devices, 0u);
  const std::vector<unsigned long long> held = held_per_device(report);
  ASSERT_EQ(held.size(), std::size_t(devices));
  for (unsigned long long h : held)
    EXPECT_LE(h, grids * 6 / 10);
}

// A region whose grids do not fit in one device's memory runs on several,
// each holding its part (issue 23, item 4): sim devices with less memory than
// either grid (a whole copy of one would not fit) keep both resident, move
// each grid over the link about once, and give the serial result; without
// enough devices (one), the part does not fit either and the chunks copy
// through the host, still giving the serial result.
TEST(DataRegion, GridsLargerThanOneDevicesMemoryStayResidentOnSeveral) {
  const int n = 192, sweeps = 3;
  const unsigned long long grids = 2ull * n * n * sizeof(double);
  const std::string mem = ",mem=" + std::to_string(grids * 45 / 100);
  for (const char* count : {"3", "4", "1"}) {
    rt_test::temp_file report;
    const std::string setting = std::string("sim:") + count + mem;
    rt_test::scoped_env env{{"GPU_AUTOPAR_DEVICES", setting}, {"GPU_AUTOPAR_REPORT", report.path()}};
    EXPECT_TRUE(collapsed_jacobi_region(n, sweeps)) << setting;
    const region_bytes got = region_line(report);
    if (std::string(count) != "1") {
      EXPECT_LE(got.to_devices, grids * 11 / 10) << setting;
      EXPECT_LE(got.to_host, grids * 11 / 10) << setting;
      for (unsigned long long h : held_per_device(report))
        EXPECT_LE(h, grids * 45 / 100) << setting;
    }
  }
}

// Loops over other ranges than the first, and schedules that hand a device
// other iterations loop after loop, make a device's part grow (what only it
// holds newest goes to the host first); with slots(2), a chunk whose part
// would grow while another chunk of its device uses it copies through the
// host. The results are the serial ones every way.
TEST(DataRegion, ADevicesPartGrowsWhenItsChunksMove) {
  const int n = 40000;
  struct setting {
    const char* devices;
    loop_options_builder options;
  };
  for (const auto& [devices, opts] :
       {setting{"sim:3", options()}, setting{"sim:3", options().schedule(schedule_kind::dynamic, 700)},
        setting{"sim:2", options().schedule(schedule_kind::dynamic, 300).slots(2)},
        setting{"sim:4", options().schedule(schedule_kind::guided)}}) {
    rt_test::temp_file report;
    rt_test::scoped_env env{{"GPU_AUTOPAR_DEVICES", devices}, {"GPU_AUTOPAR_REPORT", report.path()}};
    std::vector<float> x(n), y(n), want(n);
    for (int i = 0; i < n; ++i) {
      x[i] = float(i % 13);
      want[i] = y[i] = float(i % 7);
    }
    {
      data_region region({"t.cpp", 50}, {section(map_kind::to, x), section(map_kind::tofrom, y)});
      for (int r = 0; r < 4; ++r) {
        // The first half, then the whole: each device's part moves and grows.
        const int upto = r == 0 ? n / 2 : n;
        for (int i = 0; i < upto; ++i)
          want[i] = 3.0f * x[i] + want[i];
        kernel_loop({"t.cpp", unsigned(51 + r)}, iterations<int>(0, less, upto, 1), opts,
                    data(tofrom(y, affine(1, 0, 1)), to(x, affine(1, 0, 1))), reductions(),
                    [=](int i, view<std::vector<float>> y, view<std::vector<float>> x) { y[i] = 3.0f * x[i] + y[i]; });
      }
    }
    EXPECT_EQ(y, want) << devices;
    for (unsigned long long h : held_per_device(report))
      EXPECT_LE(h, 2ull * n * sizeof(float)) << devices << ": no more than both sections";
  }
}

TEST(DataRegion, UpdateHostAndDeviceMidRegion) {
  rt_test::scoped_env env{{"GPU_AUTOPAR_DEVICES", "sim:3"}};
  const int n = 9001;
  std::vector<float> x(n, 1.0f), y(n, 0.0f);
  {
    data_region region({"t.cpp", 1}, {section(map_kind::to, x), section(map_kind::tofrom, y)});
    saxpy({"t.cpp", 2}, y, x, 1.0f);
    EXPECT_EQ(y[n / 2], 0.0f) << "the host's copy is not updated before update_host";
    update_host(y, 0, n);
    EXPECT_EQ(y[n / 2], 1.0f);
    for (int i = 0; i < n; ++i)
      x[i] = 10.0f; // new values on the host; devices must see them
    update_device(x);
    saxpy({"t.cpp", 3}, y, x, 1.0f);
  }
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(y[i], 11.0f) << i;
}

TEST(DataRegion, LeftByAnExceptionStillCopiesResultsBack) {
  rt_test::scoped_env env{{"GPU_AUTOPAR_DEVICES", "sim:2"}};
  const int n = 5000;
  std::vector<float> x(n, 2.0f), y(n, 1.0f);
  try {
    data_region region({"t.cpp", 1}, {section(map_kind::to, x), section(map_kind::tofrom, y)});
    saxpy({"t.cpp", 2}, y, x, 1.0f);
    throw std::runtime_error("leave");
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "leave");
  }
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(y[i], 3.0f) << i;
}

TEST(DataRegion, CpuFallbackInsideARegionReadsTheDevicesResults) {
  // Device 1 fails its second chunk (the second loop); with fallback to the
  // CPU the host must first get what the devices computed in the first loop.
  rt_test::scoped_env env{{"GPU_AUTOPAR_DEVICES", "sim:2,fail=0@2+1@2"}};
  const int n = 20000;
  std::vector<float> x(n, 1.0f), y(n, 0.0f);
  {
    data_region region({"t.cpp", 1}, {section(map_kind::to, x), section(map_kind::tofrom, y)});
    saxpy({"t.cpp", 2}, y, x, 1.0f);
    saxpy({"t.cpp", 3}, y, x, 1.0f);
    saxpy({"t.cpp", 4}, y, x, 1.0f);
  }
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(y[i], 3.0f) << i;
}

TEST(DataRegion, NestedRegionOfPresentDataAddsNothing) {
  rt_test::temp_file report;
  rt_test::scoped_env env{{"GPU_AUTOPAR_DEVICES", "sim:2"}, {"GPU_AUTOPAR_REPORT", report.path()}};
  const int n = 4096;
  std::vector<float> x(n, 1.0f), y(n, 0.0f);
  {
    data_region outer({"t.cpp", 1}, {section(map_kind::to, x), section(map_kind::tofrom, y)});
    {
      data_region inner({"t.cpp", 2}, {section(map_kind::tofrom, y, 0, n / 2)});
      saxpy({"t.cpp", 3}, y, x, 1.0f);
    }
    EXPECT_EQ(y[0], 0.0f) << "the inner region maps nothing new, so it copies nothing back";
    EXPECT_THROW(data_region({"t.cpp", 4}, {section(map_kind::tofrom, y, n / 2, n)}), std::invalid_argument);
  }
  EXPECT_EQ(y[n - 1], 1.0f);
}

// Unstructured data: entered in one function, used by loops in others, and
// exited in a third; reference-counted like OpenMP's.
void enter_xy(std::vector<float>& x, std::vector<float>& y) {
  enter_data({"t.cpp", 10}, {section(map_kind::to, x), section(map_kind::to, y)});
}

TEST(UnstructuredData, EnteredDataStaysOnTheDevicesUntilTheLastExit) {
  for (const char* devices : {"sim:1", "sim:3"}) {
    rt_test::temp_file report;
    rt_test::scoped_env env{{"GPU_AUTOPAR_DEVICES", devices}, {"GPU_AUTOPAR_REPORT", report.path()}};
    const int n = 30011;
    std::vector<float> x(n, 1.0f), y(n, 0.0f);
    enter_xy(x, y);
    enter_data({"t.cpp", 11}, {section(map_kind::to, y)}); // a second reference to y
    for (int r = 0; r < 5; ++r)
      saxpy({"t.cpp", 12}, y, x, 1.0f);
    EXPECT_EQ(y[n / 2], 0.0f) << "results stay on the devices while y is entered";
    exit_data({"t.cpp", 13}, {section(map_kind::from, y)});
    EXPECT_EQ(y[n / 2], 0.0f) << "one reference to y is left: nothing comes back yet";
    EXPECT_EQ(region_line(report).lines, 0);
    exit_data({"t.cpp", 14}, {section(map_kind::from, y), section(map_kind::alloc, x)});
    for (int i = 0; i < n; ++i)
      ASSERT_EQ(y[i], 5.0f) << devices << " " << i;
    // x and y each went in once; y came back once.
    unsigned long long in = 0, out = 0;
    const std::regex re("\"region\":\"t.cpp:10\",\"bytes_to_devices\":([0-9]+),\"bytes_to_host\":([0-9]+)");
    for (const std::string& l : report.lines()) {
      std::smatch m;
      if (std::regex_search(l, m, re)) {
        in += std::stoull(m[1]);
        out += std::stoull(m[2]);
      }
    }
    EXPECT_EQ(in, 2ull * n * sizeof(float)) << devices;
    EXPECT_EQ(out, 1ull * n * sizeof(float)) << devices;
  }
}

TEST(UnstructuredData, DeleteAndReleaseDoNotCopyBack) {
  rt_test::scoped_env env{{"GPU_AUTOPAR_DEVICES", "sim:2"}};
  const int n = 7000;
  std::vector<float> x(n, 1.0f), y(n, 0.0f), z(n, 0.0f);
  enter_xy(x, y);
  enter_data({"t.cpp", 20}, {section(map_kind::alloc, z, 0, n), section(map_kind::to, z, 0, 0)});
  enter_data({"t.cpp", 21}, {section(map_kind::alloc, z, 0, n)});
  saxpy({"t.cpp", 22}, y, x, 1.0f);
  saxpy({"t.cpp", 23}, z, x, 1.0f);
  delete_data({"t.cpp", 24}, {section(map_kind::alloc, z, 0, n)}); // both references at once
  exit_data({"t.cpp", 25}, {section(map_kind::alloc, y), section(map_kind::alloc, x)});
  EXPECT_EQ(y[0], 0.0f) << "release: the devices' results are dropped";
  EXPECT_EQ(z[0], 0.0f) << "delete: the devices' results are dropped";
  // Exiting what was not entered does nothing; a section that is only partly
  // present is an error.
  exit_data({"t.cpp", 26}, {section(map_kind::from, y)});
  enter_data({"t.cpp", 27}, {section(map_kind::to, x, 0, n / 2)});
  EXPECT_THROW(exit_data({"t.cpp", 28}, {section(map_kind::from, x, 0, n)}), std::invalid_argument);
  EXPECT_THROW(enter_data({"t.cpp", 29}, {section(map_kind::from, y)}), std::invalid_argument);
  delete_data({"t.cpp", 30}, {section(map_kind::alloc, x, 0, n / 2)});
}

} // namespace
