// What a function or a statement does that decides where it can run
// (internal to lib/analysis/decide), in the shape the body model gives the
// loop body's (BodyModel::Construct), plus the members it uses that hold host
// pointers. DeviceReach walks callees with it; Classification walks the loop
// body of each instantiation of a template with it.
#pragma once

#include "decide/ModeCauses.h"
#include "model/BodyModel.h"

#include <vector>

namespace gpuautopar {

struct ConstructsFound {
  std::vector<BodyModel::Construct> Constructs;
  // Pointer, reference and standard-container members used: on a GPU they
  // would point at host memory (data maps copy only what the body names).
  std::vector<Cause> Members;
};

// A function's definition, constructor initialisers included; lambdas
// written in it are walked where they are written.
ConstructsFound constructsIn(const clang::FunctionDecl *F);
ConstructsFound constructsIn(const clang::Stmt *S);

// A standard-library object owning host memory (`std::vector`, `std::string`):
// a kernel's view of mapped data is not one, and a copy of one on a GPU
// points at host memory.
bool ownsHostMemory(clang::QualType T);

} // namespace gpuautopar
