// Owning handles for isl objects: isl's C++ bindings (isl/cpp.h) own and
// copy them; the model and the queries call isl's C functions through
// get() (borrow), copy() (a new reference) and release() (hand over), as
// Polly does. A handle converts to bool (false: null, which isl returns on
// an error or past the operations limit) and is made from a C pointer it
// takes over.
#pragma once

#include <isl/cpp.h>

#include <utility>

namespace gpuautopar {

template <class T> class IslHandle : public T {
public:
  // isl's C++ classes refuse to copy a null object; a handle copies and
  // moves one as null, as the C functions take it.
  IslHandle() = default;
  IslHandle(const IslHandle &O) : T() { this->ptr = O.copy(); }
  IslHandle(IslHandle &&O) noexcept : T() { this->ptr = O.release(); }
  IslHandle &operator=(IslHandle O) noexcept {
    std::swap(this->ptr, O.ptr);
    return *this;
  }
  template <class Raw> explicit IslHandle(Raw *P) : T() { this->ptr = P; }
  explicit operator bool() const { return !this->is_null(); }
};

using Set = IslHandle<isl::set>;
using Map = IslHandle<isl::map>;
using PwAff = IslHandle<isl::pw_aff>;
using Space = IslHandle<isl::space>;
using IslId = IslHandle<isl::id>;
using IslPoint = IslHandle<isl::point>;
using IslAstExpr = IslHandle<isl::ast_expr>;

} // namespace gpuautopar
