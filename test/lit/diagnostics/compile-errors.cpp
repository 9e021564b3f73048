// A file the compiler rejects is not analysed: only the compiler's errors are
// printed (no guesses about a partial AST), exit status 1, and the report
// lists the loop as rejected with the reason.
// RUN: rm -f %t.json
// RUN: %expect-exit 1 %gpu-autopar %s --check --report=%t.json -- -std=c++17 2> %t.err
// RUN: FileCheck %s --input-file %t.err --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note: --implicit-check-not=remark:
// RUN: FileCheck %s --check-prefix=REPORT --input-file %t.json
void f(int *a, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < undeclared; ++i)
// CHECK: compile-errors.cpp:[[@LINE-1]]:23: error: use of undeclared identifier 'undeclared'
    a[i] = a[i - 1];
}
// REPORT:      "decision": "rejected",
// REPORT:      "mode": null,
// REPORT:      "kind": "error",
// REPORT:      "message": "not analysed: the file has compile errors"
