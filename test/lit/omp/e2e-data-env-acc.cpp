// OpenACC data directives in the style of the OpenACC validation suite's data
// tests: `data` regions, `enter/exit data` (with `finalize`), loops' own data
// clauses on present data, `update`, zero-length and short sections and
// scalars, each case checking what the host sees once the data has come back
// and printing PASS or FAIL. Every case gives the same answer on a
// shared-memory host and on a device with memory of its own, so the serial
// program must print PASS everywhere, and the rewritten one the same on CPU
// threads, one and three simulated devices and the CUDA stand-in.
// RUN: %cxx -Wno-unknown-pragmas %s -o %t.serial && %t.serial | FileCheck %s --check-prefix=SERIAL --implicit-check-not=FAIL
// RUN: %e2e --out %t --accept acc --devices "cpu;sim:1;sim:3" %s | FileCheck %s
// SERIAL-COUNT-19: PASS
// SERIAL: acc data environment: 19 cases, 0 failed
// CHECK: sim:3: e2e-data-env-acc.cpp:{{[0-9]+}} mode=kernel backend=sim
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

static int wrong_values(const float *v, int n, float (*want)(int)) {
  int bad = 0;
  for (int i = 0; i < n; ++i)
    bad += v[i] != want(i);
  return bad;
}

const int n = 1000;

static void data_copyin_copyout() {
  std::vector<float> va(n), vb(n, -1);
  float *a = va.data(), *b = vb.data();
  for (int i = 0; i < n; ++i)
    a[i] = float(i);
#pragma acc data copyin(a[0:n]) copyout(b[0:n])
  {
#pragma acc parallel loop
    for (int i = 0; i < n; ++i)
      b[i] = a[i] + 1;
  }
  check("data copyin copyout", wrong_values(b, n, [](int i) { return i + 1.0f; }));
}

static void data_copy_two_loops() {
  std::vector<float> vb(n, 2);
  float *b = vb.data();
#pragma acc data copy(b[0:n])
  {
#pragma acc parallel loop
    for (int i = 0; i < n; ++i)
      b[i] *= 2;
#pragma acc parallel loop
    for (int i = 0; i < n; ++i)
      b[i] += i;
  }
  check("data copy, two loops", wrong_values(b, n, [](int i) { return 4.0f + i; }));
}

static void data_create_scratch() {
  std::vector<float> vt(n), vc(n);
  float *t = vt.data(), *c = vc.data();
#pragma acc data create(t[0:n]) copyout(c[0:n])
  {
#pragma acc parallel loop
    for (int i = 0; i < n; ++i)
      t[i] = float(3 * i);
#pragma acc parallel loop
    for (int i = 0; i < n; ++i)
      c[i] = t[i] - 1;
  }
  check("data create scratch", wrong_values(c, n, [](int i) { return 3.0f * i - 1; }));
}

static void enter_copyin_exit_copyout() {
  std::vector<float> vb(n, 1);
  float *b = vb.data();
#pragma acc enter data copyin(b[0:n])
#pragma acc parallel loop
  for (int i = 0; i < n; ++i)
    b[i] += i;
#pragma acc exit data copyout(b[0:n])
  check("enter data copyin, exit data copyout", wrong_values(b, n, [](int i) { return 1.0f + i; }));
}

static void enter_create_exit_copyout() {
  std::vector<float> vb(n, -5);
  float *b = vb.data();
#pragma acc enter data create(b[0:n])
#pragma acc parallel loop
  for (int i = 0; i < n; ++i)
    b[i] = float(i * i % 97);
#pragma acc exit data copyout(b[0:n])
  check("enter data create, exit data copyout", wrong_values(b, n, [](int i) { return float(i * i % 97); }));
}

// Entered twice; `exit data copyout finalize` drops both references and
// still copies out.
static void exit_copyout_finalize() {
  std::vector<float> vc(n, 0);
  float *c = vc.data();
#pragma acc enter data copyin(c[0:n])
#pragma acc enter data copyin(c[0:n])
#pragma acc parallel loop
  for (int i = 0; i < n; ++i)
    c[i] = float(i);
#pragma acc exit data copyout(c[0:n]) finalize
  check("exit data copyout finalize copies out", wrong_values(c, n, [](int i) { return float(i); }));
}

// `exit data delete finalize` after the results went elsewhere; entering
// again afterwards starts afresh.
static void exit_delete_finalize() {
  std::vector<float> vc(n), vd(n, 0);
  float *c = vc.data(), *d = vd.data();
  for (int i = 0; i < n; ++i)
    c[i] = float(i % 9);
#pragma acc enter data copyin(c[0:n])
#pragma acc enter data copyin(c[0:n])
#pragma acc parallel loop copyout(d[0:n])
  for (int i = 0; i < n; ++i)
    d[i] = c[i] * 2;
#pragma acc exit data delete(c[0:n]) finalize
#pragma acc enter data copyin(c[0:n])
#pragma acc parallel loop
  for (int i = 0; i < n; ++i)
    c[i] += d[i];
#pragma acc exit data copyout(c[0:n])
  check("exit data delete finalize, then enter again",
        wrong_values(c, n, [](int i) { return float(i % 9) * 3; }) + wrong_values(d, n, [](int i) { return float(i % 9) * 2; }));
}

// A loop's own copyin / create on data a `data copy` region holds: nothing
// is copied, the loop writes the present copy, and the region brings it back.
static void loop_clauses_on_present_data() {
  std::vector<float> vd(n, 0), ve(n, 0);
  float *d = vd.data(), *e = ve.data();
#pragma acc data copy(d[0:n], e[0:n])
  {
#pragma acc parallel loop copyin(d[0:n])
    for (int i = 0; i < n; ++i)
      d[i] = float(3 * i);
#pragma acc parallel loop create(e[0:n])
    for (int i = 0; i < n; ++i)
      e[i] = d[i] + 1;
  }
  check("loop copyin/create on present data",
        wrong_values(d, n, [](int i) { return 3.0f * i; }) + wrong_values(e, n, [](int i) { return 3.0f * i + 1; }));
}

// A data region over data already entered, deleted inside: the region's end
// is the last reference, and its copyout brings the values back.
static void region_over_entered_deleted_inside() {
  std::vector<float> vc(n, -1);
  float *c = vc.data();
#pragma acc enter data create(c[0:n])
#pragma acc data copyout(c[0:n])
  {
#pragma acc parallel loop
    for (int i = 0; i < n; ++i)
      c[i] = float(7 * i);
#pragma acc exit data delete(c[0:n])
  }
  check("data region over entered data, deleted inside", wrong_values(c, n, [](int i) { return 7.0f * i; }));
}

// A scalar in a data clause, combined by a reduction inside.
static void scalar_in_data_copy() {
  std::vector<float> va(n);
  float *a = va.data();
  for (int i = 0; i < n; ++i)
    a[i] = float((i * 37) % 101);
  float biggest = 0;
#pragma acc data copy(biggest) copyin(a[0:n])
  {
#pragma acc parallel loop reduction(max: biggest)
    for (int i = 0; i < n; ++i)
      biggest = a[i] > biggest ? a[i] : biggest;
  }
  check("scalar in data copy(max)", biggest != 100.0f);
}

static void update_self_and_device() {
  std::vector<float> vb(n, 0);
  float *b = vb.data();
  float seen = -1;
#pragma acc data copy(b[0:n])
  {
#pragma acc parallel loop
    for (int i = 0; i < n; ++i)
      b[i] = float(i);
#pragma acc update self(b[0:n])
    seen = b[n / 2];
    b[n / 2] = 0;
#pragma acc update device(b[n / 2:1])
#pragma acc parallel loop
    for (int i = 0; i < n; ++i)
      b[i] *= 2;
  }
  check("update self / update device", (seen != n / 2) + wrong_values(b, n, [](int i) {
                                          return i == n / 2 ? 0.0f : 2.0f * i;
                                        }));
}

// Zero-length sections map nothing; a loop's copy(c[0:0]) inside a region
// of all of c uses the present c.
static void zero_length_sections() {
  std::vector<float> vc(n, 1);
  float *c = vc.data();
#pragma acc enter data copyin(c[0:0])
#pragma acc data copy(c[0:n])
  {
#pragma acc parallel loop copy(c[0:0])
    for (int i = 0; i < n; ++i)
      c[i] += i;
  }
#pragma acc exit data copyout(c[0:0])
  check("zero-length sections", wrong_values(c, n, [](int i) { return 1.0f + i; }));
}

// A short section c[0:10] of a larger array inside a region.
static void short_section_in_region() {
  std::vector<float> vc(n, 0);
  float *c = vc.data();
#pragma acc data copy(c[0:n])
  {
#pragma acc parallel loop
    for (int i = 0; i < n; ++i)
      c[i] = 1;
#pragma acc parallel loop copy(c[0:10])
    for (int i = 0; i < 10; ++i)
      c[i] += 5;
  }
  check("short section of an array in a region", wrong_values(c, n, [](int i) { return i < 10 ? 6.0f : 1.0f; }));
}

// present_or_copy / pcopyin on data that is present, and on data that is not.
static void present_or_clauses() {
  std::vector<float> va(n, 2), vb(n, 0);
  float *a = va.data(), *b = vb.data();
#pragma acc data copyin(a[0:n])
  {
#pragma acc parallel loop pcopyin(a[0:n]) present_or_copy(b[0:n])
    for (int i = 0; i < n; ++i)
      b[i] = a[i] * i;
  }
  check("pcopyin / present_or_copy", wrong_values(b, n, [](int i) { return 2.0f * i; }));
}

// Nested data regions over the same array: the inner adds a reference only.
static void nested_data_regions() {
  std::vector<float> vb(n, 0);
  float *b = vb.data();
#pragma acc data copy(b[0:n])
  {
#pragma acc data copyin(b[0:n])
    {
#pragma acc parallel loop
      for (int i = 0; i < n; ++i)
        b[i] = float(i % 5);
    }
#pragma acc parallel loop
    for (int i = 0; i < n; ++i)
      b[i] += 1;
  }
  check("nested data regions", wrong_values(b, n, [](int i) { return float(i % 5) + 1; }));
}

// A std::vector entered whole; copyout with finalize after two entries.
static void vector_enter_finalize() {
  std::vector<float> v(n, 1);
#pragma acc enter data copyin(v)
#pragma acc enter data create(v)
#pragma acc parallel loop
  for (int i = 0; i < n; ++i)
    v[i] = v[i] + float(i);
#pragma acc exit data copyout(v) finalize
  check("std::vector entered twice, copyout finalize", wrong_values(v.data(), n, [](int i) { return 1.0f + i; }));
}

// Compute regions that only wrap loops, translated loop by loop: `parallel`
// with its copy clauses and a loop reduction; `kernels` whose loops are
// parallel where independent, in order where not.
static void parallel_region_loops() {
  std::vector<float> va(n), vb(n, -1);
  float *a = va.data(), *b = vb.data();
  for (int i = 0; i < n; ++i)
    a[i] = float(i % 7);
  float sum = 0;
#pragma acc parallel copyin(a[0:n]) copyout(b[0:n]) copy(sum)
  {
#pragma acc loop gang vector
    for (int i = 0; i < n; ++i)
      b[i] = 2 * a[i];
#pragma acc loop reduction(+: sum)
    for (int i = 0; i < n; ++i)
      sum += a[i];
  }
  float want = 0;
  for (int i = 0; i < n; ++i)
    want += float(i % 7);
  check("parallel region: two loops, a reduction", (sum != want) + wrong_values(b, n, [](int i) {
                                                     return 2.0f * float(i % 7);
                                                   }));
}

static void kernels_region_loops() {
  std::vector<float> vb(n, 1);
  float *b = vb.data();
#pragma acc kernels copy(b[0:n])
  {
#pragma acc loop
    for (int i = 1; i < n; ++i)
      b[i] = b[i - 1] + 1;
#pragma acc loop independent
    for (int i = 0; i < n; ++i)
      b[i] *= 2;
  }
  check("kernels region: a dependent loop, then an independent one",
        wrong_values(b, n, [](int i) { return 2.0f * (i + 1); }));
}

// A compute region inside a data region, the validation suite's layout.
static void parallel_region_in_data_region() {
  std::vector<float> va(n), vc(n, 0);
  float *a = va.data(), *c = vc.data();
  for (int i = 0; i < n; ++i)
    a[i] = float(i);
#pragma acc data copyin(a[0:n]) copy(c[0:n])
  {
#pragma acc parallel
    {
#pragma acc loop
      for (int i = 0; i < n; ++i)
        c[i] = a[i] + 1;
    }
  }
  check("parallel region inside a data region", wrong_values(c, n, [](int i) { return i + 1.0f; }));
}

int main() {
  data_copyin_copyout();
  data_copy_two_loops();
  data_create_scratch();
  enter_copyin_exit_copyout();
  enter_create_exit_copyout();
  exit_copyout_finalize();
  exit_delete_finalize();
  loop_clauses_on_present_data();
  region_over_entered_deleted_inside();
  scalar_in_data_copy();
  update_self_and_device();
  zero_length_sections();
  short_section_in_region();
  present_or_clauses();
  nested_data_regions();
  vector_enter_finalize();
  parallel_region_loops();
  kernels_region_loops();
  parallel_region_in_data_region();
  std::printf("acc data environment: %d cases, %d failed\n", cases, failed);
  return 0;
}
