// The exact answers the queries find without isl (internal), taken where
// AnalysisOptions::ExactShortcuts is set (the default; GPU_AUTOPAR_ISL_ONLY=1
// clears it so that a test can check they decide as isl does). Each is a
// sufficient condition: false (or nothing) sends the question to isl.
#pragma once

#include "model/LoopModel.h"

#include <optional>
#include <utility>

namespace gpuautopar {

// Whether different iterations provably touch different elements: every
// access has one subscript `c*i + q_k` with offsets that differ by numbers
// no multiple of c*step apart.
bool separatedWithoutIsl(LevelModel &Model, llvm::ArrayRef<const Access *> Accesses);

// Whether every access has the same subscript `(c*i + r)*w + x + q` of a
// flat 2-D array, its column x + q provably inside [0, w): one row per
// iteration.
bool rowsWithoutIsl(LevelModel &Model, llvm::ArrayRef<const Access *> Accesses);

// Whether every instance of X touches an element in [Offset, Last], read
// off the element's ends when they are numbers apart from the part's.
bool withinWithoutIsl(LevelModel &Model, const Access *X, const Poly &Element, const Poly &Offset, const Poly &Last);

// Whether the accesses touch every element of Part (its last element Last)
// in every iteration, where that can be counted; nothing where isl must say.
std::optional<bool> denseWithoutIsl(LevelModel &Model, llvm::ArrayRef<const Access *> Accesses,
                                    llvm::ArrayRef<Poly> Elements, const std::pair<Poly, Poly> &Part,
                                    const Poly &Last);

} // namespace gpuautopar
