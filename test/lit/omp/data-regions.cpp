// OpenMP's and OpenACC's data directives are not translated into gpu_autopar's
// own data regions (yet): each is an error naming the construct and saying
// what to write instead, and the file is left exactly as it was, even under -i.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/regions.cpp
// RUN: %expect-exit 1 %gpu-autopar --accept=omp,acc -i %t/regions.cpp -- -std=c++17 2> %t/err
// RUN: FileCheck %s --input-file %t/err --implicit-check-not=error: --implicit-check-not=warning:
// RUN: diff %s %t/regions.cpp
// --convert does not write it either.
// RUN: %expect-exit 1 %gpu-autopar --accept=omp,acc --convert %t/regions.cpp -o %t/converted.cpp -- -std=c++17 2> /dev/null
// RUN: not test -e %t/converted.cpp
void regions(float *__restrict__ p, const float *__restrict__ q, int n) {
#pragma omp target data map(to: q[0:n]) map(from: p[0:n])
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i) p[i] = q[i];
  }
// CHECK: regions.cpp:[[@LINE-5]]:1: error: '#pragma omp target data' is not translated: write '#pragma gpu_autopar data map(...)' before the block instead (docs/runtime.md, data regions)
#pragma omp target enter data map(to: q[0:n])
// CHECK: regions.cpp:[[@LINE-1]]:1: error: '#pragma omp target enter data' is not translated: unstructured data regions have no gpu_autopar equivalent; a '#pragma gpu_autopar data map(...)' block around the loops keeps their data on the devices
#pragma omp target update from(p[0:n])
// CHECK: regions.cpp:[[@LINE-1]]:1: error: '#pragma omp target update' is not translated: inside a '#pragma gpu_autopar data' region, write '#pragma gpu_autopar update host(...)' or 'device(...)' instead
#pragma omp target exit data map(delete: q[0:n])
// CHECK: regions.cpp:[[@LINE-1]]:1: error: '#pragma omp target exit data' is not translated: unstructured data regions have no gpu_autopar equivalent; a '#pragma gpu_autopar data map(...)' block around the loops keeps their data on the devices
#pragma acc data copyin(q[0:n]) copyout(p[0:n])
  {
#pragma acc parallel loop
    for (int i = 0; i < n; ++i) p[i] = q[i];
  }
// CHECK: regions.cpp:[[@LINE-5]]:1: error: '#pragma acc data' is not translated: write '#pragma gpu_autopar data map(...)' before the block instead (docs/runtime.md, data regions)
#pragma acc enter data copyin(q[0:n])
// CHECK: regions.cpp:[[@LINE-1]]:1: error: '#pragma acc enter data' is not translated: unstructured data regions have no gpu_autopar equivalent; a '#pragma gpu_autopar data map(...)' block around the loops keeps their data on the devices
#pragma acc update self(p[0:n])
// CHECK: regions.cpp:[[@LINE-1]]:1: error: '#pragma acc update' is not translated: inside a '#pragma gpu_autopar data' region, write '#pragma gpu_autopar update host(...)' or 'device(...)' instead
#pragma acc exit data delete(q[0:n])
// CHECK: regions.cpp:[[@LINE-1]]:1: error: '#pragma acc exit data' is not translated: unstructured data regions have no gpu_autopar equivalent; a '#pragma gpu_autopar data map(...)' block around the loops keeps their data on the devices
#pragma acc host_data use_device(p)
  {}
// CHECK: regions.cpp:[[@LINE-2]]:1: error: '#pragma acc host_data' is not translated: it has no gpu_autopar equivalent
}
