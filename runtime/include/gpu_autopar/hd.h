// GPU_AUTOPAR_HD marks code that must compile for both host and device. It is
// empty in a host compiler, so rewritten files still build with plain g++ or
// clang++ and run on CPU threads or simulated devices.
#pragma once

#if defined(__CUDACC__) || defined(__HIP__)
#define GPU_AUTOPAR_HD __host__ __device__
#else
#define GPU_AUTOPAR_HD
#endif
