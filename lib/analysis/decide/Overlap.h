// Whether two objects the loop body uses for elements may share memory, and
// how the loop's scope names one to compare it whole: the questions behind
// a possible overlap (LegalityVerdict::Reason::Overlap) (internal).
#pragma once

#include "model/BodyModel.h"

#include <string>

namespace clang {
class ASTContext;
} // namespace clang

namespace gpuautopar {

// May two objects used in the loop share memory? Pointers may point into
// the same array, whatever their shapes (unless restrict, or of scalar types
// the strict aliasing rule keeps apart); a pointer may point into an array
// or container of its scalar type; a container or array reached by
// reference (a `std::vector<T> &` parameter, a member) may be bound to
// another of the same type. Two variables that hold their own storage never
// overlap.
bool mayShareMemory(const Access &A, const Access &B, clang::ASTContext &Ctx);

// A std::vector<bool>: its elements are bits of shared words, reached
// through proxies, and it has no data().
bool packedBits(clang::QualType Object);

// A container or built-in array the rewritten code can name as the user
// does (`out`, `g.v`, a member `cells`): its bytes can be compared whole.
bool wholeObject(const Access &X);

// What a user can do about a possible overlap (MayAlias's last argument).
std::string aliasAdvice(const Access &A, const Access &B);

} // namespace gpuautopar
