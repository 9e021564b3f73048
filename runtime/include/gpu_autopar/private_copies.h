// firstprivate(v) and lastprivate(v) as generated code spells them
// (docs/generated-code.md).
//
// firstprivate needs no runtime state: each iteration's body starts with
//   auto &gpu_autopar_first_v = v; decltype(v) v(gpu_autopar_first_v);
// (arrays: `decltype(v) v; ::gpu_autopar::copy_value(v, gpu_autopar_first_v);`).
//
// lastprivate rides on the reductions: `::gpu_autopar::last_private(v)` joins
// the loop's reductions(...), so every chunk gets a last_slot<T> partial (on a
// GPU, every thread), and the body gets it as a parameter. The body declares
// its private `v`, then `auto gpu_autopar_keep_v = keep_last(slot, i, v);`
// whose destructor — at the end of the iteration, `continue` included — copies
// `v` into the slot if `i` is the loop's sequentially last iteration. Exactly
// one iteration does, so exactly one chunk's partial carries a value, and it is
// written back to the user's variable once that chunk has succeeded (a chunk
// that failed on a device and ran again elsewhere writes only once). A loop
// without iterations leaves the variable as it was.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <gpu_autopar/hd.h>

namespace gpu_autopar {

// `to = from`, element by element for (nested) built-in arrays.
template <class T>
GPU_AUTOPAR_HD void copy_value(T& to, const T& from) {
  to = from;
}
template <class T, std::size_t N>
GPU_AUTOPAR_HD void copy_value(T (&to)[N], const T (&from)[N]) {
  for (std::size_t k = 0; k < N; ++k)
    copy_value(to[k], from[k]);
}

namespace detail {
// The same on the host only, for a value that device code may not copy (a
// lastprivate std::string): nvcc rejects an instance of the __host__
// __device__ copy_value for such a type.
template <class T>
void copy_value_on_host(T& to, const T& from) {
  to = from;
}
template <class T, std::size_t N>
void copy_value_on_host(T (&to)[N], const T (&from)[N]) {
  for (std::size_t k = 0; k < N; ++k)
    copy_value_on_host(to[k], from[k]);
}
} // namespace detail

// One chunk's (one GPU thread's) view of a lastprivate variable: the last
// iteration's induction value, as an unsigned 64-bit pattern, and the value
// that iteration left, once it has run.
template <class T>
struct last_slot {
  std::uint64_t last;
  bool set;
  T value;
};

// Folding two slots keeps the one that holds the last iteration's value.
template <class T>
struct last_traits {
  GPU_AUTOPAR_HD static last_slot<T> combine(const last_slot<T>& a, const last_slot<T>& b) { return b.set ? b : a; }
};

// One lastprivate variable of the loop (an element of reductions(...)).
template <class T>
struct last_private_ref {
  using value_type = last_slot<T>;
  using traits = last_traits<T>;
  T* var;
  std::uint64_t last = 0;

  value_type identity() const {
    value_type s{last, false, {}};
    return s;
  }
  template <class I>
  void set_last(I value) {
    last = static_cast<std::uint64_t>(value);
  }
  void store(const value_type& s) const {
    if (s.set)
      detail::copy_value_on_host(*var, s.value);
  }
};

template <class T>
last_private_ref<T> last_private(T& var) {
  return last_private_ref<T>{&var};
}

// Lives for one iteration; its destructor runs after the body's last statement
// or its `return` (what `continue` became).
template <class T, class I>
class last_keeper {
public:
  GPU_AUTOPAR_HD last_keeper(last_slot<T>& slot, I i, const T& v)
      : slot_(slot), v_(v), is_last_(static_cast<std::uint64_t>(i) == slot.last) {}
  last_keeper(const last_keeper&) = delete;
  last_keeper& operator=(const last_keeper&) = delete;
  // Device code copies only what it can (a trivially copyable value); a
  // std::string lastprivate lives in a host- or task-mode loop, whose body
  // runs on the host only, and nvcc must not compile its copy for the device.
  GPU_AUTOPAR_HD ~last_keeper() {
    if (is_last_) {
#if defined(__CUDA_ARCH__)
      if constexpr (std::is_trivially_copyable<T>::value)
        copy_value(slot_.value, v_);
#else
      detail::copy_value_on_host(slot_.value, v_);
#endif
      slot_.set = true;
    }
  }

private:
  last_slot<T>& slot_;
  const T& v_;
  bool is_last_;
};

template <class T, class I>
GPU_AUTOPAR_HD last_keeper<T, I> keep_last(last_slot<T>& slot, I i, const T& v) {
  return last_keeper<T, I>(slot, i, v);
}

} // namespace gpu_autopar
