#include "rank_split.h"

#include <algorithm>
#include <cmath>

namespace gpu_autopar {
namespace detail {

std::vector<index_range> split_by_weight(std::uint64_t count, const std::vector<double>& weights) {
  // Weights become integers out of 2^20 (each at least 1), then boundaries
  // count * prefix / total in 128 bits: exact and the same on every rank.
  double sum = 0;
  for (double w : weights)
    sum += w > 0 ? w : 0;
  std::vector<std::uint64_t> q(weights.size(), 1);
  for (std::size_t r = 0; r < weights.size(); ++r)
    if (sum > 0 && weights[r] > 0)
      q[r] = std::max<std::uint64_t>(1, std::uint64_t(std::llround(weights[r] / sum * double(1 << 20))));
  unsigned __int128 total = 0;
  for (std::uint64_t v : q)
    total += v;
  std::vector<index_range> out(weights.size());
  unsigned __int128 prefix = 0;
  std::uint64_t at = 0;
  for (std::size_t r = 0; r < q.size(); ++r) {
    prefix += q[r];
    const std::uint64_t end = r + 1 == q.size() ? count : std::uint64_t((unsigned __int128)count * prefix / total);
    out[r] = {at, end};
    at = end;
  }
  return out;
}

std::uint64_t fnv1a(const std::string& s) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s)
    h = (h ^ c) * 1099511628211ull;
  return h;
}

std::vector<double> balance_table::weights(const std::string& site) const {
  auto it = by_site_.find(site);
  return it == by_site_.end() ? capacity_ : it->second;
}

std::vector<double> balance_table::overall() const {
  if (by_site_.empty())
    return capacity_;
  std::vector<double> mean(capacity_.size(), 0.0);
  for (const auto& [site, w] : by_site_) {
    double sum = 0;
    for (double x : w)
      sum += x;
    for (std::size_t r = 0; r < mean.size(); ++r)
      mean[r] += w[r] / sum / double(by_site_.size());
  }
  return mean;
}

void balance_table::measured(const std::string& site, const std::vector<std::uint64_t>& iterations,
                             const std::vector<double>& seconds) {
  // Shares (weights summing to 1): the old ones, and the measured
  // throughputs' for the ranks that ran something (the others keep theirs).
  std::vector<double> old = weights(site);
  double old_sum = 0;
  for (double w : old)
    old_sum += w;
  for (double& w : old)
    w /= old_sum;
  double measured_old = 0, throughput_sum = 0;
  for (std::size_t r = 0; r < old.size(); ++r)
    if (iterations[r] > 0 && seconds[r] > 0) {
      measured_old += old[r];
      throughput_sum += double(iterations[r]) / seconds[r];
    }
  if (throughput_sum <= 0)
    return;
  // Half old, half new: one noisy run (a descheduled rank) moves the split
  // only half-way.
  std::vector<double> next(old);
  for (std::size_t r = 0; r < old.size(); ++r)
    if (iterations[r] > 0 && seconds[r] > 0)
      next[r] = 0.5 * old[r] + 0.5 * measured_old * (double(iterations[r]) / seconds[r]) / throughput_sum;
  by_site_[site] = next;
}

} // namespace detail
} // namespace gpu_autopar
