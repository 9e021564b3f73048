// The dependence test between the accesses of one object in different
// iterations of a loop, exact where isl can express the loop (internal). A
// dependence is a pair of different iterations of the model's loop
// touching the same element, at least one writing it.
#pragma once

#include "model/LoopModel.h"

#include "gpuautopar/ParamCondition.h"

#include "llvm/ADT/ArrayRef.h"

#include <optional>
#include <string>

namespace gpuautopar {

struct DependenceVerdict {
  enum Kind {
    Independent, // no two iterations touch one element that one of them writes
    Dependent,   // proven: for all but finitely many values of the loop's parameters
    Unknown,     // the analysis cannot tell (Why says what it could not see through)
  } K = Independent;
  const Access *Write = nullptr, *Other = nullptr; // the pair; the same access when it conflicts with itself
  std::string Why;
  // The write's element does not depend on the loop's variable.
  bool SameElementEverywhere = false;
  // ... and it is one element: no inner loop moves it (`total` or `a[0]`,
  // not `bins[j]`).
  bool OneElement = false;
  // Dependent: two iterations that conflict, e.g. "iterations i=3 and i=60 both write a[60]".
  std::string Witness;
  // Independent only while the subscripts of a built-in array's inner
  // dimensions stay within them, which this condition on the loop's
  // parameters says: `a[i][j]` of a `T a[][64]` with `j < m` conflicts
  // across rows only when m > 64. None: unconditionally.
  std::optional<ParamCondition> Guard;
};

// Every pair (write, any access) of `Accesses`, all of one object, in the
// loop of `Model` (read with Products::Unknown). A collapsed loop is asked
// on its own level (LoopModel::collapsedLevel): different iterations of it
// within one iteration of the loops around it.
DependenceVerdict dependence(LevelModel &Model, llvm::ArrayRef<const Access *> Accesses);

} // namespace gpuautopar
