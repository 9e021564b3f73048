// A device for testing the header templates on their own: separate memory
// (fresh allocations are filled with a poison pattern), copies in and out,
// and accounting so a test can see that every allocation was freed.
#pragma once

#include <gpu_autopar/loop_body.h>

#include <cstdlib>
#include <cstring>
#include <functional>
#include <set>

class fake_device final : public gpu_autopar::device_context {
public:
  gpu_autopar::device_kind kind() const override { return gpu_autopar::device_kind::sim; }
  int id() const override { return 7; }
  void* stream() const override { return nullptr; }
  void* allocate(std::size_t bytes) override {
    if (fail_allocations)
      throw gpu_autopar::device_out_of_memory("fake device: out of memory");
    void* p = std::malloc(bytes);
    std::memset(p, 0xA5, bytes);
    live.insert(p);
    ++allocations;
    return p;
  }
  void deallocate(void* p) noexcept override {
    live.erase(p);
    std::free(p);
  }
  void copy_to_device(void* dst, const void* src, std::size_t bytes) override {
    bytes_in += bytes;
    std::memcpy(dst, src, bytes);
    if (after_copy_in)
      after_copy_in(); // e.g. another device copying its results back meanwhile
  }
  void copy_to_host(void* dst, const void* src, std::size_t bytes) override {
    if (++copies_out == fail_copy_out)
      throw gpu_autopar::device_error("fake device: copy to host failed");
    bytes_out += bytes;
    std::memcpy(dst, src, bytes);
  }
  void synchronize() override {}

  std::set<void*> live;
  std::size_t allocations = 0, bytes_in = 0, bytes_out = 0;
  bool fail_allocations = false;
  std::size_t copies_out = 0, fail_copy_out = 0; // the fail_copy_out-th copy to the host throws (0: none)
  std::function<void()> after_copy_in;
};
