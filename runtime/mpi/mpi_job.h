// This process's place in an MPI job, as the distributor needs it: joining
// the job (MPI_Init when the program was started by mpirun and did not
// initialise MPI itself), the communicator the runtime's messages use (its
// own, so they never match the program's), and the node-local rank that
// divides a node's devices.
#pragma once

#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <mpi.h>

#include "device.h"
#include "runtime_state.h"

namespace gpu_autopar {
namespace detail {

struct mpi_job {
  MPI_Comm comm = MPI_COMM_NULL; // a duplicate of MPI_COMM_WORLD
  int rank = 0, size = 1;
  int local_rank = 0, local_size = 1;
  std::thread::id thread;        // the thread that may call MPI (the one that initialised it)
  std::vector<double> devices;   // devices of each rank after the division (at least 1: CPU threads)
};

// Joins the job if distribution is on (GPU_AUTOPAR_DISTRIBUTE), the program
// runs under an MPI launcher or initialised MPI, and there is more than one
// rank; then divides `devices` among the ranks of this node and sets rt.rank
// and the log level. Null when the process runs on its own.
std::unique_ptr<mpi_job> join_job(runtime_state& rt, std::vector<std::unique_ptr<device>>& devices);

} // namespace detail
} // namespace gpu_autopar
