// Sections a loop only reads and every chunk needs whole (a lookup table, the
// B of a collapsed matmul: `to` maps whose section is the same for every
// iteration), copied to each device once per loop instead of once per chunk.
// The first chunk on a device allocates the copy (device memory that
// outlives its lease, shared by the device's slots), copies the section in
// and waits for it; the device's other chunks use it as it is. The copies
// are freed when the loop is done (every lease back). A device that cannot
// hold the copy lets its chunks copy their own, as before.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <utility>

#include <gpu_autopar/loop_body.h>

namespace gpu_autopar {
namespace detail {

class device;
struct erased_map;

// Whether a map's section is one read_once_sections copies once per device:
// the loop only reads it (`to`) and every iteration's section is the same.
bool read_once(const erased_map& m);

class read_once_sections {
public:
  read_once_sections() = default;
  read_once_sections(const read_once_sections&) = delete;
  read_once_sections& operator=(const read_once_sections&) = delete;
  ~read_once_sections(); // frees the devices' copies

  // Map `k`'s section [host, host + bytes) on the device of `dev`, copied in
  // once and landed; nullptr when the device cannot hold it.
  void* get(device_context& dev, std::size_t k, const unsigned char* host, std::size_t bytes);

private:
  struct copy {
    std::mutex m; // held by the chunk that copies it in, until it has landed
    void* mem = nullptr;
    device* owner = nullptr;
    bool unusable = false; // out of memory: chunks copy their own
  };
  std::mutex m_;
  std::map<std::pair<int, std::size_t>, std::unique_ptr<copy>> copies_; // (device id, map)
};

} // namespace detail
} // namespace gpu_autopar
