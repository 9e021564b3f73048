// A compute-bound kernel-mode loop split across the ranks of an MPI job
// (docs/mpi.md), run by bench/mpi_split.sh on 1 rank × sim:2 and 2 ranks ×
// sim:2. Per repetition it prints the loop's time, the exchange time the
// runtime reported (GPU_AUTOPAR_REPORT, rank 0's split line) and the time of
// a bare in-place MPI_Allgatherv of the very same sections, in the same run.
//
//   mpi_split <compute|sleep> <iterations> <repetitions>
//
// compute: each iteration does ~400 floating-point operations (sin, sqrt);
// sleep:   each iteration waits 20 µs, so four simulated devices can run side
//          by side on a two-core machine (as bench/split_efficiency.cpp does).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <mpi.h>

#include <gpu_autopar/gpu_autopar.h>

namespace ga = gpu_autopar;

namespace {

struct split_line {
  double exchange_seconds = -1;
  long long bytes = 0;
  std::vector<long long> first, iterations;
};

long long number_after(const std::string& s, const std::string& key, std::size_t from = 0) {
  std::size_t at = s.find(key, from);
  return at == std::string::npos ? -1 : std::atoll(s.c_str() + at + key.size());
}

// The last split line rank 0 wrote to the report.
split_line last_split(const char* report) {
  std::ifstream in(report);
  std::string line, last;
  while (std::getline(in, line))
    if (line.find("\"ranks\":[") != std::string::npos)
      last = line;
  split_line s;
  if (last.empty())
    return s;
  for (std::size_t at = last.find("{\"rank\":", last.find("\"ranks\":[")); at != std::string::npos;
       at = last.find("{\"rank\":", at + 1)) {
    s.first.push_back(number_after(last, "\"first\":", at));
    s.iterations.push_back(number_after(last, "\"iterations\":", at));
  }
  const std::size_t ex = last.find("\"exchange\":");
  s.bytes = number_after(last, "\"bytes\":", ex);
  s.exchange_seconds = std::atof(last.c_str() + last.find("\"seconds\":", ex) + 10);
  return s;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

} // namespace

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const bool sleep = argc > 1 && !std::strcmp(argv[1], "sleep");
  const int n = argc > 2 ? std::atoi(argv[2]) : 200000;
  const int reps = argc > 3 ? std::atoi(argv[3]) : 6;
  const char* report = std::getenv("GPU_AUTOPAR_REPORT");

  std::vector<double> x(n), y(n);
  for (int i = 0; i < n; ++i)
    x[i] = 1.0 + (i % 1000) * 1e-3;
  std::vector<double> loop_s, exchange_s, bare_s;
  long long bytes = 0;
  for (int rep = 0; rep < reps; ++rep) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    ga::kernel_loop(ga::loop_site{"mpi_split.cpp", 90}, ga::iterations<int>(0, ga::less, n, 1), ga::options(),
                    ga::data(ga::to(x, ga::affine(1, 0, 1)), ga::from(y, ga::affine(1, 0, 1))), ga::reductions(),
                    [=](int i, ga::view<std::vector<double>> x, ga::view<std::vector<double>> y) {
                      double v = x[i];
                      if (sleep) {
                        std::this_thread::sleep_for(std::chrono::microseconds(20));
                      } else {
                        for (int k = 0; k < 100; ++k)
                          v = std::sin(v) * 0.5 + std::sqrt(v * v + 1.0);
                      }
                      y[i] = v;
                    });
    const double t1 = MPI_Wtime();
    double mine = t1 - t0, slowest = 0;
    MPI_Reduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);

    // The same sections, in place, with a bare MPI_Allgatherv: the split
    // comes from rank 0's report line and is sent to the other ranks.
    split_line s;
    if (rank == 0 && report && ranks > 1)
      s = last_split(report);
    std::vector<int> counts(ranks), displs(ranks);
    for (int r = 0; r < ranks && r < int(s.first.size()); ++r) {
      displs[r] = int(s.first[r]);
      counts[r] = int(s.iterations[r]);
    }
    MPI_Bcast(counts.data(), ranks, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Bcast(displs.data(), ranks, MPI_INT, 0, MPI_COMM_WORLD);
    double bare = 0;
    if (ranks > 1) {
      MPI_Barrier(MPI_COMM_WORLD);
      const double b0 = MPI_Wtime();
      MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, y.data(), counts.data(), displs.data(), MPI_DOUBLE,
                     MPI_COMM_WORLD);
      bare = MPI_Wtime() - b0;
    }
    double bare_slowest = 0;
    MPI_Reduce(&bare, &bare_slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0) {
      std::printf("rep %d: loop %.4f s", rep, slowest);
      if (ranks > 1)
        std::printf(", exchange %.6f s for %lld bytes, bare MPI_Allgatherv %.6f s", s.exchange_seconds, s.bytes,
                    bare_slowest);
      std::printf("\n");
      if (rep > 0) { // the first run sets up connections and the split's weights
        loop_s.push_back(slowest);
        exchange_s.push_back(s.exchange_seconds);
        bare_s.push_back(bare_slowest);
        bytes = s.bytes;
      }
    }
  }
  if (rank == 0) {
    std::printf("median of %zu: ranks %d, %s, %d iterations: loop %.4f s", loop_s.size(), ranks,
                sleep ? "sleep 20us/iteration" : "compute", n, median(loop_s));
    if (ranks > 1) {
      const double ex = median(exchange_s), bare = median(bare_s);
      std::printf(" = compute %.4f s + exchange %.6f s (%lld bytes, %.3f ns/byte); bare MPI_Allgatherv %.6f s "
                  "(%.3f ns/byte); exchange/bare %.2f",
                  median(loop_s) - ex, ex, bytes, ex / double(bytes) * 1e9, bare, bare / double(bytes) * 1e9,
                  ex / bare);
    }
    std::printf("\n");
  }
  MPI_Finalize();
}
