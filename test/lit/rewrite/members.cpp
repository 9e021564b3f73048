// Members in kernel mode: a member the body indexes is mapped (the map names
// it where the loop stands, `this->u`, `g.u`) and the body indexes the map's
// view under a name of its own, put where the body spelled the member; a
// number read through a member is copied once, before the call, in a block of
// its own, which the body's lambda captures (nvcc allows no init-capture in an
// extended __host__ __device__ lambda). Nothing in the body names `this`.
// RUN: %gpu-autopar %s -- -std=c++17 | FileCheck %s --match-full-lines
#include <vector>
struct Grid {
  std::vector<double> u, v;
  double scale;
  int n;
  void step() {
#pragma gpu_autopar for
    for (int i = 0; i < n; ++i)
      this->u[i] = scale * v[i] + u.size();
  }
// CHECK:      {{ *}}{ const auto gpu_autopar_this_scale = this->scale; ::gpu_autopar::kernel_loop(::gpu_autopar::loop_site{"members.cpp", 14},
// CHECK-NEXT: {{ *}}::gpu_autopar::iterations<int>((0), ::gpu_autopar::less, (n), 1), ::gpu_autopar::options(),
// CHECK-NEXT: {{ *}}::gpu_autopar::data(::gpu_autopar::from(this->u, ::gpu_autopar::affine(1, 0, 1)),
// CHECK-NEXT: {{ *}}::gpu_autopar::to(this->v, ::gpu_autopar::affine(1, 0, 1))),
// CHECK-NEXT: {{ *}}::gpu_autopar::reductions(),
// CHECK-NEXT: {{ *}}[=] GPU_AUTOPAR_HD (int i, ::gpu_autopar::view<decltype((this->u))> gpu_autopar_this_u, ::gpu_autopar::read_view<decltype((this->v))> gpu_autopar_this_v) {
// CHECK-NEXT: #line 16 "{{.*}}members.cpp"
// CHECK-NEXT:       gpu_autopar_this_u[i] = gpu_autopar_this_scale * gpu_autopar_this_v[i] + gpu_autopar_this_u.size(); }); }
};

struct Field {
  float *data;
  int n;
};
struct Pair {
  Field in, out;
  float k;
};
void apply(Pair &p) {
#pragma gpu_autopar for
  for (int i = 1; i < p.out.n; ++i)
    p.out.data[i] = p.k * p.in.data[i - 1];
}
// Two pointer members may point into one buffer: their maps are compared.
// CHECK:      void apply(Pair &p) {
// CHECK-NEXT:   { const auto gpu_autopar_p_k = p.k; ::gpu_autopar::kernel_loop(::gpu_autopar::loop_site{"members.cpp", 37},
// CHECK-NEXT:       ::gpu_autopar::iterations<int>((1), ::gpu_autopar::less, (p.out.n), 1), ::gpu_autopar::options().check_disjoint(0, "p.out.data", 1, "p.in.data"),
// CHECK-NEXT:       ::gpu_autopar::data(::gpu_autopar::from(p.out.data, ::gpu_autopar::affine(1, 0, 1)),
// CHECK-NEXT:         ::gpu_autopar::to(p.in.data, ::gpu_autopar::affine(1, -1, 1))),
// CHECK-NEXT:       ::gpu_autopar::reductions(),
// CHECK-NEXT:       [=] GPU_AUTOPAR_HD (int i, ::gpu_autopar::view<decltype((p.out.data))> gpu_autopar_p_out_data, ::gpu_autopar::read_view<decltype((p.in.data))> gpu_autopar_p_in_data) {
// CHECK-NEXT: #line 39 "{{.*}}members.cpp"
// CHECK-NEXT:     gpu_autopar_p_out_data[i] = gpu_autopar_p_k * gpu_autopar_p_in_data[i - 1]; }); }
