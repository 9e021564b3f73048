// OpenACC's host_data is not translated (a remark: it stays as written), nor
// are the clauses of translated data directives whose meaning does not carry
// over, nor map types a directive does not take. Each of these is an error at
// the clause, naming it and saying what to write instead, and
// the file is left exactly as it was, even under -i. (Errors found while the
// file is read come first, then those of the analysis: the last five.)
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/regions.cpp
// RUN: %expect-exit 1 %gpu-autopar --accept=omp,acc -i %t/regions.cpp -- -std=c++17 2> %t/err
// RUN: FileCheck %s --input-file %t/err --implicit-check-not=error: --implicit-check-not=warning:
// RUN: FileCheck %s --check-prefix=LEFT --input-file %t/err --implicit-check-not=remark:
// RUN: diff %s %t/regions.cpp
// --convert does not write it either.
// RUN: %expect-exit 1 %gpu-autopar --accept=omp,acc --convert %t/regions.cpp -o %t/converted.cpp -- -std=c++17 2> /dev/null
// RUN: not test -e %t/converted.cpp
// Each directive has its entry in --report, and -v counts them.
// RUN: %expect-exit 1 %gpu-autopar --accept=omp,acc --check --report=%t/report.json %s -- -std=c++17 2> /dev/null
// RUN: FileCheck %s --check-prefix=REPORT --input-file %t/report.json
// REPORT: "line": [[@LINE+10]]
// REPORT: "decision": "rejected",
// REPORT: "directive": "omp target enter data"
// REPORT: "decision": "left",
// REPORT: "directive": "acc host_data"
// REPORT: "decision": "rejected",
// REPORT: "directive": "omp target data"
// RUN: %expect-exit 1 %gpu-autopar --accept=omp,acc --check -v %s -- -std=c++17 2> /dev/null | FileCheck %s --check-prefix=SUMMARY
// SUMMARY: data-regions-refused.cpp: no annotated loops; 11 data directives rejected; 1 other directive left as written
void regions(float *__restrict__ p, const float *__restrict__ q, int n, bool big) {
#pragma omp target enter data map(to: q[0:n]) if(big)
// CHECK: regions.cpp:[[@LINE-1]]:47: error: 'if' clause of '#pragma omp target enter data' is not supported: data that enters or leaves only under a condition has no gpu_autopar equivalent; put the directive in an 'if' statement
#pragma omp target enter data map(delete: q[0:n])
// CHECK: regions.cpp:[[@LINE-1]]:31: error: 'map' clause of '#pragma omp target enter data' is not supported: release and delete belong on 'target exit data'
#pragma acc exit data attach(p)
// CHECK: regions.cpp:[[@LINE-1]]:23: error: 'attach' clause of '#pragma acc exit data' is not supported: device addresses and presence have no gpu_autopar equivalent
#pragma acc host_data use_device(p)
  {}
// LEFT: regions.cpp:[[@LINE-2]]:1: remark: '#pragma acc host_data' left as written: it has no gpu_autopar equivalent
#pragma omp target data map(to: q[0:n]) if(big) use_device_ptr(p)
  {}
// CHECK: regions.cpp:[[@LINE-2]]:41: error: 'if' clause of '#pragma omp target data' is not supported: a region that exists only under a condition has no gpu_autopar equivalent
// CHECK: regions.cpp:[[@LINE-3]]:49: error: 'use_device_ptr' clause of '#pragma omp target data' is not supported: device addresses and presence have no gpu_autopar equivalent
#pragma omp target data map(mapper(m), to: q[0:n])
  {}
// CHECK: regions.cpp:[[@LINE-2]]:25: error: 'map' clause of '#pragma omp target data' is not supported: only the map types to, from, tofrom and alloc and the modifiers always, close and present carry over
#pragma acc data deviceptr(q)    copyin(q[0:n][0:1])
  {}
// CHECK: regions.cpp:[[@LINE-2]]:18: error: 'deviceptr' clause of '#pragma acc data' is not supported: device addresses and presence have no gpu_autopar equivalent
// CHECK: regions.cpp:[[@LINE-3]]:41: error: 'copyin' clause of '#pragma acc data' is not supported: sections of more than one dimension are not supported; map the whole variable
#pragma omp target update to(present: q[0:n]) if(big)
// CHECK: regions.cpp:[[@LINE-1]]:27: error: 'to' clause of '#pragma omp target update' is not supported: motion modifiers (present, mapper, iterator) have no gpu_autopar equivalent
// CHECK: regions.cpp:[[@LINE-2]]:47: error: 'if' clause of '#pragma omp target update' is not supported: an update that happens only under a condition has no gpu_autopar equivalent; put it in an 'if' statement
#pragma omp target exit data map(to: q[0:n])
// CHECK: regions.cpp:[[@LINE-1]]:38: error: 'to' map of 'q' on '#pragma omp target exit data': data enters as 'to' or 'alloc', and leaves as 'from', 'release' or 'delete'
#pragma acc enter data copyout(p[0:n])
// CHECK: regions.cpp:[[@LINE-1]]:32: error: 'from' map of 'p' on '#pragma acc enter data': data enters as 'to' or 'alloc', and leaves as 'from', 'release' or 'delete'
#pragma acc update self(q)
// CHECK: regions.cpp:[[@LINE-1]]:25: error: 'q' is a pointer: the data region cannot tell how many elements to map; write 'q[lo:len]'
#pragma omp target data
  {}
// CHECK: regions.cpp:[[@LINE-2]]:20: error: '#pragma omp target data' needs at least one 'map' clause
}
