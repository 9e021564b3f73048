// How the body model reads single constructs (internal): a counted inner
// loop's header, an element access's chain of subscripts, and what a called
// function is known to do.
#pragma once

#include "model/BodyModel.h"

#include "llvm/ADT/DenseSet.h"

#include <optional>
#include <vector>

namespace clang {
class ASTContext;
class CXXMethodDecl;
class Expr;
class ForStmt;
class FunctionDecl;
class VarDecl;
} // namespace clang

namespace gpuautopar {

// Member functions that only read a container or give access to one element
// (not a std::map's operator[], which may insert).
bool isElementAccessor(const clang::CXXMethodDecl *M);

// `m[k]` through a non-const operator[] of a standard class whose subscript
// does not name an element it already holds (std::map, std::unordered_map):
// the call may add the key.
bool insertsKey(const clang::CXXOperatorCallExpr *E);

// C and C++ library functions that read or write a stream.
bool isInputOutput(const clang::FunctionDecl *F);

// `for (j = lo; j < ub; ++j)` as a counted loop over a variable other than
// the annotated loop's `Induction`, or nothing.
std::optional<InnerLoop> countedLoop(const clang::ForStmt *S, const clang::VarDecl *Induction,
                                     const clang::ASTContext &Ctx);

// An element access `a[i][j]`, `v.at(k)`, `*p` or `*(p + k)` taken apart:
// its subscripts outermost first (null for `*p`), the expressions from the
// access down to Base, and the base expression.
struct ElementChain {
  std::vector<const clang::Expr *> Subscripts;
  std::vector<const clang::Expr *> Chain;
  const clang::Expr *Base = nullptr;
};
ElementChain elementChain(const clang::Expr *E, clang::ASTContext &Ctx);

} // namespace gpuautopar
