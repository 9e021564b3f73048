// A batch of images stored as one plane per colour channel: the unit of work
// of the pipeline (three channels of one image can go to three GPUs).
#pragma once
#include <vector>

struct Plane {
  int width = 0, height = 0;
  std::vector<float> px;  // row-major, values in [0, 1]
  float &at(int x, int y) { return px[static_cast<std::size_t>(y) * width + x]; }
  float at(int x, int y) const { return px[static_cast<std::size_t>(y) * width + x]; }
};

// `images` synthetic RGB images of width x height: 3 * images planes,
// plane 3*m + c is channel c of image m. Deterministic.
std::vector<Plane> make_batch(int images, int width, int height);

// Order-independent fingerprint of a plane, for comparing runs.
double checksum(const Plane &p);
