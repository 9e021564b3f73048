// The value a scalar the body assigns has where it is read (internal to the
// analysis layer). NPB writes `i = 1; forcing[i][j][k][m] = ...; i = 2; ...`
// and `n = (m - 3 + 1) * 5; ... lhs[n + 3][i][j][k]` with `i` and `n`
// private: each read of the scalar has one assignment that reaches it, in
// the same iteration, and the subscript is that assignment's value.
#pragma once

namespace clang {
class DeclRefExpr;
class Expr;
class Stmt;
} // namespace clang

namespace gpuautopar {

// The right side of the assignment `v = e;` (or the initialiser of
// `int v = e;`) that every path from the start of an iteration of the loop
// with body `Body` to the read `Use` of `v` passes last, where neither `v`
// nor a variable `e` names can change between the two; null where there is
// no such assignment (`v` is assigned in a branch, in an earlier iteration
// of a loop around the read, or only before the annotated loop). Whether
// `e` itself is a value the model can read is the caller's question.
const clang::Expr *reachingValue(const clang::Stmt *Body, const clang::DeclRefExpr *Use);

} // namespace gpuautopar
