// An indirect write: iterations are independent only if idx has no repeats,
// which the tool cannot prove (a warning; with STRICT an error).
#include <vector>

int main() {
  const int n = 1000;
  std::vector<int> a(n), idx(n);
  for (int i = 0; i < n; ++i)
    idx[i] = (i * 7) % n;
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    a[idx[i]] = i;  // line 12
  return a[0] == 0 ? 0 : 1;
}
