// After each rank ran its range of a distributed loop, every rank must hold
// what every other rank wrote. Per written object, one of two exchanges:
//  - disjoint sections (each iteration writes within its own section, e.g.
//    y[i] or the rows a[i*n + j]): each rank's hull is a contiguous slab no
//    other rank touched, so the slabs go as they are, in place, with one
//    MPI_Allgatherv;
//  - sections that overlap between iterations (a stencil's neighbours, a
//    column a[i][j] swept by j, whole objects): a rank sends only what its
//    range changed, compared with a copy taken before the run scalar by scalar
//    (byte by byte for class types: ranks may write different columns of one
//    row, different fields of one struct), as runs of (offset, length, bytes).
//    What no rank changed is equal everywhere already: every rank started
//    from the same data.
#pragma once

#include <cstdint>
#include <vector>

#include <mpi.h>

#include "gpu_autopar/loop_effects.h"
#include "rank_split.h"

namespace gpu_autopar {
namespace detail {

struct exchange_stats {
  std::uint64_t bytes = 0;            // received, summed over the ranks
  double seconds = 0;
  int slab_objects = 0, changed_objects = 0;
  std::uint64_t changed_bytes = 0;    // over all ranks
  // Inside data regions (rank_residency.h), filled in by the distributor:
  std::uint64_t fetched_bytes = 0;    // received point to point before the loop, over the ranks
  int messages = 0;                   // those messages
  int kept_objects = 0;               // written objects left with the ranks that wrote them
};

class section_exchange {
public:
  // Plans the exchange for the ranks' ranges, of the written objects that do
  // not stay with the rank that wrote them (stays[k], by written object).
  section_exchange(const loop_effects& fx, const std::vector<index_range>& split, int rank,
                   const std::vector<bool>& stays);

  // Before this rank's part runs: snapshots its hull of each object that is
  // sent by changes (inside a data region, after bringing the host's copy up
  // to date). May throw (a device lost the newest values).
  void snapshot();
  // After this rank's part ran: inside a data region, brings what it wrote
  // from its devices to the host, which the exchange sends. May throw.
  void bring_home();

  // Objects sent by changes, in order; find_changes() gives this rank's count of each.
  std::size_t changed_objects() const { return by_changes_.size(); }
  // Once this rank's part has run: the size in bytes of its changes, per
  // object sent by changes.
  std::vector<std::uint64_t> find_changes();

  // Collective on comm: afterwards every rank holds every rank's writes (on
  // the host: inside a data region the devices' copies of what came from
  // other ranks are stale).
  // changed[r][k]: rank r's find_changes()[k].
  exchange_stats run(MPI_Comm comm, const std::vector<std::vector<std::uint64_t>>& changed);

private:
  struct slab_object {
    std::vector<written_section> by_rank; // empty hull for ranks without iterations
  };
  struct changed_object {
    written_section mine;
    std::vector<unsigned char> before;    // this rank's hull before the run
    std::vector<unsigned char> runs;      // this rank's changes: (int64 offset, int64 length, bytes)...
  };
  void exchange_slab(MPI_Comm comm, const slab_object& o, exchange_stats& st);
  void exchange_changes(MPI_Comm comm, std::size_t k, const std::vector<std::vector<std::uint64_t>>& changed,
                        exchange_stats& st);

  int rank_, ranks_;
  std::vector<slab_object> slabs_;
  std::vector<changed_object> by_changes_;
};

// Sends `count` items of `type` (of `item_bytes` bytes each) at `data` from
// root to every rank, in pieces that fit MPI's int counts.
void broadcast_in_pieces(unsigned char* data, std::uint64_t count, std::size_t item_bytes, MPI_Datatype type,
                         int root, MPI_Comm comm);

} // namespace detail
} // namespace gpu_autopar
