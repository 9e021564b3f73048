#include "timeline_handoff.h"

#include <dlfcn.h>

namespace gpu_autopar {
namespace detail {
namespace {

using handoff_fn = void (*)(std::uint64_t key, int adopt);

handoff_fn hook() {
  static const handoff_fn f = reinterpret_cast<handoff_fn>(dlsym(RTLD_DEFAULT, "gpu_autopar_standin_handoff"));
  return f;
}

// A job's start and its end are two hand-offs of one object.
std::uint64_t key_of(const void* key, int direction) {
  return (std::uint64_t(reinterpret_cast<std::uintptr_t>(key)) << 1) | std::uint64_t(direction & 1);
}

} // namespace

void handoff_publish(const void* key, int direction) noexcept {
  if (handoff_fn f = hook())
    f(key_of(key, direction), 0);
}

void handoff_adopt(const void* key, int direction) noexcept {
  if (handoff_fn f = hook())
    f(key_of(key, direction), 1);
}

} // namespace detail
} // namespace gpu_autopar
