// Hands out a loop's iteration ranges to device workers, by schedule. Not
// thread-safe: the device loop calls it under its own lock.
//
// Every schedule first reserves one chunk per worker (static: the worker's
// whole share), so every device of a loop gets work even when one worker
// starts long before the others; the reservations of a device that failed
// go to the others. Failed chunks come back through give_back
// and are handed out before anything new.
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include "gpu_autopar/loop_body.h"
#include "range_split.h"

namespace gpu_autopar {
namespace detail {

struct chunk {
  index_range range;
  bool retry = false; // a chunk that failed on another device before
};

class chunk_scheduler {
public:
  // worker_device[w]: the device worker w runs on (an index into 0..devices-1).
  chunk_scheduler(schedule_kind kind, std::uint64_t count, std::uint64_t min_chunk, std::vector<int> worker_device,
                  int devices);

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

  // Measured iterations per second of a device, 0 if not measured yet.
  double throughput(int device) const;

private:
  bool take_reserved(int worker, chunk& out);
  bool take_fresh(int worker, chunk& out);
  std::uint64_t fresh_size(int worker) const;
  double device_share(int device) const;       // of the whole loop, by measured throughput
  std::uint64_t fair_share(int device) const;  // iterations
  int workers_on(int device) const;            // slots of a device

  schedule_kind kind_;
  std::uint64_t count_, min_chunk_;
  std::vector<int> worker_device_;
  int workers_;
  // Reserved: static pieces (worker w owns pieces w, w+W, ...) or first chunks.
  std::uint64_t piece_size_ = 0, pieces_ = 0; // static with a chunk size
  range_split first_round_;                   // otherwise
  std::vector<std::uint64_t> next_piece_;     // per worker
  std::uint64_t cursor_ = 0;                  // shared fresh range [cursor_, count_)
  std::deque<chunk> retry_; // handed out before anything new
  std::vector<bool> device_dropped_;
  std::vector<double> done_iterations_, done_seconds_; // per device
  std::vector<std::uint64_t> assigned_;                // per device: iterations handed out
};

} // namespace detail
} // namespace gpu_autopar
