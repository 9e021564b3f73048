#include "filters.h"

#include <algorithm>
#include <cmath>

namespace {
// 3x3 mean with clamped borders.
Plane blurred(const Plane &p) {
  Plane out = p;
  for (int y = 0; y < p.height; ++y)
    for (int x = 0; x < p.width; ++x) {
      float s = 0;
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx)
          s += p.at(std::clamp(x + dx, 0, p.width - 1), std::clamp(y + dy, 0, p.height - 1));
      out.at(x, y) = s / 9.0f;
    }
  return out;
}
} // namespace

void denoise(Plane &p) { p = blurred(p); }

void sharpen(Plane &p, float amount) {
  const Plane b = blurred(p);
  for (std::size_t i = 0; i < p.px.size(); ++i)
    p.px[i] = std::clamp(p.px[i] + amount * (p.px[i] - b.px[i]), 0.0f, 1.0f);
}

void tone_curve(Plane &p, float gamma) {
  for (float &v : p.px)
    v = std::pow(v, gamma);
}
