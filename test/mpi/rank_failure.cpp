// Rank failures in a split loop (docs/mpi.md, Failures), written against the
// runtime's API as rewritten code calls it, since a body that throws cannot
// be a kernel-mode loop the tool emits. Every rank prints what it caught, then
// runs one more split loop to show the ranks are still in step.
//   throw         the body throws in the last iteration: on the last rank only
//   devices-gpu   fallback(gpu) with all of one rank's devices failing
//   devices-auto  fallback(auto), same faults: that rank finishes on CPU threads
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

int main(int argc, char** argv) {
  const std::string what = argc > 1 ? argv[1] : "";
  const char* rank = std::getenv("OMPI_COMM_WORLD_RANK");
  std::vector<double> y(20000, -1.0);
  try {
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
