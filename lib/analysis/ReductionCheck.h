// Checks that a reduction variable is used only in updates with its clause's
// operator (internal).
#pragma once

#include "gpuautopar/LoopAnalysis.h"

namespace clang {
class ASTContext;
class DiagnosticsEngine;
class Stmt;
} // namespace clang

namespace gpuautopar {

// Recognised updates: `s += x`, `s -= x`, `s = s + x`, `s *= x`, `s++`,
// `m = std::max(m, x)`, `m = x > m ? x : m`, `if (x > m) m = x;`, `&=`, `|=`,
// `^=`, `b = b && x`, `b = b || x` (and the min forms). Any other use of the
// variable in `Body` is an error. Returns false after an error.
bool checkReduction(const ReductionClause &R, const clang::Stmt *Body, clang::ASTContext &Ctx,
                    clang::DiagnosticsEngine &Diags);

} // namespace gpuautopar
