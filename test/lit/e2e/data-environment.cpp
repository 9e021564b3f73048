// gpu_autopar's own data directives under the data environment's rules
// (docs/runtime.md, "The data environment"), in the style of the validation
// suites' data tests: present data, reference counts across regions and
// enter/exit data, `finalize`, zero-length and short sections, scalars and
// whole containers. Each case checks what the host sees once the data has
// come back and prints PASS or FAIL; every case gives the same answer on a
// shared-memory host and on devices with memory of their own.
// RUN: %cxx -Wno-unknown-pragmas %s -o %t.serial && %t.serial | FileCheck %s --check-prefix=SERIAL --implicit-check-not=FAIL
// RUN: %e2e --out %t --devices "cpu;sim:1;sim:3" %s | FileCheck %s
// SERIAL-COUNT-14: PASS
// SERIAL: gpu_autopar data environment: 14 cases, 0 failed
// CHECK: sim:3: data-environment.cpp:{{[0-9]+}} mode=kernel backend=sim
#include <array>
#include <cstdio>
#include <vector>

static int cases = 0, failed = 0;

static void check(const char *name, int wrong) {
  ++cases;
  failed += wrong != 0;
  if (wrong)
    std::printf("FAIL %s: %d wrong\n", name, wrong);
  else
    std::printf("PASS %s\n", name);
}

static int wrong_values(const double *v, int n, double (*want)(int)) {
  int bad = 0;
  for (int i = 0; i < n; ++i)
    bad += v[i] != want(i);
  return bad;
}

const int n = 2048;

static void region_to_from() {
  std::vector<double> va(n), vb(n, -1);
  double *a = va.data(), *b = vb.data();
  for (int i = 0; i < n; ++i)
    a[i] = i;
#pragma gpu_autopar data map(to: a[0:n]) map(from: b[0:n])
  {
#pragma gpu_autopar for
    for (int i = 0; i < n; ++i)
      b[i] = a[i] * a[i];
  }
  check("data map(to) map(from)", wrong_values(b, n, [](int i) { return double(i) * i; }));
}

// The loop's own map(to) on entered data: its writes stay in the present copy.
static void loop_map_to_on_entered() {
  std::vector<double> va(n), vb(n, -1);
  double *a = va.data(), *b = vb.data();
  for (int i = 0; i < n; ++i)
    a[i] = i;
#pragma gpu_autopar enter data map(alloc: b[0:n])
#pragma gpu_autopar for map(to: a[0:n], b[0:n])
  for (int i = 0; i < n; ++i)
    b[i] = a[i] + 0.5;
#pragma gpu_autopar exit data map(from: b[0:n])
  check("loop map(to) on entered data", wrong_values(b, n, [](int i) { return i + 0.5; }));
}

// The loop's own map(alloc) on data a region holds: it reads the present copy.
static void loop_map_alloc_reads_present() {
  std::vector<double> vb(n, 4), vc(n, 0);
  double *b = vb.data(), *c = vc.data();
#pragma gpu_autopar data map(tofrom: b[0:n], c[0:n])
  {
#pragma gpu_autopar for map(alloc: b[0:n]) map(from: c[0:n])
    for (int i = 0; i < n; ++i)
      c[i] = b[i] * i;
  }
  check("loop map(alloc) reads the present copy", wrong_values(c, n, [](int i) { return 4.0 * i; }));
}

static void exit_from_finalize() {
  std::vector<double> vb(n, 1);
  double *b = vb.data();
#pragma gpu_autopar enter data map(to: b[0:n])
#pragma gpu_autopar enter data map(to: b[0:n])
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    b[i] -= i;
#pragma gpu_autopar exit data map(from: b[0:n]) finalize
  check("exit data map(from) finalize", wrong_values(b, n, [](int i) { return 1.0 - i; }));
}

// A region over entered data, released inside: its end copies back.
static void region_over_entered() {
  std::vector<double> vb(n, 0);
  double *b = vb.data();
#pragma gpu_autopar enter data map(to: b[0:n])
#pragma gpu_autopar data map(tofrom: b[0:n])
  {
#pragma gpu_autopar for
    for (int i = 0; i < n; ++i)
      b[i] = 2 * i + 1;
#pragma gpu_autopar exit data map(release: b[0:n])
  }
  check("data region over entered data", wrong_values(b, n, [](int i) { return 2.0 * i + 1; }));
}

// Entered inside a region mapping it `to`; exited after the region.
static void entered_inside_region() {
  std::vector<double> vb(n, 0);
  double *b = vb.data();
#pragma gpu_autopar data map(to: b[0:n])
  {
#pragma gpu_autopar enter data map(to: b[0:n])
#pragma gpu_autopar for
    for (int i = 0; i < n; ++i)
      b[i] = i * 0.25;
  }
#pragma gpu_autopar exit data map(from: b[0:n])
  check("enter data inside a region", wrong_values(b, n, [](int i) { return i * 0.25; }));
}

static void zero_length_sections() {
  std::vector<double> vb(n, 0);
  double *b = vb.data();
#pragma gpu_autopar enter data map(to: b[0:0])
#pragma gpu_autopar data map(tofrom: b[0:n])
  {
#pragma gpu_autopar for map(tofrom: b[0:0])
    for (int i = 0; i < n; ++i)
      b[i] = 3 * i;
  }
#pragma gpu_autopar exit data map(from: b[0:0])
  check("zero-length sections", wrong_values(b, n, [](int i) { return 3.0 * i; }));
}

static void short_section() {
  std::vector<double> vb(n, 0);
  double *b = vb.data();
#pragma gpu_autopar data map(tofrom: b[0:n])
  {
#pragma gpu_autopar for
    for (int i = 0; i < n; ++i)
      b[i] = 1;
#pragma gpu_autopar data map(tofrom: b[0:10])
    {
#pragma gpu_autopar for map(tofrom: b[0:10])
      for (int i = 0; i < 10; ++i)
        b[i] += i;
    }
  }
  check("short section of a mapped array", wrong_values(b, n, [](int i) { return i < 10 ? 1.0 + i : 1.0; }));
}

static void scalar_in_region() {
  std::vector<double> va(n);
  double *a = va.data();
  for (int i = 0; i < n; ++i)
    a[i] = i % 13;
  double sum = 0;
#pragma gpu_autopar data map(tofrom: sum) map(to: a[0:n])
  {
#pragma gpu_autopar for reduction(+: sum)
    for (int i = 0; i < n; ++i)
      sum += a[i];
  }
  double want = 0;
  for (int i = 0; i < n; ++i)
    want += i % 13;
  check("scalar in a data region", sum != want);
}

static void updates() {
  std::vector<double> vb(n, 0);
  double *b = vb.data();
  double seen = 0;
#pragma gpu_autopar data map(tofrom: b[0:n])
  {
#pragma gpu_autopar for
    for (int i = 0; i < n; ++i)
      b[i] = i;
#pragma gpu_autopar update host(b[0:n])
    seen = b[7];
    b[0] = 100;
#pragma gpu_autopar update device(b[0:1])
#pragma gpu_autopar for
    for (int i = 0; i < n; ++i)
      b[i] += 1;
  }
  check("update host / update device", (seen != 7) + wrong_values(b, n, [](int i) { return i ? i + 1.0 : 101.0; }));
}

static void enter(double *d) {
#pragma gpu_autopar enter data map(to: d[0:n])
}
static void work(double *d) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    d[i] = d[i] * 2 + 1;
}
static void leave(double *d) {
#pragma gpu_autopar exit data map(from: d[0:n])
}
static void across_functions() {
  std::vector<double> vd(n, 1);
  double *d = vd.data();
  enter(d);
  work(d);
  work(d);
  leave(d);
  check("enter, loops and exit in separate functions", wrong_values(d, n, [](int) { return 7.0; }));
}

static void whole_vector_and_array() {
  std::vector<double> v(n, 2);
  static std::array<double, 512> s;
  for (int i = 0; i < 512; ++i)
    s[i] = i;
#pragma gpu_autopar data map(tofrom: v) map(tofrom: s)
  {
#pragma gpu_autopar for
    for (int i = 0; i < n; ++i)
      v[i] += i;
#pragma gpu_autopar for
    for (int i = 0; i < 512; ++i)
      s[i] *= 2;
  }
  check("whole std::vector and std::array",
        wrong_values(v.data(), n, [](int i) { return 2.0 + i; }) + wrong_values(s.data(), 512, [](int i) { return 2.0 * i; }));
}

static void delete_after_use() {
  std::vector<double> vc(n), vd(n, 0);
  double *c = vc.data(), *d = vd.data();
  for (int i = 0; i < n; ++i)
    c[i] = i % 3;
#pragma gpu_autopar enter data map(to: c[0:n])
#pragma gpu_autopar for map(from: d[0:n])
  for (int i = 0; i < n; ++i)
    d[i] = c[i] + 10;
#pragma gpu_autopar exit data map(delete: c[0:n])
  check("exit data map(delete) after use", wrong_values(d, n, [](int i) { return i % 3 + 10.0; }));
}

static void alloc_scratch_entered() {
  std::vector<double> vt(n), vc(n, 0);
  double *t = vt.data(), *c = vc.data();
#pragma gpu_autopar enter data map(alloc: t[0:n], c[0:n])
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    t[i] = i + 2;
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    c[i] = t[i] * t[i];
#pragma gpu_autopar exit data map(release: t[0:n]) map(from: c[0:n])
  check("entered alloc scratch", wrong_values(c, n, [](int i) { return (i + 2.0) * (i + 2.0); }));
}

int main() {
  region_to_from();
  loop_map_to_on_entered();
  loop_map_alloc_reads_present();
  exit_from_finalize();
  region_over_entered();
  entered_inside_region();
  zero_length_sections();
  short_section();
  scalar_in_region();
  updates();
  across_functions();
  whole_vector_and_array();
  delete_after_use();
  alloc_scratch_entered();
  std::printf("gpu_autopar data environment: %d cases, %d failed\n", cases, failed);
  return 0;
}
