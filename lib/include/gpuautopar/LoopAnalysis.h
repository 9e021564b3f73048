// What the analysis layer knows about one annotated loop, handed to the
// rewriting layer and to --report. Analysis fills it; rewriting only reads it.
#pragma once

#include "gpuautopar/Annotation.h"
#include "gpuautopar/CanonicalLoop.h"

#include "clang/Basic/SourceLocation.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace clang {
class Expr;
class VarDecl;
} // namespace clang

namespace gpuautopar {

enum class LoopMode { Kernel, Task, Host };
enum class ReductionOp { Plus, Times, Min, Max, BitAnd, BitOr, BitXor, LogicalAnd, LogicalOr };
enum class MapKind { To, From, ToFrom, Alloc };
enum class ScheduleKind { Static, Dynamic, Guided, Adaptive };
enum class FallbackKind { Auto, Gpu, Cpu, None };

// Clause arguments that are expressions are kept as the user's source text:
// they are evaluated once, before the loop, in the loop's scope.
struct ReductionClause {
  ReductionOp Op;
  const clang::VarDecl *Var = nullptr;
  clang::SourceLocation Loc; // the variable's name in the clause
};

struct MapClause {
  MapKind Kind;
  const clang::VarDecl *Var = nullptr;
  std::string Lower, Length; // `x[lo:len]`; both empty when the clause gives no section
  clang::SourceLocation Loc;
};

struct LoopClauses {
  std::vector<ReductionClause> Reductions;
  std::vector<MapClause> Maps;
  std::vector<const clang::VarDecl *> Privates;
  std::optional<ScheduleKind> Schedule;
  std::string ScheduleChunk;              // empty: none given
  std::string Devices;                    // empty: all
  std::string Slots, MinIterations;       // empty: default
  std::optional<FallbackKind> Fallback;
  std::optional<LoopMode> Mode;           // mode(...) override
  clang::SourceLocation ModeLoc;          // the argument of mode(...), when given
};

// An affine subscript `Scale*i + Offset` in the induction variable, over the
// outermost dimension of an array; inner-loop variables are folded into
// `Extent` (e.g. a[i*n + j] with 0 <= j < n: Scale "n", Offset "0", Extent "n").
// Expressions are source text, loop-invariant, usable where the loop stands.
struct AffineSection {
  std::string Scale = "1", Offset = "0", Extent = "1";
  // Accesses whose offsets differ by loop-invariant symbols (a[(i-1)*n + j]
  // and a[(i+1)*n + j]) cannot be merged as text: each (Offset, Extent) pair is
  // kept, and the runtime maps their hull. Empty when Offset/Extent say it all.
  std::vector<std::pair<std::string, std::string>> HullParts;
};

enum class ContainerKind { RawPointer, BuiltinArray, StdVector, StdArray };

// Everything the body does with one array-like variable declared outside it.
struct ArrayUse {
  const clang::VarDecl *Var = nullptr;
  ContainerKind Container = ContainerKind::RawPointer;
  std::string ElementType; // as written for a view parameter, e.g. "float" or "float[4]"
  bool Read = false, Written = false;
  // Every iteration writes every element of its section, unconditionally, and
  // never reads it: the map need not copy the old values in (`from`).
  bool WritesWholeSection = false;
  // The section one iteration touches; nullopt when a subscript is not affine
  // in the induction variable (then the whole object is mapped).
  std::optional<AffineSection> Section;
  clang::SourceLocation FirstUse;
};

struct LoopAnalysis {
  Annotation Pragma;
  std::optional<CanonicalLoop> Loop; // nullopt: the loop was rejected before analysis
  LoopClauses Clauses;
  LoopMode Mode = LoopMode::Host;
  bool Accepted = false;
  std::vector<ArrayUse> Arrays;      // kernel mode: what to map
  // Why the loop got its mode / was rejected, with locations, for --report.
  struct Reason {
    std::string Text;
    clang::SourceLocation Loc;
  };
  std::vector<Reason> Reasons;
  // Variables declared outside the loop that the body reads / writes (arrays
  // and scalars), in order of first use, for --report.
  std::vector<const clang::VarDecl *> Reads, Writes;
};

} // namespace gpuautopar
