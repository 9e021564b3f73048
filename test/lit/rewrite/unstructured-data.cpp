// `enter data` and `exit data` become calls on the directive's own line:
// enter_data with the sections entered; exit_data with those leaving by
// `from` or `release` (freed without a copy, as map_kind::alloc), and
// delete_data with those leaving by `delete`. Run again on its output, the
// tool changes nothing.
// RUN: %gpu-autopar %s -- -std=c++17 2>/dev/null > %t.1.cpp
// RUN: FileCheck %s --match-full-lines < %t.1.cpp
// RUN: %gpu-autopar %t.1.cpp -- -std=c++17 -I%S/../../../runtime/include > %t.2.cpp
// RUN: diff %t.1.cpp %t.2.cpp
#include <vector>

void enter(float *a, std::vector<float> &b, double *c, int n) {
#pragma gpu_autopar enter data map(to: a[0:n], b) map(alloc: c[n:n])
}
// CHECK: ::gpu_autopar::enter_data(::gpu_autopar::loop_site{"unstructured-data.cpp", 13}, {::gpu_autopar::section(::gpu_autopar::map_kind::to, a, (0), (n), "a[0:n]"), ::gpu_autopar::section(::gpu_autopar::map_kind::to, b, "b"), ::gpu_autopar::section(::gpu_autopar::map_kind::alloc, c, (n), (n), "c[n:n]")});

void leave(float *a, std::vector<float> &b, double *c, int n) {
  #pragma gpu_autopar exit data map(from: b) map(release: a[0:n]) map(delete: c[n:n])
  #pragma gpu_autopar exit data map(delete: b)
  #pragma gpu_autopar exit data map(from: b) finalize
  #pragma gpu_autopar exit data finalize, map(release: a[0:n])
}
// CHECK: ::gpu_autopar::exit_data(::gpu_autopar::loop_site{"unstructured-data.cpp", 18}, {::gpu_autopar::section(::gpu_autopar::map_kind::from, b, "b"), ::gpu_autopar::section(::gpu_autopar::map_kind::alloc, a, (0), (n), "a[0:n]")}); ::gpu_autopar::delete_data(::gpu_autopar::loop_site{"unstructured-data.cpp", 18}, {::gpu_autopar::section(::gpu_autopar::map_kind::alloc, c, (n), (n), "c[n:n]")});
// CHECK-NEXT: ::gpu_autopar::delete_data(::gpu_autopar::loop_site{"unstructured-data.cpp", 19}, {::gpu_autopar::section(::gpu_autopar::map_kind::alloc, b, "b")});
// CHECK-NEXT: ::gpu_autopar::exit_data(::gpu_autopar::loop_site{"unstructured-data.cpp", 20}, {::gpu_autopar::section(::gpu_autopar::map_kind::from, b, "b")}, ::gpu_autopar::finalize);
// CHECK-NEXT: ::gpu_autopar::exit_data(::gpu_autopar::loop_site{"unstructured-data.cpp", 21}, {::gpu_autopar::section(::gpu_autopar::map_kind::alloc, a, (0), (n), "a[0:n]")}, ::gpu_autopar::finalize);
