#include "schedule_policy.h"

#include <algorithm>
#include <cmath>

#include "chunk_scheduler.h"

namespace gpu_autopar {
namespace detail {
namespace {

std::uint64_t div_up(std::uint64_t a, std::uint64_t b) { return a / b + (a % b != 0); }

// dynamic's one chunk size: about 1/16 of a worker's share, or c if larger.
std::uint64_t dynamic_chunk(std::uint64_t count, std::uint64_t workers, std::uint64_t chunk) {
  return std::max<std::uint64_t>(chunk, std::max<std::uint64_t>(1, count / (workers * 16)));
}

// The first `per_worker` iterations of each worker, from the front.
reservation first_chunks(std::uint64_t count, std::uint64_t workers, std::uint64_t per_worker) {
  return reservation{0, std::min(count, per_worker * workers)};
}

} // namespace

reservation static_schedule::reserve(std::uint64_t count, std::uint64_t, std::uint64_t chunk) const {
  if (chunk > 0) // schedule(static, c): pieces of c, round-robin over the workers
    return reservation{chunk, 0};
  return reservation{0, count}; // one contiguous share per worker
}

reservation dynamic_schedule::reserve(std::uint64_t count, std::uint64_t workers, std::uint64_t chunk) const {
  return first_chunks(count, workers, dynamic_chunk(count, workers, chunk));
}

std::uint64_t dynamic_schedule::fresh_size(const chunk_scheduler& s, int) const {
  return dynamic_chunk(s.count(), std::uint64_t(s.workers()), s.min_chunk());
}

reservation guided_schedule::reserve(std::uint64_t count, std::uint64_t workers, std::uint64_t chunk) const {
  return first_chunks(count, workers, std::max<std::uint64_t>(chunk, div_up(count, 2 * workers)));
}

std::uint64_t guided_schedule::fresh_size(const chunk_scheduler& s, int) const {
  return std::max(s.min_chunk(), div_up(s.remaining(), 2 * std::uint64_t(s.workers())));
}

reservation adaptive_schedule::reserve(std::uint64_t count, std::uint64_t workers, std::uint64_t chunk) const {
  // A probe that measures each device's speed before the bulk is shared out.
  return first_chunks(count, workers, std::max<std::uint64_t>(chunk, std::max<std::uint64_t>(1, count / (workers * 8))));
}

// A chunk pays fixed costs whatever its size (on a GPU: each copy's and the
// launch's latency, issuing them, the host's wait and wake-up: some 20 us);
// a fresh chunk is at least this long at the device's measured rate, so
// those stay a small part of it. A short loop then runs as its probes and
// one more chunk per worker.
constexpr double kMinChunkSeconds = 200e-6;

// Measured rates closer than this (relatively) to the measured devices'
// mean are taken as the mean: devices of one kind differ by the noise of
// measuring them (which chunks met which on a shared copy engine, the
// host's scheduling), and shares cut on that noise would make the device
// given most the one the loop waits for. A device that is really slower
// (another model, or a GPU another program keeps busy) differs by more.
constexpr double kSameSpeed = 0.2;

std::uint64_t adaptive_schedule::fresh_size(const chunk_scheduler& s, int worker) const {
  // Half of what is left, shared in proportion to measured throughput:
  // devices then finish at about the same time.
  const int d = s.worker_device(worker);
  const std::uint64_t min_chunk = s.min_chunk();
  const int slots = std::max(1, s.workers_on(d));
  // The device's throughput is its iterations over its chunks' summed
  // times; its slots' chunks overlap, so that is about one slot's rate.
  const auto by_time = std::uint64_t(s.throughput(d) * kMinChunkSeconds);
  const std::uint64_t n = std::max(
      min_chunk, std::uint64_t(double(s.remaining()) * device_share(s, d) / slots * 0.5 + 0.5));
  // No device runs ahead of its share of the whole loop while another has
  // room left in its own: on a program's first loop the first device whose
  // worker is up would otherwise take nearly all of a short loop before the
  // others start, and a device that was handed much early keeps its lead
  // (issue 11). When every device has had its share, the rest goes to
  // whoever asks.
  const std::uint64_t have = s.assigned(d), fair = fair_share(s, d);
  if (have < fair) {
    // What is left of this worker's part of its device's share: all of it
    // when that is short (each slot keeps its own part, so the slots still
    // overlap one another's copies and kernels).
    const std::uint64_t mine = (fair + slots - 1) / std::uint64_t(slots), had = s.worker_assigned(worker);
    if (by_time > 0 && mine > had && mine - had <= by_time)
      return std::min(mine - had, fair - have);
    return std::max(min_chunk, std::min(std::max(n, by_time), fair - have));
  }
  for (int e = 0; e < s.devices(); ++e)
    if (e != d && !s.dropped(e) && s.workers_on(e) > 0 && s.assigned(e) < fair_share(s, e))
      return 0;
  return std::max(n, by_time);
}

double adaptive_schedule::device_share(const chunk_scheduler& s, int d) {
  double known = 0;
  int measured = 0;
  for (int w = 0; w < s.workers(); ++w) {
    const double t = s.throughput(s.worker_device(w));
    if (!s.dropped(s.worker_device(w)) && t > 0) {
      known += t;
      ++measured;
    }
  }
  const double average = measured ? known / measured : 1.0;
  // A device's rate: the average where it is not measured yet, or measured
  // within noise of it.
  auto rate = [&](int device) {
    const double t = s.throughput(device);
    return t <= 0 || std::abs(t - average) <= kSameSpeed * average ? average : t;
  };
  double sum = 0;
  for (int w = 0; w < s.workers(); ++w)
    if (!s.dropped(s.worker_device(w)))
      sum += rate(s.worker_device(w));
  return sum > 0 ? rate(d) * s.workers_on(d) / sum : 1.0;
}

std::uint64_t adaptive_schedule::fair_share(const chunk_scheduler& s, int d) {
  return std::uint64_t(double(s.count()) * device_share(s, d) + 0.5);
}

const schedule_policy& choose_schedule(schedule_kind kind, bool in_data_region) {
  static const static_schedule static_policy;
  static const affinity_schedule affinity_policy;
  static const dynamic_schedule dynamic_policy;
  static const guided_schedule guided_policy;
  static const adaptive_schedule adaptive_policy;
  switch (kind) {
  case schedule_kind::static_:
    return static_policy;
  case schedule_kind::dynamic:
    return dynamic_policy;
  case schedule_kind::guided:
    return guided_policy;
  case schedule_kind::adaptive:
    break;
  }
  // The default schedule. Inside a data region each device gets the same
  // contiguous share loop after loop, so what it holds resident is what its
  // next chunks use.
  return in_data_region ? static_cast<const schedule_policy&>(affinity_policy) : adaptive_policy;
}

} // namespace detail
} // namespace gpu_autopar
