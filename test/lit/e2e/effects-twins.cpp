// The race-free twins of the loops in diagnostics/effects.cpp are accepted
// without a warning and print what the serial program prints on every device
// setting: pointer arithmetic, a lambda and a const member function that only
// read, a static function reading a global table (on CPU threads: the table
// is not in GPU memory), a memcpy into the
// iteration's own buffer, an exception caught inside the iteration, and a
// `const double &` parameter that may name an element the loop writes
// (compared before the loop runs on CPU threads: called with an element of
// `a`, the loop runs serially and still prints the serial result; a kernel
// copies it, so there it is a warning, diagnostics/effects.cpp).
// RUN: %e2e --out %t %s | FileCheck %s
// RUN: %gpu-autopar --check %s -- -std=c++17 2>&1 | FileCheck %s --check-prefix=DIAG --implicit-check-not=warning: --implicit-check-not=error:
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <vector>

double table[16];
static double lookup(int k) { return table[k % 16]; }

struct Scale {
  double k;
  double apply(double x) const { return k * x + 1; }
};

void arithmetic(double *__restrict__ a, const double *__restrict__ b, int n) {
#pragma gpu_autopar for
  for (int i = 1; i < n - 1; ++i)
    *(a + i) = *(b + i - 1) + *(b + i + 1) - (b + 1)[i];
}

void readers(double *__restrict__ out, const double *__restrict__ in, int n, double k, const Scale &s) {
  auto twice = [k](double x) { return 2 * k * x; };
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    out[i] = twice(in[i]) + s.apply(in[i]) + lookup(i);
// DIAG: effects-twins.cpp:[[@LINE-1]]:46: remark: loop runs on CPU threads only: the body calls 'lookup', which cannot run on a GPU
// DIAG: effects-twins.cpp:19:38: note: 'lookup' uses global variable 'table', which is not in GPU memory
}

void buffers(double *__restrict__ out, const double *__restrict__ in, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) {
    double tmp[4];
    std::memcpy(tmp, &in[4 * i], sizeof tmp);
    out[i] = tmp[0] + tmp[1] * tmp[2] - tmp[3];
  }
// DIAG: effects-twins.cpp:[[@LINE-3]]:5: remark: loop runs on CPU threads only: the body calls 'memcpy', which cannot run on a GPU
}

void caught(double *__restrict__ out, const double *__restrict__ in, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) {
    try {
      if (in[i] < 0.5)
        throw std::runtime_error("small");
      out[i] = in[i];
    } catch (const std::exception &) {
      out[i] = -1;
    }
  }
// DIAG: effects-twins.cpp:[[@LINE-8]]:5: remark: loop runs on CPU threads only: the body uses a try block
}

void add_reference(double *a, const double &x, int n) {
#pragma gpu_autopar for mode(task)
  for (int i = 0; i < n; ++i)
    a[i] = a[i] + x;
// DIAG: effects-twins.cpp:[[@LINE-1]]:5: remark: 'a' and 'x' may overlap; the rewritten loop compares their addresses first and runs serially if they do
// DIAG: effects-twins.cpp:[[@LINE-2]]:19: note: read of 'x' here
}

int main() {
  const int n = 4001;
  std::vector<double> a(n), b(n), in(4 * n), out(n);
  for (int i = 0; i < 16; ++i)
    table[i] = i * 0.25;
  for (int i = 0; i < n; ++i)
    b[i] = (i * 7 % 13) * 0.5;
  for (int i = 0; i < 4 * n; ++i)
    in[i] = (i * 5 % 11) * 0.125;
  arithmetic(a.data(), b.data(), n);
  Scale s{1.5};
  readers(out.data(), b.data(), n, 0.75, s);
  double sum = 0;
  for (int i = 0; i < n; ++i)
    sum += a[i] * (i % 5) + out[i];
  buffers(out.data(), in.data(), n);
  for (int i = 0; i < n; ++i)
    sum += out[i] * (i % 3);
  caught(out.data(), in.data(), n);
  for (int i = 0; i < n; ++i)
    sum += out[i] * (i % 7);
  const double other = 2.5;
  add_reference(a.data(), other, n);
  add_reference(a.data(), a[n / 2], n); // serially: x changes half way
  for (int i = 0; i < n; ++i)
    sum += a[i] * (i % 4);
  std::printf("%.6f\n", sum);
}
// CHECK: cpu: effects-twins.cpp:27 mode=kernel backend=cpu iterations=3999 devices=1{{$}}
// CHECK: cpu: effects-twins.cpp:34 mode=host backend=cpu iterations=4001 devices=1{{$}}
// CHECK: cpu: effects-twins.cpp:42 mode=host backend=cpu iterations=4001 devices=1{{$}}
// CHECK: cpu: effects-twins.cpp:52 mode=host backend=cpu iterations=4001 devices=1{{$}}
// CHECK: cpu: effects-twins.cpp:66 mode=task backend=cpu iterations=4001 devices=1{{$}}
// CHECK: cpu: effects-twins.cpp:66 mode=task backend=cpu iterations=4001 devices=1 serial='a' and 'x' overlap in memory
// CHECK: sim:3: effects-twins.cpp:27 mode=kernel backend=sim iterations=3999 devices=3{{$}}
// CHECK: sim:3: effects-twins.cpp:34 mode=host backend=cpu iterations=4001 devices=1{{$}}
// CHECK: sim:3: effects-twins.cpp:42 mode=host backend=cpu iterations=4001 devices=1{{$}}
// CHECK: sim:3: effects-twins.cpp:52 mode=host backend=cpu iterations=4001 devices=1{{$}}
// CHECK: sim:3: effects-twins.cpp:66 mode=task backend=sim iterations=4001 devices=3{{$}}
// CHECK: sim:3: effects-twins.cpp:66 mode=task backend=cpu iterations=4001 devices=1 serial='a' and 'x' overlap in memory
