// A loop bound or clause value found invalid while the arguments of a runtime
// call are evaluated: before the call, so before the loop's site is known.
// The value records the problem here; run_loop, the first thing the call
// does, throws std::invalid_argument naming the loop ("file.cpp:12: ...").
#pragma once

#include <string>

namespace gpu_autopar {
namespace detail {

inline std::string& pending_loop_problem() {
  static thread_local std::string problem;
  return problem;
}

// The first problem of a call is the one reported.
inline void defer_loop_problem(const std::string& what) {
  if (pending_loop_problem().empty())
    pending_loop_problem() = what;
}

} // namespace detail
} // namespace gpu_autopar
