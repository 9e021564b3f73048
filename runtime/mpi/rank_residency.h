// Data regions across the ranks of a job (docs/mpi.md, "Data regions across
// ranks"): inside a region, what a split loop writes stays with the rank that
// wrote it. This table says, for each byte of each mapped section that split
// loops touched, which ranks hold its newest value (in their host copy or on
// their devices), and moves to a rank, point to point, only the bytes it needs
// and does not hold. Every rank keeps the same table: it changes only through
// calls that every rank makes with the same arguments (the loops' splits and
// data maps, which every rank computes alike), so a transfer's sender and
// receiver both know of it without asking.
#pragma once

#include <cstdint>
#include <exception>
#include <vector>

#include <mpi.h>

#include "interval_set.h"

namespace gpu_autopar {
namespace detail {

// Bytes [begin, end) of this process's memory (a host copy of an object).
struct host_range {
  const unsigned char* begin = nullptr;
  const unsigned char* end = nullptr;
};

class rank_residency {
public:
  rank_residency(MPI_Comm comm, int rank, int ranks) : comm_(comm), rank_(rank), ranks_(ranks) {}

  bool empty() const { return sections_.empty(); }

  // Whether all of `r` lies in a section a live data region maps; that
  // section is tracked from here on, every rank holding all of it (as every
  // rank does at a region's start), unless it was tracked already.
  bool track(host_range r);

  // What each rank needs up to date before a loop runs: needs[rank], ranges
  // in any object (parts outside tracked sections are held by every rank).
  using needs_by_rank = std::vector<std::vector<host_range>>;

  struct fetch_stats {
    std::uint64_t bytes = 0; // received, summed over the ranks
    std::uint64_t here = 0;  // received by this rank
    int messages = 0;        // point-to-point messages, over the ranks
  };
  // Collective on the job's communicator: every rank receives the parts of
  // its needs that it does not hold, from the nearest ranks that hold them
  // (Isend/Irecv, one message per pair of ranks). A sender whose devices lost
  // the newest values of what it sends still sends (so that no rank waits
  // for ever) and keeps the error in `error`.
  fetch_stats fetch(const needs_by_rank& needs, std::exception_ptr& error);

  // Every rank needs every tracked byte in `r` (`update host`, a region's end).
  fetch_stats make_whole(host_range r, std::exception_ptr& error);
  // Every tracked byte, on every rank (before a loop whose effects are unknown).
  fetch_stats make_all_whole(std::exception_ptr& error);

  // Rank `writer` wrote `r`: only it holds the newest values now.
  void wrote(int writer, host_range r);
  // Every rank holds `r` (a loop run in full on every rank, an exchanged
  // result, `update device`).
  void everyone_holds(host_range r);
  // Sections within `r` are no longer mapped: not tracked any more.
  void forget(host_range r);

private:
  struct section {
    unsigned char* host;
    std::uint64_t bytes;
    std::vector<interval_set> valid; // by rank: the bytes whose newest value that rank holds
  };
  struct transfer {
    int from, to;
    std::size_t section;
    byte_range range; // relative to the section
  };
  // Where `r` meets each tracked section: (section index, range relative to it).
  std::vector<std::pair<std::size_t, byte_range>> meet(host_range r) const;
  std::vector<transfer> plan(const needs_by_rank& needs) const;
  void run(const std::vector<transfer>& plan, std::exception_ptr& error);

  MPI_Comm comm_;
  int rank_, ranks_;
  std::vector<section> sections_; // in the order they were first tracked: the same on every rank
};

} // namespace detail
} // namespace gpu_autopar
