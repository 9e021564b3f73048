// Built-in arrays swept to run-time bounds: iterations that touch distinct
// elements only while the subscripts stay inside the array's dimensions get a
// check of that condition (.check_within) and a remark at the first write;
// a subscript that leaves its dimension whenever the loop runs (`j - 1` from
// j = 0) conflicts through the flat layout: diagnostics/within-dimensions-
// dependent.cpp, with the conflicts inside the dimensions.
// RUN: %gpu-autopar %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: %gpu-autopar --check %s -- -std=c++17 2>&1 | FileCheck %s --check-prefix=DIAG --implicit-check-not=warning: --implicit-check-not=remark:
double B[64][48];
float G[10][12][16];

void scale(double a[][48], int ni, int nj) {
#pragma gpu_autopar for
  for (int i = 0; i < ni; i++)
    for (int j = 0; j < nj; j++)
      a[i][j] *= 2;
  // DIAG: within-dimensions.cpp:[[@LINE-1]]:7: remark: iterations touch distinct elements of 'a' only while its subscripts stay inside its dimensions (nj <= 48); the rewritten loop checks this first and runs serially if not
}
// CHECK: ::gpu_autopar::options().check_within((long long)(nj) <= 48LL, "a", "nj <= 48"),

void planes(unsigned ni, unsigned nj, unsigned nk) {
#pragma gpu_autopar for
  for (unsigned i = 0; i < ni; i++)
    for (unsigned j = 0; j < nj; j++)
      for (unsigned k = 0; k < nk; k++)
        G[i][j][k] += 1;
  // DIAG: within-dimensions.cpp:[[@LINE-1]]:9: remark: iterations touch distinct elements of 'G' only while its subscripts stay inside its dimensions (nk <= 16 && nj <= 12); the rewritten loop checks this first and runs serially if not
}
// CHECK: ::gpu_autopar::options().check_within((long long)(nk) <= 16LL && (long long)(nj) <= 12LL, "G", "nk <= 16 && nj <= 12"),

// A loop that only reads the rows: the section copied (or compared with
// out's) is told by the first subscript, which holds only while the second
// stays inside its row; rows[0][i + 1] reads rows[1][0] at i = 47.
void shifted_read(double *out, const double (*rows)[48], int n) {
#pragma gpu_autopar for map(from: out[0:n])
  for (int i = 0; i < n; i++)
    out[i] = rows[0][i + 1];
  // DIAG: within-dimensions.cpp:[[@LINE-1]]:14: remark: the elements of 'rows' the loop touches are told by its first subscript only while the others stay inside its dimensions (n <= 47); the rewritten loop checks this first and runs serially if not
  // DIAG: within-dimensions.cpp:[[@LINE-2]]:5: remark: 'out' and 'rows' may overlap; the rewritten loop compares their addresses first and runs serially if they do
}
// CHECK: ::gpu_autopar::options().check_disjoint(0, "out", 1, "rows").check_within((long long)(n) <= 47LL, "rows", "n <= 47"),
