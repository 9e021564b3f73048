// OpenMP data directives in the style of the OpenMP validation suite's data
// tests: each case maps data with `target data`, `target enter/exit data`,
// loops' own `map` clauses and `target update`, computes on it, and checks
// the values the host sees once the data has come back, printing PASS or
// FAIL. Every case gives the same answer on a shared-memory host and on a
// device with memory of its own (OpenMP's rules: present data, reference
// counts, zero-length and short sections, scalars), so the serial program
// must print PASS everywhere, and the rewritten one the same on CPU threads,
// one and three simulated devices (whose memory is separate from the host's)
// and the CUDA stand-in.
// RUN: %cxx -Wno-unknown-pragmas %s -o %t.serial && %t.serial | FileCheck %s --check-prefix=SERIAL --implicit-check-not=FAIL
// RUN: %e2e --out %t --accept omp --devices "cpu;sim:1;sim:3" %s | FileCheck %s
// SERIAL-COUNT-25: PASS
// SERIAL: omp data environment: 25 cases, 0 failed
// CHECK: sim:3: e2e-data-env-omp.cpp:{{[0-9]+}} mode=kernel backend=sim
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

const int n = 1024;

// target data: `to` in, `from` out.
static void data_to_from() {
  std::vector<double> va(n), vb(n, -1);
  double *a = va.data(), *b = vb.data();
  for (int i = 0; i < n; ++i)
    a[i] = i;
#pragma omp target data map(to: a[0:n]) map(from: b[0:n])
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i)
      b[i] = 2 * a[i];
  }
  check("target data map(to) map(from)", wrong_values(b, n, [](int i) { return 2.0 * i; }));
}

// Two loops in one region: the second reads what the first left on the device.
static void data_tofrom_two_loops() {
  std::vector<double> vb(n, 1);
  double *b = vb.data();
#pragma omp target data map(tofrom: b[0:n])
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i)
      b[i] += i;
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i)
      b[i] *= 3;
  }
  check("target data map(tofrom), two loops", wrong_values(b, n, [](int i) { return 3.0 * (1 + i); }));
}

// map(alloc) scratch between two loops; only the result comes back.
static void data_alloc_scratch() {
  std::vector<double> vt(n), vc(n);
  double *t = vt.data(), *c = vc.data();
#pragma omp target data map(alloc: t[0:n]) map(from: c[0:n])
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i)
      t[i] = i * 0.5;
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i)
      c[i] = t[i] + 1;
  }
  check("target data map(alloc) scratch", wrong_values(c, n, [](int i) { return i * 0.5 + 1; }));
}

// A loop's own map(to) on data entered with map(alloc): the present copy is
// the one the loop writes; the exit's `from` brings it back.
static void loop_map_on_entered_data() {
  std::vector<double> va(n), vb(n, -1);
  double *a = va.data(), *b = vb.data();
  for (int i = 0; i < n; ++i)
    a[i] = i;
#pragma omp target enter data map(alloc: b[0:n])
#pragma omp target teams distribute parallel for map(to: a[0:n], b[0:n])
  for (int i = 0; i < n; ++i)
    b[i] = 2 * a[i];
#pragma omp target exit data map(from: b[0:n])
  check("loop map(to) on entered data keeps its writes", wrong_values(b, n, [](int i) { return 2.0 * i; }));
}

// The same inside a region that maps the array tofrom.
static void loop_map_on_region_data() {
  std::vector<double> vb(n, 0);
  double *b = vb.data();
#pragma omp target data map(tofrom: b[0:n])
  {
#pragma omp target teams distribute parallel for map(to: b[0:n])
    for (int i = 0; i < n; ++i)
      b[i] = i + 7;
  }
  check("loop map(to) inside target data map(tofrom)", wrong_values(b, n, [](int i) { return i + 7.0; }));
}

// Entered in one function, used by loops in another, exited in a third.
static void upload(double *d) {
#pragma omp target enter data map(to: d[0:n])
}
static void scale(double *d, double f) {
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; ++i)
    d[i] *= f;
}
static void download(double *d) {
#pragma omp target exit data map(from: d[0:n])
}
static void enter_exit_across_functions() {
  std::vector<double> vd(n);
  double *d = vd.data();
  for (int i = 0; i < n; ++i)
    d[i] = i;
  upload(d);
  scale(d, 2);
  scale(d, 1.5);
  download(d);
  check("enter data / exit data across functions", wrong_values(d, n, [](int i) { return 3.0 * i; }));
}

// Entered twice: the first exit leaves one reference, the second copies out.
static void enter_twice_exit_twice() {
  std::vector<double> vb(n, 2);
  double *b = vb.data();
#pragma omp target enter data map(to: b[0:n])
#pragma omp target enter data map(to: b[0:n])
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; ++i)
    b[i] += i;
#pragma omp target exit data map(from: b[0:n])
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; ++i)
    b[i] *= 2;
#pragma omp target exit data map(from: b[0:n])
  check("two enters, two exits: the last copies out", wrong_values(b, n, [](int i) { return 2.0 * (2 + i); }));
}

// A region opened over data already entered; released inside it, so the
// region's end is the last reference and its `from` copies back.
static void region_over_entered_released_inside() {
  std::vector<double> vb(n, -1);
  double *b = vb.data();
#pragma omp target enter data map(alloc: b[0:n])
#pragma omp target data map(from: b[0:n])
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i)
      b[i] = 5 * i;
#pragma omp target exit data map(release: b[0:n])
  }
  check("target data over entered data, released inside", wrong_values(b, n, [](int i) { return 5.0 * i; }));
}

// A region over data entered before it: at its end the entry's reference is
// left; the exit data after it copies out.
static void region_over_entered_exit_after() {
  std::vector<double> vb(n, 1);
  double *b = vb.data();
#pragma omp target enter data map(to: b[0:n])
#pragma omp target data map(tofrom: b[0:n])
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i)
      b[i] += 2 * i;
  }
#pragma omp target exit data map(from: b[0:n])
  check("target data over entered data, exit after", wrong_values(b, n, [](int i) { return 1.0 + 2 * i; }));
}

// Entered inside a region that maps it `to`: it stays present after the
// region, and the exit data copies it out.
static void entered_inside_region() {
  std::vector<double> vb(n, 0);
  double *b = vb.data();
#pragma omp target data map(to: b[0:n])
  {
#pragma omp target enter data map(to: b[0:n])
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i)
      b[i] = i - 3;
  }
#pragma omp target exit data map(from: b[0:n])
  check("enter data inside target data map(to)", wrong_values(b, n, [](int i) { return i - 3.0; }));
}

// exit data map(delete) after the results were taken elsewhere.
static void exit_delete() {
  std::vector<double> vc(n), vd(n, 0);
  double *c = vc.data(), *d = vd.data();
  for (int i = 0; i < n; ++i)
    c[i] = i % 10;
#pragma omp target enter data map(to: c[0:n])
#pragma omp target enter data map(to: c[0:n])
#pragma omp target teams distribute parallel for map(from: d[0:n])
  for (int i = 0; i < n; ++i)
    d[i] = c[i] * c[i];
#pragma omp target exit data map(delete: c[0:n])
  check("exit data map(delete)", wrong_values(d, n, [](int i) { return double((i % 10) * (i % 10)); }));
}

// Zero-length sections map nothing: a region of b[0:0] and, inside a region
// of all of b, a loop whose map names b[:0] (it uses the present b).
static void zero_length_sections() {
  std::vector<double> vb(n, 0);
  double *b = vb.data();
#pragma omp target data map(tofrom: b[0:0])
  {
#pragma omp target teams distribute parallel for map(tofrom: b[0:n])
    for (int i = 0; i < n; ++i)
      b[i] = i;
  }
#pragma omp target data map(tofrom: b[0:n])
  {
#pragma omp target teams distribute parallel for map(tofrom: b[:0])
    for (int i = 0; i < n; ++i)
      b[i] += 1;
  }
  check("zero-length sections", wrong_values(b, n, [](int i) { return i + 1.0; }));
}

// A short section b[0:10] of a larger mapped array, inside the region.
static void short_section_in_region() {
  std::vector<double> vb(n, 0);
  double *b = vb.data();
#pragma omp target data map(tofrom: b[0:n])
  {
#pragma omp target teams distribute parallel for map(tofrom: b[0:10])
    for (int i = 0; i < 10; ++i)
      b[i] = 100 + i;
#pragma omp target teams distribute parallel for
    for (int i = 10; i < n; ++i)
      b[i] = i;
  }
  check("short section of a mapped array", wrong_values(b, n, [](int i) { return i < 10 ? 100.0 + i : double(i); }));
}

// A scalar in target data, combined by a reduction inside.
static void scalar_in_target_data() {
  std::vector<double> va(n);
  double *a = va.data();
  for (int i = 0; i < n; ++i)
    a[i] = i % 7;
  double sum = 0;
  long count = 0;
#pragma omp target data map(tofrom: sum, count) map(to: a[0:n])
  {
#pragma omp target teams distribute parallel for reduction(+: sum, count)
    for (int i = 0; i < n; ++i) {
      sum += a[i];
      count += a[i] > 3;
    }
  }
  double want = 0;
  long want_count = 0;
  for (int i = 0; i < n; ++i) {
    want += i % 7;
    want_count += i % 7 > 3;
  }
  check("scalars in target data map(tofrom)", (sum != want) + (count != want_count));
}

// target update from / to in the middle of a region.
static void update_mid_region() {
  std::vector<double> vb(n, 1);
  double *b = vb.data();
  double seen = 0;
#pragma omp target data map(tofrom: b[0:n])
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i)
      b[i] = i;
#pragma omp target update from(b[0:n])
    seen = b[n - 1];
    for (int i = 0; i < n; i += 2)
      b[i] = -b[i];
#pragma omp target update to(b[0:n])
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i)
      b[i] += 1;
  }
  check("target update from/to mid-region",
        (seen != n - 1) + wrong_values(b, n, [](int i) { return (i % 2 ? i : -i) + 1.0; }));
}

// Nested target data of a part of the array: the inner region only adds a
// reference; the outer region's end brings both halves back.
static void nested_region_subsection() {
  std::vector<double> vb(n, 0);
  double *b = vb.data();
#pragma omp target data map(tofrom: b[0:n])
  {
#pragma omp target data map(tofrom: b[0:n / 2])
    {
#pragma omp target teams distribute parallel for
      for (int i = 0; i < n / 2; ++i)
        b[i] = 1;
    }
#pragma omp target teams distribute parallel for
    for (int i = n / 2; i < n; ++i)
      b[i] = 2;
  }
  check("nested target data of a subsection", wrong_values(b, n, [](int i) { return i < n / 2 ? 1.0 : 2.0; }));
}

// Host changes to entered data reach the device through target update to.
static void update_to_entered() {
  std::vector<double> va(n, 1), vc(n, 0);
  double *a = va.data(), *c = vc.data();
#pragma omp target enter data map(to: a[0:n]) map(alloc: c[0:n])
  for (int i = 0; i < n; ++i)
    a[i] = i;
#pragma omp target update to(a[0:n])
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; ++i)
    c[i] = a[i] * 4;
#pragma omp target exit data map(from: c[0:n]) map(delete: a[0:n])
  check("target update to on entered data", wrong_values(c, n, [](int i) { return 4.0 * i; }));
}

// exit data map(from) of the first part of an entered array copies that part.
static void exit_subsection() {
  std::vector<double> vb(n, 0);
  double *b = vb.data();
#pragma omp target enter data map(to: b[0:n])
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; ++i)
    b[i] = i * 2;
#pragma omp target exit data map(from: b[0:n / 4])
  check("exit data of a part of an entered array", wrong_values(b, n / 4, [](int i) { return 2.0 * i; }));
}

// map(from) on a loop over data a region maps `to`: the loop's reads see
// the present copy (map on present data copies nothing).
static void loop_from_map_reads_present() {
  std::vector<double> vb(n), vc(n, 0);
  double *b = vb.data(), *c = vc.data();
  for (int i = 0; i < n; ++i)
    b[i] = i;
#pragma omp target data map(tofrom: b[0:n]) map(from: c[0:n])
  {
#pragma omp target teams distribute parallel for map(from: b[0:n])
    for (int i = 0; i < n; ++i)
      b[i] = b[i] + 10;
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i)
      c[i] = b[i];
  }
  check("loop map(from) on present data reads the present copy", wrong_values(c, n, [](int i) { return i + 10.0; }));
}

// A std::vector mapped whole, entered and exited.
static void vector_enter_exit() {
  std::vector<double> v(n, 3);
#pragma omp target enter data map(to: v)
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; ++i)
    v[i] = v[i] * i;
#pragma omp target exit data map(from: v)
  check("std::vector entered and exited whole", wrong_values(v.data(), n, [](int i) { return 3.0 * i; }));
}

// Regions that only wrap loops, translated loop by loop (the validation
// suite's commonest shapes). `target` over a block: its maps become a data
// region; the host statement between the loops touches no mapped data.
static void target_region_two_loops() {
  std::vector<double> va(n), vb(n, 1);
  double *a = va.data(), *b = vb.data();
  for (int i = 0; i < n; ++i)
    a[i] = i;
  double scale = 0;
#pragma omp target map(to: a[0:n]) map(tofrom: b[0:n])
  {
#pragma omp teams distribute parallel for
    for (int i = 0; i < n; ++i)
      b[i] += a[i];
    scale = 3;
#pragma omp teams distribute parallel for
    for (int i = 0; i < n; ++i)
      b[i] *= scale;
  }
  check("target region over two loops", wrong_values(b, n, [](int i) { return 3.0 * (1 + i); }));
}

// `target` then `teams distribute parallel for` on its own line (SOLLVE's
// shape): the loop takes the region's maps.
static void target_then_loop_directive() {
  std::vector<double> va(n), vb(n, -1);
  double *a = va.data(), *b = vb.data();
  for (int i = 0; i < n; ++i)
    a[i] = 2 * i;
#pragma omp target map(to: a[0:n]) map(from: b[0:n])
#pragma omp teams distribute parallel for
  for (int i = 0; i < n; ++i)
    b[i] = a[i] + 1;
  check("target, then a loop directive", wrong_values(b, n, [](int i) { return 2.0 * i + 1; }));
}

// `target teams` with a reduction over a block of `distribute` loops
// (BabelStream's dot, written as a region).
static void target_teams_region_reduction() {
  std::vector<double> va(n);
  double *a = va.data();
  double sum = 0;
#pragma omp target teams map(tofrom: a[0:n]) map(tofrom: sum) reduction(+: sum)
  {
#pragma omp distribute parallel for
    for (int i = 0; i < n; ++i)
      a[i] = i % 10;
#pragma omp distribute parallel for reduction(+: sum)
    for (int i = 0; i < n; ++i)
      sum += a[i];
  }
  double want = 0;
  for (int i = 0; i < n; ++i)
    want += i % 10;
  check("target teams region with a reduction",
        (sum != want) + wrong_values(a, n, [](int i) { return double(i % 10); }));
}

// A parallel region: its private and reduction clauses go to the loops that
// use the variables; the `single` statement runs once.
static void parallel_region_private_reduction() {
  std::vector<double> vc(n);
  double *c = vc.data();
  double t = -1, total = 0;
  int first = 0;
#pragma omp parallel private(t) reduction(+: total)
  {
#pragma omp single
    first = 7;
#pragma omp for
    for (int i = 0; i < n; ++i) {
      t = i * 0.5;
      c[i] = t + t;
    }
#pragma omp for
    for (int i = 0; i < n; ++i)
      total += c[i];
  }
  check("parallel region: private, reduction, single",
        (first != 7) + (total != n * (n - 1) / 2.0) + wrong_values(c, n, [](int i) { return double(i); }));
}

// `target parallel` with a firstprivate scalar and an `omp for` inside.
static void target_parallel_firstprivate() {
  std::vector<double> vb(n, 0);
  double *b = vb.data();
  double shift = 0.25;
#pragma omp target parallel firstprivate(shift) map(tofrom: b[0:n])
  {
#pragma omp for
    for (int i = 0; i < n; ++i)
      b[i] = i + shift;
  }
  check("target parallel region, firstprivate", wrong_values(b, n, [](int i) { return i + 0.25; }));
}

int main() {
  data_to_from();
  data_tofrom_two_loops();
  data_alloc_scratch();
  loop_map_on_entered_data();
  loop_map_on_region_data();
  enter_exit_across_functions();
  enter_twice_exit_twice();
  region_over_entered_released_inside();
  region_over_entered_exit_after();
  entered_inside_region();
  exit_delete();
  zero_length_sections();
  short_section_in_region();
  scalar_in_target_data();
  update_mid_region();
  nested_region_subsection();
  update_to_entered();
  exit_subsection();
  loop_from_map_reads_present();
  vector_enter_exit();
  target_region_two_loops();
  target_then_loop_directive();
  target_teams_region_reduction();
  parallel_region_private_reduction();
  target_parallel_firstprivate();
  std::printf("omp data environment: %d cases, %d failed\n", cases, failed);
  return 0;
}
