// The pipeline's "kernels": whole-plane operations. Here they are plain host
// functions; in a CUDA build each would launch a kernel on the current device
// (gpu-autopar makes the leased GPU current for the whole loop iteration, and
// launches written without a stream use the lease's stream).
#pragma once
#include "image.h"

void denoise(Plane &p);                // 3x3 box filter
void sharpen(Plane &p, float amount);  // unsharp mask against a 3x3 blur
void tone_curve(Plane &p, float gamma);
