#include "progress_bar.h"

#include <cstdio>

#include <unistd.h>

namespace gpu_autopar {
namespace detail {

// `auto` waits this long before drawing: short loops never flicker a bar.
constexpr double kAutoDelaySeconds = 2.0;
constexpr int kBarWidth = 30;

progress_bar::progress_bar(progress_mode mode, const loop_site& site)
    : wanted_(mode == progress_mode::on || (mode == progress_mode::auto_ && isatty(2))),
      delay_(mode == progress_mode::on ? 0.0 : kAutoDelaySeconds), site_(site),
      start_(std::chrono::steady_clock::now()) {}

void progress_bar::render(char* out, std::size_t size, const loop_site& site, std::uint64_t done,
                          std::uint64_t total, double seconds) {
  const double f = total ? double(done) / double(total) : 1.0;
  char bar[kBarWidth + 1];
  const int filled = int(f * kBarWidth);
  for (int i = 0; i < kBarWidth; ++i)
    bar[i] = i < filled ? '#' : '.';
  bar[kBarWidth] = '\0';
  std::snprintf(out, size, "gpu-autopar: %s:%u [%s] %3d%% %.1fs", site.file, site.line, bar, int(f * 100.0),
                seconds);
}

void progress_bar::update(std::uint64_t done, std::uint64_t total) {
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  if (!wanted_ || seconds < delay_)
    return;
  char line[256];
  render(line, sizeof line, site_, done, total, seconds);
  std::fprintf(stderr, "\r%s", line);
  drawn_ = true;
}

void progress_bar::finish() {
  if (drawn_)
    std::fputc('\n', stderr);
  drawn_ = false;
}

} // namespace detail
} // namespace gpu_autopar
