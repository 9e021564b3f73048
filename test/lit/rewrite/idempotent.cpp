// Running the tool on its own output changes nothing.
// RUN: %gpu-autopar %s -- -std=c++17 > %t.1.cpp
// RUN: %gpu-autopar %t.1.cpp -- -std=c++17 -I%S/../../../runtime/include > %t.2.cpp
// RUN: diff %t.1.cpp %t.2.cpp
// RUN: FileCheck %s < %t.1.cpp
// CHECK: ::gpu_autopar::for_loop(
void twice(double *a, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    a[i] *= 2;
}
