// reduction(op: var, ...) as generated code spells it:
//   ::gpu_autopar::reductions(::gpu_autopar::reduce<::gpu_autopar::op::plus>(sum), ...)
//
// Every chunk of a loop starts each reduction from the operator's identity and
// hands the body a private partial; once the chunk has succeeded (a chunk
// that fails on a device may run again elsewhere) its partial is combined into
// the user's variable under a lock. The final value is therefore
// `original op partial_1 op ... op partial_n`: exact for integers, equal up to
// rounding (reassociation) for floating point.
#pragma once

#include <limits>
#include <mutex>
#include <tuple>
#include <type_traits>
#include <utility>

#include <gpu_autopar/hd.h>
#include <gpu_autopar/private_copies.h>

namespace gpu_autopar {
namespace op {
struct plus {};
struct times {};
struct min {};
struct max {};
struct bit_and {};
struct bit_or {};
struct bit_xor {};
struct logical_and {};
struct logical_or {};
} // namespace op

// identity<Op, T>() and combine<Op>(a, b) for each reduction operator (docs/generated-code.md).
template <class Op, class T>
struct reduction_traits;

template <class T>
struct reduction_traits<op::plus, T> {
  static T identity() { return T(0); }
  GPU_AUTOPAR_HD static T combine(T a, T b) { return a + b; }
};
template <class T>
struct reduction_traits<op::times, T> {
  static T identity() { return T(1); }
  GPU_AUTOPAR_HD static T combine(T a, T b) { return a * b; }
};
template <class T>
struct reduction_traits<op::min, T> {
  static T identity() {
    return std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity() : std::numeric_limits<T>::max();
  }
  GPU_AUTOPAR_HD static T combine(T a, T b) { return b < a ? b : a; }
};
template <class T>
struct reduction_traits<op::max, T> {
  static T identity() {
    return std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity()
                                                : std::numeric_limits<T>::lowest();
  }
  GPU_AUTOPAR_HD static T combine(T a, T b) { return a < b ? b : a; }
};
template <class T>
struct reduction_traits<op::bit_and, T> {
  static_assert(std::is_integral<T>::value, "reduction(&: ...) needs an integer variable");
  static T identity() { return static_cast<T>(~T(0)); }
  GPU_AUTOPAR_HD static T combine(T a, T b) { return static_cast<T>(a & b); }
};
template <class T>
struct reduction_traits<op::bit_or, T> {
  static_assert(std::is_integral<T>::value, "reduction(|: ...) needs an integer variable");
  static T identity() { return T(0); }
  GPU_AUTOPAR_HD static T combine(T a, T b) { return static_cast<T>(a | b); }
};
template <class T>
struct reduction_traits<op::bit_xor, T> {
  static_assert(std::is_integral<T>::value, "reduction(^: ...) needs an integer variable");
  static T identity() { return T(0); }
  GPU_AUTOPAR_HD static T combine(T a, T b) { return static_cast<T>(a ^ b); }
};
template <class T>
struct reduction_traits<op::logical_and, T> {
  static T identity() { return T(1); }
  GPU_AUTOPAR_HD static T combine(T a, T b) { return static_cast<T>(a && b); }
};
template <class T>
struct reduction_traits<op::logical_or, T> {
  static T identity() { return T(0); }
  GPU_AUTOPAR_HD static T combine(T a, T b) { return static_cast<T>(a || b); }
};

// One reduction variable of the loop. reduction_set talks to its members
// through identity(), set_last() and store(), as to last_private_ref's
// (private_copies.h): lastprivate variables travel with the reductions.
template <class Op, class T>
struct reduction_ref {
  using value_type = T;
  using traits = reduction_traits<Op, T>;
  T* var;

  T identity() const { return traits::identity(); }
  template <class I>
  void set_last(I) {}
  void store(const T& partial) const { *var = traits::combine(*var, partial); }
};

template <class Op, class T>
reduction_ref<Op, T> reduce(T& var) {
  static_assert(!std::is_const<T>::value, "a reduction variable must not be const");
  return reduction_ref<Op, T>{&var};
}

// All reduction variables of one loop.
template <class... Refs>
class reduction_set {
public:
  using partials = std::tuple<typename Refs::value_type...>;

  explicit reduction_set(Refs... refs) : refs_(refs...) {}

  // A fresh set of partials, each at its operator's identity.
  partials identities() const {
    return std::apply([](const Refs&... r) { return partials(r.identity()...); }, refs_);
  }

  // The induction value of the loop's sequentially last iteration, for its
  // lastprivate variables; called once, before the loop runs, if it has any.
  template <class I>
  void set_last(I value) {
    std::apply([&](Refs&... r) { (r.set_last(value), ...); }, refs_);
  }

  // The variables (for a runtime that combines the reductions of several processes).
  const std::tuple<Refs...>& refs() const { return refs_; }

  // Folds a successful chunk's partials into the user's variables.
  void combine(const partials& p) {
    if constexpr (sizeof...(Refs) > 0) { // no lock for a loop without reductions
      std::lock_guard<std::mutex> lock(mutex_);
      combine_each(p, std::index_sequence_for<Refs...>{});
    }
  }

  // Reduction I's operator, on host and device (a block of GPU threads
  // combines its partials with it).
  template <std::size_t I, class T>
  GPU_AUTOPAR_HD static T combine_one(T a, T b) {
    return std::tuple_element<I, std::tuple<Refs...>>::type::traits::combine(a, b);
  }

  // Folds one more partial of reduction I (used to fold per-block partials
  // before the chunk's result is combined).
  template <std::size_t I>
  static void fold(partials& into, const typename std::tuple_element<I, partials>::type& v) {
    std::get<I>(into) = combine_one<I>(std::get<I>(into), v);
  }

private:
  template <std::size_t... I>
  void combine_each(const partials& p, std::index_sequence<I...>) {
    (std::get<I>(refs_).store(std::get<I>(p)), ...);
  }

  std::tuple<Refs...> refs_;
  std::mutex mutex_;
};

template <class... Refs>
reduction_set<Refs...> reductions(Refs... refs) {
  return reduction_set<Refs...>(refs...);
}

} // namespace gpu_autopar
