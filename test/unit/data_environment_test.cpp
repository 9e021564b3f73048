// The data environment's rules (gpu_autopar/data_region.h, docs/runtime.md
// "The data environment"), on simulated devices, whose memory is separate
// from the host's: so a copy that should not happen (delete, release, a
// count that has not reached zero) is seen as values that did not come back.
#include <gpu_autopar/gpu_autopar.h>

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "runtime_test_support.h"

namespace {

using namespace gpu_autopar;

// y[i] = v + i, with a `to` map the body writes (as the tool emits it).
void fill_through_to_map(std::vector<float>& y, float v) {
  const int n = int(y.size());
  kernel_loop(loop_site{"t.cpp", 1}, iterations<int>(0, less, n, 1), options(),
              data(also_written(to(y, affine(1, 0, 1)))), reductions(),
              [=](int i, view<std::vector<float>> y) { y[i] = v + float(i); });
}

// y[i] += 1 with a `from` map the body reads (as the tool emits it).
void bump_through_from_map(std::vector<float>& y) {
  const int n = int(y.size());
  kernel_loop(loop_site{"t.cpp", 2}, iterations<int>(0, less, n, 1), options(),
              data(also_read(from(y, affine(1, 0, 1)))), reductions(),
              [=](int i, view<std::vector<float>> y) { y[i] += 1.0f; });
}

int wrong(const std::vector<float>& y, float v) {
  int bad = 0;
  for (std::size_t i = 0; i < y.size(); ++i)
    bad += y[i] != v + float(i);
  return bad;
}

TEST(DataEnvironment, ALoopsMapOnPresentDataKeepsItsWritesInThePresentCopy) {
  for (const char* devices : {"sim:1", "sim:3"}) {
    rt_test::scoped_env env{{"GPU_AUTOPAR_DEVICES", devices}};
    std::vector<float> y(4099, -1.0f);
    enter_data({"t.cpp", 10}, {section(map_kind::alloc, y)});
    fill_through_to_map(y, 5.0f);
    bump_through_from_map(y); // reads the present copy, not garbage
    exit_data({"t.cpp", 11}, {section(map_kind::from, y)});
    EXPECT_EQ(wrong(y, 6.0f), 0) << devices;
    {
      data_region region({"t.cpp", 12}, {section(map_kind::tofrom, y)});
      fill_through_to_map(y, 7.0f);
    }
    EXPECT_EQ(wrong(y, 7.0f), 0) << devices << ": the region brings back what the loop wrote";
  }
}

TEST(DataEnvironment, ARegionOverEnteredDataCopiesBackOnlyWhenNoReferenceIsLeft) {
  rt_test::scoped_env env{{"GPU_AUTOPAR_DEVICES", "sim:2"}};
  std::vector<float> y(3001, 0.0f);
  // Entered, then a region: at the region's end the dynamic reference is
  // left, so nothing comes back; the exit brings it.
  enter_data({"t.cpp", 20}, {section(map_kind::alloc, y)});
  {
    data_region region({"t.cpp", 21}, {section(map_kind::from, y)});
    fill_through_to_map(y, 1.0f);
  }
  EXPECT_EQ(y[10], 0.0f) << "still present: the region's end copies nothing";
  exit_data({"t.cpp", 22}, {section(map_kind::from, y)});
  EXPECT_EQ(wrong(y, 1.0f), 0);
  // Entered, then released inside a region: the region's end is the last
  // reference, and its `from` brings the values back.
  enter_data({"t.cpp", 23}, {section(map_kind::to, y)});
  {
    data_region region({"t.cpp", 24}, {section(map_kind::from, y)});
    fill_through_to_map(y, 2.0f);
    exit_data({"t.cpp", 25}, {section(map_kind::alloc, y)}); // release
    EXPECT_EQ(y[10], 1.0f + 10.0f) << "the region still holds it";
  }
  EXPECT_EQ(wrong(y, 2.0f), 0);
  // Entered inside a region that maps it `to`: the region's end leaves it
  // present, and a later exit data copies it out.
  {
    data_region region({"t.cpp", 26}, {section(map_kind::to, y)});
    enter_data({"t.cpp", 27}, {section(map_kind::to, y)});
    fill_through_to_map(y, 3.0f);
  }
  EXPECT_EQ(y[10], 2.0f + 10.0f);
  exit_data({"t.cpp", 28}, {section(map_kind::from, y)});
  EXPECT_EQ(wrong(y, 3.0f), 0);
}

TEST(DataEnvironment, FinalizeDropsEveryDynamicReferenceAndStillCopiesOut) {
  rt_test::scoped_env env{{"GPU_AUTOPAR_DEVICES", "sim:3"}};
  std::vector<float> y(2048, 0.0f);
  enter_data({"t.cpp", 30}, {section(map_kind::to, y)});
  enter_data({"t.cpp", 31}, {section(map_kind::to, y)});
  fill_through_to_map(y, 4.0f);
  exit_data({"t.cpp", 32}, {section(map_kind::from, y)}, finalize);
  EXPECT_EQ(wrong(y, 4.0f), 0);
  // Gone: a further exit does nothing, a further loop copies as outside.
  exit_data({"t.cpp", 33}, {section(map_kind::from, y)});
  // delete and release copy nothing, whatever the count.
  enter_data({"t.cpp", 34}, {section(map_kind::to, y)});
  enter_data({"t.cpp", 35}, {section(map_kind::to, y)});
  fill_through_to_map(y, 9.0f);
  delete_data({"t.cpp", 36}, {section(map_kind::alloc, y)});
  EXPECT_EQ(wrong(y, 4.0f), 0) << "delete: the devices' values are dropped";
  enter_data({"t.cpp", 37}, {section(map_kind::to, y)});
  fill_through_to_map(y, 9.0f);
  exit_data({"t.cpp", 38}, {section(map_kind::alloc, y)});
  EXPECT_EQ(wrong(y, 4.0f), 0) << "release: the devices' values are dropped";
}

TEST(DataEnvironment, ExitOfAPartOfAnEnteredSectionCopiesThatPart) {
  rt_test::scoped_env env{{"GPU_AUTOPAR_DEVICES", "sim:2"}};
  std::vector<float> y(1000, 0.0f);
  enter_data({"t.cpp", 40}, {section(map_kind::to, y)});
  fill_through_to_map(y, 1.0f);
  exit_data({"t.cpp", 41}, {section(map_kind::from, y, 0, 10)}); // OpenMP: the count is the section's
  for (int i = 0; i < 1000; ++i)
    ASSERT_EQ(y[i], i < 10 ? 1.0f + float(i) : 0.0f) << i;
}

TEST(DataEnvironment, ASectionOnlyPartlyPresentIsAnErrorNamingIt) {
  rt_test::scoped_env env{{"GPU_AUTOPAR_DEVICES", "sim:2"}};
  std::vector<float> y(100, 0.0f);
  float* p = y.data();
  data_region region({"t.cpp", 50}, {section(map_kind::tofrom, p, 0, 10, "p[0:10]")});
  const auto message = [&](auto f) {
    try {
      f();
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message([&] { data_region inner({"t.cpp", 51}, {section(map_kind::to, p, 5, 20, "p[5:20]")}); }),
            "gpu-autopar: t.cpp:51: data region maps 'p[5:20]', which is only partly present: it overlaps "
            "'p[0:10]', mapped at t.cpp:50, without lying inside it (OpenMP: a section mapped while present must "
            "lie within the present one)");
  EXPECT_NE(message([&] { enter_data({"t.cpp", 52}, {section(map_kind::to, p, 0, 11, "p[0:11]")}); })
                .find("t.cpp:52: enter data maps 'p[0:11]', which is only partly present"),
            std::string::npos);
  EXPECT_NE(message([&] { exit_data({"t.cpp", 53}, {section(map_kind::from, p, 8, 4, "p[8:4]")}); })
                .find("t.cpp:53: exit data maps 'p[8:4]', which is only partly present"),
            std::string::npos);
  // A loop's map clause section of a pointer, before any iteration runs.
  EXPECT_NE(message([&] {
              kernel_loop(loop_site{"t.cpp", 55}, iterations<int>(0, less, 20, 1), options(),
                          data(tofrom(p, 0, 20, affine(1, 0, 1), "p[0:20]")), reductions(),
                          [=](int i, view<float*> p) { p[i] = -1.0f; });
            }).find("t.cpp:55: the loop maps 'p[0:20]', which is only partly present"),
            std::string::npos);
  EXPECT_EQ(y[15], 0.0f);
  // A refused region leaves the counts as they were: the inner one above
  // added no reference, so this region's end is the last.
  data_region inside({"t.cpp", 54}, {section(map_kind::tofrom, p, 2, 3, "p[2:3]")});
}

TEST(DataEnvironment, ZeroLengthSectionsMapNothingAndALoopsUsesThePresentData) {
  for (const char* devices : {"sim:1", "sim:3"}) {
    rt_test::scoped_env env{{"GPU_AUTOPAR_DEVICES", devices}};
    const int n = 5000;
    std::vector<double> v(n, 0.0);
    double* p = v.data();
    {
      data_region empty({"t.cpp", 60}, {section(map_kind::tofrom, p, 0, 0, "p[0:0]")});
      enter_data({"t.cpp", 61}, {section(map_kind::to, p, 3, 0, "p[3:0]")});
      EXPECT_FALSE(detail::regions_live()) << "nothing is present";
    }
    {
      data_region region({"t.cpp", 62}, {section(map_kind::tofrom, p, 0, n, "p[0:n]")});
      // map(tofrom: p[:0]) on the loop: the present p[0:n].
      kernel_loop(loop_site{"t.cpp", 63}, iterations<int>(0, less, n, 1), options(),
                  data(tofrom(p, 0, 0, whole())), reductions(),
                  [=](int i, view<double*> p) { p[i] = 2.0 * i; });
    }
    for (int i = 0; i < n; ++i)
      ASSERT_EQ(v[i], 2.0 * i) << devices << " " << i;
    // Not present, the loop's own section decides (the tool's affine one).
    kernel_loop(loop_site{"t.cpp", 64}, iterations<int>(0, less, n, 1), options(),
                data(tofrom(p, 0, 0, affine(1, 0, 1))), reductions(), [=](int i, view<double*> p) { p[i] += 1; });
    EXPECT_EQ(v[n - 1], 2.0 * (n - 1) + 1) << devices;
    // A whole-object map of nothing present is refused before any iteration.
    EXPECT_THROW(kernel_loop(loop_site{"t.cpp", 65}, iterations<int>(0, less, n, 1), options(),
                             data(tofrom(p, 0, 0, whole())), reductions(), [=](int i, view<double*> p) { p[i] = 0; }),
                 std::invalid_argument);
    EXPECT_EQ(v[0], 1.0) << devices;
  }
}

TEST(DataEnvironment, AShortSectionOfAPresentArrayInsideARegion) {
  rt_test::scoped_env env{{"GPU_AUTOPAR_DEVICES", "sim:3"}};
  const int n = 1000;
  std::vector<float> v(n, 0.0f);
  float* p = v.data();
  {
    data_region region({"t.cpp", 70}, {section(map_kind::tofrom, p, 0, n, "p[0:n]")});
    kernel_loop(loop_site{"t.cpp", 71}, iterations<int>(0, less, n, 1), options(),
                data(from(p, 0, n, affine(1, 0, 1))), reductions(), [=](int i, view<float*> p) { p[i] = 1.0f; });
    data_region inner({"t.cpp", 72}, {section(map_kind::tofrom, p, 0, 10, "p[0:10]")});
    kernel_loop(loop_site{"t.cpp", 73}, iterations<int>(0, less, 10, 1), options(),
                data(also_written(to(p, 0, 10, affine(1, 0, 1)))), reductions(),
                [=](int i, view<float*> p) { p[i] += 5.0f; });
  }
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(v[i], i < 10 ? 6.0f : 1.0f) << i;
}

TEST(DataEnvironment, AScalarInADataMap) {
  rt_test::scoped_env env{{"GPU_AUTOPAR_DEVICES", "sim:2"}};
  const int n = 4000;
  std::vector<int> v(n);
  for (int i = 0; i < n; ++i)
    v[i] = (i * 37) % 1001;
  int biggest = -1;
  const region_section s = section(map_kind::tofrom, biggest, "biggest");
  EXPECT_EQ(s.host, static_cast<const void*>(&biggest));
  EXPECT_EQ(s.bytes, sizeof(int));
  {
    data_region region({"t.cpp", 80}, {s, section(map_kind::to, v, "v")});
    kernel_loop(loop_site{"t.cpp", 81}, iterations<int>(0, less, n, 1), options(), data(to(v, affine(1, 0, 1))),
                reductions(reduce<op::max>(biggest)),
                [=](int i, view<std::vector<int>> v, int& m) { m = v[i] > m ? v[i] : m; });
    update_host(biggest);
  }
  EXPECT_EQ(biggest, 1000);
}

} // namespace
