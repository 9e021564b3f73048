#include "mpi_job.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "rank_split.h"

namespace gpu_autopar {
namespace detail {
namespace {

// Set by Open MPI's mpirun (OMPI_*), PMIx launchers, and MPICH's Hydra (PMI_*).
bool launched_by_mpi() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"})
    if (std::getenv(v))
      return true;
  return false;
}

void finalize_at_exit() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized)
    MPI_Finalize();
}

std::string env_or_empty(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

// GPU_AUTOPAR_LOG_RANKS: "all" or ranks separated by commas; default "0".
bool logs_on_rank(int rank) {
  const std::string v = env_or_empty("GPU_AUTOPAR_LOG_RANKS");
  if (v.empty())
    return rank == 0;
  if (v == "all")
    return true;
  std::size_t at = 0;
  while (at <= v.size()) {
    std::size_t comma = v.find(',', at);
    const std::string one = v.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    char* end = nullptr;
    const long r = std::strtol(one.c_str(), &end, 10);
    if (one.empty() || *end) {
      if (rank == 0)
        std::fprintf(stderr, "gpu-autopar: GPU_AUTOPAR_LOG_RANKS='%s' is not 'all' or a list of ranks; using 0\n",
                     v.c_str());
      return rank == 0;
    }
    if (r == rank)
      return true;
    if (comma == std::string::npos)
      break;
    at = comma + 1;
  }
  return false;
}

// Whether distribution is on: GPU_AUTOPAR_DISTRIBUTE unset, empty or "on".
bool distribution_wanted() {
  const std::string v = env_or_empty("GPU_AUTOPAR_DISTRIBUTE");
  if (v.empty() || v == "on")
    return true;
  if (v != "off")
    std::fprintf(stderr, "gpu-autopar: GPU_AUTOPAR_DISTRIBUTE='%s' is not on or off; using off\n", v.c_str());
  return false;
}

// Ranks on one node divide its devices when they all see the same ones (the
// same GPU_AUTOPAR_DEVICES and CUDA_VISIBLE_DEVICES); a rank given a setting
// of its own (a launcher script setting CUDA_VISIBLE_DEVICES per rank, or
// mpirun's per-rank -x) keeps what it was given.
void divide_node_devices(runtime_state& rt, const mpi_job& job, MPI_Comm node,
                         std::vector<std::unique_ptr<device>>& devices) {
  if (job.local_size < 2) // the same on every rank of the node: the collective below is on all or none
    return;
  const std::uint64_t mine = fnv1a(env_or_empty("GPU_AUTOPAR_DEVICES") + "\n" + env_or_empty("CUDA_VISIBLE_DEVICES"));
  std::vector<std::uint64_t> all(job.local_size);
  MPI_Allgather(&mine, 1, MPI_UINT64_T, all.data(), 1, MPI_UINT64_T, node);
  for (std::uint64_t h : all)
    if (h != mine)
      return;
  if (devices.empty())
    return;
  const int node_devices = int(devices.size());
  // Contiguous blocks, the first ranks one more when they do not divide
  // evenly, none for ranks beyond the devices: no device is booked twice.
  const index_range share = range_split(std::uint64_t(node_devices), std::uint64_t(job.local_size)).part(job.local_rank);
  std::vector<std::unique_ptr<device>> kept;
  for (std::uint64_t d = share.begin; d < share.end; ++d)
    kept.push_back(std::move(devices[d]));
  devices = std::move(kept);
  if (devices.empty())
    rt.no_devices_reason = "the node's " + std::to_string(node_devices) + " device" + (node_devices == 1 ? "" : "s") +
                           " went to its other ranks (" + std::to_string(job.local_size) + " ranks on this node)";
}

} // namespace

std::unique_ptr<mpi_job> join_job(runtime_state& rt, std::vector<std::unique_ptr<device>>& devices) {
  if (!distribution_wanted())
    return nullptr;
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (finalized)
    return nullptr;
  if (!initialized) {
    if (!launched_by_mpi())
      return nullptr; // a plain run of the program: one process, no MPI
    int provided = 0;
    // Only the thread that runs the outermost loops calls MPI.
    if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
      return nullptr;
    std::atexit(finalize_at_exit);
  } else {
    int main_thread = 0, level = MPI_THREAD_SINGLE;
    MPI_Is_thread_main(&main_thread);
    MPI_Query_thread(&level);
    if (!main_thread && level < MPI_THREAD_MULTIPLE) {
      std::fprintf(stderr, "gpu-autopar: warning: the first annotated loop ran on a thread that may not call MPI "
                           "(MPI was initialised with less than MPI_THREAD_MULTIPLE on another thread); loops are "
                           "not split across ranks\n");
      return nullptr;
    }
  }
  int world = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  if (world < 2)
    return nullptr;

  auto job = std::make_unique<mpi_job>();
  job->thread = std::this_thread::get_id();
  MPI_Comm_dup(MPI_COMM_WORLD, &job->comm);
  MPI_Comm_set_errhandler(job->comm, MPI_ERRORS_ARE_FATAL);
  MPI_Comm_rank(job->comm, &job->rank);
  MPI_Comm_size(job->comm, &job->size);
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(job->comm, MPI_COMM_TYPE_SHARED, job->rank, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &job->local_rank);
  MPI_Comm_size(node, &job->local_size);
  divide_node_devices(rt, *job, node, devices);
  MPI_Comm_free(&node);
  // The ranks of a node share its cores: each rank's CPU pool (sized at the
  // first loop that uses it, after this) takes its share, unless
  // GPU_AUTOPAR_THREADS says otherwise.
  set_processes_on_node(unsigned(job->local_size));

  rt.rank = job->rank;
  if (rt.config.log > log_level::warn && !logs_on_rank(job->rank))
    rt.config.log = log_level::warn;
  const double mine = double(std::max<std::size_t>(1, devices.size()));
  job->devices.resize(job->size);
  MPI_Allgather(&mine, 1, MPI_DOUBLE, job->devices.data(), 1, MPI_DOUBLE, job->comm);
  return job;
}

} // namespace detail
} // namespace gpu_autopar
