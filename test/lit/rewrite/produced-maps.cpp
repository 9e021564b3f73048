// Host- and task-mode loops with map(from:)/map(tofrom:) clauses pass the
// objects they produce to the runtime (docs/generated-code.md), each whole;
// map(to:) clauses and raw pointers without [lo:len] are left out.
// RUN: %gpu-autopar %s -- -std=c++17 2>/dev/null | FileCheck %s --match-full-lines
#include <string>
#include <vector>

double shade(int i);

void render(double *out, double *raw, std::vector<int> &hits, const double *in, int n) {
#pragma gpu_autopar for map(from: out[0:n]) map(tofrom: hits) map(to: in[0:n]) map(from: raw)
  for (int i = 0; i < n; ++i) {
    out[i] = shade(i) + in[i];
    raw[i] = 0;
    hits[i] += 1;
  }
}

void label(std::vector<std::string> &names, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    names[i] = std::to_string(i);
}
// CHECK:      ::gpu_autopar::task_loop(::gpu_autopar::loop_site{"produced-maps.cpp", 11},
// CHECK-NEXT:     ::gpu_autopar::iterations<int>((0), ::gpu_autopar::less, (n), 1), ::gpu_autopar::options().check_disjoint_objects(::gpu_autopar::section_bytes(::gpu_autopar::iterations<int>((0), ::gpu_autopar::less, (n), 1), out, ::gpu_autopar::affine(1, 0, 1)), "out", ::gpu_autopar::section_bytes(::gpu_autopar::iterations<int>((0), ::gpu_autopar::less, (n), 1), in, ::gpu_autopar::affine(1, 0, 1)), "in").check_disjoint_objects(::gpu_autopar::section_bytes(::gpu_autopar::iterations<int>((0), ::gpu_autopar::less, (n), 1), out, ::gpu_autopar::affine(1, 0, 1)), "out", ::gpu_autopar::section_bytes(::gpu_autopar::iterations<int>((0), ::gpu_autopar::less, (n), 1), raw, ::gpu_autopar::affine(1, 0, 1)), "raw").check_disjoint_objects(::gpu_autopar::section_bytes(::gpu_autopar::iterations<int>((0), ::gpu_autopar::less, (n), 1), raw, ::gpu_autopar::affine(1, 0, 1)), "raw", ::gpu_autopar::section_bytes(::gpu_autopar::iterations<int>((0), ::gpu_autopar::less, (n), 1), in, ::gpu_autopar::affine(1, 0, 1)), "in"),
// CHECK-NEXT:     ::gpu_autopar::data(::gpu_autopar::from(out, (0), (n), ::gpu_autopar::whole()), ::gpu_autopar::tofrom(hits, ::gpu_autopar::whole())),
// CHECK-NEXT:     ::gpu_autopar::reductions(),
// CHECK:      ::gpu_autopar::host_loop(::gpu_autopar::loop_site{"produced-maps.cpp", 20},
// CHECK-NEXT:     ::gpu_autopar::iterations<int>((0), ::gpu_autopar::less, (n), 1), ::gpu_autopar::options(),
// CHECK-NEXT:     ::gpu_autopar::reductions(),
