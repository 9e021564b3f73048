// References bound to elements (`auto &p = pts[i];`) are those elements:
// the loop is accepted without a warning, writes through them come back, and
// a conditional write through one keeps the elements it skips (tofrom, not
// from), on every device setting.
// RUN: %e2e --out %t %s | FileCheck %s
// RUN: %gpu-autopar %s -- -std=c++17 2>&1 | grep -v "MAPS:" | FileCheck %s --check-prefix=MAPS --implicit-check-not=warning:
#include <cstdio>
#include <vector>

struct Point {
  float x, y;
};

void settle(std::vector<Point> &pts, std::vector<float> &moved, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) {
    auto &p = pts[i];
    float &m = moved[i];
    if (p.x > p.y) {
      p.x = p.y;
      m = 1;
    }
    p.y += 0.5f;
  }
}
// MAPS: ::gpu_autopar::data(::gpu_autopar::tofrom(pts, ::gpu_autopar::affine(1, 0, 1)),
// MAPS-NEXT: ::gpu_autopar::tofrom(moved, ::gpu_autopar::affine(1, 0, 1))),

int main() {
  const int n = 20000;
  std::vector<Point> pts(n);
  std::vector<float> moved(n, -2.0f);
  for (int i = 0; i < n; ++i)
    pts[i] = {float((i * 7) % 13), float((i * 5) % 11)};
  settle(pts, moved, n);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += (pts[i].x + 2 * pts[i].y + 3 * moved[i]) * (i % 9 + 1);
  std::printf("s=%.2f\n", s);
}
// CHECK: cpu: element-references.cpp:15 mode=kernel backend=cpu iterations=20000 devices=1
// CHECK: sim:3: element-references.cpp:15 mode=kernel backend=sim iterations=20000 devices=3
