// A raw pointer read or written through a subscript that is not affine in
// the induction variable: the tool cannot tell how much of it to copy to a
// device. The loop runs on CPU threads instead, and a remark says which map
// clause would bring it to a GPU; under mode(kernel) that is an error, and
// nothing is written.
// RUN: %gpu-autopar %s -o %t.out -- -std=c++17 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=remark:
// RUN: grep -c '^ *::gpu_autopar::host_loop(' %t.out | grep -qx 4
// RUN: %expect-exit 1 %gpu-autopar %s -o %t.kernel -- -std=c++17 -DKERNEL 2>&1 | FileCheck %s --check-prefix=KERNEL --implicit-check-not=error:
// RUN: not test -e %t.kernel

void gather(const float *x, const int *__restrict__ idx, float *__restrict__ out, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    out[i] = x[idx[i]];
  // CHECK: pointer-extent.cpp:[[@LINE-1]]:14: remark: loop runs on CPU threads only: the body indexes 'x', a pointer whose length the analysis cannot tell; add 'map(to: x[0:n])' with its length to run it on a GPU
}

void scatter(float *__restrict__ out, const int *__restrict__ idx, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    out[idx[i]] = 1.0f;
  // CHECK: pointer-extent.cpp:[[@LINE-1]]:5: warning: cannot prove that iterations access distinct elements of 'out': subscript 'idx[i]' is not affine in the loop variables
  // CHECK: pointer-extent.cpp:[[@LINE-2]]:5: remark: loop runs on CPU threads only: the body indexes 'out', a pointer whose length the analysis cannot tell; add 'map(from: out[0:n])' with its length to run it on a GPU
}

// The section of `&x[4 * i]` is not what `row[3]` reads.
void row_pointer(const float *x, float *__restrict__ out, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) {
    const float *row = &x[4 * i];
    // CHECK: pointer-extent.cpp:[[@LINE-1]]:25: remark: loop runs on CPU threads only: the body indexes 'x', a pointer whose length the analysis cannot tell; add 'map(to: x[0:n])' with its length to run it on a GPU
    out[i] = row[0] + row[3];
  }
}

// x[i] with x[j] share the hull of the whole loop's reads only where the
// loop's last value is its header's: with i += 2 it may stop short of
// n - 1, and a hull to n - 1 could reach past the pointer's data.
void pairs_by_twos(const float *x, float *__restrict__ out, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; i += 2)
    for (int j = 0; j < n; j += 2)
      out[i] += x[j] * x[i];
  // CHECK: pointer-extent.cpp:[[@LINE-1]]:17: remark: loop runs on CPU threads only: the body indexes 'x', a pointer whose length the analysis cannot tell; add 'map(to: x[0:n])' with its length to run it on a GPU
}

#ifdef KERNEL
void gather_in_kernel(const float *x, const int *__restrict__ idx, float *__restrict__ out, int n) {
#pragma gpu_autopar for mode(kernel)
  for (int i = 0; i < n; ++i)
    out[i] = x[idx[i]];
  // KERNEL: pointer-extent.cpp:[[@LINE-1]]:14: error: cannot tell how many elements of 'x' the loop uses; add 'map(to: x[0:n])' with its length
}
#endif
