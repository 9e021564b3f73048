// OpenMP's `target data` and `target update` and OpenACC's `data` and
// `update` become gpu_autopar's own data region and updates
// (docs/migration.md): the region object on the directive's line, the
// updates as calls, in the order written; `if_present`, `device`, `async`
// and `nowait` are remarks. Run again on its output, the tool changes nothing.
// RUN: %gpu-autopar --accept=omp,acc %s -- -std=c++17 2> %t.err > %t.1.cpp
// RUN: FileCheck %s --match-full-lines < %t.1.cpp
// RUN: FileCheck %s --check-prefix=REMARK --input-file %t.err --implicit-check-not=error: --implicit-check-not=warning:
// RUN: %gpu-autopar --accept=omp,acc %t.1.cpp -- -std=c++17 > %t.2.cpp
// RUN: diff %t.1.cpp %t.2.cpp
// --convert writes the gpu_autopar spelling of each directive, and the
// converted file rewrites as the original does.
// RUN: %gpu-autopar --accept=omp,acc --convert %s -- -std=c++17 2> /dev/null | FileCheck %s --check-prefix=CONVERT --match-full-lines
// RUN: %convert-check --accept omp,acc --out %t %s | FileCheck %s --check-prefix=SAME
// SAME: data-regions.cpp: 15 directives converted, same rewrite
#include <vector>

void omp(float *__restrict__ p, const float *__restrict__ q, std::vector<float> &v, int n) {
#pragma omp target data map(to: q[0:n]) map(tofrom: p[:n], v) device(0)
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i) p[i] += q[i];
#pragma omp target update from(p[0:1]) to(q[0:n]) nowait
    p[0] = 0;
#pragma omp target update to(p[0:1])
  }
}
// CHECK: { ::gpu_autopar::data_region gpu_autopar_data_19(::gpu_autopar::loop_site{"data-regions.cpp", 19}, {::gpu_autopar::section(::gpu_autopar::map_kind::to, q, (0), (n), "q[0:n]"), ::gpu_autopar::section(::gpu_autopar::map_kind::tofrom, p, (0), (n), "p[0:n]"), ::gpu_autopar::section(::gpu_autopar::map_kind::tofrom, v, "v")});
// CHECK: ::gpu_autopar::update_host(p, (0), (1)); ::gpu_autopar::update_device(q, (0), (n));
// CHECK-NEXT:     p[0] = 0;
// CHECK-NEXT: ::gpu_autopar::update_device(p, (0), (1));
// CHECK-NEXT:   }}
// CONVERT: #pragma gpu_autopar data map(to: q[0:n]) map(tofrom: p[0:n], v)
// CONVERT: #pragma gpu_autopar update host(p[0:1]) device(q[0:n])
// CONVERT: #pragma gpu_autopar update device(p[0:1])
// REMARK: data-regions.cpp:19:63: remark: 'device' ignored: the runtime chooses the devices
// REMARK: data-regions.cpp:23:51: remark: 'nowait' ignored: the update completes before the code after it runs

void acc(float *__restrict__ p, const float *__restrict__ q, float *__restrict__ t, std::vector<float> &w, int n) {
#pragma acc data copyin(q[0:n]) copyout(p[0:n]) create(t[0:n]) copy(w)
  {
#pragma acc parallel loop
    for (int i = 0; i < n; ++i) t[i] = q[i] * 2;
#pragma acc parallel loop
    for (int i = 0; i < n; ++i) p[i] = t[i] + 1;
#pragma acc update self(p[0:n]) if_present
#pragma acc update host(t[0:1]) device(q[0:1]) async(1)
  }
}
// CHECK: { ::gpu_autopar::data_region gpu_autopar_data_40(::gpu_autopar::loop_site{"data-regions.cpp", 40}, {::gpu_autopar::section(::gpu_autopar::map_kind::to, q, (0), (n), "q[0:n]"), ::gpu_autopar::section(::gpu_autopar::map_kind::from, p, (0), (n), "p[0:n]"), ::gpu_autopar::section(::gpu_autopar::map_kind::alloc, t, (0), (n), "t[0:n]"), ::gpu_autopar::section(::gpu_autopar::map_kind::tofrom, w, "w")});
// CHECK: ::gpu_autopar::update_host(p, (0), (n));
// CHECK-NEXT: ::gpu_autopar::update_host(t, (0), (1)); ::gpu_autopar::update_device(q, (0), (1));
// CONVERT: #pragma gpu_autopar data map(to: q[0:n]) map(from: p[0:n]) map(alloc: t[0:n]) map(tofrom: w)
// CONVERT: #pragma gpu_autopar update host(p[0:n])
// CONVERT: #pragma gpu_autopar update host(t[0:1]) device(q[0:1])
// REMARK: data-regions.cpp:46:33: remark: 'if_present' ignored: an update of data that no region maps does nothing
// REMARK: data-regions.cpp:47:48: remark: 'async' ignored: the update completes before the code after it runs

// Unstructured data: OpenMP's map types, OpenACC's copyin/create on entry and
// copyout/delete on exit (one reference; with finalize all, copyout still copying).
void unstructured(float *__restrict__ p, std::vector<float> &v, std::vector<int> &w, int n) {
#pragma omp target enter data map(to: p[0:n]) map(alloc: v)
#pragma omp target exit data map(from: p[0:n]) map(release: v) map(delete: w) nowait
#pragma acc enter data copyin(p[0:n]) create(v)
#pragma acc exit data copyout(p[0:n]) delete(v)
#pragma acc exit data delete(v) finalize
#pragma acc exit data copyout(p[0:n]) finalize
}
// CHECK: ::gpu_autopar::enter_data(::gpu_autopar::loop_site{"data-regions.cpp", [[#LINE:]]}, {::gpu_autopar::section(::gpu_autopar::map_kind::to, p, (0), (n), "p[0:n]"), ::gpu_autopar::section(::gpu_autopar::map_kind::alloc, v, "v")});
// CHECK-NEXT: ::gpu_autopar::exit_data(::gpu_autopar::loop_site{"data-regions.cpp", [[#LINE+1]]}, {::gpu_autopar::section(::gpu_autopar::map_kind::from, p, (0), (n), "p[0:n]"), ::gpu_autopar::section(::gpu_autopar::map_kind::alloc, v, "v")}); ::gpu_autopar::delete_data(::gpu_autopar::loop_site{"data-regions.cpp", [[#LINE+1]]}, {::gpu_autopar::section(::gpu_autopar::map_kind::alloc, w, "w")});
// CHECK-NEXT: ::gpu_autopar::enter_data(::gpu_autopar::loop_site{"data-regions.cpp", [[#LINE+2]]}, {::gpu_autopar::section(::gpu_autopar::map_kind::to, p, (0), (n), "p[0:n]"), ::gpu_autopar::section(::gpu_autopar::map_kind::alloc, v, "v")});
// CHECK-NEXT: ::gpu_autopar::exit_data(::gpu_autopar::loop_site{"data-regions.cpp", [[#LINE+3]]}, {::gpu_autopar::section(::gpu_autopar::map_kind::from, p, (0), (n), "p[0:n]"), ::gpu_autopar::section(::gpu_autopar::map_kind::alloc, v, "v")});
// CHECK-NEXT: ::gpu_autopar::delete_data(::gpu_autopar::loop_site{"data-regions.cpp", [[#LINE+4]]}, {::gpu_autopar::section(::gpu_autopar::map_kind::alloc, v, "v")});
// CHECK-NEXT: ::gpu_autopar::exit_data(::gpu_autopar::loop_site{"data-regions.cpp", [[#LINE+5]]}, {::gpu_autopar::section(::gpu_autopar::map_kind::from, p, (0), (n), "p[0:n]")}, ::gpu_autopar::finalize);
// CONVERT: #pragma gpu_autopar enter data map(to: p[0:n]) map(alloc: v)
// CONVERT-NEXT: #pragma gpu_autopar exit data map(from: p[0:n]) map(release: v) map(delete: w)
// CONVERT-NEXT: #pragma gpu_autopar enter data map(to: p[0:n]) map(alloc: v)
// CONVERT-NEXT: #pragma gpu_autopar exit data map(from: p[0:n]) map(release: v)
// CONVERT-NEXT: #pragma gpu_autopar exit data map(delete: v) finalize
// CONVERT-NEXT: #pragma gpu_autopar exit data map(from: p[0:n]) finalize
// REMARK: data-regions.cpp:63:79: remark: 'nowait' ignored: the copies complete before the code after them runs
