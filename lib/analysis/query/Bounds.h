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

} // namespace gpuautopar
