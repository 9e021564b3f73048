// --report=<file> lists every annotated loop: location, decision, mode, verdict (and witness), reasons with
// locations, inferred reads and writes, reductions, maps exactly as emitted, objects compared first (alias_checks).
// RUN: rm -f %t.json
// RUN: %expect-exit 1 %gpu-autopar %s --check --report=%t.json -- -std=c++17 2> /dev/null
// RUN: FileCheck %s --input-file %t.json
#include <vector>

void note_value(float v); // defined elsewhere: its effects are unseen

void loops(std::vector<float> &y, const std::vector<float> &x, float a, int n) {
  double sum = 0;
#pragma gpu_autopar for reduction(+: sum)
  for (int i = 0; i < n; ++i) {
    y[i] = a * x[i] + y[i];
    sum += y[i];
  }
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    note_value(y[i]);
#pragma gpu_autopar for
  for (int i = 1; i < n; ++i)
    y[i] = y[i - 1];
}
// CHECK:      "loops": [
// CHECK-NEXT:   {
// CHECK-NEXT:     "alias_checks": [
// CHECK-NEXT:       [
// CHECK-NEXT:         "y",
// CHECK-NEXT:         "x"
// CHECK-NEXT:       ]
// CHECK-NEXT:     ],
// CHECK-NEXT:     "bounds_checks": [],
// CHECK-NEXT:     "decision": "accepted",
// CHECK-NEXT:     "location": {
// CHECK-NEXT:       "column": 1,
// CHECK-NEXT:       "file": "{{.*}}report.cpp",
// CHECK-NEXT:       "line": 12
// CHECK-NEXT:     },
// CHECK-NEXT:     "maps": [
// CHECK-NEXT:       {
// CHECK-NEXT:         "emitted": "::gpu_autopar::tofrom(y, ::gpu_autopar::affine(1, 0, 1))",
// CHECK-NEXT:         "kind": "tofrom",
// CHECK-NEXT:         "section": "affine(1, 0, 1)",
// CHECK-NEXT:         "var": "y"
// CHECK-NEXT:       },
// CHECK-NEXT:       {
// CHECK-NEXT:         "emitted": "::gpu_autopar::to(x, ::gpu_autopar::affine(1, 0, 1))",
// CHECK-NEXT:         "kind": "to",
// CHECK-NEXT:         "section": "affine(1, 0, 1)",
// CHECK-NEXT:         "var": "x"
// CHECK-NEXT:       }
// CHECK-NEXT:     ],
// CHECK-NEXT:     "mode": "kernel",
// CHECK-NEXT:     "privates": [],
// CHECK-NEXT:     "reads": [
// CHECK-NEXT:       "a",
// CHECK-NEXT:       "x",
// CHECK-NEXT:       "y",
// CHECK-NEXT:       "sum"
// CHECK-NEXT:     ],
// CHECK-NEXT:     "reasons": [
// CHECK-NEXT:       {
// CHECK-NEXT:         "kind": "remark",
// CHECK-NEXT:         "location": {
// CHECK-NEXT:           "column": 5,
// CHECK-NEXT:           "file": "{{.*}}report.cpp",
// CHECK-NEXT:           "line": 14
// CHECK-NEXT:         },
// CHECK-NEXT:         "message": "'y' and 'x' may overlap; the rewritten loop compares their addresses first and runs serially if they do"
// CHECK-NEXT:       },
// CHECK-NEXT:       {
// CHECK-NEXT:         "kind": "note",
// CHECK-NEXT:         "location": {
// CHECK-NEXT:           "column": 16,
// CHECK-NEXT:           "file": "{{.*}}report.cpp",
// CHECK-NEXT:           "line": 14
// CHECK-NEXT:         },
// CHECK-NEXT:         "message": "read of 'x' here"
// CHECK-NEXT:       },
// CHECK-NEXT:       {
// CHECK-NEXT:         "kind": "mode",
// CHECK-NEXT:         "location": {
// CHECK-NEXT:           "column": 3,
// CHECK-NEXT:           "file": "{{.*}}report.cpp",
// CHECK-NEXT:           "line": 13
// CHECK-NEXT:         },
// CHECK-NEXT:         "message": "the body only computes and accesses memory, which a GPU can do"
// CHECK-NEXT:       }
// CHECK-NEXT:     ],
// CHECK-NEXT:     "reductions": [
// CHECK-NEXT:       {
// CHECK-NEXT:         "op": "+",
// CHECK-NEXT:         "var": "sum"
// CHECK-NEXT:       }
// CHECK-NEXT:     ],
// CHECK-NEXT:     "source": "{{.*}}report.cpp",
// CHECK-NEXT:     "verdict": "independent",
// CHECK-NEXT:     "witness": null,
// CHECK-NEXT:     "writes": [
// CHECK-NEXT:       "y",
// CHECK-NEXT:       "sum"
// CHECK-NEXT:     ]
// CHECK-NEXT:   },
// CHECK-NEXT:   {
// CHECK-NEXT:     "alias_checks": [],
// CHECK-NEXT:     "bounds_checks": [],
// CHECK-NEXT:     "decision": "accepted",
// CHECK:            "line": 17
// CHECK:          "mode": "task",
// CHECK:          "reasons": [
// CHECK-NEXT:       {
// CHECK-NEXT:         "kind": "warning",
// CHECK-NEXT:         "location": {
// CHECK-NEXT:           "column": 5,
// CHECK-NEXT:           "file": "{{.*}}report.cpp",
// CHECK-NEXT:           "line": 19
// CHECK-NEXT:         },
// CHECK-NEXT:         "message": "call to 'note_value' may have effects the analysis cannot see; it must not touch data that other iterations use"
// CHECK-NEXT:       },
// CHECK-NEXT:       {
// CHECK-NEXT:         "kind": "mode",
// CHECK:              "message": "the body calls host function 'note_value' (host functions may do GPU work)"
// CHECK:          "verdict": "unproven",
// CHECK-NEXT:     "witness": null,
// CHECK:          "decision": "rejected",
// CHECK:            "line": 20
// CHECK:          "reasons": [
// CHECK-NEXT:       {
// CHECK-NEXT:         "kind": "error",
// CHECK-NEXT:         "location": {
// CHECK-NEXT:           "column": 3,
// CHECK-NEXT:           "file": "{{.*}}report.cpp",
// CHECK-NEXT:           "line": 21
// CHECK-NEXT:         },
// CHECK-NEXT:         "message": "loop-carried dependence on 'y': an element written in one iteration is read in another"
// CHECK-NEXT:       },
// CHECK-NEXT:       {
// CHECK-NEXT:         "kind": "note",
// CHECK:                "line": 22
// CHECK:              "message": "write of 'y' here"
// CHECK:              "message": "read of 'y' here"
// CHECK:          "verdict": "dependent",
// CHECK-NEXT:     "witness": "with n = 3, iteration i=1 writes y[1] and iteration i=2 reads it",
// CHECK:      "version": 1
