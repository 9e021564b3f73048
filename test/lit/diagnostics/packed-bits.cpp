// std::vector<bool> packs its elements into shared words, and its elements
// are written through a proxy (`bits[i] = b` assigns to a _Bit_reference):
// the writes are element writes (a recurrence is a proven dependence), and
// even writes of distinct elements by different iterations race on a word: a
// warning (an error under --strict).
// RUN: %expect-exit 1 %gpu-autopar %s --check -- -std=c++17 2> %t.err
// RUN: FileCheck %s --input-file %t.err --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note: --implicit-check-not=remark:
#include <vector>

void invert(const std::vector<char> &in, std::vector<bool> &out, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    out[i] = !in[i];
// CHECK: packed-bits.cpp:[[@LINE-1]]:5: warning: 'out' is a std::vector<bool>: its elements share machine words, so iterations that write neighbouring elements race; use std::vector<char>
// CHECK: packed-bits.cpp:[[@LINE-2]]:12: remark: loop runs on CPU threads only: the body calls 'operator=', which cannot run on a GPU
}

void shift(std::vector<bool> &v, int n) {
#pragma gpu_autopar for
  for (int i = 1; i < n; ++i)
    v[i] = v[i - 1];
// CHECK: packed-bits.cpp:[[@LINE-2]]:3: error: loop-carried dependence on 'v': an element written in one iteration is read in another
// CHECK: packed-bits.cpp:[[@LINE-2]]:5: note: write of 'v' here
// CHECK: packed-bits.cpp:[[@LINE-3]]:12: note: read of 'v' here
// CHECK: packed-bits.cpp:[[@LINE-5]]:3: note: for example, with n = 3, iteration i=1 writes v[1] and iteration i=2 reads it
// CHECK: packed-bits.cpp:[[@LINE-5]]:5: warning: 'v' is a std::vector<bool>: its elements share machine words, so iterations that write neighbouring elements race; use std::vector<char>
// CHECK: packed-bits.cpp:[[@LINE-6]]:10: remark: loop runs on CPU threads only: the body calls 'operator=', which cannot run on a GPU
}

// Reading bits is fine.
void count(const std::vector<bool> &b, std::vector<int> &out, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    out[i] = b[i] ? 1 : 0;
}
