#include "Spelling.h"
#include "gpuautopar/LoopRewriter.h"

#include "clang/AST/Decl.h"

namespace gpuautopar {
namespace {

std::string runtimeName(RuntimeNames N, const char *Name) {
  return (N == RuntimeNames::Qualified ? "::gpu_autopar::" : "") + std::string(Name);
}

std::string affine(const std::string &Scale, const std::string &Offset, const std::string &Extent, RuntimeNames N) {
  return runtimeName(N, "affine") + "(" + Scale + ", " + Offset + ", " + Extent + ")";
}

const MapClause *clauseFor(const LoopAnalysis &A, const clang::VarDecl *V) {
  for (const MapClause &C : A.Clauses.Maps)
    if (C.Var == V)
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

std::string spellSection(const AffineSection &S, RuntimeNames N) {
  if (S.HullParts.empty())
    return affine(S.Scale, S.Offset, S.Extent, N);
  std::string T = runtimeName(N, "hull") + "(";
  for (size_t I = 0; I < S.HullParts.size(); ++I)
    T += (I ? ", " : "") + affine(S.Scale, S.HullParts[I].first, S.HullParts[I].second, N);
  return T + ")";
}

std::string spellMapArguments(const LoopAnalysis &A, const ArrayUse &U, RuntimeNames N) {
  const MapClause *Clause = clauseFor(A, U.Var);
  const bool Extent = Clause && !Clause->Length.empty();
  const std::string Lower = Extent && !Clause->Lower.empty() ? Clause->Lower : "0";
  std::string S;
  if (Extent)
    S += "(" + Lower + "), (" + Clause->Length + "), ";
  S += U.Section ? spellSection(*U.Section, N) : runtimeName(N, "whole") + "()";
  if (Extent)
    S += ", \"" + quoted(name(U.Var) + "[" + Lower + ":" + Clause->Length + "]") + "\"";
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
      S += ".check_disjoint(" + std::to_string(M->Written) + ", \"" + name(A.Arrays[M->Written].Var) + "\", " +
           std::to_string(M->Other) + ", \"" + name(A.Arrays[M->Other].Var) + "\")";
    else if (const auto *O = std::get_if<DisjointObjects>(C))
      S += ".check_disjoint_objects(" + bytes(O->Written, Space) + ", \"" + O->Written.Name + "\", " +
           bytes(O->Other, Space) + ", \"" + O->Other.Name + "\")";
    else if (const auto *W = std::get_if<WithinDimensions>(C))
      S += ".check_within(" + W->Condition + ", \"" + W->Name + "\", \"" + W->Shown + "\")";
  }
  return S;
}

} // namespace gpuautopar
