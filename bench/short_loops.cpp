// Split efficiency of short kernel-mode loops on equal simulated devices
// (issue 11): a saxpy of N floats, run LOOPS times in one process; for each
// run, the efficiency the report gives — the ideal (all devices' busy seconds
// over the device count) over the makespan (the busiest device's seconds) —
// and the split. The first loop of the process is shown on its own: its
// workers are still starting. Run through bench/short_loops.sh.
// Usage: bench_short_loops N LOOPS REPORT
#include <gpu_autopar/gpu_autopar.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

namespace {

struct split {
  double efficiency, seconds;
  std::string shares;
};

split last_split(const std::string& path) {
  std::ifstream in(path);
  std::string line, last;
  while (std::getline(in, line))
    if (line.find("\"loop\"") != std::string::npos)
      last = line;
  std::vector<double> secs;
  std::string shares;
  for (std::size_t at = last.find("{\"id\":"); at != std::string::npos; at = last.find("{\"id\":", at + 1)) {
    const std::size_t it = last.find("\"iterations\":", at), sec = last.find("\"seconds\":", at);
    shares += (shares.empty() ? "" : "/") + std::to_string(std::atoll(last.c_str() + it + 13));
    secs.push_back(std::atof(last.c_str() + sec + 10));
  }
  double sum = 0, max = 0;
  for (double s : secs) {
    sum += s;
    max = std::max(max, s);
  }
  return {max > 0 ? sum / double(secs.size()) / max : 0, max, shares};
}

} // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s N LOOPS REPORT\n", argv[0]);
    return 2;
  }
  const int n = std::atoi(argv[1]), loops = std::atoi(argv[2]);
  std::vector<float> x(n, 1.0f), y(n, 2.0f);
  std::vector<double> later;
  for (int r = 0; r < loops; ++r) {
    using namespace gpu_autopar;
    kernel_loop(loop_site{"short_loops.cpp", 1}, iterations<int>(0, less, n, 1), options(),
                data(tofrom(y, affine(1, 0, 1)), to(x, affine(1, 0, 1))), reductions(),
                [](int i, view<std::vector<float>> y, view<std::vector<float>> x) { y[i] = 2.0f * x[i] + y[i]; });
    const split s = last_split(argv[3]);
    if (r == 0)
      std::printf("first loop: efficiency %.3f, makespan %.2f ms, split %s\n", s.efficiency, s.seconds * 1e3,
                  s.shares.c_str());
    else
      later.push_back(s.efficiency);
    if (r == 1 || r == loops - 1)
      std::printf("loop %d: efficiency %.3f, makespan %.2f ms, split %s\n", r + 1, s.efficiency, s.seconds * 1e3,
                  s.shares.c_str());
  }
  std::sort(later.begin(), later.end());
  if (!later.empty())
    std::printf("loops 2..%d: median efficiency %.3f, worst %.3f\n", loops, later[later.size() / 2], later.front());
}
