#include "device_loop.h"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <chrono>
#include <cstdio>
#include <thread>

#include <fcntl.h>
#include <unistd.h>

#include "timeline_handoff.h"

namespace gpu_autopar {
namespace detail {
namespace {

using clock = std::chrono::steady_clock;

double seconds_since(clock::time_point t0) { return std::chrono::duration<double>(clock::now() - t0).count(); }

// How long the calling thread has waited, runnable, for a core (Linux's
// schedstat); 0 where the kernel does not say.
double runqueue_wait_seconds() {
  struct schedstat_file {
    int fd = ::open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
    ~schedstat_file() {
      if (fd >= 0)
        ::close(fd);
    }
  };
  thread_local const schedstat_file file;
  if (file.fd < 0)
    return 0;
  char buf[96];
  const ssize_t n = ::pread(file.fd, buf, sizeof buf - 1, 0);
  if (n <= 0)
    return 0;
  buf[n] = 0;
  unsigned long long ran = 0, waited = 0;
  return std::sscanf(buf, "%llu %llu", &ran, &waited) == 2 ? 1e-9 * double(waited) : 0;
}

class device_loop;

std::atomic<std::uint64_t> g_loops{0}; // device loops started so far

// One slot's share of the loop: runs chunks while it holds the lease.
class loop_job final : public lease_job {
public:
  loop_job(device_loop& loop, int worker) : loop_(loop), worker_(worker) {}
  void run(slot_context& lease) noexcept override;
  void finished() noexcept override;
  int worker() const { return worker_; }

private:
  device_loop& loop_;
  int worker_;
  // The lease this job last ran on: finished() comes after end_lease(), so
  // the lease's counts are complete then.
  slot_context* lease_ = nullptr;
};

class device_loop {
public:
  device_loop(lease_pool& pool, const std::vector<int>& devices, int slots, loop_body& body, std::uint64_t count,
              const schedule_policy& schedule, std::uint64_t chunk, bool stop_on_failure, bool may_leave_queued)
      : pool_(pool), devices_(devices), body_(body), stop_on_failure_(stop_on_failure),
        may_leave_queued_(may_leave_queued), timed_(dynamic_cast<const adaptive_schedule*>(&schedule) != nullptr),
        id_(++g_loops), count_(count),
        unit_(split_unit(body, count, devices.size() * std::max(1, std::min(slots, kMaxSlotsPerDevice)))),
        sched_(schedule, (count + unit_ - 1) / unit_, (chunk + unit_ - 1) / unit_,
               worker_devices(devices.size(), slots), int(devices.size())),
        dropped_(devices.size(), false) {
    result_.stats.resize(devices.size());
    const int per_device = std::max(1, std::min(slots, kMaxSlotsPerDevice));
    for (int w = 0; w < int(devices.size()) * per_device; ++w)
      jobs_.push_back(std::make_unique<loop_job>(*this, w));
    slots_ = per_device;
  }

  device_loop_result run(const progress_fn& progress) {
    std::unique_lock<std::mutex> lock(m_);
    open_jobs_ = int(jobs_.size());
    lock.unlock();
    // Post round-robin over devices so each device's first slot comes first.
    for (int k = 0; k < slots_; ++k)
      for (std::size_t d = 0; d < devices_.size(); ++d)
        pool_.post(devices_[d], jobs_[d * slots_ + k].get(), slots_);
    lock.lock();
    auto settled = [&] { return open_jobs_ == 0 || (in_flight_ == 0 && (stop_ || sched_.exhausted() || all_dropped())); };
    for (;;) {
      wait_until(lock, settled, progress);
      if (open_jobs_ > 0 || stop_ || sched_.exhausted() || all_dropped())
        break;
      // A chunk came back after the other devices' jobs had found nothing
      // more and left: post their jobs again.
      std::vector<loop_job*> again;
      for (std::size_t d = 0; d < devices_.size(); ++d)
        if (!dropped_[d])
          for (int k = 0; k < slots_; ++k)
            again.push_back(jobs_[d * slots_ + k].get());
      open_jobs_ += int(again.size());
      lock.unlock();
      for (loop_job* j : again)
        pool_.post(devices_[j->worker() / slots_], j, slots_);
      lock.lock();
    }
    stop_ = true; // jobs that start from now on take nothing
    cv_.notify_all();
    lock.unlock();
    // Jobs still queued behind other loops' leases are withdrawn, not waited for.
    for (std::size_t d = 0; d < devices_.size(); ++d)
      for (int k = 0; k < slots_; ++k)
        if (pool_.cancel(devices_[d], jobs_[d * slots_ + k].get()))
          job_finished();
    lock.lock();
    cv_.wait(lock, [&] { return open_jobs_ == 0; });
    for (const auto& j : jobs_)
      handoff_adopt(j.get(), 1);
    // Every job is back, so every lease is: no chunk can be running.
    assert(in_flight_ == 0 && open_jobs_ == 0);
    result_.leftover = sched_.take_remaining();
    // Without the body's exception (whose chunk is lost with it), what the
    // devices completed and what is left for the CPU cover the loop exactly once.
    if (!result_.error)
      sched_.check_covered(result_.leftover);
    for (index_range& r : result_.leftover)
      r = iterations_of(r);
    for (device_failure& f : result_.failures)
      f.range = iterations_of(f.range);
    return std::move(result_);
  }

  void work(int worker, slot_context& lease) {
    const int d = worker / slots_;
    device& dev = pool_.get(devices_[d]);
    const double stretch = dev.stretch();
    // A simulated device computes on its worker thread, which shares the
    // host's cores with the other devices' workers: its chunk takes the wall
    // time less the time that thread waited for a core, the time the device
    // would take with a processor of its own. Charged for the other devices'
    // work and the host's other processes, equal devices would look unequal
    // and the adaptive schedule would split them unequally on that noise.
    const bool device_time = dev.kind() == device_kind::sim;
    std::unique_lock<std::mutex> lock(m_);
    for (;;) {
      chunk c;
      for (;;) {
        if (stop_ || dropped_[d])
          return;
        if (dev.retired()) { // lost meanwhile, in another loop or another slot
          drop(d);
          cv_.notify_all();
          return;
        }
        if (sched_.next(worker, c))
          break;
        if (in_flight_ == 0) // nothing running could come back as a retry
          return;
        cv_.wait(lock);
      }
      ++in_flight_;
      lock.unlock();
      fit_to_memory(lease, c, lock);

      enum { ok, device_failed, out_of_memory, body_threw, failed_after_chunk } outcome = ok;
      std::string what;
      std::exception_ptr error;
      const auto t0 = clock::now();
      const double queued0 = device_time ? runqueue_wait_seconds() : 0;
      try {
        lease.expect_untracked_work(body_.leaves_untracked_work());
        lease.enter_loop(id_, may_leave_queued_, slots_ == 1, timed_);
        lease.begin_chunk();
        const index_range it = iterations_of(c.range);
        body_.run_device(lease, it.begin, it.end);
        lease.finish_chunk();
      } catch (const device_out_of_memory& e) {
        outcome = out_of_memory;
        what = e.what();
      } catch (const device_failed_after_chunk& e) {
        outcome = failed_after_chunk;
        what = e.what();
      } catch (const device_error& e) {
        outcome = device_failed;
        what = e.what();
      } catch (...) {
        outcome = body_threw;
        error = std::current_exception();
      }
      if (outcome != ok)
        lease.after_failure();
      lease.end_chunk();
      const device_counters counted = lease.take_counters();
      const bool lost = outcome != ok && dev.retired();
      if (lost)
        what += what.empty() ? dev.retired_why() : "; " + dev.retired_why();
      double seconds = seconds_since(t0);
      if (device_time)
        seconds = std::max(0.0, seconds - (runqueue_wait_seconds() - queued0));
      if (const double measured = lease.chunk_device_seconds(); outcome == ok && measured >= 0)
        seconds = measured;
      if (outcome == ok && stretch > 1.0) {
        // A slower device computes slower; its link (copies) is no slower.
        const double compute = std::max(0.0, seconds - counted.link_wait_seconds);
        stretch_wait(compute * (stretch - 1.0));
        seconds += compute * (stretch - 1.0);
      }

      lock.lock();
      --in_flight_;
      device_stats& st = result_.stats[d];
      st.counters += counted;
      if (outcome == ok) {
        st.iterations += iterations_of(c.range).size();
        st.chunks += 1;
        st.retries += c.retry ? 1 : 0;
        st.seconds += seconds;
        sched_.completed(worker, c, seconds);
        if (in_flight_ == 0)
          cv_.notify_all();
        continue;
      }
      if (outcome == failed_after_chunk) {
        // Its results are back (compiled_loop::run_device): the chunk
        // counts as done, and the device leaves the loop.
        st.iterations += iterations_of(c.range).size();
        st.chunks += 1;
        st.retries += c.retry ? 1 : 0;
        st.failures += 1;
        sched_.completed(worker, c, seconds);
        result_.failures.push_back({devices_[d], c.range, false, true, lost, what, true});
        drop(d);
        if (stop_on_failure_)
          stop_ = true;
        cv_.notify_all();
        return;
      }
      if (lost && outcome != body_threw && faulted_elsewhere(c, d, what)) {
        // The same iterations lost the context of a second GPU: the body
        // itself faults (an out-of-bounds access, a trap), and every further
        // GPU would be lost the same way. The loop stops with an error.
        st.failures += 1;
        result_.failures.push_back({devices_[d], c.range, false, true, true, what});
        drop(d);
        sched_.give_back(c, false);
        stop_ = true;
        cv_.notify_all();
        return;
      }
      if (lost)
        faults_.push_back({c.range, d, pool_.get(devices_[d]).name() + ": " + what});
      if (outcome == out_of_memory && !lost && c.range.size() > 1) {
        // Out of memory: the chunk is split in two and handed out again; the
        // device stays, since a smaller chunk may well fit on it.
        st.failures += 1;
        result_.failures.push_back({devices_[d], c.range, true, false, false, what});
        sched_.give_back(c, true);
        cv_.notify_all();
        continue;
      }
      if (outcome == body_threw) {
        if (!result_.error)
          result_.error = error;
        stop_ = true;
      } else {
        // The device failed (or cannot fit even one iteration): it leaves
        // this loop and its chunk goes to the others.
        st.failures += 1;
        result_.failures.push_back({devices_[d], c.range, outcome == out_of_memory && !lost, true, lost, what});
        drop(d);
        sched_.give_back(c, false);
        if (stop_on_failure_)
          stop_ = true;
      }
      cv_.notify_all();
      return;
    }
  }

  template <class Pred>
  void wait_until(std::unique_lock<std::mutex>& lock, Pred done, const progress_fn& progress) {
    while (!done()) {
      if (!progress) {
        cv_.wait(lock);
        continue;
      }
      cv_.wait_for(lock, std::chrono::milliseconds(100));
      std::uint64_t so_far = 0;
      for (auto& s : result_.stats)
        so_far += s.iterations;
      lock.unlock();
      progress(so_far);
      lock.lock();
    }
  }

  void job_finished(int worker = -1, const device_counters& counted = device_counters()) {
    std::lock_guard<std::mutex> lock(m_);
    if (worker >= 0)
      result_.stats[worker / slots_].counters += counted;
    assert(open_jobs_ > 0);
    --open_jobs_;
    cv_.notify_all(); // under the lock: the loop may be gone once it is released
  }

private:
  // A chunk that needs more device memory than the lease has free is cut
  // (the tail goes back to the scheduler) until it fits: an allocation that
  // fails costs the copies made before it and a retry.
  void fit_to_memory(slot_context& lease, chunk& c, std::unique_lock<std::mutex>& lock) {
    auto bytes = [&](std::uint64_t units) {
      const index_range it = iterations_of({c.range.begin, c.range.begin + units});
      return body_.device_bytes(it.begin, it.end);
    };
    if (c.range.size() < 2 || bytes(1) == 0)
      return;
    const std::uint64_t budget = lease.memory_budget(slots_);
    std::uint64_t keep = c.range.size();
    while (keep > 1 && bytes(keep) > budget)
      keep /= 2;
    if (keep == c.range.size())
      return;
    lock.lock();
    sched_.give_back_tail(c, keep);
    cv_.notify_all();
    lock.unlock();
  }

  // Whether iterations of `c` already lost another GPU's context; if so,
  // the loop's result records the body's fault with both devices' errors.
  bool faulted_elsewhere(const chunk& c, int d, const std::string& what) {
    for (const lost_chunk& f : faults_)
      if (f.device != d && f.range.begin < c.range.end && c.range.begin < f.range.end) {
        const index_range both =
            iterations_of({std::max(f.range.begin, c.range.begin), std::min(f.range.end, c.range.end)});
        result_.body_fault = "iterations [" + std::to_string(both.begin) + ", " + std::to_string(both.end) +
                             ") faulted on two GPUs (" +
                             f.what + "; " + pool_.get(devices_[d]).name() + ": " + what + ")";
        return true;
      }
    return false;
  }

  void drop(int d) {
    dropped_[d] = true;
    sched_.drop_device(d);
  }

  // The iterations of a range of the scheduler's units.
  index_range iterations_of(index_range units) const {
    return {units.begin * unit_, std::min(units.end * unit_, count_)};
  }
  // A collapsed nest is split on whole rows (loop_body::split_unit) where
  // there are enough rows for every worker to get several; a nest of a few
  // long rows is split inside them (its written sections are then compared
  // and copied back, and not kept resident in a data region).
  static std::uint64_t split_unit(const loop_body& body, std::uint64_t count, std::size_t workers) {
    constexpr std::uint64_t kRowsPerWorker = 16;
    const std::uint64_t unit = body.split_unit();
    return unit > 1 && count / unit >= kRowsPerWorker * workers ? unit : 1;
  }

  static std::vector<int> worker_devices(std::size_t devices, int slots) {
    const int per_device = std::max(1, std::min(slots, kMaxSlotsPerDevice));
    std::vector<int> w;
    for (std::size_t d = 0; d < devices; ++d)
      for (int k = 0; k < per_device; ++k)
        w.push_back(int(d));
    return w;
  }
  bool all_dropped() const {
    for (bool b : dropped_)
      if (!b)
        return false;
    return true;
  }

  lease_pool& pool_;
  std::vector<int> devices_;
  loop_body& body_;
  bool stop_on_failure_;
  bool may_leave_queued_; // chunks may finish with their work queued (slot_context::enter_loop)
  bool timed_;            // the schedule sizes chunks from their times (adaptive)
  std::uint64_t id_;      // the loop's number: later loops have larger ones
  std::uint64_t count_;   // the loop's iterations
  std::uint64_t unit_;  // iterations per scheduler unit: the scheduler splits [0, ceil(count_ / unit_))
  int slots_ = 1;

  std::mutex m_;
  std::condition_variable cv_;
  chunk_scheduler sched_;
  std::vector<bool> dropped_;
  int in_flight_ = 0;
  int open_jobs_ = 0;
  bool stop_ = false;
  device_loop_result result_;
  std::vector<std::unique_ptr<loop_job>> jobs_;
  struct lost_chunk {
    index_range range;
    int device;
    std::string what;
  };
  std::vector<lost_chunk> faults_; // chunks that lost a device's context
};

void loop_job::run(slot_context& lease) noexcept {
  lease_ = &lease;
  loop_.work(worker_, lease);
}
void loop_job::finished() noexcept {
  slot_context* lease = lease_;
  lease_ = nullptr;
  if (lease)
    loop_.job_finished(worker_, lease->take_counters());
  else
    loop_.job_finished();
}

} // namespace

void stretch_wait(double seconds) {
  if (seconds <= 0)
    return;
  const auto until = clock::now() + std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(seconds));
  if (seconds > 200e-6) {
    std::this_thread::sleep_until(until);
    return;
  }
  while (clock::now() < until)
    std::this_thread::yield();
}

device_loop_result run_on_devices(lease_pool& pool, const std::vector<int>& devices, int slots, loop_body& body,
                                  std::uint64_t count, const schedule_policy& schedule, std::uint64_t chunk,
                                  bool stop_on_failure, const progress_fn& progress, bool may_leave_queued) {
  device_loop loop(pool, devices, slots, body, count, schedule, chunk, stop_on_failure, may_leave_queued);
  return loop.run(progress);
}

} // namespace detail
} // namespace gpu_autopar
