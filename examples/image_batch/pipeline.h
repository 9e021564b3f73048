#pragma once
#include <vector>

#include "image.h"

// Task mode: every plane goes through the filter chain on its own device.
void process_batch(std::vector<Plane> &planes);

// Kernel mode: pure arithmetic over one large array, split across devices.
long long quantized_sum(const std::vector<float> &v);  // sum of round(255 * v[i])
void normalize(const std::vector<float> &in, std::vector<float> &out, float mean, float gain);
