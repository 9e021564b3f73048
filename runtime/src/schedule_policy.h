// Schedules as policy types, as oneTBB's partitioners are: each one says how
// much of a loop the first round reserves for each worker and how large the
// chunks handed out after that are. The mechanics are the chunk_scheduler's
// and the same for all (reservations, failed chunks handed out first, devices
// that leave the loop, measured throughput).
//
// choose_schedule() is the one place a loop's schedule is decided: the
// schedule clause, and inside a data region the affinity policy for the
// default schedule.
//
// To add a schedule (docs/contributing.md): a schedule_kind value
// (loop_body.h) and its clause spelling in the tool, a policy class here, its
// case in choose_schedule, and its chunks' properties in
// test/unit/schedule_policy_test.cpp.
#pragma once

#include <cstdint>

#include "gpu_autopar/loop_body.h"

namespace gpu_autopar {
namespace detail {

class chunk_scheduler;

// What the first round reserves. Worker w of W owns reserved pieces w, w+W,
// w+2W, ... in order:
//  - piece > 0: the whole loop in pieces of `piece` iterations (the last one
//    shorter);
//  - piece == 0: the first `reserved` iterations in W contiguous pieces whose
//    sizes differ by at most one (the first ones one longer).
// What is not reserved is handed out in fresh chunks, from the front.
struct reservation {
  std::uint64_t piece = 0;
  std::uint64_t reserved = 0;
};

class schedule_policy {
public:
  virtual ~schedule_policy() = default;
  // The schedule as a clause spells it ("static", ...), or "affinity".
  virtual const char* name() const = 0;
  // The first round of a loop of `count` iterations over `workers` workers
  // (>= 1); `chunk` is the clause's chunk size, 0 when not given.
  virtual reservation reserve(std::uint64_t count, std::uint64_t workers, std::uint64_t chunk) const = 0;
  // How many iterations worker w's next fresh chunk should have (the
  // scheduler cuts it to what is left); 0: none for w right now, others
  // have room left in their share. Asked only while fresh iterations remain.
  virtual std::uint64_t fresh_size(const chunk_scheduler& s, int worker) const = 0;

protected:
  schedule_policy() = default;
  schedule_policy(const schedule_policy&) = default;
};

// schedule(static[, c]): every iteration is reserved in the first round: one
// contiguous share per worker, or pieces of c dealt round-robin.
class static_schedule : public schedule_policy {
public:
  const char* name() const override { return "static"; }
  reservation reserve(std::uint64_t count, std::uint64_t workers, std::uint64_t chunk) const override;
  std::uint64_t fresh_size(const chunk_scheduler&, int) const override { return 0; }
};

// The default schedule inside a data region: the static shares, so that each
// device gets the same contiguous part of every loop over the same range and
// the sections it holds resident are the ones its next chunks use
// (docs/runtime.md, "Data regions").
class affinity_schedule final : public static_schedule {
public:
  const char* name() const override { return "affinity"; }
};

// schedule(dynamic[, c]): small chunks of one size (about 1/16 of a worker's
// share, or c if that is larger), many hand-outs: evens out uneven iterations.
class dynamic_schedule final : public schedule_policy {
public:
  const char* name() const override { return "dynamic"; }
  reservation reserve(std::uint64_t count, std::uint64_t workers, std::uint64_t chunk) const override;
  std::uint64_t fresh_size(const chunk_scheduler& s, int worker) const override;
};

// schedule(guided[, c]): each chunk half of what is left over the workers,
// never below c.
class guided_schedule final : public schedule_policy {
public:
  const char* name() const override { return "guided"; }
  reservation reserve(std::uint64_t count, std::uint64_t workers, std::uint64_t chunk) const override;
  std::uint64_t fresh_size(const chunk_scheduler& s, int worker) const override;
};

// schedule(adaptive[, c]), the default: a probe per worker measures each
// device's speed; then half of what is left is shared in proportion to the
// measured throughput, no device running ahead of its share of the whole loop
// while another still has room in its own.
class adaptive_schedule final : public schedule_policy {
public:
  const char* name() const override { return "adaptive"; }
  reservation reserve(std::uint64_t count, std::uint64_t workers, std::uint64_t chunk) const override;
  std::uint64_t fresh_size(const chunk_scheduler& s, int worker) const override;

  // The part of the whole loop device d should run: its throughput over all
  // active devices' (a device not measured yet counts as the average of the
  // measured ones, or all count alike before any is), times its workers.
  static double device_share(const chunk_scheduler& s, int device);
  // device_share in iterations.
  static std::uint64_t fair_share(const chunk_scheduler& s, int device);
};

// The policy a loop runs under: the schedule clause's, except that the
// default (adaptive) inside a live data region is the affinity policy.
const schedule_policy& choose_schedule(schedule_kind kind, bool in_data_region);

} // namespace detail
} // namespace gpu_autopar
