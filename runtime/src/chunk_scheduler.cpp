#include "chunk_scheduler.h"

#include <algorithm>

namespace gpu_autopar {
namespace detail {
namespace {

std::uint64_t div_up(std::uint64_t a, std::uint64_t b) { return a / b + (a % b != 0); }

// How much of the loop the first round reserves, per worker.
std::uint64_t first_chunk(schedule_kind kind, std::uint64_t count, std::uint64_t workers, std::uint64_t min_chunk) {
  switch (kind) {
  case schedule_kind::dynamic:
    // Small pieces, many hand-outs: evens out uneven iterations.
    return std::max<std::uint64_t>(min_chunk, std::max<std::uint64_t>(1, count / (workers * 16)));
  case schedule_kind::guided:
    return std::max<std::uint64_t>(min_chunk, div_up(count, 2 * workers));
  case schedule_kind::adaptive:
  default:
    // A probe that measures each device's speed before the bulk is shared out.
    return std::max<std::uint64_t>(min_chunk, std::max<std::uint64_t>(1, count / (workers * 8)));
  }
}

} // namespace

chunk_scheduler::chunk_scheduler(schedule_kind kind, std::uint64_t count, std::uint64_t min_chunk,
                                 std::vector<int> worker_device, int devices)
    : kind_(kind), count_(count), min_chunk_(min_chunk), worker_device_(std::move(worker_device)),
      workers_(int(worker_device_.size())), first_round_(0, 1), next_piece_(worker_device_.size(), 0),
      device_dropped_(devices, false), done_iterations_(devices, 0.0), done_seconds_(devices, 0.0),
      assigned_(devices, 0) {
  const std::uint64_t w = std::uint64_t(std::max(workers_, 1));
  if (kind_ == schedule_kind::static_) {
    if (min_chunk_ > 0) { // schedule(static, c): pieces of c, round-robin over the workers
      piece_size_ = min_chunk_;
      pieces_ = div_up(count_, piece_size_);
    } else {               // one contiguous share per worker
      first_round_ = range_split(count_, w);
      pieces_ = w;
    }
    cursor_ = count_;
  } else {
    std::uint64_t reserved = std::min(count_, first_chunk(kind_, count_, w, min_chunk_) * w);
    first_round_ = range_split(reserved, w);
    pieces_ = w;
    cursor_ = reserved;
  }
  for (int i = 0; i < workers_; ++i)
    next_piece_[i] = std::uint64_t(i);
  if (min_chunk_ == 0) // the smallest fresh chunk: keeps hand-outs few on long loops
    min_chunk_ = std::max<std::uint64_t>(1, count_ / (w * 64));
}

bool chunk_scheduler::take_reserved(int worker, chunk& out) {
  std::uint64_t& p = next_piece_[worker];
  while (p < pieces_) {
    index_range r = piece_size_ ? index_range{p * piece_size_, std::min(count_, (p + 1) * piece_size_)}
                                : first_round_.part(p);
    p += std::uint64_t(workers_);
    if (!r.empty()) {
      out = chunk{r, false};
      return true;
    }
  }
  return false;
}

std::uint64_t chunk_scheduler::fresh_size(int worker) const {
  const std::uint64_t remaining = count_ - cursor_;
  switch (kind_) {
  case schedule_kind::dynamic:
    return first_chunk(kind_, count_, std::uint64_t(workers_), min_chunk_);
  case schedule_kind::guided:
    return std::max(min_chunk_, div_up(remaining, 2 * std::uint64_t(workers_)));
  case schedule_kind::adaptive:
  default: {
    // Half of what is left, shared in proportion to measured throughput:
    // devices then finish at about the same time.
    const int d = worker_device_[worker];
    const double share = device_share(d);
    const std::uint64_t n =
        std::max(min_chunk_, std::uint64_t(double(remaining) * share / workers_on(d) * 0.5 + 0.5));
    // No device runs ahead of its share of the whole loop while another has
    // room left in its own: on a program's first loop the first device whose
    // worker is up would otherwise take nearly all of a short loop before the
    // others start, and a device that was handed much early keeps its lead
    // (issue 11). When every device has had its share, the rest goes to
    // whoever asks.
    const std::uint64_t have = assigned_[d], fair = fair_share(d);
    if (have < fair)
      return std::max(min_chunk_, std::min(n, fair - have));
    for (int e = 0; e < int(device_dropped_.size()); ++e)
      if (e != d && !device_dropped_[e] && workers_on(e) > 0 && assigned_[e] < fair_share(e))
        return 0;
    return n;
  }
  }
}

// The part of the whole loop device d should run: its throughput over all
// active devices' (a device not measured yet counts as the average of the
// measured ones, or all count alike before any is), times its slots.
double chunk_scheduler::device_share(int d) const {
  double known = 0;
  int measured = 0;
  for (int w = 0; w < workers_; ++w) {
    const double t = throughput(worker_device_[w]);
    if (!device_dropped_[worker_device_[w]] && t > 0) {
      known += t;
      ++measured;
    }
  }
  const double average = measured ? known / measured : 1.0;
  double sum = 0;
  for (int w = 0; w < workers_; ++w)
    if (!device_dropped_[worker_device_[w]]) {
      const double t = throughput(worker_device_[w]);
      sum += t > 0 ? t : average;
    }
  double mine = throughput(d);
  if (mine <= 0)
    mine = average;
  return sum > 0 ? mine * workers_on(d) / sum : 1.0;
}

std::uint64_t chunk_scheduler::fair_share(int d) const {
  return std::uint64_t(double(count_) * device_share(d) + 0.5);
}

int chunk_scheduler::workers_on(int device) const {
  return int(std::count(worker_device_.begin(), worker_device_.end(), device));
}

bool chunk_scheduler::take_fresh(int worker, chunk& out) {
  if (cursor_ >= count_)
    return false;
  std::uint64_t n = std::min(fresh_size(worker), count_ - cursor_);
  if (n == 0)
    return false; // its share is handed out while others still have room in theirs
  out = chunk{{cursor_, cursor_ + n}, false};
  cursor_ += n;
  return true;
}

bool chunk_scheduler::next(int worker, chunk& out) {
  if (device_dropped_[worker_device_[worker]])
    return false;
  if (!retry_.empty()) {
    out = retry_.front();
    retry_.pop_front();
    assigned_[worker_device_[worker]] += out.range.size();
    return true;
  }
  if (take_reserved(worker, out) || take_fresh(worker, out)) {
    assigned_[worker_device_[worker]] += out.range.size();
    return true;
  }
  // The reservations of a device that left the loop. (Those of a worker that
  // has not started yet are left to it, even if it waits for a lease behind
  // another loop: otherwise the first worker awake takes everything of a
  // short loop, and the others never run.)
  for (int w = 0; w < workers_; ++w)
    if (w != worker && device_dropped_[worker_device_[w]] && take_reserved(w, out))
      return true;
  return false;
}

void chunk_scheduler::completed(int worker, const chunk& c, double seconds) {
  int d = worker_device_[worker];
  done_iterations_[d] += double(c.range.size());
  done_seconds_[d] += seconds;
}

void chunk_scheduler::give_back(const chunk& c, bool split) {
  if (split && c.range.size() > 1) {
    std::uint64_t mid = c.range.begin + c.range.size() / 2;
    retry_.push_front({{mid, c.range.end}, true});
    retry_.push_front({{c.range.begin, mid}, true});
  } else {
    retry_.push_front({c.range, true});
  }
}

void chunk_scheduler::give_back_tail(chunk& c, std::uint64_t keep) {
  if (keep >= c.range.size())
    return;
  retry_.push_front({{c.range.begin + keep, c.range.end}, c.retry});
  c.range.end = c.range.begin + keep;
}

void chunk_scheduler::drop_device(int device) { device_dropped_[device] = true; }

bool chunk_scheduler::exhausted() const {
  if (!retry_.empty() || cursor_ < count_)
    return false;
  for (int w = 0; w < workers_; ++w)
    if (next_piece_[w] < pieces_)
      for (std::uint64_t p = next_piece_[w]; p < pieces_; p += std::uint64_t(workers_)) {
        index_range r = piece_size_ ? index_range{p * piece_size_, std::min(count_, (p + 1) * piece_size_)}
                                    : first_round_.part(p);
        if (!r.empty())
          return false;
      }
  return true;
}

std::vector<index_range> chunk_scheduler::take_remaining() {
  std::vector<index_range> left;
  for (const chunk& r : retry_)
    left.push_back(r.range);
  retry_.clear();
  chunk c;
  for (int w = 0; w < workers_; ++w)
    while (take_reserved(w, c))
      left.push_back(c.range);
  if (cursor_ < count_)
    left.push_back({cursor_, count_});
  cursor_ = count_;
  return left;
}

double chunk_scheduler::throughput(int device) const {
  if (done_iterations_[device] <= 0)
    return 0;
  // A floor on the time: a chunk measured at 0 s must not claim infinite speed.
  return done_iterations_[device] / std::max(done_seconds_[device], 1e-6);
}

} // namespace detail
} // namespace gpu_autopar
