// Splits the iteration indices [0, count) into `parts` contiguous pieces whose
// sizes differ by at most one (the remainder goes to the first pieces). The
// loop's own start, step and sign live in iterations<T>; the runtime only ever
// splits the index range, so any step and 64-bit trip counts come for free.
#pragma once

#include <cstdint>

namespace gpu_autopar {
namespace detail {

struct index_range {
  std::uint64_t begin = 0, end = 0;
  std::uint64_t size() const { return end - begin; }
  bool empty() const { return begin >= end; }
};

class range_split {
public:
  range_split(std::uint64_t count, std::uint64_t parts)
      : count_(count), parts_(parts == 0 ? 1 : parts), base_(count_ / parts_), extra_(count_ % parts_) {}

  std::uint64_t parts() const { return parts_; }
  // The i-th piece (i < parts()); empty when there are more parts than indices.
  index_range part(std::uint64_t i) const {
    return {start(i), start(i + 1)};
  }

private:
  // Pieces before `extra_` are one longer; written so nothing overflows.
  std::uint64_t start(std::uint64_t i) const {
    return i <= extra_ ? i * (base_ + 1) : extra_ * (base_ + 1) + (i - extra_) * base_;
  }

  std::uint64_t count_, parts_, base_, extra_;
};

} // namespace detail
} // namespace gpu_autopar
