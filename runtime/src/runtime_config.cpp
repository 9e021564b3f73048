#include "runtime_config.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace gpu_autopar {
namespace detail {
namespace {

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (;;) {
    std::size_t at = s.find(sep, start);
    parts.push_back(s.substr(start, at == std::string::npos ? std::string::npos : at - start));
    if (at == std::string::npos)
      return parts;
    start = at + 1;
  }
}

bool parse_uint(const std::string& s, std::uint64_t& v) {
  if (s.empty() || s.size() > 19)
    return false;
  v = 0;
  for (char c : s) {
    if (c < '0' || c > '9')
      return false;
    v = v * 10 + std::uint64_t(c - '0');
  }
  return true;
}

bool parse_speed(const std::string& s, double& v) {
  if (s.empty())
    return false;
  char* end = nullptr;
  errno = 0;
  v = std::strtod(s.c_str(), &end);
  return errno == 0 && end == s.c_str() + s.size() && v >= kMinSimSpeed && v <= kMaxSimSpeed;
}

// `D@K` or several joined by '+'.
bool parse_faults(const std::string& s, int devices, std::vector<injected_fault>& out, std::string& error) {
  for (const std::string& one : split(s, '+')) {
    std::size_t at = one.find('@');
    std::uint64_t d = 0, k = 0;
    if (at == std::string::npos || !parse_uint(one.substr(0, at), d) || !parse_uint(one.substr(at + 1), k) || k == 0) {
      error = "fault '" + one + "' is not DEVICE@CHUNK (e.g. 0@2, chunks count from 1)";
      return false;
    }
    if (d >= std::uint64_t(devices)) {
      error = "fault '" + one + "' names device " + std::to_string(d) + " of " + std::to_string(devices);
      return false;
    }
    out.push_back({int(d), k});
  }
  return true;
}

bool parse_sim(const std::string& text, devices_config& out, std::string& error) {
  std::vector<std::string> parts = split(text, ',');
  std::uint64_t n = 0;
  if (!parse_uint(parts[0], n) || n > 64) {
    error = "'sim:" + parts[0] + "' needs a device count from 0 to 64";
    return false;
  }
  out.source = device_source::sim;
  out.sim_count = int(n);
  out.sim_memory.assign(n, kDefaultSimMemory);
  out.sim_speed.assign(n, 1.0);
  bool latency_given = false; // in either order with link=
  for (std::size_t i = 1; i < parts.size(); ++i) {
    const std::string& opt = parts[i];
    std::size_t eq = opt.find('=');
    std::string key = opt.substr(0, eq), value = eq == std::string::npos ? "" : opt.substr(eq + 1);
    if (eq == std::string::npos || value.empty()) {
      error = "simulated-device option '" + opt + "' is not key=value";
      return false;
    }
    if (key == "mem" || key == "speed") {
      std::vector<std::string> each = split(value, ':');
      if (each.size() != 1 && each.size() != n) {
        error = key + "=" + value + " needs one value or one per device (" + std::to_string(n) + ")";
        return false;
      }
      for (std::size_t d = 0; d < n; ++d) {
        const std::string& v = each[each.size() == 1 ? 0 : d];
        if (key == "mem" && !parse_bytes(v, out.sim_memory[d])) {
          error = "mem=" + value + ": '" + v + "' is not a size such as 2GiB, 512MiB or 4096";
          return false;
        }
        if (key == "speed" && !parse_speed(v, out.sim_speed[d])) {
          error = "speed=" + value + ": '" + v + "' is not a number from 0.01 to 100";
          return false;
        }
      }
      // Speeds are relative: the slowest device takes (fastest / slowest)
      // times as long per iteration, which beyond 100 only makes runs long.
      if (key == "speed" && n > 0) {
        auto [lo, hi] = std::minmax_element(out.sim_speed.begin(), out.sim_speed.end());
        if (*hi > kMaxSimSpeedRatio * *lo) {
          error = "speed=" + value + ": the fastest device may be at most 100 times as fast as the slowest";
          return false;
        }
      }
    } else if (key == "link") {
      if (!parse_rate(value, out.link.bytes_per_second) || out.link.bytes_per_second < kMinSimLink ||
          out.link.bytes_per_second > kMaxSimLink) {
        error = "link=" + value + " is not a bandwidth from 1MB/s to 10TB/s such as 16GB/s or 12.5GiB/s";
        return false;
      }
      if (!latency_given)
        out.link.latency = kDefaultSimLatency;
    } else if (key == "latency") {
      if (!parse_duration(value, out.link.latency) || out.link.latency > kMaxSimLatency) {
        error = "latency=" + value + " is not a time per copy from 0 to 1s such as 10us, 500ns or 2ms";
        return false;
      }
      latency_given = true;
    } else if (key == "p2p") {
      if (value != "on" && value != "off") {
        error = "p2p=" + value + " is not on or off";
        return false;
      }
      out.sim_p2p = value == "on";
    } else if (key == "fail") {
      if (!parse_faults(value, int(n), out.fail, error))
        return false;
    } else if (key == "oom") {
      if (!parse_faults(value, int(n), out.oom, error))
        return false;
    } else if (key == "lose") {
      if (!parse_faults(value, int(n), out.lose, error))
        return false;
    } else {
      error = "unknown simulated-device option '" + key + "' (known: mem, speed, link, latency, p2p, fail, oom, lose)";
      return false;
    }
  }
  return true;
}

} // namespace

namespace {
std::atomic<unsigned> g_processes_on_node{1};
} // namespace

void set_processes_on_node(unsigned n) { g_processes_on_node.store(n == 0 ? 1 : n, std::memory_order_relaxed); }

unsigned default_threads() {
  const unsigned hw = std::thread::hardware_concurrency();
  const unsigned share = (hw == 0 ? 1 : hw) / g_processes_on_node.load(std::memory_order_relaxed);
  return share == 0 ? 1 : share;
}

bool parse_threads(const std::string& text, unsigned& threads) {
  std::uint64_t v = 0;
  if (!parse_uint(text, v) || v < 1 || v > kMaxThreads)
    return false;
  threads = unsigned(v);
  return true;
}

bool parse_bytes(const std::string& text, std::uint64_t& bytes) {
  std::size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9')
    ++digits;
  std::uint64_t v = 0;
  if (!parse_uint(text.substr(0, digits), v))
    return false;
  std::string unit = text.substr(digits);
  struct suffix {
    const char* name;
    std::uint64_t factor;
  };
  static const suffix suffixes[] = {
      {"", 1},           {"B", 1},
      {"K", 1ull << 10}, {"KiB", 1ull << 10}, {"KB", 1000ull},
      {"M", 1ull << 20}, {"MiB", 1ull << 20}, {"MB", 1000000ull},
      {"G", 1ull << 30}, {"GiB", 1ull << 30}, {"GB", 1000000000ull},
      {"T", 1ull << 40}, {"TiB", 1ull << 40}, {"TB", 1000000000000ull},
  };
  for (const suffix& s : suffixes)
    if (unit == s.name) {
      if (v > UINT64_MAX / s.factor)
        return false;
      bytes = v * s.factor;
      return true;
    }
  return false;
}

namespace {
// A non-negative decimal number followed by a unit from `units`.
struct unit_factor {
  const char* name;
  double factor;
};
template <std::size_t N>
bool parse_with_unit(const std::string& text, const unit_factor (&units)[N], double& value) {
  std::size_t digits = 0;
  while (digits < text.size() && ((text[digits] >= '0' && text[digits] <= '9') || text[digits] == '.'))
    ++digits;
  if (digits == 0 || digits > 24)
    return false;
  const std::string number = text.substr(0, digits);
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(number.c_str(), &end);
  if (errno != 0 || end != number.c_str() + number.size())
    return false;
  for (const unit_factor& u : units)
    if (text.compare(digits, std::string::npos, u.name) == 0) {
      value = v * u.factor;
      return true;
    }
  return false;
}
} // namespace

bool parse_rate(const std::string& text, double& bytes_per_second) {
  static const unit_factor units[] = {
      {"B/s", 1},      {"KB/s", 1e3},          {"MB/s", 1e6},          {"GB/s", 1e9},          {"TB/s", 1e12},
      {"KiB/s", 1024}, {"MiB/s", 1024. * 1024}, {"GiB/s", 1024. * 1024 * 1024}, {"TiB/s", 1024. * 1024 * 1024 * 1024},
  };
  return parse_with_unit(text, units, bytes_per_second);
}

bool parse_duration(const std::string& text, double& seconds) {
  if (text == "0") {
    seconds = 0;
    return true;
  }
  static const unit_factor units[] = {{"ns", 1e-9}, {"us", 1e-6}, {"ms", 1e-3}, {"s", 1}};
  return parse_with_unit(text, units, seconds);
}

bool parse_devices(const std::string& text, devices_config& out, std::string& error) {
  out = devices_config{};
  if (text.empty() || text == "auto")
    return true;
  if (text == "cpu") {
    out.source = device_source::cpu;
    return true;
  }
  if (text == "cuda") {
    out.source = device_source::cuda;
    return true;
  }
  if (text.compare(0, 5, "cuda:") == 0) {
    out.source = device_source::cuda;
    for (const std::string& id : split(text.substr(5), ',')) {
      std::uint64_t v = 0;
      if (!parse_uint(id, v) || v > 1024) {
        error = "'" + id + "' is not a CUDA device number";
        return false;
      }
      out.cuda_ids.push_back(int(v));
    }
    return true;
  }
  if (text.compare(0, 4, "sim:") == 0)
    return parse_sim(text.substr(4), out, error);
  error = "expected auto, cpu, cuda, cuda:<ids> or sim:<n>[,mem=..][,speed=..][,link=..][,latency=..][,p2p=on|off][,fail=D@K][,oom=D@K][,lose=D@K]";
  return false;
}

runtime_config read_config_from_environment() {
  runtime_config c;
  if (const char* v = std::getenv("GPU_AUTOPAR_DEVICES")) {
    std::string error;
    if (!parse_devices(v, c.devices, error)) {
      c.problems.push_back(std::string("GPU_AUTOPAR_DEVICES='") + v + "' is not valid: " + error +
                           "; using CPU threads");
      c.devices = devices_config{};
      c.devices.source = device_source::cpu;
    }
  }
  if (const char* v = std::getenv("GPU_AUTOPAR_LOG")) {
    if (!std::strcmp(v, "off"))
      c.log = log_level::off;
    else if (!std::strcmp(v, "warn") || !*v)
      c.log = log_level::warn;
    else if (!std::strcmp(v, "info"))
      c.log = log_level::info;
    else if (!std::strcmp(v, "debug"))
      c.log = log_level::debug;
    else
      c.problems.push_back(std::string("GPU_AUTOPAR_LOG='") + v + "' is not off, warn, info or debug; using warn");
  }
  if (const char* v = std::getenv("GPU_AUTOPAR_PROGRESS")) {
    if (!std::strcmp(v, "on"))
      c.progress = progress_mode::on;
    else if (!std::strcmp(v, "off"))
      c.progress = progress_mode::off;
    else if (!std::strcmp(v, "auto") || !*v)
      c.progress = progress_mode::auto_;
    else
      c.problems.push_back(std::string("GPU_AUTOPAR_PROGRESS='") + v + "' is not auto, on or off; using auto");
  }
  if (const char* v = std::getenv("GPU_AUTOPAR_THREADS")) {
    unsigned n = 0;
    if (*v && !parse_threads(v, n))
      c.problems.push_back(std::string("GPU_AUTOPAR_THREADS='") + v + "' is not a thread count from 1 to " +
                           std::to_string(kMaxThreads) + "; using " + std::to_string(default_threads()) +
                           " (the hardware threads)");
  }
  if (const char* v = std::getenv("GPU_AUTOPAR_PIN")) {
    if (!std::strcmp(v, "loop"))
      c.pin_once = false;
    else if (std::strcmp(v, "once") && *v)
      c.problems.push_back(std::string("GPU_AUTOPAR_PIN='") + v + "' is not once or loop; using once");
  }
  if (const char* v = std::getenv("GPU_AUTOPAR_QUEUE")) {
    if (!std::strcmp(v, "off"))
      c.queue_region_loops = false;
    else if (std::strcmp(v, "on") && *v)
      c.problems.push_back(std::string("GPU_AUTOPAR_QUEUE='") + v + "' is not on or off; using on");
  }
  if (const char* v = std::getenv("GPU_AUTOPAR_REPORT"))
    c.report_path = v;
  return c;
}

} // namespace detail
} // namespace gpu_autopar
