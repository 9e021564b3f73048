// The dependence test between the accesses of one object in different
// iterations of the annotated loop, exact where isl can express the loop
// (internal). Iteration domains come from the annotated loop, the counted
// inner loops and the affine guards around each access; access relations
// from the subscripts. A dependence is a pair of different iterations of the
// annotated loop touching the same element, at least one writing it.
#pragma once

#include "AffinePoly.h"
#include "BodyModel.h"

#include "llvm/ADT/ArrayRef.h"

#include <memory>
#include <string>

namespace clang {
class ASTContext;
} // namespace clang

namespace gpuautopar {

struct DependenceVerdict {
  enum Kind {
    Independent, // no two iterations touch one element that one of them writes
    Dependent,   // proven: for all but finitely many values of the loop's parameters
    Unknown,     // the analysis cannot tell (Why says what it could not see through)
  } K = Independent;
  const Access *Write = nullptr, *Other = nullptr; // the pair; the same access when it conflicts with itself
  std::string Why;
  // The write's element does not depend on the annotated loop's variable.
  bool SameElementEverywhere = false;
  // Dependent: two iterations that conflict, e.g. "iterations i=3 and i=60 both write a[60]".
  std::string Witness;
};

class DependenceTest {
public:
  DependenceTest(const LoopAnalysis &A, const BodyModel &M, clang::ASTContext &Ctx);
  ~DependenceTest();
  // Every pair (write, any access) of `Accesses`, all of one object.
  DependenceVerdict test(llvm::ArrayRef<const Access *> Accesses);

private:
  struct Impl;
  std::unique_ptr<Impl> P;
};

} // namespace gpuautopar
