#include "loop_report.h"

#include <cstdio>

namespace gpu_autopar {
namespace detail {
namespace {

std::string format(const char* fmt, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

std::string entry_name(const report_entry& e) {
  if (e.kind == device_kind::cpu)
    return "cpu";
  return std::string(kind_name(e.kind)) + std::to_string(e.id);
}

std::string number(std::uint64_t v) { return std::to_string(v); }

std::string counters_json(const device_counters& c) {
  return ",\"h2d_bytes\":" + number(c.h2d_bytes) + ",\"h2d_copies\":" + number(c.h2d_copies) +
         ",\"d2h_bytes\":" + number(c.d2h_bytes) + ",\"d2h_copies\":" + number(c.d2h_copies) +
         ",\"allocations\":" + number(c.allocations) + ",\"launches\":" + number(c.launches) +
         ",\"syncs\":" + number(c.synchronizations) +
         (c.p2p_copies ? ",\"p2p_bytes\":" + number(c.p2p_bytes) + ",\"p2p_copies\":" + number(c.p2p_copies)
                       : std::string()) +
         (c.link_seconds > 0 ? ",\"link_seconds\":" + format("%.6f", c.link_seconds) +
                                   ",\"link_wait_seconds\":" + format("%.6f", c.link_wait_seconds)
                             : std::string());
}

// 1536 -> "1.5 KiB": the log line is read by people; the JSON has the bytes.
std::string bytes_text(std::uint64_t b) {
  static const char* const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = double(b);
  int u = 0;
  while (v >= 1024 && u < 4) {
    v /= 1024;
    ++u;
  }
  return u == 0 ? number(b) + " B" : format("%.1f ", v) + units[u];
}

std::string counters_text(const device_counters& c) {
  return " (in " + bytes_text(c.h2d_bytes) + ", out " + bytes_text(c.d2h_bytes) + ", " + number(c.allocations) +
         " alloc, " + number(c.launches) + " launch, " + number(c.synchronizations) + " sync)";
}

} // namespace

const char* mode_name(loop_mode m) {
  switch (m) {
  case loop_mode::kernel: return "kernel";
  case loop_mode::task: return "task";
  case loop_mode::host: return "host";
  }
  return "kernel";
}

const char* kind_name(device_kind k) {
  switch (k) {
  case device_kind::cpu: return "cpu";
  case device_kind::sim: return "sim";
  case device_kind::cuda: return "cuda";
  }
  return "cpu";
}

const char* backend_of(const loop_record& r) {
  bool cpu = false, sim = false, cuda = false;
  for (const report_entry& e : r.devices) {
    if (e.iterations == 0)
      continue;
    (e.kind == device_kind::cpu ? cpu : e.kind == device_kind::sim ? sim : cuda) = true;
  }
  if (int(cpu) + int(sim) + int(cuda) > 1)
    return "mixed";
  return cuda ? "cuda" : sim ? "sim" : "cpu";
}

std::string json_escape(const std::string& s) {
  std::string out;
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += char(c);
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += char(c);
    }
  }
  return out;
}

std::string report_json(const loop_record& r) {
  std::string j = "{\"loop\":\"" + json_escape(std::string(r.site.file) + ":" + std::to_string(r.site.line)) + "\"";
  if (r.rank >= 0)
    j += ",\"rank\":" + std::to_string(r.rank);
  j += std::string(",\"mode\":\"") + mode_name(r.mode) + "\",\"iterations\":" + std::to_string(r.iterations) +
                  ",\"backend\":\"" + backend_of(r) + "\"";
  if (r.serial)
    j += ",\"serial\":true";
  if (!r.serial_reason.empty())
    j += ",\"serial_reason\":\"" + json_escape(r.serial_reason) + "\"";
  if (r.nested)
    j += ",\"nested\":true";
  j += ",\"devices\":[";
  for (std::size_t i = 0; i < r.devices.size(); ++i) {
    const report_entry& e = r.devices[i];
    j += i ? ",{" : "{";
    j += "\"id\":" + std::to_string(e.id) + ",\"kind\":\"" + kind_name(e.kind) + "\"";
    if (e.threads > 0)
      j += ",\"threads\":" + std::to_string(e.threads);
    j += ",\"iterations\":" + std::to_string(e.iterations) + ",\"chunks\":" + std::to_string(e.chunks) +
         ",\"retries\":" + std::to_string(e.retries) + ",\"failures\":" + std::to_string(e.failures) +
         ",\"seconds\":" + format("%.6f", e.seconds);
    if (e.kind != device_kind::cpu)
      j += counters_json(e.counters);
    j += "}";
  }
  j += "],\"fallback\":";
  if (r.fallback_to)
    j += std::string("{\"to\":\"") + r.fallback_to + "\",\"reason\":\"" + json_escape(r.fallback_reason) + "\"}";
  else
    j += "null";
  j += r.tag_json;
  j += ",\"seconds\":" + format("%.6f", r.seconds) + "}\n";
  return j;
}

std::string info_line(const loop_record& r) {
  std::string s = std::string("gpu-autopar: ") + r.site.file + ":" + std::to_string(r.site.line) + ": " +
                  mode_name(r.mode) + " loop, " + std::to_string(r.iterations) + " iterations ";
  if (r.serial) {
    s += "serially on the calling thread (" +
         (r.serial_reason.empty() ? "below min_iterations " + std::to_string(r.serial_below) : r.serial_reason) +
         ")";
  } else if (r.devices.size() == 1 && r.devices[0].kind == device_kind::cpu && r.devices[0].threads > 0) {
    s += "on cpu (" + std::to_string(r.devices[0].threads) + " threads)";
  } else {
    std::size_t used = 0;
    bool same_kind = true;
    for (const report_entry& e : r.devices) {
      used += e.iterations > 0;
      same_kind = same_kind && e.kind == r.devices[0].kind;
    }
    s += "on " + std::to_string(used) + " " +
         (same_kind && !r.devices.empty() ? std::string(kind_name(r.devices[0].kind)) + " " : std::string()) +
         (used == 1 ? "device" : "devices");
    const char* sep = ": ";
    for (const report_entry& e : r.devices) {
      s += sep + entry_name(e) + " " + std::to_string(e.iterations);
      if (e.kind != device_kind::cpu)
        s += counters_text(e.counters);
      sep = ", ";
    }
  }
  if (r.nested)
    s += " (nested, on the enclosing loop's lease)";
  if (r.fallback_to)
    s += std::string(" (fallback to ") + r.fallback_to + ": " + r.fallback_reason + ")";
  return s + r.tag_log + "\n";
}

} // namespace detail
} // namespace gpu_autopar
