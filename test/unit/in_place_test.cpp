// Memory a loop's maps name that CUDA says is a GPU's (issue 23, item 6):
// never copied between host and device. Simulated devices cannot use device
// memory in place, so a loop over it says why it cannot run instead of
// copying it; managed memory, which the host may read, is copied as usual.
// The CUDA path itself (in place on the memory's GPU, no byte copied for it)
// is tested against the stand-in (test/standin/cuda_path.cu, device-pointer).
#include <gpu_autopar/gpu_autopar.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "cuda_backend.h"
#include "runtime_test_support.h"

namespace {

using namespace gpu_autopar;

// What the fake cudaPointerGetAttributes says of [g_lo, g_hi): g_type on GPU 0.
std::uintptr_t g_lo = 0, g_hi = 0;
int g_type = 0;

cuda_api attributes_only() {
  cuda_api a{};
  a.pointer_attributes = [](const void* p, int* type, int* device) {
    const auto at = reinterpret_cast<std::uintptr_t>(p);
    *type = at >= g_lo && at < g_hi ? g_type : 0;
    *device = 0;
    return 0;
  };
  return a;
}

struct with_attributes {
  with_attributes(const std::vector<float>& v, int type) {
    g_lo = reinterpret_cast<std::uintptr_t>(v.data());
    g_hi = g_lo + v.size() * sizeof(float);
    g_type = type;
    register_cuda_api(attributes_only());
  }
  ~with_attributes() { detail::unregister_cuda_api_for_testing(); }
};

void saxpy(std::vector<float>& y, const std::vector<float>& x) {
  kernel_loop({"t.cpp", 7}, iterations<int>(0, less, int(y.size()), 1), options(),
              data(tofrom(y, 0, (long long)y.size(), affine(1, 0, 1), "y"), to(x, affine(1, 0, 1))), reductions(),
              [](int i, view<std::vector<float>> y, view<const std::vector<float>> x) { y[i] += 2 * x[i]; });
}

TEST(InPlace, DeviceMemoryIsNeverCopiedToDevicesThatCannotUseItInPlace) {
  std::vector<float> x(5000, 1.0f), y(5000, 3.0f);
  with_attributes device_memory(y, kCudaMemoryTypeDevice);
  rt_test::scoped_env env{{"GPU_AUTOPAR_DEVICES", "sim:2"}};
  try {
    saxpy(y, x);
    FAIL() << "the loop ran";
  } catch (const loop_error& e) {
    EXPECT_STREQ(e.what(), "gpu-autopar: t.cpp:7: the loop cannot run: 'y' is device memory of CUDA GPU 0 (not one "
                           "of the runtime's devices); device memory is used in place on its own GPU, never copied "
                           "to or from the host");
  }
  EXPECT_EQ(y[0], 3.0f);
}

TEST(InPlace, ManagedMemoryIsCopiedByDevicesThatCannotUseItInPlace) {
  std::vector<float> x(5000, 1.0f), y(5000, 3.0f);
  with_attributes managed(y, kCudaMemoryTypeManaged);
  for (const char* devices : {"sim:2", "cpu"}) {
    rt_test::scoped_env env{{"GPU_AUTOPAR_DEVICES", devices}};
    saxpy(y, x);
  }
  for (float v : y)
    ASSERT_EQ(v, 7.0f);
}

} // namespace
