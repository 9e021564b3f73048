// A file without annotations comes out byte for byte as it went in, comments,
// odd spacing, ordinary pragmas and all.
// RUN: %gpu-autopar %s -- -std=c++17 > %t.out
// RUN: diff %s %t.out
#pragma once
#pragma GCC diagnostic push
int   f(int x)   { /* keep */ return x+1; }	// tab before this comment
#pragma GCC diagnostic pop
void g(int *a, int n) {
  for (int i = 0; i < n; ++i)
    a[i] = f(a[i]);
}
