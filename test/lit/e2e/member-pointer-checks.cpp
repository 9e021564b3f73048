// Raw pointers held in members (`dst.data[i] = ... src.data[i - 1]` with
// `Field &dst, const Field &src`): the loop runs on CPU threads (a member is
// not mapped), and compares the bytes the two pointers cover over the whole
// loop before it runs. Distinct fields, and two halves of one array that do
// not meet, run in parallel; one field passed twice, or a field shifted by
// one element, is a recurrence and runs serially on the calling thread,
// printing what the serial program prints.
// RUN: %e2e --out %t %s | FileCheck %s
#include <cstdio>
#include <vector>

struct Field {
  double *data;
  int n;
};

void smooth(Field &dst, const Field &src) {
#pragma gpu_autopar for
  for (int i = 1; i < dst.n; ++i)
    dst.data[i] = src.data[i - 1] * 0.5 + i % 3;
}

int main() {
  const int n = 40000;
  std::vector<double> a(n + 1), b(n + 1);
  for (int i = 0; i <= n; ++i) {
    a[i] = i % 10;
    b[i] = i % 7;
  }
  Field fa{a.data(), n}, fb{b.data(), n}, shifted{a.data() + 1, n}, upper{a.data() + n / 2, n / 2},
      lower{a.data(), n / 2 - 1};
  smooth(fb, fa);
  smooth(fa, fa);
  smooth(shifted, fa);
  smooth(upper, lower);
  double s = 0;
  for (int i = 0; i <= n; ++i)
    s += a[i] * (i % 13) + b[i] * (i % 11);
  std::printf("s=%.1f a[n]=%.3f b[n]=%.1f\n", s, a[n], b[n]);
}
// CHECK: cpu: member-pointer-checks.cpp:18 mode=host backend=cpu iterations=39999 devices=1{{$}}
// CHECK: cpu: member-pointer-checks.cpp:18 mode=host backend=cpu iterations=39999 devices=1 serial='dst.data' and 'src.data' overlap in memory
// CHECK: cpu: member-pointer-checks.cpp:18 mode=host backend=cpu iterations=39999 devices=1 serial='dst.data' and 'src.data' overlap in memory
// CHECK: cpu: member-pointer-checks.cpp:18 mode=host backend=cpu iterations=19999 devices=1{{$}}
// CHECK: sim:3: member-pointer-checks.cpp:18 mode=host backend=cpu iterations=39999 devices=1{{$}}
// CHECK: sim:3: member-pointer-checks.cpp:18 mode=host backend=cpu iterations=39999 devices=1 serial='dst.data' and 'src.data' overlap in memory
