#include "cuda_backend.h"

#include <atomic>
#include <mutex>
#include <unordered_map>

#include "gpu_autopar/cuda_api.h"

namespace gpu_autopar {

namespace detail {
namespace {

std::mutex g_api_mutex;
bool g_api_registered = false;
cuda_api g_api;

std::string error_text(const cuda_api& api, int e) {
  const char* s = api.error_string ? api.error_string(e) : nullptr;
  return "CUDA error " + std::to_string(e) + (s ? std::string(": ") + s : std::string());
}

class cuda_device;

// One lease on a GPU: its own stream, created on the slot's worker thread
// with the device current. Copies are made synchronous on that stream: the
// host side may free or reuse its buffer right after the call.
class cuda_slot final : public slot_context {
public:
  cuda_slot(const cuda_api& api, int id, int ordinal) : api_(api), id_(id), ordinal_(ordinal) {
    if (api_.set_device(ordinal_) == 0)
      opened_ = api_.stream_create(&stream_) == 0;
  }
  ~cuda_slot() override {
    end_lease();
    if (stream_)
      api_.stream_destroy(stream_);
  }

  device_kind kind() const override { return device_kind::cuda; }
  int id() const override { return id_; }
  void* stream() const override { return stream_; }

  void* allocate(std::size_t bytes) override {
    void* p = nullptr;
    int e = api_.malloc(&p, bytes);
    if (e == kCudaErrorMemoryAllocation)
      throw device_out_of_memory(name() + ": out of memory allocating " + std::to_string(bytes) + " bytes");
    check(e, "cudaMalloc");
    live_.emplace(p, bytes);
    return p;
  }
  void deallocate(void* p) noexcept override {
    if (live_.erase(p))
      api_.free(p);
  }
  void copy_to_device(void* dst, const void* src, std::size_t bytes) override {
    check(api_.memcpy_to_device_async(dst, src, bytes, stream_), "copy to device");
    synchronize();
  }
  void copy_to_host(void* dst, const void* src, std::size_t bytes) override {
    check(api_.memcpy_to_host_async(dst, src, bytes, stream_), "copy to host");
    synchronize();
  }
  void synchronize() override { check(api_.stream_synchronize(stream_), "stream synchronize"); }

  void begin_chunk() override {
    if (!opened_)
      throw device_error(name() + ": could not make the device current or create its stream");
    // The body may have switched devices in an earlier chunk (task mode).
    check(api_.set_device(ordinal_), "cudaSetDevice");
  }

  void end_lease() noexcept override {
    if (stream_)
      api_.stream_synchronize(stream_);
    while (!live_.empty()) {
      api_.free(live_.begin()->first);
      live_.erase(live_.begin());
    }
  }

private:
  std::string name() const { return "cuda" + std::to_string(id_); }
  void check(int e, const char* what) const {
    if (e != 0)
      throw device_error(name() + ": " + what + " failed: " + error_text(api_, e));
  }

  const cuda_api& api_;
  int id_, ordinal_;
  void* stream_ = nullptr;
  bool opened_ = false;
  std::unordered_map<void*, std::size_t> live_;
};

class cuda_device final : public device {
public:
  cuda_device(const cuda_api& api, int id, int ordinal, std::string model, std::size_t memory, int major, int minor)
      : api_(api), id_(id), ordinal_(ordinal), model_(std::move(model)), memory_(memory), major_(major),
        minor_(minor) {}
  device_kind kind() const override { return device_kind::cuda; }
  int id() const override { return id_; }
  std::string name() const override { return "cuda" + std::to_string(id_); }
  std::string describe() const override {
    return name() + " (CUDA device " + std::to_string(ordinal_) + ": " + model_ + ", " +
           std::to_string(memory_ >> 20) + " MiB, compute capability " + std::to_string(major_) + "." +
           std::to_string(minor_) + ")";
  }
  std::unique_ptr<slot_context> open_slot(int) override { return std::make_unique<cuda_slot>(api_, id_, ordinal_); }

private:
  const cuda_api& api_; // the registered table, kept for the process
  int id_, ordinal_;
  std::string model_;
  std::size_t memory_;
  int major_, minor_;
};

} // namespace

std::string discover_cuda_devices(const devices_config& config, int first_id,
                                  std::vector<std::unique_ptr<device>>& out) {
  const cuda_api* api = nullptr;
  {
    std::lock_guard<std::mutex> lock(g_api_mutex);
    if (g_api_registered)
      api = &g_api;
  }
  if (!api)
    return "no CUDA runtime linked (no file was compiled as CUDA)";
  int count = 0;
  int e = api->get_device_count(&count);
  if (e == kCudaErrorInsufficientDriver || e == kCudaErrorNoDevice)
    return "no CUDA GPU (" + error_text(*api, e) + ")";
  if (e != 0)
    return "CUDA device query failed (" + error_text(*api, e) + ")";
  if (count <= 0)
    return "no CUDA GPU visible";
  std::vector<int> ordinals = config.cuda_ids;
  std::string skipped;
  if (ordinals.empty())
    for (int d = 0; d < count; ++d)
      ordinals.push_back(d);
  for (int ordinal : ordinals) {
    if (ordinal >= count) {
      skipped += " cuda:" + std::to_string(ordinal) + " does not exist (" + std::to_string(count) + " visible);";
      continue;
    }
    char name[256] = {0};
    std::size_t memory = 0;
    int major = 0, minor = 0;
    if (int pe = api->get_device_properties(ordinal, name, &memory, &major, &minor)) {
      skipped += " cuda:" + std::to_string(ordinal) + ": " + error_text(*api, pe) + ";";
      continue;
    }
    out.push_back(std::make_unique<cuda_device>(*api, first_id + int(out.size()), ordinal, name, memory, major, minor));
  }
  return out.empty() ? "no usable CUDA GPU:" + skipped : "";
}

void unregister_cuda_api_for_testing() {
  std::lock_guard<std::mutex> lock(g_api_mutex);
  g_api_registered = false;
}

} // namespace detail

void register_cuda_api(const cuda_api& api) {
  std::lock_guard<std::mutex> lock(detail::g_api_mutex);
  detail::g_api = api;
  detail::g_api_registered = true;
}

} // namespace gpu_autopar
