// The MPI distributor (docs/mpi.md): splits each outermost loop whose effects
// are known across the ranks of the job, runs this rank's range on its own
// devices through the ordinary runtime, agrees with the other ranks on how it
// went, then exchanges what each range wrote and combines the reductions, so
// that every rank ends as the serial program would. Linking this library
// registers it (before main()); the core runtime never calls MPI.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <mpi.h>

#include "distributor.h"
#include "gpu_autopar/loop_effects.h"
#include "loop_report.h"
#include "gpu_autopar/data_region.h"
#include "mpi_job.h"
#include "rank_residency.h"
#include "rank_split.h"
#include "runtime_state.h"
#include "section_exchange.h"

namespace gpu_autopar {
namespace detail {
namespace {

using clock = std::chrono::steady_clock;

double seconds_since(clock::time_point t0) { return std::chrono::duration<double>(clock::now() - t0).count(); }

// Below this many iterations per rank a loop runs in full on every rank: the
// messages would cost more than the iterations.
constexpr std::uint64_t kMinIterationsPerRank = 2;

// Depth of annotated loops on this thread: a loop inside a distributed (or
// fully replicated) loop's iteration runs locally.
thread_local int t_loop_depth = 0;
struct depth_guard {
  depth_guard() { ++t_loop_depth; }
  ~depth_guard() { --t_loop_depth; }
};

// This rank's range of a loop: iteration indices shifted by its first one.
class range_body final : public loop_body {
public:
  range_body(loop_body& inner, std::uint64_t first) : inner_(inner), first_(first) {}
  void run_host(std::uint64_t b, std::uint64_t e) override { inner_.run_host(first_ + b, first_ + e); }
  void run_device(device_context& dev, std::uint64_t b, std::uint64_t e) override {
    inner_.run_device(dev, first_ + b, first_ + e);
  }
  bool can_run_on(device_kind kind, const char** why_not) const override { return inner_.can_run_on(kind, why_not); }
  std::uint64_t device_bytes(std::uint64_t b, std::uint64_t e) const override {
    return inner_.device_bytes(first_ + b, first_ + e);
  }

private:
  loop_body& inner_;
  std::uint64_t first_;
};

std::string site_text(const loop_site& s) { return std::string(s.file) + ":" + std::to_string(s.line); }

host_range bytes_of(const written_section& w) {
  if (w.hi <= w.lo)
    return {};
  return {w.host + w.lo * std::int64_t(w.element_size), w.host + w.hi * std::int64_t(w.element_size)};
}

// Inside data regions (rank_residency.h): the written objects that stay with
// the rank that wrote them, and what each rank needs up to date first.
struct region_plan {
  std::vector<bool> stays;               // by written object
  rank_residency::needs_by_rank needs;   // by rank
  std::vector<host_range> made_whole;    // written objects every rank holds all of afterwards
};

std::string what_of(const std::exception_ptr& e) {
  try {
    std::rethrow_exception(e);
  } catch (const std::exception& x) {
    return x.what();
  } catch (...) {
    return "an exception not derived from std::exception";
  }
}

// What each rank tells the others once its range has run: enough to check
// that all ranks ran the same loop, to agree on failure, and to balance the
// next run of the loop. Followed in the same message by the counts of changed
// elements and the reductions' partials that are folded in rank order.
struct outcome {
  std::uint64_t site_hash;
  std::uint64_t count;
  std::uint64_t iterations;
  double seconds;
  std::int32_t failed;
  std::int32_t reserved;
};

MPI_Datatype integer_type(const reduction_variable& v) {
  switch (v.size) {
  case 1: return v.is_signed ? MPI_INT8_T : MPI_UINT8_T;
  case 2: return v.is_signed ? MPI_INT16_T : MPI_UINT16_T;
  case 4: return v.is_signed ? MPI_INT32_T : MPI_UINT32_T;
  case 8: return v.is_signed ? MPI_INT64_T : MPI_UINT64_T;
  }
  return MPI_DATATYPE_NULL;
}

MPI_Op mpi_op(reduction_op op) {
  switch (op) {
  case reduction_op::plus: return MPI_SUM;
  case reduction_op::times: return MPI_PROD;
  case reduction_op::min: return MPI_MIN;
  case reduction_op::max: return MPI_MAX;
  case reduction_op::bit_and: return MPI_BAND;
  case reduction_op::bit_or: return MPI_BOR;
  case reduction_op::bit_xor: return MPI_BXOR;
  case reduction_op::logical_and: return MPI_LAND;
  case reduction_op::logical_or: return MPI_LOR;
  case reduction_op::last: break; // never allreduced: not an integer reduction
  }
  return MPI_SUM;
}

// Integer reductions combine with MPI_Allreduce in the loop's operator (any
// association gives the same bits). Floating-point and other types are
// gathered and folded in rank order: every rank then computes the very same
// value, which MPI_Allreduce does not promise, and ranks whose reductions
// differed in the last bit could take different branches and wait for each
// other forever.
bool allreduced(const reduction_variable& v) { return v.integer && integer_type(v) != MPI_DATATYPE_NULL; }

struct saved_reduction {
  reduction_variable v;
  std::vector<unsigned char> original; // the variable's value before the loop
};

class mpi_distributor final : public distributor {
public:
  void start(runtime_state& rt, std::vector<std::unique_ptr<device>>& devices) override {
    job_ = join_job(rt, devices);
    if (job_) {
      balance_ = std::make_unique<balance_table>(job_->devices);
      residency_ = std::make_unique<rank_residency>(job_->comm, job_->rank, job_->size);
    }
  }

  // `update host`: this rank's host gets every rank's newest values.
  std::uint64_t host_needs(const void* host, std::size_t bytes) override {
    if (!tracking())
      return 0;
    std::exception_ptr error;
    const auto* p = static_cast<const unsigned char*>(host);
    const std::uint64_t got = residency_->make_whole({p, p + bytes}, error).bytes;
    if (error)
      std::rethrow_exception(error);
    return got;
  }
  // `update device`: the host's values, the same on every rank, are the newest.
  void host_wrote(const void* host, std::size_t bytes) override {
    if (!tracking())
      return;
    const auto* p = static_cast<const unsigned char*>(host);
    residency_->everyone_holds({p, p + bytes});
  }
  std::uint64_t section_unmapped(const void* host, std::size_t bytes, bool copy_back) override {
    if (!tracking())
      return 0;
    const auto* p = static_cast<const unsigned char*>(host);
    std::exception_ptr error;
    std::uint64_t got = 0;
    if (copy_back)
      got = residency_->make_whole({p, p + bytes}, error).bytes;
    residency_->forget({p, p + bytes});
    if (residency_->empty())
      region_weights_.clear(); // the next region's loops split by what was measured until then
    if (error)
      std::rethrow_exception(error);
    return got;
  }

  bool run(const loop_site& site, std::uint64_t count, const loop_options& options, loop_body& body) override {
    runtime_state& rt = runtime(); // starts the runtime (and joins the job) at the first loop
    if (!job_ || t_loop_depth > 0 || std::this_thread::get_id() != job_->thread)
      return false;
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (finalized)
      return false;
    depth_guard nested_loops_run_locally;
    const std::string why_not = reason_not_split(count, options, body);
    if (!why_not.empty()) {
      // Inside a data region every rank first gets all that the loop uses
      // (all that the regions map, when the runtime does not know what that is).
      const std::uint64_t fetched = before_full_run(site, body.effects(), count);
      report_tag tag{",\"distributed\":{\"ranks\":" + std::to_string(job_->size) + ",\"full\":true,\"reason\":\"" +
                         json_escape(why_not) + "\"" +
                         (fetched ? ",\"bytes_from_ranks\":" + std::to_string(fetched) : std::string()) + "}",
                     " (in full on each of " + std::to_string(job_->size) + " ranks: " + why_not + ")"};
      run_here(site, count, options, body, &tag);
      // Every rank computed the same from the same data.
      if (const loop_effects* fx = body.effects(); fx && count > 0 && !residency_->empty())
        for (std::size_t k = 0; k < fx->written_count(); ++k)
          residency_->everyone_holds(bytes_of(fx->written(k, 0, count)));
      return true;
    }
    run_split(rt, site, count, options, body, *body.effects());
    return true;
  }

private:
  bool tracking() const {
    return job_ && residency_ && !residency_->empty() && std::this_thread::get_id() == job_->thread;
  }

  std::uint64_t before_full_run(const loop_site& site, const loop_effects* fx, std::uint64_t count) {
    if (residency_->empty() || count == 0)
      return 0;
    check_same_loop(site, count);
    std::exception_ptr error;
    rank_residency::fetch_stats got;
    if (!fx) {
      got = residency_->make_all_whole(error);
    } else {
      std::vector<host_range> all;
      for (std::size_t k = 0; k < fx->read_count(); ++k)
        all.push_back(bytes_of(fx->read(k, 0, count)));
      for (std::size_t k = 0; k < fx->written_count(); ++k)
        all.push_back(bytes_of(fx->written(k, 0, count)));
      got = residency_->fetch(rank_residency::needs_by_rank(std::size_t(job_->size), all), error);
    }
    if (error)
      std::rethrow_exception(error);
    return got.bytes;
  }

  // The split's weights: inside data regions fixed at the first split loop
  // (the rows a rank owns stay with it, loop after loop); otherwise the
  // site's own, moved towards the measured throughput after each run.
  std::vector<double> split_weights(const std::string& key) {
    if (!regions_live()) {
      region_weights_.clear();
      return balance_->weights(key);
    }
    if (region_weights_.empty())
      region_weights_ = balance_->overall();
    return region_weights_;
  }

  region_plan plan_regions(const loop_effects& fx, const std::vector<index_range>& split, std::uint64_t count) {
    region_plan p;
    p.stays.assign(fx.written_count(), false);
    if (!regions_live() || count == 0)
      return p;
    const std::size_t ranks = split.size();
    p.needs.resize(ranks);
    for (std::size_t k = 0; k < fx.written_count(); ++k) {
      const written_section all = fx.written(k, 0, count);
      p.stays[k] = all.disjoint && residency_->track(bytes_of(all));
      if (!p.stays[k]) {
        // Exchanged as outside a region, from the ranks' host copies: every
        // rank holds all of it first, and after.
        for (auto& n : p.needs)
          n.push_back(bytes_of(all));
        p.made_whole.push_back(bytes_of(all));
      }
    }
    for (std::size_t k = 0; k < fx.read_count(); ++k)
      for (std::size_t r = 0; r < ranks; ++r)
        if (split[r].size())
          p.needs[r].push_back(bytes_of(fx.read(k, split[r].begin, split[r].end)));
    return p;
  }

  // What each rank wrote of the objects that stay with their writers.
  void record_writers(const loop_effects& fx, const std::vector<index_range>& split, const region_plan& p) {
    for (std::size_t k = 0; k < fx.written_count(); ++k)
      if (p.stays[k])
        for (std::size_t r = 0; r < split.size(); ++r)
          if (split[r].size())
            residency_->wrote(int(r), bytes_of(fx.written(k, split[r].begin, split[r].end)));
  }

  // Before the point-to-point fetch (which every rank must plan alike): the
  // ranks check that they are at the same loop, as the agreement after the
  // run does, rather than wait for each other's messages for ever.
  void check_same_loop(const loop_site& site, std::uint64_t count) {
    const std::uint64_t mine[2] = {fnv1a(site_text(site)), count};
    std::vector<std::uint64_t> all(2 * std::size_t(job_->size));
    MPI_Allgather(mine, 2, MPI_UINT64_T, all.data(), 2, MPI_UINT64_T, job_->comm);
    std::vector<outcome> outs(std::size_t(job_->size));
    bool mismatch = false;
    for (int r = 0; r < job_->size; ++r) {
      outs[r].failed = 0;
      mismatch = mismatch || all[2 * r] != mine[0] || all[2 * r + 1] != count;
    }
    if (mismatch)
      fail_everywhere(site, count, nullptr, outs, true);
  }

  std::string reason_not_split(std::uint64_t count, const loop_options& options, const loop_body& body) const {
    const loop_effects* fx = body.effects();
    if (!fx)
      return std::string(mode_name(options.mode)) +
             "-mode loop: the runtime does not know what its body changes (a map(from: ...) clause says what it "
             "produces)";
    for (std::size_t k = 0; k < fx->written_count(); ++k)
      if (count > 0 && !fx->written(k, 0, 1).copyable)
        return "it writes objects whose elements cannot be sent between ranks (not trivially copyable)";
    for (std::size_t k = 0; k < fx->reduction_count(); ++k)
      if (!fx->reduction(k).copyable || !fx->reduction(k).combine)
        return "a reduction variable's type cannot be sent between ranks (not trivially copyable)";
    if (count < kMinIterationsPerRank * std::uint64_t(job_->size))
      return "fewer than " + std::to_string(kMinIterationsPerRank) + " iterations per rank";
    if (options.min_iterations >= 0 && count < std::uint64_t(options.min_iterations))
      return "below min_iterations " + std::to_string(options.min_iterations);
    return "";
  }

  void run_split(runtime_state& rt, const loop_site& site, std::uint64_t count, const loop_options& options,
                 loop_body& body, const loop_effects& fx) {
    const auto t_start = clock::now();
    const int ranks = job_->size, me = job_->rank;
    const std::string key = site_text(site);
    const std::vector<double> weights = split_weights(key);
    const std::vector<index_range> split = split_by_weight(count, weights);
    const index_range mine = split[me];
    const region_plan regions = plan_regions(fx, split, count);

    // Reductions start from the operator's identity on every rank; the
    // original value is folded in once, after the ranks' partials.
    std::vector<saved_reduction> reds;
    for (std::size_t k = 0; k < fx.reduction_count(); ++k) {
      saved_reduction s{fx.reduction(k), {}};
      const auto* p = static_cast<const unsigned char*>(s.v.var);
      s.original.assign(p, p + s.v.size);
      s.v.set_identity(s.v.var);
      reds.push_back(std::move(s));
    }
    section_exchange exchange(fx, split, me, regions.stays);

    std::exception_ptr error;
    // Inside data regions: each rank receives what its range needs and does
    // not hold, point to point from the ranks that hold it.
    rank_residency::fetch_stats fetched;
    double fetch_seconds = 0;
    if (!residency_->empty()) {
      check_same_loop(site, count);
      const auto tf = clock::now();
      fetched = residency_->fetch(regions.needs, error);
      fetch_seconds = seconds_since(tf);
    }
    const auto t0 = clock::now();
    std::vector<std::uint64_t> changed(exchange.changed_objects(), 0);
    // Whatever fails here fails this rank's part, and is agreed on below:
    // no rank leaves the others waiting in a collective.
    try {
      if (error)
        std::rethrow_exception(error);
      exchange.snapshot();
      range_body part(body, mine.begin);
      report_tag tag{",\"distributed\":{\"ranks\":" + std::to_string(ranks) + ",\"first\":" +
                         std::to_string(mine.begin) + ",\"of\":" + std::to_string(count) +
                         (residency_->empty() ? std::string()
                                              : ",\"bytes_received\":" + std::to_string(fetched.here)) +
                         "}",
                     " (rank " + std::to_string(me) + "'s part [" + std::to_string(mine.begin) + ", " +
                         std::to_string(mine.end) + ") of " + std::to_string(count) + " over " +
                         std::to_string(ranks) + " ranks)"};
      run_here(site, mine.size(), options, part, &tag);
      exchange.bring_home();
      changed = exchange.find_changes();
    } catch (...) {
      error = std::current_exception();
    }
    const double local_seconds = seconds_since(t0);

    // One message from every rank to every rank: the outcome, the counts of
    // changed elements, the partials folded in rank order.
    outcome out{fnv1a(key), count, mine.size(), local_seconds, error ? 1 : 0, 0};
    std::vector<unsigned char> msg(sizeof out);
    std::memcpy(msg.data(), &out, sizeof out);
    auto append = [&msg](const void* p, std::size_t n) {
      const auto* b = static_cast<const unsigned char*>(p);
      msg.insert(msg.end(), b, b + n);
    };
    append(changed.data(), changed.size() * sizeof(std::uint64_t));
    for (const saved_reduction& s : reds)
      if (!allreduced(s.v))
        append(s.v.var, s.v.size);
    const std::size_t each = msg.size();
    std::vector<unsigned char> all(each * std::size_t(ranks));
    MPI_Allgather(msg.data(), int(each), MPI_BYTE, all.data(), int(each), MPI_BYTE, job_->comm);

    std::vector<outcome> outs(ranks);
    bool failed = false, mismatch = false;
    for (int r = 0; r < ranks; ++r) {
      std::memcpy(&outs[r], all.data() + std::size_t(r) * each, sizeof(outcome));
      failed = failed || outs[r].failed;
      mismatch = mismatch || outs[r].site_hash != out.site_hash || outs[r].count != count;
    }
    if (failed || mismatch) {
      for (const saved_reduction& s : reds)
        std::memcpy(s.v.var, s.original.data(), s.v.size);
      // Each rank's part holds what its iterations left, as after a failed
      // loop on one machine; no rank's part travels.
      if (!mismatch)
        record_writers(fx, split, regions);
      fail_everywhere(site, count, error, outs, mismatch);
    }

    std::vector<std::uint64_t> iterations(ranks);
    std::vector<double> seconds(ranks);
    std::vector<std::vector<std::uint64_t>> changed_by_rank(ranks);
    for (int r = 0; r < ranks; ++r) {
      iterations[r] = outs[r].iterations;
      seconds[r] = outs[r].seconds;
      const unsigned char* p = all.data() + std::size_t(r) * each + sizeof(outcome);
      changed_by_rank[r].resize(changed.size());
      std::memcpy(changed_by_rank[r].data(), p, changed.size() * sizeof(std::uint64_t));
    }
    balance_->measured(key, iterations, seconds);

    exchange_stats st = exchange.run(job_->comm, changed_by_rank);
    record_writers(fx, split, regions);
    for (const host_range& r : regions.made_whole)
      residency_->everyone_holds(r);
    st.fetched_bytes = fetched.bytes;
    st.messages = fetched.messages;
    st.kept_objects = int(std::count(regions.stays.begin(), regions.stays.end(), true));
    st.bytes += fetched.bytes;
    st.seconds += fetch_seconds;
    combine_reductions(reds, all, each, sizeof(outcome) + changed.size() * sizeof(std::uint64_t),
                       rank_running(split, count - 1));

    if (me == 0)
      report_split(rt, site, options, count, split, weights, seconds, st, seconds_since(t_start));
  }

  // The rank whose range holds iteration `k`.
  static int rank_running(const std::vector<index_range>& split, std::uint64_t k) {
    for (std::size_t r = 0; r < split.size(); ++r)
      if (split[r].begin <= k && k < split[r].end)
        return int(r);
    return int(split.size()) - 1;
  }

  // `last_rank` ran the sequentially last iteration: a lastprivate variable
  // takes its value from there.
  void combine_reductions(std::vector<saved_reduction>& reds, const std::vector<unsigned char>& all,
                          std::size_t each, std::size_t partials_at, int last_rank) {
    std::size_t at = partials_at;
    for (saved_reduction& s : reds) {
      if (s.v.op == reduction_op::last) {
        s.v.combine(s.v.var, all.data() + std::size_t(last_rank) * each + at);
        at += s.v.size;
        continue;
      }
      if (allreduced(s.v)) {
        MPI_Allreduce(MPI_IN_PLACE, s.v.var, 1, integer_type(s.v), mpi_op(s.v.op), job_->comm);
        std::vector<unsigned char> total(static_cast<unsigned char*>(s.v.var),
                                         static_cast<unsigned char*>(s.v.var) + s.v.size);
        std::memcpy(s.v.var, s.original.data(), s.v.size);
        s.v.combine(s.v.var, total.data());
        continue;
      }
      std::memcpy(s.v.var, s.original.data(), s.v.size);
      for (int r = 0; r < job_->size; ++r)
        s.v.combine(s.v.var, all.data() + std::size_t(r) * each + at);
      at += s.v.size;
    }
  }

  // Every rank throws: the rank whose body threw rethrows its own exception,
  // the others a loop_error naming the rank(s) and what they threw.
  [[noreturn]] void fail_everywhere(const loop_site& site, std::uint64_t count, const std::exception_ptr& error,
                                    const std::vector<outcome>& outs, bool mismatch) {
    const std::string mine = mismatch ? site_text(site) + " with " + std::to_string(count) + " iterations"
                                      : error ? what_of(error) : std::string();
    int len = int(mine.size());
    std::vector<int> lens(job_->size), displs(job_->size);
    MPI_Allgather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, job_->comm);
    int total = 0;
    for (int r = 0; r < job_->size; ++r) {
      displs[r] = total;
      total += lens[r];
    }
    std::vector<char> texts(std::size_t(total) + 1);
    MPI_Allgatherv(mine.data(), len, MPI_CHAR, texts.data(), lens.data(), displs.data(), MPI_CHAR, job_->comm);
    auto text_of = [&](int r) { return std::string(texts.data() + displs[r], std::size_t(lens[r])); };
    std::string msg = "gpu-autopar: " + site_text(site) + ": ";
    if (mismatch) {
      msg += "the ranks reached different loops (";
      for (int r = 0; r < job_->size; ++r)
        msg += (r ? ", rank " : "rank ") + std::to_string(r) + " at " + text_of(r);
      msg += "); every rank must run the same annotated loops in the same order";
      throw loop_error(msg);
    }
    if (error && !mismatch)
      std::rethrow_exception(error);
    std::string who;
    for (int r = 0; r < job_->size; ++r)
      if (outs[r].failed)
        who += (who.empty() ? "rank " : "; rank ") + std::to_string(r) + ": " + text_of(r);
    throw loop_error(msg + "the loop failed on " + who + " (" + std::to_string(job_->size) +
                     " ranks; no rank's results were exchanged)");
  }

  void report_split(runtime_state& rt, const loop_site& site, const loop_options& options, std::uint64_t count,
                    const std::vector<index_range>& split, const std::vector<double>& weights,
                    const std::vector<double>& seconds, const exchange_stats& st, double total_seconds) {
    const bool info = rt.config.log >= log_level::info;
    if (rt.report_fd < 0 && !info)
      return;
    double wsum = 0;
    for (double w : weights)
      wsum += w;
    char buf[64];
    std::string j = "{\"loop\":\"" + json_escape(site_text(site)) + "\",\"rank\":0,\"mode\":\"" +
                    mode_name(options.mode) + "\",\"iterations\":" + std::to_string(count) + ",\"ranks\":[";
    std::string log = "gpu-autopar: " + site_text(site) + ": " + mode_name(options.mode) + " loop, " +
                      std::to_string(count) + " iterations over " + std::to_string(split.size()) + " ranks:";
    for (std::size_t r = 0; r < split.size(); ++r) {
      std::snprintf(buf, sizeof buf, "%.4f", wsum > 0 ? weights[r] / wsum : 0.0);
      j += std::string(r ? ",{" : "{") + "\"rank\":" + std::to_string(r) + ",\"first\":" +
           std::to_string(split[r].begin) + ",\"iterations\":" + std::to_string(split[r].size()) +
           ",\"weight\":" + buf;
      std::snprintf(buf, sizeof buf, "%.6f", seconds[r]);
      j += std::string(",\"seconds\":") + buf + "}";
      log += std::string(r ? ", rank" : " rank") + std::to_string(r) + " " + std::to_string(split[r].size());
    }
    std::snprintf(buf, sizeof buf, "%.6f", st.seconds);
    j += "],\"exchange\":{\"bytes\":" + std::to_string(st.bytes) + ",\"seconds\":" + buf +
         ",\"slabs\":" + std::to_string(st.slab_objects) + ",\"by_changes\":" + std::to_string(st.changed_objects) +
         ",\"changed_bytes\":" + std::to_string(st.changed_bytes);
    if (!residency_->empty() || st.kept_objects)
      j += ",\"kept\":" + std::to_string(st.kept_objects) + ",\"fetched_bytes\":" + std::to_string(st.fetched_bytes) +
           ",\"messages\":" + std::to_string(st.messages);
    j += "}";
    std::snprintf(buf, sizeof buf, "%.6f", total_seconds);
    j += std::string(",\"seconds\":") + buf + "}\n";
    write_report_line(rt, j);
    if (info) {
      std::snprintf(buf, sizeof buf, "%.3f ms", st.seconds * 1e3);
      write_log_line(rt, log + "; exchanged " + std::to_string(st.bytes) + " bytes in " + buf + "\n");
    }
  }

  std::unique_ptr<mpi_job> job_;
  std::unique_ptr<balance_table> balance_;
  std::unique_ptr<rank_residency> residency_;
  std::vector<double> region_weights_; // the splits' weights while data regions live
};

mpi_distributor g_mpi_distributor;

struct registration {
  registration() { set_distributor(&g_mpi_distributor); }
} g_registration;

} // namespace
} // namespace detail
} // namespace gpu_autopar

// Referenced by the link flags of GpuAutopar::runtime_mpi and gpu-autopar-mpi.pc
// (-Wl,--undefined=gpu_autopar_mpi_link): it pulls this object, and with it the
// registration above, out of the static library.
extern "C" {
int gpu_autopar_mpi_link = 1;
}
