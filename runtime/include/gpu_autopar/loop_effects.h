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

#include <gpu_autopar/data_map.h>
#include <gpu_autopar/device_slice.h>
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
  // What changes are found in (see device_slice.h): a scalar of the element,
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

// The hull a map's sections cover for [begin, end), and whether the hulls of
// disjoint ranges are disjoint: an affine section whose extent fits in the
// distance between consecutive iterations' sections.
template <class T, class E, class S>
written_section section_of(const map_spec<E, S>& m, const iterations<T>& space, std::uint64_t begin,
                           std::uint64_t end) {
  const element_range r =
      m.chunk_range(static_cast<long long>(space.at(begin)), static_cast<long long>(space.at(end - 1)));
  written_section w;
  w.host = reinterpret_cast<unsigned char*>(const_cast<typename std::remove_const<E>::type*>(m.host));
  w.element_size = sizeof(E);
  w.copyable = std::is_trivially_copyable<E>::value;
  using scalar = typename std::remove_all_extents<typename std::remove_const<E>::type>::type;
  w.unit = std::is_arithmetic<scalar>::value || std::is_pointer<scalar>::value ? sizeof(scalar) : 1;
  w.lo = r.lo;
  w.hi = r.hi;
  if constexpr (std::is_same<S, affine>::value) {
    const long long stride = m.section.scale * space.step();
    w.disjoint = m.section.scale != 0 && m.section.extent <= (stride < 0 ? -stride : stride);
  }
  return w;
}

// The effects of a loop over `space` whose maps and reductions are given.
template <class T, class Maps, class Reds>
class map_effects final : public loop_effects {
  static constexpr std::size_t map_count = std::tuple_size<Maps>::value;

public:
  map_effects(const iterations<T>& space, const Maps& maps, const Reds& reds) : space_(space), maps_(maps) {
    collect_written(std::make_index_sequence<map_count>{});
    std::apply([this](const auto&... r) { ((reductions_[reduction_count_++] = describe(r)), ...); }, reds.refs());
  }

  std::size_t written_count() const override { return written_count_; }
  written_section written(std::size_t k, std::uint64_t begin, std::uint64_t end) const override {
    written_section w;
    visit(written_[k], begin, end, w, std::make_index_sequence<map_count>{});
    return w;
  }
  std::size_t reduction_count() const override { return reduction_count_; }
  reduction_variable reduction(std::size_t k) const override { return reductions_[k]; }
  std::size_t read_count() const override { return read_count_; }
  written_section read(std::size_t k, std::uint64_t begin, std::uint64_t end) const override {
    written_section w;
    visit(read_[k], begin, end, w, std::make_index_sequence<map_count>{});
    w.disjoint = false;
    return w;
  }

private:
  template <class M>
  bool needed_before(const M& m) const {
    if (m.kind == map_kind::to || m.kind == map_kind::tofrom || m.read_too)
      return true;
    return body_writes(m) &&
           (m.sections_may_overlap() || !covers_densely(m, static_cast<long long>(space_.step())));
  }
  template <std::size_t... I>
  void collect_written(std::index_sequence<I...>) {
    ((body_writes(std::get<I>(maps_)) ? void(written_[written_count_++] = I) : void()), ...);
    ((needed_before(std::get<I>(maps_)) ? void(read_[read_count_++] = I) : void()), ...);
  }
  template <std::size_t... I>
  void visit(std::size_t map, std::uint64_t begin, std::uint64_t end, written_section& w,
             std::index_sequence<I...>) const {
    ((map == I ? void(w = section_of(std::get<I>(maps_), space_, begin, end)) : void()), ...);
  }

  iterations<T> space_;
  const Maps& maps_;
  std::size_t written_[map_count + 1] = {};
  std::size_t written_count_ = 0;
  std::size_t read_[map_count + 1] = {};
  std::size_t read_count_ = 0;
  reduction_variable reductions_[std::tuple_size<typename Reds::partials>::value + 1];
  std::size_t reduction_count_ = 0;
};

} // namespace detail
} // namespace gpu_autopar
