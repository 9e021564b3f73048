// The pragma must be followed by a for loop; anything else is an error at the
// statement, with a note at the annotation, exit status 1, and no output file.
// RUN: rm -f %t.out
// RUN: %expect-exit 1 %gpu-autopar %s -o %t.out -- -std=c++17 2> %t.err
// RUN: FileCheck %s --input-file %t.err --implicit-check-not=error: --implicit-check-not=warning:
// RUN: not test -e %t.out

// Directive errors come from the preprocessor, before any loop is looked at.
void g(int *a, int n) {
#pragma gpu_autopar parallel
  for (int i = 0; i < n; ++i)
    a[i] = 1;
// CHECK: not-a-for-loop.cpp:[[@LINE-3]]:21: error: expected 'for', 'data', 'update', 'enter data' or 'exit data' after '#pragma gpu_autopar'
}

void f(int *a, int n) {
  int i = 0;
#pragma gpu_autopar for
  while (i < n)
    a[i++] = 0;
// CHECK: not-a-for-loop.cpp:[[@LINE-2]]:3: error: statement after '#pragma gpu_autopar for' must be a for loop
// CHECK: not-a-for-loop.cpp:[[@LINE-4]]:1: note: annotation is here
}
