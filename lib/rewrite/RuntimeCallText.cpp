#include "gpuautopar/RuntimeCallText.h"
#include "gpuautopar/LoopRewriter.h"
#include "Spelling.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "llvm/ADT/STLExtras.h"

namespace gpuautopar {
namespace {

const char *opName(ReductionOp Op) {
  switch (Op) {
  case ReductionOp::Plus: return "plus";
  case ReductionOp::Times: return "times";
  case ReductionOp::Min: return "min";
  case ReductionOp::Max: return "max";
  case ReductionOp::BitAnd: return "bit_and";
  case ReductionOp::BitOr: return "bit_or";
  case ReductionOp::BitXor: return "bit_xor";
  case ReductionOp::LogicalAnd: return "logical_and";
  case ReductionOp::LogicalOr: return "logical_or";
  }
  return "";
}

const char *mapName(MapKind K) {
  switch (K) {
  case MapKind::To: return "to";
  case MapKind::From: return "from";
  case MapKind::ToFrom: return "tofrom";
  case MapKind::Alloc: return "alloc";
  case MapKind::Release:
  case MapKind::Delete: break; // exit data only, never a loop's map
  }
  return "";
}

} // namespace

std::string entryPoint(LoopMode Mode) {
  switch (Mode) {
  case LoopMode::Kernel: return "::gpu_autopar::kernel_loop";
  case LoopMode::Task: return "::gpu_autopar::task_loop";
  case LoopMode::Host: return "::gpu_autopar::host_loop";
  }
  return "";
}

std::string optionsText(const LoopClauses &C) {
  std::string S = "::gpu_autopar::options()";
  if (C.Schedule) {
    const char *Kind = "adaptive";
    switch (*C.Schedule) {
    case ScheduleKind::Static: Kind = "static_"; break;
    case ScheduleKind::Dynamic: Kind = "dynamic"; break;
    case ScheduleKind::Guided: Kind = "guided"; break;
    case ScheduleKind::Adaptive: Kind = "adaptive"; break;
    }
    S += std::string(".schedule(::gpu_autopar::schedule_kind::") + Kind;
    if (!C.ScheduleChunk.empty())
      S += ", (" + C.ScheduleChunk + ")";
    S += ")";
  }
  if (!C.Devices.empty() && C.Devices != "all")
    S += ".devices((" + C.Devices + "))";
  if (!C.Slots.empty())
    S += ".slots((" + C.Slots + "))";
  if (C.Fallback) {
    const char *P = "auto_";
    switch (*C.Fallback) {
    case FallbackKind::Auto: P = "auto_"; break;
    case FallbackKind::Gpu: P = "gpu"; break;
    case FallbackKind::Cpu: P = "cpu"; break;
    case FallbackKind::None: P = "none"; break;
    }
    S += std::string(".fallback(::gpu_autopar::fallback_policy::") + P + ")";
  }
  if (!C.MinIterations.empty())
    S += ".min_iterations((" + C.MinIterations + "))";
  return S;
}

std::string disjointChecksText(const LoopAnalysis &A, const std::string &Space) {
  std::string S = spellChecks(A, Space);
  if (!A.SerialReason.empty())
    S += ".run_serially(\"" + quoted(A.SerialReason) + "\")";
  return S;
}

std::string reductionsText(const LoopClauses &C) {
  std::string S = "::gpu_autopar::reductions(";
  for (size_t I = 0; I < C.Reductions.size(); ++I) {
    if (I)
      S += ", ";
    S += std::string("::gpu_autopar::reduce<::gpu_autopar::op::") + opName(C.Reductions[I].Op) + ">(" +
         C.Reductions[I].Var->getNameAsString() + ")";
  }
  for (size_t I = 0; I < C.LastPrivates.size(); ++I)
    S += std::string(I || !C.Reductions.empty() ? ", " : "") + "::gpu_autopar::last_private(" +
         C.LastPrivates[I]->getNameAsString() + ")";
  return S + ")";
}

std::string mapText(const LoopAnalysis &A, const ArrayUse &U) {
  std::string S = std::string("::gpu_autopar::") + mapName(U.Kind) + "(" + objectCode(U) + ", " +
                  spellMapArguments(A, U, RuntimeNames::Qualified) + ")";
  // A map clause's kind says what is copied where the data is not present;
  // on present data the runtime goes by what the body does (the loop's
  // writes to a present `to` section stay in the present copy).
  if (U.Written && (U.Kind == MapKind::To || U.Kind == MapKind::Alloc))
    S = "::gpu_autopar::also_written(" + S + ")";
  if (U.Read && (U.Kind == MapKind::From || U.Kind == MapKind::Alloc))
    S = "::gpu_autopar::also_read(" + S + ")";
  return S;
}

std::string dataText(const LoopAnalysis &A) {
  std::string S = "::gpu_autopar::data(";
  bool First = true;
  for (const ArrayUse &U : A.Arrays) {
    if (!First)
      S += ",\n        ";
    First = false;
    S += mapText(A, U);
  }
  return S + ")";
}

std::string producedText(const LoopAnalysis &A) {
  std::string S;
  for (const MapClause &C : A.Clauses.Maps) {
    if (C.Kind != MapKind::From && C.Kind != MapKind::ToFrom)
      continue;
    const bool Sized = !C.Length.empty();
    const clang::QualType T = C.Fields.empty() ? C.Var->getType() : C.Fields.back()->getType();
    if (!Sized && T->isPointerType())
      continue; // a raw pointer without [lo:len]: how much it produces is unknown
    S += std::string(S.empty() ? "" : ", ") + "::gpu_autopar::" + mapName(C.Kind) + "(" +
         (C.Fields.empty() ? C.Var->getNameAsString() : C.Written);
    if (Sized)
      S += ", (" + (C.Lower.empty() ? std::string("0") : C.Lower) + "), (" + C.Length + ")";
    S += ", ::gpu_autopar::whole())";
  }
  return S.empty() ? S : "::gpu_autopar::data(" + S + ")";
}

std::string extraParameters(const LoopAnalysis &A, const clang::ASTContext &Ctx) {
  std::string S;
  if (A.Mode == LoopMode::Kernel)
    for (const ArrayUse &U : A.Arrays) {
      // A member's view gets a name of its own, put where the body spells the
      // member; its type follows the member as the loop's scope sees it
      // (`decltype((g.u))`: const where `g` is).
      const std::string Type = U.Member ? "(" + memberCode(*U.Member) + ")" : U.Var->getNameAsString();
      const std::string Name = U.Member ? memberBodyName(*U.Member) : U.Var->getNameAsString();
      S += std::string(", ::gpu_autopar::") + (U.ReadOnlyLoads ? "read_view" : "view") + "<decltype(" + Type + ")> " +
           Name;
    }
  clang::PrintingPolicy Policy(Ctx.getLangOpts());
  Policy.SuppressTagKeyword = true;
  for (const ReductionClause &R : A.Clauses.Reductions)
    S += ", " + R.Var->getType().getNonReferenceType().getUnqualifiedType().getAsString(Policy) + "& " +
         R.Var->getNameAsString();
  for (const clang::VarDecl *V : A.Clauses.LastPrivates)
    S += ", ::gpu_autopar::last_slot<decltype(" + V->getNameAsString() + ")>& gpu_autopar_last_" +
         V->getNameAsString();
  return S;
}

std::string accessorPointers(const LoopAnalysis &A, const std::string &Space) {
  std::string S;
  if (A.Mode != LoopMode::Kernel)
    return S;
  for (const ArrayUse &U : A.Arrays)
    if (U.Member && U.Member->Accessor)
      S += "auto *const " + memberBodyName(*U.Member) + " = " + Space + ".count() ? &" +
           (U.Member->Root ? U.Member->Root->getNameAsString() + "." : std::string("this->")) +
           U.Member->Accessor->getNameAsString() + "(0) : nullptr; ";
  return S;
}

std::string memberValueCopies(const LoopAnalysis &A) {
  std::string S;
  if (A.Mode == LoopMode::Kernel)
    for (const MemberPath &P : A.MemberValues)
      S += "const auto " + memberBodyName(P) + " = " + memberCode(P) + "; ";
  return S;
}

std::string privateCopiesText(const LoopClauses &C, const std::string &Induction) {
  std::string S;
  for (const clang::VarDecl *P : C.Privates) {
    const std::string Name = P->getNameAsString();
    const std::string Type = "decltype(" + Name + ")";
    if (!llvm::is_contained(C.FirstPrivates, P)) {
      // A lastprivate copy the last iteration never assigns hands back a
      // value-initialised object rather than garbage.
      S += " " + Type + " " + Name + (llvm::is_contained(C.LastPrivates, P) ? "{};" : ";");
    } else {
      // The outside variable is reachable by its name only until the copy
      // of the same name is declared: a reference keeps it in reach.
      const std::string Outside = "gpu_autopar_first_" + Name;
      S += " auto &" + Outside + " = " + Name + ";";
      if (P->getType()->isArrayType())
        S += " " + Type + " " + Name + "; ::gpu_autopar::copy_value(" + Name + ", " + Outside + ");";
      else
        S += " " + Type + " " + Name + "(" + Outside + ");";
    }
    if (llvm::is_contained(C.LastPrivates, P))
      S += " auto gpu_autopar_keep_" + Name + " = ::gpu_autopar::keep_last(gpu_autopar_last_" + Name + ", " +
           Induction + ", " + Name + ");";
  }
  return S;
}

namespace {

// How many dimensions `V` has after its first.
unsigned innerDimensions(const clang::VarDecl *V) {
  const clang::ASTContext &Ctx = V->getASTContext();
  clang::QualType T = V->getType().getNonReferenceType();
  T = T->isPointerType() ? T->getPointeeType() : Ctx.getAsArrayType(T)->getElementType();
  unsigned Inner = 0;
  for (; const clang::ArrayType *AT = Ctx.getAsArrayType(T); ++Inner)
    T = AT->getElementType();
  return Inner;
}

} // namespace

std::string variableRowsCaptures(const LoopAnalysis &A) {
  std::string S;
  for (const clang::VarDecl *V : A.VariableRows) {
    const std::string Name = V->getNameAsString();
    const unsigned Inner = innerDimensions(V);
    std::string Row = Name, Lengths;
    for (unsigned K = 1; K <= Inner; ++K, Row += "[0]")
      Lengths += ", sizeof(" + Row + "[0]) / sizeof(" + Row + "[0][0])";
    S += ", " + Name + " = ::gpu_autopar::rows_of(&" + Row + "[0]" + Lengths + ")";
  }
  return S;
}

} // namespace gpuautopar
