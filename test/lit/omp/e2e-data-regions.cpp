// OpenMP and OpenACC data regions end to end: a 1-D Jacobi relaxation inside
// `omp target data`, with `target update from` before the host reads the grid
// mid-way and `target update to` after the host changes it, and an OpenACC
// `data` region with `update self`/`update device`, rewritten with
// --accept=omp,acc, must print what the program's OpenMP build prints on CPU
// threads, three simulated devices (halos cross devices every sweep), four of
// uneven speed, and three of which one fails a chunk and one runs out of
// memory. Unstructured data (enter data in one function, exit data in
// another) keeps the loops between them on the devices' copies.
// RUN: %e2e --out %t --accept omp,acc --reference-openmp --devices "cpu;sim:3;sim:4,speed=1:2:1:1;sim:3,fail=1@2,oom=2@1" %s | FileCheck %s
#include <cstdio>
#include <vector>

static double checksum(const double *v, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += v[i] * (i % 7 + 1);
  return s;
}

// Unstructured data, entered and exited in functions of their own.
static void upload(double *d, int n) {
#pragma omp target enter data map(to: d[0:n])
}
static void download(double *d, int n) {
#pragma omp target exit data map(from: d[0:n])
}
static void acc_upload(float *d, int n) {
#pragma acc enter data copyin(d[0:n])
}
static void acc_download(float *d, int n) {
#pragma acc exit data copyout(d[0:n])
}

int main() {
  const int n = 30000, sweeps = 12;
  std::vector<double> a(n), b(n);
  for (int i = 0; i < n; ++i)
    a[i] = b[i] = (i * 37 % 101) * 0.5;
  double *pa = a.data(), *pb = b.data();

#pragma omp target data map(tofrom: pa[0:n], pb[0:n])
  {
    for (int s = 0; s < sweeps; ++s) {
#pragma omp target teams distribute parallel for
      for (int i = 1; i < n - 1; ++i)
        pb[i] = (pa[i - 1] + pa[i] + pa[i + 1]) / 3;
#pragma omp target teams distribute parallel for
      for (int i = 1; i < n - 1; ++i)
        pa[i] = pb[i];
      if (s == sweeps / 2) {
#pragma omp target update from(pa[0:n])
        std::printf("omp mid-way: %.6f\n", checksum(pa, n));
        pa[n / 2] += 1000; // a host change the devices must see
#pragma omp target update to(pa[n / 2:1])
      }
    }
  }
  std::printf("omp end: %.6f %.6f\n", checksum(pa, n), checksum(pb, n));

  std::vector<float> x(n), y(n, 0.0f);
  float *px = x.data(), *py = y.data();
  for (int i = 0; i < n; ++i)
    px[i] = float(i % 13);
#pragma acc data copyin(px[0:n]) copy(py[0:n])
  {
#pragma acc parallel loop
    for (int i = 0; i < n; ++i)
      py[i] += 2 * px[i];
#pragma acc update self(py[0:n])
    float first = py[n - 1];
    for (int i = 0; i < n; i += 2)
      px[i] = -px[i];
#pragma acc update device(px[0:n])
#pragma acc parallel loop
    for (int i = 0; i < n; ++i)
      py[i] += px[i] + first;
  }
  std::printf("acc: %.3f %.3f %.3f\n", py[0], py[1], py[n - 1]);

  std::vector<double> c(n);
  for (int i = 0; i < n; ++i)
    c[i] = i % 11;
  double *pc = c.data();
  upload(pc, n);
  for (int s = 0; s < 4; ++s) {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i)
      pc[i] = pc[i] * 0.5 + i;
  }
  download(pc, n);
  std::printf("omp enter/exit: %.6f\n", checksum(pc, n));

  acc_upload(px, n);
  for (int s = 0; s < 3; ++s) {
#pragma acc parallel loop
    for (int i = 0; i < n; ++i)
      px[i] = px[i] * 2 + 1;
  }
  acc_download(px, n);
  std::printf("acc enter/exit: %.3f %.3f\n", px[0], px[n - 1]);
  return 0;
}
// The loops ran on the devices, inside the regions (the unstructured ones
// report at their enter data, when their exit data ends them):
// CHECK: cpu: e2e-data-regions.cpp:45 mode=kernel backend=cpu iterations=29998 devices=1
// CHECK: sim:3: e2e-data-regions.cpp:45 mode=kernel backend=sim iterations=29998 devices=3
// CHECK: sim:3: region e2e-data-regions.cpp:42
// CHECK: sim:3: e2e-data-regions.cpp:67 mode=kernel backend=sim iterations=30000 devices=3
// CHECK: sim:3: region e2e-data-regions.cpp:65
// CHECK: sim:3: e2e-data-regions.cpp:87 mode=kernel backend=sim iterations=30000 devices=3
// CHECK: sim:3: region e2e-data-regions.cpp:23
// CHECK: sim:3: e2e-data-regions.cpp:96 mode=kernel backend=sim iterations=30000 devices=3
// CHECK: sim:3: region e2e-data-regions.cpp:29
