// A user header the tool reads but does not rewrite.
#pragma once
inline double xs_interpolate(double lo, double hi, double f) { return lo + f * (hi - lo); }
#include <gpu_autopar/hd.h>
// Marked by its author: callable on a GPU, so the loop below is a kernel.
GPU_AUTOPAR_HD inline double xs_marked(double lo, double hi, double f) { return lo + f * (hi - lo); }
