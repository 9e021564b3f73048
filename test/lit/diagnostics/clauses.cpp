// Every error of the clause parser and of clause name resolution, at the
// offending token. A loop with a bad clause is rejected: exit status 1.
// RUN: %expect-exit 1 %gpu-autopar %s --check -- -std=c++17 -ferror-limit=0 2> %t.err
// RUN: FileCheck %s --input-file %t.err --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note: --implicit-check-not=remark:
void f(float *a, int n, int k, double s) {
#pragma gpu_autopar for simd
  for (int i = 0; i < n; ++i) a[i] = 0;
// CHECK: clauses.cpp:[[@LINE-2]]:25: error: unknown clause 'simd' in '#pragma gpu_autopar for'
#pragma gpu_autopar for reduction(-: s)
  for (int i = 0; i < n; ++i) s += a[i];
// CHECK: clauses.cpp:[[@LINE-2]]:35: error: invalid argument '-' to 'reduction'; expected one of + * min max & | ^ && ||
#pragma gpu_autopar for reduction(+ s)
  for (int i = 0; i < n; ++i) s += a[i];
// CHECK: clauses.cpp:[[@LINE-2]]:37: error: expected ':' after the reduction operator
#pragma gpu_autopar for reduction(+: )
  for (int i = 0; i < n; ++i) s += a[i];
// CHECK: clauses.cpp:[[@LINE-2]]:38: error: expected a variable name in 'reduction'
#pragma gpu_autopar for schedule(eager)
  for (int i = 0; i < n; ++i) a[i] = 0;
// CHECK: clauses.cpp:[[@LINE-2]]:34: error: invalid argument 'eager' to 'schedule'; expected static, dynamic, guided or adaptive
#pragma gpu_autopar for schedule(static, 0)
  for (int i = 0; i < n; ++i) a[i] = 0;
// CHECK: clauses.cpp:[[@LINE-2]]:42: error: argument of 'schedule' must be positive
#pragma gpu_autopar for devices(0)
  for (int i = 0; i < n; ++i) a[i] = 0;
// CHECK: clauses.cpp:[[@LINE-2]]:33: error: argument of 'devices' must be positive
#pragma gpu_autopar for slots(-1)
  for (int i = 0; i < n; ++i) a[i] = 0;
// CHECK: clauses.cpp:[[@LINE-2]]:31: error: argument of 'slots' must be positive
#pragma gpu_autopar for fallback(gpus)
  for (int i = 0; i < n; ++i) a[i] = 0;
// CHECK: clauses.cpp:[[@LINE-2]]:34: error: invalid argument 'gpus' to 'fallback'; expected auto, gpu, cpu or none
#pragma gpu_autopar for mode(device)
  for (int i = 0; i < n; ++i) a[i] = 0;
// CHECK: clauses.cpp:[[@LINE-2]]:30: error: invalid argument 'device' to 'mode'; expected kernel, task or host
#pragma gpu_autopar for map(into: a[0:n])
  for (int i = 0; i < n; ++i) a[i] = 0;
// CHECK: clauses.cpp:[[@LINE-2]]:29: error: invalid argument 'into' to 'map'; expected to, from, tofrom or alloc
#pragma gpu_autopar for map(to: a[0 n])
  for (int i = 0; i < n; ++i) a[i] = 0;
// CHECK: clauses.cpp:[[@LINE-2]]:38: error: expected ':' in the array section of 'a'
#pragma gpu_autopar for devices(2) slots(2) devices(3)
  for (int i = 0; i < n; ++i) a[i] = 0;
// CHECK: clauses.cpp:[[@LINE-2]]:45: error: 'devices' clause appears more than once
// CHECK: clauses.cpp:[[@LINE-3]]:25: note: previous 'devices' is here
#pragma gpu_autopar for private(k) reduction(+: k)
  for (int i = 0; i < n; ++i) k += 1;
// CHECK: clauses.cpp:[[@LINE-2]]:49: error: 'k' appears in both 'private' and 'reduction'
// CHECK: clauses.cpp:[[@LINE-3]]:33: note: previous 'private' is here
#pragma gpu_autopar for reduction(+: s) reduction(+: s)
  for (int i = 0; i < n; ++i) s += a[i];
// CHECK: clauses.cpp:[[@LINE-2]]:54: error: 's' appears more than once in 'reduction'; name each variable once
// CHECK: clauses.cpp:[[@LINE-3]]:38: note: previous 'reduction' is here
#pragma gpu_autopar for reduction(+: s, s)
  for (int i = 0; i < n; ++i) s += a[i];
// CHECK: clauses.cpp:[[@LINE-2]]:41: error: 's' appears more than once in 'reduction'; name each variable once
// CHECK: clauses.cpp:[[@LINE-3]]:38: note: previous 'reduction' is here
#pragma gpu_autopar for mode(host) map(to: a[0:n])
  for (int i = 0; i < n; ++i) a[i] = 0;
// CHECK: clauses.cpp:[[@LINE-2]]:44: error: 'map' conflicts with 'mode(host)': only kernel-mode loops move data
#pragma gpu_autopar for fallback(gpu), mode(host)
  for (int i = 0; i < n; ++i) a[i] = 0;
// CHECK: clauses.cpp:[[@LINE-2]]:25: error: 'fallback(gpu)' conflicts with 'mode(host)': a host-mode loop runs on CPU threads only
#pragma gpu_autopar for min_iterations(
  for (int i = 0; i < n; ++i) a[i] = 0;
// CHECK: clauses.cpp:[[@LINE-2]]:39: error: expected an expression in 'min_iterations'
#pragma gpu_autopar for devices((2)
  for (int i = 0; i < n; ++i) a[i] = 0;
// CHECK: clauses.cpp:[[@LINE-2]]:35: error: expected ')' to end 'devices'
#pragma gpu_autopar for private(zz)
  for (int i = 0; i < n; ++i) a[i] = 0;
// CHECK: clauses.cpp:[[@LINE-2]]:33: error: use of undeclared variable 'zz' in 'private' clause
#pragma gpu_autopar for private(i)
  for (int i = 0; i < n; ++i) a[i] = 0;
// CHECK: clauses.cpp:[[@LINE-2]]:33: error: the induction variable 'i' cannot appear in a 'private' clause
#pragma gpu_autopar for reduction(+: a)
  for (int i = 0; i < n; ++i) a[i] = 0;
// CHECK: clauses.cpp:[[@LINE-2]]:38: error: reduction variable 'a' must have an arithmetic type
#pragma gpu_autopar for 42
  for (int i = 0; i < n; ++i) a[i] = 0;
// CHECK: clauses.cpp:[[@LINE-2]]:25: error: expected a clause name
#pragma gpu_autopar for private(k) firstprivate(k)
  for (int i = 0; i < n; ++i) k = i;
// CHECK: clauses.cpp:[[@LINE-2]]:49: error: 'k' appears in both 'private' and 'firstprivate'
// CHECK: clauses.cpp:[[@LINE-3]]:33: note: previous 'private' is here
#pragma gpu_autopar for lastprivate(k) firstprivate(k) lastprivate(k)
  for (int i = 0; i < n; ++i) k = i;
// CHECK: clauses.cpp:[[@LINE-2]]:68: error: 'k' appears more than once in 'lastprivate'; name each variable once
// CHECK: clauses.cpp:[[@LINE-3]]:37: note: previous 'lastprivate' is here
#pragma gpu_autopar for lastprivate(i) firstprivate(yy)
  for (int i = 0; i < n; ++i) a[i] = 0;
// CHECK: clauses.cpp:[[@LINE-2]]:53: error: use of undeclared variable 'yy' in 'firstprivate' clause
// CHECK: clauses.cpp:[[@LINE-3]]:37: error: the induction variable 'i' cannot appear in a 'lastprivate' clause
}

// Every clause in its valid forms: accepted without a word.
void ok(float *__restrict__ a, const float *__restrict__ b, int n, int chunk, double s, float m, int bits, bool all) {
  float t = 0;
#pragma gpu_autopar for reduction(+: s) reduction(max: m), reduction(|: bits) reduction(&&: all) schedule(dynamic, chunk) devices(all) slots(2) fallback(cpu) min_iterations(4 * chunk) private(t)
  for (int i = 0; i < n; ++i) {
    t = b[i] * 2;
    a[i] = t;
    s += t;
    m = t > m ? t : m;
    bits |= int(t);
    all = all && t > 0;
  }
#pragma gpu_autopar for map(to: b[0:n]) map(from: a[0:n]) schedule(guided) devices(2) fallback(none) mode(kernel)
  for (int i = 0; i < n; ++i)
    a[i] = b[i];
  int first = 1, last = 0;
#pragma gpu_autopar for firstprivate(first) lastprivate(first, last)
  for (int i = 0; i < n; ++i) {
    last = first + i; // read only: each copy holds the value before the loop (private-reads.cpp)
    a[i] = last;
  }
}

// Clause names are looked up as the compiler looks them up where the
// directive stands (clang's Sema, as for OpenMP's clauses): a structured
// binding is visible there, but it is no variable a clause can name.
struct Pair { double x, y; };
void bindings(const float *a, int n, Pair p) {
  auto [s, t] = p;
#pragma gpu_autopar for reduction(+: s) firstprivate(t)
  for (int i = 0; i < n; ++i) s += a[i] + t;
// CHECK: clauses.cpp:[[@LINE-2]]:38: error: 's' in 'reduction' clause names a structured binding, not a variable
// CHECK: clauses.cpp:[[@LINE-4]]:9: note: 's' is declared here
// CHECK: clauses.cpp:[[@LINE-4]]:54: error: 't' in 'firstprivate' clause names a structured binding, not a variable
// CHECK: clauses.cpp:[[@LINE-6]]:12: note: 't' is declared here
  double u = 0;
  {
    double u = 1; // ends with its block: the directive's 'u' is the outer one
  }
#pragma gpu_autopar for reduction(+: u)
  for (int i = 0; i < n; ++i) u += a[i];
}

// A member function defined in its class: its body is parsed after the
// class, and its clauses still name its parameters and locals; a data member
// is no variable a clause can name.
struct Summer {
  double total = 0;
  double run(const float *a, int n, double s) {
    double w = 2;
#pragma gpu_autopar for reduction(+: s) firstprivate(w)
    for (int i = 0; i < n; ++i) s += a[i] * w;
#pragma gpu_autopar for reduction(+: total)
    for (int i = 0; i < n; ++i) total += a[i];
// CHECK: clauses.cpp:[[@LINE-2]]:38: error: 'total' in 'reduction' clause names a data member, not a variable
// CHECK: clauses.cpp:[[@LINE-8]]:10: note: 'total' is declared here
    return s;
  }
};
