#include "query/Dependence.h"
#include "query/Bounds.h"
#include "query/ModelView.h"
#include "query/Shortcuts.h"

#include "llvm/ADT/STLExtras.h"

#include <isl/ast.h>
#include <isl/ast_build.h>
#include <isl/ctx.h>
#include <isl/id.h>
#include <isl/local_space.h>
#include <isl/map.h>
#include <isl/point.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/val.h>
#include <isl/aff.h>

#include <functional>

namespace gpuautopar {

using namespace clang;

namespace {

// The dependence test on one model: pairs of different iterations of the
// model's loop that touch one element, at least one writing it.
class DependenceSearch : ModelView {
public:
  explicit DependenceSearch(LevelModel &Model) : ModelView(Model) {}

  DependenceVerdict test(llvm::ArrayRef<const Access *> Xs) {
    if (std::optional<DependenceVerdict> Jagged = sharedRows(Xs))
      return *Jagged;
    if (Opts.ExactShortcuts && (separatedWithoutIsl(Model, Xs) || rowsWithoutIsl(Model, Xs)))
      return DependenceVerdict{};
    isl_ctx_reset_operations(I);
    Model.relations(Xs);
    DependenceVerdict V = tested(Xs);
    if (V.K != DependenceVerdict::Unknown || V.Guard)
      return V;
    // Not for every value of the parameters: perhaps for every large one
    // (always()), asked only now, so that a conflict proven for every value
    // is the one reported.
    LargeParameters = true;
    DependenceVerdict Large = tested(Xs);
    LargeParameters = false;
    return Large.K == DependenceVerdict::Dependent ? Large : V;
  }

  DependenceVerdict tested(llvm::ArrayRef<const Access *> Xs) {
    DependenceVerdict V = search(Xs, false);
    if (V.K == DependenceVerdict::Independent)
      return splitRows(Xs) ? insideRows(Xs) : V;
    // `a[i][j]` of a `T a[][64]` with `j < m` conflicts only when m > 64:
    // independent wherever the subscripts stay inside their dimensions,
    // which the rewritten loop checks before it runs.
    if (std::optional<ParamCondition> G = inBoundsGuard(Model, Xs)) {
      DependenceVerdict W = search(Xs, true);
      if (W.K == DependenceVerdict::Independent) {
        W.Guard = std::move(G);
        return W;
      }
      // Conflicts remain inside the dimensions too: an example there reads
      // better than one that walks off the end of a row.
      if (V.K == DependenceVerdict::Unknown && W.K == DependenceVerdict::Unknown)
        return W;
    }
    return V;
  }

  // Whether an access indexes a row of variable length as a coordinate of
  // its own (LevelModel::rowLength), which the relations take as inside it.
  bool splitRows(llvm::ArrayRef<const Access *> Xs) {
    return llvm::any_of(Xs, [&](const Access *X) { return stmt(X).SplitRows; });
  }

  // Independent as the relations say, which hold while every subscript of
  // a variable-length row stays inside it: `d[i][j + 1]` with j < m reads
  // the next row's first element once m reaches the row's length. So
  // independent with a guard the rewritten loop checks, or unknown.
  DependenceVerdict insideRows(llvm::ArrayRef<const Access *> Xs) {
    DimensionsVerdict D = dimensionsOf(Model, Xs);
    DependenceVerdict V;
    if (D.K == DimensionsVerdict::Guarded)
      V.Guard = std::move(D.Guard);
    if (D.K != DimensionsVerdict::MayLeave)
      return V;
    V.K = DependenceVerdict::Unknown;
    V.Write = V.Other = *llvm::find_if(Xs, [](const Access *X) { return X->Write; });
    V.Why = "a subscript of '" + V.Write->Name + "' may leave a row whose length is only known at run time";
    return V;
  }

  // A write through row pointers the object holds: two iterations' rows
  // may be one row, whatever the subscripts say.
  std::optional<DependenceVerdict> sharedRows(llvm::ArrayRef<const Access *> Xs) const {
    for (const Access *X : Xs)
      if (X->Write && rowsThroughPointers(X->ObjectType, X->Subscripts.size(), Ctx)) {
        DependenceVerdict V;
        V.K = DependenceVerdict::Unknown;
        V.Write = V.Other = X;
        V.Why = "'" + X->Name + "' holds pointers to its rows, and two rows may share elements";
        return V;
      }
    return std::nullopt;
  }

  // Every pair (write, any access) of Xs: the first certain dependence, or
  // else the first pair that may conflict, or independent. With Within,
  // only instances whose subscripts stay inside their dimensions count.
  DependenceVerdict search(llvm::ArrayRef<const Access *> Xs, bool Within) {
    DependenceVerdict Unknown;
    Unknown.K = DependenceVerdict::Unknown;
    bool SawUnknown = false;
    for (size_t W = 0; W < Xs.size(); ++W) {
      if (!Xs[W]->Write)
        continue;
      for (size_t O = 0; O < Xs.size(); ++O) {
        if (Xs[O]->Write && O < W)
          continue; // write pairs are tested once
        StmtModel &X = stmt(Xs[W]), &Y = stmt(Xs[O]);
        if (X.Object != Y.Object)
          continue; // different depths of a pointer-to-pointer: different objects
        Map D = conflicts(X, Y, Within);
        const isl_bool Empty = isl_map_is_empty(D.get());
        if (Empty == isl_bool_true)
          continue;
        const bool Certain = Empty == isl_bool_false && X.Exact && Y.Exact && !X.Over && !Y.Over && !Xs[W]->MayWrite &&
                             (Xs[O]->Read || !Xs[O]->MayWrite);
        if (Certain && always(D, X, Y)) {
          DependenceVerdict V;
          V.K = DependenceVerdict::Dependent;
          V.Write = Xs[W];
          V.Other = Xs[O];
          V.Witness = witness(D, X, Y);
          V.SameElementEverywhere = llvm::none_of(X.Subscripts, [&](const std::optional<Poly> &P) {
            return P && mentionsInduction(*P);
          });
          V.OneElement = V.SameElementEverywhere && llvm::none_of(X.Subscripts, [&](const std::optional<Poly> &P) {
                           return P && Atoms.varies(*P);
                         });
          return V;
        }
        if (SawUnknown)
          continue;
        SawUnknown = true;
        Unknown.Write = Xs[W];
        Unknown.Other = Xs[O];
        if (Empty == isl_bool_error)
          Unknown.Why = "the dependence problem is too large to solve";
        else if (!X.Exact || !Y.Exact)
          Unknown.Why = !X.Exact ? X.Why : Y.Why;
        else if (X.Over || Y.Over)
          Unknown.Why = "a row of '" + (X.Over ? Xs[W] : Xs[O])->Name +
                        "' is passed to a function that may touch only part of it";
        else if (Xs[W]->MayWrite || (!Xs[O]->Read && Xs[O]->MayWrite))
          Unknown.Why = "it may be written through a reference or a member call";
        else
          Unknown.Why = "iterations conflict only for some values of the loop's parameters (" + witness(D, X, Y) + ")";
      }
    }
    return SawUnknown ? Unknown : DependenceVerdict{};
  }

  // The instances of S that run; with Within, only those whose subscripts
  // stay inside the dimensions of a built-in array.
  Set running(const StmtModel &S, bool Within) {
    return Within && S.InBounds ? Set(isl_set_intersect(S.Domain.copy(), S.InBounds.copy())) : S.Domain;
  }

  // Pairs (x, y) of instances of X and Y in different iterations of the
  // annotated loop that touch the same element.
  Map conflicts(const StmtModel &X, const StmtModel &Y, bool Within) {
    // Compose the plain access functions first (cheap), then restrict both
    // ends to the instances that run.
    Map D(isl_map_apply_range(X.Rel.copy(), isl_map_reverse(Y.Rel.copy())));
    D = Map(isl_map_intersect_range(isl_map_intersect_domain(D.release(), running(X, Within).release()),
                                    running(Y, Within).release()));
    Map Lt(isl_map_order_lt(D.copy(), isl_dim_in, 0, isl_dim_out, 0));
    return Map(isl_map_union(Lt.release(), isl_map_order_gt(D.release(), isl_dim_in, 0, isl_dim_out, 0)));
  }

  // Whether the conflicts happen for every value of the parameters (but
  // finitely many, or but where one is small) for which the loop has two
  // iterations and both accesses run: `a[j] += 1` for j < m conflicts whenever m >= 1, and with m <= 0
  // there is nothing to conflict.
  bool always(const Map &D, const StmtModel &X, const StmtModel &Y) {
    Set Q = twoIterations();
    if (!Q)
      return false;
    Q = Set(isl_set_intersect(Q.release(), isl_set_params(X.Domain.copy())));
    Q = Set(isl_set_intersect(Q.release(), isl_set_params(Y.Domain.copy())));
    if (!Q)
      return false;
    Set E(isl_map_params(D.copy()));
    Set Missing(isl_set_subtract(Q.release(), E.release()));
    if (!Missing)
      return false;
    const isl_size NP = isl_set_dim(Missing.get(), isl_dim_param);
    if (NP < 0)
      return false;
    Missing = Set(isl_set_move_dims(isl_set_from_params(Missing.release()), isl_dim_set, 0, isl_dim_param, 0, NP));
    if (isl_set_is_bounded(Missing.get()) == isl_bool_true)
      return true;
    if (!LargeParameters)
      return false;
    // Or whenever every parameter is large: `b[i][j] = b[i-1][j-1]` for
    // j < m conflicts for every m but 2. An input worth running in parallel
    // has such values; where a large one avoids the conflict (`a[i + k]`
    // with k >= n) the loop stays unknown.
    for (isl_size K = 0; K < NP; ++K)
      Missing = Set(isl_set_lower_bound_si(Missing.release(), isl_dim_set, unsigned(K), LargeParameter));
    return Missing && isl_set_is_empty(Missing.get()) == isl_bool_true;
  }
  static constexpr int LargeParameter = 64;
  bool LargeParameters = false;

  bool mentionsInduction(const Poly &P) {
    for (const auto &[Mono, C] : P.Terms)
      for (unsigned Id : Mono) {
        const Atom &X = Atoms[Id];
        if (X.K == Atom::Induction || (X.A && mentionsInduction(*X.A)) || (X.B && mentionsInduction(*X.B)) ||
            (X.Test && mentionsInduction(*X.Test)))
          return true;
      }
    return false;
  }

  std::string element(const StmtModel &S, const std::function<std::optional<int64_t>(unsigned)> &Value) {
    std::string Out = S.X->Name;
    for (const std::optional<Poly> &Sub : S.Subscripts) {
      std::optional<int64_t> V = Sub ? evaluate(*Sub, Atoms, Value) : std::nullopt;
      Out += "[" + (V ? std::to_string(*V) : std::string("?")) + "]";
    }
    return Out;
  }

  // A pair of iterations in `D`, as a sentence.
  std::string witness(const Map &D, const StmtModel &X, const StmtModel &Y) {
    Set W(isl_set_flatten(isl_map_wrap(D.copy())));
    const isl_size NP = isl_set_dim(W.get(), isl_dim_param);
    if (NP < 0)
      return "";
    std::vector<unsigned> ParamAtoms;
    for (isl_size K = 0; K < NP; ++K) {
      IslId Id(isl_set_get_dim_id(W.get(), isl_dim_param, K));
      ParamAtoms.push_back(unsigned(reinterpret_cast<uintptr_t>(isl_id_get_user(Id.get())) - 1));
    }
    W = Set(isl_set_move_dims(W.release(), isl_dim_set, 0, isl_dim_param, 0, NP));
    const isl_size N = isl_set_dim(W.get(), isl_dim_set);
    Set Small = W;
    for (isl_size K = 0; K < N; ++K)
      Small = Set(isl_set_lower_bound_si(Small.release(), isl_dim_set, K, 0));
    IslPoint P(isl_set_is_empty(Small.get()) == isl_bool_false
                         ? isl_set_sample_point(isl_set_lexmin(Small.release()))
                         : isl_set_sample_point(W.copy()));
    if (!P || isl_point_is_void(P.get()) == isl_bool_true)
      return "";
    auto coord = [&](unsigned K) -> int64_t {
      isl_val *V = isl_point_get_coordinate_val(P.get(), isl_dim_set, K);
      int64_t R = isl_val_get_num_si(V);
      isl_val_free(V);
      return R;
    };
    const unsigned XBase = NP, YBase = NP + unsigned(isl_space_dim(X.Sp.get(), isl_dim_set));
    auto valueIn = [&](const StmtModel &S, unsigned Base) {
      return [&, Base](unsigned Atom) -> std::optional<int64_t> {
        const struct Atom &A = Atoms[Atom];
        if (A.K == Atom::Induction)
          return coord(Base);
        if (A.K == Atom::Inner) {
          for (size_t K = 0; K < S.Dims.size(); ++K)
            if (S.Dims[K] == A.Loop)
              return coord(Base + 1 + K);
          return std::nullopt;
        }
        for (size_t K = 0; K < ParamAtoms.size(); ++K)
          if (ParamAtoms[K] == Atom)
            return coord(K);
        return std::nullopt;
      };
    };
    std::string With;
    for (size_t K = 0; K < ParamAtoms.size(); ++K)
      With += (With.empty() ? "with " : ", ") + Atoms[ParamAtoms[K]].Spelling + " = " + std::to_string(coord(K));
    const int64_t IX = coord(XBase), IY = coord(YBase);
    const std::string Elem = element(X, valueIn(X, XBase));
    std::string Out = With.empty() ? "" : With + ", ";
    if (Y.X->Write && !(Y.X->MayWrite && Y.X->Read))
      Out += "iterations " + IndexName + "=" + std::to_string(std::min(IX, IY)) + " and " + IndexName + "=" +
             std::to_string(std::max(IX, IY)) + " both write " + Elem;
    else
      Out += "iteration " + IndexName + "=" + std::to_string(IX) + " writes " + Elem + " and iteration " +
             IndexName + "=" + std::to_string(IY) + " reads it";
    return Out;
  }
};

} // namespace

DependenceVerdict dependence(LevelModel &Model, llvm::ArrayRef<const Access *> Accesses) {
  assert(!Accesses.empty() && "an object has at least one access");
  return DependenceSearch(Model).test(Accesses);
}

} // namespace gpuautopar
