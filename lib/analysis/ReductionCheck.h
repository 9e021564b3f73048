// Checks that a reduction variable is used only in updates with its clause's
// operator (internal).
#pragma once

#include "gpuautopar/LoopAnalysis.h"

#include <optional>

namespace clang {
class ASTContext;
class Stmt;
} // namespace clang

namespace gpuautopar {

// Recognised updates: `s += x`, `s -= x`, `s = s + x`, `s *= x`, `s++`,
// `m = std::max(m, x)`, `m = x > m ? x : m`, `if (x > m) m = x;`, `&=`, `|=`,
// `^=`, `b = b && x`, `b = b || x` (and the min forms). Any other use of the
// variable in `Body` is an error: returned as a proven reason of the legality
// verdict, nothing when every use is an update.
std::optional<LegalityVerdict::Reason> checkReduction(const ReductionClause &R, const clang::Stmt *Body,
                                                      clang::ASTContext &Ctx);

} // namespace gpuautopar
