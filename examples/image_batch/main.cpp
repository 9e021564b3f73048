// image_batch: a batch of RGB images through a filter chain (task mode, one
// plane per device), then a brightness normalisation of all pixels (kernel
// mode with a reduction). Prints checksums only, so the output of any device
// configuration can be compared with the serial program built from the same
// sources without gpu-autopar (image_batch_serial).
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "image.h"
#include "pipeline.h"

int main(int argc, char **argv) {
  const int images = argc > 1 ? std::atoi(argv[1]) : 8;
  const int width = 192, height = 128;

  std::vector<Plane> planes = make_batch(images, width, height);
  process_batch(planes);
  for (int m = 0; m < images; ++m)
    std::printf("image %d: r %.4f g %.4f b %.4f\n", m, checksum(planes[3 * m]),
                checksum(planes[3 * m + 1]), checksum(planes[3 * m + 2]));

  std::vector<float> all;
  for (const Plane &p : planes)
    all.insert(all.end(), p.px.begin(), p.px.end());
  const long long q = quantized_sum(all);
  const float mean = static_cast<float>(q) / (255.0f * all.size());
  std::vector<float> out(all.size());
  normalize(all, out, mean, 1.5f);
  Plane whole{static_cast<int>(out.size()), 1, out};
  std::printf("pixels %zu, quantized sum %lld, mean %.6f, normalized checksum %.4f\n",
              all.size(), q, mean, checksum(whole));
  return 0;
}
