// `options()`: the clauses of one annotated loop as generated code spells
// them, e.g. `::gpu_autopar::options().schedule(schedule_kind::dynamic, 64)`.
// Each setter corresponds to one clause (README.md, "The annotation"); what
// is not set keeps the default.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <gpu_autopar/loop_body.h>

namespace gpu_autopar {

// The bytes of a whole object (object_bytes(v) in data_map.h), or of a map's
// section over a loop.
struct object_span {
  const void* data = nullptr;
  std::size_t bytes = 0;
  bool overlaps(const object_span& o) const {
    const char *a = static_cast<const char*>(data), *b = static_cast<const char*>(o.data);
    return bytes && o.bytes && a < b + o.bytes && b < a + bytes;
  }
};

// The reason a loop whose objects overlap runs serially (loop_options::serial_reason).
inline std::string overlap_reason(const char* written_name, const char* other_name) {
  return std::string("'") + written_name + "' and '" + other_name + "' overlap in memory";
}

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

  // check_disjoint_objects(object_bytes(out), "out", object_bytes(g.v), "g.v"):
  // two containers or built-in arrays the tool could not prove distinct (two
  // references a caller may bind to one vector), compared whole before the
  // loop runs, in any mode.
  loop_options_builder& check_disjoint_objects(object_span written, const char* written_name, object_span other,
                                               const char* other_name) {
    objects_.push_back({written, written_name, other, other_name});
    return *this;
  }
  // Why the loop must run serially: the first pair of check_disjoint_objects
  // that shares a byte; empty when there is none.
  std::string objects_overlap() const {
    for (const auto& c : objects_)
      if (c.written.overlaps(c.other))
        return overlap_reason(c.written_name, c.other_name);
    return {};
  }

  // check_within(holds, "a", "m <= 64"): the tool proved the iterations
  // independent only while the subscripts of the built-in array `a` stay
  // inside its dimensions, which `holds` (the condition, evaluated where the
  // loop starts) says; when it does not, the loop runs serially, in any mode.
  loop_options_builder& check_within(bool holds, const char* name, const char* condition) {
    if (!holds && outside_.empty())
      outside_ = std::string("the subscripts of '") + name + "' may leave its dimensions: " + condition +
                 " does not hold";
    return *this;
  }
  // run_serially("why"): the tool decided that the loop runs its iterations
  // in order, on the calling thread (an OpenACC kernels or auto loop whose
  // iterations it could not prove independent), in any mode.
  loop_options_builder& run_serially(const char* why) {
    if (serially_.empty())
      serially_ = why;
    return *this;
  }
  // Why the loop must run serially: the tool's decision, or the first of
  // the checks above that failed; empty when none did.
  std::string checks_failed() const {
    if (!serially_.empty())
      return serially_;
    std::string why = objects_overlap();
    return why.empty() ? outside_ : why;
  }

  // The first invalid clause value ("devices(n) needs n >= 1, got 0"); empty
  // when there is none. The loop's call throws it with the loop's site
  // (loop_problem.h).
  const std::string& problem() const { return problem_; }

  loop_options with_mode(loop_mode mode) const {
    loop_options o = o_;
    o.mode = mode;
    return o;
  }

private:
  // An invalid value keeps the default; the first one is the loop's problem.
  loop_options_builder& refuse(const std::string& why) {
    if (problem_.empty())
      problem_ = why;
    return *this;
  }
  struct object_check {
    object_span written;
    const char* written_name;
    object_span other;
    const char* other_name;
  };
  loop_options o_;
  std::vector<disjoint_check> disjoint_;
  std::vector<object_check> objects_;
  std::string outside_; // the first check_within that failed
  std::string serially_; // run_serially's reason
  std::string problem_;  // the first invalid value
};

inline loop_options_builder options() { return {}; }

} // namespace gpu_autopar
