#include "landing_marks.h"

namespace gpu_autopar {
namespace detail {

landing_marks::~landing_marks() {
  if (host_)
    api_.free_host(host_);
}

int landing_marks::prepare(void* word) {
  if (!host_) {
    void* p = nullptr;
    if (int e = api_.malloc_host(&p, 2 * sizeof(int)))
      return e;
    host_ = static_cast<int*>(p);
    host_[0] = host_[1] = 0;
  }
  word_ = word;
  return 0;
}

int landing_marks::mark_before(void* stream) {
  host_[0] = host_[1] = 0;
  return api_.memcpy_to_host_async(&host_[0], word_, kMarkBytes, stream);
}

int landing_marks::mark_after(void* stream) { return api_.memcpy_to_host_async(&host_[1], word_, kMarkBytes, stream); }

} // namespace detail
} // namespace gpu_autopar
