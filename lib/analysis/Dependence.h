// The dependence test between the accesses of one object in different
// iterations of the annotated loop, exact where isl can express the loop
// (internal). Iteration domains come from the annotated loop, the counted
// inner loops and the affine guards around each access; access relations
// from the subscripts. A dependence is a pair of different iterations of the
// annotated loop touching the same element, at least one writing it.
#pragma once

#include "AffinePoly.h"
#include "BodyModel.h"
#include "gpuautopar/ParamCondition.h"

#include "llvm/ADT/ArrayRef.h"

#include <memory>
#include <optional>
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

// What isl proves about a section proposed for one object's accesses, on
// the same iteration domains the dependence test uses.
struct SectionProof {
  // In each iteration i, every access touches only elements of
  // Scale*i + [Offset, Offset + Extent) for one of the parts.
  bool Contains = false;
  // Every element of the (one) part is touched in every iteration.
  bool Dense = false;
};

class DependenceTest {
public:
  DependenceTest(const LoopAnalysis &A, const BodyModel &M, clang::ASTContext &Ctx, const AnalysisOptions &Opts);
  ~DependenceTest();
  // Every pair (write, any access) of `Accesses`, all of one object.
  DependenceVerdict test(llvm::ArrayRef<const Access *> Accesses);

  // Checks a section of the accesses' first subscripts (`Subscripts`, one
  // per access, as linearizer() gives them): `Parts` are (offset, extent)
  // pairs, all loop-invariant, over atoms of atoms(). Dense is only asked of
  // a single part.
  SectionProof proveSection(llvm::ArrayRef<const Access *> Accesses, llvm::ArrayRef<Poly> Subscripts,
                            const Poly &Scale, llvm::ArrayRef<std::pair<Poly, Poly>> Parts, bool AskDense);

  // The atoms and linearizer the test reads subscripts with, so that a
  // caller's polynomials mean the same as the test's.
  AtomTable &atoms();
  Linearizer &linearizer();

private:
  struct Impl;
  std::unique_ptr<Impl> P;
};

} // namespace gpuautopar
