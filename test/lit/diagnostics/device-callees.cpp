// A kernel-mode candidate whose visible callee cannot run on a GPU stays on
// CPU threads: a remark names the callee at the call, and a note points at
// what prevents it, however deep. A callee that does GPU work makes the loop a
// task; mode(kernel) on either is an error with the same note.
// RUN: %expect-exit 1 %gpu-autopar %s --check -- -std=c++17 -I%S/Inputs/device-callees -I%S/../../../runtime/include 2> %t.err
// RUN: FileCheck %s --input-file %t.err --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note: --implicit-check-not=remark:
#include <cstring>
#include <stdexcept>
#include "xs_helpers.h"

int cudaDeviceSynchronize();

double boxed(double x) {
  double *p = new double(x);
  double r = *p;
  delete p;
  return r;
}
double via_boxed(double x) { return boxed(x) + 1; }
double checked(double x) {
  if (x < 0)
    throw std::domain_error("negative");
  return x;
}
struct Shape {
  virtual double area() const { return 1; }
};
double area_of(const Shape &s) { return s.area(); }
double apply(double (*f)(double), double x) { return f(x); }
double table[8];
double from_table(int k) { return table[k & 7]; }
double counted(double x) {
  static int calls = 0;
  return x + calls;
}
double name_length(const char *s) { return double(std::strlen(s)); }
struct Grid {
  const double *p;
  double at(int k) const { return p[k]; }
};
double launches(double x) {
  cudaDeviceSynchronize();
  return x;
}

void loops(double *__restrict out, const double *__restrict in, int n, const Shape &s, Grid g) {
#pragma gpu_autopar for map(to: in[0:n]) map(from: out[0:n])
  for (int i = 0; i < n; ++i)
    out[i] = via_boxed(in[i]);
// CHECK: device-callees.cpp:[[@LINE-1]]:14: remark: loop runs on CPU threads only: the body calls 'via_boxed', which cannot run on a GPU
// CHECK: device-callees.cpp:[[@LINE-37]]:15: note: 'boxed' allocates with 'new'
#pragma gpu_autopar for map(to: in[0:n]) map(from: out[0:n])
  for (int i = 0; i < n; ++i)
    out[i] = checked(in[i]);
// CHECK: device-callees.cpp:[[@LINE-1]]:14: warning: call to 'checked' may throw an exception: the loop rethrows the first one once its running iterations stop, and iterations after it in serial order may have run
// CHECK: device-callees.cpp:[[@LINE-2]]:14: remark: loop runs on CPU threads only: the body calls 'checked', which cannot run on a GPU
// CHECK: device-callees.cpp:[[@LINE-35]]:5: note: 'checked' throws an exception
#pragma gpu_autopar for map(from: out[0:n])
  for (int i = 0; i < n; ++i)
    out[i] = area_of(s);
// CHECK: device-callees.cpp:[[@LINE-1]]:14: warning: call to 'area_of' calls 'area', which is virtual; an override may have effects the analysis cannot see; it must not touch data that other iterations use
// CHECK: device-callees.cpp:[[@LINE-2]]:14: remark: loop runs on CPU threads only: the body calls 'area_of', which cannot run on a GPU
// CHECK: device-callees.cpp:[[@LINE-35]]:41: note: 'area_of' makes a virtual call to 'area'
#pragma gpu_autopar for map(to: in[0:n]) map(from: out[0:n])
  for (int i = 0; i < n; ++i)
    out[i] = apply(boxed, in[i]);
// CHECK: device-callees.cpp:[[@LINE-1]]:14: warning: call to 'apply' calls 'a function through a pointer', which may have effects the analysis cannot see; it must not touch data that other iterations use
// CHECK: device-callees.cpp:[[@LINE-2]]:14: remark: loop runs on CPU threads only: the body calls 'apply', which cannot run on a GPU
// CHECK: device-callees.cpp:[[@LINE-40]]:54: note: 'apply' calls through a function pointer
#pragma gpu_autopar for map(from: out[0:n])
  for (int i = 0; i < n; ++i)
    out[i] = from_table(i);
// CHECK: device-callees.cpp:[[@LINE-1]]:14: remark: loop runs on CPU threads only: the body calls 'from_table', which cannot run on a GPU
// CHECK: device-callees.cpp:[[@LINE-43]]:35: note: 'from_table' uses global variable 'table', which is not in GPU memory
#pragma gpu_autopar for map(to: in[0:n]) map(from: out[0:n])
  for (int i = 0; i < n; ++i)
    out[i] = counted(in[i]);
// CHECK: device-callees.cpp:[[@LINE-1]]:14: remark: loop runs on CPU threads only: the body calls 'counted', which cannot run on a GPU
// CHECK: device-callees.cpp:[[@LINE-46]]:14: note: 'counted' declares a static variable 'calls'
#pragma gpu_autopar for map(from: out[0:n])
  for (int i = 0; i < n; ++i)
    out[i] = name_length("abc");
// CHECK: device-callees.cpp:[[@LINE-1]]:14: remark: loop runs on CPU threads only: the body calls 'name_length', which cannot run on a GPU
// CHECK: device-callees.cpp:[[@LINE-48]]:51: note: 'name_length' calls 'strlen', which cannot run on a GPU
#pragma gpu_autopar for map(from: out[0:n])
  for (int i = 0; i < n; ++i)
    out[i] = g.at(i);
// No warning: 'out' is __restrict, and 'at' is read as the element g.p[i] (an
// accessor seen through); no remark: a kernel maps the public member 'g.p' and
// indexes its view where the body calls 'at'.
#pragma gpu_autopar for map(to: in[0:n]) map(from: out[0:n])
  for (int i = 0; i < n; ++i)
    out[i] = xs_interpolate(in[i], 2.0, 0.5);
// CHECK: device-callees.cpp:[[@LINE-1]]:14: remark: loop runs on CPU threads only: the body calls 'xs_interpolate', which cannot run on a GPU
// CHECK: xs_helpers.h:3:15: note: 'xs_interpolate' is defined in 'xs_helpers.h', which the rewrite does not change; declare it GPU_AUTOPAR_HD there (<gpu_autopar/hd.h>) to run the loop on a GPU
#pragma gpu_autopar for map(to: in[0:n]) map(from: out[0:n])
  for (int i = 0; i < n; ++i)
    out[i] = xs_marked(in[i], 2.0, 0.5);
// GPU work in a callee: a task, which needs no remark.
#pragma gpu_autopar for map(to: in[0:n]) map(from: out[0:n])
  for (int i = 0; i < n; ++i)
    out[i] = launches(in[i]);
#pragma gpu_autopar for mode(kernel) map(to: in[0:n]) map(from: out[0:n])
  for (int i = 0; i < n; ++i)
    out[i] = launches(in[i]);
// CHECK: device-callees.cpp:[[@LINE-1]]:14: error: mode(kernel) needs a body that can run on a GPU, but it calls 'launches', which calls CUDA function 'cudaDeviceSynchronize'
// CHECK: device-callees.cpp:[[@LINE-4]]:30: note: mode clause is here
#pragma gpu_autopar for mode(kernel) map(to: in[0:n]) map(from: out[0:n])
  for (int i = 0; i < n; ++i)
    out[i] = via_boxed(in[i]);
// CHECK: device-callees.cpp:[[@LINE-1]]:14: error: mode(kernel) needs a body that can run on a GPU, but it calls 'via_boxed', which cannot run on a GPU
// CHECK: device-callees.cpp:[[@LINE-98]]:15: note: 'boxed' allocates with 'new'
// CHECK: device-callees.cpp:[[@LINE-5]]:30: note: mode clause is here
}

// nvcc cannot define a kernel inside a generic lambda: CPU threads, and a
// remark that says how to get the GPU back.
void generic(double *__restrict out, int n) {
  auto fill = [&](auto value) {
#pragma gpu_autopar for map(from: out[0:n])
    for (int i = 0; i < n; ++i)
      out[i] = value;
// CHECK: device-callees.cpp:[[@LINE-2]]:5: remark: loop runs on CPU threads only: the body is inside a generic lambda, where nvcc cannot define the kernel (an extended __host__ __device__ lambda); give the lambda's parameters types, or make it a function template
  };
  fill(1.0);
}

// A template is judged as each instantiation has it: a user type's operator*
// that cannot run on a GPU keeps the loop on CPU threads, naming the
// instantiation (one that can is marked: e2e/mini-app-callees.cpp).
struct Loud {
  double v;
};
Loud operator*(Loud a, Loud b) {
  Loud *t = new Loud{a.v * b.v};
  Loud r = *t;
  delete t;
  return r;
}
template <class T> void scale_all(T *__restrict v, T f, int n) {
#pragma gpu_autopar for map(tofrom: v[0:n])
  for (int i = 0; i < n; ++i)
    v[i] = v[i] * f;
// CHECK: device-callees.cpp:[[@LINE-1]]:17: warning: call to '*' is made through a pointer or std::function; it must not touch data that other iterations use
// CHECK: device-callees.cpp:[[@LINE-2]]:17: remark: loop runs on CPU threads only: the body calls 'operator*', which cannot run on a GPU (in 'scale_all<Loud>')
// CHECK: device-callees.cpp:[[@LINE-11]]:13: note: 'operator*' allocates with 'new'
}
void instantiations(double *__restrict d, Loud *__restrict l, int n) {
  scale_all(d, 2.0, n);
  scale_all(l, Loud{2.0}, n);
}
