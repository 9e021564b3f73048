// lastprivate and firstprivate in gpu_autopar's own syntax: the serial program
// (pragmas ignored) leaves in `last` and `tail` what the sequentially last
// iteration wrote, and so must every split of the loop — over devices here,
// over the ranks of an MPI job in test/mpi (the rank that ran the last
// iteration supplies the value). A descending loop's last iteration is its
// lowest index.
// RUN: %e2e --out %t %s | FileCheck %s
#include <cstdio>
#include <vector>

int main() {
  const int n = 100003;
  std::vector<long long> out(n, 0);
  long long *o = out.data();
  long long last = -1, sum = 0;
  int tail[2] = {-1, -1};
  const long long offset = 11;
#pragma gpu_autopar for firstprivate(offset) lastprivate(last, tail) reduction(+: sum) map(from: o[0:n])
  for (int i = 0; i < n; ++i) {
    last = (i * 7LL) % 1009 + offset;
    tail[0] = i;
    tail[1] = int(last);
    o[i] = last;
    sum += last;
  }
  std::printf("last=%lld tail=%d,%d sum=%lld o[n-1]=%lld\n", last, tail[0], tail[1], sum, out[n - 1]);

  int lowest = -1;
#pragma gpu_autopar for lastprivate(lowest) map(tofrom: o[0:n])
  for (int i = n - 1; i >= 0; --i) {
    lowest = i * 3;
    o[i] += lowest;
  }
  std::printf("lowest=%d o[0]=%lld o[n-1]=%lld\n", lowest, out[0], out[n - 1]);
}
// CHECK: cpu: lastprivate.cpp:18 mode=kernel backend=cpu iterations=100003 devices=1
// CHECK: cpu: lastprivate.cpp:29 mode=kernel backend=cpu iterations=100003 devices=1
// CHECK: sim:3: lastprivate.cpp:18 mode=kernel backend=sim iterations=100003 devices=3
// CHECK: sim:3: lastprivate.cpp:29 mode=kernel backend=sim iterations=100003 devices=3
// CHECK: sim:4,speed=1:2:1:1: lastprivate.cpp:18 mode=kernel backend=sim iterations=100003 devices=4
// CHECK: sim:4,speed=1:2:1:1: lastprivate.cpp:29 mode=kernel backend=sim iterations=100003 devices=4
