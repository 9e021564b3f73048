// Kernel mode only where every element the body reaches is in an object a
// data map copies (a pointer, a built-in array, std::vector, std::array of
// plain values), also where the body reaches one through members (`weights[i]`
// in a method, `b.ptr[i]`, `g.v[i]`: mapped like variables). Data reached
// through a pointer's member (`img->px[i]`), through pointers stored in the
// elements, or in a std::span keeps the loop on CPU threads, with a remark
// naming the access, and so does a variable-length array (a kernel's data
// maps cannot describe its type), and so does an array of variable-length
// rows (the body sees it through ::gpu_autopar::rows_of, since no lambda can
// capture it). What is accepted compiles (cli/accepted-compiles.test).
// compile-flags: -std=c++20 -Wno-vla-cxx-extension
// RUN: %expect-exit 0 %gpu-autopar %s --check --report=%t.json -- -std=c++20 -Wno-vla-cxx-extension 2> %t.err
// RUN: FileCheck %s --input-file %t.err --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note: --implicit-check-not=remark:
// RUN: FileCheck %s --check-prefix=MODES --input-file %t.json
#include <span>
#include <vector>
struct Buffer {
  float *ptr;
  int n;
};
struct Grid {
  std::vector<float> v;
  int w;
};
struct Img {
  int w;
  float *px;
};
struct Point {
  float x, y;
};

struct Model {
  std::vector<float> weights;
  void scale(float s, int n) {
#pragma gpu_autopar for
    for (int i = 0; i < n; ++i)
      weights[i] *= s;
  }
};

void members(Buffer &b, Grid &g, Img *img, std::vector<float> &out, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    b.ptr[i] = 2.0f * i;
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    out[i] = g.v[i] * g.w;
// Two vectors (a member is mapped like a variable): their maps are compared before the loop runs.
// CHECK: unmapped-data.cpp:[[@LINE-2]]:5: remark: 'out' and 'g.v' may overlap; the rewritten loop compares their addresses first and runs serially if they do
// CHECK: unmapped-data.cpp:[[@LINE-3]]:14: note: read of 'g.v' here
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    img->px[i] = out[i];
// CHECK: unmapped-data.cpp:[[@LINE-1]]:5: remark: loop runs on CPU threads only: the body reaches 'img->px[i]' through a member, which a data map does not copy to a GPU
// A pointer has no extent to compare: a warning.
// CHECK: unmapped-data.cpp:[[@LINE-3]]:5: warning: 'img->px' and 'out' may alias; declare 'img->px' __restrict__ if it never points into 'out'
// CHECK: unmapped-data.cpp:[[@LINE-4]]:18: note: read of 'out' here
}

void nested(float **rows, std::vector<std::vector<float>> &vv, Img *imgs, Point *pts, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    rows[i][0] = 1.0f;
// Two row pointers may be one row (DataRaceBench's DRB197): a warning.
// CHECK: unmapped-data.cpp:[[@LINE-2]]:5: warning: cannot prove that iterations access distinct elements of 'rows': 'rows' holds pointers to its rows, and two rows may share elements
// CHECK: unmapped-data.cpp:[[@LINE-3]]:5: remark: loop runs on CPU threads only: the body indexes 'rows', whose elements are pointers to further data, which a data map does not copy
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    vv[i][0] = 1.0f;
// CHECK: unmapped-data.cpp:[[@LINE-1]]:5: remark: loop runs on CPU threads only: the body indexes 'vv', whose elements are 'std::vector<float>' objects that own or point to further data, which a data map does not copy
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    imgs[i].w = 0;
// CHECK: unmapped-data.cpp:[[@LINE-1]]:5: remark: loop runs on CPU threads only: the body indexes 'imgs', whose elements hold member 'px', whose values are pointers to further data, which a data map does not copy
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    pts[i].x = pts[i].y;
}

void views(std::span<float> sp, int n, int m) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    sp[i] = 2.0f;
// CHECK: unmapped-data.cpp:[[@LINE-1]]:5: remark: loop runs on CPU threads only: the body indexes 'sp', a 'std::span<float>', which a data map cannot copy to a GPU (maps copy pointers, arrays, std::vector and std::array)
#pragma gpu_autopar for
  for (float &x : sp)
    x = 1.0f;
// CHECK: unmapped-data.cpp:[[@LINE-2]]:19: remark: loop runs on CPU threads only: the body indexes 'sp', a 'std::span<float>', which a data map cannot copy to a GPU (maps copy pointers, arrays, std::vector and std::array)
  float vla[n][m];
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    vla[i][0] = 1.0f;
// CHECK: unmapped-data.cpp:[[@LINE-1]]:5: remark: loop runs on CPU threads only: the body uses 'vla', a variable-length array, which a data map cannot describe
  float row[n];
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    row[i] = 1.0f;
// CHECK: unmapped-data.cpp:[[@LINE-1]]:5: remark: loop runs on CPU threads only: the body uses 'row', a variable-length array, which a data map cannot describe
}
// MODES-COUNT-3: "mode": "kernel",
// MODES-COUNT-4: "mode": "host",
// MODES:         "mode": "kernel",
// MODES-COUNT-4: "mode": "host",
// MODES-NOT:     "mode":
