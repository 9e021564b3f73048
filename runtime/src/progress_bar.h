// The progress bar of GPU_AUTOPAR_PROGRESS, drawn on stderr by the calling
// thread while it waits for a device loop: `auto` draws on a terminal once the
// loop has run for 2 s, `on` always (from the first update), `off` never.
#pragma once

#include <chrono>
#include <cstdint>

#include "gpu_autopar/loop_body.h"
#include "runtime_config.h"

namespace gpu_autopar {
namespace detail {

class progress_bar {
public:
  progress_bar(progress_mode mode, const loop_site& site);
  bool wanted() const { return wanted_; }
  void update(std::uint64_t done, std::uint64_t total);
  // Ends the line if anything was drawn.
  void finish();

  // The text of one frame (without the leading '\r'), for tests.
  static void render(char* out, std::size_t size, const loop_site& site, std::uint64_t done, std::uint64_t total,
                     double seconds);

private:
  bool wanted_;
  bool drawn_ = false;
  double delay_;
  loop_site site_;
  std::chrono::steady_clock::time_point start_;
};

} // namespace detail
} // namespace gpu_autopar
