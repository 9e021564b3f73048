// The functions, members, templates and lambdas a kernel-mode body reaches,
// transitively, whose definitions the tool sees, are marked GPU_AUTOPAR_HD
// (`__host__ __device__` under nvcc, nothing for a host compiler): every
// declaration the file writes, once, however many loops reach it. Callees of
// loops that do not run as kernels, and functions the body does not reach,
// stay as written. The output builds with the host compiler and with nvcc.
// RUN: %gpu-autopar %s -o %t.cpp -- -std=c++17 -I%S/../../../runtime/include 2> %t.err
// RUN: FileCheck %s --input-file %t.cpp
// RUN: %cxx -c %t.cpp -o %t.o
// RUN: %if cuda %{ %nvcc --diag-error 20011,20013 -x cu -c %t.cpp -o %t.cu.o %}
#include <gpu_autopar/hd.h>

// CHECK: {{^}}GPU_AUTOPAR_HD double lookup(const double *grid, int n, double e);
double lookup(const double *grid, int n, double e);

// CHECK: {{^}}GPU_AUTOPAR_HD static inline double twice(double x) { return 2 * x; }
static inline double twice(double x) { return 2 * x; }
// CHECK: {{^}}double unused(double x) { return x; }
double unused(double x) { return x; }
// CHECK: {{^}}GPU_AUTOPAR_HD int depth(int k) { return k <= 0 ? 0 : 1 + depth(k - 1); }
int depth(int k) { return k <= 0 ? 0 : 1 + depth(k - 1); }
// CHECK: {{^}}GPU_AUTOPAR_HD double already(double x) { return x + 1; }
GPU_AUTOPAR_HD double already(double x) { return x + 1; }

struct Vec {
  double x, y;
// CHECK: {{^}}  GPU_AUTOPAR_HD Vec(double a, double b) : x(a), y(b) {}
  Vec(double a, double b) : x(a), y(b) {}
// CHECK: {{^}}  GPU_AUTOPAR_HD double dot(const Vec &o) const;
  double dot(const Vec &o) const;
// CHECK: {{^}}  double norm() const { return x * x + y * y; }
  double norm() const { return x * x + y * y; }
};
// CHECK: {{^}}GPU_AUTOPAR_HD double Vec::dot(const Vec &o) const { return x * o.x + y * o.y; }
double Vec::dot(const Vec &o) const { return x * o.x + y * o.y; }
// CHECK: {{^}}GPU_AUTOPAR_HD Vec operator*(double s, const Vec &v) { return Vec(s * v.x, s * v.y); }
Vec operator*(double s, const Vec &v) { return Vec(s * v.x, s * v.y); }

// CHECK: {{^}}template <class T> GPU_AUTOPAR_HD T square(T v) { return v * v; }
template <class T> T square(T v) { return v * v; }

// The binary search of a cross-section lookup, declared above, defined here.
// CHECK: {{^}}GPU_AUTOPAR_HD double lookup(const double *grid, int n, double e) {
double lookup(const double *grid, int n, double e) {
  int lo = 0, hi = n - 1;
  while (hi - lo > 1) {
    int mid = (lo + hi) / 2;
    if (grid[mid] > e)
      hi = mid;
    else
      lo = mid;
  }
  return twice(grid[lo]);
}

// CHECK: {{^}}double on_host(double x) { return x * 3; }
double on_host(double x) { return x * 3; }

void kernels(const double *__restrict grid, int n, const double *__restrict e, double *__restrict out, int m) {
// CHECK: {{^}}  auto scale = [=] GPU_AUTOPAR_HD(double v) { return v * 3; };
  auto scale = [=](double v) { return v * 3; };
// CHECK: {{^}}  auto four = [=] GPU_AUTOPAR_HD { return 4.0; };
  auto four = [=] { return 4.0; };
// CHECK: ::gpu_autopar::kernel_loop(
#pragma gpu_autopar for map(to: grid[0:n], e[0:m]) map(from: out[0:m])
  for (int i = 0; i < m; ++i) {
    Vec a(e[i], 1.0), b = 2.0 * a;
    out[i] = lookup(grid, n, e[i]) + a.dot(b) + square(e[i]) + scale(e[i]) + four() + depth(3) + already(1);
  }
// A second loop reaching the same callees marks nothing twice.
// CHECK: ::gpu_autopar::kernel_loop(
#pragma gpu_autopar for map(to: e[0:m]) map(from: out[0:m])
  for (int i = 0; i < m; ++i)
    out[i] = square(float(e[i])) + twice(e[i]);
// CHECK: ::gpu_autopar::host_loop(
#pragma gpu_autopar for map(to: e[0:m]) map(from: out[0:m])
  for (int i = 0; i < m; ++i) {
    double *t = new double(on_host(e[i]));
    out[i] = *t;
    delete t;
  }
}
