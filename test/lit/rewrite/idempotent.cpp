// Running the tool on its own output changes nothing: the output has no
// annotations left, and everything else is kept byte for byte.
// RUN: %gpu-autopar %s -- -std=c++17 > %t.1.cpp
// RUN: %gpu-autopar %t.1.cpp -- -std=c++17 -I%S/../../../runtime/include > %t.2.cpp
// RUN: diff %t.1.cpp %t.2.cpp
// RUN: FileCheck %s --match-full-lines < %t.1.cpp
// RUN: not grep '^#pragma gpu_autopar' %t.1.cpp
// CHECK: ::gpu_autopar::kernel_loop(::gpu_autopar::loop_site{"idempotent.cpp", [[@LINE+2]]},
void twice(double *a, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    a[i] *= 2;
}
