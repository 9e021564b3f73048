// `options()`: the clauses of one annotated loop as generated code spells
// them, e.g. `::gpu_autopar::options().schedule(schedule_kind::dynamic, 64)`.
// Each setter corresponds to one clause (README.md, "The annotation"); what
// is not set keeps the default.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <gpu_autopar/loop_body.h>
#include <gpu_autopar/loop_problem.h>

namespace gpu_autopar {

class loop_options_builder {
public:
  // schedule(kind[, chunk]); chunk 0 lets the schedule choose.
  loop_options_builder& schedule(schedule_kind kind, long long chunk = 0) {
    if (chunk < 0)
      return refuse("schedule chunk must not be negative, got " + std::to_string(chunk));
    o_.schedule = kind;
    o_.chunk = static_cast<std::uint64_t>(chunk);
    return *this;
  }
  // devices(n): at most n devices (n >= 1).
  loop_options_builder& devices(long long n) {
    if (n < 1)
      return refuse("devices(n) needs n >= 1, got " + std::to_string(n));
    o_.max_devices = static_cast<int>(n);
    return *this;
  }
  // slots(k): at most k chunks in flight on one GPU (k >= 1).
  loop_options_builder& slots(long long k) {
    if (k < 1)
      return refuse("slots(k) needs k >= 1, got " + std::to_string(k));
    o_.slots = static_cast<int>(k);
    return *this;
  }
  loop_options_builder& fallback(fallback_policy p) {
    o_.fallback = p;
    return *this;
  }
  // min_iterations(n): below n iterations the loop runs serially (n >= 0).
  loop_options_builder& min_iterations(long long n) {
    if (n < 0)
      return refuse("min_iterations(n) needs n >= 0, got " + std::to_string(n));
    o_.min_iterations = n;
    return *this;
  }

  // check_disjoint(w, "out", o, "in"): the tool could not prove that the
  // objects of data maps w (written) and o (0-based, in data(...) order) are
  // distinct; before the loop runs, their sections over the whole loop are
  // compared, and if they share a byte the loop runs serially (docs/runtime.md).
  struct disjoint_check {
    std::size_t written;
    const char* written_name;
    std::size_t other;
    const char* other_name;
  };
  loop_options_builder& check_disjoint(std::size_t written, const char* written_name, std::size_t other,
                                       const char* other_name) {
    disjoint_.push_back({written, written_name, other, other_name});
    return *this;
  }
  const std::vector<disjoint_check>& disjoint_checks() const { return disjoint_; }

  loop_options with_mode(loop_mode mode) const {
    loop_options o = o_;
    o.mode = mode;
    return o;
  }

private:
  // An invalid value keeps the default; run_loop reports it with the loop.
  loop_options_builder& refuse(const std::string& why) {
    detail::defer_loop_problem(why);
    return *this;
  }
  loop_options o_;
  std::vector<disjoint_check> disjoint_;
};

inline loop_options_builder options() { return {}; }

} // namespace gpu_autopar
