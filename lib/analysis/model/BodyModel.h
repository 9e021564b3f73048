// What the body of an annotated loop does, collected in one walk (internal to
// the analysis layer): the accesses to data declared outside it, with the
// statements around each one, the counted inner loops, the writes, the exits
// and the calls. Legality and the dependence test read this model; they do not
// walk the body again.
#pragma once

#include "ExprHelpers.h" // inside()
#include "ReductionCheck.h"
#include "gpuautopar/LoopAnalysis.h"

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
} // namespace clang

namespace gpuautopar {

// A counted loop nested in the body: `for (j = lo; j < ub; j += c)` in either
// direction, its variable declared in the header or anywhere before it
// (C89 `int i, j;` at the top of the function with `private(j)`).
struct InnerLoop {
  const clang::ForStmt *Stmt = nullptr;
  const clang::VarDecl *Var = nullptr;
  const clang::Expr *Lower = nullptr; // the first value of Var
  const clang::Expr *Bound = nullptr; // Var Compare Bound holds while the loop runs
  LoopCompare Compare = LoopCompare::Less;
  int64_t Step = 1;                   // signed, never 0
  // The body writes Var, or leaves the loop early (break, goto): the values
  // Var takes are not just the header's, so the loop is not counted.
  bool Irregular = false;
};

// A statement around an access, outermost first.
struct Enclosing {
  enum Kind {
    Counted, // the body of a counted inner loop
    Guard,   // a branch of an `if`: Cond holds (Holds) or does not
    Opaque,  // anything else that may run an access zero or many times
  } K = Opaque;
  const InnerLoop *Loop = nullptr; // Counted
  const clang::Expr *Cond = nullptr; // Guard
  bool Holds = true;
};

// One read and/or write of a variable declared outside the loop: the variable
// itself (`s = ...`) or one element of it (`a[i][j]`, `v[k]`, `*p`, `s.data[i]`).
struct Access {
  // The variable declared outside the loop: `a` in `a[i]`, `s` in `s.data[i]`;
  // null for a member of the enclosing object (`data[i]` in a method).
  const clang::VarDecl *Var = nullptr;
  // What is indexed, as the user names it ("a", "s.data", "data") and the
  // declaration that identifies it with that name (the variable, or the field
  // for members of the enclosing object): accesses are compared per object.
  std::string Name;
  const clang::ValueDecl *Key = nullptr;
  // The type of the indexed object (`float *`, `float[64][64]`, `std::vector<float>`).
  clang::QualType ObjectType;
  bool ThroughMember = false;     // reached through a member (`s.data`, `this->data`)
  // The member expression that names the object (`s.inner.data`, `this->data`,
  // `data` in a method): what a data map of the member replaces in the body.
  const clang::MemberExpr *Member = nullptr;
  // Reached through an inline accessor (`d.x(i)` with `T &x(Index i) {
  // return m_x[i]; }`): the member it indexes. The body does not name it (it
  // may be private), so no map or check can.
  const clang::FieldDecl *AccessorOf = nullptr;
  const clang::Expr *E = nullptr; // the whole access, for locations and messages
  clang::SourceLocation NameLoc;  // where the variable is named in it
  bool Element = false;           // an element, not the variable itself
  // The variable itself, for `v.size()` or `v.empty()`: no element is touched.
  bool SizeOnly = false;
  // The element's address is taken (`&a[k]`): what is reached from there,
  // with pointer arithmetic or by a callee, is not this element alone.
  bool AddressTaken = false;
  // Its value is all that is used: an lvalue-to-rvalue conversion right
  // around it (no reference bound to it, no address, no write).
  bool LoadedByValue = false;
  // Subscripts of an element access, outermost dimension first; a null entry
  // stands for the constant 0 (`*p` is `p[0]`). Fewer subscripts than the
  // object has dimensions: a whole row (`f(m[i])`).
  std::vector<const clang::Expr *> Subscripts;
  bool Read = false, Write = false;
  // The write may happen (an argument bound to a non-const reference, a
  // non-const member call), as opposed to an assignment that does.
  bool MayWrite = false;
  // A whole row handed to a visible function that reaches only elements
  // inside it (model/PointerParams.h): every element of the row stands for
  // what the call may touch there, a superset of it.
  bool RowInside = false;
  // A whole row that decays to a pointer (`f(m[i])`, `double *r = m[i]`):
  // unless RowInside, what is reached from it may lie past the row (code
  // relies on the flat layout), so it stands for no element in particular.
  bool RowDecays = false;
  std::vector<Enclosing> Around; // outermost first
  // A `continue` of the annotated loop, a goto or a throw comes before it:
  // the access may not happen although its conditions hold.
  bool AfterExit = false;
};

struct BodyModel {
  std::vector<Access> Accesses;
  std::deque<InnerLoop> InnerLoops; // stable addresses: Enclosing points into it
  // Statements and calls that leave the loop or end the program: where, and
  // what ("break", "goto", "exit", "'exit' (called by 'check')").
  std::vector<std::pair<clang::SourceLocation, std::string>> JumpsOut;
  // Where an exception may leave an iteration: a throw outside any try
  // block of the body, or a call to a function that may throw.
  std::vector<const clang::Expr *> Throws;
  // Every `continue` outside lambdas, with the loop it continues (null: the
  // annotated loop, whose iteration it ends).
  std::vector<std::pair<const clang::ContinueStmt *, const clang::Stmt *>> Continues;
  // Kernel launches outside lambdas (`k<<<g, b>>>(...)`).
  std::vector<const clang::CUDAKernelCallExpr *> KernelLaunches;
  // What decides where the body can run (classification judges them), in the
  // order the body has them, lambdas of the body included: they run where
  // they are written.
  struct Construct {
    enum Kind {
      KernelLaunch, // E: the launch
      Call,         // E: any other call (its callee may be null: through a pointer)
      Construction, // E: a constructor call
      New,
      Delete,
      Throw,
      Try,          // S
      StaticLocal,  // V: a static or thread_local variable of the body
      Global,       // E, V: a use of a variable with global storage
      OuterLambda,  // E: a call of a lambda defined before the loop
    } K;
    const clang::Expr *E = nullptr;
    const clang::Stmt *S = nullptr;
    const clang::VarDecl *V = nullptr;
  };
  std::vector<Construct> Constructs;
  // The uses of each variable of the reduction clauses.
  std::map<const clang::VarDecl *, ReductionUses> Reductions;
  std::vector<const clang::Expr *> InductionWrites;
  // Calls whose effects the analysis cannot see: undefined functions, calls
  // through pointers, virtual calls, std::function.
  struct Call {
    const clang::CallExpr *E;
    std::string Callee; // as the user would name it; "" for an indirect call
    std::string Why;    // completes "call to 'f' %0"
  };
  std::vector<Call> UnseenCalls;
  // Variables shared by all iterations that a function the body calls writes
  // whole: globals and statics, and variables a lambda captured.
  struct GlobalWrite {
    const clang::CallExpr *Call;
    std::string Callee; // as the user names it: "f", "step" for a lambda
    const clang::VarDecl *Global;
    // Every iteration writes it: the call stands in the body under no
    // condition or inner loop, and the callee writes it on every call.
    bool EveryIteration = false;
  };
  std::vector<GlobalWrite> GlobalWrites;
  // Variables declared outside the loop that a called function reads where
  // the body does not show it (a global, a lambda's capture): a write to
  // them by the loop is a dependence the subscript test cannot place.
  struct HiddenRead {
    const clang::CallExpr *Call;
    std::string Callee;
    const clang::VarDecl *Var;
  };
  std::vector<HiddenRead> HiddenReads;
  // Accesses through a reference or pointer a call returns (`v(i) = x` with
  // a view's `operator()`, `v.front() = x`): which object they reach is the
  // callee's to say. Object: the outside variable it is called on, if any.
  struct ReturnedReference {
    const clang::CallExpr *Call;
    std::string Callee;
    const clang::VarDecl *Object;
    bool Write;
  };
  std::vector<ReturnedReference> ReturnedReferences;
  // A member function called on an object from outside the body that reads
  // through the object's pointer members (`bv[i + 1]` with a view's
  // `double operator[](int i) const { return p[i]; }`): the element types it
  // reaches, which matter where the loop writes elements of those types.
  struct MemberPointerRead {
    const clang::CallExpr *Call;
    std::string Callee;
    const clang::VarDecl *Object; // null: the body's own `this`
    std::vector<const clang::Type *> Pointees;
  };
  std::vector<MemberPointerRead> MemberPointerReads;
  // Input or output: iterations would interleave it.
  std::vector<std::pair<const clang::Expr *, std::string>> InputOutput;
  // Members of the enclosing object (`count = 0` in a method) the body writes.
  std::vector<const clang::MemberExpr *> MemberWrites;
  // Writes through a local pointer or reference bound to data declared outside.
  struct AliasWrite {
    const clang::VarDecl *Local, *Target;
    const clang::Expr *E;
  };
  std::vector<AliasWrite> AliasWrites;
  // Reads through such a local (`const double *p = a + i - 1; ... *p`).
  std::vector<AliasWrite> AliasReads;
  // Outside data whose address is passed to a function (`f(a)`,
  // `memcpy(&a[i], ...)`), or whose elements a lambda writes through its
  // capture: How completes "it is ... 'f'" ("passed to", "written by").
  struct Escape {
    std::string Callee;
    const clang::VarDecl *Target;
    const clang::Expr *Arg;
    const char *How = "passed to";
  };
  std::vector<Escape> Escapes;
  llvm::DenseSet<const clang::VarDecl *> WrittenLocals;  // body variables assigned after their declaration
  llvm::DenseSet<const clang::VarDecl *> WrittenOutside; // outside variables the body writes (whole)
  bool HasJumps = false; // goto or throw somewhere in the body
  clang::SourceRange LoopRange;
  const clang::Stmt *Body = nullptr; // the annotated loop's
  const clang::VarDecl *Induction = nullptr;

  // Declared outside the annotated loop (or a static local of it).
  bool isOutside(const clang::VarDecl *V, const clang::SourceManager &SM) const;
};

// Walks `A.Loop`'s body once.
BodyModel collectBody(const LoopAnalysis &A, clang::ASTContext &Ctx);

} // namespace gpuautopar
