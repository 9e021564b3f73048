#include "Spelling.h"
#include "gpuautopar/LoopRewriter.h"

#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"

#include <cassert>

namespace gpuautopar {
namespace {

std::string runtimeName(RuntimeNames N, const char *Name) {
  return (N == RuntimeNames::Qualified ? "::gpu_autopar::" : "") + std::string(Name);
}

std::string affine(const Polynomial &Scale, const Polynomial &Offset, const Polynomial &Extent, RuntimeNames N) {
  return runtimeName(N, "affine") + "(" + spell(Scale) + ", " + spell(Offset) + ", " + spell(Extent) + ")";
}

std::string spellFactor(const Polynomial::Factor &F) {
  switch (F.K) {
  case Polynomial::Factor::Value: return F.Name;
  case Polynomial::Factor::Div: return "(" + spell(F.Args[0]) + ") / " + std::to_string(F.Divisor);
  case Polynomial::Factor::Mod: return "(" + spell(F.Args[0]) + ") % " + std::to_string(F.Divisor);
  case Polynomial::Factor::Min:
  case Polynomial::Factor::Max: {
    // Not std::min: its two arguments may have different types.
    const std::string X = "(" + spell(F.Args[0]) + ")", Y = "(" + spell(F.Args[1]) + ")";
    return "(" + X + (F.K == Polynomial::Factor::Min ? " < " : " > ") + Y + " ? " + X + " : " + Y + ")";
  }
  case Polynomial::Factor::SelectNonPositive:
  case Polynomial::Factor::SelectZero:
    return "((" + spell(F.Args[0]) + (F.K == Polynomial::Factor::SelectZero ? ") == 0" : ") <= 0") + " ? (" +
           spell(F.Args[1]) + ") : (" + spell(F.Args[2]) + "))";
  }
  return "";
}

// The clause that names a map's object: its variable, or its member path.
const MapClause *clauseFor(const LoopAnalysis &A, const ArrayUse &U) {
  for (const MapClause &C : A.Clauses.Maps)
    if (U.Member ? !C.Fields.empty() && !U.Member->Accessor && C.Var == U.Member->Root && C.Fields == U.Member->Fields
                 : C.Fields.empty() && C.Var == U.Var)
      return &C;
  return nullptr;
}

std::string bytes(const CheckedObject &O, const std::string &Space) {
  return O.Section ? "::gpu_autopar::section_bytes(" + Space + ", " + O.Name + ", " +
                         spellSection(*O.Section, RuntimeNames::Qualified) + ")"
                   : "::gpu_autopar::object_bytes(" + O.Name + ")";
}

std::string name(const clang::VarDecl *V) { return V->getNameAsString(); }

} // namespace

std::string objectName(const ArrayUse &U) { return U.Member ? U.Member->Name : name(U.Var); }

std::string memberCode(const MemberPath &P) {
  if (P.Accessor) // the element pointer the rewrite takes through the accessor
    return memberBodyName(P);
  std::string S = P.Root ? name(P.Root) + "." : "this->";
  for (size_t I = 0; I < P.Fields.size(); ++I)
    S += (I ? "." : "") + P.Fields[I]->getNameAsString();
  return S;
}

std::string memberBodyName(const MemberPath &P) {
  std::string S = "gpu_autopar_" + (P.Root ? name(P.Root) : std::string("this"));
  for (const clang::FieldDecl *F : P.Fields)
    S += "_" + F->getNameAsString();
  return S;
}

std::string objectCode(const ArrayUse &U) { return U.Member ? memberCode(*U.Member) : name(U.Var); }

std::string spell(const Polynomial &P) {
  std::string Out;
  for (const Polynomial::Term &T : P.Terms) {
    const bool Negative = T.Coefficient < 0;
    const uint64_t Magnitude = Negative ? 0 - uint64_t(T.Coefficient) : uint64_t(T.Coefficient);
    std::string Text = T.Factors.empty() || Magnitude != 1 ? std::to_string(Magnitude) : "";
    for (const Polynomial::Factor &F : T.Factors) {
      const bool Compound = F.K == Polynomial::Factor::Div || F.K == Polynomial::Factor::Mod;
      Text += (Text.empty() ? "" : " * ") + (Compound ? "(" + spellFactor(F) + ")" : spellFactor(F));
    }
    Out += Out.empty() ? (Negative ? "-" : "") : (Negative ? " - " : " + ");
    Out += Text;
  }
  return Out.empty() ? "0" : Out;
}

std::string spellSection(const AffineSection &S, RuntimeNames N) {
  assert(!S.Parts.empty() && "a section has a part");
  if (S.Parts.size() == 1)
    return affine(S.Scale, S.Parts[0].first, S.Parts[0].second, N);
  std::string T = runtimeName(N, "hull") + "(";
  for (size_t I = 0; I < S.Parts.size(); ++I)
    T += (I ? ", " : "") + affine(S.Scale, S.Parts[I].first, S.Parts[I].second, N);
  return T + ")";
}

std::string spellMapArguments(const LoopAnalysis &A, const ArrayUse &U, RuntimeNames N) {
  const MapClause *Clause = clauseFor(A, U);
  const bool Extent = Clause && !Clause->Length.empty();
  const std::string Lower = Extent && !Clause->Lower.empty() ? Clause->Lower : "0";
  std::string S;
  if (Extent)
    S += "(" + Lower + "), (" + Clause->Length + "), ";
  S += U.Section ? spellSection(*U.Section, N) : runtimeName(N, "whole") + "()";
  if (Extent)
    S += ", \"" + quoted((U.Member ? Clause->Written : name(U.Var)) + "[" + Lower + ":" + Clause->Length + "]") + "\"";
  return S;
}

std::vector<const RuntimeCheck *> checksInOrder(const LoopAnalysis &A) {
  auto Rank = [](const RuntimeCheck &C) {
    if (const auto *O = std::get_if<DisjointObjects>(&C))
      return O->Written.Section || O->Other.Section ? 2 : 1;
    return std::holds_alternative<DisjointMaps>(C) ? 0 : 3;
  };
  std::vector<const RuntimeCheck *> Order;
  for (int R = 0; R <= 3; ++R)
    for (const RuntimeCheck &C : A.Checks)
      if (Rank(C) == R)
        Order.push_back(&C);
  return Order;
}

std::string spellChecks(const LoopAnalysis &A, const std::string &Space) {
  std::string S;
  for (const RuntimeCheck *C : checksInOrder(A)) {
    if (const auto *M = std::get_if<DisjointMaps>(C))
      S += ".check_disjoint(" + std::to_string(M->Written) + ", \"" + objectName(A.Arrays[M->Written]) + "\", " +
           std::to_string(M->Other) + ", \"" + objectName(A.Arrays[M->Other]) + "\")";
    else if (const auto *O = std::get_if<DisjointObjects>(C))
      S += ".check_disjoint_objects(" + bytes(O->Written, Space) + ", \"" + O->Written.Name + "\", " +
           bytes(O->Other, Space) + ", \"" + O->Other.Name + "\")";
    else if (const auto *W = std::get_if<WithinDimensions>(C))
      S += ".check_within(" + spell(W->Condition, SpellFor::Code) + ", \"" + W->Name + "\", \"" +
           spell(W->Condition, SpellFor::User) + "\")";
  }
  return S;
}

} // namespace gpuautopar
