// A condition on a loop's parameters as a value: comparisons, && and || of
// sums of products of numbers and loop-invariant values. The analysis makes
// one from an isl set (`j < m` of `T a[][64]` needs `m <= 64`); only
// lib/rewrite/Spelling turns it into C++.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gpuautopar {

struct ParamCondition {
  enum Kind {
    Number, // Value
    Param,  // a loop-invariant value, named as the user writes it ("n", "g.offset", "v.size()")
    Or,
    And,
    Eq,
    Le,
    Lt,
    Ge,
    Gt,
    Add,
    Sub,
    Mul,
    Neg, // one argument
  } K = Number;
  int64_t Value = 0;
  std::string Name;
  std::vector<ParamCondition> Args; // two, or one for Neg
};

} // namespace gpuautopar
