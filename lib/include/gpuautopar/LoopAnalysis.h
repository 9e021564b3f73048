// What the analysis layer knows about one annotated loop, handed to the
// rewriting layer and to --report. Analysis fills it; rewriting only reads it.
#pragma once

#include "gpuautopar/Annotation.h"
#include "gpuautopar/CanonicalLoop.h"
#include "gpuautopar/Diagnostics.h"
#include "gpuautopar/ParamCondition.h"
#include "gpuautopar/Polynomial.h"

#include "clang/Basic/SourceLocation.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace clang {
class ContinueStmt;
class Decl;
class FunctionDecl;
class CUDAKernelCallExpr;
class CXXMemberCallExpr;
class CXXMethodDecl;
class Expr;
class FieldDecl;
class MemberExpr;
class VarDecl;
} // namespace clang

namespace gpuautopar {

enum class LoopMode { Kernel, Task, Host };
enum class ReductionOp { Plus, Times, Min, Max, BitAnd, BitOr, BitXor, LogicalAnd, LogicalOr };
// Release and Delete end unstructured data (`exit data` only).
enum class MapKind { To, From, ToFrom, Alloc, Release, Delete };
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
  const clang::VarDecl *Var = nullptr; // for a member, its root (null: `this`)
  std::string Lower, Length; // `x[lo:len]`; both empty when the clause gives no section
  clang::SourceLocation Loc;
  // A member (`map(to: s.p[0:n])`, `this->u`): its data members after the
  // root, outermost first, and the path as written ("s.p", "this->u").
  std::vector<const clang::FieldDecl *> Fields;
  std::string Written;
};

struct LoopClauses {
  std::vector<ReductionClause> Reductions;
  std::vector<MapClause> Maps;
  // Every variable with a private copy per iteration: private, firstprivate
  // and lastprivate. The two lists below say which copies start from the
  // outside value and which are written back after the last iteration.
  std::vector<const clang::VarDecl *> Privates;
  std::vector<const clang::VarDecl *> FirstPrivates, LastPrivates;
  // Where each of them is first named, and in which clause ("private",
  // "firstprivate", "lastprivate"), for diagnostics about its copies.
  struct PrivateName {
    const clang::VarDecl *Var;
    clang::SourceLocation Loc;
    const char *Clause;
  };
  std::vector<PrivateName> PrivateNames;
  std::optional<ScheduleKind> Schedule;
  std::string ScheduleChunk;              // empty: none given
  std::string Devices;                    // empty: all
  std::string Slots, MinIterations;       // empty: default
  std::optional<FallbackKind> Fallback;
  std::optional<LoopMode> Mode;           // mode(...) override
  clang::SourceLocation ModeLoc;          // the argument of mode(...), when given
  unsigned Collapse = 1;                  // collapse(n): n loops of a perfect nest run as one
  clang::SourceLocation CollapseLoc;      // the argument of collapse(...), when given
};

// An affine subscript `Scale*i + Offset` in the induction variable, over the
// outermost dimension of an array; inner-loop variables are folded into the
// extent (e.g. a[i*n + j] with 0 <= j < n: scale n, offset 0, extent n).
// Loop-invariant polynomials, valued where the loop stands.
struct AffineSection {
  Polynomial Scale = Polynomial::number(1);
  // (offset, extent): one part, or, for accesses whose offsets differ by
  // loop-invariant symbols (a[(i-1)*n + j] and a[(i+1)*n + j]), one per
  // offset, and the runtime maps their hull.
  std::vector<std::pair<Polynomial, Polynomial>> Parts;
};

enum class ContainerKind { RawPointer, BuiltinArray, StdVector, StdArray };

// An object the body reaches through data members, from a variable declared
// outside the loop or from the enclosing object: `g.u`, `s.inner.p`, `u` or
// `this->u` in a method. Its value does not change while the loop runs (the
// analysis checked that the body leaves the root alone), so a map copies it
// or the body gets a copy of it like a variable's; the rewrite spells it.
struct MemberPath {
  const clang::VarDecl *Root = nullptr;         // null: the enclosing object (`this`)
  std::vector<const clang::FieldDecl *> Fields; // outermost first: `g.inner.p` is inner, p
  std::string Name;                             // as messages name it: "g.u", "u"
  // Where the body spells it (`this->u`, `u`, `g.u`): the rewrite puts the
  // body's own name for it there (a map's view, a copied number).
  std::vector<const clang::MemberExpr *> Spellings;
  // Where the body reaches its elements through an inline accessor
  // (`d.x(i)` with `T &x(Index i) { return m_x[i]; }`): the rewrite puts the
  // view's subscript there (`gpu_autopar_d_m_x[i]`).
  std::vector<const clang::CXXMemberCallExpr *> AccessorCalls;
  // Set where the loop's scope cannot name the member (private to its
  // class): the map is then of the element pointer `&d.x(0)` that this
  // accessor returns, taken where the loop starts, in a local of the view's
  // name (docs/generated-code.md, "Accessors").
  const clang::CXXMethodDecl *Accessor = nullptr;
};

// Everything the body does with one array-like variable declared outside it.
struct ArrayUse {
  const clang::VarDecl *Var = nullptr; // for a member, its path's root (null: `this`)
  std::optional<MemberPath> Member;    // a member (`g.u`, `this->u`), not a variable
  ContainerKind Container = ContainerKind::RawPointer;
  bool Read = false, Written = false;
  // How the map copies it: the map clause's kind, or inferred from Read,
  // Written and WritesWholeSection. Decided once, in DataMap.cpp; the
  // rewritten call and --report both read it.
  MapKind Kind = MapKind::To;
  // Every iteration writes every element of its section, unconditionally, and
  // never reads it: the map need not copy the old values in (`from`).
  bool WritesWholeSection = false;
  // The section one iteration touches; nullopt when a subscript is not affine
  // in the induction variable (then the whole object is mapped).
  std::optional<AffineSection> Section;
  // Its elements are numbers the body only reads, each use a load by value
  // (no reference bound, no address taken): the body gets a read_view, whose
  // loads may take a GPU's read-only data cache.
  bool ReadOnlyLoads = false;
  clang::SourceLocation FirstUse;
};

// One diagnostic as a value: which, where, and the words that fill its text.
struct Finding {
  Diag D;
  clang::SourceLocation Loc;
  std::vector<std::string> Args;
};

// One of two objects the body uses for elements, one written, that may share
// memory: what settleAliasChecks needs to turn the overlap into a check.
struct OverlapSide {
  // The variable the body names it by directly (null for a member).
  const clang::VarDecl *Var = nullptr;
  // A raw pointer member of a variable the body leaves alone (`s.data` of a
  // `Field &s`): that variable; its section is compared as a pointer
  // variable's is.
  const clang::VarDecl *MemberRoot = nullptr;
  // How the loop's scope names it: "out", "g.v", "s.data".
  std::string Name;
  // A container or built-in array the loop's scope names: compared whole.
  bool Whole = false;
};
struct PossibleOverlap {
  OverlapSide Written, Other;
};

// May the iterations of a loop run at the same time? Decided once, by the
// legality check (lib/analysis/Legality.cpp); its diagnostics and --report are
// rendered from it.
struct LegalityVerdict {
  enum Kind {
    Independent, // proven: no iteration touches what another one writes
    Unproven,    // no conflict proven, but independence could not be shown either
    Dependent,   // a proven conflict, or a construct no parallel loop may have
  };
  // Why: each reason is one diagnostic with its notes. A proven reason is an
  // error; an unproven one a warning (an error under --strict).
  struct Reason {
    Kind K;
    Finding Main;
    std::vector<Finding> Notes;
    // For a possible overlap of two objects (MayAlias), reported only once
    // the maps are known (settleAliasChecks), which may turn it into a
    // run-time check.
    std::optional<PossibleOverlap> Overlap;
  };
  bool Decided = false; // false: the loop was rejected before legality was checked
  Kind K = Independent;
  std::vector<Reason> Reasons;
  // Two iterations that conflict, for the first proven dependence on an
  // array ("iterations i=0 and i=1 both write a[1]"); empty when none.
  std::string Witness;

  // The kind its reasons make it: the strongest of them.
  void recompute() {
    K = Independent;
    for (const Reason &R : Reasons)
      if (R.K > K)
        K = R.K;
  }
  void add(Reason R) {
    if (R.K > K)
      K = R.K;
    Reasons.push_back(std::move(R));
  }
};

const char *spelling(LegalityVerdict::Kind K);

// How the analysis treats what it cannot prove, passed down from the command line.
struct AnalysisOptions {
  bool Strict = false; // --strict: an unproven loop is rejected
  // The exact answers found without isl (lib/analysis/query/Shortcuts.cpp)
  // are taken; off, isl answers every question, so that a test can check
  // that the shortcuts decide as isl does (datamap/isl-agrees.test).
  bool ExactShortcuts = true;
};

// The run-time checks, one variant (lib/rewrite/Spelling spells them):
// Two maps (indices into LoopAnalysis::Arrays, written and other) that may
// overlap: their sections are compared (`.check_disjoint(...)`).
struct DisjointMaps {
  unsigned Written, Other;
};
// Two objects that may overlap outside kernel mode, as the loop's scope names
// them: each one's section over the whole loop, or the whole object where
// Section is nullopt, is compared (`.check_disjoint_objects(...)`).
struct CheckedObject {
  std::string Name;
  std::optional<AffineSection> Section;
};
struct DisjointObjects {
  CheckedObject Written, Other;
};
// A built-in array whose inner subscripts the loop keeps inside their
// dimensions only for some values of its parameters (`a[i][j]` of a
// `T a[][64]` with `j < m`): Condition says when, and the rewritten loop
// runs serially when it does not hold (`.check_within(...)`).
struct WithinDimensions {
  std::string Name;
  ParamCondition Condition;
  clang::SourceLocation Loc; // the first write
};
using RuntimeCheck = std::variant<DisjointMaps, DisjointObjects, WithinDimensions>;

struct LoopAnalysis {
  Annotation Pragma;
  // The function or lambda whose body holds the loop.
  const clang::Decl *Enclosing = nullptr;
  std::optional<CanonicalLoop> Loop; // nullopt: the loop was rejected before analysis
  // With collapse(n): the n-1 loops nested in Loop that run with it, outermost
  // first; the body the rewriter keeps is the innermost one's.
  std::vector<CanonicalLoop> Collapsed;
  LoopClauses Clauses;
  LoopMode Mode = LoopMode::Host;
  bool Accepted = false;
  LegalityVerdict Verdict;
  std::vector<ArrayUse> Arrays;      // kernel mode: what to map
  // Kernel mode: numbers the body reads through members (`this->scale`,
  // `g.n`), which it gets as copies made where the loop starts: the object
  // they are in stays in host memory.
  std::vector<MemberPath> MemberValues;
  // Arrays of variable-length rows the body names (`double b[n][m]`): no
  // lambda can capture them, so the body captures a description of their
  // rows under their names instead (::gpu_autopar::rows_of; CPU threads only).
  std::vector<const clang::VarDecl *> VariableRows;
  // What the rewritten loop checks before it runs; it runs its iterations in
  // order on the calling thread when a check fails (docs/generated-code.md).
  std::vector<RuntimeCheck> Checks;
  // Why the rewritten loop runs its iterations in order on the calling thread
  // (`.run_serially(...)`): an OpenACC `kernels loop` or `auto` loop whose
  // iterations are not proven independent. Empty: it may run in parallel.
  std::string SerialReason;
  // Why the loop got its mode / was rejected, with locations, for --report.
  struct Reason {
    std::string Text;
    clang::SourceLocation Loc;
  };
  std::vector<Reason> Reasons;
  // Variables declared outside the loop that the body reads / writes (arrays
  // and scalars), in order of first use, for --report.
  std::vector<const clang::VarDecl *> Reads, Writes;
  // Edits the rewriter makes inside the body, from the body model: each
  // `continue` that ends an iteration of the rewritten loop (with collapse,
  // of the innermost collapsed loop) becomes `return`; in task mode each
  // kernel launch gets the lease's stream.
  std::vector<const clang::ContinueStmt *> IterationEnds;
  std::vector<const clang::CUDAKernelCallExpr *> KernelLaunches;
  // Kernel mode: the visible callees the body reaches, transitively, that the
  // rewrite marks GPU_AUTOPAR_HD (functions, instantiations, lambdas' call
  // operators; decide/DeviceReach.h).
  std::vector<const clang::FunctionDecl *> DeviceCallees;
};

} // namespace gpuautopar
