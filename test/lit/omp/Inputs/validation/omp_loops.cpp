// OpenMP loop, data and reduction tests written the way the OpenMP
// validation suite writes its tests (this corpus's own code): every test
// starts from the offloading probe, computes on arrays of VV_N elements under
// a loop directive with data clauses, and checks the values the host sees
// against a serial computation. Run by validation-style.test; the tests a
// line `// not translated:` marks are ones gpu-autopar refuses (counted, as
// the 90% bar allows).
#include "vv.h"
#include <omp.h>

// The suites' offloading probe: a target region around host code, no loop.
static int vv_offloading() {
  int offloading = 0;
#pragma omp target map(from: offloading)
  { offloading = !omp_is_initial_device(); }
  return offloading;
}

static int test_target_teams_distribute_parallel_for_map_to_from() {
  int a[VV_N], b[VV_N], c[VV_N], errors = 0;
  for (int i = 0; i < VV_N; ++i) {
    a[i] = i;
    b[i] = 2 * i;
    c[i] = -1;
  }
#pragma omp target teams distribute parallel for map(to: a[0:VV_N], b[0:VV_N]) map(from: c[0:VV_N])
  for (int i = 0; i < VV_N; ++i)
    c[i] = a[i] + b[i];
  for (int i = 0; i < VV_N; ++i)
    VV_ERROR_IF(errors, c[i] != 3 * i);
  return errors;
}

static int test_target_teams_distribute_parallel_for_map_tofrom() {
  int a[VV_N], errors = 0;
  for (int i = 0; i < VV_N; ++i)
    a[i] = i;
#pragma omp target teams distribute parallel for map(tofrom: a[0:VV_N])
  for (int i = 0; i < VV_N; ++i)
    a[i] += 10;
  for (int i = 0; i < VV_N; ++i)
    VV_ERROR_IF(errors, a[i] != i + 10);
  return errors;
}

static int test_target_teams_distribute_parallel_for_implicit_map() {
  double x[VV_N], y[VV_N], errors = 0;
  const double alpha = 2.5;
  for (int i = 0; i < VV_N; ++i) {
    x[i] = i * 0.5;
    y[i] = 1;
  }
#pragma omp target teams distribute parallel for
  for (int i = 0; i < VV_N; ++i)
    y[i] = alpha * x[i] + y[i];
  for (int i = 0; i < VV_N; ++i)
    VV_ERROR_IF(errors, !vv_close(y[i], alpha * i * 0.5 + 1));
  return errors;
}

static int test_target_teams_distribute_map_pointer_section() {
  double *a = (double *)malloc(sizeof(double) * VV_N);
  double *b = (double *)malloc(sizeof(double) * VV_N);
  int errors = 0;
  for (int i = 0; i < VV_N; ++i)
    a[i] = i + 0.25;
#pragma omp target teams distribute map(to: a[:VV_N]) map(from: b[:VV_N])
  for (int i = 0; i < VV_N; ++i)
    b[i] = a[i] * a[i];
  for (int i = 0; i < VV_N; ++i)
    VV_ERROR_IF(errors, !vv_close(b[i], (i + 0.25) * (i + 0.25)));
  free(a);
  free(b);
  return errors;
}

static int test_target_parallel_for_map() {
  int a[VV_N], errors = 0;
#pragma omp target parallel for map(from: a[0:VV_N])
  for (int i = 0; i < VV_N; ++i)
    a[i] = i % 17;
  for (int i = 0; i < VV_N; ++i)
    VV_ERROR_IF(errors, a[i] != i % 17);
  return errors;
}

static int test_parallel_for_schedule_static_chunk() {
  int a[VV_N], errors = 0;
#pragma omp parallel for schedule(static, 16)
  for (int i = 0; i < VV_N; ++i)
    a[i] = 3 * i + 1;
  for (int i = 0; i < VV_N; ++i)
    VV_ERROR_IF(errors, a[i] != 3 * i + 1);
  return errors;
}

static int test_parallel_for_schedule_dynamic() {
  double a[VV_N], errors = 0;
#pragma omp parallel for schedule(dynamic, 8)
  for (int i = 0; i < VV_N; ++i) {
    double s = 0;
    for (int k = 0; k <= i % 32; ++k)
      s += k;
    a[i] = s;
  }
  for (int i = 0; i < VV_N; ++i)
    VV_ERROR_IF(errors, a[i] != (i % 32) * (i % 32 + 1) / 2);
  return errors;
}

static int test_parallel_for_schedule_guided() {
  int a[VV_N], errors = 0;
#pragma omp parallel for schedule(guided)
  for (int i = 0; i < VV_N; ++i)
    a[i] = VV_N - i;
  for (int i = 0; i < VV_N; ++i)
    VV_ERROR_IF(errors, a[i] != VV_N - i);
  return errors;
}

static int test_target_teams_distribute_parallel_for_collapse2() {
  const int rows = 32, cols = 32;
  int a[32][32], errors = 0;
#pragma omp target teams distribute parallel for collapse(2) map(from: a)
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j)
      a[i][j] = i * cols + j;
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j)
      VV_ERROR_IF(errors, a[i][j] != i * cols + j);
  return errors;
}

static int test_parallel_for_collapse3() {
  static double a[8][16][8];
  int errors = 0;
#pragma omp parallel for collapse(3)
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 16; ++j)
      for (int k = 0; k < 8; ++k)
        a[i][j][k] = i + 0.5 * j + 0.25 * k;
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 16; ++j)
      for (int k = 0; k < 8; ++k)
        VV_ERROR_IF(errors, a[i][j][k] != i + 0.5 * j + 0.25 * k);
  return errors;
}

static int test_target_teams_distribute_parallel_for_private() {
  int a[VV_N], b[VV_N], c[VV_N], errors = 0;
  int scratch = 0;
  for (int i = 0; i < VV_N; ++i) {
    a[i] = i;
    b[i] = i % 5;
  }
#pragma omp target teams distribute parallel for private(scratch) map(to: a[0:VV_N], b[0:VV_N]) map(from: c[0:VV_N])
  for (int i = 0; i < VV_N; ++i) {
    scratch = a[i] * b[i];
    c[i] = scratch + 1;
  }
  for (int i = 0; i < VV_N; ++i)
    VV_ERROR_IF(errors, c[i] != i * (i % 5) + 1);
  return errors;
}

static int test_target_teams_distribute_parallel_for_firstprivate() {
  int a[VV_N], errors = 0;
  int offset = 7, scale = 3;
#pragma omp target teams distribute parallel for firstprivate(offset, scale) map(from: a[0:VV_N])
  for (int i = 0; i < VV_N; ++i)
    a[i] = scale * i + offset;
  for (int i = 0; i < VV_N; ++i)
    VV_ERROR_IF(errors, a[i] != 3 * i + 7);
  VV_ERROR_IF(errors, offset != 7);
  return errors;
}

static int test_parallel_for_lastprivate() {
  int a[VV_N], errors = 0;
  int last = -1;
#pragma omp parallel for lastprivate(last)
  for (int i = 0; i < VV_N; ++i) {
    last = 2 * i;
    a[i] = last;
  }
  VV_ERROR_IF(errors, last != 2 * (VV_N - 1));
  for (int i = 0; i < VV_N; ++i)
    VV_ERROR_IF(errors, a[i] != 2 * i);
  return errors;
}

static int test_parallel_for_private_loop_variable() {
  int a[VV_N], errors = 0;
  int i;
#pragma omp parallel for private(i)
  for (i = 0; i < VV_N; i++)
    a[i] = i * i % 101;
  for (i = 0; i < VV_N; i++)
    VV_ERROR_IF(errors, a[i] != i * i % 101);
  return errors;
}

static int test_target_teams_distribute_reduction_add() {
  int a[VV_N], b[VV_N], errors = 0;
  int total = 0, expected = 0;
  for (int i = 0; i < VV_N; ++i) {
    a[i] = i % 9;
    b[i] = i % 4;
    expected += a[i] + b[i];
  }
#pragma omp target teams distribute reduction(+: total) map(to: a[0:VV_N], b[0:VV_N]) map(tofrom: total)
  for (int i = 0; i < VV_N; ++i)
    total += a[i] + b[i];
  VV_ERROR_IF(errors, total != expected);
  return errors;
}

static int test_target_teams_distribute_parallel_for_reduction_subtract() {
  int a[VV_N], errors = 0;
  int total = 1000000, expected = 1000000;
  for (int i = 0; i < VV_N; ++i) {
    a[i] = i % 13;
    expected -= a[i];
  }
#pragma omp target teams distribute parallel for reduction(-: total) map(to: a[0:VV_N])
  for (int i = 0; i < VV_N; ++i)
    total -= a[i];
  VV_ERROR_IF(errors, total != expected);
  return errors;
}

static int test_parallel_for_reduction_multiply() {
  double factors[VV_N], errors = 0;
  double product = 1, expected = 1;
  for (int i = 0; i < VV_N; ++i) {
    factors[i] = (i % 64 == 0) ? 2 : 1;
    expected *= factors[i];
  }
#pragma omp parallel for reduction(*: product)
  for (int i = 0; i < VV_N; ++i)
    product *= factors[i];
  VV_ERROR_IF(errors, product != expected);
  return errors;
}

static int test_target_teams_distribute_parallel_for_reduction_double() {
  double x[VV_N], y[VV_N], errors = 0;
  double dot = 0, expected = 0;
  for (int i = 0; i < VV_N; ++i) {
    x[i] = 1.0 / (i + 1);
    y[i] = i % 7 - 3;
    expected += x[i] * y[i];
  }
#pragma omp target teams distribute parallel for map(to: x[0:VV_N], y[0:VV_N]) map(tofrom: dot) reduction(+: dot)
  for (int i = 0; i < VV_N; ++i)
    dot += x[i] * y[i];
  VV_ERROR_IF(errors, !vv_close(dot, expected));
  return errors;
}

static int test_target_teams_distribute_parallel_for_reduction_max_min() {
  int a[VV_N], errors = 0;
  int biggest = -1, smallest = 1 << 30;
  for (int i = 0; i < VV_N; ++i)
    a[i] = (i * 7919) % 4093;
#pragma omp target teams distribute parallel for reduction(max: biggest) reduction(min: smallest) map(to: a[0:VV_N])
  for (int i = 0; i < VV_N; ++i) {
    biggest = a[i] > biggest ? a[i] : biggest;
    smallest = a[i] < smallest ? a[i] : smallest;
  }
  int want_max = -1, want_min = 1 << 30;
  for (int i = 0; i < VV_N; ++i) {
    want_max = a[i] > want_max ? a[i] : want_max;
    want_min = a[i] < want_min ? a[i] : want_min;
  }
  VV_ERROR_IF(errors, biggest != want_max);
  VV_ERROR_IF(errors, smallest != want_min);
  return errors;
}

static int test_parallel_for_reduction_bitand_bitor_bitxor() {
  unsigned a[VV_N], errors = 0;
  unsigned all = ~0u, any = 0, parity = 0;
  for (int i = 0; i < VV_N; ++i)
    a[i] = 0xF0u | (1u << (i % 8));
#pragma omp parallel for reduction(&: all) reduction(|: any) reduction(^: parity)
  for (int i = 0; i < VV_N; ++i) {
    all &= a[i];
    any |= a[i];
    parity ^= a[i];
  }
  unsigned want_all = ~0u, want_any = 0, want_parity = 0;
  for (int i = 0; i < VV_N; ++i) {
    want_all &= a[i];
    want_any |= a[i];
    want_parity ^= a[i];
  }
  VV_ERROR_IF(errors, all != want_all);
  VV_ERROR_IF(errors, any != want_any);
  VV_ERROR_IF(errors, parity != want_parity);
  return errors;
}

static int test_target_teams_distribute_parallel_for_reduction_logical() {
  int a[VV_N], errors = 0;
  int all_positive = 1, some_big = 0;
  for (int i = 0; i < VV_N; ++i)
    a[i] = 1 + i % 50;
#pragma omp target teams distribute parallel for reduction(&&: all_positive) reduction(||: some_big) map(to: a[0:VV_N])
  for (int i = 0; i < VV_N; ++i) {
    all_positive = all_positive && a[i] > 0;
    some_big = some_big || a[i] > 49;
  }
  VV_ERROR_IF(errors, all_positive != 1);
  VV_ERROR_IF(errors, some_big != 1);
  return errors;
}

static int test_target_teams_loop() {
  int a[VV_N], errors = 0;
#pragma omp target teams loop map(from: a[0:VV_N])
  for (int i = 0; i < VV_N; ++i)
    a[i] = i ^ 5;
  for (int i = 0; i < VV_N; ++i)
    VV_ERROR_IF(errors, a[i] != (i ^ 5));
  return errors;
}

static int test_parallel_for_simd() {
  float a[VV_N], b[VV_N];
  int errors = 0;
  for (int i = 0; i < VV_N; ++i)
    a[i] = i * 0.5f;
#pragma omp parallel for simd
  for (int i = 0; i < VV_N; ++i)
    b[i] = a[i] * 4.0f;
  for (int i = 0; i < VV_N; ++i)
    VV_ERROR_IF(errors, b[i] != i * 2.0f);
  return errors;
}

static int test_target_teams_distribute_parallel_for_simd_inner_simd() {
  const int rows = 64, len = 16;
  double m[64 * 16], row_sum[64], errors = 0;
  for (int i = 0; i < rows * len; ++i)
    m[i] = i % 11;
#pragma omp target teams distribute parallel for map(to: m[0:rows * len]) map(from: row_sum[0:rows])
  for (int r = 0; r < rows; ++r) {
    double s = 0;
#pragma omp simd reduction(+: s)
    for (int k = 0; k < len; ++k)
      s += m[r * len + k];
    row_sum[r] = s;
  }
  for (int r = 0; r < rows; ++r) {
    double s = 0;
    for (int k = 0; k < len; ++k)
      s += m[r * len + k];
    VV_ERROR_IF(errors, row_sum[r] != s);
  }
  return errors;
}

static int test_target_region_teams_distribute_parallel_for() {
  int a[VV_N], b[VV_N], errors = 0;
  for (int i = 0; i < VV_N; ++i)
    a[i] = i;
#pragma omp target map(to: a[0:VV_N]) map(from: b[0:VV_N])
#pragma omp teams distribute parallel for
  for (int i = 0; i < VV_N; ++i)
    b[i] = a[i] * 3;
  for (int i = 0; i < VV_N; ++i)
    VV_ERROR_IF(errors, b[i] != 3 * i);
  return errors;
}

static int test_target_region_two_loops() {
  double a[VV_N], b[VV_N], errors = 0;
  double total = 0;
  for (int i = 0; i < VV_N; ++i)
    a[i] = i % 10;
#pragma omp target map(to: a[0:VV_N]) map(alloc: b[0:VV_N]) map(tofrom: total)
  {
#pragma omp teams distribute parallel for
    for (int i = 0; i < VV_N; ++i)
      b[i] = 2 * a[i];
#pragma omp teams distribute parallel for reduction(+: total)
    for (int i = 0; i < VV_N; ++i)
      total += b[i];
  }
  double want = 0;
  for (int i = 0; i < VV_N; ++i)
    want += 2 * (i % 10);
  VV_ERROR_IF(errors, total != want);
  return errors;
}

static int test_parallel_region_for_reduction() {
  int a[VV_N], errors = 0;
  long sum = 0, want = 0;
  for (int i = 0; i < VV_N; ++i) {
    a[i] = i % 23;
    want += a[i];
  }
#pragma omp parallel num_threads(4)
  {
#pragma omp for reduction(+: sum)
    for (int i = 0; i < VV_N; ++i)
      sum += a[i];
  }
  VV_ERROR_IF(errors, sum != want);
  return errors;
}

static int test_target_data_map_two_kernels() {
  double a[VV_N], b[VV_N], c[VV_N], errors = 0;
  for (int i = 0; i < VV_N; ++i)
    a[i] = i;
#pragma omp target data map(to: a[0:VV_N]) map(alloc: b[0:VV_N]) map(from: c[0:VV_N])
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < VV_N; ++i)
      b[i] = a[i] + 1;
#pragma omp target teams distribute parallel for
    for (int i = 0; i < VV_N; ++i)
      c[i] = b[i] * b[i];
  }
  for (int i = 0; i < VV_N; ++i)
    VV_ERROR_IF(errors, c[i] != (i + 1.0) * (i + 1.0));
  return errors;
}

static int test_target_data_update_from() {
  int a[VV_N], partial[VV_N], errors = 0;
  for (int i = 0; i < VV_N; ++i)
    a[i] = 1;
#pragma omp target data map(tofrom: a[0:VV_N])
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < VV_N; ++i)
      a[i] += i;
#pragma omp target update from(a[0:VV_N])
    for (int i = 0; i < VV_N; ++i)
      partial[i] = a[i];
#pragma omp target teams distribute parallel for
    for (int i = 0; i < VV_N; ++i)
      a[i] *= 2;
  }
  for (int i = 0; i < VV_N; ++i) {
    VV_ERROR_IF(errors, partial[i] != 1 + i);
    VV_ERROR_IF(errors, a[i] != 2 * (1 + i));
  }
  return errors;
}

static int test_target_data_update_to() {
  int a[VV_N], b[VV_N], errors = 0;
  for (int i = 0; i < VV_N; ++i)
    a[i] = i;
#pragma omp target data map(to: a[0:VV_N]) map(from: b[0:VV_N])
  {
    for (int i = 0; i < VV_N; ++i)
      a[i] = 5 * i;
#pragma omp target update to(a[0:VV_N])
#pragma omp target teams distribute parallel for
    for (int i = 0; i < VV_N; ++i)
      b[i] = a[i] + 1;
  }
  for (int i = 0; i < VV_N; ++i)
    VV_ERROR_IF(errors, b[i] != 5 * i + 1);
  return errors;
}

static int test_target_enter_exit_data() {
  double *a = (double *)malloc(VV_N * sizeof(double));
  int errors = 0;
  for (int i = 0; i < VV_N; ++i)
    a[i] = i;
#pragma omp target enter data map(to: a[0:VV_N])
#pragma omp target teams distribute parallel for
  for (int i = 0; i < VV_N; ++i)
    a[i] = a[i] * 0.5;
#pragma omp target exit data map(from: a[0:VV_N])
  for (int i = 0; i < VV_N; ++i)
    VV_ERROR_IF(errors, a[i] != i * 0.5);
  free(a);
  return errors;
}

static int test_target_enter_data_alloc_exit_delete() {
  int a[VV_N], b[VV_N], errors = 0;
  for (int i = 0; i < VV_N; ++i)
    a[i] = i + 3;
#pragma omp target enter data map(to: a[0:VV_N]) map(alloc: b[0:VV_N])
#pragma omp target teams distribute parallel for
  for (int i = 0; i < VV_N; ++i)
    b[i] = a[i] - 3;
#pragma omp target update from(b[0:VV_N])
#pragma omp target exit data map(delete: a[0:VV_N], b[0:VV_N])
  for (int i = 0; i < VV_N; ++i)
    VV_ERROR_IF(errors, b[i] != i);
  return errors;
}

// Entered in one function, computed on in another, left in a third.
static void vv_enter(double *d) {
#pragma omp target enter data map(to: d[0:VV_N])
}
static void vv_scale(double *d, double f) {
#pragma omp target teams distribute parallel for
  for (int i = 0; i < VV_N; ++i)
    d[i] *= f;
}
static void vv_exit(double *d) {
#pragma omp target exit data map(from: d[0:VV_N])
}

static int test_target_enter_data_across_functions() {
  double d[VV_N];
  int errors = 0;
  for (int i = 0; i < VV_N; ++i)
    d[i] = i;
  vv_enter(d);
  vv_scale(d, 3);
  vv_scale(d, 0.5);
  vv_exit(d);
  for (int i = 0; i < VV_N; ++i)
    VV_ERROR_IF(errors, d[i] != 1.5 * i);
  return errors;
}

static int test_target_data_scalar_map() {
  int a[VV_N], errors = 0;
  int count = 0;
  for (int i = 0; i < VV_N; ++i)
    a[i] = i % 3 == 0;
#pragma omp target data map(to: a[0:VV_N]) map(tofrom: count)
  {
#pragma omp target teams distribute parallel for reduction(+: count)
    for (int i = 0; i < VV_N; ++i)
      count += a[i];
  }
  VV_ERROR_IF(errors, count != (VV_N + 2) / 3);
  return errors;
}

static int test_target_teams_distribute_parallel_for_clauses_ignored() {
  int a[VV_N], errors = 0;
#pragma omp target teams distribute parallel for num_teams(8) thread_limit(64) dist_schedule(static) map(from: a[0:VV_N]) nowait
  for (int i = 0; i < VV_N; ++i)
    a[i] = i + 1;
#pragma omp taskwait
  for (int i = 0; i < VV_N; ++i)
    VV_ERROR_IF(errors, a[i] != i + 1);
  return errors;
}

static int test_target_teams_distribute_parallel_for_depend() {
  int a[VV_N], b[VV_N], errors = 0;
#pragma omp target teams distribute parallel for map(from: a[0:VV_N]) depend(out: a) nowait
  for (int i = 0; i < VV_N; ++i)
    a[i] = i;
#pragma omp target teams distribute parallel for map(to: a[0:VV_N]) map(from: b[0:VV_N]) depend(in: a) nowait
  for (int i = 0; i < VV_N; ++i)
    b[i] = a[i] + 1;
#pragma omp taskwait
  for (int i = 0; i < VV_N; ++i)
    VV_ERROR_IF(errors, b[i] != i + 1);
  return errors;
}

static int test_target_teams_distribute_parallel_for_struct_member_map() {
  struct Grid {
    int len;
    double *val;
  } g;
  double storage[VV_N], errors = 0;
  g.len = VV_N;
  g.val = storage;
  for (int i = 0; i < VV_N; ++i)
    storage[i] = i;
  double sum = 0;
#pragma omp target teams distribute parallel for map(to: g.val[:g.len]) reduction(+: sum)
  for (int i = 0; i < VV_N; ++i)
    sum += g.val[i];
  VV_ERROR_IF(errors, sum != VV_N * (VV_N - 1) / 2.0);
  return errors;
}

static int test_target_teams_distribute_parallel_for_if() {
  // not translated: 'if' has no gpu_autopar equivalent
  int a[VV_N], errors = 0;
#pragma omp target teams distribute parallel for if(target: VV_N > 512) map(from: a[0:VV_N])
  for (int i = 0; i < VV_N; ++i)
    a[i] = 2 * i;
  for (int i = 0; i < VV_N; ++i)
    VV_ERROR_IF(errors, a[i] != 2 * i);
  return errors;
}

static int test_target_teams_distribute_parallel_for_defaultmap() {
  // not translated: 'defaultmap' has no gpu_autopar equivalent
  int a[VV_N], errors = 0;
  int scalar = 4;
#pragma omp target teams distribute parallel for defaultmap(tofrom: scalar) map(from: a[0:VV_N])
  for (int i = 0; i < VV_N; ++i)
    a[i] = scalar * i;
  for (int i = 0; i < VV_N; ++i)
    VV_ERROR_IF(errors, a[i] != 4 * i);
  return errors;
}

int main() {
  std::printf("offloading: %s\n", vv_offloading() ? "yes" : "no");
  VV_RUN(test_target_teams_distribute_parallel_for_map_to_from);
  VV_RUN(test_target_teams_distribute_parallel_for_map_tofrom);
  VV_RUN(test_target_teams_distribute_parallel_for_implicit_map);
  VV_RUN(test_target_teams_distribute_map_pointer_section);
  VV_RUN(test_target_parallel_for_map);
  VV_RUN(test_parallel_for_schedule_static_chunk);
  VV_RUN(test_parallel_for_schedule_dynamic);
  VV_RUN(test_parallel_for_schedule_guided);
  VV_RUN(test_target_teams_distribute_parallel_for_collapse2);
  VV_RUN(test_parallel_for_collapse3);
  VV_RUN(test_target_teams_distribute_parallel_for_private);
  VV_RUN(test_target_teams_distribute_parallel_for_firstprivate);
  VV_RUN(test_parallel_for_lastprivate);
  VV_RUN(test_parallel_for_private_loop_variable);
  VV_RUN(test_target_teams_distribute_reduction_add);
  VV_RUN(test_target_teams_distribute_parallel_for_reduction_subtract);
  VV_RUN(test_parallel_for_reduction_multiply);
  VV_RUN(test_target_teams_distribute_parallel_for_reduction_double);
  VV_RUN(test_target_teams_distribute_parallel_for_reduction_max_min);
  VV_RUN(test_parallel_for_reduction_bitand_bitor_bitxor);
  VV_RUN(test_target_teams_distribute_parallel_for_reduction_logical);
  VV_RUN(test_target_teams_loop);
  VV_RUN(test_parallel_for_simd);
  VV_RUN(test_target_teams_distribute_parallel_for_simd_inner_simd);
  VV_RUN(test_target_region_teams_distribute_parallel_for);
  VV_RUN(test_target_region_two_loops);
  VV_RUN(test_parallel_region_for_reduction);
  VV_RUN(test_target_data_map_two_kernels);
  VV_RUN(test_target_data_update_from);
  VV_RUN(test_target_data_update_to);
  VV_RUN(test_target_enter_exit_data);
  VV_RUN(test_target_enter_data_alloc_exit_delete);
  VV_RUN(test_target_enter_data_across_functions);
  VV_RUN(test_target_data_scalar_map);
  VV_RUN(test_target_teams_distribute_parallel_for_clauses_ignored);
  VV_RUN(test_target_teams_distribute_parallel_for_depend);
  VV_RUN(test_target_teams_distribute_parallel_for_struct_member_map);
  VV_RUN(test_target_teams_distribute_parallel_for_if);
  VV_RUN(test_target_teams_distribute_parallel_for_defaultmap);
  return vv_summary("OpenMP loop, data and reduction tests");
}
