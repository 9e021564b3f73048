// What a data map can copy to a device (internal to the analysis layer): the
// one definition of "container" that classification, data-map inference and
// range-for recognition share. It is the set the runtime's view traits
// accept (element_of / object_access in runtime/include/gpu_autopar/): a raw
// pointer, a built-in array of constant size, std::vector and std::array.
#pragma once

#include "gpuautopar/LoopAnalysis.h"

#include "clang/AST/Type.h"

#include <optional>
#include <string>

namespace clang {
class ASTContext;
} // namespace clang

namespace gpuautopar {

// The kind of a mappable object of type `T` (references looked through), or
// nothing: a std::span, a std::deque, a class of the user's, a
// variable-length array.
std::optional<ContainerKind> containerKind(clang::QualType T);

// Whether `obj[k]` / `obj.at(k)` on a class object of type `Object` names
// its element k, so that different k are different elements and the
// subscript can be analysed as one: the standard sequence containers
// (std::vector, std::array, std::deque, std::valarray, std::basic_string)
// and std::span (a view: isView). Any other class's operator[] is a call:
// a std::map's inserts, a user's view may return any reference (`p[i / 2]`).
bool subscriptNamesOwnElement(clang::QualType Object);

// A std::span: its elements are another object's, which another view or
// pointer may reach too.
bool isView(clang::QualType Object);

// The type of one element of a mappable object's outermost dimension: `T`
// for `T *`, `T[M]` for `T[N][M]`, `T` for `std::vector<T>`.
clang::QualType elementType(clang::QualType Object, ContainerKind K);

// Why copying a mappable object's elements byte for byte would not carry the
// data the body reaches through them (completes "its elements ..."), or
// nothing when they are plain values: pointers (`float **`), objects owning
// memory (`std::vector<std::vector<float>>`), classes holding either.
std::optional<std::string> whyNotFlat(clang::QualType Element);

} // namespace gpuautopar
