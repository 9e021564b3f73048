#include "gpu_autopar/gpu_autopar.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace gpu_autopar {
namespace detail {

namespace {
// Below this many iterations a loop runs on the calling thread: waking the
// workers costs about a microsecond, more than a handful of iterations take.
constexpr std::uint64_t kSerialBelow = 2;
// Pieces per thread: enough to even out uneven iterations, few enough that
// handing them out stays cheap.
constexpr std::uint64_t kPiecesPerThread = 8;
} // namespace

static bool log_info() {
  const char* v = std::getenv("GPU_AUTOPAR_LOG");
  return v && (std::strcmp(v, "info") == 0 || std::strcmp(v, "debug") == 0);
}

void run_host_loop(const loop_site& site, std::uint64_t count, range_fn chunk) {
  if (count < kSerialBelow || host_pool::inside_loop()) {
    chunk(0, count);
    return;
  }
  host_pool& pool = host_pool::global();
  if (log_info())
    std::fprintf(stderr, "gpu-autopar: %s:%u: %llu iterations on cpu (%u threads)\n", site.file, site.line,
                 static_cast<unsigned long long>(count), pool.size());
  std::uint64_t pieces = std::uint64_t(pool.size()) * kPiecesPerThread;
  std::uint64_t grain = (count + pieces - 1) / pieces;
  pool.run(count, grain, chunk);
}

} // namespace detail
} // namespace gpu_autopar
