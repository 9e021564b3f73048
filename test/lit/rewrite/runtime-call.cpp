// The runtime call a loop becomes: the entry point of its mode, one options()
// setter per clause written, reductions, data maps, and a body whose
// parameters carry the user's names.
// RUN: %gpu-autopar %s -- -std=c++17 2>/dev/null | FileCheck %s --match-full-lines
#include <vector>

double dot(const std::vector<double> &x, const std::vector<double> &y, int n) {
  double sum = 0;
  long hits = 0;
#pragma gpu_autopar for reduction(+: sum) reduction(max: hits) schedule(dynamic, 64) devices(2) slots(3) fallback(gpu) min_iterations(1000)
  for (int i = 0; i < n; ++i) {
    sum += x[i] * y[i];
    hits = hits > i ? hits : i;
  }
  return sum + hits;
}
// CHECK:      ::gpu_autopar::kernel_loop(::gpu_autopar::loop_site{"runtime-call.cpp", [[@LINE-7]]},
// CHECK-NEXT:     ::gpu_autopar::iterations<int>((0), ::gpu_autopar::less, (n), 1), ::gpu_autopar::options().schedule(::gpu_autopar::schedule_kind::dynamic, (64)).devices((2)).slots((3)).fallback(::gpu_autopar::fallback_policy::gpu).min_iterations((1000)),
// CHECK-NEXT:     ::gpu_autopar::data(::gpu_autopar::to(x, ::gpu_autopar::affine(1, 0, 1)),
// CHECK-NEXT:       ::gpu_autopar::to(y, ::gpu_autopar::affine(1, 0, 1))),
// CHECK-NEXT:     ::gpu_autopar::reductions(::gpu_autopar::reduce<::gpu_autopar::op::plus>(sum), ::gpu_autopar::reduce<::gpu_autopar::op::max>(hits)),
// CHECK-NEXT:     [=] GPU_AUTOPAR_HD (int i, ::gpu_autopar::read_view<decltype(x)> x, ::gpu_autopar::read_view<decltype(y)> y, double& sum, long& hits)
// CHECK-NEXT: #line [[#@LINE-12]] "{{.*}}runtime-call.cpp"
// CHECK-NEXT:                               {
// CHECK-NEXT:     sum += x[i] * y[i];
// CHECK-NEXT:     hits = hits > i ? hits : i;
// CHECK-NEXT:   });
// CHECK-NEXT: #line {{[0-9]+}} "{{.*}}runtime-call.cpp"

// A range-based for declares its variable from the container; private
// variables get a fresh declaration at the start of the body.
void squares(std::vector<int> &v) {
  int t;
#pragma gpu_autopar for private(t)
  for (int &e : v) {
    t = e * e;
    e = t;
  }
}
// CHECK:      ::gpu_autopar::kernel_loop(::gpu_autopar::loop_site{"runtime-call.cpp", [[@LINE-6]]},
// CHECK-NEXT:     ::gpu_autopar::iterations<::std::size_t>(0, ::gpu_autopar::less, ::std::size(v), 1), ::gpu_autopar::options(),
// CHECK-NEXT:     ::gpu_autopar::data(::gpu_autopar::tofrom(v, ::gpu_autopar::affine(1, 0, 1))),
// CHECK-NEXT:     ::gpu_autopar::reductions(),
// CHECK-NEXT:     [=] GPU_AUTOPAR_HD (::std::size_t gpu_autopar_k, ::gpu_autopar::view<decltype(v)> v)
// CHECK-NEXT: #line [[#@LINE-10]] "{{.*}}runtime-call.cpp"
// CHECK-NEXT:                     { int &e = v[gpu_autopar_k]; decltype(t) t;

// A call of a host function of the user's makes the loop task mode: the body
// runs on a worker holding a lease and keeps capturing by reference.
void process(int channel);
void all_channels(int count) {
#pragma gpu_autopar for
  for (int c = 0; c < count; ++c)
    process(c);
}
// CHECK:      ::gpu_autopar::task_loop(::gpu_autopar::loop_site{"runtime-call.cpp", [[@LINE-4]]},
// CHECK-NEXT:     ::gpu_autopar::iterations<int>((0), ::gpu_autopar::less, (count), 1), ::gpu_autopar::options(),
// CHECK-NEXT:     ::gpu_autopar::reductions(),
// CHECK-NEXT:     [&](int c) {
// CHECK-NEXT: #line [[#@LINE-6]] "{{.*}}runtime-call.cpp"
// CHECK-NEXT:     process(c); });
