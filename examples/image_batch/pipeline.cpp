#include "pipeline.h"

#include "filters.h"

void process_batch(std::vector<Plane> &planes) {
  // Each iteration calls host functions that would launch GPU work: the tool
  // classifies the loop as task mode, and each plane runs on a worker thread
  // holding one device.
#pragma gpu_autopar for
  for (int k = 0; k < static_cast<int>(planes.size()); ++k) {
    denoise(planes[k]);
    sharpen(planes[k], 0.6f);
    tone_curve(planes[k], 0.8f);
  }
}

long long quantized_sum(const std::vector<float> &v) {
  // An integer reduction: exact whatever the split, so every device
  // configuration prints the same mean as the serial program.
  long long total = 0;
#pragma gpu_autopar for reduction(+: total)
  for (int i = 0; i < static_cast<int>(v.size()); ++i)
    total += static_cast<long long>(v[i] * 255.0f + 0.5f);
  return total;
}

void normalize(const std::vector<float> &in, std::vector<float> &out, float mean, float gain) {
  // Only arithmetic and array accesses: kernel mode. The tool maps `in` to the
  // devices and `out` back, one slice per chunk.
#pragma gpu_autopar for
  for (int i = 0; i < static_cast<int>(in.size()); ++i)
    out[i] = (in[i] - mean) * gain + 0.5f;
}
