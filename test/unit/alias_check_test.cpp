// Run-time alias checks (options().check_disjoint): objects the tool could
// not prove distinct are compared before a kernel-mode loop runs; if their
// sections over the whole loop share a byte, the loop runs serially on the
// calling thread and the report says why; otherwise it runs on the devices.
// A failed check_within (a bounds condition) does the same.
#include <gpu_autopar/gpu_autopar.h>

#include <gtest/gtest.h>

#include <array>
#include <stdexcept>
#include <string>
#include <vector>

#include "runtime_test_support.h"

namespace {

using namespace gpu_autopar;
using rt_test::scoped_env;
using rt_test::temp_file;

const loop_site kSite{"alias.cpp", 7};

// out[i] = in[i - 1] / 2 + 1 for i in [1, n): a recurrence when out and in
// are one array, as `shift(a, a)` would make it.
void shift(const double* in, double* out, int n) {
  kernel_loop(kSite, iterations<int>(1, less, n, 1), options().check_disjoint(0, "out", 1, "in"),
              data(from(out, affine(1, 0, 1)), to(in, affine(1, -1, 1))), reductions(),
              [=](int i, view<double*> out, view<const double*> in) { out[i] = in[i - 1] / 2 + 1; });
}

std::vector<double> serial_shift(std::vector<double> a, int in_at, int out_at, int n) {
  for (int i = 1; i < n; ++i)
    a[out_at + i] = a[in_at + i - 1] / 2 + 1;
  return a;
}

std::vector<double> ramp(int n) {
  std::vector<double> a(n);
  for (int i = 0; i < n; ++i)
    a[i] = i % 13;
  return a;
}

TEST(AliasCheck, OneArrayUnderTwoNamesRunsSeriallyAndSaysWhy) {
  temp_file report;
  scoped_env env({{"GPU_AUTOPAR_DEVICES", "sim:3"}, {"GPU_AUTOPAR_REPORT", report.path()}});
  const int n = 30011;
  std::vector<double> a = ramp(n);
  const std::vector<double> expected = serial_shift(a, 0, 0, n);
  shift(a.data(), a.data(), n);
  EXPECT_EQ(a, expected) << "the recurrence gives the serial loop's values";
  const auto lines = report.lines();
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(rt_test::json_field(lines[0], "serial"), "true");
  EXPECT_EQ(rt_test::json_field(lines[0], "serial_reason"), "\"'out' and 'in' overlap in memory\"");
  EXPECT_EQ(rt_test::json_field(lines[0], "backend"), "\"cpu\"");
}

// The sections are compared, not the arrays: halves of one buffer that the
// loop keeps apart run on the devices; one shared element makes it serial.
TEST(AliasCheck, SectionsAreComparedToTheByte) {
  temp_file report;
  scoped_env env({{"GPU_AUTOPAR_DEVICES", "sim:3"}, {"GPU_AUTOPAR_REPORT", report.path()}});
  const int n = 20011;
  // in reads elements [0, n - 1) of a; out = a + k writes [k + 1, k + n).
  std::vector<double> a = ramp(2 * n);
  std::vector<double> expected = serial_shift(a, 0, n - 2, n);
  shift(a.data(), a.data() + (n - 2), n); // out starts right after in's last element
  EXPECT_EQ(a, expected);
  a = ramp(2 * n);
  expected = serial_shift(a, 0, n - 3, n);
  shift(a.data(), a.data() + (n - 3), n); // out's first element is in's last
  EXPECT_EQ(a, expected);
  const auto lines = report.lines();
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(rt_test::json_field(lines[0], "backend"), "\"sim\"") << lines[0];
  EXPECT_EQ(lines[0].find("serial"), std::string::npos) << lines[0];
  EXPECT_EQ(rt_test::json_field(lines[1], "serial_reason"), "\"'out' and 'in' overlap in memory\"") << lines[1];
}

// Host mode has no maps: two containers are compared whole (object_bytes).
void host_shift(const std::vector<double>& in, std::vector<double>& out) {
  host_loop(kSite, iterations<int>(1, less, int(out.size()), 1),
            options().check_disjoint_objects(object_bytes(out), "out", object_bytes(in), "in"), reductions(),
            [&](int i) { out[i] = in[i - 1] / 2 + 1; });
}

TEST(AliasCheck, ContainersOnCpuThreadsAreComparedWhole) {
  temp_file report;
  scoped_env env({{"GPU_AUTOPAR_DEVICES", "cpu"}, {"GPU_AUTOPAR_REPORT", report.path()}});
  const int n = 30011;
  std::vector<double> a = ramp(n), b(n, 0.0);
  host_shift(a, b); // distinct vectors: CPU threads
  std::vector<double> expected = serial_shift(a, 0, 0, n);
  host_shift(a, a); // one vector: a recurrence, run in order
  EXPECT_EQ(a, expected);
  const auto lines = report.lines();
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0].find("serial"), std::string::npos) << lines[0];
  EXPECT_NE(lines[0].find("\"threads\":"), std::string::npos) << lines[0];
  EXPECT_EQ(rt_test::json_field(lines[1], "serial_reason"), "\"'out' and 'in' overlap in memory\"") << lines[1];
}

// check_within: a condition the tool needs for independence (subscripts of a
// built-in array inside its dimensions), evaluated before the loop; when it
// fails, the loop runs serially in any mode and says which check failed.
TEST(BoundsCheck, AFailedConditionRunsTheLoopSeriallyAndSaysWhy) {
  temp_file report;
  scoped_env env({{"GPU_AUTOPAR_DEVICES", "sim:2"}, {"GPU_AUTOPAR_REPORT", report.path()}});
  std::vector<double> rows(8 * 16, 0.0);
  for (int cols : {16, 17}) {
    kernel_loop(kSite, iterations<int>(0, less, 7, 1),
                options().check_within(cols <= 16, "rows", "cols <= 16"),
                data(tofrom(rows, affine(16, 0, 16))), reductions(),
                [=](int i, view<std::vector<double>> r) { r[i * 16] += 1; });
    host_loop(kSite, iterations<int>(0, less, 7, 1),
              options().check_within(true, "rows", "ok").check_within(cols <= 16, "rows", "cols <= 16"),
              reductions(), [&](int i) { rows[i * 16] += 1; });
  }
  const auto lines = report.lines();
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(rt_test::json_field(lines[0], "backend"), "\"sim\"") << lines[0];
  EXPECT_EQ(lines[1].find("serial"), std::string::npos) << lines[1];
  const std::string why = "\"the subscripts of 'rows' may leave its dimensions: cols <= 16 does not hold\"";
  EXPECT_EQ(rt_test::json_field(lines[2], "serial_reason"), why) << lines[2];
  EXPECT_EQ(rt_test::json_field(lines[3], "serial_reason"), why) << lines[3];
  for (int i = 0; i < 7; ++i)
    EXPECT_EQ(rows[i * 16], 4.0) << "every iteration ran once per loop, row " << i;
}

TEST(AliasCheck, ObjectBytesCoverTheWholeObject) {
  std::vector<float> v(10);
  float arr[4][3];
  std::array<int, 5> ar{};
  EXPECT_EQ(object_bytes(v).data, v.data());
  EXPECT_EQ(object_bytes(v).bytes, 10 * sizeof(float));
  EXPECT_EQ(object_bytes(arr).bytes, sizeof arr);
  EXPECT_EQ(object_bytes(ar).bytes, sizeof ar);
  EXPECT_EQ(object_bytes(std::vector<float>()).bytes, 0u);
  EXPECT_FALSE(object_bytes(v).overlaps(object_bytes(arr)));
  EXPECT_TRUE(object_bytes(v).overlaps(object_bytes(v)));
}

TEST(AliasCheck, SectionBytesCoverTheLoopsSectionsOfAPointer) {
  double p[32];
  // i from 1 to 8 reading p[i - 1], p[i], p[i + 1]: elements 0 to 9.
  const object_span up = section_bytes(iterations<int>(1, less, 9, 1), p, affine(1, -1, 3));
  EXPECT_EQ(up.data, static_cast<const void*>(p));
  EXPECT_EQ(up.bytes, 10 * sizeof(double));
  // Descending (p[n - 1 - i]) and strided (i += 3 over [0, 10): 0, 3, 6, 9) loops.
  const object_span down = section_bytes(iterations<int>(0, less, 8, 1), p, affine(-1, 7, 1));
  EXPECT_EQ(down.data, static_cast<const void*>(p));
  EXPECT_EQ(down.bytes, 8 * sizeof(double));
  const object_span strided = section_bytes(iterations<int>(0, less, 10, 3), p + 4, affine(2, 0, 2));
  EXPECT_EQ(strided.data, static_cast<const void*>(p + 4));
  EXPECT_EQ(strided.bytes, 20 * sizeof(double));
  // A section that starts before the pointer, and an empty loop.
  EXPECT_EQ(section_bytes(iterations<int>(0, less, 4, 1), p + 8, affine(1, -2, 1)).data, static_cast<const void*>(p + 6));
  EXPECT_EQ(section_bytes(iterations<int>(5, less, 5, 1), p, affine(1, 0, 1)).bytes, 0u);
  // A collapsed nest: the section is the outer loop's (rows of 3 for i < 4).
  const object_span rows = section_bytes(collapse(iterations<int>(0, less, 4, 1), iterations<int>(0, less, 3, 1)), p,
                                         affine(3, 0, 3));
  EXPECT_EQ(rows.data, static_cast<const void*>(p));
  EXPECT_EQ(rows.bytes, 12 * sizeof(double));
  // Two halves of one array meet only where their sections do.
  const auto half = [&](double* q) { return section_bytes(iterations<int>(1, less, 15, 1), q, affine(1, -1, 3)); };
  EXPECT_FALSE(half(p).overlaps(half(p + 16)));
  EXPECT_TRUE(half(p).overlaps(half(p + 15)));
}

TEST(AliasCheck, WarnsOncePerLoop) {
  scoped_env env({{"GPU_AUTOPAR_DEVICES", "sim:2"}, {"GPU_AUTOPAR_LOG", "warn"}});
  std::vector<double> a = ramp(5000);
  testing::internal::CaptureStderr();
  shift(a.data(), a.data(), 5000);
  shift(a.data(), a.data(), 5000);
  const std::string err = testing::internal::GetCapturedStderr();
  const std::string line =
      "gpu-autopar: warning: alias.cpp:7: running serially on the calling thread: 'out' and 'in' overlap in memory\n";
  EXPECT_EQ(err, line);
}

TEST(AliasCheck, AMapIndexOutOfRangeIsAnError) {
  scoped_env env({{"GPU_AUTOPAR_DEVICES", "sim:2"}});
  std::vector<double> a(10);
  EXPECT_THROW(kernel_loop(kSite, iterations<int>(0, less, 10, 1), options().check_disjoint(0, "a", 1, "b"),
                           data(tofrom(a, affine(1, 0, 1))), reductions(),
                           [=](int i, view<std::vector<double>> a) { a[i] += 1; }),
               std::invalid_argument);
}

} // namespace
