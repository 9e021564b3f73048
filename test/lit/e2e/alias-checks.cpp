// Objects a caller may pass twice (container references, pointers): the
// rewritten loop compares their addresses before it runs. Distinct objects
// run on the devices; one object (which turns each loop into a recurrence)
// runs serially on the calling thread and prints what the serial program
// prints. A parallel run of the aliased calls gives other numbers.
// RUN: %e2e --out %t %s | FileCheck %s
#include <cstdio>
#include <vector>

void shift(const std::vector<double> &in, std::vector<double> &out) {
#pragma gpu_autopar for
  for (int i = 1; i < (int)in.size(); ++i)
    out[i] = in[i - 1] * 0.5 + 1;
}

void shift_ptr(const double *in, double *out, int n) {
#pragma gpu_autopar for
  for (int i = 1; i < n; ++i)
    out[i] = in[i - 1] * 0.5 + i % 3;
}

// A member container is mapped like a variable: the two maps are compared.
struct Grid {
  std::vector<double> v;
};
void shift_member(const Grid &g, std::vector<double> &out) {
#pragma gpu_autopar for
  for (int i = 1; i < (int)out.size(); ++i)
    out[i] = g.v[i - 1] * 0.25 + 2;
}
// Two pointers on CPU threads: compared over the sections the loop touches.
void shift_ptr_host(const double *in, double *out, int n) {
#pragma gpu_autopar for mode(host)
  for (int i = 1; i < n - 1; ++i)
    out[i] = (in[i - 1] + in[i + 1]) * 0.5 + i % 3;
}
// A collapsed nest on CPU threads: the sections are the outer loop's rows.
void scale_rows(const double *in, double *out, int rows, int cols) {
#pragma gpu_autopar for collapse(2) mode(host)
  for (int r = 0; r < rows; ++r)
    for (int k = 0; k < cols; ++k)
      out[r * cols + k] = in[r * cols + k] * 0.5 + k;
}
// A pointer and a vector on CPU threads: the pointer's section against the
// whole vector.
void shift_into(std::vector<double> &out, const double *p, int n) {
#pragma gpu_autopar for mode(host)
  for (int i = 0; i < n - 1; ++i)
    out[i] = p[i + 1] * 0.5 + 1;
}

double checksum(const std::vector<double> &v) {
  double s = 0;
  for (std::size_t i = 0; i < v.size(); ++i)
    s += v[i] * double(i % 11 + 1);
  return s;
}

int main() {
  const int n = 40009;
  std::vector<double> a(n), b(n), c(n);
  for (int i = 0; i < n; ++i)
    a[i] = i % 7, c[i] = i % 5;
  shift(a, b);                              // distinct: parallel
  shift(a, a);                              // one vector
  shift_ptr(c.data(), b.data(), n);         // distinct: parallel
  shift_ptr(c.data(), c.data() + 1, n - 1); // overlapping halves of one vector
  Grid g{c};
  shift_member(g, b);   // distinct: parallel
  shift_member(g, g.v); // one vector
  shift_ptr_host(a.data(), c.data(), n);         // distinct: parallel
  shift_ptr_host(a.data(), a.data() + 2, n - 2); // overlapping: the sections share elements
  shift_ptr_host(b.data(), b.data() + n / 2, n / 2 - 1); // one vector, disjoint halves: parallel
  shift_into(b, c.data(), n); // distinct: parallel
  shift_into(c, c.data(), n); // the pointer points into the vector
  scale_rows(a.data(), b.data(), 200, 200);           // distinct: parallel
  scale_rows(b.data(), b.data() + 100, 100, 200);     // rows overlap: serially
  std::printf("a=%.6f b=%.6f c=%.6f g=%.6f\n", checksum(a), checksum(b), checksum(c), checksum(g.v));
}
// CHECK: cpu: alias-checks.cpp:11 mode=kernel backend=cpu iterations=40008 devices=1{{$}}
// CHECK: cpu: alias-checks.cpp:11 mode=kernel backend=cpu iterations=40008 devices=1 serial='out' and 'in' overlap in memory
// CHECK: cpu: alias-checks.cpp:17 mode=kernel backend=cpu iterations=40008 devices=1{{$}}
// CHECK: cpu: alias-checks.cpp:17 mode=kernel backend=cpu iterations=40007 devices=1 serial='out' and 'in' overlap in memory
// CHECK: cpu: alias-checks.cpp:27 mode=kernel backend=cpu iterations=40008 devices=1{{$}}
// CHECK: cpu: alias-checks.cpp:27 mode=kernel backend=cpu iterations=40008 devices=1 serial='out' and 'g.v' overlap in memory
// CHECK: cpu: alias-checks.cpp:33 mode=host backend=cpu iterations=40007 devices=1{{$}}
// CHECK: cpu: alias-checks.cpp:33 mode=host backend=cpu iterations=40005 devices=1 serial='out' and 'in' overlap in memory
// CHECK: cpu: alias-checks.cpp:33 mode=host backend=cpu iterations=20001 devices=1{{$}}
// CHECK: cpu: alias-checks.cpp:47 mode=host backend=cpu iterations=40008 devices=1{{$}}
// CHECK: cpu: alias-checks.cpp:47 mode=host backend=cpu iterations=40008 devices=1 serial='out' and 'p' overlap in memory
// CHECK: cpu: alias-checks.cpp:39 mode=host backend=cpu iterations=40000 devices=1{{$}}
// CHECK: cpu: alias-checks.cpp:39 mode=host backend=cpu iterations=20000 devices=1 serial='out' and 'in' overlap in memory
// CHECK: sim:3: alias-checks.cpp:11 mode=kernel backend=sim iterations=40008 devices=3{{$}}
// CHECK: sim:3: alias-checks.cpp:11 mode=kernel backend=cpu iterations=40008 devices=1 serial='out' and 'in' overlap in memory
// CHECK: sim:3: alias-checks.cpp:17 mode=kernel backend=sim iterations=40008 devices=3{{$}}
// CHECK: sim:3: alias-checks.cpp:17 mode=kernel backend=cpu iterations=40007 devices=1 serial='out' and 'in' overlap in memory
// CHECK: sim:3: alias-checks.cpp:27 mode=kernel backend=sim iterations=40008 devices=3{{$}}
// CHECK: sim:3: alias-checks.cpp:27 mode=kernel backend=cpu iterations=40008 devices=1 serial='out' and 'g.v' overlap in memory
// CHECK: sim:3: alias-checks.cpp:33 mode=host backend=cpu iterations=40007 devices=1{{$}}
// CHECK: sim:3: alias-checks.cpp:33 mode=host backend=cpu iterations=40005 devices=1 serial='out' and 'in' overlap in memory
// CHECK: sim:3: alias-checks.cpp:33 mode=host backend=cpu iterations=20001 devices=1{{$}}
// CHECK: sim:3: alias-checks.cpp:47 mode=host backend=cpu iterations=40008 devices=1{{$}}
// CHECK: sim:3: alias-checks.cpp:47 mode=host backend=cpu iterations=40008 devices=1 serial='out' and 'p' overlap in memory
// CHECK: sim:3: alias-checks.cpp:39 mode=host backend=cpu iterations=40000 devices=1{{$}}
// CHECK: sim:3: alias-checks.cpp:39 mode=host backend=cpu iterations=20000 devices=1 serial='out' and 'in' overlap in memory
