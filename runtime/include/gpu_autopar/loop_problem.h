// A loop bound or clause value found invalid (a zero step, a '<' loop
// counting down, devices(0), ...). The iteration space and the options
// builder find it while the arguments of the loop's call are evaluated,
// before the loop's site is known: each keeps the problem in its own value
// (problem()), and the call throws it first thing, with the site, before any
// iteration runs:
//   std::invalid_argument("gpu-autopar: file.cpp:12: loop step is zero")
// Nothing travels outside the values: a space or options built and not run,
// or a call that failed for another reason, leave nothing to a later loop.
#pragma once

#include <stdexcept>
#include <string>

#include <gpu_autopar/loop_body.h>

namespace gpu_autopar {
namespace detail {

[[noreturn]] inline void throw_loop_problem(const loop_site& site, const std::string& why) {
  throw std::invalid_argument("gpu-autopar: " + std::string(site.file) + ":" + std::to_string(site.line) + ": " +
                              why);
}

// Throws the loop's first problem: its space's, then its options'.
template <class Space, class Options>
void require_valid_loop(const loop_site& site, const Space& space, const Options& options) {
  std::string why = space.problem();
  if (why.empty())
    why = options.problem();
  if (!why.empty())
    throw_loop_problem(site, why);
}

} // namespace detail
} // namespace gpu_autopar
