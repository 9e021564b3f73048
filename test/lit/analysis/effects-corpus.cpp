// Soundness corpus: what a loop body does beyond plain subscripts (references
// and pointers derived from written elements, calls the tool sees and calls it
// does not, lambdas, views, statics, library calls given loop data, tables of
// row pointers, containers that change shape, control that leaves), each race
// beside its race-free twin. No race may be accepted clean or with a run-time
// check alone: it is rejected (dependent, error) or warned (unknown). The
// race-free twins are accepted, clean where the analysis can prove them.
// `// expect: unknown race` marks a warned loop that really races: the driver
// does not run it.
// RUN: python3 %S/check_corpus.py %gpu-autopar %s | FileCheck %s
// CHECK: 65 loops: 3 checked, 11 dependent, 3 error, 22 independent, 24 unknown, 2 warning; 0 mismatches
// Every accepted loop the driver runs gives the serial numbers, five times on sim:3:
// RUN: %run-corpus equal --runs 5 --out %t.e %s %S/Inputs/effects-corpus.driver.cpp | FileCheck %s --check-prefix=EQUAL
// EQUAL: 35 accepted loops, 30 arrays: equal to serial on cpu and sim:3
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <stdexcept>
#include <vector>
using D = std::vector<double>;

// 1. References and pointers derived from elements.
void references(D &a, int n) {
  // expect: dependent
#pragma gpu_autopar for
  for (int i = 1; i < n; ++i) { const double &x = a[i - 1]; a[i] = x + 1; }    // const reference to the element before
  // expect: independent
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) { const double &x = a[i]; a[i] = x * 2; }        // to its own element
  // expect: independent
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) { double &r = a[i]; r = r * r; }
}

void reference_races(D &a, int n) {
  // expect: unknown race
#pragma gpu_autopar for
  for (int i = 1; i < n; ++i) { double &r = a[i]; r = a[i - 1] + r; }          // written through a reference
}

void pointer_arithmetic(double *p, int n) {
  // expect: dependent
#pragma gpu_autopar for map(tofrom: p[0:n])
  for (int i = 1; i < n; ++i) *(p + i) = *(p + i - 1) + 1;
  // expect: independent
#pragma gpu_autopar for map(tofrom: p[0:n])
  for (int i = 0; i < n; ++i) *(p + i) = *(p + i) * 3;
  // expect: dependent
#pragma gpu_autopar for map(tofrom: p[0:n])
  for (int i = 0; i < n - 1; ++i) (p + 1)[i] = p[i] + 2;
  // expect: independent
#pragma gpu_autopar for map(tofrom: p[0:2 * n])
  for (int i = 0; i < n; ++i) (p + n)[i] = p[i] + 2;                          // upper half from lower half
}

void local_pointer_races(double *p, int n) {
  // expect: unknown race
#pragma gpu_autopar for map(tofrom: p[0:n])
  for (int i = 1; i < n; ++i) { const double *prev = p + i - 1; p[i] = *prev + 1; }
}

void local_pointers(double *p, int n) {
  // expect: unknown
#pragma gpu_autopar for map(tofrom: p[0:n])
  for (int i = 0; i < n; ++i) { double *q = p + i; *q = *q + 1; }            // its own element, not proven
}

// 2. Calls the tool sees: what they read and write.
double g_scale = 2;
int g_calls;
static void count_call() { ++g_calls; }
static double scaled(double x) { return x * 1.5; }
static double by_global(double x) { return x * g_scale; }
static double before(const double *a, int i) { return i > 0 ? a[i - 1] : 0; }
static double own(const double *a, int i) { return a[i]; }
static double before_in(const D &a, int i) { return i > 0 ? a[i - 1] : 0; }
static void add_to(double &s, double x) { s += x; }
static int level5() { static int k = 0; return k++; }
static int level4() { return level5(); }
static int level3() { return level4(); }
static int level2() { return level3(); }
static int level1() { return level2(); }

void calls(D &a, D &b, int n, double &sum) {
  // expect: independent
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) a[i] = scaled(a[i]);
  // expect: independent
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) a[i] = by_global(a[i]);                          // reads a global the loop does not write
  // expect: dependent
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) add_to(sum, a[i]);                               // accumulates into a shared reference
  // expect: independent
#pragma gpu_autopar for reduction(+: sum)
  for (int i = 0; i < n; ++i) sum += a[i];
  // expect: unknown
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) b[i] = own(a.data(), i) + 1;                     // the callee reads only a[i]: not proven
}

void call_races(D &a, int n) {
  // expect: unknown race
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) a[i] = before(a.data(), i) + 1;                  // the callee reads a[i - 1]
  // expect: unknown race
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) a[i] = before_in(a, i) + 1;
  // expect: dependent
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) { count_call(); a[i] += 1; }                     // a global counter, every call
  // expect: dependent
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) a[i] = level1();                                 // a static local five calls deep
  // expect: unknown race
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) a[i] = std::rand() % 7;                          // library state
}

// 3. Member functions: const, mutable, virtual, final.
struct Scale {
  double s;
  double apply(double x) const { return x * s; }
};
struct Counted {
  mutable long hits = 0;
  double apply(double x) const { ++hits; return x + 1; }
};
struct Shape {
  virtual ~Shape() = default;
  virtual double area(double x) const { return x * x; }
};
struct Square final : Shape {
  double area(double x) const override { return x * x; }
};

void members(D &a, const Scale &sc, const Square &sq, int n) {
  // expect: independent
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) a[i] = sc.apply(a[i]);
  // expect: independent
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) a[i] = sq.area(a[i]);                            // final: no override to fear
}

void member_races(D &a, const Counted &c, const Shape &sh, int n) {
  // expect: dependent
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) a[i] = c.apply(a[i]);                            // a const function writes a mutable member
  // expect: unknown race
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) a[i] = sh.area(a[i]);                            // virtual: an override may do anything
}

// 4. Lambdas.
void lambdas(D &a, int n) {
  auto square = [](double x) { return x * x; };
  const double k = 3;
  auto times_k = [k](double x) { return x * k; };
  auto twice = [&](int i) { a[i] *= 2; };
  // expect: independent
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) a[i] = square(a[i]);
  // expect: independent
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) a[i] = times_k(a[i]);
  // expect: unknown
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) twice(i);                                        // writes its own element: not proven
  // expect: independent
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) {
    auto inner = [&](double x) { return x + a[i]; };
    a[i] = inner(1);
  }
}

void lambda_races(D &a, int n) {
  double carry = 0;
  auto step = [&](int i) { carry += a[i]; a[i] = carry; };
  auto next = [c = 0]() mutable { return c++; };
  std::function<double(double)> f = [&](double x) { return x + a[0]; };
  // expect: unknown race
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) step(i);                                         // a recurrence through captures
  // expect: unknown race
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) a[i] = next();                                   // a mutable lambda's own counter
  // expect: unknown race
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) a[i] = f(a[i]);                                  // through std::function
}

// 5. Views: classes whose operator() or operator[] return references.
struct Strided {
  double *p;
  int s;
  double &operator()(int i) const { return p[i * s]; }
};
struct Half {
  double *p;
  double &operator[](int i) const { return p[i / 2]; }
};
struct Reader {
  const double *p;
  double operator[](int i) const { return p[i]; }
};

void views(D &a, D &b, Strided st, Reader r, int n) {
  // expect: unknown
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) st(i) = st(i) + 1;                               // stride 1 here: race-free, not proven
  // expect: unknown
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) b[i] = r[i] * 2 + a[i];                          // r points at another array here, but may point at b
  // expect: unknown
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) a[i] = r[i] + 1;                                 // r points at b here, but may point at a
}

void view_races(Half h, Reader r, D &a, int n) {
  // expect: unknown race
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) h[i] = h[i] + i;                                 // two iterations, one element
  // expect: unknown race
#pragma gpu_autopar for
  for (int i = 0; i < n - 1; ++i) a[i] = r[i + 1] * 2;                         // r points into a
}

// 6. Library calls given loop data.
void library(D &a, D &b, int n) {
  // expect: unknown
#pragma gpu_autopar for
  for (int i = 0; i < n / 4; ++i) std::memcpy(&a[4 * i], &b[4 * i], 4 * sizeof(double)); // own rows of four
  // expect: unknown
#pragma gpu_autopar for
  for (int i = 0; i < n / 2; ++i) std::fill(&a[2 * i], &a[2 * i] + 2, 1.0 * i);
  // expect: independent
#pragma gpu_autopar for
  for (int i = 0; i < n / 2; ++i) std::swap(a[i], a[n - 1 - i]);               // disjoint halves
  // expect: checked
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) a[i] = std::max(a[i], b[i]);
}

void library_races(D &a, int n) {
  // expect: unknown race
#pragma gpu_autopar for
  for (int i = 1; i < n; ++i) std::memcpy(&a[i], &a[i - 1], sizeof(double));
  // expect: unknown race
#pragma gpu_autopar for
  for (int i = 0; i < n - 1; ++i) std::fill(&a[i], &a[i] + 2, 1.0 * i);        // overlapping pairs
  // expect: unknown race
#pragma gpu_autopar for
  for (int i = 0; i < n - 1; ++i) std::swap(a[i], a[i + 1]);
}

// 7. Tables of rows: pointers to rows may share them; arrays of arrays and
// containers of containers own theirs.
double M[64][64];
void rows(std::vector<D> &vv, int n) {
  // expect: independent
#pragma gpu_autopar for
  for (int i = 0; i < 64; ++i) for (int j = 0; j < 64; ++j) M[i][j] = M[i][j] + i * j;
  // expect: independent
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) vv[i][0] = vv[i][1] + 1;
  // expect: dependent
#pragma gpu_autopar for
  for (int i = 1; i < n; ++i) { const D &above = vv[i - 1]; vv[i][0] = above[0] + 1; }
}

void row_races(double **rows, int n) {
  // expect: unknown race
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) rows[i][0] = rows[i][0] + 1;                     // rows[0] and rows[1] may be one row
}

// 8. Containers that change shape, and packed bits.
void containers(D &a, std::vector<char> &flags, std::map<int, double> &m, int n) {
  // expect: independent
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) flags[i] = a[i] > 500;
  // expect: dependent
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) m[i] = a[i];                                     // operator[] inserts
  // expect: independent
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) a[i] = m.count(i) ? 1.0 : 0.0;                   // reads only
}

void bit_races(const D &a, std::vector<bool> &bits, int n) {
  // expect: warning race
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) bits[i] = a[i] > 500;                            // neighbouring bits share a word
}

void growing(D &a, D &out, int n) {
  // expect: dependent
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) out.push_back(a[i]);
  // expect: independent
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) { D local; local.push_back(a[i]); a[i] = local.size() + local[0]; }
}

// 9. Control that leaves the loop.
static void check_positive(double x) { if (x < 0) std::exit(3); }
void control(D &a, int n) {
  // expect: error
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) { if (a[i] < 0) std::exit(2); a[i] += 1; }
  // expect: error
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) { check_positive(a[i]); a[i] += 1; }
  // expect: error
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) { if (a[i] < 0) std::abort(); a[i] += 1; }
  // expect: warning
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) { if (a[i] < 0) throw std::runtime_error("negative"); a[i] += 1; }
  // expect: independent
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) { try { if (a[i] < 0) throw 1; a[i] += 1; } catch (int) { a[i] = 0; } }
}

// 10. Values read once: elements the loop does not write, a reference to a
// number (it may name an element the loop writes: a kernel reads it once, so
// that is a warning).
static const double table[4] = {0.5, 1.5, 2.5, 3.5};
void invariants(D &a, const double &s, int n) {
  // expect: independent
#pragma gpu_autopar for
  for (int i = 1; i < n; ++i) a[i] = a[0] + i;                                 // a[0] is never written
  // expect: dependent
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) a[i] = a[0] + i;                                 // iteration 0 writes it
  // expect: independent
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) a[i] = a[i] * table[i % 4];
  // expect: unknown
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) a[i] = a[i] * s;
}

// 11. Overlap: one element type means "may overlap" until proven or checked.
void overlap(double *x, const double (*rows)[4], int n) {
  // expect: checked
#pragma gpu_autopar for map(tofrom: x[0:n / 4]) map(to: rows[0:n / 4])
  for (int i = 0; i < n / 4; ++i) x[i] = rows[i][1] + 1;                       // rows may be x seen as rows of four
}
void overlap_rows(double *x, const double (*rows)[4], int n) {
  // expect: checked
#pragma gpu_autopar for map(tofrom: x[0:n])
  for (int i = 0; i < n; ++i) x[i] = rows[0][i + 1] + 1;                       // past row 0 once n > 3: rows[1] may be x
}
void overlap_types(double *x, const int *k, int n) {
  // expect: independent
#pragma gpu_autopar for map(tofrom: x[0:n]) map(to: k[0:n])
  for (int i = 0; i < n; ++i) x[i] = k[i] * 0.5;                               // an int is never a double
}
