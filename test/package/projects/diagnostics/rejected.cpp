// Iteration i reads what iteration i-1 wrote: the tool rejects the loop.
#include <vector>

int main() {
  const int n = 1000;
  std::vector<int> a(n, 1);
#pragma gpu_autopar for
  for (int i = 1; i < n; ++i)
    a[i] = a[i - 1] + 1;  // line 9
  return a[n - 1] == n ? 0 : 1;
}
