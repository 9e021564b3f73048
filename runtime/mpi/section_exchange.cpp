#include "section_exchange.h"

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstring>

#include "gpu_autopar/data_region.h"

namespace gpu_autopar {
namespace detail {
namespace {

// A committed MPI type of `bytes` contiguous bytes, freed with the holder.
class byte_block_type {
public:
  explicit byte_block_type(std::size_t bytes) {
    MPI_Type_contiguous(int(bytes), MPI_BYTE, &type_);
    MPI_Type_commit(&type_);
  }
  ~byte_block_type() { MPI_Type_free(&type_); }
  byte_block_type(const byte_block_type&) = delete;
  byte_block_type& operator=(const byte_block_type&) = delete;
  MPI_Datatype get() const { return type_; }

private:
  MPI_Datatype type_;
};

bool fits_int(std::uint64_t v) { return v <= std::uint64_t(INT_MAX); }

} // namespace

void broadcast_in_pieces(unsigned char* data, std::uint64_t count, std::size_t item_bytes, MPI_Datatype type,
                         int root, MPI_Comm comm) {
  const std::uint64_t piece = std::uint64_t(INT_MAX) / 2;
  for (std::uint64_t at = 0; at < count; at += piece) {
    const std::uint64_t n = std::min(piece, count - at);
    MPI_Bcast(data + at * item_bytes, int(n), type, root, comm);
  }
}

section_exchange::section_exchange(const loop_effects& fx, const std::vector<index_range>& split, int rank,
                                   const std::vector<bool>& stays)
    : rank_(rank), ranks_(int(split.size())) {
  for (std::size_t k = 0; k < fx.written_count(); ++k) {
    if (k < stays.size() && stays[k])
      continue; // left with the rank that wrote it (rank_residency.h)
    // Whether the object's sections are disjoint does not depend on the range.
    std::uint64_t any = 0;
    while (any < split.size() && split[any].size() == 0)
      ++any;
    if (any == split.size())
      return; // no iterations anywhere: nothing was written
    const bool disjoint = fx.written(k, split[any].begin, split[any].end).disjoint;
    if (disjoint) {
      slab_object o;
      for (const index_range& s : split)
        o.by_rank.push_back(s.size() ? fx.written(k, s.begin, s.end) : written_section{});
      slabs_.push_back(std::move(o));
      continue;
    }
    changed_object o;
    // The object and element size are this process's own, whatever its range.
    o.mine = fx.written(k, split[any].begin, split[any].end);
    o.mine.lo = o.mine.hi = 0;
    if (split[rank].size())
      o.mine = fx.written(k, split[rank].begin, split[rank].end);
    by_changes_.push_back(std::move(o));
  }
}

namespace {
// Inside a data region the newest values of a section may be on this
// process's devices: they come to the host before the host's bytes are
// compared or sent.
void host_up_to_date(const written_section& w) {
  if (w.hi > w.lo)
    region_host_sync(w.host + w.lo * std::int64_t(w.element_size),
                     std::size_t(w.hi - w.lo) * w.element_size);
}
// Bytes received from other ranks are the newest: the devices' copies of
// them (inside a data region) are stale.
void host_received(unsigned char* p, std::size_t bytes) { region_host_written(p, bytes); }
} // namespace

void section_exchange::snapshot() {
  for (changed_object& o : by_changes_) {
    host_up_to_date(o.mine);
    const unsigned char* from = o.mine.host + o.mine.lo * std::int64_t(o.mine.element_size);
    o.before.assign(from, from + (o.mine.hi - o.mine.lo) * std::int64_t(o.mine.element_size));
  }
}

void section_exchange::bring_home() {
  for (const slab_object& o : slabs_)
    host_up_to_date(o.by_rank[std::size_t(rank_)]);
  for (const changed_object& o : by_changes_)
    host_up_to_date(o.mine);
}

std::vector<std::uint64_t> section_exchange::find_changes() {
  std::vector<std::uint64_t> sizes;
  for (changed_object& o : by_changes_) {
    o.runs.clear();
    const std::size_t unit = o.mine.unit;
    const std::int64_t base = o.mine.lo * std::int64_t(o.mine.element_size); // bytes from element 0
    const unsigned char* now = o.mine.host + base;
    const unsigned char* before = o.before.data();
    const std::size_t bytes = o.before.size();
    std::size_t at = 0;
    while (at < bytes) {
      while (at < bytes && std::memcmp(now + at, before + at, unit) == 0)
        at += unit;
      std::size_t end = at;
      while (end < bytes && std::memcmp(now + end, before + end, unit) != 0)
        end += unit;
      if (end > at) {
        const std::int64_t head[2] = {base + std::int64_t(at), std::int64_t(end - at)};
        const auto* h = reinterpret_cast<const unsigned char*>(head);
        o.runs.insert(o.runs.end(), h, h + sizeof head);
        o.runs.insert(o.runs.end(), now + at, now + end);
      }
      at = end;
    }
    std::vector<unsigned char>().swap(o.before);
    sizes.push_back(o.runs.size());
  }
  return sizes;
}

exchange_stats section_exchange::run(MPI_Comm comm, const std::vector<std::vector<std::uint64_t>>& changed) {
  const auto t0 = std::chrono::steady_clock::now();
  exchange_stats st;
  for (const slab_object& o : slabs_)
    exchange_slab(comm, o, st);
  for (std::size_t k = 0; k < by_changes_.size(); ++k)
    exchange_changes(comm, k, changed, st);
  st.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return st;
}

void section_exchange::exchange_slab(MPI_Comm comm, const slab_object& o, exchange_stats& st) {
  long long base = LLONG_MAX;
  std::size_t e = 0;
  unsigned char* host = nullptr;
  for (const written_section& w : o.by_rank)
    if (w.hi > w.lo) {
      base = std::min(base, w.lo);
      e = w.element_size;
      host = w.host;
    }
  if (!host)
    return; // every hull empty (all clamped away)
  ++st.slab_objects;
  std::vector<int> counts(ranks_), displs(ranks_);
  bool fits = true;
  for (int r = 0; r < ranks_; ++r) {
    const written_section& w = o.by_rank[r];
    const std::uint64_t n = w.hi > w.lo ? std::uint64_t(w.hi - w.lo) : 0;
    const std::uint64_t d = n ? std::uint64_t(w.lo - base) : 0;
    st.bytes += n * e * std::uint64_t(ranks_ - 1); // to every other rank
    fits = fits && fits_int(n) && fits_int(d);
    counts[r] = int(n);
    displs[r] = int(d);
  }
  byte_block_type element(e);
  if (fits) {
    MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, host + base * std::int64_t(e), counts.data(), displs.data(),
                   element.get(), comm);
  } else {
    for (int r = 0; r < ranks_; ++r) {
      const written_section& w = o.by_rank[r];
      if (w.hi > w.lo)
        broadcast_in_pieces(host + w.lo * std::int64_t(e), std::uint64_t(w.hi - w.lo), e, element.get(), r, comm);
    }
  }
  for (int r = 0; r < ranks_; ++r) {
    const written_section& w = o.by_rank[r];
    if (r != rank_ && w.hi > w.lo)
      host_received(host + w.lo * std::int64_t(e), std::size_t(w.hi - w.lo) * e);
  }
}

void section_exchange::exchange_changes(MPI_Comm comm, std::size_t k,
                                        const std::vector<std::vector<std::uint64_t>>& changed, exchange_stats& st) {
  const changed_object& o = by_changes_[k];
  ++st.changed_objects;
  std::uint64_t total = 0;
  bool fits = true;
  std::vector<int> counts(ranks_), displs(ranks_);
  for (int r = 0; r < ranks_; ++r) {
    const std::uint64_t n = changed[r][k];
    fits = fits && fits_int(n) && fits_int(total);
    counts[r] = int(n);
    displs[r] = int(total);
    total += n;
  }
  st.bytes += total * std::uint64_t(ranks_ - 1);
  if (total == 0)
    return;
  std::vector<unsigned char> all(total);
  std::vector<std::uint64_t> at(ranks_, 0);
  for (int r = 1; r < ranks_; ++r)
    at[r] = at[r - 1] + changed[r - 1][k];
  std::memcpy(all.data() + at[rank_], o.runs.data(), o.runs.size());
  if (fits)
    MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all.data(), counts.data(), displs.data(), MPI_BYTE, comm);
  else
    for (int r = 0; r < ranks_; ++r)
      broadcast_in_pieces(all.data() + at[r], changed[r][k], 1, MPI_BYTE, r, comm);
  for (int r = 0; r < ranks_; ++r) {
    const unsigned char* p = all.data() + at[r];
    const unsigned char* end = p + changed[r][k];
    while (p < end) {
      std::int64_t head[2];
      std::memcpy(head, p, sizeof head);
      p += sizeof head;
      if (r != rank_) { // this rank's own changes are in place already
        std::memcpy(o.mine.host + head[0], p, std::size_t(head[1]));
        host_received(o.mine.host + head[0], std::size_t(head[1]));
      }
      st.changed_bytes += std::uint64_t(head[1]);
      p += head[1];
    }
  }
}

} // namespace detail
} // namespace gpu_autopar
