#include "schedule_policy.h"

#include <algorithm>

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

std::uint64_t adaptive_schedule::fresh_size(const chunk_scheduler& s, int worker) const {
  // Half of what is left, shared in proportion to measured throughput:
  // devices then finish at about the same time.
  const int d = s.worker_device(worker);
  const std::uint64_t min_chunk = s.min_chunk();
  const std::uint64_t n = std::max(
      min_chunk, std::uint64_t(double(s.remaining()) * device_share(s, d) / s.workers_on(d) * 0.5 + 0.5));
  // No device runs ahead of its share of the whole loop while another has
  // room left in its own: on a program's first loop the first device whose
  // worker is up would otherwise take nearly all of a short loop before the
  // others start, and a device that was handed much early keeps its lead
  // (issue 11). When every device has had its share, the rest goes to
  // whoever asks.
  const std::uint64_t have = s.assigned(d), fair = fair_share(s, d);
  if (have < fair)
    return std::max(min_chunk, std::min(n, fair - have));
  for (int e = 0; e < s.devices(); ++e)
    if (e != d && !s.dropped(e) && s.workers_on(e) > 0 && s.assigned(e) < fair_share(s, e))
      return 0;
  return n;
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
  double sum = 0;
  for (int w = 0; w < s.workers(); ++w)
    if (!s.dropped(s.worker_device(w))) {
      const double t = s.throughput(s.worker_device(w));
      sum += t > 0 ? t : average;
    }
  double mine = s.throughput(d);
  if (mine <= 0)
    mine = average;
  return sum > 0 ? mine * s.workers_on(d) / sum : 1.0;
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
