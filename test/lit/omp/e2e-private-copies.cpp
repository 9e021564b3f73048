// firstprivate and lastprivate end to end: OpenMP- and OpenACC-annotated loops
// rewritten with --accept=omp,acc must print what the program's OpenMP build
// (g++ -fopenmp, four threads) prints, on CPU threads, three simulated devices,
// four of uneven speed, and three of which one fails a chunk and one runs out
// of memory (a retried chunk must write its lastprivate copy back once). Kernel-, task- and host-mode loops; ascending,
// descending and stepped loops; `continue` before the last iteration's copy-back;
// a variable in both clauses; a reduction beside a lastprivate.
// RUN: %e2e --out %t --accept omp,acc --reference-openmp --devices "cpu;sim:3;sim:4,speed=1:2:1:1;sim:3,fail=1@2,oom=2@1" %s | FileCheck %s
#include <cstdio>
#include <string>
#include <vector>

// A host function of the user's: loops calling it run in task mode.
static std::string label(int i) { return "item-" + std::to_string(i); }

int main() {
  const int n = 20000;
  std::vector<double> x(n), y(n, 0.0);
  for (int i = 0; i < n; ++i)
    x[i] = (i % 97) * 0.25;

  // Kernel mode: a firstprivate scalar and array read by every iteration; the
  // lastprivate copy of the last iteration comes back.
  double scale = 1.5, last = -1;
  int weights[3] = {2, 3, 5};
#pragma omp parallel for firstprivate(scale, weights) lastprivate(last)
  for (int i = 0; i < n; ++i) {
    last = x[i] * scale + weights[i % 3];
    y[i] = last;
  }
  std::printf("kernel: last=%.3f y[7]=%.3f\n", last, y[7]);

  // Descending, stepped by 3: the last iteration is the smallest i reached.
  int lowest = -1, seen = 0;
  long sum = 0;
#pragma omp parallel for lastprivate(lowest, seen) reduction(+ : sum)
  for (int i = n - 1; i >= 5; i -= 3) {
    if (i % 2 == 0)
      continue; // not the last iteration: n - 1 - 3k ends at an odd value
    lowest = i;
    seen = i * 2 + 1;
    sum += i;
  }
  std::printf("descending: lowest=%d seen=%d sum=%ld\n", lowest, seen, sum);

  // firstprivate and lastprivate on one variable: the copy starts from the
  // outside value and the last iteration's copy is written back.
  int base = 40;
#pragma omp parallel for firstprivate(base) lastprivate(base)
  for (int i = 0; i < n; ++i) {
    if (i == n - 1)
      base = base * 2 + int(x[i]);
  }
  std::printf("both: base=%d\n", base);

  // An offload directive: its map clauses become the loop's data maps.
  const double *px = x.data();
  double *py = y.data();
  const double shift = 2.0;
#pragma omp target teams distribute parallel for firstprivate(shift) map(to : px[0:n]) map(tofrom : py[0:n])
  for (int i = 0; i < n; ++i)
    py[i] = py[i] * 0.5 + px[i] + shift;
  std::printf("target: y[11]=%.3f y[n-1]=%.3f\n", y[11], y[n - 1]);

  // Host mode (the function it calls builds a std::string, which a GPU
  // cannot): a std::string lastprivate.
  std::string name = "none";
  std::vector<int> lengths(64);
#pragma omp parallel for lastprivate(name)
  for (int i = 0; i < 64; ++i) {
    name = label(i);
    lengths[i] = int(name.size());
  }
  std::printf("task: name=%s lengths[63]=%d\n", name.c_str(), lengths[63]);

  // OpenACC: firstprivate copies of an offset, as `acc parallel loop` says.
  double offset = 0.5;
  std::vector<double> z(n);
#pragma acc parallel loop firstprivate(offset) copyin(x[0:n]) copyout(z[0:n])
  for (int i = 0; i < n; ++i)
    z[i] = x[i] + offset;
  double zs = 0;
  for (int i = 0; i < n; ++i)
    zs += z[i];
  std::printf("acc: zs=%.3f\n", zs);
}
// CHECK: cpu: e2e-private-copies.cpp:26 mode=kernel backend=cpu iterations=20000 devices=1
// CHECK: sim:3: e2e-private-copies.cpp:26 mode=kernel backend=sim iterations=20000 devices=3
// CHECK: sim:3: e2e-private-copies.cpp:36 mode=kernel backend=sim
// CHECK: sim:3: e2e-private-copies.cpp:49 mode=kernel backend=sim
// CHECK: sim:3: e2e-private-copies.cpp:60 mode=kernel backend=sim iterations=20000 devices=3
// CHECK: sim:3: e2e-private-copies.cpp:69 mode=host backend=cpu iterations=64
// CHECK: sim:4,speed=1:2:1:1: e2e-private-copies.cpp:26 mode=kernel backend=sim iterations=20000 devices=4
// CHECK: sim:4,speed=1:2:1:1: e2e-private-copies.cpp:69 mode=host backend=cpu iterations=64
// CHECK: sim:4,speed=1:2:1:1: e2e-private-copies.cpp:79 mode=kernel backend=sim iterations=20000
// CHECK: sim:3,fail=1@2,oom=2@1: e2e-private-copies.cpp:26 mode=kernel backend=sim iterations=20000
// CHECK: nvcc: compiled
