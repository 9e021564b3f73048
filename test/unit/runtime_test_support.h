// Helpers for the runtime's tests: an environment set for one test (the
// runtime re-reads it), and a loop body that records where each index ran.
#pragma once

#include <gpu_autopar/loop_body.h>

#include "runtime_state.h" // reset_runtime_for_testing

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

namespace rt_test {

// Sets GPU_AUTOPAR_* variables for the lifetime of the object and makes the
// runtime read them again; restores a clean runtime afterwards.
class scoped_env {
public:
  scoped_env(std::initializer_list<std::pair<const std::string, std::string>> vars) : vars_(vars) {
    for (const char* v : {"GPU_AUTOPAR_DEVICES", "GPU_AUTOPAR_LOG", "GPU_AUTOPAR_REPORT", "GPU_AUTOPAR_PROGRESS"})
      ::unsetenv(v);
    for (auto& kv : vars_)
      ::setenv(kv.first.c_str(), kv.second.c_str(), 1);
    if (!vars_.count("GPU_AUTOPAR_LOG"))
      ::setenv("GPU_AUTOPAR_LOG", "off", 1);
    gpu_autopar::detail::reset_runtime_for_testing();
  }
  ~scoped_env() {
    gpu_autopar::detail::reset_runtime_for_testing();
    for (auto& kv : vars_)
      ::unsetenv(kv.first.c_str());
    ::unsetenv("GPU_AUTOPAR_LOG");
  }

private:
  std::map<std::string, std::string> vars_;
};

// A unique temporary file path, removed at the end of the scope.
class temp_file {
public:
  temp_file() {
    static std::atomic<int> n{0};
    path_ = "/tmp/gpu_autopar_test_" + std::to_string(::getpid()) + "_" + std::to_string(n++) + ".jsonl";
    std::remove(path_.c_str());
  }
  ~temp_file() { std::remove(path_.c_str()); }
  const std::string& path() const { return path_; }
  std::vector<std::string> lines() const {
    std::ifstream in(path_);
    std::vector<std::string> out;
    for (std::string l; std::getline(in, l);)
      out.push_back(l);
    return out;
  }

private:
  std::string path_;
};

// Records, per index, how often it ran and where; optionally allocates on the
// device per chunk, sleeps per iteration, or throws at one index.
class recording_body : public gpu_autopar::loop_body {
public:
  explicit recording_body(std::uint64_t count) : hits(count) {
    for (auto& h : hits)
      h.store(0);
  }

  void run_host(std::uint64_t b, std::uint64_t e) override { run(nullptr, b, e); }
  void run_device(gpu_autopar::device_context& dev, std::uint64_t b, std::uint64_t e) override {
    // Like kernel mode: allocate, copy in, run, copy out, free (RAII).
    gpu_autopar::detail::device_allocation buffer(dev, bytes_per_iteration * (e - b));
    if (bytes_per_iteration) {
      std::vector<char> host(bytes_per_iteration * (e - b), 1);
      dev.copy_to_device(buffer.get(), host.data(), host.size());
    }
    run(&dev, b, e);
  }
  std::uint64_t device_bytes(std::uint64_t b, std::uint64_t e) const override {
    return declares_bytes ? bytes_per_iteration * (e - b) : 0;
  }
  bool can_run_on(gpu_autopar::device_kind kind, const char** why_not) const override {
    if (host_only && kind != gpu_autopar::device_kind::cpu) {
      if (why_not)
        *why_not = "test body: host only";
      return false;
    }
    return true;
  }

  // Every index ran exactly once.
  bool each_once() const {
    for (auto& h : hits)
      if (h.load() != 1)
        return false;
    return true;
  }
  std::uint64_t on_device(int id) {
    std::lock_guard<std::mutex> lock(m);
    return per_device[id];
  }
  std::set<std::thread::id> threads() {
    std::lock_guard<std::mutex> lock(m);
    return thread_ids;
  }

  std::vector<std::atomic<int>> hits;
  std::size_t bytes_per_iteration = 0;
  bool declares_bytes = false; // device_bytes() tells the runtime what a chunk allocates
  std::chrono::microseconds sleep_per_iteration{0};
  std::int64_t throw_at = -1;
  bool host_only = false;
  std::atomic<std::uint64_t> host_iterations{0};
  std::function<void(std::uint64_t)> inner; // run inside each iteration (nested loops)

private:
  void run(gpu_autopar::device_context* dev, std::uint64_t b, std::uint64_t e) {
    {
      std::lock_guard<std::mutex> lock(m);
      per_device[dev ? dev->id() : -1] += e - b;
      thread_ids.insert(std::this_thread::get_id());
    }
    if (!dev)
      host_iterations += e - b;
    for (std::uint64_t k = b; k < e; ++k) {
      if (std::int64_t(k) == throw_at)
        throw std::runtime_error("body failed at " + std::to_string(k));
      if (inner)
        inner(k);
      hits[k].fetch_add(1);
    }
    if (sleep_per_iteration.count())
      std::this_thread::sleep_for(sleep_per_iteration * (e - b));
  }

  std::mutex m;
  std::map<int, std::uint64_t> per_device;
  std::set<std::thread::id> thread_ids;
};

// A field of a flat JSON object line: the text after "key": up to , or }.
inline std::string json_field(const std::string& line, const std::string& key, std::size_t from = 0) {
  std::size_t at = line.find("\"" + key + "\":", from);
  if (at == std::string::npos)
    return "";
  at += key.size() + 3;
  std::size_t end = at;
  int depth = 0;
  bool in_string = false;
  for (; end < line.size(); ++end) {
    char c = line[end];
    if (c == '"' && (end == 0 || line[end - 1] != '\\'))
      in_string = !in_string;
    if (in_string)
      continue;
    if (c == '{' || c == '[')
      ++depth;
    if (c == '}' || c == ']') {
      if (depth == 0)
        break;
      --depth;
    }
    if (c == ',' && depth == 0)
      break;
  }
  return line.substr(at, end - at);
}

// Sums "iterations" of the entries of "devices" and counts those with work.
inline void device_iterations(const std::string& line, std::uint64_t& total, int& used) {
  std::string devices = json_field(line, "devices");
  total = 0;
  used = 0;
  for (std::size_t at = devices.find("\"iterations\":"); at != std::string::npos;
       at = devices.find("\"iterations\":", at + 1)) {
    std::uint64_t n = std::strtoull(devices.c_str() + at + 13, nullptr, 10);
    total += n;
    used += n > 0;
  }
}

} // namespace rt_test
