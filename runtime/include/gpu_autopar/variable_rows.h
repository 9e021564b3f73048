// The rows of a variable-length array (`double b[n][m]`, a GNU extension in
// C++), as a loop body on CPU threads sees them.
//
// No lambda can capture such an array (g++: "capture of variably-modified
// type"), and a pointer to rows of run-time length inside the body stops
// nvcc ("variable length arrays are not supported"). So the rewritten body
// captures this instead, under the array's own name: its first element and
// the length of each dimension after the first, read with sizeof where the
// loop stands. `b[i]` is row i (a pointer for the last dimension), so
// `b[i][j]` reaches the element the array's own subscripts reach.
#pragma once

#include <cstddef>
#include <utility>

namespace gpu_autopar {

template <class T, std::size_t Inner>
class variable_rows {
  static_assert(Inner >= 1, "an array of rows has a dimension after its first");

public:
  template <class... Lengths>
  variable_rows(T* first, Lengths... lengths) : first_(first), lengths_{static_cast<std::size_t>(lengths)...} {
    static_assert(sizeof...(Lengths) == Inner, "one length per dimension after the first");
  }

  // Row i: the elements of the last dimension from a pointer, or the rows
  // of the dimensions below.
  auto operator[](std::ptrdiff_t i) const {
    std::size_t stride = 1;
    for (std::size_t d = 0; d < Inner; ++d)
      stride *= lengths_[d];
    T* row = first_ + i * static_cast<std::ptrdiff_t>(stride);
    if constexpr (Inner == 1) {
      return row;
    } else {
      return sub(row, std::make_index_sequence<Inner - 1>());
    }
  }

private:
  template <std::size_t... D>
  variable_rows<T, Inner - 1> sub(T* row, std::index_sequence<D...>) const {
    return variable_rows<T, Inner - 1>(row, lengths_[D + 1]...);
  }

  T* first_;
  std::size_t lengths_[Inner];
};

// `rows_of(&b[0][0], sizeof(b[0]) / sizeof(b[0][0]))`: the element type from
// the first element, one length per dimension after the first.
template <class T, class... Lengths>
variable_rows<T, sizeof...(Lengths)> rows_of(T* first, Lengths... lengths) {
  return variable_rows<T, sizeof...(Lengths)>(first, lengths...);
}

} // namespace gpu_autopar
