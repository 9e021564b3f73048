// The iterations of a canonical loop as a value: first value, step and trip count.
//
// A rewritten loop `for (T i = lb; i OP ub; i += step)` becomes
// `iterations<T>(lb, OP, ub, step)`. The runtime only ever deals with iteration
// *indices* k in [0, count); `at(k)` maps an index back to the induction value.
// Trip counts are computed in the unsigned type of T's width so that 64-bit
// ranges (including the full range of unsigned 64-bit types) never overflow.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>

#include <gpu_autopar/hd.h>

namespace gpu_autopar {

// The comparison of the loop condition, written as the induction variable
// on the left: `i < ub` is `less`, `ub > i` is normalised by the tool to `less`.
enum class compare { less, less_equal, greater, greater_equal, not_equal };

inline constexpr compare less = compare::less;
inline constexpr compare less_equal = compare::less_equal;
inline constexpr compare greater = compare::greater;
inline constexpr compare greater_equal = compare::greater_equal;
inline constexpr compare not_equal = compare::not_equal;

namespace detail {
// Why a loop's bounds make no loop (iterations<T>::problem()).
enum class space_problem : unsigned char {
  none,
  zero_step,
  less_counting_down,
  less_equal_counting_down,
  greater_counting_up,
  greater_equal_counting_up,
  not_equal_inexact,
};
} // namespace detail

template <class T>
class iterations {
  static_assert(std::is_integral<T>::value, "the induction variable must be an integer");
  using U = typename std::make_unsigned<T>::type;

public:
  // `step` is the signed increment per iteration: `++i` is 1, `i -= 2` is -2.
  // An invalid space (zero step, a step away from the bound) has no
  // iterations and keeps its problem, which the loop's call throws with the
  // loop's site (loop_problem.h).
  iterations(T first, compare cmp, T bound, long long step) : first_(first), step_(step) {
    if (step == 0)
      problem_ = detail::space_problem::zero_step;
    else
      count_ = trip_count(first, cmp, bound, step);
  }

  GPU_AUTOPAR_HD std::uint64_t count() const { return count_; }
  GPU_AUTOPAR_HD T first() const { return first_; }
  GPU_AUTOPAR_HD long long step() const { return step_; }

  // The induction value of iteration index k (0 <= k < count()). Computed
  // modulo 2^bits in the unsigned type, which is exact for every k in range.
  // In T's own width (at least unsigned int's): a GPU thread of a loop over
  // an int multiplies in 32 bits, not 64.
  GPU_AUTOPAR_HD T at(std::uint64_t k) const {
    using W = typename std::conditional<(sizeof(U) < sizeof(unsigned)), unsigned, U>::type;
    return static_cast<T>(static_cast<U>(W(first_) + W(W(k) * W(static_cast<std::uint64_t>(step_)))));
  }

  // Why the bounds make no loop; empty when they are valid.
  std::string problem() const {
    switch (problem_) {
    case detail::space_problem::none: return {};
    case detail::space_problem::zero_step: return "loop step is zero";
    case detail::space_problem::less_counting_down: return "'<' loop with a negative step never ends";
    case detail::space_problem::less_equal_counting_down: return "'<=' loop with a negative step never ends";
    case detail::space_problem::greater_counting_up: return "'>' loop with a positive step never ends";
    case detail::space_problem::greater_equal_counting_up: return "'>=' loop with a positive step never ends";
    case detail::space_problem::not_equal_inexact:
      return "'!=' loop whose step " + std::to_string(step_) + " does not reach the bound exactly " +
             "(it would run forever)";
    }
    return {};
  }

private:
  std::uint64_t refuse(detail::space_problem why) {
    problem_ = why;
    return 0;
  }
  std::uint64_t trip_count(T first, compare cmp, T bound, long long step) {
    const bool up = step > 0;
    const std::uint64_t mag =
        up ? static_cast<std::uint64_t>(step) : std::uint64_t(0) - static_cast<std::uint64_t>(step);
    // Distance from first to the bound in the direction of travel, as unsigned.
    auto distance = [](T from, T to) {
      return static_cast<std::uint64_t>(static_cast<U>(static_cast<U>(to) - static_cast<U>(from)));
    };
    switch (cmp) {
    case compare::less:
      if (!up) return refuse(detail::space_problem::less_counting_down);
      return first < bound ? (distance(first, bound) - 1) / mag + 1 : 0;
    case compare::less_equal:
      if (!up) return refuse(detail::space_problem::less_equal_counting_down);
      return first <= bound ? distance(first, bound) / mag + 1 : 0;
    case compare::greater:
      if (up) return refuse(detail::space_problem::greater_counting_up);
      return first > bound ? (distance(bound, first) - 1) / mag + 1 : 0;
    case compare::greater_equal:
      if (up) return refuse(detail::space_problem::greater_equal_counting_up);
      return first >= bound ? distance(bound, first) / mag + 1 : 0;
    case compare::not_equal: {
      // As in OpenMP: the bound must be reached exactly.
      std::uint64_t d = up ? distance(first, bound) : distance(bound, first);
      if (d % mag != 0)
        return refuse(detail::space_problem::not_equal_inexact);
      return d / mag;
    }
    }
    return 0;
  }

  T first_;
  detail::space_problem problem_ = detail::space_problem::none;
  long long step_;
  std::uint64_t count_ = 0;
};

} // namespace gpu_autopar
