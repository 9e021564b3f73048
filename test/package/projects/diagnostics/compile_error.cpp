// The error is in the annotated loop's body, which the rewritten file moves
// into a lambda: the compiler must still report it at this file's line 13.
#include <vector>

[[deprecated("use scale_v2")]] inline int scale(int v) { return 2 * v; }

int main() {
  const int n = 1000;
  std::vector<int> a(n);
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) {
    const int v = i % 7;
    a[i] = scale(v);  // line 13
  }
  return a[n - 1] == 12 ? 0 : 1;
}
