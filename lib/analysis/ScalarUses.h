// How one iteration of a loop body uses a scalar declared outside it, for
// the data-sharing checks and advice of the legality check (internal):
// whether an iteration may read it before writing it (a private copy would
// then need a value from a previous iteration, which a parallel loop does
// not have), and which reduction its updates are, if any.
#pragma once

#include "gpuautopar/LoopAnalysis.h"

#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class Expr;
class Stmt;
class VarDecl;
} // namespace clang

namespace gpuautopar {

// Whether the checks below follow `V`: a scalar (arithmetic, enum, pointer)
// or a built-in array of scalars, not a reference. Objects of class type
// are used through calls whose effects these checks do not follow.
bool tracksScalarUses(const clang::VarDecl *V);

// The first read of `V` in `Body` that may run, in one run of `Body`, before
// any write of `V` (on some path through the `if`s, `?:`, `&&` and `||`),
// or null. Anything that may write `V` without being seen as a write (its
// address taken, a reference bound, a call given it by reference, a lambda
// capturing it) counts as a write, as does a write inside an inner loop or
// a `switch`, so that a read reported is certainly reachable unwritten
// (an error may rest on it).
const clang::Expr *readBeforeWrite(const clang::Stmt *Body, const clang::VarDecl *V);

// The reduction `V`'s uses in `Body` are: every use an update with one
// operator (`s += x`, `m = std::max(m, x)`, `if (x > m) m = x;`, ...), as a
// reduction clause would require; nothing otherwise.
std::optional<ReductionOp> reductionItIs(const clang::Stmt *Body, const clang::VarDecl *V, clang::ASTContext &Ctx);
// Whether every update of `V` in `Body` stores 1 (or every one 0): a flag.
bool storesFlag(const clang::Stmt *Body, const clang::VarDecl *V, clang::ASTContext &Ctx);

// What to do about `V`, a variable declared outside the loop that the body
// (`Body`, one iteration) writes without a clause: the reduction its updates
// are; nothing private can hold a value an iteration reads before writing
// it; a reference or an object of class type is not made private by a copy;
// otherwise private(...). Completes "'v' is declared outside the loop and
// written in it; ...".
std::string sharedWriteAdvice(const clang::Stmt *Body, const clang::VarDecl *V, clang::ASTContext &Ctx);

// The private, firstprivate and lastprivate variables of `A` that one
// iteration (`Body`) may read before it writes them: an error at the read
// with a note at the clause (a firstprivate variable only where every
// iteration writes it: read alone, its copy holds the value before the loop).
// `OpenMP`: the directive was OpenMP's, whose copies are per thread.
std::vector<LegalityVerdict::Reason> privateReadsBeforeWrites(const LoopAnalysis &A, const clang::Stmt *Body,
                                                              bool OpenMP);

} // namespace gpuautopar
