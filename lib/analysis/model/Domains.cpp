#include "model/LoopModel.h"
#include "ExprHelpers.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"

#include <isl/aff.h>
#include <isl/id.h>
#include <isl/local_space.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/val.h>

#include <algorithm>

// The iteration domains of the model: the loop's own range, and each
// access's statement inside the counted inner loops and affine guards
// around it.

namespace gpuautopar {

using namespace clang;

// `Var Compare Bound`, Var starting at Lower and moving by Step (0: not a
// constant), as constraints on dimension `Dim` of S.
void LevelModel::counted(StmtModel &S, unsigned Dim, const Expr *Lower, const Expr *Bound, LoopCompare Cmp, int64_t Step,
             const std::vector<Enclosing> &Around, const char *What) {
  PwAff Var(isl_pw_aff_var_on_domain(isl_local_space_from_space(S.Sp.copy()), isl_dim_set, Dim));
  const bool Up = Cmp == LoopCompare::Less || Cmp == LoopCompare::LessEqual ||
                  (Cmp == LoopCompare::NotEqual && Step >= 0);
  PwAff Lo = pa(Lower, S, Around);
  if (Lo)
    S.Domain = Set(isl_set_intersect(S.Domain.release(), compare(Var, Lo, Up ? BO_GE : BO_LE).release()));
  else
    inexact(S, std::string("the start of ") + What + " '" + textOrZero(Lower, Ctx) + "' is not affine");
  if (PwAff B = pa(Bound, S, Around)) {
    BinaryOperatorKind Op = BO_LT;
    switch (Cmp) {
    case LoopCompare::Less: Op = BO_LT; break;
    case LoopCompare::LessEqual: Op = BO_LE; break;
    case LoopCompare::Greater: Op = BO_GT; break;
    case LoopCompare::GreaterEqual: Op = BO_GE; break;
    case LoopCompare::NotEqual:
      Op = Up ? BO_LT : BO_GT;
      if (Step != 1 && Step != -1)
        inexact(S, std::string("the bound of ") + What + " is tested with '!='");
      break;
    }
    S.Domain = Set(isl_set_intersect(S.Domain.release(), compare(Var, std::move(B), Op).release()));
  } else {
    inexact(S, std::string("the bound of ") + What + " '" + textOrZero(Bound, Ctx) + "' is not affine");
  }
  if (Step == 0) {
    inexact(S, std::string("the step of ") + What + " is not a constant");
  } else if ((Step > 1 || Step < -1) && Lo) {
    isl_val *Stride = isl_val_int_from_si(I, Step < 0 ? -Step : Step);
    if (isl_pw_aff_isa_aff(Lo.get()) == isl_bool_true) {
      // Var = Lower + Step * t, with the trip counter t as one more
      // (trailing) dimension: an equality, which isl eliminates cheaply,
      // where `mod` would add an existential variable to every later
      // intersection and composition.
      const isl_size N = isl_set_dim(S.Domain.get(), isl_dim_set);
      S.Domain = Set(isl_set_add_dims(S.Domain.release(), isl_dim_set, 1));
      S.Sp = Space(isl_set_get_space(S.Domain.get()));
      isl_aff *L = isl_aff_add_dims(isl_pw_aff_as_aff(Lo.release()), isl_dim_in, 1);
      isl_aff *T = isl_aff_var_on_domain(isl_local_space_from_space(S.Sp.copy()), isl_dim_set, N);
      isl_val_free(Stride);
      T = isl_aff_align_params(isl_aff_scale_val(T, isl_val_int_from_si(I, Step)), isl_aff_get_space(L));
      L = isl_aff_align_params(L, isl_aff_get_space(T));
      PwAff Next(isl_pw_aff_from_aff(isl_aff_add(L, T)));
      PwAff V(isl_pw_aff_var_on_domain(isl_local_space_from_space(S.Sp.copy()), isl_dim_set, Dim));
      S.Domain = Set(isl_set_intersect(S.Domain.release(), compare(std::move(V), std::move(Next), BO_EQ).release()));
    } else { // (Var - Lower) mod |Step| == 0
      PwAff Off(isl_pw_aff_sub(Var.copy(), Lo.copy()));
      S.Domain = Set(isl_set_intersect(S.Domain.release(), isl_pw_aff_zero_set(isl_pw_aff_mod_val(Off.release(), Stride))));
    }
  }
}

Set LevelModel::condition(const Expr *C, const StmtModel &S, const std::vector<Enclosing> &Around) {
  C = C->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(C); U && U->getOpcode() == UO_LNot) {
    Set Inner = condition(U->getSubExpr(), S, Around);
    return Inner ? Set(isl_set_complement(Inner.release())) : Set();
  }
  const auto *B = dyn_cast<BinaryOperator>(C);
  if (B && B->isLogicalOp()) {
    Set L = condition(B->getLHS(), S, Around), R = condition(B->getRHS(), S, Around);
    if (!L || !R)
      return {};
    return Set(B->getOpcode() == BO_LAnd ? isl_set_intersect(L.release(), R.release())
                                         : isl_set_union(L.release(), R.release()));
  }
  if (B && B->isComparisonOp()) {
    PwAff L = pa(B->getLHS(), S, Around), R = pa(B->getRHS(), S, Around);
    if (!L || !R)
      return {};
    switch (B->getOpcode()) {
    case BO_LT: case BO_LE: case BO_GT: case BO_GE: case BO_EQ:
      return compare(std::move(L), std::move(R), B->getOpcode());
    case BO_NE: return Set(isl_pw_aff_ne_set(L.release(), R.release()));
    default: return {};
    }
  }
  if (C->getType()->isIntegerType())
    if (PwAff V = pa(C, S, Around))
      return Set(isl_pw_aff_non_zero_set(V.release()));
  return {};
}

// The annotated loop's own range, on dimension 0 of S.
void LevelModel::outer(StmtModel &S) {
  const CanonicalLoop &L = Loop;
  if (L.RangeFor) {
    Atom Size{Atom::Size};
    Size.Root = L.RangeContainer;
    Size.Spelling = L.RangeContainer->getNameAsString() + ".size()";
    PwAff N = pa(Poly::atom(Atoms.intern(std::move(Size))), S);
    PwAff Var(isl_pw_aff_var_on_domain(isl_local_space_from_space(S.Sp.copy()), isl_dim_set, 0));
    S.Domain = Set(isl_set_intersect(S.Domain.release(), isl_pw_aff_nonneg_set(Var.copy())));
    S.Domain = Set(isl_set_intersect(S.Domain.release(), isl_pw_aff_lt_set(Var.copy(), N.release())));
    return;
  }
  counted(S, 0, L.Lower, L.Bound, L.Compare, annotatedStep(), {}, "the annotated loop");
}

// The annotated loop's step, negative when it counts down; 0 when it is
// not a constant.
int64_t LevelModel::annotatedStep() const {
  const CanonicalLoop &L = Loop;
  int64_t Step = 1;
  if (L.Step) {
    Expr::EvalResult R;
    Step = !L.Step->isValueDependent() && L.Step->EvaluateAsInt(R, Ctx) && R.Val.getInt().getSignificantBits() <= 32
               ? R.Val.getInt().getExtValue()
               : 0;
  }
  return L.Decrements ? -Step : Step;
}

// The annotated loop's own range as a set of [i].
const StmtModel &LevelModel::outerRange() {
  if (!Outer) {
    Outer = std::make_unique<StmtModel>();
    Outer->Sp = Space(isl_space_set_dim_name(isl_space_set_alloc(I, 0, 1), isl_dim_set, 0, IndexName.c_str()));
    Outer->Domain = Set(isl_set_universe(Outer->Sp.copy()));
    outer(*Outer);
  }
  return *Outer;
}

StmtModel &LevelModel::stmt(const Access *X) {
  std::unique_ptr<StmtModel> &Slot = Stmts[X];
  if (Slot)
    return *Slot;
  Slot = std::make_unique<StmtModel>();
  StmtModel &S = *Slot;
  const StmtModel &Nest = nest(X->Around);
  S.X = X;
  S.Dims = Nest.Dims;
  S.Sp = Nest.Sp;
  S.Domain = Nest.Domain;
  S.Exact = Nest.Exact;
  S.Why = Nest.Why;
  if (X->AfterExit)
    inexact(S, "a 'continue', 'goto' or 'throw' before it may skip it");
  for (size_t K = 0; K < X->Subscripts.size(); ++K)
    S.Subscripts.push_back(subscript(*X, K));
  return S;
}

// Subscript K of X as a polynomial: a missing one is 0 (`*p`), and the
// range-for element is c[k].
std::optional<Poly> LevelModel::subscript(const Access &X, size_t K) {
  const Expr *Sub = X.Subscripts[K];
  if (Sub)
    return Lin.of(Sub, X.Around);
  if (X.Subscripts.size() == 1 && Loop.RangeFor && X.Var == Loop.RangeContainer &&
      X.E == Loop.RangeFor->getRangeInit())
    return Lin.ofInduction();
  return Poly::constant(0);
}

// The space and domain of statements inside the loops and guards `Around`.
const StmtModel &LevelModel::nest(const std::vector<Enclosing> &Around) {
  NestKey Key;
  for (const Enclosing &E : Around)
    Key.emplace_back(int(E.K), E.Loop, E.Cond, E.Holds);
  std::unique_ptr<StmtModel> &Slot = Nests[Key];
  if (Slot)
    return *Slot;
  Slot = std::make_unique<StmtModel>();
  StmtModel &S = *Slot;
  for (const Enclosing &E : Around)
    if (E.K == Enclosing::Counted)
      S.Dims.push_back(E.Loop);
  const StmtModel &Range = outerRange();
  // [i, inner loop variables, trip counters of strided loops]
  isl_set *D = isl_set_insert_dims(Range.Domain.copy(), isl_dim_set, 1, S.Dims.size());
  D = isl_set_set_tuple_id(D, isl_id_alloc(I, ("S" + std::to_string(Nests.size())).c_str(), nullptr));
  for (size_t K = 0; K < S.Dims.size(); ++K)
    D = isl_set_set_dim_name(D, isl_dim_set, K + 1, S.Dims[K]->Var->getNameAsString().c_str());
  S.Domain = Set(D);
  S.Sp = Space(isl_set_get_space(S.Domain.get()));
  if (!Range.Exact)
    inexact(S, Range.Why);
  std::vector<Enclosing> Prefix;
  for (const Enclosing &E : Around) {
    switch (E.K) {
    case Enclosing::Counted: {
      const unsigned Dim = 1 + (std::find(S.Dims.begin(), S.Dims.end(), E.Loop) - S.Dims.begin());
      if (E.Loop->Irregular)
        inexact(S, "the inner loop over '" + E.Loop->Var->getNameAsString() + "' is left early or changes '" +
                       E.Loop->Var->getNameAsString() + "' in its body");
      else
        counted(S, Dim, E.Loop->Lower, E.Loop->Bound, E.Loop->Compare, E.Loop->Step, Prefix,
                "the inner loop");
      break;
    }
    case Enclosing::Guard:
      if (Set C = condition(E.Cond, S, Prefix))
        S.Domain = Set(isl_set_intersect(S.Domain.release(), E.Holds ? C.release() : isl_set_complement(C.release())));
      else
        inexact(S, "the condition '" + textOrZero(E.Cond, Ctx) + "' is not affine");
      break;
    case Enclosing::Opaque:
      inexact(S, "it is inside a statement that may run it any number of times");
      break;
    }
    Prefix.push_back(E);
  }
  return S;
}

// The parameters for which the annotated loop runs two iterations or more.
Set LevelModel::twoIterations() {
  const StmtModel &Range = outerRange();
  if (!Range.Exact)
    return {};
  Map Pairs(isl_map_from_domain_and_range(Range.Domain.copy(), Range.Domain.copy()));
  Pairs = Map(isl_map_order_lt(Pairs.release(), isl_dim_in, 0, isl_dim_out, 0));
  return Set(isl_map_params(Pairs.release()));
}

std::optional<Sweep> LevelModel::sweep(const Access *X, const Poly &Element) {
  Sweep W;
  Poly Q;
  for (const auto &[Mono, C] : Element.Terms) {
    if (!Atoms.varies(Mono)) {
      Q.Terms[Mono] = C;
      continue;
    }
    if (W.Loop || Mono.size() != 1 || Atoms[Mono[0]].K != Atom::Inner)
      return std::nullopt;
    W.Loop = Atoms[Mono[0]].Loop;
    W.C = C;
  }
  if (!W.Loop || W.Loop->Irregular)
    return std::nullopt;
  auto At = llvm::find_if(X->Around, [&](const Enclosing &E) { return E.K == Enclosing::Counted && E.Loop == W.Loop; });
  if (At == X->Around.end())
    return std::nullopt;
  std::optional<std::pair<Poly, Poly>> R = Lin.range(*W.Loop, std::vector<Enclosing>(X->Around.begin(), At));
  if (!R || Atoms.varies(R->first) || Atoms.varies(R->second))
    return std::nullopt;
  const auto &[Lo, Hi] = *R;
  std::optional<Poly> A = scale(W.C > 0 ? Lo : Hi, W.C), B = scale(W.C > 0 ? Hi : Lo, W.C);
  std::optional<Poly> Least = A ? add(Q, *A) : std::nullopt, Greatest = B ? add(Q, *B) : std::nullopt;
  if (!Least || !Greatest)
    return std::nullopt;
  W.Least = std::move(*Least);
  W.Greatest = std::move(*Greatest);
  return W;
}

} // namespace gpuautopar
