// The arithmetic of splitting a loop across ranks, kept free of MPI so that
// unit tests can check it: every rank computes the same split from the same
// numbers, so the split itself needs no message.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "range_split.h"

namespace gpu_autopar {
namespace detail {

// Contiguous ranges of [0, count), one per rank in rank order, sized in
// proportion to the weights (each > 0). Integer arithmetic only, so that every
// rank gets exactly the same ranges from the same weights.
std::vector<index_range> split_by_weight(std::uint64_t count, const std::vector<double>& weights);

// FNV-1a: a short fingerprint of a string that every rank computes alike.
std::uint64_t fnv1a(const std::string& s);

// Per loop site, the weights of the next split: first each rank's device
// count, then moved half-way towards each rank's share of the measured
// throughput (iterations per second of its part) after each run of that site.
// Every rank updates its table from the same gathered numbers, so the tables
// stay equal.
class balance_table {
public:
  explicit balance_table(std::vector<double> capacity) : capacity_(std::move(capacity)) {}
  std::vector<double> weights(const std::string& site) const;
  // The job's weights over all sites: each rank's share of the throughput
  // measured so far, averaged over the sites (device counts before any). A
  // data region's loops split by these, fixed at the region's first split
  // loop, so that the rows a rank owns do not move within the region.
  std::vector<double> overall() const;
  // iterations[r] run in seconds[r] on rank r; ranks that ran nothing keep their share.
  void measured(const std::string& site, const std::vector<std::uint64_t>& iterations,
                const std::vector<double>& seconds);

private:
  std::vector<double> capacity_;
  std::map<std::string, std::vector<double>> by_site_;
};

} // namespace detail
} // namespace gpu_autopar
