#include "query/Sections.h"
#include "query/ModelView.h"
#include "query/Shortcuts.h"

#include "llvm/ADT/STLExtras.h"

#include <isl/aff.h>
#include <isl/ctx.h>
#include <isl/local_space.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/space.h>

namespace gpuautopar {

using namespace clang;

namespace {

// Section proofs on a model read with products of parameters as
// parameters (LoopModel::forSections).
class SectionProver : ModelView {
public:
  explicit SectionProver(LevelModel &Model) : ModelView(Model) {}

  // Whether every instance of X has `Lo <= P <= Hi`, on its domain.
  bool between(const Access *X, const Poly &P, const Poly &Lo, const Poly &Hi) {
    StmtModel &S = stmt(X);
    PwAff At = pa(P, S), L = pa(Lo, S), H = pa(Hi, S);
    if (!At || !L || !H)
      return false;
    Set Below(isl_set_intersect(S.Domain.copy(), compare(At, std::move(L), BO_LT).release()));
    if (isl_set_is_empty(Below.get()) != isl_bool_true)
      return false;
    Set Above(isl_set_intersect(S.Domain.copy(), compare(std::move(At), std::move(H), BO_GT).release()));
    return isl_set_is_empty(Above.get()) == isl_bool_true;
  }

  // An element `Q + N*x + y` of a flattened object: x the variable of one
  // counted inner loop times the invariants N (a row's stride, `nz` in
  // `j*nz + k`), Q invariant, y affine. isl has no products of a variable
  // and a parameter, so the rows are proved apart: y in [0, N) on the
  // statement's domain (so N > 0 wherever the access runs), x within its
  // header's range, and y within what is left of [First, Last] at x's
  // extremes.
  bool withinRows(const Access *X, const Poly &Element, const Poly &First, const Poly &Last) {
    Poly Q, N, Y;
    std::optional<unsigned> Var;
    for (const auto &[Mono, C] : Element.Terms) {
      if (!Atoms.varies(Mono)) {
        Q.Terms[Mono] = C;
        continue;
      }
      std::vector<unsigned> Moving;
      for (unsigned Id : Mono)
        if (Atoms[Id].Varies)
          Moving.push_back(Id);
      if (Mono.size() >= 2 && Moving.size() == 1 && Atoms[Moving[0]].K == Atom::Inner &&
          (!Var || *Var == Moving[0])) {
        Var = Moving[0];
        Monomial Beside = Mono;
        Beside.erase(std::find(Beside.begin(), Beside.end(), *Var));
        N.Terms[Beside] = C;
      } else {
        Y.Terms[Mono] = C;
      }
    }
    if (!Var)
      return false;
    std::optional<Sweep> W = sweep(X, Poly::atom(*Var));
    if (!W)
      return false;
    // y's share of the section at x's least and greatest values.
    std::optional<Poly> AtLeast = multiply(N, W->Least), AtMost = multiply(N, W->Greatest);
    std::optional<Poly> QAtLeast = AtLeast ? add(Q, *AtLeast) : std::nullopt;
    std::optional<Poly> QAtMost = AtMost ? add(Q, *AtMost) : std::nullopt;
    std::optional<Poly> YLo = QAtLeast ? minus(First, *QAtLeast) : std::nullopt;
    std::optional<Poly> YHi = QAtMost ? minus(Last, *QAtMost) : std::nullopt;
    std::optional<Poly> NLess = add(N, Poly::constant(-1));
    return NLess && YLo && YHi && between(X, Y, Poly(), *NLess) && between(X, Y, *YLo, *YHi);
  }

  // Whether every instance of X touches an element of Part, read off the
  // statement's domain: no instance has its element below or past it.
  bool within(const Access *X, const Poly &Element, const std::pair<Poly, Poly> &Part) {
    const auto &[Offset, Extent] = Part;
    std::optional<Poly> Last = add(Offset, Extent);
    Last = Last ? add(*Last, Poly::constant(-1)) : std::nullopt;
    if (!Last)
      return false;
    if (Opts.ExactShortcuts && withinWithoutIsl(Model, X, Element, Offset, *Last))
      return true;
    return between(X, Element, Offset, *Last) || withinRows(X, Element, Offset, *Last);
  }

  // [i, e] for every instance of X, e its section subscript.
  Set sectionPoints(const Access *X, const Poly &Element) {
    StmtModel &S = stmt(X);
    PwAff At = pa(Element, S);
    if (!At)
      return {};
    PwAff Iteration(isl_pw_aff_var_on_domain(isl_local_space_from_space(S.Sp.copy()), isl_dim_set, 0));
    Map M(isl_map_flat_range_product(isl_map_from_pw_aff(Iteration.release()), isl_map_from_pw_aff(At.release())));
    M = Map(isl_map_intersect_domain(M.release(), S.Domain.copy()));
    return Set(isl_set_reset_tuple_id(isl_map_range(M.release())));
  }

  // Whether every element of Part is touched in every iteration the loop
  // runs. Elements that do not move, in statements that always run, are
  // counted; the rest is isl's: the part, over the annotated loop's range,
  // must lie within what the accesses touch.
  bool dense(llvm::ArrayRef<const Access *> Xs, llvm::ArrayRef<Poly> Elements, const std::pair<Poly, Poly> &Part) {
    const auto &[Offset, Extent] = Part;
    std::optional<Poly> MinusOffset = scale(Offset, -1);
    std::optional<Poly> Last = add(Offset, Extent);
    Last = Last ? add(*Last, Poly::constant(-1)) : std::nullopt;
    if (!MinusOffset || !Last)
      return false;
    if (Opts.ExactShortcuts)
      if (std::optional<bool> Known = denseWithoutIsl(Model, Xs, Elements, Part, *Last))
        return *Known;
    Set Touched;
    for (size_t K = 0; K < Xs.size(); ++K) {
      if (!stmt(Xs[K]).Exact || stmt(Xs[K]).Over)
        return false;
      Set Points = sectionPoints(Xs[K], Elements[K]);
      if (!Points)
        return false;
      Touched = Touched ? Set(isl_set_union(Touched.release(), Points.release())) : std::move(Points);
    }
    // [i, e]: the annotated loop's range on i (a strided one adds a trip
    // counter, and is not asked), the part on e.
    const StmtModel &Range = outerRange();
    if (!Range.Exact || isl_set_dim(Range.Domain.get(), isl_dim_set) != 1 || !Touched)
      return false;
    StmtModel Box;
    Box.Domain = Set(isl_set_add_dims(Range.Domain.copy(), isl_dim_set, 1));
    Box.Sp = Space(isl_set_get_space(Box.Domain.get()));
    std::optional<Poly> End = add(Offset, Extent);
    PwAff E(isl_pw_aff_var_on_domain(isl_local_space_from_space(Box.Sp.copy()), isl_dim_set, 1));
    PwAff Lo = pa(Offset, Box), Hi = End ? pa(*End, Box) : PwAff();
    if (!Lo || !Hi)
      return false;
    Set Everything(isl_set_intersect(Box.Domain.release(), compare(E, std::move(Lo), BO_GE).release()));
    Everything = Set(isl_set_intersect(Everything.release(), compare(E, std::move(Hi), BO_LT).release()));
    return isl_set_is_subset(Everything.get(), Touched.get()) == isl_bool_true;
  }

  SectionProof proveSection(llvm::ArrayRef<const Access *> Xs, llvm::ArrayRef<Poly> Subscripts, const Poly &Scale,
                            llvm::ArrayRef<std::pair<Poly, Poly>> Parts, bool AskDense) {
    SectionProof Proof;
    isl_ctx_reset_operations(I);
    std::optional<Poly> Times = multiply(Scale, *Lin.ofInduction());
    std::optional<Poly> Shift = Times ? scale(*Times, -1) : std::nullopt;
    if (!Shift)
      return Proof;
    // Each access's element less Scale*i.
    std::vector<Poly> Elements;
    for (size_t K = 0; K < Xs.size(); ++K) {
      std::optional<Poly> E = add(Subscripts[K], *Shift);
      if (!E || !llvm::any_of(Parts, [&](const std::pair<Poly, Poly> &P) { return within(Xs[K], *E, P); }))
        return Proof;
      Elements.push_back(std::move(*E));
    }
    Proof.Contains = true;
    Proof.Dense = AskDense && Parts.size() == 1 && dense(Xs, Elements, Parts.front());
    return Proof;
  }
};

} // namespace

SectionProof proveSection(LevelModel &Model, llvm::ArrayRef<const Access *> Accesses, llvm::ArrayRef<Poly> Subscripts,
                          const Poly &Scale, llvm::ArrayRef<std::pair<Poly, Poly>> Parts, bool AskDense) {
  assert(!Accesses.empty() && !Parts.empty() && "a section of something");
  assert(Subscripts.size() == Accesses.size() && "one subscript per access");
  return SectionProver(Model).proveSection(Accesses, Subscripts, Scale, Parts, AskDense);
}

} // namespace gpuautopar
