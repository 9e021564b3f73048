#include "Dependence.h"
#include "ExprHelpers.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/SaveAndRestore.h"

#include <isl/ast.h>
#include <isl/ast_build.h>
#include <isl/ctx.h>
#include <isl/id.h>
#include <isl/local_space.h>
#include <isl/map.h>
#include <isl/options.h>
#include <isl/point.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/val.h>
#include <isl/aff.h>

#include <cassert>
#include <map>
#include <memory>
#include <tuple>
#include <utility>

namespace gpuautopar {
namespace {

using namespace clang;

// Owning handles for isl objects: isl's C interface takes (`__isl_take`) or
// borrows (`__isl_keep`) each argument; copy() hands out a new reference.
template <class T> struct IslTraits;
#define ISL_TRAITS(T)                                                                                               \
  template <> struct IslTraits<isl_##T> {                                                                           \
    static void free(isl_##T *P) { isl_##T##_free(P); }                                                             \
    static isl_##T *copy(isl_##T *P) { return isl_##T##_copy(P); }                                                  \
  };
ISL_TRAITS(set)
ISL_TRAITS(map)
ISL_TRAITS(pw_aff)
ISL_TRAITS(space)
ISL_TRAITS(id)
ISL_TRAITS(point)
ISL_TRAITS(ast_expr)
#undef ISL_TRAITS

template <class T> class Own {
public:
  Own() = default;
  explicit Own(T *P) : P(P) {}
  Own(const Own &O) : P(O.copy()) {}
  Own(Own &&O) noexcept : P(std::exchange(O.P, nullptr)) {}
  Own &operator=(Own O) {
    std::swap(P, O.P);
    return *this;
  }
  ~Own() {
    if (P)
      IslTraits<T>::free(P);
  }
  T *copy() const { return P ? IslTraits<T>::copy(P) : nullptr; }
  T *get() const { return P; }
  T *release() { return std::exchange(P, nullptr); }
  explicit operator bool() const { return P != nullptr; }

private:
  T *P = nullptr;
};

using Set = Own<isl_set>;
using Map = Own<isl_map>;
using PwAff = Own<isl_pw_aff>;
using Space = Own<isl_space>;

// An absent start or bound reads as 0.
std::string textOrZero(const Expr *E, const ASTContext &Ctx) { return E ? sourceText(E, Ctx) : "0"; }

// How the object's memory is laid out: runs of dimensions that are
// contiguous (a built-in array's `[4][8]`) form one block, indexed by one
// flat offset; a pointer or container element starts a new block (`T**`,
// `std::vector<std::vector<T>>`: each row is its own object).
std::vector<std::vector<int64_t>> blocks(QualType T, const ASTContext &Ctx) {
  std::vector<std::vector<int64_t>> Blocks;
  bool NewBlock = true;
  T = T.getNonReferenceType().getCanonicalType();
  for (int Level = 0; Level < 8; ++Level) {
    int64_t Extent = 0; // 0: not known where the analysis needs it
    QualType Elem;
    if (const auto *CA = dyn_cast<ConstantArrayType>(T.getTypePtr())) {
      Extent = CA->getSize().getLimitedValue(int64_t(1) << 40);
      Elem = CA->getElementType();
    } else if (const auto *AT = dyn_cast<ArrayType>(T.getTypePtr())) {
      Elem = AT->getElementType();
    } else if (T->isPointerType()) {
      Elem = T->getPointeeType();
      NewBlock = true;
    } else if (const CXXRecordDecl *RD = T->getAsCXXRecordDecl(); RD && RD->hasDefinition()) {
      auto Found = RD->lookup(&Ctx.Idents.get("value_type"));
      const auto *TD = Found.empty() ? nullptr : dyn_cast<TypedefNameDecl>(Found.front());
      if (!TD)
        break;
      Elem = TD->getUnderlyingType();
      NewBlock = true;
    } else {
      break;
    }
    if (NewBlock || Blocks.empty())
      Blocks.push_back({Extent});
    else
      Blocks.back().push_back(Extent);
    NewBlock = false;
    T = Elem.getCanonicalType();
  }
  return Blocks;
}

} // namespace

struct DependenceTest::Impl {
  Impl(const LoopAnalysis &A, const BodyModel &M, ASTContext &Ctx, const AnalysisOptions &Opts)
      : A(A), M(M), Ctx(Ctx), Opts(Opts), Lin(Ctx, M, Atoms), I(isl_ctx_alloc()) {
    isl_options_set_on_error(I, ISL_ON_ERROR_CONTINUE);
    isl_ctx_set_max_operations(I, 2000000);
    IndexName = A.Loop->Induction ? A.Loop->Induction->getNameAsString() : "k";
  }
  ~Impl() {
    Stmts.clear();
    Nests.clear();
    Outer.reset();
    Ids.clear();
    ProductIds.clear();
    isl_ctx_free(I);
  }

  // One access in its statement space: [i, inner loop variables around it].
  struct Stmt {
    const Access *X = nullptr;
    std::vector<const InnerLoop *> Dims;
    Space Sp;
    Set Domain;
    Map Rel;                // statement instance -> element(s)
    std::string Object;     // the array space's name: object and depth
    bool Exact = true;      // Domain and Rel are exact, not over-approximations
    std::string Why;        // the first thing that made them inexact
    std::vector<std::optional<Poly>> Subscripts;
    // The instances whose subscripts of a built-in array's inner dimensions
    // stay within their extents (null: no such dimension). Dimensions are
    // flattened (`b[i][j - 1]` with j = 0 is the previous row's last
    // element, and code relies on it), so these are asked only to tell a
    // conflict that needs a subscript to leave its dimension from one that
    // does not (inBoundsGuard).
    Set InBounds;
    bool BoundsKnown = false;
  };

  const LoopAnalysis &A;
  const BodyModel &M;
  ASTContext &Ctx;
  const AnalysisOptions Opts;
  AtomTable Atoms;
  Linearizer Lin;
  isl_ctx *I;
  std::string IndexName;
  std::map<unsigned, Own<isl_id>> Ids;
  std::map<Monomial, Own<isl_id>> ProductIds;
  bool ProductsAsParams = false; // set while a section is checked
  std::map<const Access *, std::unique_ptr<Stmt>> Stmts;
  // The annotated loop's range, built once: [i] with its bounds and step.
  std::unique_ptr<Stmt> Outer;
  // Statement spaces and domains, one per distinct nest of enclosing loops
  // and guards: the accesses of one statement share theirs. The domain is
  // what costs (a strided loop's `mod` above all), not the access.
  using NestKey = std::vector<std::tuple<int, const InnerLoop *, const Expr *, bool>>;
  std::map<NestKey, std::unique_ptr<Stmt>> Nests;

  void inexact(Stmt &S, std::string Why) {
    if (S.Exact)
      S.Why = std::move(Why);
    S.Exact = false;
  }

  isl_id *id(unsigned Atom) {
    auto It = Ids.find(Atom);
    if (It == Ids.end())
      It = Ids.emplace(Atom, Own<isl_id>(isl_id_alloc(I, Atoms[Atom].Spelling.c_str(),
                                                       reinterpret_cast<void *>(uintptr_t(Atom) + 1))))
               .first;
    return It->second.copy();
  }

  PwAff constant(const Space &Sp, int64_t C) {
    return PwAff(isl_pw_aff_val_on_domain(isl_set_universe(Sp.copy()), isl_val_int_from_si(I, C)));
  }

  PwAff atom(unsigned Id, const Stmt &S) {
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
    }
    return {};
  }

  // The dimension of S that holds a loop variable atom.
  std::optional<unsigned> loopDim(unsigned Id, const Stmt &S) const {
    const Atom &X = Atoms[Id];
    if (X.K == Atom::Induction)
      return 0u;
    if (X.K == Atom::Inner)
      for (size_t K = 0; K < S.Dims.size(); ++K)
        if (S.Dims[K] == X.Loop)
          return unsigned(K + 1);
    return std::nullopt;
  }

  bool isParam(unsigned Id) const { return Atoms[Id].K == Atom::Param || Atoms[Id].K == Atom::Size; }

  // Whether `Mono` is a product of parameters (`n*m`), which a section's
  // check reads as one more parameter: its claims hold for every value of
  // that parameter, so also for the product's. The dependence test does not,
  // as a proven dependence must be one that the product's value allows.
  bool productParam(const Monomial &Mono) const {
    return ProductsAsParams && Mono.size() > 1 && llvm::all_of(Mono, [&](unsigned Id) { return isParam(Id); });
  }

  isl_id *productId(const Monomial &Mono) {
    auto It = ProductIds.find(Mono);
    if (It == ProductIds.end()) {
      std::string Name;
      for (unsigned Id : Mono)
        Name += (Name.empty() ? "" : "*") + Atoms[Id].Spelling;
      // Atoms' ids are small numbers plus one; these start far above them.
      void *User = reinterpret_cast<void *>((uintptr_t(1) << 40) + ProductIds.size());
      It = ProductIds.emplace(Mono, Own<isl_id>(isl_id_alloc(I, Name.c_str(), User))).first;
    }
    return It->second.copy();
  }

  // Aff + C * the parameter for atom Id.
  isl_aff *addParam(isl_aff *Aff, unsigned Id, int64_t C) { return addParam(Aff, Own<isl_id>(id(Id)), C); }

  isl_aff *addParam(isl_aff *Aff, Own<isl_id> Name, int64_t C) {
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
  PwAff pa(const Poly &P, const Stmt &S) {
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
        Direct = addParam(Direct, Own<isl_id>(productId(Mono)), C);
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

  PwAff pa(const Expr *E, const Stmt &S, const std::vector<Enclosing> &Around) {
    std::optional<Poly> P = Lin.of(E, Around);
    return P ? pa(*P, S) : PwAff();
  }

  // `L Op R` as a set (Op one of <, <=, >, >=, ==). Two single-piece
  // expressions are compared directly, which costs isl a fraction of the
  // piecewise comparison that the general case needs.
  Set compare(PwAff L, PwAff R, BinaryOperatorKind Op) {
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

  // `Var Compare Bound`, Var starting at Lower and moving by Step (0: not a
  // constant), as constraints on dimension `Dim` of S.
  void counted(Stmt &S, unsigned Dim, const Expr *Lower, const Expr *Bound, LoopCompare Cmp, int64_t Step,
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

  Set condition(const Expr *C, const Stmt &S, const std::vector<Enclosing> &Around) {
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
  void outer(Stmt &S) {
    const CanonicalLoop &L = *A.Loop;
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
  int64_t annotatedStep() const {
    const CanonicalLoop &L = *A.Loop;
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
  const Stmt &outerRange() {
    if (!Outer) {
      Outer = std::make_unique<Stmt>();
      Outer->Sp = Space(isl_space_set_dim_name(isl_space_set_alloc(I, 0, 1), isl_dim_set, 0, IndexName.c_str()));
      Outer->Domain = Set(isl_set_universe(Outer->Sp.copy()));
      outer(*Outer);
    }
    return *Outer;
  }

  Stmt &stmt(const Access *X) {
    std::unique_ptr<Stmt> &Slot = Stmts[X];
    if (Slot)
      return *Slot;
    Slot = std::make_unique<Stmt>();
    Stmt &S = *Slot;
    const Stmt &Nest = nest(X->Around);
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
  std::optional<Poly> subscript(const Access &X, size_t K) {
    const Expr *Sub = X.Subscripts[K];
    if (Sub)
      return Lin.of(Sub, X.Around);
    if (X.Subscripts.size() == 1 && A.Loop->RangeFor && X.Var == A.Loop->RangeContainer &&
        X.E == A.Loop->RangeFor->getRangeInit())
      return Lin.ofInduction();
    return Poly::constant(0);
  }

  // The space and domain of statements inside the loops and guards `Around`.
  const Stmt &nest(const std::vector<Enclosing> &Around) {
    NestKey Key;
    for (const Enclosing &E : Around)
      Key.emplace_back(int(E.K), E.Loop, E.Cond, E.Holds);
    std::unique_ptr<Stmt> &Slot = Nests[Key];
    if (Slot)
      return *Slot;
    Slot = std::make_unique<Stmt>();
    Stmt &S = *Slot;
    for (const Enclosing &E : Around)
      if (E.K == Enclosing::Counted)
        S.Dims.push_back(E.Loop);
    const Stmt &Range = outerRange();
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

  // One dimension of an access relation: the element exactly, a range of
  // `Count` elements from it, or anything.
  Map dimension(const Stmt &S, const PwAff &At, int64_t Count) {
    Space Range(isl_space_set_alloc(I, 0, 1));
    if (!At)
      return Map(isl_map_from_domain_and_range(isl_set_universe(S.Sp.copy()), isl_set_universe(Range.release())));
    Map Exact(isl_map_from_pw_aff(At.copy()));
    if (Count == 1)
      return Exact;
    Map Spread(isl_map_read_from_str(I, ("{ [x] -> [y] : x <= y < x + " + std::to_string(Count) + " }").c_str()));
    return Map(isl_map_apply_range(Exact.release(), Spread.release()));
  }

  // The access relations of one object's accesses, over one common layout.
  void relations(llvm::ArrayRef<const Access *> Xs) {
    std::vector<std::vector<int64_t>> Layout = blocks(Xs.front()->ObjectType, Ctx);
    // A type the layout does not see into (a dependent type in a template):
    // each further subscript indexes its own object, like a container's.
    size_t Known = 0, Needed = 0;
    for (const std::vector<int64_t> &B : Layout)
      Known += B.size();
    for (const Access *X : Xs)
      Needed = std::max(Needed, X->Subscripts.size());
    for (; Known < Needed; ++Known)
      Layout.push_back({0});
    // Per access: one flat offset per block it indexes; a row (fewer
    // subscripts than the block has dimensions) is a range.
    struct Flat {
      std::vector<std::optional<Poly>> Offsets;
      std::vector<int64_t> Counts;
    };
    std::vector<Flat> Flats;
    for (const Access *X : Xs) {
      Stmt &S = stmt(X);
      Flat F;
      size_t Next = 0;
      // Bounds are the dependence test's question, asked in its own terms
      // (a section proof reads products of parameters as parameters).
      const bool SeekBounds = !S.BoundsKnown && !ProductsAsParams;
      S.BoundsKnown = S.BoundsKnown || SeekBounds;
      for (const std::vector<int64_t> &Block : Layout) {
        if (Next >= S.Subscripts.size())
          break;
        std::optional<Poly> Offset = Poly::constant(0);
        int64_t Count = 1;
        for (size_t D = 0; D < Block.size(); ++D) {
          int64_t Stride = 1;
          for (size_t E = D + 1; E < Block.size() && Stride; ++E)
            Stride = Block[E] > 0 && Stride < (int64_t(1) << 40) ? Stride * Block[E] : 0;
          if (Next < S.Subscripts.size()) {
            std::optional<Poly> Sub = S.Subscripts[Next++];
            if (SeekBounds && D > 0 && Block[D] > 0 && Sub)
              assumeWithin(S, *Sub, Block[D]);
            if (Offset && Sub && Stride) {
              std::optional<Poly> Scaled = scale(*Sub, Stride);
              Offset = Scaled ? add(*Offset, *Scaled) : std::nullopt;
            } else {
              if (Offset && Sub && !Stride)
                inexact(S, "a dimension of '" + X->Name + "' has no constant extent");
              Offset.reset();
            }
          } else {
            // A row: the remaining dimensions, all of them.
            Count = Stride && Block[D] > 0 ? Block[D] * Stride : 0;
            if (!Count)
              Offset.reset();
            break;
          }
        }
        F.Offsets.push_back(Offset);
        F.Counts.push_back(Count);
      }
      if (Next < S.Subscripts.size()) // more subscripts than the type has dimensions
        F.Offsets.assign(F.Offsets.size(), std::nullopt);
      Flats.push_back(std::move(F));
    }
    // A block indexed with loop-invariant strides (`a[i*n + j]`,
    // `a[(i*ny + j)*nz + k]`) is split into a row and columns when every
    // column provably stays in [0, its stride).
    size_t Depth = 0;
    for (const Flat &F : Flats)
      Depth = std::max(Depth, F.Offsets.size());
    std::vector<std::vector<unsigned>> Strides(Depth); // innermost first
    for (size_t B = 0; B < Depth; ++B)
      for (const Flat &F : Flats)
        if (B < F.Offsets.size() && F.Offsets[B] && Strides[B].empty())
          Strides[B] = strides(*F.Offsets[B]);
    for (size_t K = 0; K < Xs.size(); ++K) {
      Stmt &S = stmt(Xs[K]);
      const Flat &F = Flats[K];
      S.Object = Xs[K]->Name + "#" + std::to_string(F.Offsets.size());
      Map Rel;
      for (size_t B = 0; B < F.Offsets.size(); ++B) {
        std::vector<Map> Dims;
        const std::optional<Poly> &Off = F.Offsets[B];
        if (!Off && S.Exact)
          inexact(S, nonAffineReason(*Xs[K], S));
        if (!Strides[B].empty()) {
          // Off = ((Row * n1 + C1) * n2 + C2) ...: the row, then the columns
          // outermost first.
          std::vector<PwAff> Parts(Strides[B].size() + 1);
          std::optional<Poly> Rest = Off;
          bool Ok = Off.has_value() && F.Counts[B] == 1;
          for (size_t D = 0; D < Strides[B].size() && Ok; ++D) {
            const unsigned N = Strides[B][D];
            Poly Row, Column;
            for (const auto &[Mono, C] : Rest->Terms) {
              auto It = std::find(Mono.begin(), Mono.end(), N);
              if (It == Mono.end()) {
                Column.Terms[Mono] = C;
              } else {
                Monomial Shorter = Mono;
                Shorter.erase(Shorter.begin() + (It - Mono.begin()));
                Row.Terms[Shorter] = C;
              }
            }
            PwAff Col = pa(Column, S);
            bool Inside = Col && columnInRow(S, Col, N);
            // The stride may be spelled into the column: `(ns - j) * nc + nc - 1 - i`
            // reads as row ns - j + 1 and column -1 - i; moving one row back
            // into the column gives row ns - j and column nc - 1 - i.
            for (int64_t Shift : {1, -1}) {
              if (Inside)
                break;
              std::optional<Poly> Steps = scale(Poly::atom(N), Shift);
              std::optional<Poly> Moved = Steps ? add(Column, *Steps) : std::nullopt;
              std::optional<Poly> Fewer = add(Row, Poly::constant(-Shift));
              PwAff MovedCol = Moved ? pa(*Moved, S) : PwAff();
              if (MovedCol && Fewer && columnInRow(S, MovedCol, N)) {
                Col = std::move(MovedCol);
                Row = std::move(*Fewer);
                Inside = true;
              }
            }
            if (!Inside) {
              inexact(S, "subscript of '" + Xs[K]->Name + "' may leave a row of length '" + Atoms[N].Spelling + "'");
              Ok = false;
              break;
            }
            Parts[Strides[B].size() - D] = std::move(Col);
            Rest = std::move(Row);
          }
          if (Ok) {
            Parts[0] = pa(*Rest, S);
            if (!Parts[0]) {
              inexact(S, nonAffineReason(*Xs[K], S));
              Ok = false;
            }
          }
          if (!Ok)
            for (PwAff &P : Parts)
              P = PwAff();
          for (const PwAff &P : Parts)
            Dims.push_back(dimension(S, P, 1));
        } else {
          PwAff At = Off ? pa(*Off, S) : PwAff();
          if (Off && !At)
            inexact(S, nonAffineReason(*Xs[K], S));
          if (F.Counts[B] != 1)
            inexact(S, "a row of '" + Xs[K]->Name + "' is passed on as a whole");
          Dims.push_back(dimension(S, At, F.Counts[B]));
        }
        for (Map &D : Dims)
          Rel = Rel ? Map(isl_map_flat_range_product(Rel.release(), D.release())) : std::move(D);
      }
      if (!Rel) // the object itself (`*p` of a scalar pointer has one block; this is `s` in `s = ...`)
        Rel = Map(isl_map_from_domain_and_range(isl_set_universe(S.Sp.copy()),
                                                isl_set_universe(isl_space_set_alloc(I, 0, 0))));
      S.Rel = Map(isl_map_set_tuple_name(Rel.release(), isl_dim_out, S.Object.c_str()));
    }
  }

  // The strides of a flattened subscript, innermost first: `n` for
  // `i*n + j`; `nz`, then `ny` for `(i*ny + j)*nz + k`, which expands to
  // `i*ny*nz + j*nz + k`. Each is an invariant atom that every product of a
  // loop variable with invariants still has; where none is common, the one
  // invariant of the first such product (its row check then fails).
  std::vector<unsigned> strides(Poly P) {
    std::vector<unsigned> Out;
    for (int Level = 0; Level < 4; ++Level) {
      std::optional<std::vector<unsigned>> Common;
      std::optional<unsigned> FirstSingle;
      bool First = true;
      for (const auto &[Mono, C] : P.Terms) {
        if (Mono.size() < 2 || !Atoms.varies(Mono))
          continue;
        std::vector<unsigned> Fixed;
        for (unsigned Id : Mono)
          if (!Atoms[Id].Varies)
            Fixed.push_back(Id);
        if (First && Fixed.size() == 1)
          FirstSingle = Fixed.front();
        First = false;
        if (!Common) {
          Common = Fixed;
          continue;
        }
        std::vector<unsigned> Both;
        for (unsigned Id : *Common)
          if (llvm::is_contained(Fixed, Id))
            Both.push_back(Id);
        Common = std::move(Both);
      }
      if (!Common)
        break; // no product left: the row is affine
      std::optional<unsigned> N = !Common->empty() ? std::optional(Common->back()) : FirstSingle;
      if (!N)
        break;
      Out.push_back(*N);
      Poly Row;
      for (const auto &[Mono, C] : P.Terms) {
        auto It = std::find(Mono.begin(), Mono.end(), *N);
        if (It == Mono.end())
          continue;
        Monomial Shorter = Mono;
        Shorter.erase(Shorter.begin() + (It - Mono.begin()));
        Row.Terms[Shorter] = C;
      }
      P = std::move(Row);
      if (Common->empty())
        break;
    }
    return Out;
  }

  bool columnInRow(const Stmt &S, const PwAff &Col, unsigned StrideAtom) {
    PwAff N = atom(StrideAtom, S);
    if (!N)
      return false;
    auto never = [&](Set Outside) {
      Outside = Set(isl_set_intersect(Outside.release(), S.Domain.copy()));
      return isl_set_is_empty(Outside.get()) == isl_bool_true;
    };
    return never(compare(Col, constant(S.Sp, 0), BO_LT)) && never(compare(Col, std::move(N), BO_GE));
  }

  std::string nonAffineReason(const Access &X, const Stmt &S) {
    for (size_t K = 0; K < X.Subscripts.size(); ++K)
      if (!S.Subscripts[K] || !pa(*S.Subscripts[K], S))
        return "subscript '" + textOrZero(X.Subscripts[K], Ctx) + "' is not affine in the loop variables";
    std::string Subs;
    for (const Expr *E : X.Subscripts)
      Subs += "[" + textOrZero(E, Ctx) + "]";
    return "subscript '" + X.Name + Subs + "' is not affine in the loop variables";
  }

  // The parameters for which the annotated loop runs two iterations or more.
  Set twoIterations() {
    const Stmt &Range = outerRange();
    if (!Range.Exact)
      return {};
    Map Pairs(isl_map_from_domain_and_range(Range.Domain.copy(), Range.Domain.copy()));
    Pairs = Map(isl_map_order_lt(Pairs.release(), isl_dim_in, 0, isl_dim_out, 0));
    return Set(isl_map_params(Pairs.release()));
  }

  // Narrows S.InBounds to the instances where `Sub` lies in [0, Extent).
  void assumeWithin(Stmt &S, const Poly &Sub, int64_t Extent) {
    PwAff At = pa(Sub, S);
    if (!At)
      return;
    Set Within(isl_set_intersect(compare(At, constant(S.Sp, 0), BO_GE).release(),
                                 compare(At, constant(S.Sp, Extent), BO_LT).release()));
    S.InBounds = S.InBounds ? Set(isl_set_intersect(S.InBounds.release(), Within.release())) : std::move(Within);
  }

  // The instances of S that run; with Within, only those whose subscripts
  // stay inside the dimensions of a built-in array.
  Set running(const Stmt &S, bool Within) {
    return Within && S.InBounds ? Set(isl_set_intersect(S.Domain.copy(), S.InBounds.copy())) : S.Domain;
  }

  // Pairs (x, y) of instances of X and Y in different iterations of the
  // annotated loop that touch the same element.
  Map conflicts(const Stmt &X, const Stmt &Y, bool Within) {
    // Compose the plain access functions first (cheap), then restrict both
    // ends to the instances that run.
    Map D(isl_map_apply_range(X.Rel.copy(), isl_map_reverse(Y.Rel.copy())));
    D = Map(isl_map_intersect_range(isl_map_intersect_domain(D.release(), running(X, Within).release()),
                                    running(Y, Within).release()));
    Map Lt(isl_map_order_lt(D.copy(), isl_dim_in, 0, isl_dim_out, 0));
    return Map(isl_map_union(Lt.release(), isl_map_order_gt(D.release(), isl_dim_in, 0, isl_dim_out, 0)));
  }

  // Whether the conflicts happen for every value of the parameters (but
  // finitely many) for which the loop has two iterations and both accesses
  // run: `a[j] += 1` for j < m conflicts whenever m >= 1, and with m <= 0
  // there is nothing to conflict.
  bool always(const Map &D, const Stmt &X, const Stmt &Y) {
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
    return isl_set_is_bounded(Missing.get()) == isl_bool_true;
  }

  bool mentionsInduction(const Poly &P) {
    for (const auto &[Mono, C] : P.Terms)
      for (unsigned Id : Mono) {
        const Atom &X = Atoms[Id];
        if (X.K == Atom::Induction || (X.A && mentionsInduction(*X.A)) || (X.B && mentionsInduction(*X.B)))
          return true;
      }
    return false;
  }

  std::string element(const Stmt &S, const std::function<std::optional<int64_t>(unsigned)> &Value) {
    std::string Out = S.X->Name;
    for (const std::optional<Poly> &Sub : S.Subscripts) {
      std::optional<int64_t> V = Sub ? evaluate(*Sub, Atoms, Value) : std::nullopt;
      Out += "[" + (V ? std::to_string(*V) : std::string("?")) + "]";
    }
    return Out;
  }

  // A pair of iterations in `D`, as a sentence.
  std::string witness(const Map &D, const Stmt &X, const Stmt &Y) {
    Set W(isl_set_flatten(isl_map_wrap(D.copy())));
    const isl_size NP = isl_set_dim(W.get(), isl_dim_param);
    if (NP < 0)
      return "";
    std::vector<unsigned> ParamAtoms;
    for (isl_size K = 0; K < NP; ++K) {
      Own<isl_id> Id(isl_set_get_dim_id(W.get(), isl_dim_param, K));
      ParamAtoms.push_back(unsigned(reinterpret_cast<uintptr_t>(isl_id_get_user(Id.get())) - 1));
    }
    W = Set(isl_set_move_dims(W.release(), isl_dim_set, 0, isl_dim_param, 0, NP));
    const isl_size N = isl_set_dim(W.get(), isl_dim_set);
    Set Small = W;
    for (isl_size K = 0; K < N; ++K)
      Small = Set(isl_set_lower_bound_si(Small.release(), isl_dim_set, K, 0));
    Own<isl_point> P(isl_set_is_empty(Small.get()) == isl_bool_false
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
    auto valueIn = [&](const Stmt &S, unsigned Base) {
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

  // Whether different iterations provably touch different elements without
  // an isl problem: every access has one subscript `c*i + q_k`, with one
  // number c != 0 for all and offsets q_k that differ from each other by
  // numbers (`a[i + off]`, `a[i + off + 1]`). Iterations i != i' lie a
  // multiple of the step s apart, so a write at c*i + q_k and an access at
  // c*i' + q_l meet only if c*s divides q_l - q_k: equal offsets never meet
  // across iterations, and `a[i] = b[i + 1]; b[i] = a[i + 1]` with s = 2
  // never meets at all. This holds whatever the guards and inner loops, and
  // covers the commonest loops (`y[i] = a * x[i] + y[i]`). With more
  // subscripts an inner one may leave its row (`b[i][j - 1]` at j = 0):
  // isl decides those, and the offsets that c*s divides (a witness needs
  // the trip count).
  bool separatedWithoutIsl(llvm::ArrayRef<const Access *> Xs) {
    std::vector<Poly> Subs;
    int64_t C = 0;
    for (const Access *X : Xs) {
      if (X->Subscripts.size() != 1)
        return false;
      std::optional<Poly> P = subscript(*X, 0);
      if (!P)
        return false;
      int64_t Coefficient = 0;
      for (const auto &[Mono, K] : P->Terms) {
        if (!Atoms.varies(Mono))
          continue;
        if (Mono.size() != 1 || Atoms[Mono.front()].K != Atom::Induction)
          return false;
        Coefficient = K;
      }
      if (Coefficient == 0 || (C != 0 && Coefficient != C))
        return false;
      C = Coefficient;
      Subs.push_back(std::move(*P));
    }
    // An unknown step is taken as 1: iterations are then any distance apart.
    const int64_t Step = annotatedStep() == 0 ? 1 : annotatedStep();
    const int64_t Limit = int64_t(1) << 31;
    if (C <= -Limit || C >= Limit)
      return false;
    const int64_t Period = C * Step < 0 ? -(C * Step) : C * Step;
    for (size_t K = 0; K < Xs.size(); ++K) {
      if (!Xs[K]->Write)
        continue;
      for (size_t L = 0; L < Xs.size(); ++L) {
        if (L == K)
          continue;
        std::optional<Poly> Minus = scale(Subs[K], -1);
        std::optional<Poly> Apart = Minus ? add(Subs[L], *Minus) : std::nullopt;
        if (!Apart || !Apart->isConstant())
          return false;
        const int64_t D = Apart->constantTerm();
        if (D != 0 && D % Period == 0)
          return false;
      }
    }
    return true;
  }

  // Whether every access has the same one subscript `(c*i + r)*w + x + q`
  // (a flat 2-D array, `b[y*w + x]`): w loop-invariant, c != 0 a number, r
  // loop-invariant, x the variable of a counted inner loop that provably
  // keeps x + q in [0, w), q a number. Each iteration then keeps to its own
  // row c*i + r, and different iterations touch different elements: isl
  // would build the nest, split the subscript into row and column and prove
  // the same.
  bool rowsWithoutIsl(llvm::ArrayRef<const Access *> Xs) {
    std::optional<Poly> First;
    const Access *Any = nullptr;
    for (const Access *X : Xs) {
      if (X->Subscripts.size() != 1)
        return false;
      std::optional<Poly> P = subscript(*X, 0);
      if (!P || (First && *P != *First))
        return false;
      First = std::move(P);
      Any = X;
    }
    // The row length w: the other factor of the induction's term.
    std::optional<unsigned> Width;
    for (const auto &[Mono, C] : First->Terms)
      if (Mono.size() == 2 && (Atoms[Mono[0]].K == Atom::Induction) != (Atoms[Mono[1]].K == Atom::Induction)) {
        const unsigned W = Atoms[Mono[0]].K == Atom::Induction ? Mono[1] : Mono[0];
        if (Atoms[W].Varies || !isParam(W))
          return false;
        Width = W;
      }
    if (!Width)
      return false;
    std::optional<unsigned> Column;
    int64_t Offset = 0;
    for (const auto &[Mono, C] : First->Terms) {
      const bool InRow = std::find(Mono.begin(), Mono.end(), *Width) != Mono.end();
      if (InRow) {
        Monomial Rest = Mono;
        Rest.erase(std::find(Rest.begin(), Rest.end(), *Width));
        if (Rest.size() == 1 && Atoms[Rest[0]].K == Atom::Induction)
          continue; // c*i*w (c != 0: terms are never 0)
        if (Atoms.varies(Rest))
          return false;
      } else if (Mono.empty()) {
        Offset = C;
      } else if (Mono.size() == 1 && C == 1 && Atoms[Mono[0]].K == Atom::Inner && !Column) {
        Column = Mono[0];
      } else {
        return false;
      }
    }
    if (!Column)
      return false;
    const InnerLoop *L = Atoms[*Column].Loop;
    if (!L || L->Irregular || L->Step == 0)
      return false;
    // The enclosing statements of the inner loop itself: its bounds are read there.
    std::vector<Enclosing> Prefix;
    for (const Enclosing &E : Any->Around) {
      if (E.K == Enclosing::Counted && E.Loop == L)
        break;
      Prefix.push_back(E);
    }
    std::optional<std::pair<Poly, Poly>> R = Lin.range(*L, Prefix);
    if (!R)
      return false;
    const Poly &Least = R->first, &Most = R->second;
    // Least + q >= 0 and Most + q - w <= -1, both numbers.
    std::optional<Poly> Low = add(Least, Poly::constant(Offset));
    std::optional<Poly> MinusW = scale(Poly::atom(*Width), -1);
    std::optional<Poly> HighPart = add(Most, Poly::constant(Offset));
    std::optional<Poly> High = HighPart && MinusW ? add(*HighPart, *MinusW) : std::nullopt;
    return Low && High && Low->isConstant() && Low->constantTerm() >= 0 && High->isConstant() &&
           High->constantTerm() <= -1;
  }

  static std::optional<Poly> minus(const Poly &A, const Poly &B) {
    std::optional<Poly> MinusB = scale(B, -1);
    return MinusB ? add(A, *MinusB) : std::nullopt;
  }

  // `A - B` when it is a number.
  static std::optional<int64_t> difference(const Poly &A, const Poly &B) {
    std::optional<Poly> D = minus(A, B);
    return D && D->isConstant() ? std::optional(D->constantTerm()) : std::nullopt;
  }

  // An element `Q + C*x` where only x, the variable of one counted inner
  // loop, moves: its least and greatest values by that loop's header
  // (Linearizer::range), with the loop.
  struct Sweep {
    Poly Least, Greatest;
    const InnerLoop *Loop = nullptr;
    int64_t C = 0;
  };
  std::optional<Sweep> sweep(const Access *X, const Poly &Element) {
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

  // Whether every instance of X has `Lo <= P <= Hi`, on its domain.
  bool between(const Access *X, const Poly &P, const Poly &Lo, const Poly &Hi) {
    Stmt &S = stmt(X);
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
    if (Opts.ExactShortcuts) {
      // An element that does not move, or that one inner loop sweeps, with
      // its ends a number inside the part's. (A strided sweep whose length
      // is not a number ends at its bound, past its last value: when that
      // lies outside, isl tells.)
      std::optional<Sweep> W = Atoms.varies(Element) ? sweep(X, Element) : std::nullopt;
      const Poly &Least = W ? W->Least : Element, &Greatest = W ? W->Greatest : Element;
      std::optional<int64_t> Above = difference(Least, Offset), Below = difference(*Last, Greatest);
      if ((W || !Atoms.varies(Element)) && Above && Below && *Above >= 0 && *Below >= 0)
        return true;
    }
    return between(X, Element, Offset, *Last) || withinRows(X, Element, Offset, *Last);
  }

  // [i, e] for every instance of X, e its section subscript.
  Set sectionPoints(const Access *X, const Poly &Element) {
    Stmt &S = stmt(X);
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
    // One access that sweeps the whole part by ones, in a loop that is all
    // there is around it.
    for (size_t K = 0; K < Xs.size() && Opts.ExactShortcuts; ++K) {
      if (Xs[K]->Around.size() != 1 || Xs[K]->AfterExit)
        continue;
      std::optional<Sweep> W = sweep(Xs[K], Elements[K]);
      if (!W || (W->C != 1 && W->C != -1) || (W->Loop->Step != 1 && W->Loop->Step != -1))
        continue;
      std::optional<int64_t> Before = difference(Offset, W->Least), After = difference(W->Greatest, *Last);
      if (Before && After && *Before >= 0 && *After >= 0)
        return true;
    }
    bool Fixed = Opts.ExactShortcuts && Extent.isConstant() && Extent.constantTerm() <= 64;
    std::vector<bool> Hit(Fixed ? size_t(std::max<int64_t>(Extent.constantTerm(), 0)) : 0);
    for (size_t K = 0; K < Xs.size() && Fixed; ++K) {
      std::optional<Poly> Into = add(Elements[K], *MinusOffset);
      Fixed = Xs[K]->Around.empty() && !Xs[K]->AfterExit && Into && Into->isConstant();
      if (Fixed && Into->constantTerm() >= 0 && Into->constantTerm() < int64_t(Hit.size()))
        Hit[size_t(Into->constantTerm())] = true;
    }
    if (Fixed)
      return llvm::all_of(Hit, [](bool H) { return H; });
    Set Touched;
    for (size_t K = 0; K < Xs.size(); ++K) {
      if (!stmt(Xs[K]).Exact)
        return false;
      Set Points = sectionPoints(Xs[K], Elements[K]);
      if (!Points)
        return false;
      Touched = Touched ? Set(isl_set_union(Touched.release(), Points.release())) : std::move(Points);
    }
    // [i, e]: the annotated loop's range on i (a strided one adds a trip
    // counter, and is not asked), the part on e.
    const Stmt &Range = outerRange();
    if (!Range.Exact || isl_set_dim(Range.Domain.get(), isl_dim_set) != 1 || !Touched)
      return false;
    Stmt Box;
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
    llvm::SaveAndRestore<bool> Products(ProductsAsParams, true);
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

  DependenceVerdict test(llvm::ArrayRef<const Access *> Xs) {
    if (Opts.ExactShortcuts && (separatedWithoutIsl(Xs) || rowsWithoutIsl(Xs)))
      return DependenceVerdict{};
    isl_ctx_reset_operations(I);
    relations(Xs);
    DependenceVerdict V = search(Xs, false);
    if (V.K == DependenceVerdict::Independent)
      return V;
    // `a[i][j]` of a `T a[][64]` with `j < m` conflicts only when m > 64:
    // independent wherever the subscripts stay inside their dimensions,
    // which the rewritten loop checks before it runs.
    if (std::optional<ParamCondition> G = inBoundsGuard(Xs)) {
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

  // The condition on the loop's parameters under which no access of `Xs`
  // leaves a dimension of a built-in array; none where no access could,
  // where isl cannot say it in plain arithmetic, or where it never holds
  // while the loop runs two iterations.
  std::optional<ParamCondition> inBoundsGuard(llvm::ArrayRef<const Access *> Xs) {
    Set Outside;
    for (const Access *X : Xs) {
      const Stmt &S = stmt(X);
      if (!S.InBounds)
        continue;
      if (!S.Exact)
        return std::nullopt;
      Set Params(isl_set_params(isl_set_subtract(S.Domain.copy(), S.InBounds.copy())));
      Outside = Outside ? Set(isl_set_union(Outside.release(), Params.release())) : std::move(Params);
    }
    // Where the loop has fewer than two iterations, or none of these
    // accesses runs, the guard's value does not matter.
    Set Runs = twoIterations(), Touches;
    for (const Access *X : Xs) {
      Set Params(isl_set_params(stmt(X).Domain.copy()));
      Touches = Touches ? Set(isl_set_union(Touches.release(), Params.release())) : std::move(Params);
    }
    if (!Outside || !Runs || !Touches)
      return std::nullopt;
    Runs = Set(isl_set_intersect(Runs.release(), Touches.release()));
    Set Within(isl_set_subtract(Runs.copy(), Outside.release()));
    if (!Within || isl_set_is_empty(Within.get()) != isl_bool_false)
      return std::nullopt;
    Within = Set(isl_set_gist(isl_set_coalesce(Within.release()), Runs.release()));
    if (!Within)
      return std::nullopt;
    isl_ast_build *Build = isl_ast_build_from_context(isl_set_universe(isl_set_get_space(Within.get())));
    Own<isl_ast_expr> E(isl_ast_build_expr_from_set(Build, Within.release()));
    isl_ast_build_free(Build);
    return E ? condition(E.get()) : std::nullopt;
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
      Own<isl_ast_expr> Arg(isl_ast_expr_op_get_arg(E, K));
      std::optional<ParamCondition> Sub = Arg ? condition(Arg.get()) : std::nullopt;
      if (!Sub)
        return std::nullopt;
      C.Args.push_back(std::move(*Sub));
    }
    return C;
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
        Stmt &X = stmt(Xs[W]), &Y = stmt(Xs[O]);
        if (X.Object != Y.Object)
          continue; // different depths of a pointer-to-pointer: different objects
        Map D = conflicts(X, Y, Within);
        const isl_bool Empty = isl_map_is_empty(D.get());
        if (Empty == isl_bool_true)
          continue;
        const bool Certain = Empty == isl_bool_false && X.Exact && Y.Exact && !Xs[W]->MayWrite &&
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
        else if (Xs[W]->MayWrite || (!Xs[O]->Read && Xs[O]->MayWrite))
          Unknown.Why = "it may be written through a reference or a member call";
        else
          Unknown.Why = "iterations conflict only for some values of the loop's parameters (" + witness(D, X, Y) + ")";
      }
    }
    return SawUnknown ? Unknown : DependenceVerdict{};
  }
};

DependenceTest::DependenceTest(const LoopAnalysis &A, const BodyModel &M, ASTContext &Ctx,
                               const AnalysisOptions &Opts)
    : P(std::make_unique<Impl>(A, M, Ctx, Opts)) {}
DependenceTest::~DependenceTest() = default;

DependenceVerdict DependenceTest::test(llvm::ArrayRef<const Access *> Accesses) {
  assert(!Accesses.empty() && "an object has at least one access");
  return P->test(Accesses);
}

SectionProof DependenceTest::proveSection(llvm::ArrayRef<const Access *> Accesses, llvm::ArrayRef<Poly> Subscripts,
                                          const Poly &Scale, llvm::ArrayRef<std::pair<Poly, Poly>> Parts,
                                          bool AskDense) {
  assert(!Accesses.empty() && !Parts.empty() && "a section of something");
  assert(Subscripts.size() == Accesses.size() && "one subscript per access");
  return P->proveSection(Accesses, Subscripts, Scale, Parts, AskDense);
}

AtomTable &DependenceTest::atoms() { return P->Atoms; }
Linearizer &DependenceTest::linearizer() { return P->Lin; }

} // namespace gpuautopar
