#include "Dependence.h"

#include "clang/AST/Decl.h"
#include "clang/Basic/SourceManager.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"

#include <algorithm>
#include <cstdlib>

namespace gpuautopar {
namespace {

using namespace clang;

std::string key(char Kind, const void *P) { return Kind + std::to_string(reinterpret_cast<uintptr_t>(P)); }

bool inside(const SourceManager &SM, SourceRange R, SourceLocation L) {
  return L.isValid() && !SM.isBeforeInTranslationUnit(L, R.getBegin()) &&
         !SM.isBeforeInTranslationUnit(R.getEnd(), L);
}

std::string text(const Expr *E, const ASTContext &Ctx) {
  if (!E)
    return "0";
  return Lexer::getSourceText(CharSourceRange::getTokenRange(E->getSourceRange()), Ctx.getSourceManager(),
                              Ctx.getLangOpts())
      .str();
}

// What one dimension's pair of subscripts says about i and i'.
struct DimResult {
  enum Kind {
    Never,     // the subscripts are never equal: independent
    Separates, // equal only when i == i': independent across iterations
    Any,       // equal for some i != i' whatever their distance
    Distance,  // equal exactly when i - i' == D (D != 0)
    Unknown,
  } K;
  int64_t D = 0;
  std::string Why;
};

// The values `Σ b (j - j')` can take when j, j' range over their loops.
std::optional<int64_t> innerSpread(const std::map<std::string, Poly> &Coef, const std::string &InductionKey,
                                   const DependenceContext &C, const std::map<std::string, const VarDecl *> &Vars) {
  int64_t Spread = 0;
  for (const auto &[Sym, Co] : Coef) {
    if (Sym == InductionKey)
      continue;
    auto V = Vars.find(Sym);
    if (V == Vars.end())
      return std::nullopt;
    const InnerLoop &L = C.Inner.find(V->second)->second;
    if (!Co.isConstant() || !L.Min || !L.Max)
      return std::nullopt;
    Spread += std::llabs(Co.constantTerm()) * (*L.Max - *L.Min);
  }
  return Spread;
}

// `a[n*i + k*n + c + j]`: row `i + k` of a row-major array whose rows have
// the symbolic length n, when the column `c + j` provably stays in [0, n) (or,
// without inner variables, is the same constant in both). Different rows
// never overlap, so only the row distance matters.
DimResult rowMajor(const Poly &N, const AffineSplit &F, const AffineSplit &G, const std::map<std::string, Poly> &Inner,
                   const std::map<std::string, const VarDecl *> &Vars, const DependenceContext &C,
                   const std::string &Pair) {
  const DimResult Unknown{DimResult::Unknown, 0, Pair + " have a loop-invariant stride the analysis cannot compare"};
  // Rest = k*N + c with constant k and c.
  auto rowAndColumn = [&](const Poly &Rest) -> std::optional<std::pair<int64_t, int64_t>> {
    const auto &[M, A] = *std::find_if(N.Terms.begin(), N.Terms.end(), [](const auto &T) { return !T.first.empty(); });
    auto It = Rest.Terms.find(M);
    const int64_t Coef = It == Rest.Terms.end() ? 0 : It->second;
    if (Coef % A != 0)
      return std::nullopt;
    std::optional<Poly> Left = add(Rest, *scale(N, -(Coef / A)));
    if (!Left || !Left->isConstant())
      return std::nullopt;
    return std::make_pair(Coef / A, Left->constantTerm());
  };
  auto RF = rowAndColumn(F.Rest), RG = rowAndColumn(G.Rest);
  if (!RF || !RG)
    return Unknown;
  const auto [KF, CF] = *RF;
  const auto [KG, CG] = *RG;
  bool ColumnsInRow = false;
  if (Inner.empty()) {
    ColumnsInRow = CF == CG;
  } else if (Inner.size() == 1 && Inner.begin()->second == Poly::constant(1)) {
    const InnerLoop &L = C.Inner.find(Vars.find(Inner.begin()->first)->second)->second;
    auto within = [&](int64_t Col) {
      if (!L.Lower || !L.UpperExclusive || *L.Lower + Col < 0)
        return false;
      std::optional<Poly> Over = add(*L.UpperExclusive, Poly::constant(Col));
      Over = Over ? add(*Over, *scale(N, -1)) : std::nullopt; // ub + c - n <= 0
      return Over && Over->isConstant() && Over->constantTerm() <= 0;
    };
    ColumnsInRow = within(CF) && within(CG);
  }
  if (!ColumnsInRow)
    return Unknown;
  if (KF == KG)
    return {DimResult::Separates};
  if (!C.StepKnown)
    return Unknown;
  if ((KG - KF) % C.Step != 0)
    return {DimResult::Never};
  return {DimResult::Distance, (KG - KF) / C.Step};
}

DimResult compareDim(const Expr *FE, const Expr *GE, const DependenceContext &C) {
  std::optional<Poly> F = FE ? linearize(FE, C) : Poly::constant(0);
  std::optional<Poly> G = GE ? linearize(GE, C) : Poly::constant(0);
  if (!F || !G)
    return {DimResult::Unknown, 0,
            "subscript '" + text(!F ? FE : GE, C.Ctx) + "' is not affine in the loop variables"};
  std::optional<AffineSplit> SF = splitAffine(*F), SG = splitAffine(*G);
  if (!SF || !SG)
    return {DimResult::Unknown, 0,
            "subscript '" + text(!SF ? FE : GE, C.Ctx) + "' is not affine in the loop variables"};

  const std::string I = key('L', C.Induction);
  const Poly AF = SF->Coef.count(I) ? SF->Coef[I] : Poly();
  const Poly AG = SG->Coef.count(I) ? SG->Coef[I] : Poly();
  // Inner-loop variables must appear the same way in both subscripts.
  std::map<std::string, Poly> InnerF = SF->Coef, InnerG = SG->Coef;
  InnerF.erase(I);
  InnerG.erase(I);
  const std::string Pair = "subscripts '" + text(FE, C.Ctx) + "' and '" + text(GE, C.Ctx) + "'";
  if (InnerF != InnerG)
    return {DimResult::Unknown, 0, Pair + " use inner loop variables differently"};

  std::map<std::string, const VarDecl *> Vars;
  for (const auto &[V, L] : C.Inner)
    Vars[key('L', V)] = V;

  // Row-major flattening `a[n*i + ...]`: rows are compared, not offsets.
  if (AF == AG && !AF.isConstant())
    return rowMajor(AF, *SF, *SG, InnerF, Vars, C, Pair);

  // The invariant parts must differ by a constant.
  std::optional<Poly> Diff = add(SG->Rest, *scale(SF->Rest, -1));
  if (!Diff || !Diff->isConstant())
    return {DimResult::Unknown, 0, Pair + " differ by a loop-invariant amount"};
  const int64_t D = Diff->constantTerm(); // equal iff AF*i + Σb j + D == AG*i' + Σb j'


  if (AF != AG) {
    if (AF.isConstant() && AG.isConstant() && InnerF.empty()) {
      // GCD test: AF*s*k - AG*s*k' == D has integer solutions only if gcd divides D.
      int64_t A = std::llabs(AF.constantTerm()), B = std::llabs(AG.constantTerm());
      while (B) {
        int64_t T = A % B;
        A = B;
        B = T;
      }
      if (A != 0 && D % A != 0)
        return {DimResult::Never};
    }
    return {DimResult::Unknown, 0, Pair + " advance at different rates"};
  }

  if (!AF.isConstant())
    return {DimResult::Unknown, 0, Pair + " have a loop-invariant stride the analysis cannot compare"};

  const int64_t Stride = AF.constantTerm() * C.Step; // change of the subscript from one iteration to the next
  if (InnerF.empty()) {
    if (Stride == 0)
      return {D == 0 ? DimResult::Any : DimResult::Never};
    if (D == 0)
      return {DimResult::Separates};
    if (!C.StepKnown)
      return {DimResult::Unknown, 0, Pair + " differ by a constant but the step is not a constant"};
    if (D % Stride != 0)
      return {DimResult::Never};
    const int64_t K = D / Stride;
    if (C.TripCount && std::llabs(K) >= *C.TripCount)
      return {DimResult::Never};
    return {DimResult::Distance, K};
  }

  // Inner loop variables: Banerjee bounds on Σ b (j - j').
  std::optional<int64_t> Spread = innerSpread(InnerF, I, C, Vars);
  if (Stride == 0) {
    if (D == 0)
      return {DimResult::Any}; // j == j' in two iterations of the outer loop
    if (Spread && std::llabs(D) > *Spread)
      return {DimResult::Never};
    // One inner variable: b*j + D == b*j' has a solution in its range.
    if (Spread && InnerF.size() == 1 && InnerF.begin()->second.isConstant()) {
      const int64_t B = InnerF.begin()->second.constantTerm();
      return {D % B == 0 ? DimResult::Any : DimResult::Never};
    }
    return {DimResult::Unknown, 0, Pair + " may meet for different inner iterations"};
  }
  if (Spread) {
    // Is there a k != 0 with Stride*k in [D - Spread, D + Spread]?
    const int64_t S = std::llabs(Stride);
    const int64_t Lo = D - *Spread, Hi = D + *Spread;
    bool NonZeroMultiple = false;
    for (int64_t M = (Lo / S) - 1; M <= (Hi / S) + 1 && !NonZeroMultiple; ++M)
      NonZeroMultiple = M != 0 && M * S >= Lo && M * S <= Hi;
    if (!NonZeroMultiple)
      return {DimResult::Separates};
  }
  return {DimResult::Unknown, 0, Pair + " may meet in different iterations"};
}

} // namespace

std::optional<Poly> linearize(const Expr *E, const DependenceContext &C, int Depth) {
  if (!E || Depth > 4)
    return std::nullopt;
  E = E->IgnoreParenImpCasts();
  if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E))
    if (Cast->getType()->isIntegerType())
      return linearize(Cast->getSubExpr(), C, Depth);
  if (!E->isValueDependent()) {
    Expr::EvalResult R;
    if (E->getType()->isIntegerType() && E->EvaluateAsInt(R, C.Ctx) && R.Val.getInt().getSignificantBits() <= 63)
      return Poly::constant(R.Val.getInt().getExtValue());
  }
  const SourceManager &SM = C.Ctx.getSourceManager();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
    if (!V || !V->getType()->isIntegerType())
      return std::nullopt;
    if (V == C.Induction || C.Inner.count(V))
      return Poly::symbol(key('L', V));
    if (!inside(SM, C.Loop, V->getLocation())) {
      if (C.WrittenScalars.count(V))
        return std::nullopt;
      return Poly::symbol(key('V', V));
    }
    // A local of the body that names a subscript (`int k = 2*i + 1;`) and is
    // never assigned again stands for its initialiser.
    if (V->hasInit() && !V->getType()->isReferenceType() && !C.WrittenLocals.count(V))
      return linearize(V->getInit(), C, Depth + 1);
    return std::nullopt;
  }
  if (const auto *M = dyn_cast<MemberExpr>(E)) {
    const auto *Base = dyn_cast<DeclRefExpr>(M->getBase()->IgnoreParenImpCasts());
    const auto *V = Base ? dyn_cast<VarDecl>(Base->getDecl()) : nullptr;
    if (!V || inside(SM, C.Loop, V->getLocation()) || C.WrittenScalars.count(V) || !M->getType()->isIntegerType())
      return std::nullopt;
    return Poly::symbol("M" + key('V', V) + "." + M->getMemberDecl()->getNameAsString());
  }
  if (const auto *U = dyn_cast<UnaryOperator>(E)) {
    if (U->getOpcode() == UO_Plus)
      return linearize(U->getSubExpr(), C, Depth);
    if (U->getOpcode() == UO_Minus)
      if (std::optional<Poly> P = linearize(U->getSubExpr(), C, Depth))
        return scale(*P, -1);
    return std::nullopt;
  }
  if (const auto *B = dyn_cast<BinaryOperator>(E)) {
    std::optional<Poly> L = linearize(B->getLHS(), C, Depth);
    if (!L)
      return std::nullopt;
    if (B->getOpcode() == BO_Shl) {
      Expr::EvalResult R;
      if (B->getRHS()->isValueDependent() || !B->getRHS()->EvaluateAsInt(R, C.Ctx) || R.Val.getInt().isNegative() || R.Val.getInt().getZExtValue() > 30)
        return std::nullopt;
      return scale(*L, int64_t(1) << R.Val.getInt().getZExtValue());
    }
    std::optional<Poly> Rt = linearize(B->getRHS(), C, Depth);
    if (!Rt)
      return std::nullopt;
    switch (B->getOpcode()) {
    case BO_Add: return add(*L, *Rt);
    case BO_Sub: {
      std::optional<Poly> Neg = scale(*Rt, -1);
      return Neg ? add(*L, *Neg) : std::nullopt;
    }
    case BO_Mul: return multiply(*L, *Rt);
    default: return std::nullopt;
    }
  }
  return std::nullopt;
}

PairVerdict testPair(const Access &A, const Access &B, const DependenceContext &C) {
  if (A.Subscripts.size() != B.Subscripts.size())
    return {Verdict::Unknown, "it is accessed with different numbers of subscripts"};
  bool Any = true;
  std::optional<int64_t> Distance;
  std::string Why;
  for (size_t K = 0; K < A.Subscripts.size(); ++K) {
    DimResult R = compareDim(A.Subscripts[K], B.Subscripts[K], C);
    switch (R.K) {
    case DimResult::Never:
    case DimResult::Separates:
      return {Verdict::Independent, ""};
    case DimResult::Unknown:
      if (Why.empty())
        Why = R.Why;
      break;
    case DimResult::Any:
      break;
    case DimResult::Distance:
      if (Distance && *Distance != R.D)
        return {Verdict::Independent, ""}; // two dimensions demand different distances
      Distance = R.D;
      Any = false;
      break;
    }
  }
  (void)Any;
  if (!Why.empty())
    return {Verdict::Unknown, Why};
  return {Verdict::Dependent, ""};
}

} // namespace gpuautopar
