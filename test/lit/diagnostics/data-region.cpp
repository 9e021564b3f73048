// Errors of `data` and `update` directives, each at its token, and the
// warnings about host code in a region that uses mapped data without an
// update, with a note at the region.
// RUN: %expect-exit 1 %gpu-autopar %s --check -- -std=c++17 -ferror-limit=0 2> %t.err
// RUN: FileCheck %s --input-file %t.err --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note: --implicit-check-not=remark:
#include <vector>

// Read by the preprocessor, so reported before the others.
#pragma gpu_autopar enter
// CHECK: data-region.cpp:[[@LINE-1]]:26: error: expected 'for', 'data', 'update', 'enter data' or 'exit data' after '#pragma gpu_autopar'

void errors(float *a, std::vector<float> &v, int n) {
#pragma gpu_autopar data map(to: a[0:n]) schedule(static)
  { }
// CHECK: data-region.cpp:[[@LINE-2]]:42: error: 'schedule' clause is not allowed on '#pragma gpu_autopar data'; a data region takes 'map' clauses only
#pragma gpu_autopar data
  { }
// CHECK: data-region.cpp:[[@LINE-2]]:21: error: '#pragma gpu_autopar data' needs at least one 'map' clause
#pragma gpu_autopar data map(to: a)
  { }
// CHECK: data-region.cpp:[[@LINE-2]]:34: error: 'a' is a pointer: the data region cannot tell how many elements to map; write 'a[lo:len]'
#pragma gpu_autopar data map(to: w)
  { }
// CHECK: data-region.cpp:[[@LINE-2]]:34: error: use of undeclared variable 'w' in 'map' clause
#pragma gpu_autopar data map(sideways: v)
  { }
// CHECK: data-region.cpp:[[@LINE-2]]:30: error: invalid argument 'sideways' to 'map'; expected to, from, tofrom or alloc
#pragma gpu_autopar data map(tofrom: v)
  for (int i = 0; i < n; ++i) v[i] = 0;
// CHECK: data-region.cpp:[[@LINE-1]]:3: error: '#pragma gpu_autopar data' must be followed by a compound statement ('{ ... }')
// CHECK: data-region.cpp:[[@LINE-3]]:1: note: annotation is here
#pragma gpu_autopar update sideways(v)
// CHECK: data-region.cpp:[[@LINE-1]]:28: error: 'sideways' clause is not allowed on '#pragma gpu_autopar update'; an update takes 'host(...)' or 'device(...)'
#pragma gpu_autopar update host(a[0:n)
// CHECK: data-region.cpp:[[@LINE-1]]:38: error: expected ']' to end the array section of 'a'
#pragma gpu_autopar update
// CHECK: data-region.cpp:[[@LINE-1]]:21: error: '#pragma gpu_autopar update' needs at least one 'host(...)' or 'device(...)' clause
}

#pragma gpu_autopar update host(g)
// CHECK: data-region.cpp:[[@LINE-1]]:1: error: '#pragma gpu_autopar update' must be inside a function body

void unstructured(float *a, std::vector<float> &v, int n) {
#pragma gpu_autopar enter data map(from: v)
// CHECK: data-region.cpp:[[@LINE-1]]:42: error: 'from' map of 'v' on '#pragma gpu_autopar enter data': data enters as 'to' or 'alloc', and leaves as 'from', 'release' or 'delete'
#pragma gpu_autopar exit data map(v)
// CHECK: data-region.cpp:[[@LINE-1]]:35: error: 'tofrom' map of 'v' on '#pragma gpu_autopar exit data': data enters as 'to' or 'alloc', and leaves as 'from', 'release' or 'delete'
#pragma gpu_autopar enter data map(release: v)
// CHECK: data-region.cpp:[[@LINE-1]]:36: error: invalid argument 'release' to 'map'; expected to, from, tofrom or alloc
#pragma gpu_autopar enter data map(to: a)
// CHECK: data-region.cpp:[[@LINE-1]]:40: error: 'a' is a pointer: the data region cannot tell how many elements to map; write 'a[lo:len]'
#pragma gpu_autopar exit data
// CHECK: data-region.cpp:[[@LINE-1]]:26: error: '#pragma gpu_autopar exit data' needs at least one 'map' clause
#pragma gpu_autopar exit data map(from: v) host(v)
// CHECK: data-region.cpp:[[@LINE-1]]:44: error: 'host' clause is not allowed on '#pragma gpu_autopar exit data'; it takes 'map' clauses and 'finalize' only
}
#pragma gpu_autopar enter data map(to: global)
// CHECK: data-region.cpp:[[@LINE-1]]:1: error: '#pragma gpu_autopar enter data' must be inside a function body

// CHECK: data-region.cpp:[[@LINE+11]]:7: remark: 'v' and 'p' may overlap; the rewritten loop compares their addresses first and runs serially if they do
// CHECK: data-region.cpp:[[@LINE+10]]:15: note: read of 'p' here
// CHECK: data-region.cpp:[[@LINE+24]]:7: remark: 'w' and 'v' may overlap; the rewritten loop compares their addresses first and runs serially if they do
// CHECK: data-region.cpp:[[@LINE+23]]:14: note: read of 'v' here
void host_code(std::vector<float> &v, std::vector<float> &w, float *p, int n) {
  v[0] = 1; // before any device loop: devices hold nothing yet
#pragma gpu_autopar data map(tofrom: v, w) map(to: p[0:n])
  {
    float first = v[0];
#pragma gpu_autopar for
    for (int i = 0; i < n; ++i)
      v[i] += p[i] + first;
    float late = v[n - 1] + w[0];
// CHECK: data-region.cpp:[[@LINE-1]]:18: warning: 'v' is read on the host inside a data region after a device loop may have changed it; add '#pragma gpu_autopar update host(v)' before this read
// CHECK: data-region.cpp:[[@LINE-8]]:1: note: data region mapping 'v' is here
// CHECK: data-region.cpp:[[@LINE-3]]:29: warning: 'w' is read on the host inside a data region after a device loop may have changed it; add '#pragma gpu_autopar update host(w)' before this read
// CHECK: data-region.cpp:[[@LINE-10]]:1: note: data region mapping 'w' is here
#pragma gpu_autopar update host(v[0:n])
    late += v[0] * float(v.size());
    p[1] = late;
// CHECK: data-region.cpp:[[@LINE-1]]:5: warning: 'p' is written on the host inside a data region whose devices may hold copies of it; add '#pragma gpu_autopar update device(p[0:n])' after this write
// CHECK: data-region.cpp:[[@LINE-15]]:1: note: data region mapping 'p' is here
    v[2] = late;
#pragma gpu_autopar update device(v)
#pragma gpu_autopar for
    for (int i = 0; i < n; ++i)
      w[i] = v[i];
  }
}

