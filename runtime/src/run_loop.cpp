// run_loop: where a loop's chunks go. For now only the CPU path: the loop's
// indices are handed out over the process-wide host pool.
#include "gpu_autopar/host_pool.h"
#include "gpu_autopar/loop_body.h"

namespace gpu_autopar {

void run_loop(const loop_site&, std::uint64_t count, const loop_options& options, loop_body& body) {
  const std::uint64_t serial_below = options.min_iterations >= 0 ? std::uint64_t(options.min_iterations) : 2;
  if (count < serial_below || host_pool::inside_loop()) {
    body.run_host(0, count);
    return;
  }
  host_pool& pool = host_pool::global();
  const std::uint64_t pieces = std::uint64_t(pool.size()) * 8;
  auto chunk = [&body](std::uint64_t b, std::uint64_t e) { body.run_host(b, e); };
  pool.run(count, (count + pieces - 1) / pieces, make_range_fn(chunk));
}

device_context* current_device() { return nullptr; }
void* current_stream() { return nullptr; }

} // namespace gpu_autopar
