// Every effect a body can have is modelled, checked at run time, or reported:
// what a callee does (globals, statics, captures of a lambda, a mutable
// member behind a const function, functions in -isystem headers), library
// calls given loop data, references a call returns, rows held as pointers, and
// exceptions. Each loop here was accepted without a word before, and gave
// results other than the serial program's on sim:3.
// RUN: %gpu-autopar %s -o %t.out -- -std=c++17 -isystem %S/Inputs/effects-system 2> %t.err
// RUN: FileCheck %s --input-file %t.err --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note: --implicit-check-not=remark:
// RUN: %expect-exit 1 %gpu-autopar --strict --check %s -- -std=c++17 -ferror-limit=0 -isystem %S/Inputs/effects-system 2> %t.strict
// RUN: grep -c ': error: ' %t.strict | grep -qx 20
#include <algorithm>
#include <cstring>
#include <effects_library.h>
#include <stdexcept>
#include <vector>

void lambda_recurrence(double *a, int n) {
  double carry = 0;
  auto step = [&](int i) { carry += a[i]; a[i] = carry; };
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    step(i);
// CHECK: effects.cpp:[[@LINE-1]]:5: warning: cannot prove that iterations access distinct elements of 'a': it is written by 'step', which the analysis does not follow
// CHECK: effects.cpp:[[@LINE-2]]:9: warning: call to 'step' writes 'carry', which is shared by all iterations
// CHECK: effects.cpp:[[@LINE-7]]:10: note: 'carry' is declared here
// CHECK: effects.cpp:[[@LINE-4]]:9: remark: loop runs on CPU threads only: the body calls 'step', a lambda that captures by reference, which a GPU cannot follow
}

struct View {
  double *p;
  double &operator()(int i) const { return p[i]; }
};

void view_recurrence(View v, int n) {
#pragma gpu_autopar for
  for (int i = 1; i < n; ++i)
    v(i) = v(i - 1) + 1;
// CHECK: effects.cpp:[[@LINE-1]]:5: warning: cannot prove that iterations access distinct elements of 'v': it is written through the reference 'v(i)' returns, which the analysis does not follow
// CHECK: effects.cpp:[[@LINE-2]]:6: remark: loop runs on CPU threads only: the body calls 'operator()', which cannot run on a GPU
// CHECK: effects.cpp:[[@LINE-9]]:44: note: 'operator()' uses 'p', a pointer member, whose data no data map copies to a GPU
}

void front_of_shared(std::vector<double> &v, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    v.front() = i;
// CHECK: effects.cpp:[[@LINE-1]]:5: warning: cannot prove that iterations access distinct elements of 'v': it is written through the reference 'v.front()' returns, which the analysis does not follow
}

void library_global(double *out, const double *__restrict in, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    out[i] = library_step(in[i]);
// CHECK: effects.cpp:[[@LINE-1]]:14: warning: call to 'library_step' writes 'library_state', which is shared by all iterations
// CHECK: effects_library.h:{{[0-9]+}}:15: note: 'library_state' is declared here
// CHECK: effects.cpp:[[@LINE-3]]:14: remark: loop runs on CPU threads only: the body calls 'library_step', which cannot run on a GPU
}

void copy_back(double *a, int n) {
#pragma gpu_autopar for
  for (int i = 1; i < n; ++i)
    std::memcpy(&a[i], &a[i - 1], sizeof(double));
// CHECK: effects.cpp:[[@LINE-1]]:17: warning: cannot prove that iterations access distinct elements of 'a': it is passed to 'memcpy', which the analysis does not follow
// CHECK: effects.cpp:[[@LINE-2]]:5: remark: loop runs on CPU threads only: the body calls 'memcpy', which cannot run on a GPU
}

void fill_shared(std::vector<double> &v, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    std::fill(v.begin(), v.end(), double(i));
// CHECK: effects.cpp:[[@LINE-1]]:17: warning: cannot prove that iterations access distinct elements of 'v': it is passed to 'fill', which the analysis does not follow
// CHECK: effects.cpp:[[@LINE-2]]:5: remark: loop runs on CPU threads only: the body calls 'fill', which cannot run on a GPU
}

void jagged(double **rows, int n, int m) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j)
      rows[i][j] += 1;
// CHECK: effects.cpp:[[@LINE-1]]:7: warning: cannot prove that iterations access distinct elements of 'rows': 'rows' holds pointers to its rows, and two rows may share elements
// CHECK: effects.cpp:[[@LINE-2]]:7: remark: loop runs on CPU threads only: the body indexes 'rows', whose elements are pointers to further data, which a data map does not copy
}

struct Base {
  virtual double get(double x) const { return x; }
  virtual ~Base() {}
};

void virtual_const(const Base &b, double *out, const double *__restrict in, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    out[i] = b.get(in[i]);
// CHECK: effects.cpp:[[@LINE-1]]:14: warning: call to 'get' is virtual; an override may have effects the analysis cannot see; it must not touch data that other iterations use
// CHECK: effects.cpp:[[@LINE-2]]:14: remark: loop runs on CPU threads only: the body makes a virtual call to 'get'
}

void throws(double *a, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) {
    if (a[i] < 0)
      throw std::runtime_error("negative");
// CHECK: effects.cpp:[[@LINE-1]]:7: warning: the body may throw an exception: the loop rethrows the first one once its running iterations stop, and iterations after it in serial order may have run
// CHECK: effects.cpp:[[@LINE-2]]:7: remark: loop runs on CPU threads only: the body throws an exception
    a[i] = a[i] * 2;
  }
}

void add_reference(double *a, const double &x, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    a[i] = a[i] + x;
// CHECK: effects.cpp:[[@LINE-1]]:5: warning: 'a' and 'x' may alias; 'x' is a reference and may name an element the loop writes; copy it to a local variable before the loop
// CHECK: effects.cpp:[[@LINE-2]]:19: note: read of 'x' here
}

void read_through_pointer(double *a, int n) {
#pragma gpu_autopar for map(tofrom: a[0:n])
  for (int i = 1; i < n; ++i) {
    const double *prev = a + i - 1;
    a[i] = *prev + 1;
  }
// CHECK: effects.cpp:[[@LINE-2]]:12: warning: cannot prove that iterations access distinct elements of 'a': it is read through 'prev', which the analysis does not follow
}

// The race-free twins: nothing to say (`out` is restrict: it does not point
// into the table a callee reads).
static double table_lookup(int k);
double table[16];
static double table_lookup(int k) { return table[k % 16]; }

void twins(double *__restrict out, const double *__restrict in, int n, double k) {
  auto scale = [k](double x) { return k * x; };
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    out[i] = scale(in[i]) + table_lookup(i);
// CHECK: effects.cpp:[[@LINE-1]]:29: remark: loop runs on CPU threads only: the body calls 'table_lookup', which cannot run on a GPU
// CHECK: effects.cpp:[[@LINE-8]]:44: note: 'table_lookup' uses global variable 'table', which is not in GPU memory
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) {
    try {
      if (in[i] < 0)
        throw std::runtime_error("negative");
      out[i] = in[i];
    } catch (const std::exception &) {
      out[i] = 0;
    }
  }
// CHECK: effects.cpp:[[@LINE-8]]:5: remark: loop runs on CPU threads only: the body uses a try block
}

// A library function with state of its own, a global a callee reads while
// the loop writes it, and a reference a free function returns.
#include <cstdlib>
double shared_total[4];
static double peek(int k) { return shared_total[k & 3]; }
static double &slot(int k) { return shared_total[k & 3]; }

void hidden_state(int *out, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    out[i] = std::rand();
// CHECK: effects.cpp:[[@LINE-1]]:14: warning: call to 'rand' keeps state between calls, which iterations would share; it must not touch data that other iterations use
// CHECK: effects.cpp:[[@LINE-2]]:14: remark: loop runs on CPU threads only: {{.*}}
}

void read_by_callee(int n) {
#pragma gpu_autopar for
  for (int i = 1; i < 4; ++i)
    shared_total[i] = peek(i - 1) + n;
// CHECK: effects.cpp:[[@LINE-1]]:23: warning: cannot prove that iterations access distinct elements of 'shared_total': it is read by 'peek', which the analysis does not follow
// CHECK: effects.cpp:[[@LINE-2]]:23: remark: loop runs on CPU threads only: the body calls 'peek', which cannot run on a GPU
// CHECK: effects.cpp:[[@LINE-17]]:36: note: 'peek' uses global variable 'shared_total', which is not in GPU memory
}

void returned_slot(const double *__restrict in, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    slot(i) += in[i];
// CHECK: effects.cpp:[[@LINE-1]]:5: warning: call to 'slot' returns a reference the loop writes through, which the analysis does not follow; it must not touch data that other iterations use
// CHECK: effects.cpp:[[@LINE-2]]:5: remark: loop runs on CPU threads only: the body calls 'slot', which cannot run on a GPU
// CHECK: effects.cpp:[[@LINE-25]]:37: note: 'slot' uses global variable 'shared_total', which is not in GPU memory
}

// A class's own operator[] and at() are calls, not subscripts: this view's
// `h[i]` is `p[i / 2]`, so two iterations write one element (ran wrong on
// sim:3 while it was taken for a subscript of 'h'). A std::span's is one.
struct HalfView {
  double *p;
  double &operator[](int i) const { return p[i / 2]; }
  double &at(int i) { return p[i / 2]; }
};

void user_subscript(HalfView h, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    h[i] = h[i] + i;
// CHECK: effects.cpp:[[@LINE-1]]:5: warning: cannot prove that iterations access distinct elements of 'h': it is written through the reference 'h[i]' returns, which the analysis does not follow
// CHECK: effects.cpp:[[@LINE-2]]:6: remark: loop runs on CPU threads only: the body calls 'operator[]', which cannot run on a GPU
// CHECK: effects.cpp:[[@LINE-10]]:44: note: 'operator[]' uses 'p', a pointer member, whose data no data map copies to a GPU
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    h.at(i) += 1;
// CHECK: effects.cpp:[[@LINE-1]]:5: warning: cannot prove that iterations access distinct elements of 'h': it is written through the reference 'h.at(i)' returns, which the analysis does not follow
// CHECK: effects.cpp:[[@LINE-2]]:5: remark: loop runs on CPU threads only: the body calls 'at', which cannot run on a GPU
// CHECK: effects.cpp:[[@LINE-15]]:30: note: 'at' uses 'p', a pointer member, whose data no data map copies to a GPU
}

// A callee handed one vector may read another the loop writes (two
// references may name one vector); a view reading through its pointer member
// may read the array the loop writes; a mutable lambda stays on the host.
static double own_element(const std::vector<double> &v, int i) { return v[i]; }
struct PointerReader {
  const double *p;
  // Not an accessor the analysis sees through (that is `return p[i];`,
  // diagnostics/accessors.cpp): it reads two elements.
  double get(int i) const { return p[i] + p[i - 1]; }
};

void hidden_sharing(std::vector<double> &a, std::vector<double> &b, PointerReader r, double *__restrict out, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    b[i] = own_element(a, i) + 1;
// CHECK: effects.cpp:[[@LINE-1]]:12: warning: cannot prove that iterations access distinct elements of 'b': 'own_element' reads 'a', which may share memory with it; the analysis does not follow the call
// CHECK: effects.cpp:[[@LINE-2]]:12: remark: loop runs on CPU threads only: the body calls 'own_element', which cannot run on a GPU
// CHECK: effects.cpp:[[@LINE-14]]:54: note: 'own_element' takes 'v' as a 'const std::vector<double> &', which a kernel's view of mapped data is not
#pragma gpu_autopar for map(from: out[0:n])
  for (int i = 0; i < n; ++i)
    out[i] = r.get(i + 1);
// CHECK: effects.cpp:[[@LINE-1]]:14: warning: cannot prove that iterations access distinct elements of 'out': 'get' reads through a pointer member of 'r', which may point into it; the analysis does not follow it
// CHECK: effects.cpp:[[@LINE-2]]:14: remark: loop runs on CPU threads only: the body calls 'get', which cannot run on a GPU
// CHECK: effects.cpp:[[@LINE-15]]:36: note: 'get' uses 'p', a pointer member, whose data no data map copies to a GPU
  auto next = [c = 0]() mutable { return c++; };
#pragma gpu_autopar for map(from: out[0:n])
  for (int i = 0; i < n; ++i)
    out[i] = next();
// CHECK: effects.cpp:[[@LINE-1]]:18: warning: call to 'next' writes 'c', which is shared by all iterations
// CHECK: effects.cpp:[[@LINE-5]]:16: note: 'c' is declared here
// CHECK: effects.cpp:[[@LINE-3]]:18: remark: loop runs on CPU threads only: the body calls 'next', a mutable lambda, which each call changes
}
