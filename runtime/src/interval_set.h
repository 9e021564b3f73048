// A set of byte offsets kept as disjoint half-open intervals: which parts of
// a data region's section are up to date in one place (the host, or one
// device's resident copy). Not thread-safe; the region locks around it.
#pragma once

#include <cstdint>
#include <iterator>
#include <map>
#include <vector>

namespace gpu_autopar {
namespace detail {

struct byte_range {
  std::uint64_t begin = 0, end = 0;
  std::uint64_t size() const { return end > begin ? end - begin : 0; }
  bool empty() const { return end <= begin; }
};

class interval_set {
public:
  void add(byte_range r) {
    if (r.empty())
      return;
    auto it = spans_.upper_bound(r.begin);
    if (it != spans_.begin()) {
      auto prev = std::prev(it);
      if (prev->second >= r.begin) { // touches or overlaps the one before
        r.begin = prev->first;
        if (prev->second > r.end)
          r.end = prev->second;
        it = spans_.erase(prev);
      }
    }
    while (it != spans_.end() && it->first <= r.end) {
      if (it->second > r.end)
        r.end = it->second;
      it = spans_.erase(it);
    }
    spans_.emplace(r.begin, r.end);
  }

  void remove(byte_range r) {
    if (r.empty())
      return;
    auto it = spans_.upper_bound(r.begin);
    if (it != spans_.begin())
      --it;
    while (it != spans_.end() && it->first < r.end) {
      const std::uint64_t b = it->first, e = it->second;
      if (e <= r.begin) {
        ++it;
        continue;
      }
      it = spans_.erase(it);
      if (b < r.begin)
        spans_.emplace(b, r.begin);
      if (e > r.end)
        it = spans_.emplace(r.end, e).first;
    }
  }

  // The parts of r that are in the set (covered) or not (missing), in order.
  std::vector<byte_range> covered(byte_range r) const { return pieces(r, true); }
  std::vector<byte_range> missing(byte_range r) const { return pieces(r, false); }
  bool contains(byte_range r) const { return missing(r).empty(); }
  bool empty() const { return spans_.empty(); }
  std::uint64_t bytes() const {
    std::uint64_t n = 0;
    for (const auto& s : spans_)
      n += s.second - s.first;
    return n;
  }

private:
  std::vector<byte_range> pieces(byte_range r, bool in) const {
    std::vector<byte_range> out;
    if (r.empty())
      return out;
    std::uint64_t at = r.begin;
    auto it = spans_.upper_bound(r.begin);
    if (it != spans_.begin())
      --it;
    for (; it != spans_.end() && it->first < r.end; ++it) {
      if (it->second <= at)
        continue;
      const std::uint64_t b = it->first > at ? it->first : at;
      const std::uint64_t e = it->second < r.end ? it->second : r.end;
      if (!in && b > at)
        out.push_back({at, b});
      if (in)
        out.push_back({b, e});
      at = e;
    }
    if (!in && at < r.end)
      out.push_back({at, r.end});
    return out;
  }

  std::map<std::uint64_t, std::uint64_t> spans_; // begin -> end
};

} // namespace detail
} // namespace gpu_autopar
