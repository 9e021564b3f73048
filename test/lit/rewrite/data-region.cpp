// A data region becomes a block holding a region object, on the pragma's
// own line (line numbers do not move); `update` directives become calls; the
// loops inside are rewritten as anywhere else. Run again on its output, the
// tool changes nothing.
// RUN: %gpu-autopar %s -- -std=c++17 2>/dev/null > %t.1.cpp
// RUN: FileCheck %s --match-full-lines < %t.1.cpp
// RUN: %gpu-autopar %t.1.cpp -- -std=c++17 -I%S/../../../runtime/include > %t.2.cpp
// RUN: diff %t.1.cpp %t.2.cpp
#include <vector>

void relax(float *a, std::vector<float> &b, int n, int sweeps) {
  #pragma gpu_autopar data map(to: a[0:n]) map(tofrom: b)
  {
    for (int s = 0; s < sweeps; ++s) {
#pragma gpu_autopar for
      for (int i = 0; i < n; ++i)
        b[i] = b[i] + a[i];
    }
#pragma gpu_autopar update host(b[1:n - 2]) 
    b[0] = b[1];
#pragma gpu_autopar update device(b[0:1], a[0:n])
#pragma gpu_autopar update host(a[0:1]) device(b[0:1])
  }
}
// CHECK:        { ::gpu_autopar::data_region gpu_autopar_data_12(::gpu_autopar::loop_site{"data-region.cpp", 12}, {::gpu_autopar::section(::gpu_autopar::map_kind::to, a, (0), (n), "a[0:n]"), ::gpu_autopar::section(::gpu_autopar::map_kind::tofrom, b, "b")});
// CHECK-NEXT:   {
// CHECK-NEXT:     for (int s = 0; s < sweeps; ++s) {
// CHECK-NEXT:       ::gpu_autopar::kernel_loop(::gpu_autopar::loop_site{"data-region.cpp", 15},
// CHECK:      ::gpu_autopar::update_host(b, (1), (n - 2));
// CHECK-NEXT:     b[0] = b[1];
// CHECK-NEXT: ::gpu_autopar::update_device(b, (0), (1)); ::gpu_autopar::update_device(a, (0), (n));
// CHECK-NEXT: ::gpu_autopar::update_host(a, (0), (1)); ::gpu_autopar::update_device(b, (0), (1));
// CHECK-NEXT:   }}
