// Bounds conditions on a loop's parameters (internal): where a built-in
// array's inner subscripts stay inside their dimensions.
#pragma once

#include "model/LoopModel.h"

#include "gpuautopar/ParamCondition.h"

#include <optional>

namespace gpuautopar {

// The condition on the loop's parameters under which no access of
// `Accesses` leaves a dimension of a built-in array, read off isl's set of
// such parameters; none where no access could, where isl cannot say it in
// plain arithmetic, or where it never holds while the loop runs two
// iterations. Asked after the accesses' relations are built (dependence()).
std::optional<ParamCondition> inBoundsGuard(LevelModel &Model, llvm::ArrayRef<const Access *> Accesses);

// Whether `Accesses` stay inside the dimensions of a built-in array, which
// a section built from first subscripts alone assumes (`rows[0][i + 1]`
// reaches into the next row at i = N - 1): always, under a condition the
// rewritten loop can check first, or maybe not at all. Builds the
// accesses' relations on `Model`, which must read products as the
// dependence test does (LoopModel::forDependence). Subscripts that are not
// affine are taken to stay inside, as C++ requires of them.
struct DimensionsVerdict {
  enum Kind { Inside, Guarded, MayLeave } K = Inside;
  std::optional<ParamCondition> Guard; // Guarded: when they stay inside
};
DimensionsVerdict withinDimensions(LevelModel &Model, llvm::ArrayRef<const Access *> Accesses);
// The same on relations already built (LevelModel::relations).
DimensionsVerdict dimensionsOf(LevelModel &Model, llvm::ArrayRef<const Access *> Accesses);

} // namespace gpuautopar
