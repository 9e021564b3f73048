#include "chunk_scheduler.h"

#include <algorithm>
#include <cassert>

namespace gpu_autopar {
namespace detail {
namespace {

std::uint64_t div_up(std::uint64_t a, std::uint64_t b) { return a / b + (a % b != 0); }

#ifdef NDEBUG
constexpr bool kChecked = false;
#else
constexpr bool kChecked = true; // the ledger behind the asserts on chunks
#endif

byte_range as_set_range(const index_range& r) { return {r.begin, r.end}; }

} // namespace

chunk_scheduler::chunk_scheduler(const schedule_policy& policy, std::uint64_t count, std::uint64_t min_chunk,
                                 std::vector<int> worker_device, int devices)
    : policy_(policy), count_(count), min_chunk_(min_chunk), worker_device_(std::move(worker_device)),
      workers_(int(worker_device_.size())), first_round_(0, 1), next_piece_(worker_device_.size(), 0),
      device_dropped_(devices, false), done_iterations_(devices, 0.0), done_seconds_(devices, 0.0),
      assigned_(devices, 0), worker_assigned_(worker_device_.size(), 0) {
  const std::uint64_t w = std::uint64_t(std::max(workers_, 1));
  const reservation first = policy_.reserve(count_, w, min_chunk_);
  if (first.piece > 0) { // the whole loop in pieces of one size, round-robin over the workers
    piece_size_ = first.piece;
    pieces_ = div_up(count_, piece_size_);
    cursor_ = count_;
  } else {               // the reserved front, one contiguous part per worker
    const std::uint64_t reserved = std::min(count_, first.reserved);
    first_round_ = range_split(reserved, w);
    pieces_ = w;
    cursor_ = reserved;
  }
  for (int i = 0; i < workers_; ++i)
    next_piece_[i] = std::uint64_t(i);
  if (min_chunk_ == 0) // the smallest fresh chunk: keeps hand-outs few on long loops
    min_chunk_ = std::max<std::uint64_t>(1, count_ / (w * 64));
}

index_range chunk_scheduler::reserved_piece(std::uint64_t p) const {
  return piece_size_ ? index_range{p * piece_size_, std::min(count_, (p + 1) * piece_size_)} : first_round_.part(p);
}

bool chunk_scheduler::take_reserved(int worker, chunk& out) {
  std::uint64_t& p = next_piece_[worker];
  while (p < pieces_) {
    const index_range r = reserved_piece(p);
    p += std::uint64_t(workers_);
    if (!r.empty()) {
      out = chunk{r, false};
      return true;
    }
  }
  return false;
}

int chunk_scheduler::workers_on(int device) const {
  return int(std::count(worker_device_.begin(), worker_device_.end(), device));
}

bool chunk_scheduler::take_fresh(int worker, chunk& out) {
  if (cursor_ >= count_)
    return false;
  const std::uint64_t n = std::min(policy_.fresh_size(*this, worker), count_ - cursor_);
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
    worker_assigned_[worker] += out.range.size();
    return handed_out(out);
  }
  if (take_reserved(worker, out) || take_fresh(worker, out)) {
    assigned_[worker_device_[worker]] += out.range.size();
    worker_assigned_[worker] += out.range.size();
    return handed_out(out);
  }
  // The reservations of a device that left the loop. (Those of a worker that
  // has not started yet are left to it, even if it waits for a lease behind
  // another loop: otherwise the first worker awake takes everything of a
  // short loop, and the others never run.)
  for (int w = 0; w < workers_; ++w)
    if (w != worker && device_dropped_[worker_device_[w]] && take_reserved(w, out))
      return handed_out(out);
  return false;
}

bool chunk_scheduler::handed_out(const chunk& c) {
  assert(!c.range.empty() && c.range.end <= count_);
  if (kChecked) {
    assert(out_.covered(as_set_range(c.range)).empty() && "an iteration handed out while it is out");
    assert(done_.covered(as_set_range(c.range)).empty() && "an iteration handed out after it completed");
    out_.add(as_set_range(c.range));
  }
  return true;
}

void chunk_scheduler::came_back(const index_range& r) {
  if (!kChecked)
    return;
  assert(out_.contains(as_set_range(r)) && "a chunk came back that was not out");
  out_.remove(as_set_range(r));
}

void chunk_scheduler::completed(int worker, const chunk& c, double seconds) {
  came_back(c.range);
  if (kChecked) {
    assert(done_.covered(as_set_range(c.range)).empty() && "an iteration completed twice");
    done_.add(as_set_range(c.range));
  }
  int d = worker_device_[worker];
  done_iterations_[d] += double(c.range.size());
  done_seconds_[d] += seconds;
}

void chunk_scheduler::give_back(const chunk& c, bool split) {
  came_back(c.range);
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
  came_back({c.range.begin + keep, c.range.end});
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
        if (!reserved_piece(p).empty())
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
  if (kChecked)
    for (const index_range& r : left) {
      assert(out_.covered(as_set_range(r)).empty() && "a range left over while it is out");
      assert(done_.covered(as_set_range(r)).empty() && "a completed range left over");
      (void)r;
    }
  return left;
}

void chunk_scheduler::check_covered(const std::vector<index_range>& leftover) const {
  if (!kChecked)
    return;
  assert(out_.empty() && "a chunk is still out when the loop ended");
  interval_set all = done_;
  std::uint64_t total = done_.bytes();
  for (const index_range& r : leftover) {
    all.add(as_set_range(r));
    total += r.size();
  }
  // Disjoint pieces (their sizes add up to the union's) covering [0, count).
  assert(total == count_ && all.bytes() == count_ && all.contains({0, count_}) &&
         "the loop's chunks do not cover its iterations exactly once");
  (void)all;
  (void)total;
}

double chunk_scheduler::throughput(int device) const {
  if (done_iterations_[device] <= 0)
    return 0;
  // A floor on the time: a chunk measured at 0 s must not claim infinite speed.
  return done_iterations_[device] / std::max(done_seconds_[device], 1e-6);
}

} // namespace detail
} // namespace gpu_autopar
