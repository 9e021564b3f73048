// The analysis builds one polyhedral model per annotated loop nest, with
// the nest's only isl context: legality, each collapsed level, the data
// maps and every section read it. Before it did, the collapse(3) nest alone
// allocated four contexts (legality, two collapsed levels, the data maps).
// RUN: not %gpu-autopar --print-isl-contexts %s -- -std=c++17 2>&1 >/dev/null | FileCheck %s
// CHECK: error: {{.*}}dependence{{.*}}
// CHECK: gpu-autopar: isl contexts: 3
// CHECK-NOT: isl contexts

void fill(double (*g)[8][4], int n) {
#pragma gpu_autopar for collapse(3)
  for (int i = 0; i < n; i++)
    for (int j = 0; j < 8; j++)
      for (int k = 0; k < 4; k++)
        g[i][j][k] = i + j + k;
}

void rows(float *b, const float *a, int n, int w) {
#pragma gpu_autopar for
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < w; ++x)
      b[y * w + x] = 2 * a[y * w + x];
}

// A dependence the test must find, with its witness, in the same context.
void shift(float *a, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n - 1; ++i)
    a[i + 1] = a[i];
}
