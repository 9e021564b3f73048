// What isl proves about a section proposed for one object's accesses, on
// the same iteration domains the dependence test uses (internal).
#pragma once

#include "model/LoopModel.h"

#include "llvm/ADT/ArrayRef.h"

#include <utility>

namespace gpuautopar {

struct SectionProof {
  // In each iteration i, every access touches only elements of
  // Scale*i + [Offset, Offset + Extent) for one of the parts.
  bool Contains = false;
  // Every element of the (one) part is touched in every iteration.
  bool Dense = false;
};

// Checks a section of the accesses' first subscripts (`Subscripts`, one per
// access, as the model's linearizer gives them) on `Model` read with
// Products::AsParams (LoopModel::forSections): `Parts` are (offset, extent)
// pairs, all loop-invariant, over the model's atoms. Dense is only asked of
// a single part.
SectionProof proveSection(LevelModel &Model, llvm::ArrayRef<const Access *> Accesses, llvm::ArrayRef<Poly> Subscripts,
                          const Poly &Scale, llvm::ArrayRef<std::pair<Poly, Poly>> Parts, bool AskDense);

} // namespace gpuautopar
