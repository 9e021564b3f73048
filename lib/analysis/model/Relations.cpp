#include "model/LoopModel.h"
#include "ExprHelpers.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"

#include <isl/aff.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/space.h>

#include <algorithm>

// The access relations of the model: each access's subscripts, flattened
// over the object's memory layout, as a map from statement instances to
// elements.

namespace gpuautopar {

using namespace clang;

namespace {

// How the object's memory is laid out: runs of dimensions that are
// contiguous (a built-in array's `[4][8]`) form one block, indexed by one
// flat offset; a pointer or container element starts a new block (`T**`,
// `std::vector<std::vector<T>>`: each row is its own object). A dimension
// of variable length (`double b[n][m]`, after the first) starts a block
// too, with the extent VariableExtent: its subscript is a coordinate of its
// own, kept inside [0, the row's run-time length) by a bounds condition.
constexpr int64_t VariableExtent = -1;

std::vector<std::vector<int64_t>> objectLayout(QualType T, const ASTContext &Ctx) {
  std::vector<std::vector<int64_t>> Blocks;
  bool NewBlock = true;
  T = T.getNonReferenceType().getCanonicalType();
  for (int Level = 0; Level < 8; ++Level) {
    int64_t Extent = 0; // 0: not known where the analysis needs it
    QualType Elem;
    if (const auto *CA = dyn_cast<ConstantArrayType>(T.getTypePtr())) {
      Extent = CA->getSize().getLimitedValue(int64_t(1) << 40);
      Elem = CA->getElementType();
    } else if (const auto *VA = dyn_cast<VariableArrayType>(T.getTypePtr())) {
      // `[3]` beside a dimension of variable length is one too, to clang.
      const Expr *Size = VA->getSizeExpr();
      std::optional<llvm::APSInt> Known = Size ? Size->getIntegerConstantExpr(Ctx) : std::nullopt;
      Extent = Known && Known->isStrictlyPositive() ? Known->getLimitedValue(int64_t(1) << 40) : VariableExtent;
      Elem = VA->getElementType();
      NewBlock = NewBlock || Extent == VariableExtent;
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

// One dimension of an access relation: the element exactly, a range of
// `Count` elements from it, or anything.
Map LevelModel::dimension(const StmtModel &S, const PwAff &At, int64_t Count) {
  Space Range(isl_space_set_alloc(I, 0, 1));
  if (!At)
    return Map(isl_map_from_domain_and_range(isl_set_universe(S.Sp.copy()), isl_set_universe(Range.release())));
  Map Exact(isl_map_from_pw_aff(At.copy()));
  if (Count == 1)
    return Exact;
  Map Spread(isl_map_read_from_str(I, ("{ [x] -> [y] : x <= y < x + " + std::to_string(Count) + " }").c_str()));
  return Map(isl_map_apply_range(Exact.release(), Spread.release()));
}

// `rows[i][j]` of a `double **` or a `std::vector<float *>`: the element is
// reached through a pointer the object holds, and nothing says two such
// pointers point to different rows (an array of arrays, or a container of
// containers, owns distinct rows).
bool rowsThroughPointers(QualType T, size_t Subscripts, const ASTContext &Ctx) {
  T = T.getNonReferenceType().getCanonicalType();
  for (size_t Level = 0; Level + 1 < Subscripts; ++Level) {
    QualType Elem;
    if (const auto *AT = dyn_cast<ArrayType>(T.getTypePtr()))
      Elem = AT->getElementType();
    else if (T->isPointerType())
      Elem = T->getPointeeType();
    else if (const CXXRecordDecl *RD = T->getAsCXXRecordDecl(); RD && RD->hasDefinition()) {
      auto Found = RD->lookup(&const_cast<ASTContext &>(Ctx).Idents.get("value_type"));
      const auto *TD = Found.empty() ? nullptr : dyn_cast<TypedefNameDecl>(Found.front());
      if (!TD)
        return false;
      Elem = TD->getUnderlyingType();
    } else {
      return false;
    }
    T = Elem.getCanonicalType();
    if (T->isPointerType())
      return true;
  }
  return false;
}

// Per access: one flat offset per block of the layout it indexes; a row
// (fewer subscripts than the block has dimensions) is a range of Count.
struct LevelModel::Flat {
  std::vector<std::optional<Poly>> Offsets;
  std::vector<int64_t> Counts;
};

std::vector<LevelModel::Flat> LevelModel::flatOffsets(llvm::ArrayRef<const Access *> Xs) {
  std::vector<std::vector<int64_t>> Layout = objectLayout(Xs.front()->ObjectType, Ctx);
  // A type the layout does not see into (a dependent type in a template):
  // each further subscript indexes its own object, like a container's.
  size_t Known = 0, Needed = 0;
  for (const std::vector<int64_t> &B : Layout)
    Known += B.size();
  for (const Access *X : Xs)
    Needed = std::max(Needed, X->Subscripts.size());
  for (; Known < Needed; ++Known)
    Layout.push_back({0});
  std::vector<Flat> Flats;
  for (const Access *X : Xs) {
    StmtModel &S = stmt(X);
    Flat F;
    size_t Next = 0;
    // Bounds are the dependence test's question, asked in its own terms
    // (a section proof reads products of parameters as parameters).
    const bool SeekBounds = !S.BoundsKnown && Reading == Products::Unknown;
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
            assumeWithin(S, *Sub, constant(S.Sp, Block[D]));
          if (SeekBounds && Block[D] == VariableExtent && Next > 1 && Sub) {
            if (PwAff Extent = rowLength(*X, Next - 1, S)) {
              // A row of a variable-length array has an element at least.
              S.Domain = Set(isl_set_intersect(S.Domain.release(),
                                               compare(Extent, constant(S.Sp, 1), BO_GE).release()));
              assumeWithin(S, *Sub, std::move(Extent));
              S.SplitRows = true;
            }
            else
              inexact(S, "a dimension of '" + X->Name + "' has no constant extent");
          }
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
  return Flats;
}

void LevelModel::relations(llvm::ArrayRef<const Access *> Xs) {
  std::vector<Flat> Flats = flatOffsets(Xs);
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
    StmtModel &S = stmt(Xs[K]);
    // A row of a container of containers (`m[i - 1]` beside `m[i][0]`)
    // indexes fewer blocks: it is every element of the blocks it leaves out.
    const size_t Blocks = Flats[K].Offsets.empty() ? 0 : Depth;
    S.Object = Xs[K]->Name + "#" + std::to_string(Blocks);
    Map Rel = relation(*Xs[K], S, Flats[K], Strides);
    S.Rel = Map(isl_map_set_tuple_name(Rel.release(), isl_dim_out, S.Object.c_str()));
  }
}

// X's access relation, block by block: one dimension per flat offset, or
// a row and its columns for a block with strides.
Map LevelModel::relation(const Access &X, StmtModel &S, const Flat &F,
                         const std::vector<std::vector<unsigned>> &Strides) {
  Map Rel;
  for (size_t B = 0; B < F.Offsets.size(); ++B) {
    std::vector<Map> Dims;
    const std::optional<Poly> &Off = F.Offsets[B];
    if (!Off && S.Exact)
      inexact(S, nonAffineReason(X, S));
    if (!Strides[B].empty()) {
      std::vector<PwAff> Parts(Strides[B].size() + 1);
      if (!(Off && F.Counts[B] == 1 && rowAndColumns(X, S, *Off, Strides[B], Parts)))
        for (PwAff &P : Parts)
          P = PwAff();
      for (const PwAff &P : Parts)
        Dims.push_back(dimension(S, P, 1));
    } else {
      PwAff At = Off ? pa(*Off, S) : PwAff();
      if (Off && !At)
        inexact(S, nonAffineReason(X, S));
      if (F.Counts[B] != 1 && X.RowInside) {
        S.Over = true;
      } else if (F.Counts[B] != 1) {
        inexact(S, "a row of '" + X.Name + "' is passed on as a whole");
        if (X.RowDecays && B + 1 == F.Offsets.size())
          At = PwAff(); // a pointer into it may go anywhere in the object
      }
      Dims.push_back(dimension(S, At, F.Counts[B]));
    }
    for (Map &D : Dims)
      Rel = Rel ? Map(isl_map_flat_range_product(Rel.release(), D.release())) : std::move(D);
  }
  for (size_t B = F.Offsets.size(); !F.Offsets.empty() && B < Strides.size(); ++B)
    for (size_t D = 0; D < (Strides[B].empty() ? 1 : Strides[B].size() + 1); ++D)
      Rel = Map(isl_map_flat_range_product(Rel.release(), dimension(S, PwAff(), 1).release()));
  if (!Rel) // the object itself (`*p` of a scalar pointer has one block; this is `s` in `s = ...`)
    Rel = Map(isl_map_from_domain_and_range(isl_set_universe(S.Sp.copy()),
                                            isl_set_universe(isl_space_set_alloc(I, 0, 0))));
  return Rel;
}

// Off = ((Row * n1 + C1) * n2 + C2) ...: the row, then the columns
// outermost first, into Parts; false (S made inexact) where a column may
// leave its row or the row is not affine.
bool LevelModel::rowAndColumns(const Access &X, StmtModel &S, const Poly &Off, const std::vector<unsigned> &Strides,
                               std::vector<PwAff> &Parts) {
  Poly Rest = Off;
  for (size_t D = 0; D < Strides.size(); ++D) {
    const unsigned N = Strides[D];
    Poly Row, Column;
    for (const auto &[Mono, C] : Rest.Terms) {
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
      inexact(S, "subscript of '" + X.Name + "' may leave a row of length '" + Atoms[N].Spelling + "'");
      return false;
    }
    Parts[Strides.size() - D] = std::move(Col);
    Rest = std::move(Row);
  }
  Parts[0] = pa(Rest, S);
  if (!Parts[0]) {
    inexact(S, nonAffineReason(X, S));
    return false;
  }
  return true;
}

// The strides of a flattened subscript, innermost first: `n` for
// `i*n + j`; `nz`, then `ny` for `(i*ny + j)*nz + k`, which expands to
// `i*ny*nz + j*nz + k`. Each is an invariant atom that every product of a
// loop variable with invariants still has; where none is common, the one
// invariant of the first such product (its row check then fails).
std::vector<unsigned> LevelModel::strides(Poly P) {
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

bool LevelModel::columnInRow(const StmtModel &S, const PwAff &Col, unsigned StrideAtom) {
  PwAff N = atom(StrideAtom, S);
  if (!N)
    return false;
  auto never = [&](Set Outside) {
    Outside = Set(isl_set_intersect(Outside.release(), S.Domain.copy()));
    return isl_set_is_empty(Outside.get()) == isl_bool_true;
  };
  return never(compare(Col, constant(S.Sp, 0), BO_LT)) && never(compare(Col, std::move(N), BO_GE));
}

std::string LevelModel::nonAffineReason(const Access &X, const StmtModel &S) {
  for (size_t K = 0; K < X.Subscripts.size(); ++K)
    if (!S.Subscripts[K] || !pa(*S.Subscripts[K], S))
      return "subscript '" + textOrZero(X.Subscripts[K], Ctx) + "' is not affine in the loop variables";
  std::string Subs;
  for (const Expr *E : X.Subscripts)
    Subs += "[" + textOrZero(E, Ctx) + "]";
  return "subscript '" + X.Name + Subs + "' is not affine in the loop variables";
}

// The run-time length of dimension `Level` (> 0) of the variable-length
// array `X` indexes, as a parameter the rewritten code can evaluate where
// the loop stands: `sizeof(b[0]) / sizeof(b[0][0])` is b's row length
// whatever has happened to the `m` of its declaration since. Nothing for an
// array reached through a member.
PwAff LevelModel::rowLength(const Access &X, size_t Level, const StmtModel &S) {
  if (!X.Var || X.ThroughMember)
    return {};
  std::string Row = X.Var->getNameAsString();
  for (size_t K = 1; K < Level; ++K)
    Row += "[0]";
  Atom A{Atom::Size};
  A.Root = X.Var;
  A.Divisor = int64_t(Level); // v.size() has 0
  A.Spelling = "sizeof(" + Row + "[0]) / sizeof(" + Row + "[0][0])";
  return pa(Poly::atom(Atoms.intern(std::move(A))), S);
}

// Narrows S.InBounds to the instances where `Sub` lies in [0, Extent).
void LevelModel::assumeWithin(StmtModel &S, const Poly &Sub, PwAff Extent) {
  PwAff At = pa(Sub, S);
  if (!At)
    return;
  Set Within(isl_set_intersect(compare(At, constant(S.Sp, 0), BO_GE).release(),
                               compare(At, std::move(Extent), BO_LT).release()));
  S.InBounds = S.InBounds ? Set(isl_set_intersect(S.InBounds.release(), Within.release())) : std::move(Within);
}

} // namespace gpuautopar
