#include "model/LoopModel.h"

#include "gpuautopar/LoopAnalyzer.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

#include <isl/aff.h>
#include <isl/ctx.h>
#include <isl/id.h>
#include <isl/local_space.h>
#include <isl/options.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/val.h>

#include <atomic>
#include <cassert>

namespace gpuautopar {

using namespace clang;

namespace {
// Every isl context the analysis allocates, for a test that the model is
// built once per loop nest (--print-isl-contexts).
std::atomic<unsigned> ContextsMade{0};
} // namespace

unsigned islContextsMade() { return ContextsMade.load(); }

void LoopModel::ContextDeleter::operator()(isl_ctx *I) const { isl_ctx_free(I); }

LoopModel::LoopModel(const CanonicalLoop &Loop, const BodyModel &Body, ASTContext &Ctx, const AnalysisOptions &Opts)
    : Loop(Loop), Body(Body), Ctx(Ctx), Opts(Opts), I(isl_ctx_alloc()) {
  ++ContextsMade;
  // Errors and the operations limit make isl return null, which each query
  // reads as "cannot tell"; no question may take longer than this.
  isl_options_set_on_error(I.get(), ISL_ON_ERROR_CONTINUE);
  isl_ctx_set_max_operations(I.get(), 2000000);
}

LoopModel::~LoopModel() = default;

LevelModel &LoopModel::forDependence() {
  if (!Dependence)
    Dependence = std::make_unique<LevelModel>(I.get(), Loop, Body, Ctx, Opts, Products::Unknown);
  return *Dependence;
}

LevelModel &LoopModel::forSections() {
  if (!Sections)
    Sections = std::make_unique<LevelModel>(I.get(), Loop, Body, Ctx, Opts, Products::AsParams);
  return *Sections;
}

std::unique_ptr<LevelModel> LoopModel::collapsedLevel(const CanonicalLoop &Inner, const BodyModel &InnerBody) {
  return std::make_unique<LevelModel>(I.get(), Inner, InnerBody, Ctx, Opts, Products::Unknown);
}

LevelModel::LevelModel(isl_ctx *I, const CanonicalLoop &Loop, const BodyModel &Body, ASTContext &Ctx,
                       const AnalysisOptions &Opts, Products Reading)
    : Lin(Ctx, Body, Atoms), I(I), Opts(Opts), Loop(Loop), Ctx(Ctx),
      IndexName(Loop.Induction ? Loop.Induction->getNameAsString() : "k"), Reading(Reading) {}

LevelModel::~LevelModel() = default;

void LevelModel::inexact(StmtModel &S, std::string Why) {
  if (S.Exact)
    S.Why = std::move(Why);
  S.Exact = false;
}

isl_id *LevelModel::id(unsigned Atom) {
  auto It = Ids.find(Atom);
  if (It == Ids.end())
    It = Ids.emplace(Atom, IslId(isl_id_alloc(I, Atoms[Atom].Spelling.c_str(),
                                                     reinterpret_cast<void *>(uintptr_t(Atom) + 1))))
             .first;
  return It->second.copy();
}

PwAff LevelModel::constant(const Space &Sp, int64_t C) {
  return PwAff(isl_pw_aff_val_on_domain(isl_set_universe(Sp.copy()), isl_val_int_from_si(I, C)));
}

PwAff LevelModel::atom(unsigned Id, const StmtModel &S) {
  const Atom &X = Atoms[Id];
  switch (X.K) {
  case Atom::Induction:
    return PwAff(isl_pw_aff_var_on_domain(isl_local_space_from_space(S.Sp.copy()), isl_dim_set, 0));
  case Atom::Inner:
    for (size_t K = 0; K < S.Dims.size(); ++K)
      if (S.Dims[K] == X.Loop)
        return PwAff(isl_pw_aff_var_on_domain(isl_local_space_from_space(S.Sp.copy()), isl_dim_set, K + 1));
    return {};
  case Atom::Param:
  case Atom::Size:
    return PwAff(isl_pw_aff_param_on_domain_id(isl_set_universe(S.Sp.copy()), id(Id)));
  case Atom::Div:
  case Atom::Mod: {
    PwAff Num = pa(*X.A, S);
    if (!Num)
      return {};
    PwAff Den = constant(S.Sp, X.Divisor);
    return PwAff(X.K == Atom::Div ? isl_pw_aff_tdiv_q(Num.release(), Den.release())
                                  : isl_pw_aff_tdiv_r(Num.release(), Den.release()));
  }
  case Atom::Min:
  case Atom::Max: {
    PwAff L = pa(*X.A, S), R = pa(*X.B, S);
    if (!L || !R)
      return {};
    return PwAff(X.K == Atom::Min ? isl_pw_aff_min(L.release(), R.release())
                                  : isl_pw_aff_max(L.release(), R.release()));
  }
  case Atom::Select: {
    PwAff Test = pa(*X.Test, S), Then = pa(*X.A, S), Else = pa(*X.B, S);
    if (!Test || !Then || !Else)
      return {};
    Set Holds(X.TestZero ? isl_pw_aff_zero_set(Test.release())
                         : isl_pw_aff_le_set(Test.release(), constant(S.Sp, 0).release()));
    // Then where the condition holds, Else elsewhere (pieces on disjoint sets).
    Set Fails(isl_set_complement(Holds.copy()));
    return PwAff(isl_pw_aff_union_add(isl_pw_aff_intersect_domain(Then.release(), Holds.release()),
                                      isl_pw_aff_intersect_domain(Else.release(), Fails.release())));
  }
  }
  return {};
}

// The dimension of S that holds a loop variable atom.
std::optional<unsigned> LevelModel::loopDim(unsigned Id, const StmtModel &S) const {
  const Atom &X = Atoms[Id];
  if (X.K == Atom::Induction)
    return 0u;
  if (X.K == Atom::Inner)
    for (size_t K = 0; K < S.Dims.size(); ++K)
      if (S.Dims[K] == X.Loop)
        return unsigned(K + 1);
  return std::nullopt;
}

bool LevelModel::isParam(unsigned Id) const { return Atoms[Id].K == Atom::Param || Atoms[Id].K == Atom::Size; }

// Whether `Mono` is a product of parameters (`n*m`), which a section's
// check reads as one more parameter: its claims hold for every value of
// that parameter, so also for the product's. The dependence test does not,
// as a proven dependence must be one that the product's value allows.
bool LevelModel::productParam(const Monomial &Mono) const {
  return Reading == Products::AsParams && Mono.size() > 1 && llvm::all_of(Mono, [&](unsigned Id) { return isParam(Id); });
}

isl_id *LevelModel::productId(const Monomial &Mono) {
  auto It = ProductIds.find(Mono);
  if (It == ProductIds.end()) {
    std::string Name;
    for (unsigned Id : Mono)
      Name += (Name.empty() ? "" : "*") + Atoms[Id].Spelling;
    // Atoms' ids are small numbers plus one; these start far above them.
    void *User = reinterpret_cast<void *>((uintptr_t(1) << 40) + ProductIds.size());
    It = ProductIds.emplace(Mono, IslId(isl_id_alloc(I, Name.c_str(), User))).first;
  }
  return It->second.copy();
}

// Aff + C * the parameter for atom Id.
isl_aff *LevelModel::addParam(isl_aff *Aff, unsigned Id, int64_t C) { return addParam(Aff, IslId(id(Id)), C); }

isl_aff *LevelModel::addParam(isl_aff *Aff, IslId Name, int64_t C) {
  Space Sp(isl_aff_get_domain_space(Aff));
  int Pos = isl_space_find_dim_by_id(Sp.get(), isl_dim_param, Name.get());
  if (Pos < 0) {
    Pos = isl_aff_dim(Aff, isl_dim_param);
    Aff = isl_aff_add_dims(Aff, isl_dim_param, 1);
    Aff = isl_aff_set_dim_id(Aff, isl_dim_param, Pos, Name.copy());
  }
  return isl_aff_add_coefficient_val(Aff, isl_dim_param, Pos, isl_val_int_from_si(I, C));
}

// `P` on S's space; nothing where it is not affine (a product of two
// values that are not constants).
PwAff LevelModel::pa(const Poly &P, const StmtModel &S) {
  // Constants and loop variables go into one quasi-affine expression
  // directly; only the other atoms pay for piecewise arithmetic.
  isl_aff *Direct = isl_aff_zero_on_domain(isl_local_space_from_space(S.Sp.copy()));
  for (const auto &[Mono, C] : P.Terms)
    if (Mono.empty())
      Direct = isl_aff_add_constant_val(Direct, isl_val_int_from_si(I, C));
    else if (std::optional<unsigned> Dim = Mono.size() == 1 ? loopDim(Mono[0], S) : std::nullopt)
      Direct = isl_aff_add_coefficient_val(Direct, isl_dim_in, int(*Dim), isl_val_int_from_si(I, C));
    else if (Mono.size() == 1 && isParam(Mono[0]))
      Direct = addParam(Direct, Mono[0], C);
    else if (productParam(Mono))
      Direct = addParam(Direct, IslId(productId(Mono)), C);
  PwAff Sum(isl_pw_aff_from_aff(Direct));
  for (const auto &[Mono, C] : P.Terms) {
    if (Mono.empty() || (Mono.size() == 1 && (loopDim(Mono[0], S) || isParam(Mono[0]))) || productParam(Mono))
      continue;
    PwAff Term;
    if (Mono.size() == 1)
      Term = atom(Mono[0], S);
    if (!Term)
      return {};
    if (!Mono.empty() && C != 1)
      Term = PwAff(isl_pw_aff_scale_val(Term.release(), isl_val_int_from_si(I, C)));
    Sum = PwAff(isl_pw_aff_add(Sum.release(), Term.release()));
  }
  return Sum;
}

PwAff LevelModel::pa(const Expr *E, const StmtModel &S, const std::vector<Enclosing> &Around) {
  std::optional<Poly> P = Lin.of(E, Around);
  return P ? pa(*P, S) : PwAff();
}

// `L Op R` as a set (Op one of <, <=, >, >=, ==). Two single-piece
// expressions are compared directly, which costs isl a fraction of the
// piecewise comparison that the general case needs.
Set LevelModel::compare(PwAff L, PwAff R, BinaryOperatorKind Op) {
  if (isl_pw_aff_isa_aff(L.get()) == isl_bool_true && isl_pw_aff_isa_aff(R.get()) == isl_bool_true) {
    isl_aff *A = isl_pw_aff_as_aff(L.release()), *B = isl_pw_aff_as_aff(R.release());
    A = isl_aff_align_params(A, isl_aff_get_space(B));
    B = isl_aff_align_params(B, isl_aff_get_space(A));
    isl_basic_set *C = nullptr;
    switch (Op) {
    case BO_LT: C = isl_aff_lt_basic_set(A, B); break;
    case BO_LE: C = isl_aff_le_basic_set(A, B); break;
    case BO_GT: C = isl_aff_gt_basic_set(A, B); break;
    case BO_GE: C = isl_aff_ge_basic_set(A, B); break;
    default: C = isl_aff_eq_basic_set(A, B); break;
    }
    return Set(isl_set_from_basic_set(C));
  }
  switch (Op) {
  case BO_LT: return Set(isl_pw_aff_lt_set(L.release(), R.release()));
  case BO_LE: return Set(isl_pw_aff_le_set(L.release(), R.release()));
  case BO_GT: return Set(isl_pw_aff_gt_set(L.release(), R.release()));
  case BO_GE: return Set(isl_pw_aff_ge_set(L.release(), R.release()));
  default: return Set(isl_pw_aff_eq_set(L.release(), R.release()));
  }
}

} // namespace gpuautopar
