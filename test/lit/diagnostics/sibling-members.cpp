// Two data members of one object that hold their own storage (`u` and `v` of
// `*this`, `g.u` and `g.v`) are different objects: no overlap check between
// them. Reference and pointer members, members of a union and the same member
// of two objects may still overlap and keep theirs. Members are mapped like
// variables (kernel mode), and the check compares their maps.
// RUN: %gpu-autopar %s --check -- -std=c++17 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=remark:
#include <vector>
struct Grid {
  std::vector<double> u, v;
  double w[64], z[64];
  int n;
  void step() {
#pragma gpu_autopar for
    for (int i = 1; i < n - 1; i++)
      v[i] = u[i - 1] + u[i + 1];
#pragma gpu_autopar for
    for (int i = 1; i < 63; i++)
      this->w[i] = z[i - 1] + v.at(i);
// CHECK: sibling-members.cpp:[[@LINE-1]]:31: remark: loop runs on CPU threads only: the body calls 'at', which cannot run on a GPU
  }
};

void grids(Grid &g, Grid &h, int n) {
#pragma gpu_autopar for
  for (int i = 1; i < n - 1; i++)
    g.v[i] = g.u[i - 1] + g.u[i + 1];
#pragma gpu_autopar for
  for (int i = 0; i < n; i++)
    g.u[i] = h.u[i];
// CHECK: sibling-members.cpp:[[@LINE-1]]:5: remark: 'g.u' and 'h.u' may overlap; the rewritten loop compares their addresses first and runs serially if they do
}

struct Views {
  std::vector<double> &in, &out;
  double *p, *q;
  void copy(int n) {
#pragma gpu_autopar for
    for (int i = 0; i < n; i++)
      out[i] = in[i];
// CHECK: sibling-members.cpp:[[@LINE-1]]:7: remark: 'out' and 'in' may overlap; the rewritten loop compares their addresses first and runs serially if they do
#pragma gpu_autopar for
    for (int i = 0; i < n; i++)
      p[i] = q[i];
// Pointer members are mapped like pointer variables: their maps are compared.
// CHECK: sibling-members.cpp:[[@LINE-2]]:7: remark: 'p' and 'q' may overlap; the rewritten loop compares their addresses first and runs serially if they do
  }
};

union Both {
  double a[16];
  double b[16];
};
void unions(Both &s) {
#pragma gpu_autopar for
  for (int i = 0; i < 15; i++)
    s.a[i] = s.b[i + 1];
// CHECK: sibling-members.cpp:[[@LINE-1]]:5: remark: 's.a' and 's.b' may overlap; the rewritten loop compares their addresses first and runs serially if they do
}
