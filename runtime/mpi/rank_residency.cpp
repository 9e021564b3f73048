#include "rank_residency.h"

#include <algorithm>
#include <climits>
#include <cstring>
#include <map>

#include "gpu_autopar/data_region.h"

namespace gpu_autopar {
namespace detail {
namespace {

// Messages are cut into pieces MPI's int counts can hold.
constexpr std::uint64_t kMaxMessage = std::uint64_t(1) << 30;
// The runtime's own communicator carries these alone: no other tag needed.
constexpr int kTag = 25;

byte_range clip(host_range r, const unsigned char* host, std::uint64_t bytes) {
  const unsigned char* lo = std::max(r.begin, static_cast<const unsigned char*>(host));
  const unsigned char* hi = std::min(r.end, static_cast<const unsigned char*>(host) + bytes);
  if (lo >= hi)
    return {0, 0};
  return {std::uint64_t(lo - host), std::uint64_t(hi - host)};
}

} // namespace

bool rank_residency::track(host_range r) {
  if (r.end <= r.begin)
    return false;
  region_section s;
  if (!region_section_of(r.begin, std::size_t(r.end - r.begin), &s))
    return false;
  auto* host = static_cast<unsigned char*>(const_cast<void*>(s.host));
  for (std::size_t k = 0; k < sections_.size(); ++k) {
    section& t = sections_[k];
    if (t.host == host && t.bytes == s.bytes)
      return true;
  }
  // A section tracked at this address before belonged to a region that has
  // ended (section_unmapped forgets them; this only guards the table).
  forget({host, host + s.bytes});
  section t{host, s.bytes, std::vector<interval_set>(std::size_t(ranks_))};
  for (interval_set& v : t.valid)
    v.add({0, s.bytes});
  sections_.push_back(std::move(t));
  return true;
}

std::vector<std::pair<std::size_t, byte_range>> rank_residency::meet(host_range r) const {
  std::vector<std::pair<std::size_t, byte_range>> out;
  for (std::size_t k = 0; k < sections_.size(); ++k) {
    const byte_range b = clip(r, sections_[k].host, sections_[k].bytes);
    if (!b.empty())
      out.push_back({k, b});
  }
  return out;
}

std::vector<rank_residency::transfer> rank_residency::plan(const needs_by_rank& needs) const {
  std::vector<transfer> out;
  for (int r = 0; r < ranks_ && r < int(needs.size()); ++r) {
    std::vector<interval_set> want(sections_.size());
    for (const host_range& h : needs[std::size_t(r)])
      for (const auto& [k, b] : meet(h))
        want[k].add(b);
    for (std::size_t k = 0; k < sections_.size(); ++k) {
      const section& s = sections_[k];
      for (byte_range piece : want[k].covered({0, s.bytes}))
        for (byte_range miss : s.valid[std::size_t(r)].missing(piece)) {
          // From the nearest ranks that hold it (a stencil's neighbour), the
          // lower first at equal distance: every rank picks the same.
          interval_set todo;
          todo.add(miss);
          for (int d = 1; d < ranks_ && !todo.empty(); ++d)
            for (int q : {r - d, r + d}) {
              if (q < 0 || q >= ranks_ || todo.empty())
                continue;
              for (byte_range have : s.valid[std::size_t(q)].covered(miss))
                for (byte_range t : todo.covered(have)) {
                  out.push_back({q, r, k, t});
                  todo.remove(t);
                }
            }
        }
    }
  }
  return out;
}

void rank_residency::run(const std::vector<transfer>& plan, std::exception_ptr& error) {
  // This rank's transfers, by peer, in plan order (the order both sides pack in).
  std::map<int, std::vector<const transfer*>> sends, receives;
  for (const transfer& t : plan) {
    if (t.from == rank_)
      sends[t.to].push_back(&t);
    if (t.to == rank_)
      receives[t.from].push_back(&t);
  }
  auto at = [this](const transfer& t) { return sections_[t.section].host + t.range.begin; };
  // What this rank sends must be on its host: inside the region the newest
  // values may be on its devices.
  for (const auto& [peer, list] : sends)
    for (const transfer* t : list)
      try {
        region_host_sync(at(*t), std::size_t(t->range.size()));
      } catch (...) {
        if (!error)
          error = std::current_exception();
      }
  struct message {
    int peer;
    unsigned char* data;
    std::uint64_t bytes;
    std::vector<unsigned char> packed; // several pieces: packed in plan order
  };
  auto make = [&](int peer, const std::vector<const transfer*>& list, bool sending) {
    message m{peer, nullptr, 0, {}};
    for (const transfer* t : list)
      m.bytes += t->range.size();
    if (list.size() == 1) {
      m.data = at(*list.front()); // straight from or into the object
      return m;
    }
    m.packed.resize(m.bytes);
    if (sending) {
      std::uint64_t o = 0;
      for (const transfer* t : list) {
        std::memcpy(m.packed.data() + o, at(*t), t->range.size());
        o += t->range.size();
      }
    }
    m.data = m.packed.data();
    return m;
  };
  std::vector<message> in, out;
  for (const auto& [peer, list] : receives)
    in.push_back(make(peer, list, false));
  for (const auto& [peer, list] : sends)
    out.push_back(make(peer, list, true));
  std::vector<MPI_Request> requests;
  auto post = [&](message& m, bool sending) {
    for (std::uint64_t o = 0; o < m.bytes; o += kMaxMessage) {
      const int n = int(std::min(kMaxMessage, m.bytes - o));
      requests.emplace_back();
      if (sending)
        MPI_Isend(m.data + o, n, MPI_BYTE, m.peer, kTag, comm_, &requests.back());
      else
        MPI_Irecv(m.data + o, n, MPI_BYTE, m.peer, kTag, comm_, &requests.back());
    }
  };
  for (message& m : in)
    post(m, false);
  for (message& m : out)
    post(m, true);
  MPI_Waitall(int(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
  for (message& m : in) {
    const std::vector<const transfer*>& list = receives[m.peer];
    std::uint64_t o = 0;
    for (const transfer* t : list) {
      if (!m.packed.empty())
        std::memcpy(at(*t), m.packed.data() + o, t->range.size());
      o += t->range.size();
      // The host now holds the newest values; the devices' copies are stale.
      region_host_written(at(*t), std::size_t(t->range.size()));
    }
  }
  for (const transfer& t : plan)
    sections_[t.section].valid[std::size_t(t.to)].add(t.range);
}

rank_residency::fetch_stats rank_residency::fetch(const needs_by_rank& needs, std::exception_ptr& error) {
  fetch_stats st;
  if (sections_.empty())
    return st;
  const std::vector<transfer> p = plan(needs);
  std::map<std::pair<int, int>, std::uint64_t> pairs;
  for (const transfer& t : p) {
    st.bytes += t.range.size();
    if (t.to == rank_)
      st.here += t.range.size();
    pairs[{t.from, t.to}] += t.range.size();
  }
  for (const auto& [pair, bytes] : pairs)
    st.messages += int((bytes + kMaxMessage - 1) / kMaxMessage);
  if (!p.empty())
    run(p, error);
  return st;
}

rank_residency::fetch_stats rank_residency::make_whole(host_range r, std::exception_ptr& error) {
  return fetch(needs_by_rank(std::size_t(ranks_), std::vector<host_range>{r}), error);
}

rank_residency::fetch_stats rank_residency::make_all_whole(std::exception_ptr& error) {
  std::vector<host_range> all;
  for (const section& s : sections_)
    all.push_back({s.host, s.host + s.bytes});
  return fetch(needs_by_rank(std::size_t(ranks_), all), error);
}

void rank_residency::wrote(int writer, host_range r) {
  for (const auto& [k, b] : meet(r))
    for (int q = 0; q < ranks_; ++q) {
      if (q == writer)
        sections_[k].valid[std::size_t(q)].add(b);
      else
        sections_[k].valid[std::size_t(q)].remove(b);
    }
}

void rank_residency::everyone_holds(host_range r) {
  for (const auto& [k, b] : meet(r))
    for (interval_set& v : sections_[k].valid)
      v.add(b);
}

void rank_residency::forget(host_range r) {
  sections_.erase(std::remove_if(sections_.begin(), sections_.end(),
                                 [&](const section& s) { return !clip(r, s.host, s.bytes).empty(); }),
                  sections_.end());
}

} // namespace detail
} // namespace gpu_autopar
