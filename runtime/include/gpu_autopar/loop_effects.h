// What a loop changes, described for a runtime that splits the loop across
// processes (the optional MPI library, docs/mpi.md): each process runs a range
// of the iterations on its own copy of the data, and must then send the others
// what its range wrote and combine the reductions. The header templates know
// the maps and reductions; the compiled runtime only sees this interface.
// A loop_body without effects (effects() == nullptr) has effects the runtime
// does not know: it is never split across processes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <tuple>
#include <type_traits>
#include <utility>

#include <gpu_autopar/iteration_space.h>
#include <gpu_autopar/reductions.h>

namespace gpu_autopar {

// The elements [lo, hi) of one object that a range of iterations may write
// (the hull of their sections).
struct written_section {
  unsigned char* host = nullptr; // the object's element 0
  std::size_t element_size = 0;
  long long lo = 0, hi = 0;
  // Disjoint iteration ranges have disjoint hulls (each iteration's section is
  // its own), so a hull can be sent as it is; otherwise only the elements the
  // range changed may be sent.
  bool disjoint = false;
  // Trivially copyable elements: their bytes can be compared and sent.
  bool copyable = false;
  // What changes are found in (see runtime/src/map_slice.cpp): a scalar of the element,
  // or single bytes of a class type (iterations may write different columns
  // of one row, different fields of one struct).
  std::size_t unit = 1;
};

// `last` is a lastprivate variable (private_copies.h): no operator, the value
// the sequentially last iteration left, which the process that ran that
// iteration holds.
enum class reduction_op { plus, times, min, max, bit_and, bit_or, bit_xor, logical_and, logical_or, last };

// One reduction variable, type-erased.
struct reduction_variable {
  void* var = nullptr;
  std::size_t size = 0;
  reduction_op op = reduction_op::plus;
  bool integer = false;   // an integer type other than bool: any association gives the same bits
  bool is_signed = false;
  bool copyable = false;  // trivially copyable: its bytes can be sent
  void (*set_identity)(void* var) = nullptr;
  void (*combine)(void* acc, const void* partial) = nullptr; // *acc = *acc op *partial (bytes)
};

class loop_effects {
public:
  virtual std::size_t written_count() const = 0;
  // Written object k for the iteration indices [begin, end) (begin < end).
  virtual written_section written(std::size_t k, std::uint64_t begin, std::uint64_t end) const = 0;
  virtual std::size_t reduction_count() const = 0;
  virtual reduction_variable reduction(std::size_t k) const = 0;
  // Objects whose values a range of iterations needs before it runs: the
  // maps it reads (`to`, `tofrom`, and present data the body reads) and the
  // maps it writes whose sections leave
  // holes or overlap (the elements it does not write go back as they were).
  // read(k, ...) is the hull, as written() gives it; `disjoint` is not set.
  virtual std::size_t read_count() const { return 0; }
  virtual written_section read(std::size_t k, std::uint64_t begin, std::uint64_t end) const {
    (void)k, (void)begin, (void)end;
    return {};
  }

protected:
  ~loop_effects() = default;
};

namespace detail {

template <class Op>
struct op_of;
#define GPU_AUTOPAR_OP_OF(name)                                                                                   \
  template <>                                                                                                     \
  struct op_of<op::name> {                                                                                        \
    static constexpr reduction_op value = reduction_op::name;                                                     \
  };
GPU_AUTOPAR_OP_OF(plus)
GPU_AUTOPAR_OP_OF(times)
GPU_AUTOPAR_OP_OF(min)
GPU_AUTOPAR_OP_OF(max)
GPU_AUTOPAR_OP_OF(bit_and)
GPU_AUTOPAR_OP_OF(bit_or)
GPU_AUTOPAR_OP_OF(bit_xor)
GPU_AUTOPAR_OP_OF(logical_and)
GPU_AUTOPAR_OP_OF(logical_or)
#undef GPU_AUTOPAR_OP_OF

template <class Op, class T>
reduction_variable describe(const reduction_ref<Op, T>& r) {
  using traits = typename reduction_ref<Op, T>::traits;
  reduction_variable v;
  v.var = r.var;
  v.size = sizeof(T);
  v.op = op_of<Op>::value;
  v.integer = std::is_integral<T>::value && !std::is_same<T, bool>::value;
  v.is_signed = std::is_signed<T>::value;
  v.copyable = std::is_trivially_copyable<T>::value;
  v.set_identity = [](void* p) { *static_cast<T*>(p) = traits::identity(); };
  if constexpr (std::is_trivially_copyable<T>::value)
    v.combine = [](void* acc, const void* partial) {
      T a, b; // the bytes may come unaligned from a message buffer
      std::memcpy(&a, acc, sizeof(T));
      std::memcpy(&b, partial, sizeof(T));
      a = traits::combine(a, b);
      std::memcpy(acc, &a, sizeof(T));
    };
  return v;
}

// A lastprivate variable has no identity: every process keeps the value it
// had, and the combined value is the one of the process that ran the last
// iteration, copied as it is.
template <class T>
reduction_variable describe(const last_private_ref<T>& r) {
  reduction_variable v;
  v.var = r.var;
  v.size = sizeof(T);
  v.op = reduction_op::last;
  v.copyable = std::is_trivially_copyable<T>::value;
  v.set_identity = [](void*) {};
  v.combine = [](void* acc, const void* partial) { std::memcpy(acc, partial, sizeof(T)); };
  return v;
}

} // namespace detail
} // namespace gpu_autopar
