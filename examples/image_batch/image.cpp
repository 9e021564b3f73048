#include "image.h"

std::vector<Plane> make_batch(int images, int width, int height) {
  std::vector<Plane> planes(3 * images);
  for (int k = 0; k < 3 * images; ++k) {
    Plane &p = planes[k];
    p.width = width;
    p.height = height;
    p.px.resize(static_cast<std::size_t>(width) * height);
    // Gradients plus a per-plane checkerboard of "noise": something for the
    // filters to change.
    for (int y = 0; y < height; ++y)
      for (int x = 0; x < width; ++x)
        p.at(x, y) = 0.25f * (x + y * (k % 3 + 1)) / (width + 3 * height) +
                     (((x * 7 + y * 13 + k * 5) % 11) / 22.0f);
  }
  return planes;
}

double checksum(const Plane &p) {
  double s = 0;
  for (std::size_t i = 0; i < p.px.size(); ++i)
    s += p.px[i] * static_cast<double>(i % 97 + 1);
  return s;
}
