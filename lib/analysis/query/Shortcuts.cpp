#include "query/Shortcuts.h"
#include "query/ModelView.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>

// Each answer here is exact: it is what isl would say, found without
// building an isl problem (datamap/isl-agrees.test runs the corpus both
// ways). A new shortcut goes here, behind AnalysisOptions::ExactShortcuts,
// and a case for it into that test's files.

namespace gpuautopar {

namespace {

class Shortcuts : ModelView {
public:
  explicit Shortcuts(LevelModel &Model) : ModelView(Model) {}

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
      // A row that decays to a pointer may be a way into other rows.
      if (X->Subscripts.size() != 1 || (X->RowDecays && !X->RowInside))
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
      // A row that decays to a pointer may be a way into other rows.
      if (X->Subscripts.size() != 1 || (X->RowDecays && !X->RowInside))
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

  // An element that does not move, or that one inner loop sweeps, with
  // its ends a number inside [Offset, Last]. (A strided sweep whose length
  // is not a number ends at its bound, past its last value: when that
  // lies outside, isl tells.)
  bool within(const Access *X, const Poly &Element, const Poly &Offset, const Poly &Last) {
    std::optional<Sweep> W = Atoms.varies(Element) ? sweep(X, Element) : std::nullopt;
    const Poly &Least = W ? W->Least : Element, &Greatest = W ? W->Greatest : Element;
    std::optional<int64_t> Above = difference(Least, Offset), Below = difference(Last, Greatest);
    return (W || !Atoms.varies(Element)) && Above && Below && *Above >= 0 && *Below >= 0;
  }

  std::optional<bool> dense(llvm::ArrayRef<const Access *> Xs, llvm::ArrayRef<Poly> Elements,
                            const std::pair<Poly, Poly> &Part, const Poly &Last) {
    const auto &[Offset, Extent] = Part;
    std::optional<Poly> MinusOffset = scale(Offset, -1);
    if (!MinusOffset)
      return std::nullopt;
    // One access that sweeps the whole part by ones, in a loop that is all
    // there is around it.
    for (size_t K = 0; K < Xs.size(); ++K) {
      if (Xs[K]->Around.size() != 1 || Xs[K]->AfterExit)
        continue;
      std::optional<Sweep> W = sweep(Xs[K], Elements[K]);
      if (!W || (W->C != 1 && W->C != -1) || (W->Loop->Step != 1 && W->Loop->Step != -1))
        continue;
      std::optional<int64_t> Before = difference(Offset, W->Least), After = difference(W->Greatest, Last);
      if (Before && After && *Before >= 0 && *After >= 0)
        return true;
    }
    bool Fixed = Extent.isConstant() && Extent.constantTerm() <= 64;
    std::vector<bool> Hit(Fixed ? size_t(std::max<int64_t>(Extent.constantTerm(), 0)) : 0);
    for (size_t K = 0; K < Xs.size() && Fixed; ++K) {
      std::optional<Poly> Into = add(Elements[K], *MinusOffset);
      Fixed = Xs[K]->Around.empty() && !Xs[K]->AfterExit && Into && Into->isConstant();
      if (Fixed && Into->constantTerm() >= 0 && Into->constantTerm() < int64_t(Hit.size()))
        Hit[size_t(Into->constantTerm())] = true;
    }
    if (Fixed)
      return llvm::all_of(Hit, [](bool H) { return H; });
    return std::nullopt;
  }
};

} // namespace

bool separatedWithoutIsl(LevelModel &Model, llvm::ArrayRef<const Access *> Accesses) {
  return Shortcuts(Model).separatedWithoutIsl(Accesses);
}

bool rowsWithoutIsl(LevelModel &Model, llvm::ArrayRef<const Access *> Accesses) {
  return Shortcuts(Model).rowsWithoutIsl(Accesses);
}

bool withinWithoutIsl(LevelModel &Model, const Access *X, const Poly &Element, const Poly &Offset,
                      const Poly &Last) {
  return Shortcuts(Model).within(X, Element, Offset, Last);
}

std::optional<bool> denseWithoutIsl(LevelModel &Model, llvm::ArrayRef<const Access *> Accesses,
                                    llvm::ArrayRef<Poly> Elements, const std::pair<Poly, Poly> &Part,
                                    const Poly &Last) {
  return Shortcuts(Model).dense(Accesses, Elements, Part, Last);
}

} // namespace gpuautopar
