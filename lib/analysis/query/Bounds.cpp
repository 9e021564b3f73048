#include "query/Bounds.h"
#include "query/ModelView.h"

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

namespace gpuautopar {

namespace {

class BoundsGuard : ModelView {
public:
  explicit BoundsGuard(LevelModel &Model) : ModelView(Model) {}

  // The condition on the loop's parameters under which no access of `Xs`
  // leaves a dimension of a built-in array; none where no access could,
  // where isl cannot say it in plain arithmetic, or where it never holds
  // while the loop runs two iterations.
  std::optional<ParamCondition> inBoundsGuard(llvm::ArrayRef<const Access *> Xs) {
    return verdict(Xs).Guard;
  }

  DimensionsVerdict verdict(llvm::ArrayRef<const Access *> Xs) {
    DimensionsVerdict Leaves;
    Leaves.K = DimensionsVerdict::MayLeave;
    Set Outside;
    for (const Access *X : Xs) {
      const StmtModel &S = stmt(X);
      if (!S.InBounds)
        continue;
      if (!S.Exact)
        return Leaves;
      Set Params(isl_set_params(isl_set_subtract(S.Domain.copy(), S.InBounds.copy())));
      Outside = Outside ? Set(isl_set_union(Outside.release(), Params.release())) : std::move(Params);
    }
    if (!Outside)
      return DimensionsVerdict{};
    // Where the loop has fewer than two iterations, or none of these
    // accesses runs, the guard's value does not matter.
    Set Runs = twoIterations(), Touches;
    for (const Access *X : Xs) {
      Set Params(isl_set_params(stmt(X).Domain.copy()));
      Touches = Touches ? Set(isl_set_union(Touches.release(), Params.release())) : std::move(Params);
    }
    if (!Runs || !Touches)
      return Leaves;
    Runs = Set(isl_set_intersect(Runs.release(), Touches.release()));
    if (isl_set_is_empty(Set(isl_set_intersect(Runs.copy(), Outside.copy())).get()) == isl_bool_true)
      return DimensionsVerdict{};
    Set Within(isl_set_subtract(Runs.copy(), Outside.release()));
    if (!Within || isl_set_is_empty(Within.get()) != isl_bool_false)
      return Leaves;
    Within = Set(isl_set_gist(isl_set_coalesce(Within.release()), Runs.release()));
    if (!Within)
      return Leaves;
    isl_ast_build *Build = isl_ast_build_from_context(isl_set_universe(isl_set_get_space(Within.get())));
    IslAstExpr E(isl_ast_build_expr_from_set(Build, Within.release()));
    isl_ast_build_free(Build);
    if (!E || !(Leaves.Guard = condition(E.get())))
      return Leaves;
    Leaves.K = DimensionsVerdict::Guarded;
    return Leaves;
  }

  // An isl condition over the loop's parameters as a value: comparisons,
  // && and || of sums of products of numbers and parameters; nothing for
  // anything else.
  std::optional<ParamCondition> condition(isl_ast_expr *E) {
    ParamCondition C;
    switch (isl_ast_expr_get_type(E)) {
    case isl_ast_expr_int: {
      isl_val *V = isl_ast_expr_get_val(E);
      const bool Int = V && isl_val_is_int(V) == isl_bool_true;
      if (Int)
        C.Value = isl_val_get_num_si(V);
      isl_val_free(V);
      return Int ? std::optional<ParamCondition>(C) : std::nullopt;
    }
    case isl_ast_expr_id: {
      isl_id *Id = isl_ast_expr_get_id(E);
      const uintptr_t User = Id ? uintptr_t(isl_id_get_user(Id)) : 0;
      isl_id_free(Id);
      if (User == 0 || User - 1 >= Atoms.size() || !isParam(unsigned(User - 1)))
        return std::nullopt;
      C.K = ParamCondition::Param;
      C.Name = Atoms[unsigned(User - 1)].Spelling;
      return C;
    }
    case isl_ast_expr_op: break;
    default: return std::nullopt;
    }
    switch (isl_ast_expr_op_get_type(E)) {
    case isl_ast_expr_op_or:
    case isl_ast_expr_op_or_else: C.K = ParamCondition::Or; break;
    case isl_ast_expr_op_and:
    case isl_ast_expr_op_and_then: C.K = ParamCondition::And; break;
    case isl_ast_expr_op_eq: C.K = ParamCondition::Eq; break;
    case isl_ast_expr_op_le: C.K = ParamCondition::Le; break;
    case isl_ast_expr_op_lt: C.K = ParamCondition::Lt; break;
    case isl_ast_expr_op_ge: C.K = ParamCondition::Ge; break;
    case isl_ast_expr_op_gt: C.K = ParamCondition::Gt; break;
    case isl_ast_expr_op_add: C.K = ParamCondition::Add; break;
    case isl_ast_expr_op_sub: C.K = ParamCondition::Sub; break;
    case isl_ast_expr_op_mul: C.K = ParamCondition::Mul; break;
    case isl_ast_expr_op_minus: C.K = ParamCondition::Neg; break;
    default: return std::nullopt;
    }
    const isl_size N = isl_ast_expr_op_get_n_arg(E);
    if (N != (C.K == ParamCondition::Neg ? 1 : 2))
      return std::nullopt;
    for (isl_size K = 0; K < N; ++K) {
      IslAstExpr Arg(isl_ast_expr_op_get_arg(E, K));
      std::optional<ParamCondition> Sub = Arg ? condition(Arg.get()) : std::nullopt;
      if (!Sub)
        return std::nullopt;
      C.Args.push_back(std::move(*Sub));
    }
    return C;
  }
};

} // namespace

std::optional<ParamCondition> inBoundsGuard(LevelModel &Model, llvm::ArrayRef<const Access *> Accesses) {
  return BoundsGuard(Model).inBoundsGuard(Accesses);
}

DimensionsVerdict withinDimensions(LevelModel &Model, llvm::ArrayRef<const Access *> Accesses) {
  Model.relations(Accesses);
  return dimensionsOf(Model, Accesses);
}

DimensionsVerdict dimensionsOf(LevelModel &Model, llvm::ArrayRef<const Access *> Accesses) {
  return BoundsGuard(Model).verdict(Accesses);
}

} // namespace gpuautopar
