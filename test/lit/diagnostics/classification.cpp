// A loop with no GPU work whose body cannot run on a GPU runs on CPU threads:
// a remark says why, at the cause. mode(kernel) on such a body (or on one that
// does GPU work itself) is an error naming the call or construct.
// RUN: %expect-exit 1 %gpu-autopar %s --check -- -std=c++17 -ferror-limit=0 2> %t.err
// RUN: FileCheck %s --input-file %t.err --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note: --implicit-check-not=remark:
#include <cstdio>
#include <string>
#include <vector>

struct Shape {
  virtual double area() const = 0;
};
int counter_limit = 10;
void process(float *channel, int n);

void remarks(std::vector<double> &__restrict__ v, std::vector<std::string> &names, Shape **shapes, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    std::printf("%f\n", v[i]);
// CHECK: classification.cpp:[[@LINE-1]]:5: error: 'printf' does input or output, which the loop does in the order of its iterations; iterations running in parallel would interleave it in any order: do it before or after the loop
// CHECK: classification.cpp:[[@LINE-2]]:5: remark: loop runs on CPU threads only: the body calls 'printf', which cannot run on a GPU
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    names[i] = std::to_string(i);
// CHECK: classification.cpp:[[@LINE-1]]:14: remark: loop runs on CPU threads only: the body calls 'operator=', which cannot run on a GPU
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    v[i] = shapes[i]->area();
// An override of a const virtual function may still write a mutable member or a global.
// CHECK: classification.cpp:[[@LINE-2]]:12: warning: call to 'area' is virtual; an override may have effects the analysis cannot see; it must not touch data that other iterations use
// CHECK: classification.cpp:[[@LINE-3]]:12: remark: loop runs on CPU threads only: the body makes a virtual call to 'area'
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) {
    double *t = new double(v[i]);
// CHECK: classification.cpp:[[@LINE-1]]:17: remark: loop runs on CPU threads only: the body allocates with 'new'
    v[i] = *t;
    delete t;
  }
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    v[i] = i < counter_limit ? 1 : 0;
// CHECK: classification.cpp:[[@LINE-1]]:16: remark: loop runs on CPU threads only: the body uses global variable 'counter_limit', which is not in GPU memory
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) {
    if (v[i] < 0)
      throw i;
// CHECK: classification.cpp:[[@LINE-1]]:7: warning: the body may throw an exception: the loop rethrows the first one once its running iterations stop, and iterations after it in serial order may have run
// CHECK: classification.cpp:[[@LINE-2]]:7: remark: loop runs on CPU threads only: the body throws an exception
  }
}

void overrides(std::vector<double> &__restrict__ v, float *img, int n) {
#pragma gpu_autopar for mode(kernel)
  for (int i = 0; i < n; ++i)
    std::printf("%f\n", v[i]);
// CHECK: classification.cpp:[[@LINE-1]]:5: error: 'printf' does input or output, which the loop does in the order of its iterations; iterations running in parallel would interleave it in any order: do it before or after the loop
// CHECK: classification.cpp:[[@LINE-2]]:5: error: mode(kernel) needs a body that can run on a GPU, but it calls 'printf', which cannot run on a GPU
// CHECK: classification.cpp:[[@LINE-5]]:30: note: mode clause is here
#pragma gpu_autopar for mode(kernel)
  for (int c = 0; c < 3; ++c)
    process(img + c * n, n);
// CHECK: classification.cpp:[[@LINE-1]]:5: warning: call to 'process' may have effects the analysis cannot see; it must not touch data that other iterations use
// CHECK: classification.cpp:[[@LINE-2]]:5: error: mode(kernel) needs a body that can run on a GPU, but it calls host function 'process' (host functions may do GPU work)
// CHECK: classification.cpp:[[@LINE-5]]:30: note: mode clause is here
// Task and host are always allowed, and an explicit host mode needs no remark.
#pragma gpu_autopar for mode(task)
  for (int i = 0; i < n; ++i)
    v[i] = 2 * v[i];
#pragma gpu_autopar for mode(host)
  for (int i = 0; i < n; ++i)
    std::printf("%f\n", v[i]);
// CHECK: classification.cpp:[[@LINE-1]]:5: error: 'printf' does input or output, which the loop does in the order of its iterations; iterations running in parallel would interleave it in any order: do it before or after the loop
}
