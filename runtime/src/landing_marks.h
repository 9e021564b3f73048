// Two page-locked words a GPU slot's stream sets, before and after a chunk's
// last copy to the host (device_context::copy_to_host_last: a section the
// chunk reads and writes, landing straight in the program's memory). When
// the chunk's wait fails, CUDA's error alone cannot say whether that copy
// ran: a kernel of the chunk that faulted stops the copies queued behind it,
// but another stream's fault on the same GPU may lose the context after the
// chunk's copies all landed, and its wait then fails all the same. Copies on
// one stream run in order, so the marks tell:
//   neither set      the copy never started: the chunk may run again;
//   both set         it ran, and everything queued before it: the chunk is done;
//   only the first   it may have run in part.
// Each mark is a 4-byte copy from a word of the GPU's memory that holds
// kMark (cuda_memory_pool::landing_word).
#pragma once

#include <cstddef>

#include "gpu_autopar/cuda_api.h"

namespace gpu_autopar {
namespace detail {

class landing_marks {
public:
  static constexpr int kMark = 0x01010101; // each byte of the GPU's landing word (cuda_memory_pool)
  static constexpr std::size_t kMarkBytes = sizeof(int);

  explicit landing_marks(const cuda_api& api) : api_(api) {}
  ~landing_marks();
  landing_marks(const landing_marks&) = delete;
  landing_marks& operator=(const landing_marks&) = delete;

  // Whether the table can make them (cudaMallocHost, cudaFreeHost, cudaMemsetAsync).
  bool possible() const { return api_.malloc_host && api_.free_host && api_.memset_async; }
  // The first time: the page-locked words, and `word` (the GPU's landing
  // word) to copy from. Returns a CUDA error (0: ready).
  int prepare(void* word);
  // Clears both marks and queues the copy that sets the first.
  int mark_before(void* stream);
  int mark_after(void* stream);
  // Once the stream's work ran or was stopped.
  bool before() const { return static_cast<volatile int*>(host_)[0] == kMark; }
  bool after() const { return static_cast<volatile int*>(host_)[1] == kMark; }

private:
  const cuda_api& api_;
  int* host_ = nullptr; // [0] before, [1] after
  void* word_ = nullptr;
};

} // namespace detail
} // namespace gpu_autopar
