// Data-map inference for kernel-mode loops, read off the body model.
//
// For every array-like variable declared outside the body (raw pointer,
// built-in array, std::vector, std::array) the model's accesses to it give
// what is read and written, and each access's first subscript, put in
// polynomial form by the linearizer the dependence test uses, gives the
// elements one iteration touches: `Scale*i + Offset` plus `Extent` elements,
// with the ranges of the counted inner loops around the access folded into
// Offset and Extent. When every access shares one coefficient of the loop
// variable, one section covers them; when they differ by numbers, in a loop
// by ones, one section of scale 0 covers what the whole loop touches;
// otherwise the whole object is mapped (a raw pointer then needs its extent
// from a map clause).
//
// A section is only used once isl proves it on the dependence test's own
// iteration domains: every element an iteration touches lies in it, and,
// for a `from` map, every element of it is written. So a map can never
// disagree with the legality verdict read off the same relations, and a
// mistake in the walk above costs a wider map, not a lost write.
#include "gpuautopar/DataMap.h"
#include "ConditionSpelling.h"
#include "Spelling.h"
#include "model/AffinePoly.h"
#include "model/BodyModel.h"
#include "Containers.h"
#include "MemberReach.h"
#include "query/Bounds.h"
#include "query/Sections.h"
#include "gpuautopar/Diagnostics.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/Diagnostic.h"

#include <algorithm>
#include <cassert>
#include <map>

namespace gpuautopar {
namespace {

using namespace clang;

// The elements one access touches in iteration i: [Scale*i + Offset,
// Scale*i + Offset + Extent), all three loop-invariant; a hull, which isl
// then checks (it may have holes: `p[i*8 + 2*j]`).
struct Footprint {
  Poly Scale, Offset, Extent;
};

// Splits `P` into its number and the rest.
std::pair<Poly, int64_t> symbolsAndNumber(Poly P) {
  const int64_t N = P.constantTerm();
  P.Terms.erase(Monomial{});
  return {std::move(P), N};
}

class Inference {
public:
  Inference(LoopAnalysis &A, const BodyModel &M, LoopModel &Nest, DiagnosticsEngine &Diags, bool MayRunOnHost)
      : A(A), M(M), Diags(Diags), Model(Nest.forSections()), Dependence(Nest.forDependence()), Atoms(Model.Atoms),
        Lin(Model.Lin), MayRunOnHost(MayRunOnHost) {}

  // The first raw pointer whose extent cannot be known, where the loop may run on CPU threads instead.
  struct UnsizedPointer {
    std::string Name;
    std::string Code; // as a map clause names it: "p", "s.p", "this->p"
    const clang::CXXMethodDecl *Accessor; // reached through it: the member may be private
    SourceLocation At;
    const char *MapKind;
  };
  std::optional<UnsizedPointer> Unsized;

  // What a map is of: a variable, or a member reached from one or from `this`.
  struct Object {
    const VarDecl *Var = nullptr;        // a member's root (null: `this`)
    const MemberPath *Member = nullptr;
    QualType Type;
    std::string name() const { return Member ? Member->Name : Var->getNameAsString(); }
  };

  bool run(const MemberReach &Members) {
    // The model's accesses per object, in the order the body names them; a
    // range-for's container first. Members are told apart by their paths.
    using Key = std::pair<const VarDecl *, std::string>;
    std::vector<std::pair<Key, Object>> Order;
    std::map<Key, std::vector<const Access *>> ByObject;
    auto Note = [&](const Access &X, Object O) {
      Key K{X.Var, O.Member ? O.Member->Name : std::string()};
      auto [It, New] = ByObject.try_emplace(K);
      if (New)
        Order.push_back({K, O});
      It->second.push_back(&X);
    };
    assert((!A.Loop->RangeFor || containerKind(A.Loop->RangeContainer->getType())) &&
           "classification keeps a range over anything else off the GPU");
    for (const Access &X : M.Accesses)
      if (isRangeElement(X))
        Note(X, Object{X.Var, nullptr, X.Var->getType()});
    for (const Access &X : M.Accesses) {
      // A private array is the body's own copy (firstprivate: captured whole).
      if ((X.Var && llvm::is_contained(A.Clauses.Privates, X.Var)) || isRangeElement(X))
        continue;
      if (X.ThroughMember) {
        // Classification kept the loop off the GPU for the members no map copies.
        auto P = Members.Mapped.find(X.Name);
        if (P != Members.Mapped.end() && containerKind(X.ObjectType))
          Note(X, Object{X.Var, &P->second,
                         P->second.Accessor // mapped as the pointer `&d.x(0)`
                             ? P->second.Accessor->getASTContext().getPointerType(
                                   P->second.Accessor->getReturnType().getNonReferenceType())
                             : X.ObjectType});
        continue;
      }
      if (X.Var && containerKind(X.Var->getType()))
        Note(X, Object{X.Var, nullptr, X.Var->getType()});
    }

    bool Ok = true;
    for (const auto &[K, O] : Order)
      Ok = use(O, ByObject[K]) && Ok;
    // Variables and members only named in map clauses (e.g. alloc scratch)
    // are mapped too.
    for (const MapClause &C : A.Clauses.Maps) {
      MemberPath P;
      P.Root = C.Var;
      P.Fields = C.Fields;
      for (const FieldDecl *F : C.Fields)
        P.Name += (P.Name.empty() ? "" : ".") + F->getNameAsString();
      if (C.Var && !C.Fields.empty())
        P.Name = C.Var->getNameAsString() + "." + P.Name;
      const QualType T = C.Fields.empty() ? (C.Var ? C.Var->getType() : QualType()) : C.Fields.back()->getType();
      if (T.isNull() || ByObject.count(Key{C.Var, P.Name}))
        continue;
      if (std::optional<ContainerKind> Kind = containerKind(T)) {
        ArrayUse Use;
        Use.Var = C.Var;
        if (!C.Fields.empty())
          Use.Member = std::move(P);
        Use.Container = *Kind;
        Use.FirstUse = C.Loc;
        Use.Kind = C.Kind;
        A.Arrays.push_back(std::move(Use));
      }
    }
    return Ok;
  }

  // What the body does with `V` (its accesses `Xs`) and how its map copies
  // it, appended to A.Arrays. Reports a raw pointer whose extent cannot be
  // known, and returns false then.
  bool use(const Object &O, const std::vector<const Access *> &Xs) {
    const VarDecl *V = O.Var;
    const ContainerKind Kind = *containerKind(O.Type);
    ArrayUse Use;
    Use.Var = V;
    if (O.Member)
      Use.Member = *O.Member;
    Use.Container = Kind;
    Use.FirstUse = Xs.front()->NameLoc;
    bool Partial = false; // some write may not happen, or covers part of an element
    bool Whole = false;   // an access no section describes
    for (const Access *X : Xs) {
      if (X->SizeOnly)
        continue;
      if (!X->Element || X->AddressTaken) {
        // x.data(), pointer arithmetic, `&x[k]`, passing x on: what is
        // reached from there cannot be told; conservatively read, and
        // written unless its elements are const.
        Use.Read = true;
        Use.Written |= !constElements(O.Type, Kind);
        Whole = true;
        continue;
      }
      Use.Read |= X->Read;
      Use.Written |= X->Write;
      if (X->Write && (X->MayWrite || X->Subscripts.size() > 1 || X->AfterExit || !everyIteration(*X)))
        Partial = true;
    }
    // Writes through a local reference or pointer bound to one of its elements
    // (for a member: bound to anything of its root).
    for (const BodyModel::AliasWrite &W : M.AliasWrites)
      if (V && W.Target == V)
        Use.Written = Use.Read = Partial = true;
    if (!Whole)
      Use.Section = section(Xs, /*Widen=*/Kind != ContainerKind::RawPointer);
    // Only with a unit step do the iterations' sections tile the chunk's
    // hull; with i += 5 the elements between would come back as garbage.
    const bool UnitStep = A.Loop->RangeFor || !A.Loop->Step;
    Use.WritesWholeSection = UnitStep && Use.Written && !Use.Read && !Partial && Use.Section &&
                             Use.Section->Parts.size() == 1 && TilesChunk;
    const MapClause *Clause = O.Member ? clauseFor(*O.Member) : clauseFor(V);
    Use.Kind = Clause ? Clause->Kind : inferredKind(Use);
    Use.ReadOnlyLoads = !Use.Written && Use.Kind == MapKind::To && loadsOnly(O, Kind, Xs);
    bool Ok = true;
    if (!Use.Section && Kind == ContainerKind::RawPointer && (!Clause || Clause->Length.empty())) {
      const char *MapKind = Use.Written ? (Use.Read ? "tofrom" : "from") : "to";
      if (MayRunOnHost) {
        if (!Unsized)
          Unsized = UnsizedPointer{O.name(), O.Member ? memberCode(*O.Member) : O.name(),
                                   O.Member ? O.Member->Accessor : nullptr,
                                   Use.FirstUse, MapKind};
      } else {
        report(Diags, Diag::MapNeedsLength, Use.FirstUse) << (O.Member ? memberCode(*O.Member) : O.name()) << MapKind;
        Ok = false;
      }
    }
    A.Arrays.push_back(std::move(Use));
    return Ok;
  }

  // The section of `V` one iteration touches, as a map of it would have; no
  // diagnostics (loops outside kernel mode use it for their alias checks).
  std::optional<AffineSection> sectionOf(const VarDecl *V, StringRef Name) {
    std::vector<const Access *> Xs;
    for (const Access &X : M.Accesses) {
      if (X.Var != V || X.SizeOnly || (X.ThroughMember && X.Name != Name))
        continue;
      if (X.Name != Name || !X.Element || X.AddressTaken)
        return std::nullopt;
      Xs.push_back(&X);
    }
    return Xs.empty() ? std::nullopt : section(Xs);
  }

private:
  // Written arrays go back; an array only written, one element per iteration
  // and every element of its section, need not come in (`from`).
  static MapKind inferredKind(const ArrayUse &U) {
    if (!U.Written)
      return MapKind::To;
    return U.WritesWholeSection ? MapKind::From : MapKind::ToFrom;
  }

  const MapClause *clauseFor(const VarDecl *V) const {
    for (const MapClause &C : A.Clauses.Maps)
      if (C.Var == V && C.Fields.empty())
        return &C;
    return nullptr;
  }
  // The clause naming member `P` (`map(to: s.p[0:n])`); none names a member
  // reached through an accessor, whose path the clause would not have.
  const MapClause *clauseFor(const MemberPath &P) const {
    for (const MapClause &C : A.Clauses.Maps)
      if (!C.Fields.empty() && !P.Accessor && C.Var == P.Root && C.Fields == P.Fields)
        return &C;
    return nullptr;
  }

  // Whether the elements of `V` are numbers that every access loads by
  // value: a subscript read that is converted to its value (no reference
  // bound to it, no address taken, nothing passed by reference), outside a
  // range-for over V (its element is a reference).
  bool loadsOnly(const Object &O, ContainerKind Kind, const std::vector<const Access *> &Xs) const {
    const VarDecl *V = O.Member ? nullptr : O.Var;
    const QualType E = elementType(O.Type, Kind);
    const auto *B = E.isNull() ? nullptr : dyn_cast<BuiltinType>(E.getCanonicalType().getTypePtr());
    if (!B || !(B->isInteger() || B->getKind() == BuiltinType::Float || B->getKind() == BuiltinType::Double) ||
        B->getKind() == BuiltinType::Bool || B->getKind() == BuiltinType::Int128 ||
        B->getKind() == BuiltinType::UInt128 || (A.Loop->RangeFor && V == A.Loop->RangeContainer))
      return false;
    for (const Access *X : Xs) {
      if (X->SizeOnly)
        continue;
      if (!X->Element || X->AddressTaken || X->Write || X->MayWrite || X->Subscripts.size() != 1 ||
          !X->Subscripts.front() || !loadedByValue(*X))
        return false;
    }
    return true;
  }

  // Whether `X`, `x[k]` or `v[k]`, is only read for its value.
  static bool loadedByValue(const Access &X) {
    const Expr *E = X.E;
    return X.LoadedByValue && (isa<ArraySubscriptExpr>(E) || X.AccessorOf || (isa<CXXOperatorCallExpr>(E) &&
                                                               cast<CXXOperatorCallExpr>(E)->getOperator() == OO_Subscript));
  }

  // Whether nothing can write the elements of `V` (`const float *`,
  // `const std::vector<float> &`).
  static bool constElements(QualType Object, ContainerKind Kind) {
    const QualType T = Object.getNonReferenceType();
    return T.isConstQualified() || elementType(T, Kind).isConstQualified();
  }

  // Only counted inner loops lie around the access: it runs in every iteration.
  static bool everyIteration(const Access &X) {
    return std::all_of(X.Around.begin(), X.Around.end(), [](const Enclosing &E) {
      return E.K == Enclosing::Counted && !E.Loop->Irregular;
    });
  }

  // The element `x` of `for (auto &x : c)`, which the model keeps as `c[k]`.
  bool isRangeElement(const Access &X) const {
    return A.Loop->RangeFor && X.Var == A.Loop->RangeContainer && X.E == A.Loop->RangeFor->getRangeInit();
  }

  // The first subscript of `X`, with the range-for element `c[k]` as k.
  std::optional<Poly> firstSubscript(const Access &X) {
    if (isRangeElement(X))
      return Lin.ofInduction();
    const Expr *Sub = X.Subscripts.front();
    return Sub ? Lin.of(Sub, X.Around) : std::optional<Poly>(Poly::constant(0));
  }

  // Whether the atoms of `P` that change from one iteration to the next are
  // all the annotated loop's variable.
  bool movesOnlyWithInduction(const Poly &P) const {
    for (const auto &[Mono, C] : P.Terms)
      for (unsigned Id : Mono)
        if (Atoms[Id].Varies && Atoms[Id].K != Atom::Induction)
          return false;
    return true;
  }

  // [Low, High] of the values the counted loop `Loop` gives its variable in
  // one iteration: invariant, or moving with the annotated loop's variable
  // (tiles: `for (k = 16*t; k < 16*t + 16; k++)`).
  std::optional<std::pair<Poly, Poly>> range(const InnerLoop &Loop, const std::vector<Enclosing> &Outside) {
    std::optional<std::pair<Poly, Poly>> R = Lin.range(Loop, Outside);
    if (!R || !movesOnlyWithInduction(R->first) || !movesOnlyWithInduction(R->second))
      return std::nullopt;
    return R;
  }

  // `P` over one iteration. c*j over j in [lo, hi] adds c*lo to the start
  // (c*hi for a negative c) and |c|*(hi - lo) to the extent, which must not
  // change from iteration to iteration (a triangular range does: the whole
  // object is mapped). The start is then Scale*i + Offset.
  std::optional<Footprint> footprint(const Poly &P, const Access &X) {
    Poly Start;
    Poly Extent = Poly::constant(1);
    for (const auto &[Mono, C] : P.Terms) {
      const Poly Term{{{Mono, C}}};
      std::vector<unsigned> Inner;
      for (unsigned Id : Mono)
        if (Atoms[Id].Varies && Atoms[Id].K != Atom::Induction)
          Inner.push_back(Id);
      std::optional<Poly> NewStart, NewExtent = Extent;
      if (Inner.empty()) {
        NewStart = add(Start, Term);
      } else {
        // A copy: linearizing the loop's bounds may add atoms, which moves them.
        const Atom Var = Atoms[Inner.front()];
        if (Inner.size() > 1 || Var.K != Atom::Inner)
          return std::nullopt;
        // The variable's coefficient: C times the invariants beside it (`nz`
        // in `j*nz`, a row's stride), taken as positive; the section's
        // proof checks that (query/Sections.h, proveSection).
        Monomial Beside = Mono;
        Beside.erase(std::find(Beside.begin(), Beside.end(), Inner.front()));
        if (Atoms.varies(Beside))
          return std::nullopt;
        const Poly Coef{{{Beside, C}}}, AbsCoef{{{Beside, C > 0 ? C : -C}}};
        // The loop's bounds as seen outside it.
        auto At = std::find_if(X.Around.begin(), X.Around.end(),
                               [&](const Enclosing &E) { return E.K == Enclosing::Counted && E.Loop == Var.Loop; });
        assert(At != X.Around.end() && "an inner loop's variable is used inside the loop");
        std::optional<std::pair<Poly, Poly>> R = range(*Var.Loop, std::vector<Enclosing>(X.Around.begin(), At));
        if (!R)
          return std::nullopt;
        const auto &[Low, High] = *R;
        std::optional<Poly> From = multiply(C > 0 ? Low : High, Coef), MinusLow = scale(Low, -1);
        std::optional<Poly> Span = MinusLow ? add(High, *MinusLow) : std::nullopt;
        if (Span && Atoms.varies(*Span)) {
          // A triangle: the width changes with i. Each iteration gets the
          // range's hull over the whole loop, which is wider than what it
          // touches; only where the runtime clips sections to the object.
          std::optional<std::pair<Poly, Poly>> Hull = Widen ? overAllIterations(Low, High) : std::nullopt;
          if (!Hull)
            return std::nullopt;
          From = multiply(C > 0 ? Hull->first : Hull->second, Coef);
          MinusLow = scale(Hull->first, -1);
          Span = MinusLow ? add(Hull->second, *MinusLow) : std::nullopt;
        }
        if (!From || !Span || Atoms.varies(*Span))
          return std::nullopt;
        std::optional<Poly> Grow = multiply(*Span, AbsCoef);
        NewStart = add(Start, *From);
        NewExtent = Grow ? add(Extent, *Grow) : std::nullopt;
      }
      if (!NewStart || !NewExtent)
        return std::nullopt;
      Start = std::move(*NewStart);
      Extent = std::move(*NewExtent);
    }
    Footprint F;
    F.Extent = std::move(Extent);
    for (const auto &[Mono, C] : Start.Terms) {
      auto I = std::find_if(Mono.begin(), Mono.end(), [&](unsigned Id) { return Atoms[Id].K == Atom::Induction; });
      if (I == Mono.end()) {
        F.Offset.Terms[Mono] = C;
        continue;
      }
      // The coefficient of i: the term without i, which must not vary (i*i).
      Monomial Rest = Mono;
      Rest.erase(Rest.begin() + (I - Mono.begin()));
      if (Atoms.varies(Rest))
        return std::nullopt;
      F.Scale.Terms[Rest] = C;
    }
    return F;
  }

  // One section covering every access, or nothing when they are not affine
  // or isl cannot prove it. Accesses that disagree on the induction
  // variable's coefficient (`x[i]` with `x[j]`) share the hull of what the
  // whole loop touches (scale 0). Offsets equal up to a number merge into one
  // (offset, extent); offsets that differ by symbols stay separate parts
  // whose hull the runtime computes.
  std::optional<AffineSection> section(const std::vector<const Access *> &Xs, bool WidenTriangles = false) {
    Widen = WidenTriangles;
    std::vector<const Access *> Used;
    std::vector<Poly> Subscripts;
    std::vector<Footprint> Fs;
    TilesChunk = false;
    for (const Access *X : Xs) {
      if (X->SizeOnly)
        continue;
      std::optional<Poly> Sub = firstSubscript(*X);
      std::optional<Footprint> F = Sub ? footprint(*Sub, *X) : std::nullopt;
      if (!F)
        return std::nullopt;
      Used.push_back(X);
      Subscripts.push_back(std::move(*Sub));
      Fs.push_back(std::move(*F));
    }
    if (Fs.empty())
      return std::nullopt;
    if (llvm::any_of(Fs, [&](const Footprint &F) { return F.Scale != Fs.front().Scale; }))
      for (Footprint &F : Fs)
        if (!overTheLoop(F))
          return std::nullopt;
    std::optional<Poly> Scale = Fs.front().Scale;
    struct Group {
      Poly OffSym, ExtSym;
      int64_t MinOff, MaxEnd;
    };
    std::vector<Group> Groups;
    for (const Footprint &F : Fs) {
      auto [OffSym, OffNum] = symbolsAndNumber(F.Offset);
      auto [ExtSym, ExtNum] = symbolsAndNumber(F.Extent);
      int64_t End;
      if (__builtin_add_overflow(OffNum, ExtNum, &End))
        return std::nullopt;
      auto G = std::find_if(Groups.begin(), Groups.end(),
                            [&](const Group &G) { return G.OffSym == OffSym && G.ExtSym == ExtSym; });
      if (G == Groups.end()) {
        Groups.push_back(Group{std::move(OffSym), std::move(ExtSym), OffNum, End});
        continue;
      }
      G->MinOff = std::min(G->MinOff, OffNum);
      G->MaxEnd = std::max(G->MaxEnd, End);
    }
    if (!Scale)
      return std::nullopt;
    std::vector<std::pair<Poly, Poly>> Parts;
    for (const Group &G : Groups) {
      std::optional<Poly> Off = add(G.OffSym, Poly::constant(G.MinOff));
      std::optional<Poly> Ext = add(G.ExtSym, Poly::constant(G.MaxEnd - G.MinOff));
      if (!Off || !Ext)
        return std::nullopt;
      Parts.emplace_back(std::move(*Off), std::move(*Ext));
    }
    // Consecutive iterations' sections meet without a gap or an overlap when
    // one part is as wide as the step between them; each must then also be
    // touched all through: x[3*i] with x[3*i + 2] is not (x[3*i + 1] would
    // come back as whatever the device held).
    std::optional<Poly> Minus = scale(*Scale, -1);
    const bool Meets = Parts.size() == 1 && (Parts[0].second == *Scale || (Minus && Parts[0].second == *Minus));
    const SectionProof Proof = proveSection(Model, Used, Subscripts, *Scale, Parts, Meets);
    if (!Proof.Contains || !insideDimensions(Used))
      return std::nullopt;
    TilesChunk = Meets && Proof.Dense;
    AffineSection Sec;
    Sec.Scale = polynomial(*Scale, Atoms);
    for (const auto &[Off, Ext] : Parts)
      Sec.Parts.emplace_back(polynomial(Off, Atoms), polynomial(Ext, Atoms));
    return Sec;
  }

  // A section of first subscripts holds only while the inner ones stay
  // inside their dimensions: `rows[0][i + 1]` of a `double (*rows)[8]`
  // reads rows[1][0] at i = 7. Where that depends on the loop's parameters
  // the rewritten loop checks it first (and runs serially if it fails);
  // where it may not hold at all there is no section.
  bool insideDimensions(const std::vector<const Access *> &Used) {
    if (llvm::none_of(Used, [](const Access *X) { return X->Subscripts.size() > 1; }))
      return true;
    DimensionsVerdict V = withinDimensions(Dependence, Used);
    if (V.K != DimensionsVerdict::Guarded)
      return V.K == DimensionsVerdict::Inside;
    const std::string &Name = Used.front()->Name;
    const bool Checked = llvm::any_of(A.Checks, [&](const RuntimeCheck &C) {
      const auto *W = std::get_if<WithinDimensions>(&C);
      return W && W->Name == Name;
    });
    if (!Checked) {
      auto First = llvm::find_if(Used, [](const Access *X) { return X->Write; });
      const SourceLocation At = (First != Used.end() ? *First : Used.front())->E->getExprLoc();
      report(Diags, Diag::SectionBoundsCheckedAtRunTime, At) << Name << shown(*V.Guard);
      A.Checks.push_back(WithinDimensions{Name, std::move(*V.Guard), At});
    }
    return true;
  }

  // `F` widened to every iteration: scale 0, and the hull of its elements
  // while i runs over the loop, with a number as i's coefficient. Only with
  // a unit step, where the loop's first and last values are the header's:
  // a raw pointer's section must not reach past what the loop touches.
  bool overTheLoop(Footprint &F) {
    const CanonicalLoop &L = *A.Loop;
    std::optional<std::pair<Poly, Poly>> I = L.Step ? std::nullopt : inductionRange();
    if (!I || !F.Scale.isConstant())
      return false;
    const int64_t C = F.Scale.constantTerm();
    std::optional<Poly> MinusLow = scale(I->first, -1);
    std::optional<Poly> Span = MinusLow ? add(I->second, *MinusLow) : std::nullopt;
    std::optional<Poly> From = scale(C >= 0 ? I->first : I->second, C);
    std::optional<Poly> Grow = Span ? scale(*Span, C >= 0 ? C : -C) : std::nullopt;
    std::optional<Poly> Offset = From ? add(F.Offset, *From) : std::nullopt;
    std::optional<Poly> Extent = Grow ? add(F.Extent, *Grow) : std::nullopt;
    if (!Offset || !Extent)
      return false;
    F = Footprint{Poly(), std::move(*Offset), std::move(*Extent)};
    return true;
  }

  // The least and greatest values the annotated loop's variable takes (a
  // superset when the step skips some): first and last by the loop header.
  std::optional<std::pair<Poly, Poly>> inductionRange() {
    const CanonicalLoop &L = *A.Loop;
    if (L.RangeFor || !L.Lower || !L.Bound)
      return std::nullopt;
    std::optional<Poly> First = Lin.of(L.Lower, {}), Bound = Lin.of(L.Bound, {});
    if (!First || !Bound || Atoms.varies(*First) || Atoms.varies(*Bound))
      return std::nullopt;
    const bool Up = L.Compare == LoopCompare::Less || L.Compare == LoopCompare::LessEqual ||
                    (L.Compare == LoopCompare::NotEqual && !L.Decrements);
    const bool Inclusive = L.Compare == LoopCompare::LessEqual || L.Compare == LoopCompare::GreaterEqual;
    std::optional<Poly> Last = Inclusive ? Bound : add(*Bound, Poly::constant(Up ? -1 : 1));
    if (!Last)
      return std::nullopt;
    return Up ? std::make_pair(*First, *Last) : std::make_pair(*Last, *First);
  }

  // [Low, High], each `p + a*i` with a a number, widened to every value
  // they take while i runs over the annotated loop's range.
  std::optional<std::pair<Poly, Poly>> overAllIterations(const Poly &Low, const Poly &High) {
    std::optional<std::pair<Poly, Poly>> I = inductionRange();
    if (!I)
      return std::nullopt;
    auto extreme = [&](const Poly &P, bool Least) -> std::optional<Poly> {
      Poly Rest;
      int64_t Slope = 0;
      for (const auto &[Mono, C] : P.Terms) {
        if (Mono.size() == 1 && Atoms[Mono[0]].K == Atom::Induction)
          Slope = C;
        else if (Atoms.varies(Mono))
          return std::nullopt;
        else
          Rest.Terms[Mono] = C;
      }
      // Least with a rising slope, or greatest with a falling one: at the first i.
      std::optional<Poly> At = scale((Slope >= 0) == Least ? I->first : I->second, Slope);
      return At ? add(Rest, *At) : std::nullopt;
    };
    std::optional<Poly> L = extreme(Low, true), H = extreme(High, false);
    if (!L || !H)
      return std::nullopt;
    return std::make_pair(*L, *H);
  }

  LoopAnalysis &A;
  const BodyModel &M;
  DiagnosticsEngine &Diags;
  LevelModel &Model; // its atoms and linearizer are ours: one meaning for a polynomial
  LevelModel &Dependence; // the dependence test's reading: whether inner subscripts stay inside
  AtomTable &Atoms;
  Linearizer &Lin;
  const bool MayRunOnHost; // a pointer of unknown length sends the loop to CPU threads
  bool TilesChunk = false; // set by section()
  bool Widen = false;      // set by section(): triangles may get their hull
};

} // namespace

std::optional<AffineSection> sectionOf(LoopAnalysis &A, const BodyModel &M, const VarDecl *V, StringRef Name,
                                       LoopModel &Model, DiagnosticsEngine &Diags) {
  return Inference(A, M, Model, Diags, /*MayRunOnHost=*/false).sectionOf(V, Name);
}

bool inferDataMaps(LoopAnalysis &A, const BodyModel &M, LoopModel &Model, DiagnosticsEngine &Diags,
                   bool MayRunOnHost) {
  A.Arrays.clear();
  A.MemberValues.clear();
  if (!A.Loop)
    return true;
  Inference I(A, M, Model, Diags, MayRunOnHost);
  const MemberReach Members = reachMembers(A, M, Model.forSections().Ctx);
  if (!I.run(Members))
    return false;
  for (const MemberPath &P : Members.Values)
    A.MemberValues.push_back(P);
  if (I.Unsized) {
    // Maps are a kernel's; on CPU threads the body reads the pointer as it is.
    const std::string &Name = I.Unsized->Name;
    const std::string Why =
        I.Unsized->Accessor
            ? "indexes '" + Name + "' through accessor '" + I.Unsized->Accessor->getNameAsString() +
                  "' where no section tells the elements, and the loop cannot name the member to map it whole; copy "
                  "the accessor's element address to a local pointer and add 'map(" + I.Unsized->MapKind +
                  ": p[0:n])' with its length to run it on a GPU"
            :
        "indexes '" + Name + "', a pointer whose length the analysis cannot tell; " +
        "add 'map(" + std::string(I.Unsized->MapKind) + ": " + I.Unsized->Code +
            "[0:n])' with its length to run it on a GPU";
    A.Mode = LoopMode::Host;
    A.Arrays.clear();
    A.MemberValues.clear();
    A.Reasons.clear();
    A.Reasons.push_back({"the body " + Why, I.Unsized->At});
    report(Diags, Diag::HostOnlyRemark, I.Unsized->At) << ("the body " + Why);
  }
  return true;
}

} // namespace gpuautopar
