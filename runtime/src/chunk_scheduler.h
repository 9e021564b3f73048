// Hands out a loop's iteration ranges to device workers under a schedule
// policy (schedule_policy.h), which sizes the chunks. Not thread-safe: the
// device loop calls it under its own lock.
//
// Every policy's first round reserves one chunk per worker (static: the
// worker's whole share), so every device of a loop gets work even when one
// worker starts long before the others; the reservations of a device that
// failed go to the others. Failed chunks come back through give_back
// and are handed out before anything new.
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include "gpu_autopar/loop_body.h"
#include "interval_set.h"
#include "range_split.h"
#include "schedule_policy.h"

namespace gpu_autopar {
namespace detail {

struct chunk {
  index_range range;
  bool retry = false; // a chunk that failed on another device before
};

class chunk_scheduler {
public:
  // worker_device[w]: the device worker w runs on (an index into 0..devices-1);
  // min_chunk: the schedule clause's chunk size (0: not given). The policy
  // must outlive the scheduler (choose_schedule's do).
  chunk_scheduler(const schedule_policy& policy, std::uint64_t count, std::uint64_t min_chunk,
                  std::vector<int> worker_device, int devices);

  // The next chunk for worker w, or false if there is none right now.
  bool next(int worker, chunk& out);
  // Worker w ran `c` in `seconds` (including the device's time model).
  void completed(int worker, const chunk& c, double seconds);
  // A chunk failed: it is handed out again, in two halves if `split`.
  void give_back(const chunk& c, bool split);
  // Keeps the first `keep` iterations of `c` (which is cut to them) and hands
  // the rest out again, before anything new; no failure.
  void give_back_tail(chunk& c, std::uint64_t keep);
  // The device's workers get nothing more and no longer count for adaptive.
  void drop_device(int device);
  // Nothing is left to hand out (chunks may still be running).
  bool exhausted() const;
  // Takes every range not yet handed out (for the CPU fallback).
  std::vector<index_range> take_remaining();
  // Debug builds: asserts that the completed chunks and `leftover` (what
  // take_remaining gave) cover the loop exactly once, with no chunk still
  // out: what a loop that ended without the body's exception must show.
  void check_covered(const std::vector<index_range>& leftover) const;

  // What a policy reads to size a fresh chunk.
  // Measured iterations per second of a device, 0 if not measured yet.
  double throughput(int device) const;
  std::uint64_t count() const { return count_; }
  std::uint64_t remaining() const { return count_ - cursor_; } // not handed out or reserved yet
  // The smallest fresh chunk: the clause's chunk size, or a small part of a
  // worker's share that keeps hand-outs few on long loops.
  std::uint64_t min_chunk() const { return min_chunk_; }
  int workers() const { return workers_; }
  int worker_device(int worker) const { return worker_device_[worker]; }
  int devices() const { return int(device_dropped_.size()); }
  int workers_on(int device) const; // slots of a device
  bool dropped(int device) const { return device_dropped_[device]; }
  std::uint64_t assigned(int device) const { return assigned_[device]; } // iterations handed out to it
  std::uint64_t worker_assigned(int worker) const { return worker_assigned_[worker]; } // the same per worker

private:
  bool take_reserved(int worker, chunk& out);
  bool take_fresh(int worker, chunk& out);
  index_range reserved_piece(std::uint64_t p) const;
  bool handed_out(const chunk& c);       // records it (debug builds); returns true
  void came_back(const index_range& r); // a chunk (or its tail) that was out returned

  const schedule_policy& policy_;
  std::uint64_t count_, min_chunk_;
  std::vector<int> worker_device_;
  int workers_;
  // Reserved (reservation in schedule_policy.h): worker w owns pieces w, w+W, ...
  std::uint64_t piece_size_ = 0, pieces_ = 0; // pieces of one size over the whole loop
  range_split first_round_;                   // otherwise: contiguous parts of the reserved front
  std::vector<std::uint64_t> next_piece_;     // per worker
  std::uint64_t cursor_ = 0;                  // shared fresh range [cursor_, count_)
  std::deque<chunk> retry_; // handed out before anything new
  std::vector<bool> device_dropped_;
  std::vector<double> done_iterations_, done_seconds_; // per device
  std::vector<std::uint64_t> assigned_;                // per device: iterations handed out
  std::vector<std::uint64_t> worker_assigned_;         // per worker
  // Kept in debug builds only (asserts): the iterations handed out and not
  // back yet, and those completed. None is out twice at once or completes twice.
  interval_set out_, done_;
};

} // namespace detail
} // namespace gpu_autopar
