// The iterations of a perfectly nested loop with `collapse(n)` (docs/generated-code.md):
//
//   #pragma gpu_autopar for collapse(2)
//   for (int i = 0; i < n; ++i)
//     for (int j = 0; j < m; ++j) ...
//
// becomes `collapse(iterations<int>(0, less, n, 1), iterations<int>(0, less, m, 1))`.
// The runtime sees one index space of n*m indices, k = i_index*m + j_index
// (the innermost loop's index varies fastest), which it splits across devices
// and CPU threads like any loop's; on a GPU each thread takes one k, so
// neighbouring threads get neighbouring j and their accesses to x[i][j]
// coalesce. Data maps stay per outermost value: a chunk maps the rows of the
// i values it touches, and a chunk that starts or ends inside a row shares
// that row with its neighbour (the copy-back then takes only the elements
// it changed).
#pragma once

#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include <gpu_autopar/hd.h>
#include <gpu_autopar/hd_tuple.h>
#include <gpu_autopar/iteration_space.h>

namespace gpu_autopar {

namespace detail {
// The level indices of one index of an N-deep nest, in K (collapsed::cursor).
template <class K, std::size_t N>
struct nest_cursor {
  K ks[N];
};
} // namespace detail

template <class... T>
class collapsed {
  static_assert(sizeof...(T) >= 2, "collapse needs two or more loops");
  using levels_type = detail::hd_tuple<iterations<T>...>;
  using index = std::index_sequence_for<T...>;

public:
  using outer_type = typename std::tuple_element<0, std::tuple<T...>>::type;

  explicit collapsed(const iterations<T>&... levels) : levels_(make_levels(index{}, levels...)) {
    count_ = 1;
    inner_ = 1;
    bool first = true;
    for (std::uint64_t n : {levels.count()...}) {
      if (n != 0 && count_ > UINT64_MAX / n) {
        too_many_ = true;
        count_ = 0;
        return;
      }
      count_ *= n;
      if (!first)
        inner_ *= n;
      first = false;
    }
  }

  GPU_AUTOPAR_HD std::uint64_t count() const { return count_; }
  // Iterations of the loops inside the outermost per outermost value.
  GPU_AUTOPAR_HD std::uint64_t inner_count() const { return inner_; }
  const iterations<outer_type>& outer() const { return detail::hd_get<0>(levels_); }
  // The outermost loop's value at index k (what data maps are sections of).
  GPU_AUTOPAR_HD outer_type outer_at(std::uint64_t k) const { return detail::hd_get<0>(levels_).at(k / inner_); }
  // Whether a chunk [begin, end) starts or ends inside one outermost value.
  bool splits_outer(std::uint64_t begin, std::uint64_t end) const {
    return begin % inner_ != 0 || end % inner_ != 0;
  }

  // Why the nest makes no loop (a level's problem, or too many iterations);
  // empty when it is valid. The loop's call throws it (loop_problem.h).
  std::string problem() const {
    std::string why;
    first_problem(why, index{});
    if (why.empty() && too_many_)
      why = "collapse: the nest has more than 2^64 iterations";
    return why;
  }

  // Calls f(i, j, ...) with the induction values of index k.
  template <class F>
  GPU_AUTOPAR_HD void call(std::uint64_t k, F&& f) const {
    call(k, f, index{});
  }

  // The level indices of one index of the nest, in K (32 bits where the
  // nest's count fits): a GPU thread's grid-stride loop walks the nest by
  // adding its stride's level indices with carries, so it divides only to
  // find where it starts, not per iteration.
  template <class K>
  using cursor = detail::nest_cursor<K, sizeof...(T)>;
  template <class K>
  GPU_AUTOPAR_HD cursor<K> position(K k) const {
    cursor<K> c{};
    for (std::size_t l = sizeof...(T); l-- > 1;) {
      const K n = K(level_count(l, index{}));
      c.ks[l] = k % n;
      k /= n;
    }
    c.ks[0] = k;
    return c;
  }
  // c += by, level by level (each inner index stays below its loop's count;
  // the outermost grows past the end, where the walk stops).
  template <class K>
  GPU_AUTOPAR_HD void advance(cursor<K>& c, const cursor<K>& by) const {
    K carry = 0;
    for (std::size_t l = sizeof...(T); l-- > 1;) {
      const K n = K(level_count(l, index{}));
      K v = c.ks[l] + by.ks[l] + carry;
      carry = v >= n ? 1 : 0;
      c.ks[l] = carry ? v - n : v;
    }
    c.ks[0] += by.ks[0] + carry;
  }
  template <class K, class F>
  GPU_AUTOPAR_HD void call(const cursor<K>& c, F&& f) const {
    call_levels(c, f, index{});
  }
  // The same from host code, with a host function: through the
  // __host__ __device__ call nvcc would compile a device version of the call
  // of a host function (an error: gpu_autopar.h).
  template <class K, class F>
  void call_on_host(const cursor<K>& c, F&& f) const {
    call_levels_on_host(c, f, index{});
  }

private:
  template <std::size_t... I>
  static levels_type make_levels(std::index_sequence<I...>, const iterations<T>&... levels) {
    return levels_type{detail::hd_leaf<I, iterations<T>>{levels}...};
  }
  template <std::size_t... I>
  void first_problem(std::string& why, std::index_sequence<I...>) const {
    ((why.empty() ? (void)(why = detail::hd_get<I>(levels_).problem()) : (void)0), ...);
  }
  template <class F, std::size_t... I>
  GPU_AUTOPAR_HD void call(std::uint64_t k, F& f, std::index_sequence<I...>) const {
    // Indices from the innermost loop outwards: k = ((k0*n1) + k1)*n2 + k2.
    std::uint64_t ks[sizeof...(T)] = {};
    for (std::size_t l = sizeof...(T); l-- > 0;) {
      const std::uint64_t n = level_count(l, index{});
      ks[l] = l == 0 ? k : k % n;
      k = l == 0 ? k : k / n;
    }
    f(detail::hd_get<I>(levels_).at(ks[I])...);
  }
  template <class K, class F, std::size_t... I>
  GPU_AUTOPAR_HD void call_levels(const cursor<K>& c, F& f, std::index_sequence<I...>) const {
    f(detail::hd_get<I>(levels_).at(std::uint64_t(c.ks[I]))...);
  }
  template <class K, class F, std::size_t... I>
  void call_levels_on_host(const cursor<K>& c, F& f, std::index_sequence<I...>) const {
    f(detail::hd_get<I>(levels_).at(std::uint64_t(c.ks[I]))...);
  }
  template <std::size_t... I>
  GPU_AUTOPAR_HD std::uint64_t level_count(std::size_t l, std::index_sequence<I...>) const {
    std::uint64_t n = 0;
    ((l == I ? (n = detail::hd_get<I>(levels_).count(), 0) : 0), ...);
    return n;
  }

  levels_type levels_;
  std::uint64_t count_ = 0, inner_ = 1;
  bool too_many_ = false;
};

template <class... T>
collapsed<T...> collapse(const iterations<T>&... levels) {
  return collapsed<T...>(levels...);
}

namespace detail {
// One loop or a collapsed nest, as the loop templates use them: the index
// count, the outermost value at an index (for data maps), and a call of the
// body with the induction values of an index.
template <class T>
GPU_AUTOPAR_HD T outer_at(const iterations<T>& s, std::uint64_t k) {
  return s.at(k);
}
template <class... T>
GPU_AUTOPAR_HD auto outer_at(const collapsed<T...>& s, std::uint64_t k) {
  return s.outer_at(k);
}
template <class T>
long long outer_step(const iterations<T>& s) {
  return s.step();
}
template <class... T>
long long outer_step(const collapsed<T...>& s) {
  return s.outer().step();
}
template <class T>
bool splits_outer(const iterations<T>&, std::uint64_t, std::uint64_t) {
  return false;
}
template <class... T>
bool splits_outer(const collapsed<T...>& s, std::uint64_t begin, std::uint64_t end) {
  return s.splits_outer(begin, end);
}
template <class T, class F>
GPU_AUTOPAR_HD void call_at(const iterations<T>& s, std::uint64_t k, F&& f) {
  f(s.at(k));
}
template <class... T, class F>
GPU_AUTOPAR_HD void call_at(const collapsed<T...>& s, std::uint64_t k, F&& f) {
  s.call(k, f);
}
template <class S>
struct is_collapsed : std::false_type {};
template <class... T>
struct is_collapsed<collapsed<T...>> : std::true_type {};
} // namespace detail

} // namespace gpu_autopar
