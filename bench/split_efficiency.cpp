// Split efficiency on simulated devices: how close a loop's makespan comes to
// the ideal, total work / total speed, under the adaptive schedule and under a
// plain static split (N / devices iterations per device).
//
// Each iteration "works" by sleeping a fixed time, so that eight simulated
// devices can run side by side on a two-core machine without competing for
// the CPU; a device's speed stretches its chunks' time (see docs/runtime.md).
// Run through bench/split_efficiency.sh, which sets GPU_AUTOPAR_DEVICES for
// each configuration (the runtime reads it once per process).
#include <gpu_autopar/gpu_autopar.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

namespace {

using clock_type = std::chrono::steady_clock;

void work() { std::this_thread::sleep_for(std::chrono::microseconds(200)); }

double seconds_since(clock_type::time_point t0) {
  return std::chrono::duration<double>(clock_type::now() - t0).count();
}

// The last report line the runtime wrote.
std::string last_report_line(const std::string &path) {
  std::FILE *f = std::fopen(path.c_str(), "r");
  std::string line, last;
  if (!f)
    return last;
  int c;
  while ((c = std::fgetc(f)) != EOF) {
    if (c == '\n') {
      if (!line.empty())
        last = line;
      line.clear();
    } else {
      line += char(c);
    }
  }
  std::fclose(f);
  return last;
}

// One run's makespan and ideal makespan. The ideal comes from the report: a
// device's busy seconds divided by its stretch (fastest speed / its speed) is
// the work it did, in seconds of the fastest device; all of it spread over the
// devices' combined speed is the ideal. Measuring work this way, not assuming
// a cost per iteration, keeps sleep overshoot out of the figure.
struct outcome {
  double makespan, ideal;
};

outcome run(int iterations, ::gpu_autopar::schedule_kind schedule, const std::vector<double> &stretch,
            const std::string &report) {
  auto t0 = clock_type::now();
  ::gpu_autopar::task_loop(::gpu_autopar::loop_site{"split_efficiency.cpp", 1},
                           ::gpu_autopar::iterations<int>(0, ::gpu_autopar::less, iterations, 1),
                           ::gpu_autopar::options().schedule(schedule), ::gpu_autopar::reductions(),
                           [](int) { work(); });
  outcome o{seconds_since(t0), 0};
  std::string line = last_report_line(report);
  double work_total = 0, speed_total = 0;
  for (double s : stretch)
    speed_total += 1.0 / s;
  // Device entries look like {"id":2,"kind":"sim",...,"seconds":0.12}.
  for (std::size_t at = line.find("{\"id\":"); at != std::string::npos; at = line.find("{\"id\":", at + 1)) {
    int id = std::atoi(line.c_str() + at + 6);
    std::size_t sec = line.find("\"seconds\":", at);
    if (id < 0 || id >= int(stretch.size()) || sec == std::string::npos)
      continue;
    work_total += std::atof(line.c_str() + sec + 10) / stretch[id];
  }
  o.ideal = work_total / speed_total;
  return o;
}

// Relative speeds from a `sim:N,speed=a:b:...` setting (all 1 when absent).
std::vector<double> speeds(const std::string &devices, int &count) {
  count = std::atoi(devices.c_str() + 4);
  std::vector<double> s(count, 1.0);
  std::size_t at = devices.find("speed=");
  if (at != std::string::npos) {
    std::string list = devices.substr(at + 6);
    for (int d = 0; d < count; ++d) {
      s[d] = std::atof(list.c_str());
      std::size_t colon = list.find(':');
      if (colon == std::string::npos)
        break;
      list = list.substr(colon + 1);
    }
  }
  return s;
}

} // namespace

int main(int argc, char **argv) {
  const char *env = std::getenv("GPU_AUTOPAR_DEVICES");
  std::string devices = env ? env : "";
  if (devices.rfind("sim:", 0) != 0) {
    std::fprintf(stderr, "usage: GPU_AUTOPAR_DEVICES=sim:N[,speed=...] %s [iterations]\n", argv[0]);
    return 2;
  }
  const int iterations = argc > 1 ? std::atoi(argv[1]) : 4000;
  int count = 0;
  std::vector<double> speed = speeds(devices, count);
  double fastest = 0;
  for (double s : speed)
    fastest = s > fastest ? s : fastest;
  std::vector<double> stretch;
  for (double s : speed)
    stretch.push_back(fastest / s);
  const char *report = std::getenv("GPU_AUTOPAR_REPORT");
  if (!report) {
    std::fprintf(stderr, "set GPU_AUTOPAR_REPORT to a file: the ideal makespan is computed from it\n");
    return 2;
  }

  run(iterations / 10, ::gpu_autopar::schedule_kind::adaptive, stretch, report); // warm up: workers, leases
  double adaptive = 0, fixed = 0;
  for (int rep = 0; rep < 3; ++rep) {
    outcome a = run(iterations, ::gpu_autopar::schedule_kind::adaptive, stretch, report);
    outcome s = run(iterations, ::gpu_autopar::schedule_kind::static_, stretch, report);
    adaptive = std::max(adaptive, a.ideal / a.makespan);
    fixed = std::max(fixed, s.ideal / s.makespan);
  }
  std::printf("%-32s adaptive %.3f   static N/devices %.3f\n", devices.c_str(), adaptive, fixed);
  return 0;
}
