// The part of lib/rewrite/Spelling that turns a condition on the loop's
// parameters into C++ text, for the rewritten file, --report and the
// analysis's remark that quotes it (its own library, so that the analysis
// links it without the rest of rewrite/).
#pragma once

#include "gpuautopar/ParamCondition.h"

#include <string>

namespace gpuautopar {

// Who reads the text: the rewritten code, or the user (a message, --report).
enum class SpellFor {
  // Each parameter read as a long long and each number a long long literal,
  // so that unsigned parameters compare as numbers: `(long long)(m) <= 64LL`.
  Code,
  // As the user writes it: `m <= 64`.
  User,
};

std::string spell(const ParamCondition &C, SpellFor For);

// The condition as a message quotes it (the analysis's remarks):
// spell(C, SpellFor::User).
std::string shown(const ParamCondition &C);

} // namespace gpuautopar
