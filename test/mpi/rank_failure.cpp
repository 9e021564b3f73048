// Rank failures in a split loop (docs/mpi.md, Failures), written against the
// runtime's API as rewritten code calls it, since a body that throws cannot
// be a kernel-mode loop the tool emits. Every rank prints what it caught, then
// runs one more split loop to show the ranks are still in step.
//   throw         the body throws in the last iteration: on the last rank only
//   devices-gpu   fallback(gpu) with all of one rank's devices failing
//   devices-auto  fallback(auto), same faults: that rank finishes on CPU threads
//   region-throw  in a data region whose sweeps exchange halo rows between
//                 ranks, the body throws on the last rank at the third sweep:
//                 every rank throws, none waits in a halo exchange, and the
//                 region ends (left by the exception) on every rank
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include <gpu_autopar/gpu_autopar.h>

namespace ga = gpu_autopar;

static double fill(std::vector<double>& y, ga::fallback_policy policy, bool throw_at_end) {
  const int n = static_cast<int>(y.size());
  double sum = 0;
  ga::kernel_loop(ga::loop_site{"rank_failure.cpp", 20}, ga::iterations<int>(0, ga::less, n, 1),
                  ga::options().fallback(policy), ga::data(ga::from(y, ga::affine(1, 0, 1))),
                  ga::reductions(ga::reduce<ga::op::plus>(sum)),
                  [=](int i, ga::view<std::vector<double>> y, double& sum) {
                    if (throw_at_end && i == n - 1)
                      throw std::runtime_error("boom at the last iteration");
                    y[i] = 0.5 * i;
                    sum += y[i];
                  });
  return sum;
}

// Sweeps of y[i] = x[i-1] + x[i+1] and x[i] = y[i] / 2 in a data region: the
// first reads its neighbours' elements, which other ranks wrote.
static void region_sweeps(int throw_at_sweep) {
  const int n = 20000;
  std::vector<double> x(n, 1.0), y(n, 0.0);
  ga::data_region region(ga::loop_site{"rank_failure.cpp", 50},
                         {ga::section(ga::map_kind::tofrom, x), ga::section(ga::map_kind::tofrom, y)});
  for (int s = 0; s < 5; ++s) {
    ga::kernel_loop(ga::loop_site{"rank_failure.cpp", 53}, ga::iterations<int>(1, ga::less, n - 1, 1),
                    ga::options(), ga::data(ga::to(x, ga::affine(1, -1, 3)), ga::from(y, ga::affine(1, 0, 1))),
                    ga::reductions(), [=](int i, ga::view<std::vector<double>> x, ga::view<std::vector<double>> y) {
                      if (s == throw_at_sweep && i == n - 2)
                        throw std::runtime_error("boom in sweep " + std::to_string(s));
                      y[i] = x[i - 1] + x[i + 1];
                    });
    ga::kernel_loop(ga::loop_site{"rank_failure.cpp", 61}, ga::iterations<int>(1, ga::less, n - 1, 1),
                    ga::options(), ga::data(ga::to(y, ga::affine(1, 0, 1)), ga::from(x, ga::affine(1, 0, 1))),
                    ga::reductions(),
                    [=](int i, ga::view<std::vector<double>> y, ga::view<std::vector<double>> x) { x[i] = y[i] / 2; });
  }
}

int main(int argc, char** argv) {
  const std::string what = argc > 1 ? argv[1] : "";
  const char* rank = std::getenv("OMPI_COMM_WORLD_RANK");
  if (what == "region-throw") {
    try {
      region_sweeps(2);
      std::printf("rank %s: completed\n", rank ? rank : "-");
    } catch (const ga::loop_error& e) {
      std::printf("rank %s: loop_error: %s\n", rank ? rank : "-", e.what());
    } catch (const std::exception& e) {
      std::printf("rank %s: own exception: %s\n", rank ? rank : "-", e.what());
    }
  }
  std::vector<double> y(20000, -1.0);
  if (what != "region-throw") try {
    double sum = fill(y, what == "devices-gpu" ? ga::fallback_policy::gpu : ga::fallback_policy::auto_,
                      what == "throw");
    std::printf("rank %s: completed: sum=%.1f y[last]=%.1f\n", rank ? rank : "-", sum, y.back());
  } catch (const ga::loop_error& e) {
    std::printf("rank %s: loop_error: %s\n", rank ? rank : "-", e.what());
  } catch (const std::exception& e) {
    std::printf("rank %s: own exception: %s\n", rank ? rank : "-", e.what());
  }
  std::vector<double> z(20000, -1.0);
  const double after = fill(z, ga::fallback_policy::auto_, false);
  std::printf("rank %s: after: sum=%.1f z[0]=%.1f z[last]=%.1f\n", rank ? rank : "-", after, z[0], z.back());
}
