// OpenACC loop, data and reduction tests written the way the OpenACC
// validation suite writes its tests (this corpus's own code): arrays of n
// values from rand(), compute constructs and loops with data clauses,
// results checked on the host against a serial computation with a tolerance.
// Run by validation-style.test; the tests a line `// not translated:` marks
// are ones gpu-autopar refuses or leaves as written (counted, as the 90% bar
// allows).
#include "vv.h"

typedef double real_t;
static const int n = VV_N;

static real_t *vv_random(int count, real_t scale) {
  real_t *v = new real_t[count];
  for (int x = 0; x < count; ++x)
    v[x] = rand() / (real_t)(RAND_MAX / scale);
  return v;
}

static int test_parallel_loop_copyin_copyout() {
  int err = 0;
  real_t *a = vv_random(n, 10), *b = vv_random(n, 10), *c = new real_t[n];
#pragma acc parallel loop copyin(a[0:n], b[0:n]) copyout(c[0:n])
  for (int x = 0; x < n; ++x)
    c[x] = a[x] + b[x];
  for (int x = 0; x < n; ++x)
    if (fabs(c[x] - (a[x] + b[x])) > VV_PRECISION)
      err += 1;
  delete[] a;
  delete[] b;
  delete[] c;
  return err;
}

static int test_parallel_loop_copy() {
  int err = 0;
  real_t *a = vv_random(n, 10), *host = new real_t[n];
  for (int x = 0; x < n; ++x)
    host[x] = a[x];
#pragma acc parallel loop copy(a[0:n])
  for (int x = 0; x < n; ++x)
    a[x] = 2 * a[x] + 1;
  for (int x = 0; x < n; ++x)
    if (fabs(a[x] - (2 * host[x] + 1)) > VV_PRECISION)
      err += 1;
  delete[] a;
  delete[] host;
  return err;
}

static int test_parallel_loop_create() {
  int err = 0;
  real_t *a = vv_random(n, 10), *tmp = new real_t[n], *c = new real_t[n];
#pragma acc data copyin(a[0:n]) create(tmp[0:n]) copyout(c[0:n])
  {
#pragma acc parallel loop
    for (int x = 0; x < n; ++x)
      tmp[x] = a[x] * a[x];
#pragma acc parallel loop
    for (int x = 0; x < n; ++x)
      c[x] = tmp[x] - a[x];
  }
  for (int x = 0; x < n; ++x)
    if (fabs(c[x] - (a[x] * a[x] - a[x])) > VV_PRECISION)
      err += 1;
  delete[] a;
  delete[] tmp;
  delete[] c;
  return err;
}

static int test_parallel_loop_pcopy_present_or() {
  int err = 0;
  real_t *a = vv_random(n, 10), *b = new real_t[n];
#pragma acc parallel loop pcopyin(a[0:n]) present_or_copyout(b[0:n])
  for (int x = 0; x < n; ++x)
    b[x] = a[x] / 2;
  for (int x = 0; x < n; ++x)
    if (fabs(b[x] - a[x] / 2) > VV_PRECISION)
      err += 1;
  delete[] a;
  delete[] b;
  return err;
}

static int test_parallel_region_loop() {
  int err = 0;
  real_t *a = vv_random(n, 10), *b = vv_random(n, 10), *c = new real_t[n];
#pragma acc data copyin(a[0:n], b[0:n]) copyout(c[0:n])
  {
#pragma acc parallel
    {
#pragma acc loop
      for (int x = 0; x < n; ++x)
        c[x] = a[x] * b[x];
    }
  }
  for (int x = 0; x < n; ++x)
    if (fabs(c[x] - a[x] * b[x]) > VV_PRECISION)
      err += 1;
  delete[] a;
  delete[] b;
  delete[] c;
  return err;
}

static int test_parallel_region_copy_two_loops() {
  int err = 0;
  real_t *a = vv_random(n, 10), *b = new real_t[n], *c = new real_t[n];
#pragma acc parallel copyin(a[0:n]) create(b[0:n]) copyout(c[0:n])
  {
#pragma acc loop
    for (int x = 0; x < n; ++x)
      b[x] = a[x] + 1;
#pragma acc loop
    for (int x = 0; x < n; ++x)
      c[x] = b[x] * 3;
  }
  for (int x = 0; x < n; ++x)
    if (fabs(c[x] - 3 * (a[x] + 1)) > VV_PRECISION)
      err += 1;
  delete[] a;
  delete[] b;
  delete[] c;
  return err;
}

static int test_kernels_loop_independent() {
  int err = 0;
  real_t *a = vv_random(n, 10), *b = new real_t[n];
#pragma acc kernels loop independent copyin(a[0:n]) copyout(b[0:n])
  for (int x = 0; x < n; ++x)
    b[x] = a[x] * a[x] * a[x];
  for (int x = 0; x < n; ++x)
    if (fabs(b[x] - a[x] * a[x] * a[x]) > VV_PRECISION * 1000)
      err += 1;
  delete[] a;
  delete[] b;
  return err;
}

static int test_kernels_region_loops() {
  int err = 0;
  real_t *a = vv_random(n, 10), *b = vv_random(n, 10), *c = new real_t[n];
#pragma acc kernels copyin(a[0:n], b[0:n]) copyout(c[0:n])
  {
#pragma acc loop independent
    for (int x = 0; x < n; ++x)
      c[x] = a[x] - b[x];
  }
  for (int x = 0; x < n; ++x)
    if (fabs(c[x] - (a[x] - b[x])) > VV_PRECISION)
      err += 1;
  delete[] a;
  delete[] b;
  delete[] c;
  return err;
}

static int test_kernels_loop_proven_independent() {
  int err = 0;
  real_t *a = vv_random(n, 10), *b = new real_t[n];
#pragma acc kernels loop copyin(a[0:n]) copyout(b[0:n])
  for (int x = 0; x < n; ++x)
    b[x] = a[x] + 5;
  for (int x = 0; x < n; ++x)
    if (fabs(b[x] - (a[x] + 5)) > VV_PRECISION)
      err += 1;
  delete[] a;
  delete[] b;
  return err;
}

static int test_parallel_loop_gang_vector_clauses() {
  int err = 0;
  real_t *a = vv_random(n, 10), *b = new real_t[n];
#pragma acc parallel loop gang vector num_gangs(16) vector_length(128) copyin(a[0:n]) copyout(b[0:n])
  for (int x = 0; x < n; ++x)
    b[x] = a[x] + a[x];
  for (int x = 0; x < n; ++x)
    if (fabs(b[x] - 2 * a[x]) > VV_PRECISION)
      err += 1;
  delete[] a;
  delete[] b;
  return err;
}

static int test_parallel_loop_gang_worker_vector_nest() {
  int err = 0;
  const int rows = 32, cols = 32;
  real_t *a = vv_random(rows * cols, 10), *b = new real_t[rows * cols];
#pragma acc parallel loop gang copyin(a[0:rows * cols]) copyout(b[0:rows * cols])
  for (int x = 0; x < rows; ++x) {
#pragma acc loop vector
    for (int y = 0; y < cols; ++y)
      b[x * cols + y] = a[x * cols + y] * 4;
  }
  for (int x = 0; x < rows * cols; ++x)
    if (fabs(b[x] - 4 * a[x]) > VV_PRECISION)
      err += 1;
  delete[] a;
  delete[] b;
  return err;
}

static int test_parallel_loop_collapse() {
  int err = 0;
  const int rows = 16, cols = 64;
  real_t *a = vv_random(rows * cols, 10), *b = new real_t[rows * cols];
#pragma acc parallel loop collapse(2) copyin(a[0:rows * cols]) copyout(b[0:rows * cols])
  for (int x = 0; x < rows; ++x)
    for (int y = 0; y < cols; ++y)
      b[x * cols + y] = a[x * cols + y] + x - y;
  for (int x = 0; x < rows; ++x)
    for (int y = 0; y < cols; ++y)
      if (fabs(b[x * cols + y] - (a[x * cols + y] + x - y)) > VV_PRECISION)
        err += 1;
  delete[] a;
  delete[] b;
  return err;
}

static int test_parallel_loop_tile() {
  int err = 0;
  const int rows = 32, cols = 32;
  real_t *a = vv_random(rows * cols, 10), *b = new real_t[rows * cols];
#pragma acc parallel loop tile(4, 8) copyin(a[0:rows * cols]) copyout(b[0:rows * cols])
  for (int x = 0; x < rows; ++x)
    for (int y = 0; y < cols; ++y)
      b[y * rows + x] = a[x * cols + y];
  for (int x = 0; x < rows; ++x)
    for (int y = 0; y < cols; ++y)
      if (b[y * rows + x] != a[x * cols + y])
        err += 1;
  delete[] a;
  delete[] b;
  return err;
}

static int test_parallel_loop_c89_counters() {
  int err = 0;
  int x, y;
  const int rows = 16, cols = 16;
  real_t *a = vv_random(rows * cols, 10), *b = new real_t[rows * cols];
#pragma acc parallel loop copyin(a[0:rows * cols]) copyout(b[0:rows * cols])
  for (x = 0; x < rows; ++x) {
#pragma acc loop
    for (y = 0; y < cols; ++y)
      b[x * cols + y] = a[x * cols + y] * y;
  }
  for (x = 0; x < rows; ++x)
    for (y = 0; y < cols; ++y)
      if (fabs(b[x * cols + y] - a[x * cols + y] * y) > VV_PRECISION)
        err += 1;
  delete[] a;
  delete[] b;
  return err;
}

static int test_parallel_loop_seq_inner() {
  int err = 0;
  const int rows = 64, len = 16;
  real_t *a = vv_random(rows * len, 1), *prefix = new real_t[rows * len];
#pragma acc parallel loop copyin(a[0:rows * len]) copyout(prefix[0:rows * len])
  for (int x = 0; x < rows; ++x) {
    prefix[x * len] = a[x * len];
#pragma acc loop seq
    for (int y = 1; y < len; ++y)
      prefix[x * len + y] = prefix[x * len + y - 1] + a[x * len + y];
  }
  for (int x = 0; x < rows; ++x) {
    real_t s = 0;
    for (int y = 0; y < len; ++y) {
      s += a[x * len + y];
      if (fabs(prefix[x * len + y] - s) > VV_PRECISION * 16)
        err += 1;
    }
  }
  delete[] a;
  delete[] prefix;
  return err;
}

static int test_parallel_loop_private() {
  int err = 0;
  real_t *a = vv_random(n, 10), *b = vv_random(n, 10), *c = new real_t[n];
  real_t t;
#pragma acc parallel loop private(t) copyin(a[0:n], b[0:n]) copyout(c[0:n])
  for (int x = 0; x < n; ++x) {
    t = a[x] + b[x];
    c[x] = t * t;
  }
  for (int x = 0; x < n; ++x)
    if (fabs(c[x] - (a[x] + b[x]) * (a[x] + b[x])) > VV_PRECISION * 100)
      err += 1;
  delete[] a;
  delete[] b;
  delete[] c;
  return err;
}

static int test_parallel_loop_firstprivate() {
  int err = 0;
  real_t *a = vv_random(n, 10), *b = new real_t[n];
  real_t shift = 3.5;
#pragma acc parallel loop firstprivate(shift) copyin(a[0:n]) copyout(b[0:n])
  for (int x = 0; x < n; ++x)
    b[x] = a[x] + shift;
  for (int x = 0; x < n; ++x)
    if (fabs(b[x] - (a[x] + 3.5)) > VV_PRECISION)
      err += 1;
  delete[] a;
  delete[] b;
  return err;
}

static int test_parallel_loop_reduction_add() {
  int err = 0;
  real_t *a = vv_random(n, 10), *b = vv_random(n, 10);
  real_t total = 0.0, host_total = 0.0;
#pragma acc parallel loop reduction(+: total) copyin(a[0:n], b[0:n])
  for (int x = 0; x < n; ++x)
    total += a[x] + b[x];
  for (int x = 0; x < n; ++x)
    host_total += a[x] + b[x];
  if (fabs(total - host_total) > VV_PRECISION * n * 20)
    err += 1;
  delete[] a;
  delete[] b;
  return err;
}

static int test_parallel_loop_reduction_multiply() {
  int err = 0;
  real_t *a = new real_t[n];
  real_t product = 1, host_product = 1;
  for (int x = 0; x < n; ++x)
    a[x] = 1 + (x % 100 == 0 ? 0.5 : 0);
#pragma acc parallel loop reduction(*: product) copyin(a[0:n])
  for (int x = 0; x < n; ++x)
    product *= a[x];
  for (int x = 0; x < n; ++x)
    host_product *= a[x];
  if (fabs(product - host_product) > VV_PRECISION * host_product)
    err += 1;
  delete[] a;
  return err;
}

static int test_parallel_loop_reduction_max() {
  int err = 0;
  real_t *a = vv_random(n, 100);
  real_t biggest = 0, host_biggest = 0;
#pragma acc parallel loop reduction(max: biggest) copyin(a[0:n])
  for (int x = 0; x < n; ++x)
    biggest = fmax(biggest, a[x]);
  for (int x = 0; x < n; ++x)
    host_biggest = fmax(host_biggest, a[x]);
  if (biggest != host_biggest)
    err += 1;
  delete[] a;
  return err;
}

static int test_parallel_loop_reduction_min() {
  int err = 0;
  real_t *a = vv_random(n, 100);
  real_t smallest = 1000, host_smallest = 1000;
#pragma acc parallel loop reduction(min: smallest) copyin(a[0:n])
  for (int x = 0; x < n; ++x)
    smallest = fmin(smallest, a[x]);
  for (int x = 0; x < n; ++x)
    host_smallest = fmin(host_smallest, a[x]);
  if (smallest != host_smallest)
    err += 1;
  delete[] a;
  return err;
}

static int test_parallel_loop_reduction_bitwise() {
  int err = 0;
  unsigned *bits = new unsigned[n];
  for (int x = 0; x < n; ++x)
    bits[x] = (unsigned)rand() | 0x80000000u;
  unsigned all = ~0u, any = 0, parity = 0;
#pragma acc parallel loop reduction(&: all) reduction(|: any) reduction(^: parity) copyin(bits[0:n])
  for (int x = 0; x < n; ++x) {
    all = all & bits[x];
    any = any | bits[x];
    parity = parity ^ bits[x];
  }
  unsigned host_all = ~0u, host_any = 0, host_parity = 0;
  for (int x = 0; x < n; ++x) {
    host_all &= bits[x];
    host_any |= bits[x];
    host_parity ^= bits[x];
  }
  err += all != host_all;
  err += any != host_any;
  err += parity != host_parity;
  delete[] bits;
  return err;
}

static int test_parallel_loop_reduction_logical() {
  int err = 0;
  int *flags = new int[n];
  for (int x = 0; x < n; ++x)
    flags[x] = x % 3 != 5;
  int all_set = 1, any_zero = 0;
#pragma acc parallel loop reduction(&&: all_set) reduction(||: any_zero) copyin(flags[0:n])
  for (int x = 0; x < n; ++x) {
    all_set = all_set && flags[x];
    any_zero = any_zero || flags[x] == 0;
  }
  err += all_set != 1;
  err += any_zero != 0;
  delete[] flags;
  return err;
}

static int test_parallel_region_reduction_loop() {
  int err = 0;
  real_t *a = vv_random(n, 10);
  real_t total = 0, host_total = 0;
#pragma acc parallel copyin(a[0:n]) reduction(+: total)
  {
#pragma acc loop reduction(+: total)
    for (int x = 0; x < n; ++x)
      total += a[x];
  }
  for (int x = 0; x < n; ++x)
    host_total += a[x];
  if (fabs(total - host_total) > VV_PRECISION * n * 10)
    err += 1;
  delete[] a;
  return err;
}

static int test_data_copy_scalar_reduction() {
  int err = 0;
  int *a = new int[n];
  for (int x = 0; x < n; ++x)
    a[x] = rand() % 100;
  int count = 0, host_count = 0;
#pragma acc data copyin(a[0:n]) copy(count)
  {
#pragma acc parallel loop reduction(+: count)
    for (int x = 0; x < n; ++x)
      count += a[x] > 49;
  }
  for (int x = 0; x < n; ++x)
    host_count += a[x] > 49;
  err += count != host_count;
  delete[] a;
  return err;
}

static int test_data_present() {
  int err = 0;
  real_t *a = vv_random(n, 10), *b = new real_t[n];
#pragma acc data copyin(a[0:n]) copyout(b[0:n])
  {
#pragma acc parallel loop present(a[0:n], b[0:n])
    for (int x = 0; x < n; ++x)
      b[x] = a[x] * 0.5;
  }
  for (int x = 0; x < n; ++x)
    if (fabs(b[x] - a[x] * 0.5) > VV_PRECISION)
      err += 1;
  delete[] a;
  delete[] b;
  return err;
}

static int test_data_nested_present() {
  int err = 0;
  real_t *a = vv_random(n, 10), *b = new real_t[n];
#pragma acc data copyin(a[0:n])
  {
#pragma acc data present(a[0:n]) copyout(b[0:n])
    {
#pragma acc parallel loop
      for (int x = 0; x < n; ++x)
        b[x] = a[x] + 10;
    }
  }
  for (int x = 0; x < n; ++x)
    if (fabs(b[x] - (a[x] + 10)) > VV_PRECISION)
      err += 1;
  delete[] a;
  delete[] b;
  return err;
}

static int test_update_host() {
  int err = 0;
  real_t *a = vv_random(n, 10), *b = new real_t[n], *mid = new real_t[n];
#pragma acc data copyin(a[0:n]) copyout(b[0:n])
  {
#pragma acc parallel loop
    for (int x = 0; x < n; ++x)
      b[x] = a[x] + 1;
#pragma acc update host(b[0:n])
    for (int x = 0; x < n; ++x)
      mid[x] = b[x];
#pragma acc parallel loop
    for (int x = 0; x < n; ++x)
      b[x] = b[x] * 2;
  }
  for (int x = 0; x < n; ++x) {
    if (fabs(mid[x] - (a[x] + 1)) > VV_PRECISION)
      err += 1;
    if (fabs(b[x] - 2 * (a[x] + 1)) > VV_PRECISION)
      err += 1;
  }
  delete[] a;
  delete[] b;
  delete[] mid;
  return err;
}

static int test_update_device() {
  int err = 0;
  real_t *a = vv_random(n, 10), *b = new real_t[n];
#pragma acc data copyin(a[0:n]) copyout(b[0:n])
  {
    for (int x = 0; x < n; ++x)
      a[x] = a[x] + 100;
#pragma acc update device(a[0:n])
#pragma acc parallel loop
    for (int x = 0; x < n; ++x)
      b[x] = a[x];
  }
  for (int x = 0; x < n; ++x)
    if (b[x] != a[x] || a[x] < 100)
      err += 1;
  delete[] a;
  delete[] b;
  return err;
}

static int test_update_self_async_wait() {
  int err = 0;
  real_t *a = vv_random(n, 10), *b = new real_t[n];
#pragma acc data copyin(a[0:n]) create(b[0:n])
  {
#pragma acc parallel loop async(1)
    for (int x = 0; x < n; ++x)
      b[x] = a[x] - 1;
#pragma acc update self(b[0:n]) async(1)
#pragma acc wait(1)
  }
  for (int x = 0; x < n; ++x)
    if (fabs(b[x] - (a[x] - 1)) > VV_PRECISION)
      err += 1;
  delete[] a;
  delete[] b;
  return err;
}

static int test_enter_exit_data_copyin_copyout() {
  int err = 0;
  real_t *a = vv_random(n, 10), *b = new real_t[n];
#pragma acc enter data copyin(a[0:n]) create(b[0:n])
#pragma acc parallel loop present(a[0:n], b[0:n])
  for (int x = 0; x < n; ++x)
    b[x] = a[x] * a[x];
#pragma acc exit data copyout(b[0:n]) delete(a[0:n])
  for (int x = 0; x < n; ++x)
    if (fabs(b[x] - a[x] * a[x]) > VV_PRECISION * 100)
      err += 1;
  delete[] a;
  delete[] b;
  return err;
}

static int test_enter_data_finalize() {
  int err = 0;
  real_t *a = vv_random(n, 10);
  real_t *host = new real_t[n];
  for (int x = 0; x < n; ++x)
    host[x] = a[x];
#pragma acc enter data copyin(a[0:n])
#pragma acc enter data copyin(a[0:n])
#pragma acc parallel loop
  for (int x = 0; x < n; ++x)
    a[x] = a[x] + 1;
#pragma acc exit data copyout(a[0:n]) finalize
  for (int x = 0; x < n; ++x)
    if (fabs(a[x] - (host[x] + 1)) > VV_PRECISION)
      err += 1;
  delete[] a;
  delete[] host;
  return err;
}

// PolyBench-ACC's kernels: an array parameter named whole in the data clause.
static void vv_scale_rows(int rows, real_t A[32][16], real_t factor) {
#pragma acc data copy(A)
  {
#pragma acc parallel loop collapse(2)
    for (int i = 0; i < rows; i++)
      for (int j = 0; j < 16; j++)
        A[i][j] *= factor;
  }
}

static int test_data_copy_whole_array_parameter() {
  int err = 0;
  static real_t A[32][16], host[32][16];
  for (int i = 0; i < 32; i++)
    for (int j = 0; j < 16; j++)
      host[i][j] = A[i][j] = rand() / (real_t)RAND_MAX;
  vv_scale_rows(32, A, 3);
  for (int i = 0; i < 32; i++)
    for (int j = 0; j < 16; j++)
      if (fabs(A[i][j] - 3 * host[i][j]) > VV_PRECISION)
        err += 1;
  return err;
}

static int test_parallel_loop_default_present() {
  int err = 0;
  real_t *a = vv_random(n, 10), *b = new real_t[n];
#pragma acc data copyin(a[0:n]) copyout(b[0:n])
  {
#pragma acc parallel loop default(present)
    for (int x = 0; x < n; ++x)
      b[x] = -a[x];
  }
  for (int x = 0; x < n; ++x)
    if (b[x] != -a[x])
      err += 1;
  delete[] a;
  delete[] b;
  return err;
}

static int test_serial_loop() {
  // not translated: a serial loop runs on one gang, in order
  int err = 0;
  real_t *a = vv_random(n, 10), *b = new real_t[n];
#pragma acc serial loop copyin(a[0:n]) copyout(b[0:n])
  for (int x = 0; x < n; ++x)
    b[x] = a[x] + 2;
  for (int x = 0; x < n; ++x)
    if (fabs(b[x] - (a[x] + 2)) > VV_PRECISION)
      err += 1;
  delete[] a;
  delete[] b;
  return err;
}

static int test_parallel_loop_two_dimensional_section() {
  // not translated: sections of more than one dimension
  int err = 0;
  static real_t a[16][32], b[16][32];
  for (int x = 0; x < 16; ++x)
    for (int y = 0; y < 32; ++y)
      a[x][y] = rand() / (real_t)RAND_MAX;
#pragma acc parallel loop collapse(2) copyin(a[0:16][0:32]) copyout(b[0:16][0:32])
  for (int x = 0; x < 16; ++x)
    for (int y = 0; y < 32; ++y)
      b[x][y] = a[x][y] * 2;
  for (int x = 0; x < 16; ++x)
    for (int y = 0; y < 32; ++y)
      if (b[x][y] != 2 * a[x][y])
        err += 1;
  return err;
}

int main() {
  srand(1234);
  VV_RUN(test_parallel_loop_copyin_copyout);
  VV_RUN(test_parallel_loop_copy);
  VV_RUN(test_parallel_loop_create);
  VV_RUN(test_parallel_loop_pcopy_present_or);
  VV_RUN(test_parallel_region_loop);
  VV_RUN(test_parallel_region_copy_two_loops);
  VV_RUN(test_kernels_loop_independent);
  VV_RUN(test_kernels_region_loops);
  VV_RUN(test_kernels_loop_proven_independent);
  VV_RUN(test_parallel_loop_gang_vector_clauses);
  VV_RUN(test_parallel_loop_gang_worker_vector_nest);
  VV_RUN(test_parallel_loop_collapse);
  VV_RUN(test_parallel_loop_tile);
  VV_RUN(test_parallel_loop_c89_counters);
  VV_RUN(test_parallel_loop_seq_inner);
  VV_RUN(test_parallel_loop_private);
  VV_RUN(test_parallel_loop_firstprivate);
  VV_RUN(test_parallel_loop_reduction_add);
  VV_RUN(test_parallel_loop_reduction_multiply);
  VV_RUN(test_parallel_loop_reduction_max);
  VV_RUN(test_parallel_loop_reduction_min);
  VV_RUN(test_parallel_loop_reduction_bitwise);
  VV_RUN(test_parallel_loop_reduction_logical);
  VV_RUN(test_parallel_region_reduction_loop);
  VV_RUN(test_data_copy_scalar_reduction);
  VV_RUN(test_data_present);
  VV_RUN(test_data_nested_present);
  VV_RUN(test_update_host);
  VV_RUN(test_update_device);
  VV_RUN(test_update_self_async_wait);
  VV_RUN(test_enter_exit_data_copyin_copyout);
  VV_RUN(test_enter_data_finalize);
  VV_RUN(test_data_copy_whole_array_parameter);
  VV_RUN(test_parallel_loop_default_present);
  VV_RUN(test_serial_loop);
  VV_RUN(test_parallel_loop_two_dimensional_section);
  return vv_summary("OpenACC loop, data and reduction tests");
}
