// OpenACC's 'kernels loop' (without 'independent') and 'auto' ask the compiler
// to prove the iterations independent: what the tool cannot prove, and a
// dependence it proves, make the loop run sequentially, with a remark saying
// why; 'independent', 'parallel loop' and 'loop' are the user's promise. Also
// under --strict: a sequential loop is not a guess.
// RUN: %expect-exit 1 %gpu-autopar --accept=acc --check %s -- -std=c++17 -ferror-limit=0 2> %t.err
// RUN: FileCheck %s --input-file %t.err --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note: --implicit-check-not=remark:
// RUN: %expect-exit 1 %gpu-autopar --accept=acc --check --strict %s -- -std=c++17 -ferror-limit=0 2> %t.strict
// RUN: FileCheck %s --check-prefix=STRICT --input-file %t.strict
void loops(float *a, const int *idx, int n, int k, int &count) {
#pragma acc kernels loop
  for (int i = 0; i < n; ++i)
    a[i + k] = a[i] + 1;
#pragma acc parallel loop auto copy(a[0:n])
  for (int i = 0; i < n; ++i)
    a[idx[i]] = 2 * a[i];
#pragma acc loop auto
  for (int i = 1; i < n; ++i)
    a[i] = a[i - 1] + 1;
#pragma acc kernels loop
  for (int i = 0; i < n; ++i)
    a[i] = a[i] * 2;
#pragma acc kernels loop independent copyout(a[0:n])
  for (int i = 0; i < n; ++i)
    a[idx[i]] = 0;
#pragma acc parallel loop copy(a[0:n])
  for (int i = 0; i < n; ++i)
    a[idx[i]] += 1;
#pragma acc parallel loop auto independent
  for (int i = 0; i < n; ++i)
    a[i] = 0;
#pragma acc kernels loop
  for (int i = 0; i < n; ++i)
    count = count + 1;
}
// CHECK: acc-kernels-auto.cpp:29:32: error: 'independent' clause of '#pragma acc parallel loop' is not supported: 'auto' and 'independent' contradict each other; OpenACC allows only one of them
// CHECK: acc-kernels-auto.cpp:13:5: remark: loop runs sequentially (OpenACC's 'kernels loop' is parallel only when its iterations are proven independent): cannot prove that iterations access distinct elements of 'a': {{.*}}
// CHECK: acc-kernels-auto.cpp:13:16: note: read of 'a' here
// CHECK: acc-kernels-auto.cpp:11:1: note: '#pragma acc kernels loop independent' would promise that the iterations are independent and run the loop in parallel
// CHECK: acc-kernels-auto.cpp:16:5: remark: loop runs sequentially (OpenACC's 'auto' is parallel only when its iterations are proven independent): cannot prove that iterations access distinct elements of 'a': {{.*}}
// CHECK: acc-kernels-auto.cpp:14:1: note: '#pragma acc parallel loop independent' would promise that the iterations are independent and run the loop in parallel
// CHECK: acc-kernels-auto.cpp:18:3: remark: loop runs sequentially (OpenACC's 'auto' is parallel only when its iterations are proven independent): loop-carried dependence on 'a': an element written in one iteration is read in another
// CHECK: acc-kernels-auto.cpp:19:5: note: write of 'a' here
// CHECK: acc-kernels-auto.cpp:19:12: note: read of 'a' here
// CHECK: acc-kernels-auto.cpp:18:3: note: for example, with n = 3, iteration i=1 writes a[1] and iteration i=2 reads it
// CHECK: acc-kernels-auto.cpp:17:1: note: '#pragma acc loop independent' would promise that the iterations are independent and run the loop in parallel
// CHECK: acc-kernels-auto.cpp:25:5: warning: cannot prove that iterations access distinct elements of 'a': {{.*}}
// CHECK: acc-kernels-auto.cpp:28:5: warning: cannot prove that iterations access distinct elements of 'a': {{.*}}
// CHECK: acc-kernels-auto.cpp:34:5: error: 'count' is declared outside the loop and written in it; {{.*}}
// CHECK: acc-kernels-auto.cpp:10:57: note: 'count' is declared here

// The sequential loops are no guesses: --strict keeps them; only the promises
// it cannot check become errors.
// STRICT: acc-kernels-auto.cpp:29:32: error: 'independent' clause
// STRICT: acc-kernels-auto.cpp:13:5: remark: loop runs sequentially
// STRICT: acc-kernels-auto.cpp:16:5: remark: loop runs sequentially
// STRICT: acc-kernels-auto.cpp:18:3: remark: loop runs sequentially
// STRICT: acc-kernels-auto.cpp:25:5: error: cannot prove
// STRICT: acc-kernels-auto.cpp:28:5: error: cannot prove
