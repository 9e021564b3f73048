#include "runtime_state.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <mutex>

#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>

#include "cuda_backend.h"
#include "distributor.h"
#include "gpu_autopar/loop_body.h"
#include "lease_pool.h"
#include "queued_fences.h"
#include "sim_device.h"

namespace gpu_autopar {
namespace detail {
namespace {

std::atomic<runtime_state*> g_runtime{nullptr};
std::mutex g_runtime_mutex;
std::atomic<bool> g_forked_child{false};

// Only a runtime that existed before fork() has workers the child lacks.
void mark_forked_child() {
  if (g_runtime.load(std::memory_order_relaxed))
    g_forked_child.store(true, std::memory_order_relaxed);
}

std::vector<std::unique_ptr<device>> make_sim_devices(const devices_config& c) {
  std::vector<std::unique_ptr<device>> out;
  const double fastest = c.sim_speed.empty() ? 1.0 : *std::max_element(c.sim_speed.begin(), c.sim_speed.end());
  for (int d = 0; d < c.sim_count; ++d) {
    sim_faults faults;
    for (const injected_fault& f : c.fail)
      if (f.device == d)
        faults.fail.push_back(f.chunk);
    for (const injected_fault& f : c.oom)
      if (f.device == d)
        faults.oom.push_back(f.chunk);
    for (const injected_fault& f : c.lose)
      if (f.device == d)
        faults.lose.push_back(f.chunk);
    out.push_back(
        std::make_unique<sim_device>(d, c.sim_memory[d], fastest / c.sim_speed[d], std::move(faults), c.link, c.sim_p2p));
  }
  return out;
}

} // namespace

bool runtime_state::first_warning(const char* file, unsigned line, int device) {
  std::lock_guard<std::mutex> lock(warned_mutex_);
  return warned_.emplace(file, line, device).second;
}

runtime_state::runtime_state() : config(read_config_from_environment()) {
  for (const std::string& p : config.problems)
    std::fprintf(stderr, "gpu-autopar: %s\n", p.c_str());
  std::vector<std::unique_ptr<device>> devices;
  switch (config.devices.source) {
  case device_source::cpu:
    no_devices_reason = "GPU_AUTOPAR_DEVICES selects CPU threads";
    break;
  case device_source::sim:
    devices = make_sim_devices(config.devices);
    if (devices.empty())
      no_devices_reason = "GPU_AUTOPAR_DEVICES=sim:0 has no simulated devices";
    break;
  case device_source::cuda:
  case device_source::auto_: {
    std::vector<std::string> warnings;
    no_devices_reason = discover_cuda_devices(config.devices, 0, devices, warnings);
    if (config.log >= log_level::warn)
      for (const std::string& w : warnings)
        std::fprintf(stderr, "gpu-autopar: warning: %s\n", w.c_str());
    break;
  }
  }
  if (distributor* d = installed_distributor())
    d->start(*this, devices);
  if (config.log >= log_level::debug) { // the first loop's calling thread creates the runtime
    if (devices.empty())
      std::fprintf(stderr, "gpu-autopar: no devices: %s\n", no_devices_reason.c_str());
    for (const auto& d : devices)
      std::fprintf(stderr, "gpu-autopar: device %s\n", d->describe().c_str());
  }
  pool = std::make_unique<lease_pool>(std::move(devices));
  if (!config.report_path.empty()) {
    report_fd = ::open(config.report_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (report_fd < 0)
      std::fprintf(stderr, "gpu-autopar: GPU_AUTOPAR_REPORT='%s': cannot open: %s; no report is written\n",
                   config.report_path.c_str(), std::strerror(errno));
  }
}

runtime_state::~runtime_state() {
  pool.reset(); // joins the device workers
  if (report_fd >= 0)
    ::close(report_fd);
}

runtime_state& runtime() {
  runtime_state* rt = g_runtime.load(std::memory_order_acquire);
  if (rt)
    return *rt;
  std::lock_guard<std::mutex> lock(g_runtime_mutex);
  rt = g_runtime.load(std::memory_order_relaxed);
  if (!rt) {
    static std::once_flag atfork_once;
    std::call_once(atfork_once, [] { pthread_atfork(nullptr, nullptr, mark_forked_child); });
    rt = new runtime_state();
    g_runtime.store(rt, std::memory_order_release);
  }
  return *rt;
}

bool in_forked_child() { return g_forked_child.load(std::memory_order_relaxed); }

void drain_queued_work() noexcept {
  if (queued_fences::global().empty()) // none is queued without a started runtime
    return;
  if (lease_pool* pool = runtime().pool.get())
    for (int d = 0; d < pool->device_count(); ++d)
      pool->get(d).drain();
}

void reset_runtime_for_testing() {
  std::lock_guard<std::mutex> lock(g_runtime_mutex);
  delete g_runtime.exchange(nullptr);
  g_forked_child.store(false);
}

} // namespace detail
} // namespace gpu_autopar
